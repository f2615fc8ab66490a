/*
 * cmd_stat.c: `pmkit stat`: count events while a command runs (or a
 * built-in workload, or a process or thread with what it creates, or every
 * CPU) and print the counts, taking perf stat's options and printing its
 * layouts (stat_output.c):
 *
 *  Performance counter stats for 'sleep 0.1':
 *
 *              0.73 msec task-clock        #    0.007 CPUs utilized
 *                75      page-faults       #  102.118 K/sec
 *
 * The event strings are all parsed before anything runs: a bad one is
 * shown with a marker under its column and pmkit exits 2, as does every
 * usage error (cli/opt.c). Events that cannot be counted here become
 * `<not supported>` rows with the reason; the default list adapts to what
 * the machine counts. The exit status is the workload's own.
 */
/* pmkit-command: stat | count events while a command runs */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/mpi_rank.h"
#include "cli/opt.h"
#include "cli/personality.h"
#include "cli/stat_control.h"
#include "cli/stat_likwid.h"
#include "cli/stat_metrics.h"
#include "cli/stat_file.h"
#include "cli/stat_output.h"
#include "cli/stat_scope.h"
#include "cli/stop.h"
#include "cli/workload.h"
#include "lib/core/infile.h"
#include "lib/core/outfile.h"
#include "lib/count/eventset.h"

/* enough for a glob over every syscall tracepoint (about 700) */
#define MAX_EVENTS 1024
#define MAX_SETS 1024
#define MAX_CGROUPS 64

struct opts {
	char *lists[MAX_EVENTS];
	int nlists;
	int nlists_at_cgroup; /* -e lists before -G (perf: -G is theirs) */
	unsigned long long repeat, interval_ms, interval_count;
	const char *sep, *outfile, *cpus;
	const char *record; /* stat record: the file the counts go to */
	int json, perf_json, extended, all_cpus, no_inherit;
	int metric_only; /* --metric-only */
	int aggr; /* enum stat_aggr */
	pid_t pid, tid;
	char **argv; /* the command, or NULL for the built-in workload */
	int sim;     /* --sim: count on the simulated core */
	const char *sim_config, *sim_workload;
	const char *metrics[MAX_EVENTS]; /* -M */
	int nmetrics, topdown, detailed, verbose, null_run;
	int quiet; /* -q: print no counts (stat record still writes) */
	int sync, append; /* -S: sync() before each run; --append: to -o FILE */
	int metric_no_group, metric_no_merge; /* perf's, for -M and -e */
	int table; /* --table: each run's time (with -r) */
	int td_level; /* --td-level N: perf's TopdownL<N> (0: level 1) */
	const char *interval_arg; /* -I as given */
	double sim_interval_ms;   /* -I with --sim: simulated ms */
	int all_user, all_kernel;
	long delay_ms; /* -D: 0 none, -1 start disabled (never enabled) */
	const char *cgroup, *pre, *post;
	const char *each_cgroup; /* --for-each-cgroup LIST */
	int log_fd;    /* --log-fd N, or -1 */
	int summary, no_csv_summary; /* --summary, --no-csv-summary */
	unsigned long long timeout_ms; /* --timeout: stop the workload */
	const char *control; /* --control fifo:CTL[,ACK] or fd:N[,M] */
};

struct run {
	pmk_event ev[MAX_EVENTS];
	int nev;
	char bare[MAX_EVENTS]; /* a default event: no reason on its row */
	int ngroups, group_first[MAX_EVENTS], group_last[MAX_EVENTS];
	pmk_eventset *set[MAX_SETS];
	char label[MAX_SETS][24];
	int set_unit[MAX_SETS]; /* the aggregation unit of each set */
	int nset;
	/* aggregation units (one when aggregated) */
	char unit_label[MAX_SETS][40];
	int unit_n[MAX_SETS]; /* CPUs in the unit */
	int nunit;
	/* --for-each-cgroup: the cgroups, each a unit of its own */
	int ncg, cg_fd[MAX_CGROUPS];
	char *cg_list, *cg_name[MAX_CGROUPS];
	int cg_scope; /* the sets count cgroups (-G, --for-each-cgroup) */
	struct rec_ctl ctl; /* --control (stat_control.c) */
	int enabled;	    /* the sets count now (not -D -1, not disabled) */
	int ever;	    /* they were enabled at some time (-D -1: maybe not) */
};

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* One event of a -e list into the run, with its {group}: the list's
 * grammar (groups, :mods on groups, tracepoint globs, the column over the
 * whole -e) is pmk_event_list_walk's; the string is parsed here, by the
 * simulator's parser under --sim. */
struct parse_ctx {
	struct run *run;
	int sim;
};

static int parse_item(const pmk_event_item *it, void *arg, pmk_diag *d)
{
	struct parse_ctx *c = arg;
	struct run *r = c->run;
	int rc;
	if (r->nev == MAX_EVENTS) {
		cli_error("more than %d events", MAX_EVENTS);
		return 1;
	}
	rc = c->sim ? pmk_sim_event_parse(it->str, &r->ev[r->nev], d)
		    : pmk_event_parse(pmk_target_host(), it->str,
				      &r->ev[r->nev], d);
	if (rc)
		return rc;
	if (it->group_first)
		r->group_first[r->ngroups] = r->nev;
	if (it->group_last)
		r->group_last[r->ngroups++] = r->nev;
	r->nev++;
	return 0;
}

/* Whether the machine counts hardware events (opened on ourselves; never
 * used to decide anything about software events). */
static int hardware_counts(void)
{
	pmk_eventset *es;
	pmk_diag d;
	int ok;
	if (pmk_eventset_new(&es, PMK_ES_MULTIPLEX) != 0)
		return 0;
	ok = pmk_eventset_add(es, "instructions", &d) >= 0 &&
	     pmk_eventset_open(es, &d) == 0 &&
	     pmk_eventset_event_diag(es, 0) == NULL;
	pmk_eventset_free(es);
	return ok;
}

/* Whether top-down level 1 cannot run here, said in the order a user can
 * act on: a model without definitions is named as such (whatever the
 * counters); a captured machine (PMK_SYSROOT) is described, not counted;
 * then whether this machine counts hardware events at all. */
static int topdown_refused(const char *what)
{
	const pmk_target *t = pmk_target_host();
	const char *model = t ? pmk_target_model(t) : "";
	pmk_topdown *td = NULL;
	pmk_diag d = {0};
	if (model && model[0]) {
		if (pmk_topdown_new(&td, model, 0, &d) < 0) {
			cli_error("%s: %s", what, d.message);
			return 1;
		}
		pmk_topdown_free(td);
	}
	if (t && pmk_target_captured(t)) {
		cli_error("%s: top-down level 1 for CPU model '%s' is defined, "
			  "but PMK_SYSROOT names a captured machine: it is "
			  "described, not counted",
			  what, model);
		return 1;
	}
	if (!hardware_counts()) {
		cli_error("%s needs hardware counters: the core PMU's cycle "
			  "and slot events (metrics/topdown.def); this machine "
			  "counts none (%s)",
			  what,
			  t && pmk_target_core_pmu(t)
			      ? "the core PMU refused to count"
			      : "no hardware PMU: virtual machine?");
		return 1;
	}
	return 0;
}

static const char *const default_sw[] = {"task-clock", "context-switches",
					 "cpu-migrations", "page-faults"};
static const char *const default_hw[] = {"cycles", "instructions", "branches",
					 "branch-misses"};

/* perf's -d, -dd, -ddd: the detailed default set, level by level */
static const char *const detailed[3][6] = {
	{"L1-dcache-loads", "L1-dcache-load-misses", "LLC-loads",
	 "LLC-load-misses"},
	{"L1-icache-load-misses", "dTLB-loads", "dTLB-load-misses",
	 "iTLB-loads", "iTLB-load-misses"},
	{"L1-dcache-prefetches", "L1-dcache-prefetch-misses"},
};

/* perf adds the stalled-cycles events to its default list where the core
 * PMU names them in sysfs (AMD's does, Intel's not). */
static int core_has_stalls(void)
{
	return access("/sys/bus/event_source/devices/cpu/events/"
		      "stalled-cycles-frontend",
		      F_OK) == 0;
}

/* A default event, through the list's walker (a hybrid's generic event is
 * one per core PMU, as perf's default list there); one that does not
 * parse is kept as the parser left it, a row saying why. */
static int add_named(struct run *r, const char *name)
{
	struct parse_ctx c = {r, 0};
	int before = r->nev;
	if (r->nev == MAX_EVENTS)
		return -1;
	if (pmk_event_list_walk(pmk_target_host(), name, parse_item, &c,
				NULL) == 0)
		return 0;
	r->nev = before;
	return pmk_event_parse(pmk_target_host(), name, &r->ev[r->nev++], NULL);
}

/* -M and --topdown. 0, -1 for `-M list` (printed), or an exit code. As
 * perf (the perf personality), a metric or group that cannot be set up
 * is reported and the others run: perf 6.1 prints the error and counts
 * what it has, its default events when nothing is left (build_events);
 * pmkit's own personality refuses the run (exit 2, nothing run). */
static int build_metrics(struct opts *o, struct run *r)
{
	char dir[4096];
	int nlist = o->nmetrics + (o->topdown != 0), lenient = cli_as_perf;
	if (!nlist)
		return 0;
	if (stat_metrics_dir(dir, sizeof dir) != 0) {
		cli_error("cannot find pmkit's metric library (metrics/*.def)");
		fprintf(stderr, "hint: set PMK_METRICS_DIR to its directory\n");
		return 1;
	}
	for (int k = 0; k < nlist; k++) {
		char buf[1024], *save = NULL, *tok;
		char td[16];
		const char *arg = k < o->nmetrics ? o->metrics[k] : td;
		snprintf(td, sizeof td, "TopdownL%d", o->td_level ? o->td_level : 1);
		snprintf(buf, sizeof buf, "%s", arg);
		for (tok = strtok_r(buf, ",", &save); tok;
		     tok = strtok_r(NULL, ",", &save)) {
			int empty = 0, before = r->nev, rc;
			if (!strcmp(tok, "list")) {
				stat_metrics_list(stdout, dir);
				return -1;
			}
			if (stat_likwid_name(tok) &&
			    !strcmp(stat_likwid_name(tok), "list"))
				return stat_likwid_list(stdout) ? 1 : -1;
			/* pmkit's own level 1 (metrics/topdown.def) needs
			 * counters; perf's TopdownL1..L6, where perf defines
			 * them for the model, run as perf's metrics do */
			if ((!strcasecmp(tok, "TopdownL1") ||
			     !strcmp(tok, "topdown")) &&
			    !stat_metrics_perf_defines(tok) &&
			    topdown_refused(k < o->nmetrics ? tok
							    : "--topdown")) {
				if (lenient)
					continue;
				return 1;
			}
			rc = stat_metrics_add(r->ev, &r->nev, MAX_EVENTS, dir,
					      tok, &empty);
			if (rc == EXIT_USAGE) {
				if (lenient)
					continue;
				return rc;
			}
			if (rc == 1) {
				cli_error("no metric or metric group '%s'", tok);
				fprintf(stderr, "hint: 'pmkit stat -M list' lists "
						"them\n");
				if (lenient)
					continue;
				return EXIT_USAGE;
			}
			if (r->nev == before && empty) {
				const char *model = pmk_defs_host_model();
				cli_error("%s needs the events of a CPU model that "
					  "metrics/topdown.def describes (Intel "
					  "Skylake, Ice Lake and later; AMD Zen 4, "
					  "Zen 5) and a core PMU to count them; "
					  "this machine has %s%s%s",
					  k < o->nmetrics ? tok : "--topdown",
					  model[0] ? "model " : "",
					  model[0] ? model : "no hardware PMU",
					  model[0] ? ", which it does not describe"
						   : " (virtual machine?)");
				if (lenient)
					continue;
				return 1;
			}
		}
	}
	return 0;
}

/* perf's default list whatever the machine counts: where the hardware
 * events cannot count they are perf's bare <not supported> rows, and one
 * note says why */
static int default_events(struct opts *o, struct run *r, const char **note)
{
	static char note_buf[200];
	int hw = hardware_counts(), first_hw;
	/* perf counts cpu-clock, not task-clock, system-wide */
	for (size_t i = 0; i < 4; i++)
		add_named(r, i == 0 && o->all_cpus ? "cpu-clock"
						   : default_sw[i]);
	first_hw = r->nev;
	for (size_t i = 0; i < 4; i++) {
		add_named(r, default_hw[i]);
		if (i == 0 && core_has_stalls()) {
			add_named(r, "stalled-cycles-frontend");
			add_named(r, "stalled-cycles-backend");
		}
	}
	for (int l = 0; l < o->detailed && l < 3; l++)
		for (int i = 0; i < 6 && detailed[l][i]; i++)
			add_named(r, detailed[l][i]);
	if (!hw) {
		for (int e = first_hw; e < r->nev; e++)
			r->bare[e] = 1;
		snprintf(note_buf, sizeof note_buf,
			 "hardware counters are unavailable here (%s): "
			 "only the software events counted",
			 pmk_target_core_pmu(pmk_target_host())
			     ? "the core PMU refused to count"
			     : "no hardware PMU: virtual machine?");
		*note = note_buf;
	}
	return 0;
}

static int build_events(struct opts *o, struct run *r, const char **note)
{
	int rc;
	if (o->null_run)
		return 0;
	if (o->nlists == 0 && !o->sim && !o->nmetrics && !o->topdown)
		return default_events(o, r, note);
	if (o->sim && o->nlists == 0) {
		for (size_t i = 0; i < 4; i++)
			pmk_sim_event_parse(default_hw[i], &r->ev[r->nev++], NULL);
		return 0;
	}
	for (int i = 0; i < o->nlists; i++) {
		struct parse_ctx c = {r, o->sim};
		pmk_diag d;
		if (pmk_event_list_walk(o->sim ? NULL : pmk_target_host(),
					o->lists[i], parse_item, &c, &d) != 0) {
			if (d.code)
				cli_diag(&d);
			return EXIT_USAGE;
		}
	}
	for (int l = 0; l < o->detailed && l < 3 && !o->sim; l++)
		for (int i = 0; i < 6 && detailed[l][i]; i++)
			add_named(r, detailed[l][i]);
	if ((rc = build_metrics(o, r)) != 0)
		return rc;
	/* perf: -M of nothing it could set up runs its default list */
	if (cli_as_perf && r->nev == 0 && o->nlists == 0 && !o->sim)
		return default_events(o, r, note);
	return 0;
}

/* --all-user / --all-kernel: every native counts one privilege level. */
static void restrict_levels(struct opts *o, struct run *r)
{
	if (!o->all_user && !o->all_kernel)
		return;
	for (int e = 0; e < r->nev; e++)
		for (int l = 0; l < r->ev[e].nleaf; l++) {
			pmk_attr *a = &r->ev[e].leaf[l];
			if (o->all_user)
				a->exclude_kernel = a->exclude_hv = 1;
			else
				a->exclude_user = 1;
		}
}

static int add_set(struct run *r, pmk_scope scope, unsigned flags,
		   const char *label)
{
	pmk_eventset *es;
	pmk_diag d;
	if (r->nset == MAX_SETS || pmk_eventset_new(&es, flags) != 0)
		return -1;
	pmk_eventset_set_scope(es, scope);
	for (int i = 0; i < r->nev; i++)
		if (pmk_eventset_add_event(es, &r->ev[i], &d) < 0) {
			cli_diag(&d);
			pmk_eventset_free(es);
			return -1;
		}
	for (int g = 0; g < r->ngroups; g++)
		if (pmk_eventset_group(es, r->group_first[g], r->group_last[g])) {
			cli_error("a group holds at most %d natives",
				  PMK_GROUP_MAX);
			pmk_eventset_free(es);
			return -1;
		}
	snprintf(r->label[r->nset], sizeof r->label[0], "%s", label);
	r->set[r->nset++] = es;
	return 0;
}

static void free_sets(struct run *r)
{
	for (int i = 0; i < r->nset; i++)
		pmk_eventset_free(r->set[i]);
	r->nset = 0;
}

/* Sum the values of the sets of unit `u` (every set when u < 0) event by
 * event (errors in quadrature). */
/* Whether event `e` is computed from its natives by a formula (a ratio,
 * a metric): such a value is neither added over sets nor differenced over
 * intervals; its natives are, and the formula is evaluated on them. */
static int derived(const pmk_event *ev)
{
	return ev->nleaf > 1 || ev->nops > 1;
}

/* The error of a derived value `v` computed from added or differenced
 * natives: the relative error of `like` (the set's own, or the total's),
 * carried over. */
static void set_derived(pmk_value *a, double v, const pmk_value *like)
{
	double rel = like->value != 0 && isfinite(like->err)
			 ? fabs(like->err / like->value)
			 : 0;
	a->value = v;
	a->err = fabs(v) * rel;
	a->lo = v - 2 * a->err;
	a->hi = v + 2 * a->err;
	if (isnan(v))
		a->flags |= PMK_VALUE_NAN;
	else
		a->flags &= ~(unsigned)PMK_VALUE_NAN;
}

/* Whether native `i` of `ev` is one of perf's tool events (duration_time,
 * user_time, system_time): each set measures the same time for it */
static int is_tool(const pmk_event *ev, int i)
{
	return ev->leaf[i].type == PMK_TYPE_TOOL;
}

/* Add the sets of unit `u` (all when u < 0) into out[0..nev-1], and the
 * natives of each derived event into leaf[e * PMK_LEAF_MAX ..] (when not
 * NULL). A derived event added over more than one set is evaluated on
 * the added natives, not added itself (a sum of ratios is no ratio). */
static void sum_sets(struct run *r, int u, pmk_value *out, double *leaf)
{
	pmk_value *tmp = calloc((size_t)r->nev + 1, sizeof *tmp);
	int *nsum = calloc((size_t)r->nev + 1, sizeof *nsum);
	double lv[PMK_LEAF_MAX];
	int first = 1;
	memset(out, 0, sizeof *out * (size_t)r->nev);
	if (leaf)
		memset(leaf, 0, sizeof *leaf * PMK_LEAF_MAX * (size_t)r->nev);
	for (int s = 0; s < r->nset && tmp && nsum; s++) {
		if (u >= 0 && r->set_unit[s] != u)
			continue;
		pmk_eventset_read(r->set[s], tmp, r->nev);
		for (int e = 0; e < r->nev; e++) {
			pmk_value *a = &out[e], *b = &tmp[e];
			int counted = !b->status &&
				      !(b->flags & PMK_VALUE_NOT_COUNTED);
			if (counted && derived(&r->ev[e])) {
				int n = pmk_eventset_leaf_values(
				    r->set[s], e, lv, PMK_LEAF_MAX);
				double *t = leaf ? leaf + (size_t)e * PMK_LEAF_MAX
						 : NULL;
				if (n > 0 && t) {
					/* a tool event (duration_time) is
					 * the same time in every set: not
					 * added */
					for (int i = 0; i < n; i++)
						t[i] = !nsum[e] ? lv[i]
						       : is_tool(&r->ev[e], i)
							   ? t[i]
							   : t[i] + lv[i];
				}
				nsum[e]++;
			}
			/* an uncore or RAPL event counts its package on one
			 * CPU only (PMK_VALUE_OFF_CPU on the others) */
			if (first || ((a->flags & PMK_VALUE_OFF_CPU) &&
				      !(b->flags & PMK_VALUE_OFF_CPU))) {
				*a = *b;
				continue;
			}
			if (b->flags & PMK_VALUE_OFF_CPU)
				continue;
			if (!counted) {
				a->flags |= b->flags & PMK_VALUE_NOT_COUNTED;
				continue;
			}
			if (a->status) { /* a set where it could not open */
				*a = *b;
				continue;
			}
			if (r->ev[e].nleaf == 1 && is_tool(&r->ev[e], 0))
				continue; /* the first set's: the same time */
			pmk__value_add(a, b);
			if (b->running < a->running)
				a->running = b->running;
		}
		first = 0;
	}
	for (int e = 0; leaf && nsum && e < r->nev; e++)
		if (nsum[e] > 1 && !out[e].status) {
			pmk_value like = out[e];
			like.value = tmp ? tmp[e].value : like.value;
			like.err = tmp ? tmp[e].err : like.err;
			set_derived(&out[e],
				    pmk_event_eval(&r->ev[e],
						   leaf + (size_t)e * PMK_LEAF_MAX),
				    &like);
		}
	/* a cgroup none of whose tasks ran while counting, or a run whose
	 * events were never enabled (-D -1): perf shows <not counted> */
	for (int e = 0; e < r->nev && (r->cg_scope || !r->ever); e++)
		if (!out[e].status && !out[e].enabled_ns && !out[e].running_ns &&
		    !r->ev[e].nops && !is_tool(&r->ev[e], 0) &&
		    !(out[e].flags & PMK_VALUE_OFF_CPU))
			out[e].flags |= PMK_VALUE_NOT_COUNTED;
	free(nsum);
	free(tmp);
}

/* The first set of unit u (for its diagnostics). */
static int unit_set(const struct run *r, int u)
{
	for (int s = 0; s < r->nset; s++)
		if (r->set_unit[s] == u)
			return s;
	return 0;
}

static void fill_rows(struct run *r, const pmk_value *v, struct stat_row *rows,
		      int set)
{
	for (int e = 0; e < r->nev; e++) {
		struct stat_row *w = &rows[e];
		const pmk_diag *why = pmk_eventset_event_diag(r->set[set], e);
		int clock = !strcmp(r->ev[e].unit, "ns");
		double scale = clock ? 1e-6 : 1;
		memset(w, 0, sizeof *w);
		w->name = r->ev[e].name;
		/* clocks in msec; a sysfs unit (RAPL's Joules) as perf */
		w->unit = clock ? "msec" : r->ev[e].unit;
		w->value = v[e].value * scale;
		w->err = v[e].err * scale;
		w->lo = v[e].lo * scale;
		w->hi = v[e].hi * scale;
		w->counted = v[e].running;
		w->raw = v[e].raw;
		w->enabled_ns = v[e].enabled_ns;
		w->running_ns = v[e].running_ns;
		w->flags = v[e].flags;
		w->status = v[e].status;
		w->reason = why ? why->message : NULL;
		w->bare = r->bare[e];
		w->user_only = pmk_eventset_user_only(r->set[set], e);
		w->derived = r->ev[e].nops > 0 || r->ev[e].kind == PMK_KIND_USER;
	}
}

/* Rows of every unit in perf's order: event by event for -A and
 * --per-thread, unit by unit for --per-core, --per-die, --per-socket,
 * --per-node, --per-cache and --for-each-cgroup (perf 6.1's print_aggr);
 * vals holds nunit blocks of nev values. */
static void unit_rows(struct run *r, const struct opts *o,
		      const pmk_value *vals, struct stat_row *rows)
{
	int by_unit = r->ncg || STAT_AGGR_COUNTS(o->aggr);
	for (int u = 0; u < r->nunit; u++) {
		struct stat_row tmp[MAX_EVENTS];
		fill_rows(r, vals + (size_t)u * (size_t)r->nev, tmp,
			  unit_set(r, u));
		for (int e = 0; e < r->nev; e++) {
			struct stat_row *w =
			    by_unit ? &rows[(size_t)u * (size_t)r->nev + (size_t)e]
				    : &rows[(size_t)e * (size_t)r->nunit + (size_t)u];
			*w = tmp[e];
			if (r->ncg)
				w->cgroup = r->cg_name[u];
			if (o->aggr) {
				w->aggr = r->unit_label[u];
				w->aggr_n = r->unit_n[u];
			}
		}
	}
}

static int by_value_desc(const void *a, const void *b)
{
	const struct stat_row *x = a, *y = b;
	return (x->value < y->value) - (x->value > y->value);
}

/* --per-thread -a, as perf: each event's threads by count, highest
 * first, without the threads that counted nothing. The rows (event by
 * event, nunit each) are compacted in place; returns how many are left. */
static int thread_rows(const struct run *r, const struct opts *o,
		       struct stat_row *rows, int n)
{
	int kept = 0;
	if (!(o->aggr == STAT_AGGR_THREAD && o->all_cpus) || r->nunit < 1)
		return n;
	for (int e = 0; e < r->nev; e++) {
		struct stat_row *blk = rows + (size_t)e * (size_t)r->nunit;
		int any = 0;
		qsort(blk, (size_t)r->nunit, sizeof *blk, by_value_desc);
		for (int u = 0; u < r->nunit; u++) {
			const struct stat_row *w = &blk[u];
			int counted = w->status == 0 &&
				      !(w->flags & PMK_VALUE_NOT_COUNTED) &&
				      w->value > 0;
			/* an event no thread counts keeps one row */
			if (counted || (u == r->nunit - 1 && !any)) {
				rows[kept++] = *w;
				any = 1;
			}
		}
	}
	return kept;
}

/* Rows of an uncore or RAPL event on the CPUs (or units) it does not count
 * on (PMK_VALUE_OFF_CPU) are left out, as perf opens such an event only
 * on its PMU's cpumask (and, should no set count it, <not counted>). The
 * rows are compacted in place; returns how many are left. */
static int off_cpu_rows(const struct opts *o, struct stat_row *rows, int n)
{
	int kept = 0;
	for (int i = 0; i < n; i++) {
		if (rows[i].flags & PMK_VALUE_OFF_CPU) {
			if (o->aggr != STAT_AGGR_GLOBAL)
				continue;
			rows[i].flags |= PMK_VALUE_NOT_COUNTED;
		}
		rows[kept++] = rows[i];
	}
	return kept;
}

/* The rows a print shows, compacted in place (thread_rows, off_cpu_rows);
 * returns how many. */
static int shown_rows(const struct run *r, const struct opts *o,
		      struct stat_row *rows, int n)
{
	return off_cpu_rows(o, rows, thread_rows(r, o, rows, n));
}

struct output {
	FILE *out;
	const struct opts *o;
	const char *target; /* the header's "for ..." */
	int nprints;        /* interval prints so far */
	FILE *rec;          /* stat record: the file, or NULL */
	int rec_failed;     /* a write to it failed */
};

/* A result in the layout the options ask for */
static void print_result(struct output *out, const struct stat_result *res)
{
	FILE *f = cli_mpi_stat_begin(out->out); /* one rank of an MPI job */
	if (out->o->json)
		stat_print_json(f, res);
	else if (out->o->perf_json)
		stat_print_perf_json(f, res);
	else if (out->o->sep)
		stat_print_csv(f, out->o->sep, res);
	else
		stat_print_text(f, res);
	/* "[rank R] " on text to a shared stream; a rank's own -o FILE.RANK
	 * is named by its rank already */
	cli_mpi_stat_end(f, out->out, res,
			 !out->o->json && !out->o->perf_json && !out->o->sep &&
				 (!out->o->outfile || !strcmp(out->o->outfile, "-")));
	fflush(out->out);
}

static void emit(struct output *out, struct stat_result *res)
{
	res->target = out->target;
	res->aggr = out->o->aggr;
	res->extended = out->o->extended;
	res->null_run = out->o->null_run;
	res->cgroup = out->o->cgroup;
	/* perf's --summary: its CSV rows start with a "summary" column */
	res->csv_summary = out->o->summary && !out->o->no_csv_summary &&
			   res->interval_s < 0;
	res->first_interval = res->interval_s >= 0 && out->nprints == 0;
	res->metric_only = out->o->metric_only;
	if (!out->o->quiet) /* perf's --quiet prints nothing */
		print_result(out, res);
	if (out->rec && stat_file_write(out->rec, res))
		out->rec_failed = 1;
	if (res->interval_s >= 0)
		out->nprints++;
}

/* What event `ev` counted since `prev` (the total at the last print; set
 * to `cur`, the total now): counts and times differenced, and a derived
 * event evaluated on its natives' counts since then (`leaf`, their totals
 * now, and `pleaf`, at the last print, set to them; NULL when not read),
 * not the difference of two totals' ratios. Nothing run since: perf's
 * <not counted>. */
static pmk_value since(const pmk_event *ev, const pmk_value *cur,
		       pmk_value *prev, const double *leaf, double *pleaf)
{
	pmk_value d = *cur;
	d.value -= prev->value;
	d.lo -= prev->value;
	d.hi -= prev->value;
	d.raw -= prev->raw;
	d.running_ns -= prev->running_ns;
	d.enabled_ns -= prev->enabled_ns;
	if (derived(ev) && leaf && pleaf && !d.status) {
		double dl[PMK_LEAF_MAX];
		for (int i = 0; i < ev->nleaf && i < PMK_LEAF_MAX; i++) {
			dl[i] = leaf[i] - pleaf[i];
			pleaf[i] = leaf[i];
		}
		set_derived(&d, pmk_event_eval(ev, dl), cur);
	}
	*prev = *cur;
	if (d.running_ns == 0 && d.status == 0)
		d.flags |= PMK_VALUE_NOT_COUNTED;
	return d;
}

/* Interval state: the previous totals per unit and event, and of the
 * natives of the derived events. */
struct ivl {
	pmk_value *v, *prev;
	double *lv, *plv; /* nv x PMK_LEAF_MAX */
	struct stat_row *rows;
	size_t nv; /* values: nev x nunit */
	double t0, last;
	unsigned long long prints;
};

/* Print the counts since the previous print. */
static void print_interval(struct run *r, const struct opts *o,
			   struct output *out, const char *cmd, struct ivl *iv)
{
	struct stat_result res;
	double t = now_s();
	memset(&res, 0, sizeof res);
	for (int u = 0; u < r->nunit; u++)
		sum_sets(r, u, iv->v + (size_t)u * (size_t)r->nev,
			 iv->lv ? iv->lv + (size_t)u * (size_t)r->nev *
					       PMK_LEAF_MAX
				: NULL);
	for (size_t e = 0; e < iv->nv; e++)
		iv->v[e] = since(&r->ev[e % (size_t)r->nev], &iv->v[e],
				 &iv->prev[e],
				 iv->lv ? iv->lv + e * PMK_LEAF_MAX : NULL,
				 iv->plv ? iv->plv + e * PMK_LEAF_MAX : NULL);
	unit_rows(r, o, iv->v, iv->rows);
	res.command = cmd;
	res.repeats = 1;
	res.user_s = -1;
	res.interval_s = t - iv->t0;
	res.span_s = t - iv->last;
	iv->last = t;
	res.rows = iv->rows;
	res.nrows = shown_rows(r, o, iv->rows, (int)iv->nv);
	emit(out, &res);
	iv->prints++;
}

/* Shorten a wait of less than a second `ts` to end by `when` (now_s()'s
 * clock; 0: no such time) */
static void wake_by(struct timespec *ts, double when)
{
	double left = when > 0 ? when - now_s() : 1;
	if (left * 1e9 < (double)ts->tv_nsec)
		ts->tv_nsec = left > 0 ? (long)(left * 1e9) : 0;
}

static void sleep_ms(long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR && !cli_stop_sig)
		;
}

/* -D MS: the sets start MS after the workload did; -D -1: they start
 * off (perf's "Events disabled"), for --control to enable */
static void delayed_start(const struct opts *o, struct run *r, double *t0)
{
	if (o->delay_ms > 0) {
		sleep_ms(o->delay_ms);
		*t0 = now_s();
		for (int s = 0; s < r->nset; s++)
			pmk_eventset_start(r->set[s]);
		r->enabled = r->ever = 1;
	} else if (o->delay_ms < 0) {
		fprintf(stderr, "Events disabled\n");
	}
}

/* The start sweep (docs/counting.md): a step every 100 us for 120 steps
 * (12 ms, three of the kernel's 4 ms rotations), each multiplexed set
 * putting its next batch of groups on counters, so that every event sees
 * a share of the workload's start. A workload that ends, a signal, or the
 * time `until` (the first -I print; 0: none) ends the sweep there. */
#define SWEEP_STEP_NS 100000
#define SWEEP_STEPS 120

/* PMKIT_SWEEP=0: no sweep, the backend's rotation alone (perf's) */
static int sweep_wanted(void)
{
	const char *e = getenv("PMKIT_SWEEP");
	return !e || strcmp(e, "0") != 0;
}

/* The kernel path's sweep needs a CPU for pmkit beside the workload's:
 * on one, each step preempts the workload, and the sweep begins only
 * when the workload first gives the CPU up, after its start (measured
 * under the emulated tier, docs/counting.md). */
static int sweep_cpus(void)
{
	cpu_set_t set;
	return sched_getaffinity(0, sizeof set, &set) == 0 &&
	       CPU_COUNT(&set) >= 2;
}

static void start_sweep(struct run *r, int pidfd, double until)
{
	int more = 1, gone = 0, slack = prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0);
	prctl(PR_SET_TIMERSLACK, 1000, 0, 0, 0);
	while (more) {
		struct timespec ts = {0, SWEEP_STEP_NS};
		more = 0;
		for (int s = 0; s < r->nset; s++)
			more |= pmk_eventset_sweep(r->set[s], 0,
						   gone ? 0 : SWEEP_STEPS) > 0;
		if (!more || gone)
			continue;
		if (pidfd >= 0) {
			struct pollfd pf = {pidfd, POLLIN, 0};
			gone = ppoll(&pf, 1, &ts, NULL) > 0;
		} else {
			nanosleep(&ts, NULL);
		}
		gone |= cli_stop_sig != 0 || (until > 0 && now_s() >= until);
	}
	if (slack > 0)
		prctl(PR_SET_TIMERSLACK, (unsigned long)slack, 0, 0, 0);
}

/* Wait for the end of the measurement (workload exit, target exit or
 * Ctrl-C), reading every 10 ms (feeds the multiplexing error model) and
 * printing intervals when asked. Returns the workload status. */
static int measure(struct opts *o, struct run *r, struct workload *w,
		   struct output *out, const char *cmd, double t0)
{
	double next_print = t0 + (double)o->interval_ms / 1e3;
	struct ivl iv;
	pmk_value *tmp = calloc((size_t)r->nev + 1, sizeof *tmp);
	int status = 0, killed = 0, timed_out = 0;
	double stop_s = 0, term_s = 0;
	long sleep_ns = 500 * 1000; /* short first waits: quick commands end quick */
#ifdef SYS_pidfd_open
	int pidfd = w ? (int)syscall(SYS_pidfd_open, w->pid, 0) : -1;
#else
	int pidfd = -1;
#endif
	memset(&iv, 0, sizeof iv);
	iv.nv = (size_t)r->nev * (size_t)(r->nunit ? r->nunit : 1);
	iv.v = calloc(iv.nv + 1, sizeof *iv.v);
	iv.prev = calloc(iv.nv + 1, sizeof *iv.prev);
	iv.rows = calloc(iv.nv + 1, sizeof *iv.rows);
	iv.lv = calloc((iv.nv + 1) * PMK_LEAF_MAX, sizeof *iv.lv);
	iv.plv = calloc((iv.nv + 1) * PMK_LEAF_MAX, sizeof *iv.plv);
	if (!iv.lv || !iv.plv) {
		free(iv.lv);
		free(iv.plv);
		iv.lv = iv.plv = NULL;
	}
	iv.t0 = iv.last = t0;
	if (w && r->enabled && sweep_wanted() && sweep_cpus())
		start_sweep(r, pidfd, o->interval_ms ? next_print - 1e-3 : 0);
	for (;;) {
		struct timespec ts = {0, sleep_ns};
		if (sleep_ns < 10 * 1000 * 1000)
			sleep_ns *= 2;
		if (w && workload_poll(w, &status))
			break;
		if (!w && (o->pid || o->tid) && stat_task_gone(o->pid ? o->pid : o->tid))
			break;
		if (cli_stop_sig && !w)
			break;
		if (cli_stop_sig) { /* the workload had the signal */
			if (stop_s == 0)
				stop_s = now_s();
			else if (!killed && now_s() - stop_s > 2.0) {
				kill(w->pid, SIGKILL);
				killed = 1;
			}
		}
		if (o->interval_count && iv.prints >= o->interval_count)
			break;
		/* --timeout: as perf, SIGTERM to the workload and its counts
		 * printed (SIGKILL 2 s later); a process or the system
		 * counted for that long */
		if (o->timeout_ms && now_s() >= t0 + (double)o->timeout_ms / 1e3) {
			if (!w)
				break;
			if (!timed_out) {
				kill(w->pid, SIGTERM);
				timed_out = 1;
				term_s = now_s();
			} else if (!killed && now_s() - term_s > 2.0) {
				kill(w->pid, SIGKILL);
				killed = 1;
			}
		}
		/* wake at the next print (-I) and at --timeout, not at the
		 * read after them: perf's intervals end on time */
		wake_by(&ts, o->interval_ms ? next_print : 0);
		wake_by(&ts, o->timeout_ms && !timed_out
				 ? t0 + (double)o->timeout_ms / 1e3
				 : 0);
		if (pidfd >= 0 || r->ctl.ctl_fd >= 0) {
			/* wake at the exit (elapsed as exact as perf's) and at
			 * a --control command */
			struct pollfd pf[2] = {{pidfd, POLLIN, 0},
					       {r->ctl.ctl_fd, POLLIN, 0}};
			ppoll(pf, 2, &ts, NULL);
			if (r->ctl.ctl_fd >= 0) {
				stat_control(&r->ctl, r->set, r->nset,
					     &r->enabled, &r->ever);
				/* every writer of fd:N gone: stop polling
				 * it, which would wake at once from now on */
				if (pf[1].revents & (POLLHUP | POLLERR | POLLNVAL))
					rec_ctl_close(&r->ctl);
			}
		} else {
			nanosleep(&ts, NULL);
		}
		for (int s = 0; s < r->nset; s++)
			pmk_eventset_read(r->set[s], tmp, r->nev);
		if (o->interval_ms && now_s() >= next_print) {
			print_interval(r, o, out, cmd, &iv);
			next_print += (double)o->interval_ms / 1e3;
		}
	}
	/* as perf: the counts since the last print, when the end came
	 * between two prints */
	if (o->interval_ms && !cli_stop_sig &&
	    (!o->interval_count || iv.prints < o->interval_count) &&
	    now_s() > iv.last + 1e-3)
		print_interval(r, o, out, cmd, &iv);
	if (pidfd >= 0)
		close(pidfd);
	if (timed_out) /* stopped as asked: perf's status 0 */
		status = 0;
	free(iv.v);
	free(iv.prev);
	free(iv.rows);
	free(iv.lv);
	free(iv.plv);
	free(tmp);
	return status;
}

static int usage_error(const char *msg)
{
	cli_error("%s", msg);
	return cli_usage("stat");
}

enum {
	OPT_JSON = 256, OPT_EXTENDED, OPT_PER_CORE, OPT_PER_SOCKET,
	OPT_PER_THREAD, OPT_TOPDOWN, OPT_ALL_USER, OPT_ALL_KERNEL,
	OPT_INTERVAL_COUNT, OPT_PRE, OPT_POST, OPT_LOG_FD, OPT_DEFS, OPT_SIM,
	OPT_WORKLOAD, OPT_NO_BIG_NUM, OPT_MPI_MERGE, OPT_SUMMARY,
	OPT_NO_CSV_SUMMARY, OPT_TIMEOUT, OPT_PER_DIE, OPT_PER_NODE, OPT_PER_CACHE,
	OPT_NO_MERGE, OPT_TABLE, OPT_TD_LEVEL, OPT_METRIC_ONLY, OPT_EACH_CGROUP,
	OPT_CONTROL, OPT_APPEND, OPT_METRIC_NO_GROUP, OPT_METRIC_NO_MERGE,
};

static const struct cli_opt stat_opts[] = {
	{'e', "event", CLI_ARG},
	{'r', "repeat", CLI_ARG},
	{'I', "interval-print", CLI_ARG},
	{OPT_INTERVAL_COUNT, "interval-count", CLI_ARG},
	{'x', "field-separator", CLI_ARG},
	{'j', "json-output", CLI_NOARG},
	{OPT_JSON, "json", CLI_NOARG},
	{OPT_EXTENDED, "extended", CLI_NOARG},
	{'o', "output", CLI_ARG},
	{OPT_LOG_FD, "log-fd", CLI_ARG},
	{'p', "pid", CLI_ARG},
	{'t', "tid", CLI_ARG},
	{'a', "all-cpus", CLI_NOARG},
	{'C', "cpu", CLI_ARG},
	{'A', "no-aggr", CLI_NOARG},
	{OPT_PER_CORE, "per-core", CLI_NOARG},
	{OPT_PER_SOCKET, "per-socket", CLI_NOARG},
	{OPT_PER_DIE, "per-die", CLI_NOARG},
	{OPT_PER_CACHE, "per-cache", CLI_OPTARG},
	{OPT_PER_NODE, "per-node", CLI_NOARG},
	{OPT_NO_MERGE, "no-merge", CLI_NOARG},
	{OPT_PER_THREAD, "per-thread", CLI_NOARG},
	{'i', "no-inherit", CLI_NOARG},
	{'G', "cgroup", CLI_ARG},
	{OPT_EACH_CGROUP, "for-each-cgroup", CLI_ARG},
	{'M', "metrics", CLI_ARG},
	{OPT_METRIC_ONLY, "metric-only", CLI_NOARG},
	{'g', "likwid-group", CLI_ARG}, /* likwid-perfctr's -g, not perf's */
	{OPT_TOPDOWN, "topdown", CLI_NOARG},
	{'d', "detailed", CLI_NOARG},
	{'D', "delay", CLI_ARG},
	{OPT_ALL_USER, "all-user", CLI_NOARG},
	{OPT_ALL_KERNEL, "all-kernel", CLI_NOARG},
	{'v', "verbose", CLI_NOARG},
	{'n', "null", CLI_NOARG},
	{'q', "quiet", CLI_NOARG},
	{OPT_PRE, "pre", CLI_ARG},
	{OPT_POST, "post", CLI_ARG},
	{'B', "big-num", CLI_NOARG},
	{'c', "scale", CLI_NOARG},
	{'S', "sync", CLI_NOARG},
	{OPT_APPEND, "append", CLI_NOARG},
	{OPT_METRIC_NO_GROUP, "metric-no-group", CLI_NOARG},
	{OPT_METRIC_NO_MERGE, "metric-no-merge", CLI_NOARG},
	{OPT_NO_BIG_NUM, "no-big-num", CLI_NOARG},
	{OPT_SUMMARY, "summary", CLI_NOARG},
	{OPT_TABLE, "table", CLI_NOARG},
	{OPT_TD_LEVEL, "td-level", CLI_ARG},
	{OPT_TIMEOUT, "timeout", CLI_ARG},
	{OPT_CONTROL, "control", CLI_ARG},
	{OPT_NO_CSV_SUMMARY, "no-csv-summary", CLI_NOARG},
	{OPT_DEFS, "defs", CLI_ARG},
	{OPT_SIM, "sim", CLI_OPTARG},
	{OPT_WORKLOAD, "workload", CLI_ARG},
	{OPT_MPI_MERGE, "mpi-merge", CLI_ARG}, /* only to point to mpi report */
	{0, NULL, 0},
};

/* A process or thread id of -p/-t: a number above 0 naming a live task. */
static int parse_task(const char *val, pid_t *out)
{
	unsigned long long p;
	char path[64];
	if (cli_parse_u64(val, &p) != 0 || p > 0x7fffffff) {
		cli_error("option '%s' needs a process id, not '%s'",
			  cli_opt_current(), val);
		return EXIT_USAGE;
	}
	if (p == 0) {
		cli_error("option '%s' needs a process id above 0 (0 names no "
			  "process)", cli_opt_current());
		return EXIT_USAGE;
	}
	snprintf(path, sizeof path, "/proc/%llu", p);
	if (access(path, F_OK) != 0) {
		cli_error("no process or thread %llu", p);
		return EXIT_USAGE;
	}
	*out = (pid_t)p;
	return 0;
}

static int on_opt(int key, const char *val, void *arg)
{
	struct opts *o = arg;
	unsigned long long n;
	switch (key) {
	case 'e':
		if (o->nlists == MAX_EVENTS)
			return usage_error("too many -e options");
		o->lists[o->nlists++] = (char *)val;
		break;
	case 'r':
		if (cli_opt_u64(cli_opt_current(), val, &o->repeat))
			return EXIT_USAGE;
		if (o->repeat == 0) {
			cli_error("option '%s' needs a count of 1 or more "
				  "(runs of the command)", cli_opt_current());
			return EXIT_USAGE;
		}
		break;
	case 'I':
		/* checked once every option is known (--sim takes
		 * fractions of a millisecond of simulated time) */
		o->interval_arg = val;
		break;
	case OPT_INTERVAL_COUNT:
		if (cli_opt_u64(cli_opt_current(), val, &o->interval_count))
			return EXIT_USAGE;
		if (o->interval_count == 0)
			return usage_error("--interval-count needs 1 or more");
		break;
	case 'x':
		o->sep = val;
		break;
	case 'j':
		o->perf_json = 1;
		break;
	case OPT_JSON:
		o->json = 1;
		break;
	case OPT_EXTENDED:
		o->extended = 1;
		break;
	case 'o':
		o->outfile = val;
		break;
	case OPT_MPI_MERGE:
		/* the ranks' records (PMKIT_MPI_DIR) are merged by mpi report */
		cli_error("--mpi-merge is an option of 'pmkit mpi report': "
			  "pmkit mpi report --mpi-merge %s", val);
		return EXIT_USAGE;
	case OPT_LOG_FD:
		if (cli_opt_u64(cli_opt_current(), val, &n) || n > 1024)
			return EXIT_USAGE;
		if (fcntl((int)n, F_GETFD) < 0) {
			cli_error("--log-fd %llu: no such open file descriptor", n);
			return EXIT_USAGE;
		}
		o->log_fd = (int)n;
		break;
	case 'p':
		return parse_task(val, &o->pid);
	case 't':
		return parse_task(val, &o->tid);
	case 'a':
		o->all_cpus = 1;
		break;
	case 'C':
		o->cpus = val;
		break;
	case 'A':
		o->aggr = STAT_AGGR_CPU;
		break;
	case OPT_PER_CORE:
		o->aggr = STAT_AGGR_CORE;
		break;
	case OPT_PER_SOCKET:
		o->aggr = STAT_AGGR_SOCKET;
		break;
	case OPT_PER_DIE:
		o->aggr = STAT_AGGR_DIE;
		break;
	case OPT_PER_NODE:
		o->aggr = STAT_AGGR_NODE;
		break;
	case OPT_PER_CACHE: { /* --per-cache[=L3], as perf 6.3 and later */
		int lvl = 0;
		if (val && !((val[0] == 'L' || val[0] == 'l') && val[1] >= '1' &&
			     val[1] <= '9' && (lvl = atoi(val + 1)) > 0 &&
			     strspn(val + 1, "0123456789") == strlen(val + 1)))
			return usage_error("--per-cache takes a cache level as "
					   "L1, L2, L3 ...");
		if (!lvl && !(lvl = stat_cache_top_level()))
			return usage_error("--per-cache: this machine declares "
					   "no caches in sysfs");
		stat_set_cache_level(lvl);
		o->aggr = STAT_AGGR_CACHE;
		break;
	}
	case OPT_NO_MERGE:
		break; /* pmkit merges nothing: each event string is one row */
	case OPT_PER_THREAD:
		o->aggr = STAT_AGGR_THREAD;
		break;
	case 'i':
		o->no_inherit = 1;
		break;
	case 'G':
		o->cgroup = val;
		o->nlists_at_cgroup = o->nlists;
		break;
	case OPT_EACH_CGROUP:
		o->each_cgroup = val;
		break;
	case 'M':
		if (o->nmetrics == MAX_EVENTS)
			return usage_error("too many -M options");
		o->metrics[o->nmetrics++] = val;
		break;
	case 'g': /* LIKWID's group: a -M source of its own */
		if (o->nmetrics == MAX_EVENTS)
			return usage_error("too many -M and -g options");
		if (!(o->metrics[o->nmetrics] = stat_likwid_token(val)))
			return EXIT_USAGE;
		o->nmetrics++;
		break;
	case OPT_TOPDOWN:
		o->topdown = 1;
		break;
	case 'd':
		o->detailed++;
		break;
	case 'D': {
		char *end;
		long v = strtol(val, &end, 10);
		if (*end || end == val || v < -1) {
			cli_error("option '%s' needs milliseconds, not '%s'",
				  cli_opt_current(), val);
			return EXIT_USAGE;
		}
		o->delay_ms = v; /* -1: off until --control enables */
		break;
	}
	case OPT_ALL_USER:
		o->all_user = 1;
		break;
	case OPT_ALL_KERNEL:
		o->all_kernel = 1;
		break;
	case 'v':
		o->verbose++;
		break;
	case 'n':
		o->null_run = 1;
		break;
	case 'q':
		o->quiet = 1;
		break;
	case OPT_PRE:
		o->pre = val;
		break;
	case OPT_POST:
		o->post = val;
		break;
	case 'B':
	case OPT_NO_BIG_NUM:
		break; /* pmkit prints no thousands separators either way */
	case 'c':
		break; /* perf's --scale: multiplexed counts are always scaled */
	case 'S':
		o->sync = 1;
		break;
	case OPT_APPEND:
		o->append = 1;
		break;
	case OPT_METRIC_NO_GROUP:
		o->metric_no_group = 1;
		break;
	case OPT_METRIC_NO_MERGE:
		o->metric_no_merge = 1;
		break;
	case OPT_SUMMARY:
		o->summary = 1;
		break;
	case OPT_TABLE:
		o->table = 1;
		break;
	case OPT_METRIC_ONLY:
		o->metric_only = 1;
		break;
	case OPT_TD_LEVEL: {
		unsigned long long lv;
		if (cli_opt_u64_in(val, 1, 6, &lv))
			return EXIT_USAGE;
		o->td_level = (int)lv;
		o->topdown = 1; /* as perf: --td-level implies --topdown */
		break;
	}
	case OPT_CONTROL:
		o->control = val;
		break;
	case OPT_TIMEOUT:
		if (cli_opt_u64(cli_opt_current(), val, &o->timeout_ms))
			return EXIT_USAGE;
		if (o->timeout_ms < 10) /* perf's floor */
			return usage_error("--timeout needs 10 ms or more");
		break;
	case OPT_NO_CSV_SUMMARY:
		o->no_csv_summary = 1;
		break;
	case OPT_DEFS:
		if (cli_defs_load(val))
			return EXIT_USAGE;
		break;
	case OPT_SIM:
		o->sim = 1;
		o->sim_config = val;
		break;
	case OPT_WORKLOAD:
		o->sim_workload = val;
		break;
	}
	return 0;
}

static int parse_opts(int argc, char **argv, struct opts *o)
{
	int i;
	o->log_fd = -1;
	i = cli_opt_parse("stat", argc, argv, stat_opts, on_opt, o);
	if (i < 0)
		return -i;
	o->argv = i < argc ? argv + i : NULL;
	if (o->interval_arg && o->sim) {
		char *end;
		o->sim_interval_ms = strtod(o->interval_arg, &end);
		if (end == o->interval_arg || *end ||
		    !(o->sim_interval_ms >= 1e-6 && o->sim_interval_ms <= 1e9))
			return usage_error("-I with --sim needs milliseconds of "
					   "simulated time, 0.000001 or more "
					   "(0.01 is 10 us)");
	} else if (o->interval_arg) {
		if (cli_opt_u64("-I", o->interval_arg, &o->interval_ms))
			return EXIT_USAGE;
		if (o->interval_ms < 10)
			return usage_error("-I needs at least 10 (ms)");
	}
	if ((o->json != 0) + (o->sep != NULL) + (o->perf_json != 0) > 1)
		return usage_error("choose one of -x, -j and --json");
	if (o->append && (!o->outfile || !strcmp(o->outfile, "-")))
		return usage_error("--append adds to the file -o names: it "
				   "goes with -o FILE");
	if (o->outfile && o->log_fd >= 0)
		return usage_error("choose one of -o and --log-fd");
	if ((o->pid != 0) + (o->tid != 0) + o->all_cpus > 1)
		return usage_error("choose one of -p, -t and -a");
	if (o->cpus && !o->all_cpus)
		o->all_cpus = 1; /* as perf: -C alone counts those CPUs */
	/* as perf: -n leaves out the default events (-d's and --topdown's
	 * among them); the events -e and -M name are counted */
	if (o->null_run && (o->nlists || o->nmetrics))
		o->null_run = 0;
	else if (o->null_run)
		o->detailed = o->topdown = 0;
	if ((o->pid || o->tid) && o->cpus)
		return usage_error("-C counts CPUs; not with -p or -t");
	if ((o->aggr == STAT_AGGR_CPU || STAT_AGGR_COUNTS(o->aggr)) &&
	    !o->all_cpus)
		return usage_error("-A, --per-core, --per-die, --per-socket, "
				   "--per-node and --per-cache aggregate CPUs: "
				   "they go with -a (or -C)");
	if (o->aggr == STAT_AGGR_THREAD && !o->pid && !o->tid &&
	    !o->all_cpus)
		return usage_error("--per-thread goes with -p, -t or -a");
	if (o->aggr == STAT_AGGR_THREAD && o->all_cpus && o->cpus)
		return usage_error("--per-thread -a counts every thread: "
				   "not with -C");
	if (o->cgroup && !o->all_cpus)
		return usage_error("-G counts a cgroup on every CPU: it goes "
				   "with -a (or -C)");
	/* perf pairs -G A,B with the events before it, one cgroup each, and
	 * counts events after -G system-wide; pmkit's sets count every event
	 * in one cgroup: refused, not counted otherwise than asked */
	if (o->cgroup && strchr(o->cgroup, ',')) {
		cli_error("-G %s: pmkit counts every event in the one cgroup "
			  "-G names, not perf's one cgroup per event; "
			  "--for-each-cgroup %s counts every event in each",
			  o->cgroup, o->cgroup);
		return cli_usage("stat");
	}
	if (o->cgroup && o->nlists_at_cgroup &&
	    o->nlists > o->nlists_at_cgroup) {
		cli_error("-e %s after -G %s: perf counts it system-wide, "
			  "pmkit counts every event in the cgroup: count it "
			  "in a run of its own, or name every event before -G",
			  o->lists[o->nlists_at_cgroup], o->cgroup);
		return cli_usage("stat");
	}
	if (o->each_cgroup) {
		if (!o->all_cpus)
			return usage_error("--for-each-cgroup counts cgroups on "
					   "every CPU: it goes with -a (or -C)");
		if (o->cgroup)
			return usage_error("choose one of -G and "
					   "--for-each-cgroup");
		if (o->aggr != STAT_AGGR_GLOBAL)
			return usage_error("--for-each-cgroup sums each cgroup "
					   "over the CPUs: not with -A, "
					   "--per-core, --per-socket, ... or "
					   "--per-thread");
		if (o->repeat > 1)
			return usage_error("--for-each-cgroup does not go with "
					   "-r");
		if (o->metric_only)
			return usage_error("--metric-only does not go with "
					   "--for-each-cgroup");
	}
	if (o->interval_count && !o->interval_ms && !o->sim_interval_ms)
		return usage_error("--interval-count goes with -I");
	if (o->timeout_ms && o->interval_ms) /* as perf */
		return usage_error("--timeout does not go with -I: use "
				   "--interval-count");
	if (o->all_user && o->all_kernel)
		return usage_error("choose one of --all-user and --all-kernel");
	if (o->metric_only) {
		/* -r and --per-thread: as perf refuses them */
		if (o->repeat > 1)
			return usage_error("--metric-only does not go with -r: "
					   "it prints one run's metrics");
		if (o->aggr == STAT_AGGR_THREAD)
			return usage_error("--metric-only does not go with "
					   "--per-thread");
		if (o->json)
			return usage_error("--metric-only is perf's layout: "
					   "not with --json (pmkit's schema "
					   "has the metrics already)");
		if (o->extended)
			return usage_error("--metric-only prints no counts: "
					   "not with --extended");
		if (o->null_run)
			return usage_error("--metric-only prints metrics: not "
					   "with -n");
		if (o->cgroup)
			return usage_error("--metric-only does not go with -G");
	}
	if (o->cpus) {
		int cpus[MAX_SETS], n = stat_parse_cpus(o->cpus, cpus, MAX_SETS);
		int have = stat_cpus_possible();
		if (n <= 0) {
			cli_error("bad CPU list '%s' (e.g. 0-3,6)", o->cpus);
			return EXIT_USAGE;
		}
		for (int c = 0; c < n; c++)
			if (cpus[c] >= have) {
				if (have > 1)
					cli_error("CPU %d is out of range: this "
						  "machine has CPUs 0-%d",
						  cpus[c], have - 1);
				else
					cli_error("CPU %d is out of range: this "
						  "machine has CPU 0 only",
						  cpus[c]);
				return EXIT_USAGE;
			}
	}
	if (!o->repeat)
		o->repeat = 1;
	if (o->sim_workload && !o->sim)
		return usage_error("--workload goes with --sim");
	if (o->sim && (o->pid || o->tid || o->all_cpus || o->aggr ||
		       o->repeat > 1))
		return usage_error("--sim runs a workload or trace; not with "
				   "-p, -t, -a, -r or --per-thread");
	if (o->sim && o->argv && (o->sim_workload || o->argv[1]))
		return usage_error("--sim takes one TRACE or --workload NAME");
	if (o->repeat > 1 && (o->pid || o->tid || o->all_cpus || o->interval_ms))
		return usage_error("-r repeats a command; not with -p, -t, -a or -I");
	return 0;
}

static void command_string(struct opts *o, char *buf, size_t size,
			   char *target, size_t tsize)
{
	size_t n = 0;
	buf[0] = 0;
	if (o->pid)
		snprintf(target, tsize, "process id '%d'", (int)o->pid);
	else if (o->tid)
		snprintf(target, tsize, "thread id '%d'", (int)o->tid);
	else if (o->cpus)
		snprintf(target, tsize, "'CPU(s) %s'", o->cpus);
	else if (o->all_cpus)
		snprintf(target, tsize, "'system wide'");
	if (!o->argv) {
		snprintf(buf, size, "%s",
			 o->pid ? "process" : o->tid ? "thread"
				: o->all_cpus         ? "system wide"
						      : "built-in workload");
		if (o->pid || o->tid)
			snprintf(buf + strlen(buf), size - strlen(buf), " %d",
				 (int)(o->pid ? o->pid : o->tid));
	} else {
		for (char **a = o->argv; *a && n + 2 < size; a++)
			n += (size_t)snprintf(buf + n, size - n, "%s%s",
					      a == o->argv ? "" : " ", *a);
	}
	if (!o->pid && !o->tid && !o->all_cpus)
		snprintf(target, tsize, "'%s'", buf);
}

/* The aggregation unit of CPU `cpu`: found or added. */
static int cpu_unit(struct run *r, int aggr, int cpu)
{
	char label[40];
	stat_cpu_label(aggr, cpu, label, sizeof label);
	for (int u = 0; u < r->nunit; u++)
		if (!strcmp(r->unit_label[u], label)) {
			r->unit_n[u]++;
			return u;
		}
	snprintf(r->unit_label[r->nunit], sizeof r->unit_label[0], "%s", label);
	r->unit_n[r->nunit] = 1;
	return r->nunit++;
}

/* --per-thread: "comm-tid", as perf names a thread. */
static int thread_unit(struct run *r, pid_t pid, pid_t tid)
{
	char path[64], comm[32] = "?";
	FILE *f;
	snprintf(path, sizeof path, "/proc/%d/task/%d/comm", (int)pid, (int)tid);
	if ((f = fopen(path, "r")) != NULL) {
		if (fgets(comm, sizeof comm, f))
			comm[strcspn(comm, "\n")] = 0;
		fclose(f);
	}
	snprintf(r->unit_label[r->nunit], sizeof r->unit_label[0], "%s-%d", comm,
		 (int)tid);
	r->unit_n[r->nunit] = 0;
	return r->nunit++;
}

/* --per-thread -a: one set per thread of the machine (every
 * /proc/PID/task/TID), as perf counts every thread (at most MAX_SETS). */
static int thread_sets(struct run *r, unsigned flags)
{
	DIR *proc = opendir("/proc");
	struct dirent *p;
	if (!proc) {
		cli_error("cannot list the threads: /proc: %s", strerror(errno));
		return 1;
	}
	while ((p = readdir(proc)) != NULL && r->nset < MAX_SETS) {
		char path[300];
		DIR *task;
		struct dirent *t;
		pid_t pid = (pid_t)atoi(p->d_name);
		if (pid <= 0)
			continue;
		snprintf(path, sizeof path, "/proc/%d/task", (int)pid);
		if (!(task = opendir(path)))
			continue; /* ended meanwhile */
		while ((t = readdir(task)) != NULL && r->nset < MAX_SETS) {
			pid_t tid = (pid_t)atoi(t->d_name);
			char label[24];
			if (tid <= 0)
				continue;
			snprintf(label, sizeof label, "%d", (int)tid);
			r->set_unit[r->nset] = thread_unit(r, pid, tid);
			if (add_set(r, (pmk_scope){tid, -1}, flags, label)) {
				closedir(task);
				closedir(proc);
				return 1;
			}
		}
		closedir(task);
	}
	closedir(proc);
	return r->nset ? 0 : 1;
}

/* --for-each-cgroup's list, each cgroup open (stat_open_cgroup) */
static int open_cgroups(const struct opts *o, struct run *r)
{
	char *save = NULL, *tok;
	if (o->record)
		return usage_error("stat record keeps one cgroup: not with "
				   "--for-each-cgroup");
	if (!(r->cg_list = strdup(o->each_cgroup)))
		return 1;
	for (tok = strtok_r(r->cg_list, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (r->ncg == MAX_CGROUPS) {
			cli_error("--for-each-cgroup: more than %d cgroups",
				  MAX_CGROUPS);
			return EXIT_USAGE;
		}
		if ((r->cg_fd[r->ncg] = stat_open_cgroup(tok)) < 0)
			return EXIT_USAGE;
		r->cg_name[r->ncg++] = tok;
	}
	if (!r->ncg)
		return usage_error("--for-each-cgroup needs a list of cgroups "
				   "(e.g. /,system.slice)");
	return 0;
}

static void close_cgroups(struct run *r)
{
	for (int k = 0; k < r->ncg; k++)
		close(r->cg_fd[k]);
	r->ncg = 0;
	free(r->cg_list);
	r->cg_list = NULL;
}

/* Create the event sets for the scope the options ask for. */
static int make_sets(struct opts *o, struct run *r, pid_t child, int cgroup_fd)
{
	unsigned flags = PMK_ES_MULTIPLEX |
			 (o->metric_no_group ? PMK_ES_NO_EVENT_GROUP : 0) |
			 (o->metric_no_merge ? PMK_ES_NO_SHARE : 0);
	char label[24];
	r->nunit = 0;
	/* As perf: every counter inherits unless --no-inherit, so threads
	 * and children that an attached thread creates later are counted
	 * too (their counts fold into the attached thread's counter). */
	if (!o->no_inherit && !o->all_cpus)
		flags |= PMK_ES_INHERIT;
	if (o->all_cpus && o->aggr == STAT_AGGR_THREAD)
		return thread_sets(r, flags);
	if (o->all_cpus) {
		int cpus[MAX_SETS], n;
		if (o->cpus)
			n = stat_parse_cpus(o->cpus, cpus, MAX_SETS);
		else {
			long nc = sysconf(_SC_NPROCESSORS_ONLN);
			n = (int)(nc > MAX_SETS ? MAX_SETS : nc);
			for (int c = 0; c < n; c++)
				cpus[c] = c;
		}
		if (n <= 0) {
			cli_error("bad CPU list '%s' (e.g. 0-3,6)", o->cpus);
			return EXIT_USAGE;
		}
		if (cgroup_fd >= 0 || r->ncg)
			flags |= PMK_ES_CGROUP;
		/* every online CPU: an uncore or RAPL event on its PMU's
		 * cpumask only (with -C, on the CPUs listed, as perf 6.1) */
		if (!o->cpus)
			flags |= PMK_ES_PMU_CPUMASK;
		r->cg_scope = (flags & PMK_ES_CGROUP) != 0;
		if (r->ncg && n * r->ncg > MAX_SETS) {
			cli_error("--for-each-cgroup: %d cgroups on %d CPUs are "
				  "more than %d event sets",
				  r->ncg, n, MAX_SETS);
			return 1;
		}
		/* --for-each-cgroup: each cgroup on every CPU, one unit */
		for (int k = 0; k < r->ncg; k++) {
			r->unit_label[k][0] = 0;
			r->unit_n[k] = n;
			for (int c = 0; c < n; c++) {
				snprintf(label, sizeof label, "CPU%d", cpus[c]);
				r->set_unit[r->nset] = k;
				if (add_set(r, (pmk_scope){r->cg_fd[k], cpus[c]},
					    flags, label))
					return 1;
			}
		}
		if (r->ncg) {
			r->nunit = r->ncg;
			return 0;
		}
		for (int c = 0; c < n; c++) {
			snprintf(label, sizeof label, "CPU%d", cpus[c]);
			r->set_unit[r->nset] = cpu_unit(r, o->aggr, cpus[c]);
			if (add_set(r, (pmk_scope){cgroup_fd >= 0 ? cgroup_fd : -1,
						   cpus[c]},
				    flags, label))
				return 1;
		}
		return 0;
	}
	if (o->pid || o->tid) {
		int tids[MAX_SETS], n;
		pid_t pid = o->pid ? o->pid : o->tid;
		if (o->aggr != STAT_AGGR_THREAD)
			cpu_unit(r, STAT_AGGR_GLOBAL, 0);
		if (o->tid) {
			snprintf(label, sizeof label, "%d", (int)o->tid);
			r->set_unit[0] = o->aggr == STAT_AGGR_THREAD
					     ? thread_unit(r, o->tid, o->tid)
					     : 0;
			return add_set(r, (pmk_scope){o->tid, -1}, flags, label)
				       ? 1
				       : 0;
		}
		n = pmk_task_threads((int)pid, tids, MAX_SETS);
		if (n < 0) {
			cli_error("no process %d", (int)pid);
			return 1;
		}
		for (int i = 0; i < n; i++) {
			snprintf(label, sizeof label, "%d", tids[i]);
			r->set_unit[r->nset] = o->aggr == STAT_AGGR_THREAD
						   ? thread_unit(r, pid, tids[i])
						   : 0;
			if (add_set(r, (pmk_scope){tids[i], -1}, flags, label))
				break;
		}
		return r->nset ? 0 : 1;
	}
	cpu_unit(r, STAT_AGGR_GLOBAL, 0);
	if (o->argv && !o->delay_ms)
		flags |= PMK_ES_ENABLE_ON_EXEC;
	r->set_unit[0] = 0;
	return add_set(r, (pmk_scope){child, -1}, flags, "workload") ? 1 : 0;
}

/* Whether every event of set s that could not be opened is one this
 * machine does not count (no such hardware event, a PMU that refuses the
 * mode): as perf, those are <not supported> rows and the workload still
 * runs, even when no event of the list counts. A refusal the user can act
 * on (permissions, a process that is gone, too many open files, a group
 * too large) stays an error. */
static int only_unsupported(const struct run *r, int s)
{
	for (int e = 0; e < r->nev; e++) {
		const pmk_diag *why = pmk_eventset_event_diag(r->set[s], e);
		if (why && why->code != PMK_ENOTSUP && why->code != PMK_ENOPMU &&
		    why->code != PMK_EINVAL)
			return 0;
	}
	return 1;
}

/* Open every set; on failure print the first set's diagnostics. A thread
 * of an attached process that ended between the listing of its threads
 * and the open is dropped (its counts would be 0). */
static int open_sets(struct opts *o, struct run *r)
{
	pmk_diag d;
	for (int s = 0; s < r->nset; s++) {
		int rc = pmk_eventset_open(r->set[s], &d);
		if (rc && (o->pid || (o->all_cpus &&
				      o->aggr == STAT_AGGR_THREAD)) &&
		    r->nset > 1 &&
		    stat_task_gone((pid_t)atoi(r->label[s]))) {
			pmk_eventset_free(r->set[s]);
			for (int k = s + 1; k < r->nset; k++) {
				r->set[k - 1] = r->set[k];
				r->set_unit[k - 1] = r->set_unit[k];
				memcpy(r->label[k - 1], r->label[k],
				       sizeof r->label[0]);
			}
			r->nset--;
			s--;
			continue;
		}
		if (rc && !only_unsupported(r, s)) {
			cli_diag(&d);
			return 1;
		}
	}
	return 0;
}

static int print_workload(const char *name, const char *desc, void *arg)
{
	(void)desc;
	(void)arg;
	printf("%s\n", name);
	return 0;
}

/* --sim: the same event set and output, counted on the simulated core
 * running a workload or trace (sim/be/backend.c). */
/* One -I print of a simulation: the counts since the previous one (`prev`,
 * updated), at simulated time `t_s` after an interval of `span_s`. */
static void sim_interval(struct run *r, pmk_eventset *es, struct output *out,
			 const char *what, const pmk_value *v, pmk_value *prev,
			 double *plv, struct stat_row *rows, double t_s,
			 double span_s)
{
	struct stat_result res;
	pmk_value *dv = calloc((size_t)r->nev, sizeof *dv);
	if (!dv)
		return;
	for (int e = 0; e < r->nev; e++) {
		double cur[PMK_LEAF_MAX];
		int n = derived(&r->ev[e])
			    ? pmk_eventset_leaf_values(es, e, cur, PMK_LEAF_MAX)
			    : 0;
		dv[e] = since(&r->ev[e], &v[e], &prev[e], n > 0 ? cur : NULL,
			      plv + (size_t)e * PMK_LEAF_MAX);
	}
	fill_rows(r, dv, rows, 0);
	memset(&res, 0, sizeof res);
	res.command = what;
	res.repeats = 1;
	res.user_s = -1;
	res.interval_s = t_s;
	res.span_s = span_s;
	res.rows = rows;
	res.nrows = r->nev;
	emit(out, &res);
	free(dv);
}

static int stat_sim(struct opts *o, struct run *r, struct output *out)
{
	const char *what = o->argv ? o->argv[0]
			   : o->sim_workload ? o->sim_workload
					     : "int-mix";
	pmk_sim_config cfg;
	struct pmk_backend *be = NULL;
	pmk_eventset *es = NULL;
	struct stat_row *rows = calloc((size_t)r->nev, sizeof *rows);
	pmk_value *v = calloc((size_t)r->nev, sizeof *v);
	pmk_value *prev = calloc((size_t)r->nev, sizeof *prev);
	double *plv = calloc((size_t)r->nev * PMK_LEAF_MAX + 1, sizeof *plv);
	struct stat_result res;
	pmk_diag d;
	int rc = 1, more = 0;
	if (!strcmp(what, "list")) {
		pmk_workload_foreach(print_workload, NULL);
		rc = 0;
		goto out;
	}
	pmk_sim_config_default(&cfg);
	if (o->sim_config && pmk_sim_config_load(&cfg, o->sim_config, &d) < 0) {
		cli_diag(&d);
		rc = EXIT_USAGE;
		goto out;
	}
	if (!rows || !v || !prev || !plv ||
	    pmk_sim_backend_new(&be, &cfg, what, &d) < 0) {
		cli_diag(&d);
		rc = EXIT_USAGE;
		goto out;
	}
	if (pmk_eventset_new(&es, PMK_ES_MULTIPLEX) != 0 ||
	    pmk_eventset_set_backend(es, be) != 0)
		goto out;
	r->set[0] = es;
	r->nset = 1;
	for (int i = 0; i < r->nev; i++)
		if (pmk_eventset_add_event(es, &r->ev[i], &d) < 0) {
			cli_diag(&d);
			goto out;
		}
	if (pmk_eventset_open(es, &d) != 0) {
		cli_diag(&d);
		goto out;
	}
	pmk_eventset_start(es);
	/* the start sweep (docs/counting.md), as the kernel path's */
	uint64_t rot = cfg.pmu_rotate ? cfg.pmu_rotate : 20000, done = 0;
	int sweep = sweep_wanted();
	while (sweep &&
	       (more = pmk_eventset_sweep(es, (int)cfg.pmu_counters,
					  PMK_SIM_SWEEP_STEPS)) > 0) {
		if ((more = pmk_sim_backend_step(be, rot / PMK_SIM_SWEEP_DIV,
						 &d)) < 0)
			break;
		done += rot / PMK_SIM_SWEEP_DIV;
	}
	if (more < 0) {
		cli_diag(&d);
		goto out;
	}
	/* read every 2.5 rotations in simulated time, as the kernel path
	 * reads every 10 ms against a 4 ms rotation: slices for the error
	 * model (docs/counting.md) */
	uint64_t every = rot * 5 / 2;
	/* -I MS: MS milliseconds of simulated time at the core's clock;
	 * the reads stop at each interval's end, as the kernel path's */
	uint64_t ivl = (uint64_t)(o->sim_interval_ms * cfg.freq_mhz * 1000),
		 next = ivl;
	unsigned long long prints = 0;
	for (;;) {
		uint64_t step = ivl && next - done < every ? next - done : every;
		more = pmk_sim_backend_step(be, step, &d);
		if (more < 0)
			break;
		done += step;
		pmk_eventset_read(es, v, r->nev);
		if (ivl && more > 0 && done >= next) {
			sim_interval(r, es, out, what, v, prev, plv, rows,
				     (double)done / (cfg.freq_mhz * 1e6),
				     (double)ivl / (cfg.freq_mhz * 1e6));
			next += ivl;
			if (o->interval_count && ++prints >= o->interval_count)
				break;
		}
		if (more == 0)
			break;
	}
	if (more < 0) {
		cli_diag(&d);
		goto out;
	}
	pmk_eventset_stop(es);
	pmk_eventset_read(es, v, r->nev);
	fill_rows(r, v, rows, 0);
	memset(&res, 0, sizeof res);
	res.command = what;
	res.repeats = 1;
	res.elapsed_s = (double)pmk_sim_stats_get(pmk_sim_backend_core(be))
			    ->cycles /
			(cfg.freq_mhz * 1e6);
	res.user_s = -1;
	res.interval_s = -1;
	res.rows = rows;
	res.nrows = r->nev;
	res.note = "simulated core (times are simulated)";
	/* perf: no summary after intervals, unless --summary */
	if (!ivl || o->json || o->summary)
		emit(out, &res);
	rc = 0;
out:
	pmk_eventset_free(es);
	r->set[0] = NULL;
	r->nset = 0;
	pmk_backend_free(be);
	free(rows);
	free(v);
	free(prev);
	free(plv);
	return rc;
}

/* --pre/--post: a shell command around each run, as perf runs them. */
static int run_hook(const char *what, const char *cmdline)
{
	int st;
	if (!cmdline)
		return 0;
	fflush(NULL);
	st = system(cmdline);
	if (st == -1 || workload_status(st) != 0) {
		cli_error("the %s command '%s' failed (status %d)", what, cmdline,
			  st == -1 ? -1 : workload_status(st));
		return 1;
	}
	return 0;
}

/* stat record: finish the file (it is in place already). 0, or 1 after
 * saying why it is incomplete. */
static int stat_record_close(pmk__outfile *rof, struct output *out)
{
	pmk_diag d;
	int failed = out->rec_failed;
	if (pmk__outfile_fclose(rof, 1, &d)) {
		cli_diag(&d);
		return 1;
	}
	if (failed)
		cli_error("writing the stat record failed: it holds the counts "
			  "written before");
	return failed;
}

enum { SR_JSON = 256 };
static const struct cli_opt report_opts[] = {
	{'i', "input", CLI_ARG},   {'x', "field-separator", CLI_ARG},
	{'j', "json-perf", CLI_NOARG}, {SR_JSON, "json", CLI_NOARG},
	{0},
};
struct report_args {
	const char *input, *sep;
	int perf_json, json;
};
static int on_report_opt(int key, const char *val, void *arg)
{
	struct report_args *a = arg;
	switch (key) {
	case 'i': a->input = val; break;
	case 'x': a->sep = val; break;
	case 'j': a->perf_json = 1; break;
	case SR_JSON: a->json = 1; break;
	}
	return 0;
}

/* perf's stat report: print the counts a stat record kept, as stat
 * printed them (to standard error, as stat does); read from standard
 * input the target is 'pipe', as perf says it. */
static int stat_report(int argc, char **argv)
{
	struct report_args a = {CLI_PERF_DATA, NULL, 0, 0};
	struct stat_file sf;
	pmk_diag d;
	char *text = NULL;
	size_t len = 0;
	int rc = cli_opt_parse_only("stat", argc, argv, report_opts,
				    on_report_opt, &a);
	if (rc)
		return rc;
	if ((a.sep != NULL) + a.perf_json + a.json > 1)
		return usage_error("choose one of -x, -j and --json");
	rc = strcmp(a.input, "-")
		 ? pmk__infile_read(a.input, 0, 0, &text, &len, &d)
		 : pmk__infile_read_fd(dup(0), "standard input", 0, 0, &text,
				       &len, &d);
	if (rc == 0)
		rc = stat_file_parse(text, len, a.input, &sf, &d);
	free(text);
	if (rc) {
		cli_diag(&d);
		return rc == PMK_EFORMAT || rc == PMK_ERANGE ? EXIT_USAGE : 1;
	}
	for (int i = 0; i < sf.n; i++) {
		struct stat_result *res = &sf.res[i];
		if (!strcmp(a.input, "-"))
			res->target = "'pipe'";
		else if (!res->target)
			res->target = "'?'";
		res->first_interval = i == 0 && res->interval_s >= 0;
		if (a.json)
			stat_print_json(stderr, res);
		else if (a.perf_json)
			stat_print_perf_json(stderr, res);
		else if (a.sep)
			stat_print_csv(stderr, a.sep, res);
		else
			stat_print_text(stderr, res);
	}
	if (sf.truncated)
		fprintf(stderr, "pmkit stat report: %s: the last print was cut "
				"short (the run was killed?); the %d before it "
				"are shown\n",
			a.input, sf.n);
	stat_file_free(&sf);
	return 0;
}

int cmd_stat(int argc, char **argv)
{
	struct opts o;
	/* about 47 MB (1,024 events of up to 64 natives): not on the stack,
	 * and zero already (one call per process), so only the pages of the
	 * events given are ever touched */
	static struct run r;
	struct output out;
	struct stat_result res;
	struct stat_row *rows;
	pmk_value *vals, *sum, *sumsq;
	const char *note = NULL;
	char cmd[512], target[600];
	int rc, status = 0, nrep_ok = 0, cgroup_fd = -1, emitted = 0;
	double elapsed = 0, elapsed_sq = 0, user = 0, sys = 0, *run_s = NULL;
	size_t nv;
	pmk__outfile of; /* -o: written beside FILE, in place when it worked */
	pmk__outfile rof; /* stat record's file */
	pmk_diag od;

	memset(&o, 0, sizeof o);
	if (argc > 1 && !strcmp(argv[1], "report"))
		return stat_report(argc - 1, argv + 1);
	if ((rc = parse_opts(argc, argv, &o)) != 0)
		return rc;
	if (o.argv && !strcmp(o.argv[0], "report"))
		return stat_report(argc - (int)(o.argv - argv), o.argv);
	if (o.argv && !strcmp(o.argv[0], "record")) {
		/* perf's `stat [OPTIONS] record [-o FILE] [OPTIONS] -- CMD`:
		 * the counts also go to FILE (perf.data by default, as
		 * perf's); -o before `record` stays the counts' output */
		const char *counts_out = o.outfile;
		int k = (int)(o.argv - argv);
		o.outfile = NULL;
		if ((rc = parse_opts(argc - k, argv + k, &o)) != 0)
			return rc;
		o.record = o.outfile ? o.outfile : CLI_PERF_DATA;
		o.outfile = counts_out;
	}
	if ((rc = build_events(&o, &r, &note)) != 0)
		return rc < 0 ? 0 : rc;
	restrict_levels(&o, &r);
	command_string(&o, cmd, sizeof cmd, target, sizeof target);
	memset(&out, 0, sizeof out);
	out.o = &o;
	out.out = stderr;
	out.target = target;
	r.ctl.ctl_fd = r.ctl.ack_fd = -1;
	if (o.control && (rc = rec_ctl_open(&r.ctl, "--control", o.control)))
		return rc;
	if (o.cgroup && (cgroup_fd = stat_open_cgroup(o.cgroup)) < 0)
		return EXIT_USAGE;
	if (o.each_cgroup && (rc = open_cgroups(&o, &r)) != 0) {
		close_cgroups(&r);
		return rc;
	}
	if (o.log_fd >= 0 && !(out.out = fdopen(dup(o.log_fd), "a"))) {
		cli_error("cannot write to --log-fd %d: %s", o.log_fd,
			  strerror(errno));
		return EXIT_USAGE;
	}
	/* under mpirun/srun each rank writes FILE.RANK, not one shared FILE */
	o.outfile = cli_mpi_rank_path(o.outfile);
	if (o.outfile && !(out.out = pmk__outfile_fopen(&of, o.outfile, 0, &od))) {
		cli_diag(&od);
		return 1;
	}
	/* --append: the new file starts with the old one's text (which is
	 * also kept as FILE.old); FILE is still replaced, never written */
	if (o.append && !of.in_place &&
	    pmk__outfile_copy_old(o.outfile, out.out, &od)) {
		pmk_diag od2;
		cli_diag(&od);
		pmk__outfile_fclose(&of, 0, &od2);
		return 1;
	}
	if (o.outfile && !o.json) {
		/* perf's first line of an -o file, in every layout but
		 * pmkit's JSON document (ctime's format and newline) */
		time_t now = time(NULL);
		char when[64];
		fprintf(out.out, "# started on %s\n",
			ctime_r(&now, when) ? when : "?\n");
	}
	/* stat record: the file is in place from the start (a run that is
	 * killed leaves the prints it finished), private as perf.data */
	if (o.record &&
	    (!(out.rec = pmk__outfile_fopen(&rof, o.record, PMK__OUT_PRIVATE,
					    &od)) ||
	     stat_file_write_header(out.rec) ||
	     (strcmp(o.record, "-") && pmk__outfile_publish(&rof, &od)))) {
		cli_diag(&od);
		if (out.rec)
			pmk__outfile_fclose(&rof, 0, &od);
		return 1;
	}
	if (o.sim) {
		status = stat_sim(&o, &r, &out);
		if (o.record && stat_record_close(&rof, &out) && !status)
			status = 1;
		if (o.outfile &&
		    pmk__outfile_fclose(&of, status == 0, &od) && status == 0) {
			cli_diag(&od);
			status = 1;
		}
		return status;
	}
	nv = (size_t)r.nev * MAX_SETS + 1;
	vals = calloc(nv, sizeof *vals);
	sum = calloc((size_t)r.nev + 1, sizeof *sum);
	sumsq = calloc((size_t)r.nev + 1, sizeof *sumsq);
	rows = calloc(nv, sizeof *rows);
	/* each run's time, for --table (perf's table of measurements) */
	run_s = o.table && o.repeat > 1 && o.repeat < (1u << 20)
		    ? calloc((size_t)o.repeat, sizeof *run_s)
		    : NULL;
	cli_stop_catch();

	for (unsigned long long rep = 0; rep < o.repeat; rep++) {
		struct workload w, *wp = NULL;
		struct rusage ru0, ru1;
		double t0, t1;
		if (run_hook("--pre", o.pre)) {
			status = 1;
			goto out;
		}
		if (o.sync) /* perf's -S: the page cache written back first */
			sync();
		getrusage(RUSAGE_CHILDREN, &ru0);
		if (!o.pid && !o.tid && !o.all_cpus) {
			if (workload_prepare(&w, o.argv) != 0) {
				cli_error("cannot start the workload: %s",
					  strerror(errno));
				status = 1;
				goto out;
			}
			wp = &w;
		}
		if (o.null_run) {
			r.nunit = 1;
		} else if ((rc = make_sets(&o, &r, wp ? w.pid : 0, cgroup_fd)) != 0 ||
			   (rc = open_sets(&o, &r)) != 0) {
			if (wp) {
				kill(w.pid, SIGKILL);
				workload_wait(&w);
			}
			status = rc == EXIT_USAGE ? rc : 1;
			goto out;
		}
		if (!o.delay_ms)
			for (int s = 0; s < r.nset; s++)
				pmk_eventset_start(r.set[s]);
		r.enabled = r.ever = !o.delay_ms;
		t0 = now_s();
		if (wp) {
			int e;
			if (cli_stop_sig) { /* before it ran: nothing to count */
				kill(w.pid, SIGKILL);
				workload_wait(&w);
				status = 128 + cli_stop_sig;
				goto out;
			}
			cli_stop_child = w.pid;
			e = workload_start(&w);
			if (e) {
				cli_stop_child = 0;
				workload_wait(&w);
				cli_error("cannot run '%s': %s", o.argv[0],
					  strerror(e));
				status = e == ENOENT ? 127 : 126;
				goto out;
			}
			delayed_start(&o, &r, &t0);
			status = measure(&o, &r, &w, &out, cmd, t0);
			cli_stop_child = 0;
		} else if (o.argv) {
			struct workload cw;
			if (workload_prepare(&cw, o.argv) != 0 ||
			    (cli_stop_child = cw.pid, workload_start(&cw)) != 0) {
				cli_stop_child = 0;
				cli_error("cannot run '%s'", o.argv[0]);
				status = 127;
				goto out;
			}
			delayed_start(&o, &r, &t0);
			status = measure(&o, &r, &cw, &out, cmd, t0);
			cli_stop_child = 0;
		} else {
			delayed_start(&o, &r, &t0);
			if (!o.json && !o.sep && !o.perf_json && !o.interval_ms)
				fprintf(stderr, "counting %s; Ctrl-C to stop\n", cmd);
			measure(&o, &r, NULL, &out, cmd, t0);
		}
		t1 = now_s();
		for (int s = 0; s < r.nset; s++)
			pmk_eventset_stop(r.set[s]);
		getrusage(RUSAGE_CHILDREN, &ru1);
		elapsed += t1 - t0;
		elapsed_sq += (t1 - t0) * (t1 - t0);
		if (run_s)
			run_s[nrep_ok] = t1 - t0;
		user += (double)(ru1.ru_utime.tv_sec - ru0.ru_utime.tv_sec) +
			(double)(ru1.ru_utime.tv_usec - ru0.ru_utime.tv_usec) * 1e-6;
		sys += (double)(ru1.ru_stime.tv_sec - ru0.ru_stime.tv_sec) +
		       (double)(ru1.ru_stime.tv_usec - ru0.ru_stime.tv_usec) * 1e-6;
		for (int u = 0; u < r.nunit && r.nev; u++) {
			double *lbuf = calloc((size_t)r.nev * PMK_LEAF_MAX,
					      sizeof *lbuf);
			sum_sets(&r, u, vals + (size_t)u * (size_t)r.nev,
				 lbuf);
			free(lbuf);
		}
		for (int e = 0; e < r.nev; e++) {
			sum[e].value += vals[e].value;
			sumsq[e].value += vals[e].value * vals[e].value;
		}
		if (o.verbose)
			for (int e = 0; e < r.nev; e++)
				fprintf(stderr, "%s: %llu %llu %llu\n", r.ev[e].name,
					(unsigned long long)vals[e].raw,
					(unsigned long long)vals[e].enabled_ns,
					(unsigned long long)vals[e].running_ns);
		nrep_ok++;
		if (rep + 1 < o.repeat)
			free_sets(&r);
		if (run_hook("--post", o.post)) {
			status = 1;
			goto out;
		}
		if (cli_stop_sig)
			break;
	}
	/* the mean over the repeats; perf's +- is the standard error of the
	 * mean, sqrt(sample variance / n) */
	if (r.nev)
		unit_rows(&r, &o, vals, rows);
	for (int e = 0; e < r.nev && nrep_ok > 1; e++) {
		double n = nrep_ok, mean = sum[e].value / n;
		double var = (sumsq[e].value - n * mean * mean) / (n - 1);
		double scale = !strcmp(r.ev[e].unit, "ns") ? 1e-6 : 1;
		double sd = var > 0 ? sqrt(var) : 0;
		/* the interval of the last run, moved to the mean */
		rows[e].lo += mean * scale - rows[e].value;
		rows[e].hi += mean * scale - rows[e].value;
		rows[e].value = mean * scale;
		rows[e].stddev = sd * scale;
		rows[e].sem = sd / sqrt(n) * scale;
	}
	memset(&res, 0, sizeof res);
	res.command = cmd;
	res.exit_status = status;
	res.repeats = nrep_ok;
	res.elapsed_s = elapsed / (nrep_ok ? nrep_ok : 1);
	if (nrep_ok > 1) {
		double n = nrep_ok, m = elapsed / n;
		double var = (elapsed_sq - n * m * m) / (n - 1);
		res.elapsed_sem_s = var > 0 ? sqrt(var / n) : 0;
	}
	res.span_s = res.elapsed_s;
	if (o.table && run_s && nrep_ok > 1) {
		res.run_s = run_s;
		res.nrun_s = nrep_ok;
	}
	res.user_s = (o.pid || o.tid || o.all_cpus) ? -1 : user / (nrep_ok ? nrep_ok : 1);
	res.sys_s = sys / (nrep_ok ? nrep_ok : 1);
	res.interval_s = -1;
	res.rows = rows;
	res.nrows = shown_rows(&r, &o, rows, r.nev * (r.nunit ? r.nunit : 1));
	res.note = note;
	{
		/* say when a group had to be split: its events were then not
		 * counted over the same time */
		static char split_note[512];
		int split = 0;
		if (r.nset)
			pmk_eventset_groups(r.set[0], &split);
		if (split) {
			snprintf(split_note, sizeof split_note,
				 "%d group(s) of natives could not be opened together "
				 "and were split: derived values mix counts from different times%s%s",
				 split, note ? "; " : "", note ? note : "");
			res.note = split_note;
		}
	}
	/* perf: no summary after intervals, unless --summary */
	if (!o.interval_ms || o.json || o.summary)
		emit(&out, &res);
	emitted = 1;
	if (cli_stop_sig) /* what was counted is printed; the status says why */
		status = 128 + cli_stop_sig;
out:
	free_sets(&r);
	free(vals);
	free(sum);
	free(sumsq);
	free(rows);
	free(run_s);
	if (cgroup_fd >= 0)
		close(cgroup_fd);
	close_cgroups(&r);
	rec_ctl_close(&r.ctl);
	if (o.record && stat_record_close(&rof, &out) && !status)
		status = 1;
	/* FILE is replaced only when the run produced counts */
	if (o.outfile && pmk__outfile_fclose(&of, emitted, &od) && emitted) {
		cli_diag(&od);
		if (!status)
			status = 1;
	} else if (!o.outfile && out.out != stderr) {
		fclose(out.out);
	}
	return status;
}
