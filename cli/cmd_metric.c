/*
 * cmd_metric.c: `pmkit metric needs|eval|check`, the post-processing
 * utilities seed 002 planned for definition files:
 *   needs FILE [NAME...] [--json] [--pmu MODEL]   events to collect
 *   eval FILE INPUT [NAME...] [--json] [--pmu MODEL]
 *                                   definitions over recorded counts
 *   check FILE... [--pmu MODEL]      load, report the first error
 */
/* pmkit-command: metric | events a definition file needs; evaluate it */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/opt.h"
#include "cli/subcmd.h"

struct mopts {
	int json;
	int any_names;
	const char *pmu;
	const char *pos[64];
	int npos;
};

enum { M_JSON = 256, M_ANY_NAMES, M_PMU };
static const struct cli_opt metric_opts[] = {
	{M_JSON, "json", CLI_NOARG},
	{M_ANY_NAMES, "any-names", CLI_NOARG},
	{M_PMU, "pmu", CLI_ARG},
	{0, NULL, 0},
};

static int on_metric_opt(int key, const char *val, void *arg)
{
	struct mopts *o = arg;
	if (key == M_JSON)
		o->json = 1;
	else if (key == M_ANY_NAMES)
		o->any_names = 1;
	else if (key == M_PMU)
		o->pmu = val;
	return 0;
}

/* Options of the subcommand (argv[0]), mixed with the operands. Returns
 * 0, or the exit code after an error was printed. */
static int parse_opts(int argc, char **argv, struct mopts *o)
{
	int i;
	memset(o, 0, sizeof *o);
	i = cli_opt_parse_mixed("metric", argc, argv, metric_opts,
				on_metric_opt, o);
	if (i < 0)
		return -i;
	for (; i < argc; i++) {
		if (o->npos == 64) {
			cli_error("too many arguments");
			return cli_usage("metric");
		}
		o->pos[o->npos++] = argv[i];
	}
	return 0;
}

/* Indices of the definitions named on the command line (all when none),
 * or -1 after an error. */
static int select_defs(const pmk_defs *defs, const char *const *names, int n,
		       int *sel)
{
	if (n == 0) {
		for (int i = 0; i < pmk_defs_count(defs); i++)
			sel[i] = i;
		return pmk_defs_count(defs);
	}
	for (int k = 0; k < n; k++) {
		sel[k] = pmk_defs_find(defs, names[k]);
		if (sel[k] < 0) {
			cli_error("'%s' is not defined in the file", names[k]);
			return -1;
		}
	}
	return n;
}

static pmk_defs *load(const char *file, const struct mopts *o, int symbolic)
{
	pmk_defs *defs;
	pmk_diag d;
	pmk_defs_opts po = {0};
	po.model = o->pmu;
	po.symbolic = symbolic;
	if (pmk_defs_parse_file(&defs, file, &po, &d)) {
		cli_diag(&d);
		return NULL;
	}
	return defs;
}

/* Add `s` to a list of distinct strings. */
static int add_unique(const char ***list, int *n, const char *s)
{
	const char **nl;
	for (int i = 0; i < *n; i++)
		if (!strcmp((*list)[i], s))
			return 0;
	nl = realloc(*list, sizeof *nl * (size_t)(*n + 1));
	if (!nl)
		return -1;
	nl[(*n)++] = s;
	*list = nl;
	return 0;
}

static int needs(const struct mopts *o)
{
	pmk_defs *defs;
	int *sel, n, natives;
	const char **out = NULL;
	int nout = 0;

	if (o->npos < 1) {
		cli_error("'metric needs' needs a definition file");
		return cli_usage("metric");
	}
	defs = load(o->pos[0], o, o->any_names);
	if (!defs)
		return EXIT_USAGE;
	sel = malloc(sizeof *sel * (size_t)(pmk_defs_count(defs) + o->npos));
	n = sel ? select_defs(defs, o->pos + 1, o->npos - 1, sel) : -1;
	if (n < 0) {
		free(sel);
		pmk_defs_free(defs);
		return EXIT_USAGE;
	}
	/* Natives when a model applies: one given with --pmu, or the host's
	 * when it has a core PMU. Otherwise the names as written. */
	natives = o->pmu != NULL || pmk_defs_host_model()[0];
	for (int s = 0; s < n; s++)
		for (int k = 0; k < pmk_defs_base_count(defs, sel[s]); k++) {
			const pmk_event *ev =
			    pmk_defs_base_event(defs, sel[s], k);
			if (natives && ev && ev->nleaf > 0) {
				for (int l = 0; l < ev->nleaf; l++)
					add_unique(&out, &nout,
						   ev->leaf[l].name[0]
						       ? ev->leaf[l].name
						       : ev->name);
			} else {
				add_unique(&out, &nout,
					   pmk_defs_base(defs, sel[s], k));
			}
		}
	if (o->json) {
		printf("{\"file\":");
		cli_json_str(stdout, o->pos[0]);
		printf(",\"model\":");
		cli_json_str(stdout, o->pmu ? o->pmu : pmk_defs_host_model());
		printf(",\"events\":[");
		for (int i = 0; i < nout; i++) {
			printf(i ? "," : "");
			cli_json_str(stdout, out[i]);
		}
		printf("],\"definitions\":[");
		for (int s = 0; s < n; s++) {
			printf("%s{\"name\":", s ? "," : "");
			cli_json_str(stdout, pmk_defs_name(defs, sel[s]));
			printf(",\"definition\":");
			cli_json_str(stdout, pmk_defs_text(defs, sel[s]));
			printf(",\"needs\":[");
			for (int k = 0; k < pmk_defs_base_count(defs, sel[s]);
			     k++) {
				printf(k ? "," : "");
				cli_json_str(stdout, pmk_defs_base(defs, sel[s], k));
			}
			printf("]}");
		}
		printf("]}\n");
	} else {
		for (int i = 0; i < nout; i++)
			printf("%s\n", out[i]);
	}
	free(out);
	free(sel);
	pmk_defs_free(defs);
	return 0;
}

static int eval(const struct mopts *o)
{
	pmk_defs *defs;
	pmk_measure *m;
	pmk_diag d;
	int *sel, n, rc = 0;

	if (o->npos < 2) {
		cli_error("'metric eval' needs a definition file and a "
			  "measurement file");
		return cli_usage("metric");
	}
	/* Recorded counts may come from another machine: base names are
	 * matched against the measurements, not this machine's tables. */
	defs = load(o->pos[0], o, 1);
	if (!defs)
		return EXIT_USAGE;
	if (pmk_measure_read(&m, o->pos[1], &d)) {
		cli_diag(&d);
		pmk_defs_free(defs);
		return EXIT_USAGE;
	}
	sel = malloc(sizeof *sel * (size_t)(pmk_defs_count(defs) + o->npos));
	n = sel ? select_defs(defs, o->pos + 2, o->npos - 2, sel) : -1;
	if (n < 0) {
		free(sel);
		pmk_measure_free(m);
		pmk_defs_free(defs);
		return EXIT_USAGE;
	}
	if (o->json)
		printf("{\"file\":"), cli_json_str(stdout, o->pos[0]),
		    printf(",\"input\":"), cli_json_str(stdout, o->pos[1]),
		    printf(",\"metrics\":[");
	for (int s = 0; s < n; s++) {
		int i = sel[s], nb = pmk_defs_base_count(defs, i);
		double *in = malloc(sizeof *in * (size_t)(nb ? nb : 1));
		double *er = malloc(sizeof *er * (size_t)(nb ? nb : 1));
		double e = 0, lo = NAN, hi = NAN;
		int uncertain = 0;
		char missing[512] = "";
		size_t ml = 0;
		unsigned fl;
		double v;
		if (!in || !er) {
			free(in);
			free(er);
			rc = 1;
			break;
		}
		for (int k = 0; k < nb; k++) {
			const char *b = pmk_defs_base(defs, i, k);
			er[k] = pmk_measure_err(m, b);
			uncertain |= er[k] > 0;
			if (pmk_measure_get(m, b, &in[k]) || isnan(in[k])) {
				in[k] = NAN;
				if (ml < sizeof missing)
					ml += (size_t)snprintf(
					    missing + ml, sizeof missing - ml,
					    "%s%s", ml ? ", " : "", b);
			}
		}
		/* Recorded error estimates (multiplexed counts) give the
		 * value an error and an interval. */
		if (uncertain)
			v = pmk_defs_eval_err(defs, i, in, er, &e, &lo, &hi,
					      &fl);
		else
			v = pmk_defs_eval(defs, i, in, &fl);
		if (fl & PMK_EVAL_MISSING)
			rc = 1;
		if (o->json) {
			printf("%s{\"name\":", s ? "," : "");
			cli_json_str(stdout, pmk_defs_name(defs, i));
			printf(",\"value\":");
			if (isfinite(v))
				printf("%.15g", v);
			else
				printf("null");
			if (uncertain && isfinite(v)) {
				printf(",\"error\":%.15g,\"interval\":[", e);
				if (isfinite(lo))
					printf("%.15g,", lo);
				else
					printf("null,");
				if (isfinite(hi))
					printf("%.15g]", hi);
				else
					printf("null]");
			}
			printf(",\"division_by_zero\":%s,\"missing\":",
			       fl & PMK_EVAL_DIV0 ? "true" : "false");
			cli_json_str(stdout, missing);
			printf("}");
		} else if (fl & PMK_EVAL_MISSING) {
			printf("%-24s %16s  # not recorded: %s\n",
			       pmk_defs_name(defs, i), "<missing>", missing);
		} else if (fl & PMK_EVAL_DIV0) {
			printf("%-24s %16s  # division by zero\n",
			       pmk_defs_name(defs, i), "nan");
		} else if (uncertain) {
			printf("%-24s %16.10g  +- %.4g  [%.6g, %.6g]\n",
			       pmk_defs_name(defs, i), v, e, lo, hi);
		} else {
			printf("%-24s %16.10g\n", pmk_defs_name(defs, i), v);
		}
		free(in);
		free(er);
	}
	if (o->json)
		printf("]}\n");
	if (rc)
		cli_warn("some definitions need events that are not in '%s'",
			 o->pos[1]);
	free(sel);
	pmk_measure_free(m);
	pmk_defs_free(defs);
	return rc;
}

static int check(const struct mopts *o)
{
	int rc = 0;
	if (o->npos < 1) {
		cli_error("'metric check' needs a definition file");
		return cli_usage("metric");
	}
	for (int i = 0; i < o->npos; i++) {
		pmk_defs *defs = load(o->pos[i], o, o->any_names);
		if (!defs) {
			rc = EXIT_USAGE;
			continue;
		}
		/* as stat --defs would: each definition must also make one
		 * countable event (at most PMK_LEAF_MAX natives); one that
		 * does not is said (stat --defs refuses the file), while
		 * metric eval still computes it */
		int nc = 0;
		for (int k = 0; !o->any_names && k < pmk_defs_count(defs);
		     k++) {
			pmk_event ev;
			pmk_diag d;
			char buf[2048];
			pmk_diag_clear(&d);
			if (pmk_defs_event(defs, k, &ev, &d) < 0) {
				if (!nc++) {
					pmk_diag_format(&d, buf, sizeof buf);
					cli_warn("%s", buf);
				}
			}
		}
		if (nc)
			printf("%s: %d definitions (%d not countable: pmkit "
			       "stat --defs refuses the file, metric eval "
			       "computes them)\n",
			       o->pos[i], pmk_defs_count(defs), nc);
		else
			printf("%s: %d definitions\n", o->pos[i],
			       pmk_defs_count(defs));
		pmk_defs_free(defs);
	}
	return rc;
}

/* Each subcommand: its options and operands, then the work. */
#define METRIC_SUB(name)                                                       \
	static int metric_##name(int argc, char **argv)                       \
	{                                                                      \
		struct mopts o;                                                \
		int rc = parse_opts(argc, argv, &o);                           \
		return rc ? rc : name(&o);                                     \
	}
METRIC_SUB(needs)
METRIC_SUB(eval)
METRIC_SUB(check)

int cmd_metric(int argc, char **argv)
{
	static const struct cli_sub subs[] = {
	    {"needs", metric_needs},
	    {"eval", metric_eval},
	    {"check", metric_check},
	    {NULL, NULL},
	};
	return cli_sub_run("metric", subs, argc, argv);
}
