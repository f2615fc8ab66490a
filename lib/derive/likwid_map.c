/*
 * likwid_map.c: LIKWID's events and metrics onto pmkit's events and its
 * one evaluator (likwid.h).
 *
 * LIKWID names an event by its own name (RETIRED_INSTRUCTIONS,
 * FP_ARITH_INST_RETIRED_128B_PACKED_DOUBLE): Intel's name with the dot
 * written as '_', AMD's names much as libpfm4 writes them. Each event is
 * tried, in order, as:
 *  - a name of the few LIKWID gives its fixed, energy and top-down
 *    counters (fixed[] below: which perf or libpfm4 name counts the same
 *    thing);
 *  - the name as it is (libpfm4's AMD natives);
 *  - the name split at one '_' into perf's EVENT.UMASK or libpfm4's
 *    EVENT:UMASK (a unit mask ALL also tried as ANY),
 * and the first string pmk_event_parse() encodes on the target is taken:
 * what is encoded is libpfm4's or perf's JSON definition, never a table
 * here. Memory-controller counters (MBOXn) are the target's uncore_imc_n
 * PMU's aliases; energy counters (PWRn) the power PMU's events times their
 * sysfs scale (Joules, as LIKWID gives them); top-down counters (TMAn)
 * perf's topdown-* events over slots (LIKWID gives fractions). What
 * remains is refused with the reason.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lib/core/infile.h"
#include "lib/derive/likwid.h"
#include "lib/event/target.h"
#include "lib/event/topo.h"

/* pmkit's (libpfm4's) model names -> LIKWID 5.2's arch directories. */
static const struct {
	const char *model, *arch;
} archs[] = {
    {"amd64_fam17h_zen1", "zen"},
    {"amd64_fam17h_zen2", "zen2"},
    {"amd64_fam19h_zen3", "zen3"},
    {"amd64_fam15h_interlagos", "interlagos"},
    {"amd64_fam16h", "kabini"},
    {"amd64_k8_revg", "k8"},
    {"amd64_fam10h_barcelona", "k10"},
    {"icx", "ICX"},
    {"icl", "ICL"},
    {"clx", "CLX"},
    {"skx", "skylakeX"},
    {"skl", "skylake"},
    {"bdw_ep", "broadwellEP"},
    {"bdw", "broadwell"},
    {"hsw_ep", "haswellEP"},
    {"hsw", "haswell"},
    {"ivb_ep", "ivybridgeEP"},
    {"ivb", "ivybridge"},
    {"snb_ep", "sandybridgeEP"},
    {"snb", "sandybridge"},
    {"nhm", "nehalem"},
    {"nhm_ex", "nehalemEX"},
    {"wsm", "westmere"},
    {"wsm_dp", "westmere"},
    {"knl", "knl"},
    {"slm", "silvermont"},
    {"glm", "goldmont"},
    {"core", "core2"},
    {"arm_n1", "arm8_n1"},
    {"arm_a64fx", "arm64fx"},
    {"arm_thunderx2", "arm8_tx2"},
};

const char *pmk__lw_arch(const char *model)
{
	for (size_t i = 0; model && i < sizeof archs / sizeof archs[0]; i++)
		if (!strcmp(archs[i].model, model))
			return archs[i].arch;
	return NULL;
}

/*
 * LIKWID's names for what its fixed, energy and top-down counters count,
 * with the names pmkit encodes for the same thing, tried in order
 * ('|'-separated). A name in {braces} is an expression template: %s is
 * the core PMU.
 */
static const struct {
	const char *likwid, *pmkit;
} fixed[] = {
    /* Intel's fixed counters */
    {"INSTR_RETIRED_ANY", "INST_RETIRED.ANY|INST_RETIRED:ANY_P|instructions"},
    {"CPU_CLK_UNHALTED_CORE",
     "CPU_CLK_UNHALTED.THREAD|CPU_CLK_UNHALTED:THREAD_P|cycles"},
    {"CPU_CLK_UNHALTED_REF",
     "CPU_CLK_UNHALTED.REF_TSC|CPU_CLK_UNHALTED:REF_TSC|ref-cycles"},
    {"TOPDOWN_SLOTS", "TOPDOWN.SLOTS|slots|TOPDOWN:SLOTS"},
    /* on a general counter LIKWID counts the architectural ANY_P */
    {"INST_RETIRED_ANY", "INST_RETIRED.ANY_P|INST_RETIRED:ANY_P|instructions"},
    /* AMD's core cycles and LIKWID's APERF/MPERF fixed counters */
    {"CPU_CLOCKS_UNHALTED", "ls_not_halted_cyc|CYCLES_NOT_IN_HALT|cycles"},
    {"ACTUAL_CPU_CLOCK", "msr/aperf/"},
    {"MAX_CPU_CLOCK", "msr/mperf/"},
    {"APERF", "msr/aperf/"},
    {"MPERF", "msr/mperf/"},
    {"PPERF", "msr/pperf/"},
    /* AMD Zen: LIKWID's names whose event code and unit mask (liblikwid's
     * tables) are those of perf's Zen 3 JSON event of the other name */
    {"CORE_TO_L2_CACHE_REQUESTS_HITS", "l2_cache_req_stat.ic_dc_hit_in_l2"},
    {"DATA_CACHE_ACCESSES", "ls_dc_accesses"},
    {"DIV_BUSY_CYCLES", "ex_div_busy"},
    {"DIV_OP_COUNT", "ex_div_count|DIV_OP_COUNT"},
    {"ICACHE_FETCHES", "ic_fw32"},
    {"ICACHE_L2_REFILLS", "ic_cache_fill_l2"},
    {"ICACHE_SYSTEM_REFILLS", "ic_cache_fill_sys"},
    {"L1_DTLB_MISS_ANY_L2_MISS", "l2_dtlb_misses"},
    {"L1_ITLB_MISS_L2_ITLB_HIT", "bp_l1_tlb_miss_l2_tlb_hit"},
    {"L2_CACHE_MISS_AFTER_L1_MISS", "l2_cache_req_stat.ic_dc_miss_in_l2"},
    {"L2_PF_HIT_IN_L2", "l2_pf_hit_l2"},
    {"L2_PF_HIT_IN_L3", "l2_pf_miss_l2_hit_l3"},
    {"L2_PF_MISS_IN_L3", "l2_pf_miss_l2_l3"},
    {"LS_DISPATCH_LOADS", "ls_dispatch.ld_dispatch"},
    {"LS_DISPATCH_STORES", "ls_dispatch.store_dispatch"},
    {"LS_DISPATCH_LOAD_OP_STORES", "ls_dispatch.ld_st_dispatch"},
    {"REQUESTS_TO_L2_GRP1_ALL_NO_PF", "l2_request_g1.all_no_prefetch"},
    {"RETIRED_INSTRUCTIONS", "ex_ret_instr|RETIRED_INSTRUCTIONS"},
    {"RETIRED_BRANCH_INSTR", "ex_ret_brn"},
    {"RETIRED_MISP_BRANCH_INSTR", "ex_ret_brn_misp"},
    {"RETIRED_UOPS", "ex_ret_ops"},
    {"RETIRED_SSE_AVX_FLOPS_ALL",
     "RETIRED_SSE_AVX_FLOPS:ANY|fp_ret_sse_avx_ops.all"},
    /* ... and whose unit masks are libpfm4's named unit masks together
     * (DATA_CACHE_REFILLS_ALL: LIKWID sets the reserved bits too) */
    {"DATA_CACHE_REFILLS_LOCAL_ALL",
     "DEMAND_DATA_CACHE_FILLS_FROM_SYSTEM:LCL_L2:INT_CACHE:EXT_CACHE_LCL:"
     "MEM_IO_LCL"},
    {"DATA_CACHE_REFILLS_REMOTE_ALL",
     "DEMAND_DATA_CACHE_FILLS_FROM_SYSTEM:EXT_CACHE_RMT:MEM_IO_RMT"},
    {"DATA_CACHE_REFILLS_ALL",
     "DEMAND_DATA_CACHE_FILLS_FROM_SYSTEM:LCL_L2:INT_CACHE:EXT_CACHE_LCL:"
     "MEM_IO_LCL:EXT_CACHE_RMT:MEM_IO_RMT"},
    {"HWPREF_DATA_CACHE_FILLS_LOCAL_ALL",
     "HARDWARE_PREFETCH_DATA_CACHE_FILLS:LCL_L2:INT_CACHE:EXT_CACHE_LCL:"
     "MEM_IO_LCL"},
    {"HWPREF_DATA_CACHE_FILLS_REMOTE_ALL",
     "HARDWARE_PREFETCH_DATA_CACHE_FILLS:EXT_CACHE_RMT:MEM_IO_RMT"},
    {"L1_DTLB_MISS_ANY_L2_HIT",
     "LS_L1_D_TLB_MISS:TLB_RELOAD_4K_L2_HIT:TLB_RELOAD_COALESCED_PAGE_HIT:"
     "TLB_RELOAD_2M_L2_HIT:TLB_RELOAD_1G_L2_HIT"},
    {"L1_ITLB_MISS_L2_ITLB_MISS_ANY",
     "L1_ITLB_MISS_L2_ITLB_MISS:COALESCED4K:IF1G:IF2M:IF4K"},
};

/* Top-down level 1 (TMAn): LIKWID's fraction of slots. */
static const struct {
	const char *likwid, *perf;
} topdown[] = {
    {"RETIRING", "topdown-retiring"},
    {"BAD_SPECULATION", "topdown-bad-spec"},
    {"FRONTEND_BOUND", "topdown-fe-bound"},
    {"BACKEND_BOUND", "topdown-be-bound"},
};

/* Energy (PWRn): the power PMU's events. */
static const struct {
	const char *likwid, *perf;
} energy[] = {
    {"PWR_PKG_ENERGY", "energy-pkg"},	    {"PWR_PP0_ENERGY", "energy-cores"},
    {"PWR_PP1_ENERGY", "energy-gpu"},	    {"PWR_DRAM_ENERGY", "energy-ram"},
    {"PWR_PLATFORM_ENERGY", "energy-psys"}, {"RAPL_PKG_ENERGY", "energy-pkg"},
    {"RAPL_CORE_ENERGY", "energy-cores"},
};

/* Memory controller (MBOXnCm): the imc PMU's aliases. */
static const struct {
	const char *likwid, *perf;
} imc[] = {
    {"CAS_COUNT_RD", "cas_count_read"},
    {"CAS_COUNT_WR", "cas_count_write"},
    {"DRAM_CLOCKTICKS", "clockticks"},
};

/* LIKWID's counter kinds pmkit does not map, for the reason. */
static const struct {
	const char *prefix, *what;
} unmapped_units[] = {
    {"CPMC", "AMD's L3 cache counters"},
    {"DFC", "AMD's data-fabric counters"},
    {"CBOX", "the LLC/CHA boxes"},
    {"QBOX", "the UPI/QPI link boxes"},
    {"SBOX", "the QPI link boxes"},
    {"UBOX", "the uncore's U-box"},
    {"WBOX", "the power-control boxes"},
    {"BBOX", "the home agents"},
    {"RBOX", "the ring-to-QPI boxes"},
    {"PBOX", "the ring-to-PCIe boxes"},
    {"IBOX", "the I/O boxes"},
    {"MDEV", "the memory controllers' free-running counters"},
    {"HBM", "the HBM boxes"},
    {"M2M", "the mesh-to-memory boxes"},
    {"TMP", "the thermal sensor (an MSR, no perf event)"},
    {"VTG", "the core voltage (an MSR, no perf event)"},
};

static int parses(const pmk_target *t, const char *s)
{
	pmk_event ev;
	pmk_diag d;
	return pmk_event_parse(t, s, &ev, &d) == 0;
}

/* Whether the target has PMU `name`. */
static int has_pmu(const pmk_target *t, const char *name)
{
	return pmk__target_pmu(t, name) != NULL;
}

/* The sysfs scale of a power PMU event: its .scale file, else 2^-32 (the
 * kernel's RAPL PMU counts energy in 2^-32 J whatever the hardware's unit;
 * the fixtures were captured without the .scale files). */
static double event_scale(const pmk_target *t, const char *pmu, const char *ev)
{
	char path[600], *text = NULL;
	double v = 0x1p-32;
	pmk_diag d;
	if (!t->sysfs[0])
		return v;
	snprintf(path, sizeof path,
		 "%s/bus/event_source/devices/%s/events/%s.scale", t->sysfs,
		 pmu, ev);
	if (pmk__infile_read(path, PMK__IN_PSEUDO, 256, &text, NULL, &d) == 0) {
		char *end;
		double s = strtod(text, &end);
		if (end != text && s > 0 && isfinite(s))
			v = s;
		free(text);
	}
	return v;
}

/* The first of the '|'-separated strings that encodes, quoted into expr. */
static int first_of(const pmk_target *t, const char *list, const char *mod,
		    char *expr, size_t size)
{
	char buf[512], *save = NULL;
	snprintf(buf, sizeof buf, "%s", list);
	for (char *s = strtok_r(buf, "|", &save); s;
	     s = strtok_r(NULL, "|", &save)) {
		char full[300];
		snprintf(full, sizeof full, "%s%s", s, mod);
		if (parses(t, full)) {
			snprintf(expr, size, "\"%s\"", full);
			return 0;
		}
	}
	return -1;
}

/* A core event by LIKWID's name: as is, then split at each '_'. */
static int core_event(const pmk_target *t, const char *name, const char *mod,
		      char *expr, size_t size)
{
	char s[200];
	if (strlen(name) >= 96)
		return -1;
	snprintf(s, sizeof s, "%s%s", name, mod);
	if (parses(t, s)) {
		snprintf(expr, size, "\"%s\"", s);
		return 0;
	}
	for (const char *u = strchr(name, '_'); u; u = strchr(u + 1, '_')) {
		int n = (int)(u - name);
		const char *um = u + 1;
		static const char seps[] = ".:";
		if (!*um)
			break;
		for (int k = 0; k < 2; k++) {
			snprintf(s, sizeof s, "%.*s%c%s%s", n, name, seps[k],
				 um, mod);
			if (parses(t, s))
				goto found;
			if (!strcmp(um, "ALL")) {
				snprintf(s, sizeof s, "%.*s%cANY%s", n, name,
					 seps[k], mod);
				if (parses(t, s))
					goto found;
			}
		}
	}
	return -1;
found:
	snprintf(expr, size, "\"%s\"", s);
	return 0;
}

/* The counter's kind: its name without the trailing index/box digits. */
static int prefix_is(const char *counter, const char *prefix)
{
	size_t n = strlen(prefix);
	return !strncmp(counter, prefix, n) &&
	       (isdigit((unsigned char)counter[n]) || !counter[n] ||
		!strcmp(prefix, "UBOX"));
}

int pmk__lw_map_event(const pmk_target *t, const pmk__lw_event *e, int *skip,
		      char *expr, size_t size)
{
	const char *c = e->counter, *core = pmk_target_core_pmu(t);
	char mod[16] = "";
	*skip = 0;
	if (!strcmp(e->name, "MERGE")) {
		/* LIKWID pairs two counters for events that count more than
		 * 15 a cycle; Linux pairs them itself for those events */
		*skip = 1;
		snprintf(expr, size, "0");
		return 0;
	}
	if (e->opts[0]) {
		if (strcmp(e->opts, "EDGEDETECT") ||
		    !(prefix_is(c, "PMC") || prefix_is(c, "FIXC"))) {
			snprintf(expr, size,
				 "counter option '%s' has no mapping in pmkit",
				 e->opts);
			return -1;
		}
		snprintf(mod, sizeof mod, ":e");
	}
	if (prefix_is(c, "TMA")) {
		for (size_t i = 0; i < sizeof topdown / sizeof topdown[0]; i++)
			if (!strcmp(e->name, topdown[i].likwid)) {
				char a[200], b[200];
				snprintf(a, sizeof a, "%s/%s/",
					 core ? core : "cpu", topdown[i].perf);
				snprintf(b, sizeof b, "%s/slots/",
					 core ? core : "cpu");
				if (!parses(t, a) || !parses(t, b)) {
					snprintf(expr, size,
						 "the core PMU does not export "
						 "%s and slots (top-down "
						 "level 1)",
						 topdown[i].perf);
					return -1;
				}
				snprintf(expr, size, "(\"%s\" / \"%s\")", a, b);
				return 0;
			}
		snprintf(expr, size, "unknown top-down counter event");
		return -1;
	}
	if (prefix_is(c, "PWR")) {
		for (size_t i = 0; i < sizeof energy / sizeof energy[0]; i++)
			if (!strcmp(e->name, energy[i].likwid)) {
				char a[200];
				snprintf(a, sizeof a, "power/%s/",
					 energy[i].perf);
				if (!parses(t, a)) {
					snprintf(expr, size,
						 "the target's power PMU does "
						 "not export %s",
						 energy[i].perf);
					return -1;
				}
				snprintf(
				    expr, size, "(\"%s\" * %.17g)", a,
				    event_scale(t, "power", energy[i].perf));
				return 0;
			}
		snprintf(expr, size, "no perf energy event for it");
		return -1;
	}
	if (prefix_is(c, "MBOX")) {
		int box = atoi(c + 4);
		char pmu[64], a[200];
		snprintf(pmu, sizeof pmu, "uncore_imc_%d", box);
		if (!has_pmu(t, pmu)) {
			snprintf(expr, size, "the target has no PMU '%s'", pmu);
			return -1;
		}
		for (size_t i = 0; i < sizeof imc / sizeof imc[0]; i++)
			if (!strcmp(e->name, imc[i].likwid)) {
				snprintf(a, sizeof a, "%s/%s/", pmu,
					 imc[i].perf);
				if (parses(t, a)) {
					snprintf(expr, size, "\"%s\"", a);
					return 0;
				}
			}
		snprintf(expr, size, "PMU '%s' exports no event for it", pmu);
		return -1;
	}
	if (prefix_is(c, "PMC") || prefix_is(c, "FIXC")) {
		for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
			if (!strcmp(e->name, fixed[i].likwid)) {
				if (first_of(t, fixed[i].pmkit, mod, expr,
					     size) == 0)
					return 0;
				break; /* then as LIKWID writes it */
			}
		if (!core) {
			snprintf(expr, size, "the target has no core PMU");
			return -1;
		}
		if (core_event(t, e->name, mod, expr, size) == 0)
			return 0;
		snprintf(expr, size,
			 "neither libpfm4 nor perf's JSON has it for model "
			 "'%s' (as written, or as EVENT.UMASK/EVENT:UMASK)",
			 pmk_target_model(t));
		return -1;
	}
	for (size_t i = 0; i < sizeof unmapped_units / sizeof unmapped_units[0];
	     i++)
		if (prefix_is(c, unmapped_units[i].prefix)) {
			snprintf(expr, size, "%s (%s): no mapping in pmkit",
				 unmapped_units[i].what,
				 unmapped_units[i].prefix);
			return -1;
		}
	snprintf(expr, size,
		 "LIKWID's counter kind of '%s': no mapping in "
		 "pmkit",
		 c);
	return -1;
}

/* ------------------------------------------------------------ formulas */

/* The group's event on counter `name` (len bytes), or -1. */
static int counter_index(const pmk__lw_group *g, const char *name, size_t len)
{
	for (int i = 0; i < g->nevent; i++)
		if (strlen(g->event[i].counter) == len &&
		    !strncmp(g->event[i].counter, name, len))
			return i;
	return -1;
}

struct out {
	char *s;
	size_t n, cap;
	int oom;
};

static void put(struct out *o, const char *s)
{
	size_t l = strlen(s);
	if (o->oom)
		return;
	if (o->n + l + 1 > o->cap) {
		size_t cap = (o->n + l + 1) * 2;
		char *p = realloc(o->s, cap);
		if (!p) {
			o->oom = 1;
			return;
		}
		o->s = p;
		o->cap = cap;
	}
	memcpy(o->s + o->n, s, l + 1);
	o->n += l;
}

/* The TSC's period in seconds as an expression: the target's declared
 * frequency, else measured (task-clock over the TSC's ticks while the
 * task runs: the msr PMU's tsc counts as a task's event). */
static int inverse_clock(const pmk_target *t, char *buf, size_t size)
{
	pmk__topo topo;
	if (pmk__target_topo(t, &topo) == 0 && topo.tsc_hz > 0) {
		snprintf(buf, size, "%.17g", 1 / topo.tsc_hz);
		return 0;
	}
	if (parses(t, "msr/tsc/") && parses(t, "task-clock")) {
		snprintf(buf, size, "(task-clock / 1e9 / \"msr/tsc/\")");
		return 0;
	}
	snprintf(buf, size,
		 "inverseClock: the target declares no TSC frequency (no '@ "
		 "GHz' in cpuinfo's model name) and has no msr/tsc/ event "
		 "to measure it");
	return -1;
}

/* Translate the formula of metric k into `o`: 0, or -1 with `why`. */
static int translate(const pmk_target *t, const pmk__lw_group *g,
		     const pmk__lw_mapped *m, int k, struct out *o, char *why,
		     size_t size)
{
	const char *f = g->metric[k].formula, *p = f;
	while (*p) {
		char buf[400];
		if (isalpha((unsigned char)*p) || *p == '_') {
			const char *s = p;
			int i;
			while (isalnum((unsigned char)*p) || *p == '_')
				p++;
			if (*p == ':') {
				snprintf(why, size,
					 "counter options in a formula "
					 "('%.60s') are not supported",
					 s);
				return -1;
			}
			i = counter_index(g, s, (size_t)(p - s));
			if (i >= 0) {
				if (!m->ok[i]) {
					snprintf(why, size, "%s (%s): %.180s",
						 g->event[i].name,
						 g->event[i].counter,
						 m->expr[i]);
					return -1;
				}
				put(o, " (");
				put(o, m->expr[i]);
				put(o, ") ");
				continue;
			}
			if (p - s == 4 && !strncmp(s, "time", 4)) {
				put(o, " (duration_time / 1e9) ");
				continue;
			}
			if (p - s == 12 && !strncmp(s, "inverseClock", 12)) {
				if (inverse_clock(t, buf, sizeof buf) < 0) {
					snprintf(why, size, "%s", buf);
					return -1;
				}
				put(o, " ");
				put(o, buf);
				put(o, " ");
				continue;
			}
			if (p - s == 11 && !strncmp(s, "num_sockets", 11)) {
				pmk__topo topo;
				if (pmk__target_topo(t, &topo) < 0 ||
				    topo.packages < 1) {
					snprintf(why, size,
						 "num_sockets: the target "
						 "declares no packages");
					return -1;
				}
				snprintf(buf, sizeof buf, " %d ",
					 topo.packages);
				put(o, buf);
				continue;
			}
			snprintf(why, size,
				 "'%.*s' is neither a counter of the group nor "
				 "a variable pmkit knows (time, inverseClock, "
				 "num_sockets)",
				 (int)(p - s > 60 ? 60 : p - s), s);
			return -1;
		}
		if (isdigit((unsigned char)*p) || *p == '.') {
			char *end;
			double v = strtod(p, &end);
			if (end == p || !isfinite(v)) {
				snprintf(why, size, "bad number at '%.20s'", p);
				return -1;
			}
			snprintf(buf, sizeof buf, " %.17g ", v);
			put(o, buf);
			p = end;
			continue;
		}
		if (strchr("+-*/()", *p)) {
			buf[0] = ' ';
			buf[1] = *p++;
			buf[2] = ' ';
			buf[3] = 0;
			put(o, buf);
			continue;
		}
		snprintf(why, size, "unexpected '%c' in the formula", *p);
		return -1;
	}
	if (o->oom) {
		snprintf(why, size, "out of memory");
		return -1;
	}
	return 0;
}

int pmk__lw_metric_text(const pmk_target *t, const pmk__lw_group *g,
			const pmk__lw_mapped *m, int k, char **text, char *why,
			size_t size)
{
	struct out o = {0};
	char head[32];
	*text = NULL;
	snprintf(head, sizeof head, "lw_%d =", k);
	put(&o, head);
	if (translate(t, g, m, k, &o, why, size) < 0) {
		free(o.s);
		return -1;
	}
	put(&o, "\n");
	if (o.oom) {
		free(o.s);
		snprintf(why, size, "out of memory");
		return -1;
	}
	*text = o.s;
	return 0;
}

static int resolve(const char *name, pmk_event *ev, pmk_diag *d, void *arg)
{
	return pmk_event_parse((const pmk_target *)arg, name, ev, d);
}

int pmk__lw_metric_defs(const pmk_target *t, const pmk__lw_group *g,
			const pmk__lw_mapped *m, int k, pmk_defs **out,
			int *index, char *why, size_t size)
{
	char *text, label[600];
	pmk_defs_opts op = {0};
	pmk_diag d;
	int rc;
	*out = NULL;
	if (pmk__lw_metric_text(t, g, m, k, &text, why, size) < 0)
		return -1;
	op.resolve = resolve;
	op.arg = (void *)t;
	op.no_include = 1;
	op.model = pmk_target_model(t);
	snprintf(label, sizeof label, "%s:%d", g->path, g->metric[k].line);
	rc = pmk_defs_parse_string(out, label, text, &op, &d);
	free(text);
	if (rc < 0) {
		snprintf(why, size, "%s", d.message);
		return -1;
	}
	snprintf(label, sizeof label, "lw_%d", k);
	*index = pmk_defs_find(*out, label);
	if (*index < 0) {
		pmk_defs_free(*out);
		*out = NULL;
		snprintf(why, size, "not found after translation");
		return -1;
	}
	return 0;
}

void pmk__lw_map(const pmk_target *t, const pmk__lw_group *g, pmk__lw_mapped *m)
{
	memset(m, 0, sizeof *m);
	for (int i = 0; i < g->nevent; i++) {
		m->ok[i] =
		    pmk__lw_map_event(t, &g->event[i], &m->skip[i], m->expr[i],
				      sizeof m->expr[i]) == 0;
		m->nunmapped += !m->ok[i];
	}
	for (int k = 0; k < g->nmetric; k++) {
		pmk_defs *defs;
		pmk_event ev;
		pmk_diag d;
		int idx;
		char *why = m->mwhy[k];
		size_t size = sizeof m->mwhy[k];
		if (pmk__lw_metric_defs(t, g, m, k, &defs, &idx, why, size) <
		    0) {
			m->nmissing++;
			continue;
		}
		for (int b = 0; b < pmk_defs_base_count(defs, idx); b++)
			if (!pmk_defs_base_resolved(defs, idx, b)) {
				snprintf(why, size, "'%.200s' has no encoding",
					 pmk_defs_base(defs, idx, b));
				goto refused;
			}
		if (pmk_defs_event(defs, idx, &ev, &d) < 0) {
			snprintf(why, size, "%.240s", d.message);
			goto refused;
		}
		m->mok[k] = 1;
		pmk_defs_free(defs);
		continue;
	refused:
		m->nmissing++;
		pmk_defs_free(defs);
	}
}

int pmk__lw_event_compile(const pmk_target *t, const pmk__lw_group *g,
			  const pmk__lw_mapped *m, int i, pmk_event *ev,
			  char *why, size_t size)
{
	char text[400], label[600];
	pmk_defs_opts op = {0};
	pmk_defs *defs;
	pmk_diag d;
	int idx;
	if (!m->ok[i] || m->skip[i]) {
		snprintf(why, size, "%s",
			 m->ok[i] ? "not an event to count" : m->expr[i]);
		return -1;
	}
	snprintf(text, sizeof text, "lw_event = %s\n", m->expr[i]);
	op.resolve = resolve;
	op.arg = (void *)t;
	op.no_include = 1;
	op.model = pmk_target_model(t);
	snprintf(label, sizeof label, "%s:%d", g->path, g->event[i].line);
	if (pmk_defs_parse_string(&defs, label, text, &op, &d) < 0) {
		snprintf(why, size, "%s", d.message);
		return -1;
	}
	idx = pmk_defs_find(defs, "lw_event");
	if (idx < 0 || pmk_defs_event(defs, idx, ev, &d) < 0) {
		snprintf(why, size, "%s", idx < 0 ? "not compiled" : d.message);
		pmk_defs_free(defs);
		return -1;
	}
	pmk_defs_free(defs);
	return 0;
}
