/*
 * cmd_report.c: `pmkit report [-i FILE] [--sort KEY[,KEY...]] [-g|--children]
 * [--json] [--folded] [--annotate FUNCTION] ...`: read a record file (or a
 * perf.data file) and print where the samples fell, as perf users read it.
 */
/* pmkit-command: report | show a profile from a record file */
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/personality.h"
#include "cli/opt.h"
#include "cli/report_stats.h"
#include "cli/report_tasks.h"
#include "cli/stdin_file.h"
#include "lib/core/outfile.h"
#include "lib/sample/perfout.h"

/* Write a picture or export to `path` through the shared output files
 * (lib/core/outfile.h): a new file beside it, renamed into place once
 * complete, the previous one kept as PATH.old; "-" is standard output. */
struct out_job {
	pmk_profile *p, *base;
	const char *event, *title;
	int kind; /* 0 flame graph, 1 speedscope */
};
static int write_output(const char *path, const struct out_job *j)
{
	pmk__outfile of;
	pmk_diag od;
	FILE *f;
	int rc;
	pmk_diag_clear(&od);
	f = pmk__outfile_fopen(&of, path, 0, &od);
	if (!f) {
		cli_error("%s", od.message[0] ? od.message : "cannot write");
		return 1;
	}
	rc = j->kind ? pmk_profile_speedscope(j->p, j->title, f)
		     : pmk_profile_flamegraph(j->p, j->base, j->event,
					      j->title, f);
	if (pmk__outfile_fclose(&of, rc == 0, &od) != 0 && rc == 0) {
		cli_error("%s", od.message[0] ? od.message : "cannot write");
		return 1;
	}
	if (rc == PMK_ENOEVENT) {
		cli_error("no event '%s' in the profile", j->event);
		return EXIT_USAGE;
	}
	if (rc) {
		cli_error("cannot write '%s': %s", path, pmk_strerror(rc));
		return 1;
	}
	return 0;
}

static const char *legacy_keys[] = {"function", "line", "address", "dso",
				    "data", "symbol", "sym", "srcline",
				    "daddr", "symbol_daddr"};

/* A single key the original table understands (its layout is kept for
 * scripts that read it); anything else goes to the perf-style view. */
static int legacy_sort(const char *s, pmk_sort *out)
{
	for (size_t i = 0; i < sizeof legacy_keys / sizeof *legacy_keys; i++)
		if (!strcmp(s, legacy_keys[i]))
			return pmk_sort_parse(s, out) == 0;
	return 0;
}

static int report_error(const char *in, int rc, pmk_diag *d)
{
	if (!d->message[0])
		snprintf(d->message, sizeof d->message, "%s", pmk_strerror(rc));
	cli_error("%s: %s", in, d->message);
	if (d->hint[0])
		fprintf(stderr, "hint: %s\n", d->hint);
	return rc == PMK_ENOENT || rc == PMK_EIO ? 1 : EXIT_USAGE;
}

enum {
	OPT_SORT_ = 256, OPT_FLAME, OPT_SPEEDSCOPE, OPT_ASM, OPT_SCRIPT,
	OPT_DIFF, OPT_JSON, OPT_NO_DEMANGLE, OPT_FOLDED, OPT_STDIO,
	OPT_CHILDREN, OPT_NO_CHILDREN, OPT_PLIMIT, OPT_CALL_GRAPH,
	OPT_INLINE, OPT_NO_INLINE, OPT_HEADER_ONLY, OPT_COMMS, OPT_PIDS,
	OPT_TIDS, OPT_DSOS, OPT_SYMBOLS, OPT_TASK, OPT_STATS, OPT_HEADER,
	OPT_MAX_STACK, OPT_HIERARCHY
};

static const struct cli_opt report_opts[] = {
	{'i', "input", CLI_ARG},
	{'s', "sort", CLI_ARG},
	{'F', "fields", CLI_ARG},
	{OPT_FLAME, "flamegraph", CLI_ARG},
	{OPT_SPEEDSCOPE, "speedscope", CLI_ARG},
	{OPT_ASM, "asm", CLI_NOARG},
	{OPT_SCRIPT, "script", CLI_NOARG},
	{OPT_DIFF, "diff", CLI_ARG},
	{OPT_JSON, "json", CLI_NOARG},
	{OPT_NO_DEMANGLE, "no-demangle", CLI_NOARG},
	{OPT_FOLDED, "folded", CLI_NOARG},
	{OPT_STDIO, "stdio", CLI_NOARG},
	{OPT_CHILDREN, "children", CLI_NOARG},
	{OPT_NO_CHILDREN, "no-children", CLI_NOARG},
	{OPT_INLINE, "inline", CLI_NOARG},
	{OPT_NO_INLINE, "no-inline", CLI_NOARG},
	{'g', NULL, CLI_NOARG},
	{OPT_CALL_GRAPH, "call-graph", CLI_OPTARG},
	{'G', "inverted", CLI_NOARG},
	{OPT_PLIMIT, "percent-limit", CLI_ARG},
	{OPT_MAX_STACK, "max-stack", CLI_ARG},
	{'t', "field-separator", CLI_ARG},
	{'e', "event", CLI_ARG},
	{'a', "annotate", CLI_ARG},
	{'n', "show-nr-samples", CLI_NOARG},
	{'q', "quiet", CLI_NOARG},
	{OPT_HEADER_ONLY, "header-only", CLI_NOARG},
	{OPT_TASK, "task", CLI_NOARG},
	{OPT_STATS, "stats", CLI_NOARG},
	{OPT_HEADER, "header", CLI_NOARG},
	{OPT_HIERARCHY, "hierarchy", CLI_NOARG},
	{OPT_COMMS, "comms", CLI_ARG},
	{OPT_PIDS, "pids", CLI_ARG},
	{OPT_TIDS, "tids", CLI_ARG},
	{OPT_DSOS, "dsos", CLI_ARG},
	{OPT_SYMBOLS, "symbols", CLI_ARG},
	{0},
};

struct rep {
	int argc;
	char **argv;
	const char *in, *annot, *event, *sort_arg, *flame, *speedscope;
	const char *diff_a, *diff_b;
	int script, asm_view, json, folded, mangled, children, graph;
	int callee, no_children, in_given, no_inline;
	char fields[256]; /* -F's sort keys */
	int fields_given; /* -F: perf's field order, not a sort order */
	int task;	  /* --task: the task tree instead */
	int stats;  /* --stats: the records by type instead */
	int header; /* --header: the file's description, then the report */
	double plimit;
	int stdio; /* perf's --stdio layout: asked for, or implied by an
		      option only that layout has */
	pmk__perf_report_opts po;
};

/* whether the word after -g is perf's call-graph argument (a file name
 * is not) */
static int is_cg(const char *v)
{
	pmk__cg_opts o;
	char err[8];
	pmk__cg_opts_init(&o);
	return v[0] != '-' && pmk__cg_parse(v, &o, err, sizeof err) == 0;
}

/* perf's -F FIELDS: its sort keys become --sort's (the overhead, sample
 * and period columns are dropped from the list: the Overhead column is
 * printed whether named or not) */
static int fields_opt(struct rep *r, const char *val)
{
	const char *p = val;
	size_t n = 0;
	r->fields[0] = 0;
	while (*p) {
		size_t l = strcspn(p, ",");
		if (l && strncmp(p, "overhead", 8) && strncmp(p, "sample", l) &&
		    strncmp(p, "period", l)) {
			if (n + l + 2 > sizeof r->fields) {
				cli_error("-F: too many fields in '%s'", val);
				return EXIT_USAGE;
			}
			if (n)
				r->fields[n++] = ',';
			memcpy(r->fields + n, p, l);
			n += l;
			r->fields[n] = 0;
		}
		p += l + (p[l] == ',');
	}
	r->stdio = 1;
	r->fields_given = 1;
	if (n)
		r->sort_arg = r->fields;
	return 0;
}

static int on_opt(int key, const char *val, void *arg)
{
	struct rep *r = arg;
	switch (key) {
	case 'i':
		r->in = val;
		r->in_given = 1;
		break;
	case 's':
		r->sort_arg = val;
		break;
	case 'F':
		return fields_opt(r, val);
	case OPT_FLAME:
		r->flame = val;
		break;
	case OPT_SPEEDSCOPE:
		r->speedscope = val;
		break;
	case OPT_ASM:
		r->asm_view = 1;
		break;
	case OPT_SCRIPT:
		r->script = 1;
		break;
	case OPT_DIFF:
		r->diff_a = val;
		r->diff_b = cli_opt_take(r->argc, r->argv, NULL);
		if (!r->diff_b) {
			cli_error("--diff takes two files: BASE NEW");
			return EXIT_USAGE;
		}
		break;
	case OPT_JSON:
		r->json = 1;
		break;
	case OPT_NO_DEMANGLE:
		r->mangled = 1;
		break;
	case OPT_FOLDED:
		r->folded = 1;
		break;
	case OPT_STDIO:
		r->stdio = 1;
		break;
	case 'n':
		r->stdio = r->po.samples = 1;
		break;
	case 'q':
		r->stdio = r->po.quiet = 1;
		break;
	case OPT_HEADER_ONLY:
		r->stdio = r->po.header_only = 1;
		break;
	case OPT_TASK:
		r->task = 1;
		break;
	case OPT_STATS:
		r->stats = 1;
		break;
	case OPT_HEADER:
		r->stdio = r->header = 1;
		break;
	case OPT_HIERARCHY: /* perf's layout, the keys as a tree */
		r->stdio = r->po.hierarchy = 1;
		break;
	case OPT_COMMS:
		r->stdio = 1;
		r->po.comms = val;
		break;
	case OPT_PIDS:
		r->stdio = 1;
		r->po.pids = val;
		break;
	case OPT_TIDS:
		r->stdio = 1;
		r->po.tids = val;
		break;
	case OPT_DSOS:
		r->stdio = 1;
		r->po.dsos = val;
		break;
	case OPT_SYMBOLS:
		r->stdio = 1;
		r->po.symbols = val;
		break;
	case OPT_CHILDREN:
		r->children = 1;
		break;
	case OPT_NO_CHILDREN:
		r->no_children = 1;
		break;
	case OPT_INLINE: /* the default, as in perf */
		r->no_inline = 0;
		break;
	case OPT_NO_INLINE:
		r->no_inline = 1;
		break;
	case 'g':
	case OPT_CALL_GRAPH:
		/* -g [TYPE,MIN,LIMIT,ORDER,KEY,VALUE], --call-graph[=| ]...:
		 * perf's items in any order (lib/sample/cgraph.h) */
		r->children = r->graph = 1;
		if (!val)
			val = cli_opt_take(r->argc, r->argv,
					   key == 'g' ? is_cg : NULL);
		if (val) {
			char err[200];
			if (pmk__cg_parse(val, &r->po.cg, err, sizeof err) < 0) {
				cli_error("%s: %s",
					  key == 'g' ? "-g" : "--call-graph",
					  err);
				return EXIT_USAGE;
			}
			if (r->po.cg.order >= 0)
				r->callee = r->po.cg.order;
			if (r->po.cg.mode == PMK_CG_NONE)
				r->graph = 0;
		}
		break;
	case 't': /* perf's layout, its columns joined by SEP */
		if (!*val) {
			cli_error("-t takes a separator, not an empty word");
			return EXIT_USAGE;
		}
		r->stdio = 1;
		r->po.field_sep = val;
		r->po.cg.sep = val; /* as perf: folded chains joined by it */
		break;
	case OPT_MAX_STACK: {
		unsigned long long v;
		if (cli_opt_u64_in(val, 1, 100000, &v))
			return EXIT_USAGE;
		r->po.max_stack = (unsigned)v;
		break;
	}
	case 'G':
		r->children = r->graph = 1;
		r->callee = 0;
		break;
	case OPT_PLIMIT: {
		char *end;
		r->plimit = strtod(val, &end);
		if (end == val || *end || r->plimit < 0 || r->plimit > 100) {
			cli_error("--percent-limit takes a percentage 0-100, "
				  "not '%s'",
				  val);
			return EXIT_USAGE;
		}
		/* as perf: the call chains under it are left out too */
		r->po.cg.min_percent = r->plimit;
		break;
	}
	case 'e':
		r->event = val;
		break;
	case 'a':
		r->annot = val;
		break;
	default:
		return EXIT_USAGE;
	}
	return 0;
}

/* perf report --stdio's layout (lib/sample/views.c): headers, Overhead,
 * Command, Shared Object, Symbol with [.]/[k], perf's options. */
/* --header: the file's description (--header-only's block, with the
 * compression line of a compressed perf.data inside it) before the
 * report, as perf prints it */
static void print_header(pmk_profile *p, struct rep *r, const char *in)
{
	char *buf = NULL, line[128];
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	pmk_diag d;
	const char *end;
	if (!mem)
		return;
	r->po.header_only = 1;
	pmk__profile_perf_report(p, &r->po, mem, &d);
	r->po.header_only = 0;
	fclose(mem);
	cli_report_compressed(in, line, sizeof line);
	/* the block ends "# ========\n#\n": the line goes before that */
	end = buf ? strstr(buf + 1, "\n# ========\n") : NULL;
	if (end && line[0]) {
		fwrite(buf, 1, (size_t)(end + 1 - buf), stdout);
		fputs(line, stdout);
		fputs(end + 1, stdout);
	} else if (buf) {
		fputs(line, stdout);
		fputs(buf, stdout);
	}
	free(buf);
}

static int perf_report(struct rep *r, const char *in, const char *sort_arg,
		       const char *event, int children, int graph,
		       int no_children, int callee, double plimit)
{
	pmk_profile *p;
	pmk_profile_stats st;
	pmk_diag d;
	int rc;
	pmk_diag_clear(&d);
	rc = pmk_profile_load(&p, in, &d);
	if (rc < 0)
		return report_error(in, rc, &d);
	pmk_profile_set_mangled(p, r->mangled);
	pmk_profile_stats_get(p, &st);
	if (st.damaged)
		cli_warn("%s: %llu damaged record(s) skipped", in,
			 (unsigned long long)st.damaged);
	r->po.sort = sort_arg;
	/* perf leaves out a chain's first frame when --sort begins with the
	 * symbol: it is the entry's own */
	r->po.cg.skip_first =
	    sort_arg && !r->fields_given && !strncmp(sort_arg, "sym", 3);
	r->po.event = event;
	r->po.children = no_children ? 0 : children ? 1 : -1;
	r->po.graph = r->po.cg.mode == PMK_CG_NONE ? 0 : graph ? 1 : -1;
	/* --no-children: who calls each entry, as perf draws it */
	r->po.callee = callee < 0 ? no_children : callee;
	r->po.percent_limit = plimit;
	r->po.no_inline = r->no_inline;
	if (r->header && !r->po.header_only)
		print_header(p, r, in);
	rc = pmk__profile_perf_report(p, &r->po, stdout, &d);
	pmk_profile_free(p);
	if (rc == PMK_ENOEVENT) {
		cli_error("no event '%s' in %s", event, in);
		return EXIT_USAGE;
	}
	if (rc < 0) {
		cli_error("%s", d.message[0] ? d.message : pmk_strerror(rc));
		return 1;
	}
	return 0;
}

int cmd_report(int argc, char **argv)
{
	struct rep r;
	const char *in, *annot, *event, *sort_arg, *flame, *speedscope;
	const char *diff_a, *diff_b;
	int script, asm_view, json, folded, mangled, children, graph;
	int callee, no_children, rc, first;
	double plimit;
	pmk_sort sort = PMK_SORT_FUNCTION;
	pmk_profile *p;
	pmk_profile_stats st;
	pmk_diag d;

	memset(&r, 0, sizeof r);
	r.argc = argc;
	r.argv = argv;
	r.in = cli_as_perf ? CLI_PERF_DATA : PMK_REC_DEFAULT_FILE;
	r.callee = -1;
	pmk__cg_opts_init(&r.po.cg);
	first = cli_opt_parse_mixed("report", argc, argv, report_opts, on_opt,
				    &r);
	if (first < 0)
		return -first;
	if (cli_as_perf && !r.asm_view) /* perf's layout is the default */
		r.stdio = 1;
	if (first < argc) {
		/* pmkit report FILE, as -i FILE */
		if (argc - first > 1 || r.in_given) {
			cli_error("one input file: '%s' is one too many",
				  argv[argc - 1]);
			return cli_usage("report");
		}
		r.in = argv[first];
	}
	if (!strcmp(r.in, "-") && !(r.in = cli_stdin_file()))
		return 1; /* perf's -i -: a recording piped in */
	in = r.in, annot = r.annot, event = r.event, sort_arg = r.sort_arg;
	flame = r.flame, speedscope = r.speedscope;
	diff_a = r.diff_a, diff_b = r.diff_b;
	script = r.script, asm_view = r.asm_view, json = r.json;
	folded = r.folded, mangled = r.mangled, children = r.children;
	graph = r.graph, callee = r.callee, no_children = r.no_children;
	plimit = r.plimit;
	if (json + folded + (annot != NULL) > 1) {
		cli_error("--json, --folded and --annotate exclude each other");
		return EXIT_USAGE;
	}
	if ((flame != NULL) + (speedscope != NULL) + script +
		    (json || folded || annot) >
		1) {
		cli_error("--flamegraph, --speedscope, --script, --json, "
			  "--folded and --annotate exclude each other");
		return EXIT_USAGE;
	}
	if (r.po.hierarchy &&
	    (r.fields_given || json || folded || annot || flame || speedscope ||
	     script || diff_a || r.task || r.stats)) {
		/* perf refuses -F with it too */
		cli_error("--hierarchy is perf's --stdio tree: not with -F, "
			  "--json, --folded, --annotate, --flamegraph, "
			  "--speedscope, --script, --diff, --task or --stats");
		return EXIT_USAGE;
	}
	if (r.task) /* perf's --task: the processes and threads */
		return cli_report_tasks(in, stdout);
	if (r.stats) /* perf's --stats: the records by type */
		return cli_report_stats(in, stdout);
	if (script) {
		pmk_diag_clear(&d);
		pmk__script_opts so; /* `pmkit script`'s defaults */
		pmk__script_opts_init(&so);
		so.mangled = mangled;
		rc = pmk__profile_script(in, &so, stdout, &d);
		return rc < 0 ? report_error(in, rc, &d) : 0;
	}
	if (diff_a) {
		pmk_profile *a = NULL, *b = NULL;
		pmk_diag_clear(&d);
		rc = pmk_profile_load(&a, diff_a, &d);
		if (rc < 0)
			return report_error(diff_a, rc, &d);
		rc = pmk_profile_load(&b, diff_b, &d);
		if (rc < 0) {
			pmk_profile_free(a);
			return report_error(diff_b, rc, &d);
		}
		pmk_profile_set_mangled(a, mangled);
		pmk_profile_set_mangled(b, mangled);
		if (flame) {
			struct out_job j = {b, a, event, NULL, 0};
			rc = write_output(flame, &j);
		} else {
			rc = pmk_profile_diff(a, b, event, json, stdout);
			if (rc == PMK_ENOEVENT) {
				cli_error("no event '%s' in both files", event);
				rc = EXIT_USAGE;
			} else if (rc < 0) {
				cli_error("%s", pmk_strerror(rc));
				rc = 1;
			}
		}
		pmk_profile_free(a);
		pmk_profile_free(b);
		return rc;
	}
	if (no_children) {
		children = 0;
		if (callee < 0)
			callee = 1; /* who calls each function, as perf */
	}
	if (r.stdio && !(json || folded || annot || flame || speedscope)) {
		int keys[8];
		pmk_diag_clear(&d);
		if (sort_arg && pmk_view_keys_parse(sort_arg, keys, 8, &d) < 0) {
			cli_error("%s", d.message);
			fprintf(stderr, "hint: %s\n", d.hint);
			return EXIT_USAGE;
		}
		return perf_report(&r, in, sort_arg, event, children, graph,
				   no_children, callee, plimit);
	}
	pmk_diag_clear(&d);
	{
		/* check the keys before reading the file */
		int keys[8];
		if (sort_arg && !legacy_sort(sort_arg, &sort) &&
		    pmk_view_keys_parse(sort_arg, keys, 8, &d) < 0) {
			cli_error("%s", d.message);
			fprintf(stderr, "hint: %s\n", d.hint);
			return EXIT_USAGE;
		}
	}
	/* the perf-style view: several keys, comm/pid/tid, or call graphs */
	int view = (sort_arg && !legacy_sort(sort_arg, &sort)) || children ||
		   graph || no_children || plimit > 0;
	/* --no-inline lines: the view knows the call sites of inlined code */
	if (r.no_inline && sort_arg && sort == PMK_SORT_LINE && !json &&
	    !folded && !annot)
		view = 1;
	if (view && (json || folded || annot)) {
		cli_error("--json, --folded and --annotate take one of "
			  "function, line, address, dso or data as --sort, "
			  "without -g/--children");
		return EXIT_USAGE;
	}
	rc = pmk_profile_load(&p, in, &d);
	if (rc < 0)
		return report_error(in, rc, &d);
	pmk_profile_set_mangled(p, mangled);
	pmk_profile_stats_get(p, &st);
	if (st.truncated_bytes)
		cli_warn("%s ends with an incomplete record (%llu bytes "
			 "ignored): the recording was cut short",
			 in, (unsigned long long)st.truncated_bytes);
	if (st.damaged)
		cli_warn("%s: %llu damaged record(s) skipped (%llu bytes), the "
			 "first at byte %llu: %s",
			 in, (unsigned long long)st.damaged,
			 (unsigned long long)st.damaged_bytes,
			 (unsigned long long)st.first_damage, st.damage_why);
	if (st.lost)
		cli_warn("%llu samples were lost while recording",
			 (unsigned long long)st.lost);
	if (sort == PMK_SORT_DATA && !view && !folded && !annot &&
	    !st.data_samples) {
		cli_error("%s: no sample has a data address", in);
		fprintf(stderr, "hint: record with --data (page-faults give "
				"the faulting address anywhere; memory events "
				"need a PMU with PEBS or IBS)\n");
		pmk_profile_free(p);
		return 1;
	}
	if (!pmk_profile_can_symbolize())
		cli_warn("built without elfutils: no symbols or lines, "
			 "offsets only");
	if (flame || speedscope) {
		struct out_job j = {p, NULL, event, NULL, speedscope != NULL};
		rc = write_output(flame ? flame : speedscope, &j);
		pmk_profile_free(p);
		return rc;
	}
	if (view) {
		pmk_view_opts o;
		memset(&o, 0, sizeof o);
		o.sort = sort_arg;
		o.event = event;
		o.children = children;
		o.graph = graph;
		o.callee = callee < 0 ? 0 : callee;
		o.percent_limit = plimit;
		o.tree_limit = r.po.cg.min_percent;
		o.no_inline = r.no_inline;
		rc = pmk_profile_view(p, &o, stdout, &d);
	} else if (folded)
		rc = pmk_profile_print_folded(p, event, stdout);
	else if (annot && asm_view)
		rc = pmk_profile_annotate_asm(p, annot, stdout, &d);
	else if (annot)
		rc = pmk_profile_annotate(p, annot, stdout, &d);
	else
		rc = pmk_profile_print(p, sort, json, stdout);
	pmk_profile_stats_get(p, &st);
	if (st.dsos_changed)
		cli_warn("%llu file(s) changed since the recording (build id, "
			 "size or time differs): their symbols may be wrong",
			 (unsigned long long)st.dsos_changed);
	pmk_profile_free(p);
	if (rc == PMK_ENOEVENT) {
		cli_error("no event '%s' in %s", event, in);
		return EXIT_USAGE;
	}
	if (rc < 0) {
		if (d.message[0]) {
			cli_error("%s", d.message);
			if (d.hint[0])
				fprintf(stderr, "hint: %s\n", d.hint);
		} else {
			cli_error("%s", pmk_strerror(rc));
		}
		return 1;
	}
	return 0;
}
