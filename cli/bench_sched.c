/*
 * bench_sched.c: `pmkit bench sched messaging|pipe`, perf bench sched's
 * two benchmarks with perf's options and output (bench/sched_msg.c runs
 * them): messaging [-g GROUPS] [-l LOOPS] [-p] [-t], pipe [-l LOOPS] [-T].
 */
#include <stdlib.h>

#include "bench/sched_msg.h"
#include "cli/cli.h"
#include "cli/opt.h"
#include "cli/subcmd.h"

int cmd_bench_sched(int argc, char **argv); /* from cmd_bench.c */

static const struct cli_opt msg_opts[] = {
	{'g', "group", CLI_ARG},
	{'l', "nr_loops", CLI_ARG},
	{'p', "pipe", CLI_NOARG},
	{'t', "thread", CLI_NOARG},
	{0},
};

/* A count option in [1, max]; -1 after the error. */
static int count_opt(const char *opt, const char *val, unsigned long long max,
		     int *out)
{
	unsigned long long v;
	if (cli_opt_u64(opt, val, &v))
		return -1;
	if (v < 1 || v > max) {
		cli_error("%s takes 1 to %llu, not '%s'", opt, max, val);
		return -1;
	}
	*out = (int)v;
	return 0;
}

static int on_msg(int key, const char *val, void *arg)
{
	pmk__sched_msg_cfg *c = arg;
	if (key == 'g')
		return count_opt("-g", val, 10000, &c->groups) ? EXIT_USAGE : 0;
	if (key == 'l')
		return count_opt("-l", val, 1000000000, &c->loops) ? EXIT_USAGE
								   : 0;
	if (key == 'p')
		c->pipes = 1;
	else if (key == 't')
		c->threads = 1;
	return 0;
}

static void print_total(uint64_t ns)
{
	printf("\n     Total time: %llu.%03llu [sec]\n",
	       (unsigned long long)(ns / 1000000000u),
	       (unsigned long long)(ns / 1000000u % 1000u));
}

static int sched_messaging(int argc, char **argv)
{
	pmk__sched_msg_cfg c = {10, 20, 100, 100, 0, 0};
	const char *what;
	uint64_t ns;
	pmk_diag d;
	int rc = cli_opt_parse_only("bench sched messaging", argc, argv,
				    msg_opts, on_msg, &c);
	if (rc)
		return rc;
	what = c.threads ? "threads" : "processes";
	printf("# Running 'sched/messaging' benchmark:\n");
	printf("# %d sender and receiver %s per group\n", c.fds, what);
	printf("# %d groups == %d %s run\n", c.groups, 2 * c.fds * c.groups,
	       what);
	fflush(stdout); /* before the processes are forked */
	if (pmk__sched_messaging(&c, &ns, &d)) {
		cli_diag(&d);
		return 1;
	}
	print_total(ns);
	return 0;
}

static const struct cli_opt pipe_opts[] = {
	{'l', "loop", CLI_ARG},
	{'T', "threaded", CLI_NOARG},
	{0},
};

struct pargs {
	int loops, threaded;
};

static int on_pipe(int key, const char *val, void *arg)
{
	struct pargs *a = arg;
	if (key == 'l')
		return count_opt("-l", val, 2000000000, &a->loops) ? EXIT_USAGE
								   : 0;
	a->threaded = 1;
	return 0;
}

static int sched_pipe(int argc, char **argv)
{
	struct pargs a = {1000000, 0};
	uint64_t ns;
	pmk_diag d;
	double us;
	int rc = cli_opt_parse_only("bench sched pipe", argc, argv, pipe_opts,
				    on_pipe, &a);
	if (rc)
		return rc;
	printf("# Running 'sched/pipe' benchmark:\n");
	printf("# Executed %d pipe operations between two %s\n", a.loops,
	       a.threaded ? "threads" : "processes");
	fflush(stdout);
	if (pmk__sched_pipe(a.loops, a.threaded, &ns, &d)) {
		cli_diag(&d);
		return 1;
	}
	print_total(ns);
	us = (double)ns / 1e3 / a.loops;
	printf("\n %14lf usecs/op\n", us);
	printf(" %14d ops/sec\n", (int)(1e6 / us));
	return 0;
}

int cmd_bench_sched(int argc, char **argv)
{
	static const struct cli_sub subs[] = {
	    {"messaging", sched_messaging},
	    {"pipe", sched_pipe},
	    {NULL, NULL},
	};
	return cli_sub_run("bench sched", subs, argc, argv);
}
