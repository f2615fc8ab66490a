/*
 * cmd_sim.c: `pmkit sim run|list-events|workloads|config`: the simulated
 * core with seed 000's PMU, driven from the command line.
 */
/* pmkit-command: sim | run the simulated core and its PMU */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/subcmd.h"
#include "cli/opt.h"
#include "cli/stop.h"

#define MAX_EV 16

typedef struct hist {
	uint64_t *pc, *n;
	size_t len, cap, total;
} hist;

static int hist_add(hist *h, uint64_t pc)
{
	size_t lo = 0, hi = h->len;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (h->pc[mid] < pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	h->total++;
	if (lo < h->len && h->pc[lo] == pc) {
		h->n[lo]++;
		return 0;
	}
	if (h->len == h->cap) {
		size_t nc = h->cap ? h->cap * 2 : 64;
		uint64_t *a = realloc(h->pc, nc * sizeof *a);
		if (!a)
			return -1;
		h->pc = a;
		a = realloc(h->n, nc * sizeof *a);
		if (!a)
			return -1;
		h->n = a;
		h->cap = nc;
	}
	memmove(h->pc + lo + 1, h->pc + lo, (h->len - lo) * sizeof *h->pc);
	memmove(h->n + lo + 1, h->n + lo, (h->len - lo) * sizeof *h->n);
	h->pc[lo] = pc;
	h->n[lo] = 1;
	h->len++;
	return 0;
}

static void hist_print(const hist *h, const char *title)
{
	printf("# %s: %zu samples\n", title, h->total);
	for (size_t i = 0; i < h->len; i++)
		printf("0x%-14llx %10llu %6.2f%%\n",
		       (unsigned long long)h->pc[i],
		       (unsigned long long)h->n[i],
		       100.0 * (double)h->n[i] / (double)h->total);
}

typedef struct run_ctx {
	pmk_rec_writer *rec; /* `sim record`: samples go to a record file */
	int pm_event;	     /* its event index for ProfileMe samples */
	uint64_t periods[MAX_EV + 1];
	int write_err;
	hist ebs, pm;
	uint16_t pm_flag; /* 0 = every ProfileMe sample */
	uint64_t pm_total, pm_paired;
	double pair_overlap; /* cycles both in flight, summed */
} run_ctx;

static void on_sample(void *arg, const pmk_sim_sample *s)
{
	run_ctx *c = arg;
	if (c->rec) {
		pmk_sample x;
		if (s->counter < 0 && c->pm_flag && !(s->flags & c->pm_flag))
			return;
		memset(&x, 0, sizeof x);
		x.event = s->counter >= 0 ? (uint32_t)s->counter
					  : (uint32_t)c->pm_event;
		x.flags = s->kernel ? PMK_SAMPLE_KERNEL : 0;
		x.ip = s->pc;
		x.pid = x.tid = 1;
		x.time_ns = s->cycle;
		x.period = s->counter >= 0 ? c->periods[s->counter] : 1;
		if (pmk_rec_write_sample(c->rec, &x) < 0)
			c->write_err = 1;
		return;
	}
	if (s->counter >= 0) {
		hist_add(&c->ebs, s->pc);
		return;
	}
	c->pm_total++;
	if (s->paired) {
		uint64_t a0 = s->fetch_cycle,
			 a1 = s->retire_cycle ? s->retire_cycle : s->done_cycle;
		uint64_t b0 = s->pair_fetch_cycle, b1 = s->pair_retire_cycle;
		c->pm_paired++;
		if (b1 && a1 && b1 > a0 && a1 > b0)
			c->pair_overlap +=
			    (double)((a1 < b1 ? a1 : b1) - (a0 > b0 ? a0 : b0));
	}
	if (!c->pm_flag || (s->flags & c->pm_flag))
		hist_add(&c->pm, s->pc);
}

static const struct {
	const char *name;
	uint16_t flag;
} pm_flags[] = {
    {"l1i_miss", PMK_SIM_F_L1I_MISS},	{"l2i_miss", PMK_SIM_F_L2I_MISS},
    {"itlb_miss", PMK_SIM_F_ITLB_MISS}, {"l1d_miss", PMK_SIM_F_L1D_MISS},
    {"l2d_miss", PMK_SIM_F_L2D_MISS},	{"dtlb_miss", PMK_SIM_F_DTLB_MISS},
    {"mispredict", PMK_SIM_F_MISPRED},	{"wrong_path", PMK_SIM_F_WRONG},
};

static int load_config(pmk_sim_config *cfg, const char *file, char **sets,
		       int nsets)
{
	pmk_diag d;
	pmk_sim_config_default(cfg);
	if (file && pmk_sim_config_load(cfg, file, &d) < 0) {
		cli_diag(&d);
		return -1;
	}
	for (int i = 0; i < nsets; i++) {
		char key[128], *eq = strchr(sets[i], '=');
		size_t n = eq ? (size_t)(eq - sets[i]) : 0;
		if (!eq || n >= sizeof key) {
			cli_error("--set needs KEY=VALUE, not '%s'", sets[i]);
			return -1;
		}
		memcpy(key, sets[i], n);
		key[n] = 0;
		if (pmk_sim_config_set(cfg, key, eq + 1, &d) < 0) {
			cli_diag(&d);
			return -1;
		}
	}
	if (pmk_sim_config_check(cfg, &d) < 0) {
		cli_diag(&d);
		return -1;
	}
	return 0;
}

static int split_events(const char *list, char **out, int *n)
{
	/* comma-separated, but modifiers may use ',' after ':' too; split
	 * on commas that start a new event name (letter after the comma,
	 * and the word is an event). */
	const char *p = list;
	while (*p) {
		const char *q = p;
		char buf[256];
		size_t len;
		for (;;) {
			const char *c = strchr(q, ',');
			char name[64];
			size_t k;
			if (!c) {
				q = p + strlen(p);
				break;
			}
			k = strcspn(c + 1, ":,/");
			if (k < sizeof name) {
				memcpy(name, c + 1, k);
				name[k] = 0;
				if (pmk_sim_event_find(name) >= 0 ||
				    !strncmp(c + 1, "sim/", 4)) {
					q = c;
					break;
				}
			}
			q = c + 1;
		}
		len = (size_t)(q - p);
		if (*n >= MAX_EV || len >= sizeof buf) {
			cli_error("too many or too long events (at most %d)",
				  MAX_EV);
			return -1;
		}
		out[(*n)++] = strndup(p, len);
		p = *q ? q + 1 : q;
	}
	return 0;
}

enum {
	SR_CHAMPSIM = 256, SR_SAMPLE, SR_PROFILEME, SR_PAIR, SR_PM_FLAG,
	SR_STATS,
};
static const struct cli_opt sim_run_opts[] = {
	{'c', "config", CLI_ARG},
	{'s', "set", CLI_ARG},
	{'e', "event", CLI_ARG},
	{'w', "workload", CLI_ARG},
	{SR_CHAMPSIM, "champsim", CLI_NOARG},
	{'n', "max", CLI_ARG},
	{SR_SAMPLE, "sample", CLI_ARG},
	{SR_PROFILEME, "profileme", CLI_ARG},
	{SR_PAIR, "pair", CLI_ARG},
	{SR_PM_FLAG, "pm-flag", CLI_ARG},
	{SR_STATS, "stats", CLI_NOARG},
	{'o', "output", CLI_ARG},
	{'h', "help", CLI_NOARG},
	{0, NULL, 0},
};

struct sim_run_args {
	char *sets[32], *evs[MAX_EV], *sample;
	const char *cfgfile, *what, *outfile;
	int nsets, nev, kind, stats, help;
	unsigned long long maxn, pm_int, pair;
	unsigned pm_flag;
};

static int on_sim_run_opt(int key, const char *val, void *arg)
{
	struct sim_run_args *o = arg;
	switch (key) {
	case 'o':
		o->outfile = val;
		break;
	case 'c':
		o->cfgfile = val;
		break;
	case 's':
		if (o->nsets == 32) {
			cli_error("too many --set options");
			return EXIT_USAGE;
		}
		o->sets[o->nsets++] = (char *)val;
		break;
	case 'e':
		if (split_events((char *)val, o->evs, &o->nev) < 0)
			return EXIT_USAGE;
		break;
	case 'w':
		o->what = val;
		break;
	case SR_CHAMPSIM:
		o->kind = PMK_TRACE_CHAMPSIM;
		break;
	case 'n':
		if (cli_opt_u64("--max", val, &o->maxn))
			return EXIT_USAGE;
		break;
	case SR_SAMPLE:
		o->sample = (char *)val;
		break;
	case SR_PROFILEME:
		if (cli_opt_u64("--profileme", val, &o->pm_int))
			return EXIT_USAGE;
		break;
	case SR_PAIR:
		if (cli_opt_u64("--pair", val, &o->pair) || o->pair > 1000) {
			cli_error("--pair takes 0..1000");
			return EXIT_USAGE;
		}
		break;
	case SR_PM_FLAG: {
		size_t k;
		for (k = 0; k < sizeof pm_flags / sizeof pm_flags[0]; k++)
			if (!strcmp(val, pm_flags[k].name))
				break;
		if (k == sizeof pm_flags / sizeof pm_flags[0]) {
			cli_error("unknown --pm-flag '%s' (l1i_miss l2i_miss "
				  "itlb_miss l1d_miss l2d_miss dtlb_miss "
				  "mispredict wrong_path)",
				  val);
			return EXIT_USAGE;
		}
		o->pm_flag = pm_flags[k].flag;
		break;
	}
	case SR_STATS:
		o->stats = 1;
		break;
	case 'h':
		o->help = 1;
		break;
	}
	return 0;
}

/* SIGINT, SIGTERM, SIGHUP stop a simulation between two steps of
 * SIM_STEP instructions: what was simulated is printed or written, and
 * the command exits 128+N. */
#define SIM_STEP (1u << 20)

static int sim_run(int argc, char **argv, int record)
{
	/* static: the parsed strings live as long as the run */
	static struct sim_run_args ra_store;
	struct sim_run_args *ra = &ra_store;
	char **sets, **evs, *sample;
	const char *cfgfile, *what, *outfile;
	int nsets, nev, kind, stats, c, rc = 1, optind;
	unsigned long long maxn, pm_int, pair;
	pmk_sim_counter_cfg cc[MAX_EV + 1];
	pmk_sim_config cfg;
	pmk_sim_source *src = NULL;
	pmk_sim *sim = NULL;
	pmk_diag d;
	run_ctx ctx;
	memset(&ctx, 0, sizeof ctx);
	memset(ra, 0, sizeof *ra);
	ra->outfile = PMK_REC_DEFAULT_FILE;
	ra->kind = PMK_TRACE_AUTO;
	optind = cli_opt_parse_mixed("sim", argc, argv, sim_run_opts,
				     on_sim_run_opt, ra);
	if (optind < 0)
		return -optind;
	if (ra->help) {
		cli_man_render("pmkit-sim", stdout);
		return 0;
	}
	sets = ra->sets;
	evs = ra->evs;
	sample = ra->sample;
	cfgfile = ra->cfgfile;
	what = ra->what;
	outfile = ra->outfile;
	nsets = ra->nsets;
	nev = ra->nev;
	kind = ra->kind;
	stats = ra->stats;
	maxn = ra->maxn;
	pm_int = ra->pm_int;
	pair = ra->pair;
	ctx.pm_flag = (uint16_t)ra->pm_flag;
	if (optind < argc) {
		if (what || optind + 1 < argc) {
			cli_error("give one workload or trace");
			return EXIT_USAGE;
		}
		what = argv[optind];
	}
	if (!what)
		what = "int-mix:n=200000";
	if (load_config(&cfg, cfgfile, sets, nsets) < 0)
		goto usage;
	if (nev > (int)cfg.pmu_counters) {
		cli_error("%d events but the simulated PMU has %u programmable "
			  "counters (pmu.counters)",
			  nev, cfg.pmu_counters);
		goto usage;
	}
	for (int i = 0; i < nev; i++)
		if (pmk_sim_counter_parse(evs[i], &cc[i], &d) < 0) {
			cli_diag(&d);
			goto usage;
		}
	if (record) {
		if (sample || (!nev && !pm_int)) {
			cli_error("sim record takes -e EVENT:period=N "
				  "(and/or --profileme N)");
			goto usage;
		}
		for (int i = 0; i < nev; i++)
			if (!cc[i].period) {
				cli_error("'%s' needs a period to be sampled "
					  "(e.g. %s:period=1000)",
					  evs[i], evs[i]);
				goto usage;
			}
	}
	if (sample) {
		if (nev == (int)cfg.pmu_counters) {
			cli_error("no counter left for --sample");
			goto usage;
		}
		if (pmk_sim_counter_parse(sample, &cc[nev], &d) < 0) {
			cli_diag(&d);
			goto usage;
		}
		if (!cc[nev].period) {
			cli_error("--sample needs a period, e.g. "
				  "l2_miss:period=100");
			goto usage;
		}
	}
	cli_stop_catch();
	if (pmk_sim_source_open(&src, what, kind, &d) < 0) {
		cli_diag(&d);
		goto usage;
	}
	if (pmk_sim_new(&sim, &cfg, pmk_sim_source_next, src, &d) < 0) {
		cli_diag(&d);
		goto out;
	}
	for (int i = 0; i < nev + (sample ? 1 : 0); i++) {
		pmk_sim_counter_set(sim, i, &cc[i]);
		pmk_sim_counter_enable(sim, i, 1);
	}
	if (record) {
		if (pmk_rec_writer_open(&ctx.rec, outfile, "pmkit sim", &d) <
		    0) {
			cli_diag(&d);
			goto out;
		}
		for (int i = 0; i <= nev; i++) {
			pmk_rec_event e;
			if (i == nev && !pm_int)
				break;
			memset(&e, 0, sizeof e);
			e.index = (uint32_t)i;
			e.type = PMK_TYPE_SIM;
			if (i < nev) {
				e.config = pmk_sim_counter_encode(&cc[i]);
				e.period = cc[i].period;
				ctx.periods[i] = cc[i].period;
				snprintf(e.name, sizeof e.name, "%s", evs[i]);
			} else {
				e.config = UINT64_MAX; /* ProfileMe */
				e.period = pm_int;
				e.precise = 3;
				ctx.pm_event = nev;
				snprintf(e.name, sizeof e.name, "profileme");
			}
			pmk_rec_write_event(ctx.rec, &e);
		}
		{
			pmk_rec_comm cm;
			memset(&cm, 0, sizeof cm);
			cm.pid = cm.tid = 1;
			snprintf(cm.comm, sizeof cm.comm, "%.31s", what);
			pmk_rec_write_comm(ctx.rec, &cm);
		}
	}
	pmk_sim_set_sampler(sim, on_sample, &ctx);
	if (pm_int)
		pmk_sim_profileme(sim, pm_int, (uint32_t)pair, 1);
	/* in steps, so that SIGINT, SIGTERM or SIGHUP stops the run between
	 * two of them and what was simulated is still written */
	for (uint64_t left = maxn;;) {
		uint64_t step = SIM_STEP;
		if (maxn && left < step)
			step = left;
		c = pmk_sim_run(sim, step);
		if (maxn)
			left -= step;
		if (c <= 0 || cli_stop_sig || (maxn && !left))
			break;
	}
	if (c < 0) {
		const pmk_diag *sd = pmk_sim_source_diag(src);
		cli_diag(sd);
		/* a malformed trace is bad input (2); a read error is not */
		if (sd && sd->code != PMK_EIO && sd->code != PMK_ENOMEM &&
		    sd->code != PMK_ESYS)
			rc = EXIT_USAGE;
		goto out;
	}
	if (record) {
		const pmk_sim_stats *st = pmk_sim_stats_get(sim);
		pmk_rec_finish f;
		uint64_t n = pmk_rec_writer_samples(ctx.rec);
		memset(&f, 0, sizeof f);
		f.samples = n;
		f.duration_ns = st->cycles * 1000 / cfg.freq_mhz;
		pmk_rec_write_finish(ctx.rec, &f);
		{
			int werr = pmk_rec_writer_errno(ctx.rec), bad;
			bad = pmk_rec_writer_close(ctx.rec) < 0 || ctx.write_err;
			if (!werr)
				werr = errno;
			ctx.rec = NULL;
			if (bad) { /* the reason named: ENOSPC, EDQUOT, EIO ... */
				cli_error("cannot write '%s': %s", outfile,
					  strerror(werr ? werr : EIO));
				goto out;
			}
		}
		ctx.rec = NULL;
		fprintf(stderr,
			"sim record: %llu samples of %llu instructions, %llu "
			"cycles, written to %s%s\n",
			(unsigned long long)n,
			(unsigned long long)st->committed,
			(unsigned long long)st->cycles, outfile,
			cli_stop_sig ? " (stopped by a signal)" : "");
		rc = cli_stop_sig ? 128 + cli_stop_sig : 0;
		goto out;
	}
	{
		const pmk_sim_stats *st = pmk_sim_stats_get(sim);
		int nf = pmk_sim_counter_total(sim);
		printf("# sim: %s: %llu instructions, %llu cycles, IPC %.3f\n",
		       what, (unsigned long long)st->committed,
		       (unsigned long long)st->cycles,
		       st->cycles ? (double)st->committed / (double)st->cycles
				  : 0.0);
		for (int i = 0; i < nev; i++)
			printf("%20llu  %s\n",
			       (unsigned long long)pmk_sim_counter_read(sim, i),
			       evs[i]);
		printf("%20llu  %s\n",
		       (unsigned long long)pmk_sim_counter_read(sim, nf - 2),
		       "inst_retired (fixed)");
		printf("%20llu  %s\n",
		       (unsigned long long)pmk_sim_counter_read(sim, nf - 1),
		       "cycles (fixed)");
		if (stats) {
#define S(f) printf("%20llu  stat.%s\n", (unsigned long long)st->f, #f)
			S(fetched);
			S(fetched_wrong);
			S(dispatched);
			S(dispatched_wrong);
			S(squashed);
			S(branches);
			S(mispredicts);
			S(l1i_access);
			S(l1i_miss);
			S(l1d_access);
			S(l1d_miss);
			S(l2_access);
			S(l2_miss);
			S(l3_access);
			S(l3_miss);
			S(itlb_miss);
			S(dtlb_miss);
			S(rob_full_cycles);
			S(fe_stall_cycles);
#undef S
		}
		if (sample)
			hist_print(&ctx.ebs, sample);
		if (pm_int) {
			char title[128];
			snprintf(title, sizeof title, "profileme%s%s",
				 ctx.pm_flag ? " with " : "",
				 ctx.pm_flag ? "the flag" : "");
			hist_print(&ctx.pm, title);
			if (pair)
				printf("# paired: %llu of %llu samples; mean "
				       "overlap %.2f cycles\n",
				       (unsigned long long)ctx.pm_paired,
				       (unsigned long long)ctx.pm_total,
				       ctx.pm_paired ? ctx.pair_overlap /
							   (double)ctx.pm_paired
						     : 0.0);
		}
	}
	rc = cli_stop_sig ? 128 + cli_stop_sig : 0;
	goto out;
usage:
	rc = EXIT_USAGE;
out:
	if (ctx.rec) /* failed before the end: an existing file stays */
		pmk_rec_writer_abort(ctx.rec);
	pmk_sim_free(sim);
	pmk_sim_source_close(src);
	for (int i = 0; i < nev; i++)
		free(evs[i]);
	free(ctx.ebs.pc);
	free(ctx.ebs.n);
	free(ctx.pm.pc);
	free(ctx.pm.n);
	return rc;
}

static int print_wl(const char *name, const char *desc, void *arg)
{
	(void)arg;
	printf("%-16s %s\n", name, desc);
	return 0;
}

static int sim_sub_run(int argc, char **argv)
{
	return sim_run(argc, argv, 0);
}

static int sim_sub_record(int argc, char **argv)
{
	return sim_run(argc, argv, 1);
}

static int sim_list_events(int argc, char **argv)
{
	for (int i = 0; i < pmk_sim_event_count(); i++) {
		const pmk_sim_event_desc *e = pmk_sim_event_get(i);
		printf("%-20s %s%s%s%s\n", e->name, e->desc,
		       e->umask_desc ? " [umask: " : "",
		       e->umask_desc ? e->umask_desc : "",
		       e->umask_desc ? "]" : "");
	}
	return 0;
}

static int sim_workloads(int argc, char **argv)
{
	pmk_workload_foreach(print_wl, NULL);
	return 0;
}

static int sim_config(int argc, char **argv)
{
	pmk_sim_config cfg;
	char buf[8192];
	if (load_config(&cfg, argc > 1 ? argv[1] : NULL, NULL, 0) < 0)
		return EXIT_USAGE;
	pmk_sim_config_format(&cfg, buf, sizeof buf);
	fputs(buf, stdout);
	return 0;
}

int cmd_sim(int argc, char **argv)
{
	static const struct cli_sub subs[] = {
	    {"run", sim_sub_run},
	    {"record", sim_sub_record},
	    {"list-events", sim_list_events},
	    {"workloads", sim_workloads},
	    {"config", sim_config},
	    {NULL, NULL},
	};
	return cli_sub_run("sim", subs, argc, argv);
}
