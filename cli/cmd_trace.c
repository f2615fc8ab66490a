/*
 * cmd_trace.c: `pmkit trace`: make and inspect instruction traces.
 *
 *   pmkit trace -o FILE [-n N] [--skip N] -- COMMAND...  a real program,
 *                                    through valgrind lackey (+ capstone)
 *   pmkit trace gen -o FILE WORKLOAD           a generated workload
 *   pmkit trace import -o FILE CHAMPSIM_TRACE  ChampSim input_instr
 *   pmkit trace dump [--champsim] FILE         records as text
 */
/* pmkit-command: trace | make and inspect instruction traces */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/opt.h"

static int copy(pmk_sim_next_fn next, void *src, const char *out,
		unsigned long long max, uint64_t *n)
{
	pmk_trace_writer *w;
	pmk_sim_insn in;
	pmk_diag d;
	int rc;
	*n = 0;
	if (pmk_trace_create(&w, out, &d) < 0) {
		cli_diag(&d);
		return 1;
	}
	while ((!max || *n < max) && (rc = next(src, &in)) == 1) {
		if (pmk_trace_write(w, &in) < 0) {
			cli_error("record %llu cannot be written (bad field)",
				  (unsigned long long)*n);
			pmk_trace_finish(w);
			return 1;
		}
		(*n)++;
	}
	if (pmk_trace_finish(w) < 0) {
		cli_error("cannot write '%s'", out);
		return 1;
	}
	return rc < 0 ? -1 : 0;
}

static int find_in_path(const char *prog)
{
	const char *path = getenv("PATH");
	char buf[4096];
	while (path && *path) {
		size_t n = strcspn(path, ":");
		snprintf(buf, sizeof buf, "%.*s/%s", (int)n, path, prog);
		if (access(buf, X_OK) == 0)
			return 1;
		path += n + (path[n] == ':');
	}
	return 0;
}

static int trace_program(const char *out, unsigned long long max,
			 unsigned long long skip, char **cmd)
{
	int pfd[2], status = 0, rc = 0, cut = 0;
	char fdarg[32], *line = NULL;
	size_t cap = 0;
	pid_t pid;
	FILE *f;
	pmk_trace_writer *w;
	pmk_lackey *l;
	pmk_diag d;
	if (!find_in_path("valgrind")) {
		cli_error("valgrind is needed to trace a program "
			  "(apt-get install valgrind)");
		return 1;
	}
	if (!pmk_lackey_available())
		cli_warn("built without capstone: op classes and registers "
			 "are guessed from memory accesses only");
	if (pmk_trace_create(&w, out, &d) < 0) {
		cli_diag(&d);
		return 1;
	}
	if (pipe(pfd) < 0 || pmk_lackey_new(&l, w) < 0) {
		cli_error("cannot start: %s", strerror(errno));
		pmk_trace_finish(w);
		return 1;
	}
	pmk_lackey_skip(l, skip);
	snprintf(fdarg, sizeof fdarg, "--log-fd=%d", pfd[1]);
	pid = fork();
	if (pid == 0) {
		char *argv[64];
		int n = 0;
		close(pfd[0]);
		argv[n++] = "valgrind";
		argv[n++] = "--tool=lackey";
		argv[n++] = "--trace-mem=yes";
		argv[n++] = "-v";
		argv[n++] = "-v";
		argv[n++] = "-v";
		argv[n++] = fdarg;
		argv[n++] = "--";
		for (int i = 0; cmd[i] && n < 63; i++)
			argv[n++] = cmd[i];
		argv[n] = NULL;
		execvp("valgrind", argv);
		_exit(127);
	}
	close(pfd[1]);
	if (pid < 0 || !(f = fdopen(pfd[0], "r"))) {
		cli_error("cannot run valgrind: %s", strerror(errno));
		pmk_lackey_free(l);
		pmk_trace_finish(w);
		return 1;
	}
	while (getline(&line, &cap, f) > 0) {
		if (pmk_lackey_line(l, line) < 0) {
			rc = 1;
			break;
		}
		if (max && pmk_lackey_stats_get(l)->instructions >= max) {
			kill(pid, SIGKILL);
			cut = 1; /* the pending instruction is dropped */
			break;
		}
	}
	free(line);
	fclose(f);
	waitpid(pid, &status, 0);
	if (!rc && !cut && pmk_lackey_finish(l) < 0)
		rc = 1;
	{
		const pmk_lackey_stats *st = pmk_lackey_stats_get(l);
		fprintf(stderr,
			"trace: %llu instructions (%llu skipped; %llu decoded, "
			"%llu branches, %llu objects) written to %s\n",
			(unsigned long long)st->instructions,
			(unsigned long long)st->skipped,
			(unsigned long long)st->decoded,
			(unsigned long long)st->branches,
			(unsigned long long)st->objects, out);
		if (!st->instructions)
			rc = 1;
	}
	pmk_lackey_free(l);
	if (pmk_trace_finish(w) < 0) {
		cli_error("cannot write '%s'", out);
		rc = 1;
	}
	if (rc)
		return 1;
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status) && !cut)
		return 128 + WTERMSIG(status);
	return 0;
}

static int dump(const char *path, int kind, unsigned long long max)
{
	pmk_trace_reader *r;
	pmk_sim_insn in;
	pmk_diag d;
	unsigned long long n = 0;
	int rc;
	if (pmk_trace_open(&r, path, kind, &d) < 0) {
		cli_diag(&d);
		return EXIT_USAGE;
	}
	while ((!max || n < max) && (rc = pmk_trace_read(r, &in)) == 1) {
		printf("%#llx %-5s len=%u%s", (unsigned long long)in.pc,
		       pmk_sim_op_name(in.op), in.len, in.kernel ? " k" : "");
		for (int i = 0; i < in.nsrc; i++)
			printf(" r%u", in.src[i]);
		if (in.ndst)
			printf(" ->");
		for (int i = 0; i < in.ndst; i++)
			printf(" r%u", in.dst[i]);
		for (int i = 0; i < in.nmem; i++)
			printf(" %c%#llx/%u", in.mem[i].store ? 'S' : 'L',
			       (unsigned long long)in.mem[i].addr,
			       in.mem[i].size);
		if (pmk_sim_op_is_branch(in.op))
			printf(" %s %#llx", in.taken ? "taken" : "not-taken",
			       (unsigned long long)in.target);
		putchar('\n');
		n++;
	}
	if (rc < 0 && (!max || n < max)) {
		cli_diag(pmk_trace_diag(r));
		pmk_trace_close(r);
		return 1;
	}
	pmk_trace_close(r);
	return 0;
}

enum { T_SKIP = 256, T_CHAMPSIM };
static const struct cli_opt trace_opts[] = {
	{'o', "output", CLI_ARG},
	{'n', "max", CLI_ARG},
	{T_SKIP, "skip", CLI_ARG},
	{T_CHAMPSIM, "champsim", CLI_NOARG},
	{'h', "help", CLI_NOARG},
	{0, NULL, 0},
};

struct trace_opts {
	const char *out;
	unsigned long long max, skip;
	int champsim, help;
};

static int on_trace_opt(int key, const char *val, void *arg)
{
	struct trace_opts *o = arg;
	switch (key) {
	case 'o':
		o->out = val;
		break;
	case 'n':
		return cli_opt_u64(cli_opt_current(), val, &o->max) ? EXIT_USAGE
								   : 0;
	case T_SKIP:
		return cli_opt_u64(cli_opt_current(), val, &o->skip) ? EXIT_USAGE
								    : 0;
	case T_CHAMPSIM:
		o->champsim = 1;
		break;
	case 'h':
		o->help = 1;
		break;
	}
	return 0;
}

int cmd_trace(int argc, char **argv)
{
	const char *out, *sub = NULL;
	unsigned long long max, skip;
	int champsim, i;
	uint64_t n;
	struct trace_opts to;
	memset(&to, 0, sizeof to);
	/* options, then a subcommand (whose own options may follow it) or
	 * the program to trace with its options untouched */
	i = cli_opt_parse("trace", argc, argv, trace_opts, on_trace_opt, &to);
	if (i < 0)
		return -i;
	if (i < argc && strcmp(argv[i - 1], "--") &&
	    (!strcmp(argv[i], "gen") || !strcmp(argv[i], "import") ||
	     !strcmp(argv[i], "dump"))) {
		int j;
		sub = argv[i];
		j = cli_opt_parse_mixed("trace", argc - i, argv + i, trace_opts,
					on_trace_opt, &to);
		if (j < 0)
			return -j;
		i += j;
	}
	if (to.help) {
		cli_man_render("pmkit-trace", stdout);
		return 0;
	}
	out = to.out;
	max = to.max;
	skip = to.skip;
	champsim = to.champsim;
	if (!sub) {
		if (i >= argc || !out) {
			cli_error("give -o FILE and a command after --");
			return cli_usage("trace");
		}
		return trace_program(out, max, skip, argv + i);
	}
	if (i + 1 != argc) {
		cli_error("'trace %s' takes one argument", sub);
		return cli_usage("trace");
	}
	if (!strcmp(sub, "dump"))
		return dump(argv[i],
			    champsim ? PMK_TRACE_CHAMPSIM : PMK_TRACE_AUTO,
			    max);
	if (!out) {
		cli_error("'trace %s' needs -o FILE", sub);
		return cli_usage("trace");
	}
	if (!strcmp(sub, "gen")) {
		pmk_workload *w;
		pmk_diag d;
		int rc;
		if (pmk_workload_new(&w, argv[i], &d) < 0) {
			cli_diag(&d);
			return EXIT_USAGE;
		}
		rc = copy(pmk_workload_next, w, out, max, &n);
		pmk_workload_free(w);
		if (rc)
			return 1;
	} else {
		pmk_trace_reader *r;
		pmk_diag d;
		int rc;
		if (pmk_trace_open(&r, argv[i], PMK_TRACE_CHAMPSIM, &d) < 0) {
			cli_diag(&d);
			return EXIT_USAGE;
		}
		rc = copy(pmk_trace_next, r, out, max, &n);
		if (rc < 0)
			cli_diag(pmk_trace_diag(r));
		pmk_trace_close(r);
		if (rc)
			return 1;
	}
	fprintf(stderr, "trace: %llu records written to %s\n",
		(unsigned long long)n, out);
	return 0;
}
