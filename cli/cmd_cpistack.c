/*
 * cmd_cpistack.c: `pmkit cpistack`: CPI stacks on the simulated core (seed
 * 001's FMT against its rivals and the Sim / Sim inv references), or
 * top-down level 1 from real counters for a command.
 */
/* pmkit-command: cpistack | CPI stacks (simulated core) or top-down level 1 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cpistack_perf.h"
#include "cli/opt.h"
#include "cli/writeout.h"
#include "cli/workload.h"

#define MAXW 64

struct opts {
	int sim, csv, json, refs, champsim, help, td_level;
	const char *sim_config, *svg, *pmu;
	unsigned long long n;
	const char *what[MAXW];
	int nw;
	char **cmd;
};

static const char *const presets[] = {
    "pointer-chase", "random-load", "stream",	 "branchy",
    "fp-compute",    "icache",	    "int-mix",	 "int-memory",
    "int-compress",  "kernel-mix",  "miss-load", "ilp",
};

static int usage_error(const char *msg)
{
	cli_error("%s", msg);
	return cli_usage("cpistack");
}

static void json_num(FILE *f, double v)
{
	if (isnan(v) || isinf(v))
		fputs("null", f);
	else
		fprintf(f, "%.6g", v);
}

static void print_table(const pmk_cpistack *s, const char *name)
{
	fprintf(stdout,
		"# %s: %llu instructions, %llu cycles, CPI %.3f (all "
		"idealized %.3f), %d simulations\n",
		name, (unsigned long long)s->insns,
		(unsigned long long)s->cycles, s->cpi, s->ideal_cpi, s->runs);
	printf("%-10s", "component");
	for (int m = 0; m < PMK_CPI_NMETHOD; m++)
		if (s->have[m])
			printf(" %13s", pmk_cpi_method_name(m));
	printf(" %10s\n", "bound(fmt)");
	for (int k = 0; k < PMK_CPI_NCOMP; k++) {
		printf("%-10s", pmk_cpi_comp_name(k));
		for (int m = 0; m < PMK_CPI_NMETHOD; m++)
			if (s->have[m])
				printf(" %13.4f", s->stack[m][k]);
		printf(" %9.1f%%\n",
		       100 * pmk_cpistack_bound(s, PMK_CPI_FMT, k));
	}
	for (int r = PMK_CPI_SIM; r <= PMK_CPI_SIM_INV; r++) {
		if (!s->have[r])
			continue;
		for (int a = 0; a < 2; a++) {
			printf("%-10s", a ? "avg err %" : "max err %");
			for (int m = 0; m < PMK_CPI_NMETHOD; m++) {
				double avg,
				    mx = pmk_cpistack_error(s, m, r, &avg);
				if (s->have[m])
					printf(" %13.2f", a ? avg : mx);
			}
			printf("  vs %s\n", pmk_cpi_method_name(r));
		}
	}
	printf("\n");
}

static void print_summary(const pmk_cpistack *s, int n)
{
	if (!s[0].have[PMK_CPI_SIM] || n < 1)
		return;
	printf("# summary over %d workloads: component errors in %% of total "
	       "CPI\n",
	       n);
	printf("%-14s %9s %9s %9s %9s %9s %9s %9s %9s %9s\n", "method",
	       "worst-max", "mean-max", "mean-avg", "worst-max", "mean-max",
	       "mean-avg", "worst-max", "mean-max", "mean-avg");
	printf("%-14s %29s %29s %29s\n", "", "(vs sim)", "(vs sim-inv)",
	       "(vs the band between)");
	for (int m = 0; m < PMK_CPI_NMETHOD; m++) {
		printf("%-14s", pmk_cpi_method_name(m));
		for (int r = PMK_CPI_SIM; r <= PMK_CPI_SIM_INV + 1; r++) {
			double worst = 0, smax = 0, savg = 0;
			for (int w = 0; w < n; w++) {
				double avg,
				    mx = r > PMK_CPI_SIM_INV
					     ? pmk_cpistack_error_band(&s[w], m,
								       &avg)
					     : pmk_cpistack_error(&s[w], m, r,
								  &avg);
				if (mx > worst)
					worst = mx;
				smax += mx;
				savg += avg;
			}
			printf(" %9.2f %9.2f %9.2f", worst, smax / n, savg / n);
		}
		printf("\n");
	}
}

static void print_csv(const pmk_cpistack *s, const char *const *names, int n)
{
	printf("workload,method");
	for (int k = 0; k < PMK_CPI_NCOMP; k++)
		printf(",%s", pmk_cpi_comp_name(k));
	printf(",total,max_err_sim,avg_err_sim,max_err_sim_inv,"
	       "avg_err_sim_inv\n");
	for (int w = 0; w < n; w++)
		for (int m = 0; m < PMK_CPI_NMETHOD; m++) {
			double tot = 0, a1, a2, m1, m2;
			if (!s[w].have[m])
				continue;
			printf("%s,%s", names[w], pmk_cpi_method_name(m));
			for (int k = 0; k < PMK_CPI_NCOMP; k++) {
				printf(",%.6g", s[w].stack[m][k]);
				tot += s[w].stack[m][k];
			}
			m1 = pmk_cpistack_error(&s[w], m, PMK_CPI_SIM, &a1);
			m2 = pmk_cpistack_error(&s[w], m, PMK_CPI_SIM_INV, &a2);
			printf(",%.6g", tot);
			if (isnan(m1))
				printf(",,,,\n");
			else
				printf(",%.4g,%.4g,%.4g,%.4g\n", m1, a1, m2,
				       a2);
		}
}

static void print_json(const pmk_cpistack *s, const char *const *names, int n)
{
	FILE *f = stdout;
	fputs("{\"workloads\":[", f);
	for (int w = 0; w < n; w++) {
		fputs(w ? ",\n{" : "\n{", f);
		fputs("\"name\":", f);
		cli_json_str(f, names[w]);
		fprintf(f, ",\"instructions\":%llu,\"cycles\":%llu,\"cpi\":",
			(unsigned long long)s[w].insns,
			(unsigned long long)s[w].cycles);
		json_num(f, s[w].cpi);
		fputs(",\"ideal_cpi\":", f);
		json_num(f, s[w].ideal_cpi);
		fprintf(f, ",\"simulations\":%d,\"methods\":{", s[w].runs);
		int first = 1;
		for (int m = 0; m < PMK_CPI_NMETHOD; m++) {
			if (!s[w].have[m])
				continue;
			fprintf(f, "%s\"%s\":{\"components\":{",
				first ? "" : ",", pmk_cpi_method_name(m));
			first = 0;
			for (int k = 0; k < PMK_CPI_NCOMP; k++) {
				fprintf(f, "%s\"%s\":", k ? "," : "",
					pmk_cpi_comp_name(k));
				json_num(f, s[w].stack[m][k]);
			}
			fputs("},\"bound\":{", f);
			for (int k = 0; k < PMK_CPI_NCOMP; k++) {
				fprintf(f, "%s\"%s\":", k ? "," : "",
					pmk_cpi_comp_name(k));
				json_num(f, pmk_cpistack_bound(&s[w], m, k));
			}
			fputs("},\"error\":{", f);
			for (int r = PMK_CPI_SIM; r <= PMK_CPI_SIM_INV; r++) {
				double avg,
				    mx = pmk_cpistack_error(&s[w], m, r, &avg);
				fprintf(f, "%s\"%s\":{\"max_pct\":",
					r == PMK_CPI_SIM ? "" : ",",
					pmk_cpi_method_name(r));
				json_num(f, mx);
				fputs(",\"avg_pct\":", f);
				json_num(f, avg);
				fputs("}", f);
			}
			{
				double avg,
				    mx =
					pmk_cpistack_error_band(&s[w], m, &avg);
				fputs(",\"band\":{\"max_pct\":", f);
				json_num(f, mx);
				fputs(",\"avg_pct\":", f);
				json_num(f, avg);
				fputs("}", f);
			}
			fputs("}}", f);
		}
		fputs("}}", f);
	}
	fputs("\n]}\n", f);
}

/* A bar's label: a trace file's name without its folder and ".trace". */
static const char *label(const char *what, char *buf, size_t size)
{
	const char *b = strrchr(what, '/');
	size_t len;
	b = b ? b + 1 : what;
	len = strlen(b);
	if (len > 6 && !strcmp(b + len - 6, ".trace"))
		len -= 6;
	snprintf(buf, size, "%.*s", (int)len, b);
	return buf;
}

static int write_svgs(const char *prefix, const pmk_cpistack *s,
		      const char *const *what, int n)
{
	char path[4096], lab[MAXW][64];
	const char *names[MAXW];
	for (int w = 0; w < n && w < MAXW; w++)
		names[w] = label(what[w], lab[w], sizeof lab[w]);
	unsigned all = (1u << PMK_CPI_NMETHOD) - 1;
	const char *suffix[4] = {"-stacks.svg", "-errors-sim.svg",
				 "-errors-sim-inv.svg", "-errors-band.svg"};
	const int ref[4] = {0, PMK_CPI_SIM, PMK_CPI_SIM_INV, PMK_CPI_SVG_BAND};
	for (int i = 0; i < 4; i++) {
		FILE *f;
		int rc;
		if (i && !s[0].have[PMK_CPI_SIM])
			break;
		snprintf(path, sizeof path, "%s%s", prefix, suffix[i]);
		if (!(f = cli_out_open(path)))
			return 1;
		rc = i ? pmk_cpistack_svg_errors(f, s, names, n, all, ref[i])
		       : pmk_cpistack_svg_stacks(f, s, names, n, all);
		if (cli_out_close(f, path, rc >= 0, "pmkit cpistack: "))
			return 1;
	}
	return 0;
}

static int run_sim(struct opts *o)
{
	pmk_sim_config cfg;
	pmk_diag d = {0};
	static pmk_cpistack st[MAXW];
	const char *names[MAXW];
	int rc = 0, n;
	pmk_sim_config_default(&cfg);
	if (o->sim_config && pmk_sim_config_load(&cfg, o->sim_config, &d) < 0) {
		cli_diag(&d);
		return EXIT_USAGE;
	}
	if (!o->nw)
		for (size_t i = 0; i < sizeof presets / sizeof *presets; i++)
			o->what[o->nw++] = presets[i];
	n = o->nw;
	for (int w = 0; w < n; w++) {
		names[w] = o->what[w];
		if (cli_isatty(2))
			fprintf(stderr, "\rpmkit cpistack: %d/%d %s ...\033[K",
				w + 1, n, names[w]);
		rc = pmk_cpistack_run(&cfg, o->what[w],
				      o->champsim ? PMK_TRACE_CHAMPSIM
						  : PMK_TRACE_AUTO,
				      o->refs, o->n, &st[w], &d);
		if (rc < 0) {
			if (cli_isatty(2))
				fputs("\r\033[K", stderr);
			cli_diag(&d);
			return rc == PMK_ENOMEM || rc == PMK_EIO ? 1
								 : EXIT_USAGE;
		}
	}
	if (cli_isatty(2))
		fputs("\r\033[K", stderr);
	if (o->json)
		print_json(st, names, n);
	else if (o->csv)
		print_csv(st, names, n);
	else {
		for (int w = 0; w < n; w++)
			print_table(&st[w], names[w]);
		print_summary(st, n);
	}
	if (o->svg)
		return write_svgs(o->svg, st, names, n);
	return 0;
}

/* Whether metrics/topdown.def (built in) describes `model`. */
static int topdown_def_knows(const char *model)
{
	pmk_topdown *td;
	pmk_diag d;
	if (!model || pmk_topdown_new(&td, model, 1, &d) != 0)
		return 0;
	pmk_topdown_free(td);
	return 1;
}

/* Real hardware: top-down level 1 for COMMAND. */
static int run_hw(struct opts *o)
{
	const pmk_target *t = pmk_target_host();
	const char *model = o->pmu ? o->pmu : t ? pmk_target_model(t) : "";
	pmk_topdown *td;
	pmk_eventset *es = NULL;
	pmk_diag d = {0};
	pmk_value vals[16];
	double v[16], parts[PMK_TD_NPART];
	struct workload wl;
	int n, rc, missing = 0, status;
	if (pmk_topdown_new(&td, model, 0, &d) < 0) {
		cli_diag(&d);
		return 1;
	}
	if (t && pmk_target_captured(t)) {
		/* PMK_SYSROOT describes another machine: its events are
		 * listed, never opened here (the counts would be this host's) */
		cli_error("top-down level 1 for CPU model '%s' is defined, but "
			  "PMK_SYSROOT names a captured machine: it is "
			  "described, not counted",
			  model);
		fprintf(stderr, "hint: run `pmkit cpistack` on that machine; "
				"`pmkit cpistack --sim` works anywhere\n");
		pmk_topdown_free(td);
		return 1;
	}
	n = pmk_topdown_event_count(td);
	rc = pmk_eventset_new(&es, PMK_ES_MULTIPLEX | PMK_ES_INHERIT |
				       PMK_ES_ENABLE_ON_EXEC);
	if (rc < 0) {
		pmk_topdown_free(td);
		cli_error("cannot create an event set: %s", pmk_strerror(rc));
		return 1;
	}
	for (int i = 0; i < n; i++) {
		int res;
		const pmk_event *ev;
		pmk_topdown_event(td, i, &res, &ev);
		if (!res || !ev || pmk_eventset_add_event(es, ev, &d) < 0)
			missing = 1;
	}
	if (!missing && pmk_eventset_open(es, &d) < 0)
		missing = 1;
	if (!missing)
		for (int i = 0; i < n; i++)
			if (pmk_eventset_event_diag(es, i)->code)
				missing = 1;
	if (missing) {
		cli_error("top-down level 1 for CPU model '%s' needs events "
			  "this machine cannot count:",
			  model);
		for (int i = 0; i < n; i++) {
			int res;
			const char *name = pmk_topdown_event(td, i, &res, NULL);
			const pmk_diag *ed =
			    i < pmk_eventset_size(es)
				? pmk_eventset_event_diag(es, i)
				: NULL;
			if (res && ed && !ed->code &&
			    pmk_eventset_size(es) == n)
				continue;
			fprintf(stderr, "  %s: %s\n", name,
				!res ? "no encoding for this model here"
				: ed && ed->code ? ed->message
						 : "not opened");
		}
		if (t && !pmk_target_core_pmu(t))
			fprintf(stderr, "hint: no hardware PMU: virtual "
					"machine? `pmkit cpistack --sim` works "
					"anywhere\n");
		else
			fprintf(stderr, "hint: `pmkit cpistack --sim` works "
					"anywhere\n");
		pmk_eventset_free(es);
		pmk_topdown_free(td);
		return 1;
	}
	if (workload_prepare(&wl, o->cmd) < 0) {
		cli_error("cannot start '%s': %s", o->cmd[0], strerror(errno));
		pmk_eventset_free(es);
		pmk_topdown_free(td);
		return 1;
	}
	status = cpistack_count_over(es, &wl, vals, n);
	for (int i = 0; i < n; i++)
		v[i] = vals[i].value;
	rc = pmk_topdown_eval(td, v, parts);
	printf("# top-down level 1, CPU model %s (fractions of slots)\n",
	       model);
	for (int p = 0; p < PMK_TD_NPART; p++)
		printf("%-16s %6.1f%%\n", pmk_td_part_name(p), 100 * parts[p]);
	if (rc < 0)
		cli_warn("some parts could not be computed (no counts)");
	pmk_eventset_free(es);
	pmk_topdown_free(td);
	return status;
}

enum {
	CS_SIM = 256, CS_LONG, CS_CSV, CS_JSON, CS_SVG, CS_NO_REFS, CS_CHAMPSIM,
	CS_PMU, CS_TD_LEVEL,
};
static const struct cli_opt cpistack_opts[] = {
	{'h', "help", CLI_NOARG},
	{CS_SIM, "sim", CLI_OPTARG},
	{'w', "workload", CLI_ARG},
	{'n', NULL, CLI_ARG},
	{CS_LONG, "long", CLI_NOARG},
	{CS_CSV, "csv", CLI_NOARG},
	{'x', NULL, CLI_ARG},
	{CS_JSON, "json", CLI_NOARG},
	{CS_SVG, "svg", CLI_ARG},
	{CS_NO_REFS, "no-refs", CLI_NOARG},
	{CS_CHAMPSIM, "champsim", CLI_NOARG},
	{CS_PMU, "pmu", CLI_ARG},
	{CS_TD_LEVEL, "td-level", CLI_ARG},
	{0, NULL, 0},
};

static int on_cpistack_opt(int key, const char *val, void *arg)
{
	struct opts *o = arg;
	switch (key) {
	case 'h':
		o->help = 1;
		break;
	case CS_SIM:
		o->sim = 1;
		o->sim_config = val;
		break;
	case 'w':
		if (o->nw == MAXW)
			return usage_error("too many workloads");
		o->what[o->nw++] = val;
		break;
	case 'n':
		if (cli_opt_u64("-n", val, &o->n) < 0)
			return EXIT_USAGE;
		break;
	case CS_LONG:
		o->n = 2000000;
		break;
	case 'x':
		if (strcmp(val, ","))
			return usage_error("-x takes ',' only (CSV)");
		o->csv = 1;
		break;
	case CS_CSV:
		o->csv = 1;
		break;
	case CS_JSON:
		o->json = 1;
		break;
	case CS_SVG:
		o->svg = val;
		break;
	case CS_NO_REFS:
		o->refs = 0;
		break;
	case CS_CHAMPSIM:
		o->champsim = 1;
		break;
	case CS_PMU:
		o->pmu = val;
		break;
	case CS_TD_LEVEL: {
		unsigned long long l;
		if (cli_opt_u64("--td-level", val, &l) < 0)
			return EXIT_USAGE;
		if (l < 1 || l > 6)
			return usage_error("--td-level: perf's top-down levels "
					   "are 1 to 6");
		o->td_level = (int)l;
		break;
	}
	}
	return 0;
}

int cmd_cpistack(int argc, char **argv)
{
	struct opts o;
	int i, end;
	memset(&o, 0, sizeof o);
	o.refs = 1;
	o.n = 200000;
	/* workloads and options mix before `--`; the command follows it */
	end = cli_opt_dashdash(argc, argv);
	if (end < argc)
		o.cmd = argv + end + 1;
	i = cli_opt_parse_mixed("cpistack", end, argv, cpistack_opts,
				on_cpistack_opt, &o);
	if (i < 0)
		return -i;
	if (o.help) {
		cli_man_render("pmkit-cpistack", stdout);
		return 0;
	}
	for (; i < end; i++) {
		if (o.nw == MAXW)
			return usage_error("too many workloads");
		o.what[o.nw++] = argv[i];
	}
	if (o.csv && o.json)
		return usage_error("--csv and --json exclude each other");
	if (o.sim) {
		if (o.cmd)
			return usage_error("--sim runs workloads or traces, "
					   "not a COMMAND");
		return run_sim(&o);
	}
	if (o.nw)
		return usage_error("workloads and traces go with --sim");
	if (!o.cmd || !o.cmd[0])
		return usage_error("give --sim or -- COMMAND");
	/* perf's TopdownL<N> where perf defines it: --td-level N, or level 1
	 * on a model metrics/topdown.def does not describe (Broadwell-EP) */
	if (!o.pmu && (o.td_level > 1 ||
		       (!topdown_def_knows(pmk_target_model(pmk_target_host())) &&
			cpistack_perf_defines(1))))
		return cpistack_perf_run(o.cmd, o.td_level ? o.td_level : 1);
	return run_hw(&o);
}
