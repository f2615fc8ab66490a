/*
 * cmd_lock.c: `pmkit lock record|contention`, perf lock's two steps for
 * kernel lock contention:
 *
 *   pmkit lock record [RECORD-OPTIONS] [-- COMMAND...]
 *       pmkit record of the lock:contention_begin and lock:contention_end
 *       tracepoints, every hit (-c 1) with its kernel call chain (-g)
 *   pmkit lock contention|con [-i FILE] [-E N] [-k KEY] [-q] [-v]
 *       the recording by caller: contentions, total, longest and average
 *       wait, lock type and caller, biggest total wait first, on stderr
 *       as perf prints it (lib/sample/lockstat.c does the analysis)
 *
 * perf's BPF mode (-b, live contention of a running system) is not in
 * pmkit: it is refused with exit 1, which perf's own tests read as "no BPF
 * support".
 */
/* pmkit-command: lock | kernel lock contention: record, then by caller */
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/opt.h"
#include "cli/personality.h"
#include "cli/subcmd.h"
#include "lib/sample/lockstat.h"

int cmd_record(int argc, char **argv); /* cli/cmd_record.c */

#define LOCK_EVENTS "lock:contention_begin,lock:contention_end"

/* `record`: pmkit record with the two tracepoints, every hit, call chains;
 * the user's options (-o FILE, -a, ...) and command go through unchanged. */
static int lock_record(int argc, char **argv)
{
	char **av = calloc((size_t)argc + 8, sizeof *av);
	int n = 0, rc;
	if (!av) {
		cli_error("out of memory");
		return 1;
	}
	av[n++] = "record";
	av[n++] = "-e";
	av[n++] = LOCK_EVENTS;
	av[n++] = "-c";
	av[n++] = "1";
	av[n++] = "-g";
	for (int i = 1; i < argc; i++)
		av[n++] = argv[i];
	av[n] = NULL;
	rc = cmd_record(n, av);
	free(av);
	return rc;
}

enum { L_MAX_STACK = 256, L_STACK_SKIP, L_KALLSYMS };

static const struct cli_opt con_opts[] = {
	{'i', "input", CLI_ARG},
	{'E', "entries", CLI_ARG},
	{'k', "key", CLI_ARG},
	{'q', "quiet", CLI_NOARG},
	{'v', "verbose", CLI_NOARG},
	{'b', "use-bpf", CLI_NOARG},
	{'a', "all-cpus", CLI_NOARG},
	{L_MAX_STACK, "max-stack", CLI_ARG},
	{L_STACK_SKIP, "stack-skip", CLI_ARG},
	{L_KALLSYMS, "kallsyms", CLI_ARG},
	{0},
};

struct cargs {
	const char *in;
	unsigned long long entries;
	int key, quiet, verbose, bpf;
	pmk_lockstat_opts lo;
};

static int on_con(int key, const char *val, void *arg)
{
	struct cargs *a = arg;
	unsigned long long v;
	switch (key) {
	case 'i':
		a->in = val;
		break;
	case 'E':
		if (cli_opt_u64("-E", val, &a->entries))
			return EXIT_USAGE;
		break;
	case 'k':
		if ((a->key = pmk_lockstat_key(val)) < 0) {
			cli_error("-k takes contended, wait_total, wait_max, "
				  "wait_min or avg_wait, not '%s'",
				  val);
			return EXIT_USAGE;
		}
		break;
	case 'q':
		a->quiet = 1;
		break;
	case 'v':
		a->verbose = 1;
		break;
	case 'b':
		a->bpf = 1;
		break;
	case 'a': /* with -b only, which is refused */
		break;
	case L_MAX_STACK:
	case L_STACK_SKIP:
		if (cli_opt_u64(key == L_MAX_STACK ? "--max-stack"
						   : "--stack-skip",
				val, &v))
			return EXIT_USAGE;
		if (key == L_MAX_STACK && (v < 1 || v > 127)) {
			cli_error("--max-stack takes 1 to 127, not '%s'", val);
			return EXIT_USAGE;
		}
		if (v > 127)
			v = 127;
		*(key == L_MAX_STACK ? &a->lo.max_stack : &a->lo.stack_skip) =
		    (int)v;
		break;
	case L_KALLSYMS:
		a->lo.kallsyms = val;
		break;
	}
	return 0;
}

/* A time as perf lock prints it: two decimals and a unit, in `w` columns;
 * divided in single precision, as perf divides, so that the last digit is
 * rounded the same (17.085 us shows as 17.08). */
static void print_time(uint64_t ns, int w)
{
	static const struct {
		float base;
		const char *unit;
	} u[] = {{3600e9, "h "}, {60e9, "m "}, {1e9, "s "},
		 {1e6, "ms"},	 {1e3, "us"}};
	for (size_t i = 0; i < sizeof u / sizeof *u; i++)
		if ((float)ns >= u[i].base) {
			fprintf(stderr, "%*.2f %s", w - 3,
				(double)((float)ns / u[i].base), u[i].unit);
			return;
		}
	fprintf(stderr, "%*llu ns", w - 3, (unsigned long long)ns);
}

static int lock_contention(int argc, char **argv)
{
	struct cargs a = {NULL, 0, PMK_LOCK_KEY_WAIT_TOTAL, 0, 0, 0,
			  {NULL, 8, 3}};
	pmk_lockstat *ls;
	pmk_diag d;
	size_t shown = 0;
	int i = cli_opt_parse("lock contention", argc, argv, con_opts, on_con,
			      &a);
	if (i < 0)
		return -i;
	if (a.bpf) {
		cli_error("'%s -b': live contention through BPF is not in "
			  "pmkit; record with 'lock record', then read it "
			  "with 'lock contention'",
			  argv[0]);
		return 1;
	}
	if (i < argc) {
		cli_error("'%s' reads a recording (-i FILE), it runs no "
			  "command ('%s'): record it with 'lock record -- "
			  "COMMAND'",
			  argv[0], argv[i]);
		return EXIT_USAGE;
	}
	if (!a.in)
		a.in = cli_as_perf ? CLI_PERF_DATA : PMK_REC_DEFAULT_FILE;
	if (pmk_lockstat_load(&ls, a.in, &a.lo, &d)) {
		cli_diag(&d);
		return d.code == PMK_EFORMAT ? EXIT_USAGE : 1;
	}
	pmk_lockstat_sort(ls, a.key);
	if (!a.quiet)
		fprintf(stderr, "%10s %12s %12s %12s   %10s   %s\n\n",
			"contended", "total wait", "max wait", "avg wait",
			"type", "caller");
	for (size_t k = 0; k < pmk_lockstat_count(ls); k++) {
		const pmk_lock_entry *e = pmk_lockstat_entry(ls, k);
		if (!e->total_ns) /* no contention of it ended */
			continue;
		if (a.entries && shown == a.entries)
			break;
		shown++;
		fprintf(stderr, "%10llu ", (unsigned long long)e->contended);
		print_time(e->total_ns, 12);
		fputc(' ', stderr);
		print_time(e->max_ns, 12);
		fputc(' ', stderr);
		print_time(e->avg_ns, 12);
		fprintf(stderr, "   %10s   %s\n", e->type, e->caller);
		for (uint32_t c = 0; a.verbose && c < e->nchain; c++) {
			char sym[192];
			fprintf(stderr, "\t\t\t%#llx  %s\n",
				(unsigned long long)e->chain[c],
				pmk_lockstat_sym(ls, e->chain[c], sym,
						 sizeof sym));
		}
	}
	if (a.verbose) {
		pmk_lockstat_totals t;
		pmk_lockstat_totals_get(ls, &t);
		fprintf(stderr,
			"\n%llu contention begins, %llu ends; %llu begins "
			"inside an open one, %llu ends without a begin, "
			"%llu samples lost\n",
			(unsigned long long)t.begins,
			(unsigned long long)t.ends,
			(unsigned long long)t.nested,
			(unsigned long long)t.unpaired,
			(unsigned long long)t.lost);
	}
	pmk_lockstat_free(ls);
	return 0;
}

int cmd_lock(int argc, char **argv)
{
	static const struct cli_sub subs[] = {
	    {"record", lock_record},
	    {"contention", lock_contention},
	    {"con", lock_contention},
	    {NULL, NULL},
	};
	return cli_sub_run("lock", subs, argc, argv);
}
