/*
 * cmd_record.c: `pmkit record [-e EVENT[,EVENT...]] [-c N | -F HZ] [-g |
 * --call-graph fp|dwarf[,SIZE]]
 * [--data] [-o FILE] [--format pmkit|perf] [-p PID | -a] [-- COMMAND...]`:
 * sample a command (or a running process, or every CPU) into a record file.
 *
 * --format perf (the default when pmkit runs as perf) writes perf's
 * perf.data instead of pmkit's record file, or perf's pipe format with
 * -o -: the records go to an unnamed temporary file while the command
 * runs and are written out as perf.data when it ends (a pmkit killed
 * during the run leaves the previous file as it was).
 *
 * The events are checked by opening them on pmkit itself before anything is
 * created or run, so an event that cannot be sampled fails at once. The
 * command is forked, held until the sampling events are attached to it, and
 * started by exec; sampling begins at that exec (enable_on_exec) and
 * follows its children. pmkit exits with the command's status.
 */
/* pmkit-command: record | sample a command into a record file (profile) */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/personality.h"
#include "cli/opt.h"
#include "cli/rec_control.h"
#include "cli/rec_switch.h"
#include "cli/stop.h"
#include "lib/core/outfile.h"

#define MAX_TIDS 64 /* record -t */

struct ropts {
	pmk_attr ev[PMK_REC_MAX_EVENTS];
	int nev;
	unsigned long long period, freq, pages, stack_bytes;
	int callchain, dwarf, data, all, quiet;
	int no_backup, kill_on_error, user_only_said;
	int perf_format; /* --format perf: perf.data (or perf's pipe) */
	int zstd_level;	 /* -z: perf.data's data zstd-compressed */
	long pid;
	int tids[MAX_TIDS], ntids;
	const char *out;
	struct rec_ctl ctl;    /* --control */
	struct rec_switch sw; /* --switch-output */
};

/* fp (frame pointers, the kernel walks them) or dwarf[,SIZE] (copy SIZE
 * bytes of user stack per sample and unwind them at report time). */
static int call_graph_mode(const char *mode, struct ropts *o)
{
	char *end;
	unsigned long long n;
	if (!mode || !strcmp(mode, "fp")) {
		o->callchain = 1;
		return 0;
	}
	if (strncmp(mode, "dwarf", 5) || (mode[5] && mode[5] != ',')) {
		cli_error("--call-graph takes fp or dwarf[,SIZE], not '%s'",
			  mode);
		return -1;
	}
	o->dwarf = 1;
	if (!mode[5])
		return 0;
	n = strtoull(mode + 6, &end, 10);
	if (*end || end == mode + 6 || n < 8 || n > PMK_REC_MAX_USTACK ||
	    n % 8) {
		cli_error("--call-graph dwarf,SIZE: SIZE is the user stack "
			  "copied per sample, a multiple of 8 from 8 to %u "
			  "bytes, not '%s'",
			  PMK_REC_MAX_USTACK, mode + 6);
		return -1;
	}
	o->stack_bytes = n;
	return 0;
}

/* One -e list being added: the column of its first {group}, 0 for none. */
struct rec_list {
	struct ropts *o;
	int group_col;
};

/* One event of -e: parsed for the host, else by the sampler's own names.
 * The list's grammar is pmk_event_list_walk's, as stat's, so a bad list or
 * a bad event gets the same diagnostic and column as in stat. */
static int add_event(const pmk_event_item *it, void *arg, pmk_diag *d)
{
	struct rec_list *l = arg;
	struct ropts *o = l->o;
	pmk_diag d2;
	pmk_event ev;
	pmk_attr *a = &o->ev[o->nev];
	int rc;
	if (it->group_first && !l->group_col)
		l->group_col = it->column - 1; /* its '{' */
	if (o->nev >= PMK_REC_MAX_EVENTS) {
		cli_error("too many events (at most %d)", PMK_REC_MAX_EVENTS);
		return EXIT_USAGE;
	}
	if ((rc = pmk_event_parse(pmk_target_host(), it->str, &ev, d)) == 0) {
		if (ev.nleaf != 1 || ev.nops > 1) {
			cli_error(
			    "'%s' is derived from %d events and cannot be "
			    "sampled as one",
			    it->str, ev.nleaf);
			fprintf(stderr, "hint: sample one of the events it is "
					"made of, or time (-e cpu-clock)\n");
			return EXIT_USAGE;
		}
		*a = ev.leaf[0];
		snprintf(a->name, sizeof a->name, "%s", it->str);
	} else if (pmk_sample_event_lookup(it->str, a, &d2) < 0) {
		return rc; /* `d`: the event parser's diagnostic */
	}
	o->nev++;
	return 0;
}

/* Every event of one -e list. A well-formed {group} is refused at its
 * '{': record samples each event on its own. */
static int add_events(const char *list, struct ropts *o)
{
	struct rec_list l = {o, 0};
	pmk_diag d;
	if (pmk_event_list_walk(pmk_target_host(), list, add_event, &l, &d)) {
		if (d.code)
			cli_diag(&d);
		return EXIT_USAGE;
	}
	if (l.group_col) {
		pmk_diag_clear(&d);
		d.code = PMK_ENOTSUP;
		d.column = l.group_col;
		d.length = 1;
		snprintf(d.input, sizeof d.input, "%s", list);
		snprintf(d.message, sizeof d.message,
			 "record samples each event on its own: no groups");
		snprintf(d.hint, sizeof d.hint,
			 "count a group with pmkit stat -e '{...}'; record its "
			 "events without the braces");
		cli_diag(&d);
		return EXIT_USAGE;
	}
	return 0;
}

enum {
	OPT_NO_BACKUP = 256,
	OPT_ON_ERROR,
	OPT_CALL_GRAPH,
	OPT_FORMAT,
	OPT_CONTROL,
	OPT_SWITCH,
	OPT_SWITCH_MAX,
};
#define ZSTD_LEVEL_MAX 22

static const struct cli_opt record_opts[] = {
	{'e', "event", CLI_ARG},
	{'c', "count", CLI_ARG},
	{'F', "freq", CLI_ARG},
	{'m', "mmap-pages", CLI_ARG},
	{'o', "output", CLI_ARG},
	{OPT_FORMAT, "format", CLI_ARG},
	{'z', "compression-level", CLI_OPTARG},
	{OPT_NO_BACKUP, "no-backup", CLI_NOARG},
	{OPT_ON_ERROR, "on-error", CLI_ARG},
	{'p', "pid", CLI_ARG},
	{'t', "tid", CLI_ARG},
	{'g', NULL, CLI_NOARG},
	{OPT_CALL_GRAPH, "call-graph", CLI_OPTARG},
	{'d', "data", CLI_NOARG},
	{'a', "all-cpus", CLI_NOARG},
	{'q', "quiet", CLI_NOARG},
	{OPT_CONTROL, "control", CLI_ARG},
	{OPT_SWITCH, "switch-output", CLI_OPTARG},
	{OPT_SWITCH_MAX, "switch-max-files", CLI_ARG},
	{0},
};

static int g_argc;
static char **g_argv;

static int is_cg_mode(const char *v)
{
	return !strcmp(v, "fp") || !strncmp(v, "dwarf", 5);
}

/* -t TID[,TID...]: threads that exist now */
static int tid_list(const char *val, struct ropts *o)
{
	const char *p = val;
	for (;;) {
		char *end;
		unsigned long long t = strtoull(p, &end, 10);
		char path[64];
		struct stat st;
		if (end == p || (*end && *end != ',') || t == 0 ||
		    t > 4194304 || *p == '-' || *p == '+') {
			cli_error("option '%s' takes thread ids separated by "
				  "commas, not '%s'",
				  cli_opt_current(), val);
			return EXIT_USAGE;
		}
		if (o->ntids >= MAX_TIDS) {
			cli_error("too many threads (at most %d)",
				  MAX_TIDS);
			return EXIT_USAGE;
		}
		snprintf(path, sizeof path, "/proc/%llu", t);
		if (stat(path, &st) != 0) {
			cli_error("no thread %llu", t);
			return EXIT_USAGE;
		}
		o->tids[o->ntids++] = (int)t;
		if (!*end)
			return 0;
		p = end + 1;
	}
}

/* Whether any of the -t threads still runs (a thread's /proc entry goes
 * with it once it is reaped). */
static int threads_alive(const struct ropts *o)
{
	for (int t = 0; t < o->ntids; t++)
		if (pmk_task_alive(o->tids[t]))
			return 1;
	return 0;
}

/* -m PAGES (a power of two), or perf's -m SIZE with B, K, M or G: the
 * pages it takes, rounded up to a power of two. */
static int mmap_pages(const char *a, const char *val, struct ropts *o)
{
	size_t n = strlen(val);
	char last = n ? (char)(val[n - 1] | 0x20) : 0;
	unsigned long long v, page = (unsigned long long)sysconf(_SC_PAGESIZE);
	char num[32];
	int shift = last == 'b' ? 0 : last == 'k' ? 10 : last == 'm' ? 20
		  : last == 'g' ? 30 : -1;
	if (shift >= 0 && n > 1 && n < sizeof num) {
		memcpy(num, val, n - 1);
		num[n - 1] = 0;
		if (cli_parse_u64(num, &v) == 0 && v && v <= (1ull << 36) >> shift) {
			v <<= shift;
			for (o->pages = 1; o->pages * page < v; o->pages <<= 1)
				;
			if (o->pages <= 65536)
				return 0;
		}
	} else if (cli_parse_u64(val, &o->pages) == 0 && o->pages &&
		   !(o->pages & (o->pages - 1)) && o->pages <= 65536) {
		return 0;
	}
	cli_error("option '%s' needs pages (a power of two up to 65536) or a "
		  "size with B, K, M or G, not '%s'",
		  a, val);
	return EXIT_USAGE;
}

static int on_opt(int key, const char *val, void *arg)
{
	struct ropts *o = arg;
	const char *a = cli_opt_current();
	unsigned long long p;
	switch (key) {
	case 'e':
		return add_events(val, o);
	case 'c':
		if (cli_opt_u64(a, val, &o->period))
			return EXIT_USAGE;
		if (!o->period) {
			cli_error("option '%s' needs a period above 0", a);
			return EXIT_USAGE;
		}
		return 0;
	case 'F':
		if (cli_opt_u64(a, val, &o->freq))
			return EXIT_USAGE;
		if (!o->freq) {
			cli_error("option '%s' needs a frequency above 0", a);
			return EXIT_USAGE;
		}
		return 0;
	case 'm':
		return mmap_pages(a, val, o);
	case 'o':
		o->out = val;
		return 0;
	case OPT_NO_BACKUP:
		o->no_backup = 1;
		return 0;
	case 'z': /* perf's -z[=LEVEL]: zstd, level 1 by default */
		if (!val) {
			o->zstd_level = 1;
			return 0;
		}
		if (cli_opt_u64(a, val, &p) || p < 1 || p > ZSTD_LEVEL_MAX) {
			cli_error("option '%s' takes a zstd level from 1 to %d",
				  a, ZSTD_LEVEL_MAX);
			return EXIT_USAGE;
		}
		o->zstd_level = (int)p;
		return 0;
	case OPT_FORMAT:
		if (!strcmp(val, "perf"))
			o->perf_format = 1;
		else if (!strcmp(val, "pmkit"))
			o->perf_format = 0;
		else {
			cli_error("--format takes pmkit or perf, not '%s'", val);
			return EXIT_USAGE;
		}
		return 0;
	case OPT_ON_ERROR:
		if (!strcmp(val, "kill"))
			o->kill_on_error = 1;
		else if (!strcmp(val, "wait"))
			o->kill_on_error = 0;
		else {
			cli_error("--on-error takes wait or kill, not '%s'",
				  val);
			return EXIT_USAGE;
		}
		return 0;
	case 'p':
		if (cli_opt_u64(a, val, &p))
			return EXIT_USAGE;
		if (p == 0 || p > 4194304) {
			cli_error("option '%s' needs a process id, not '%s'",
				  a, val);
			return EXIT_USAGE;
		}
		o->pid = (long)p;
		return 0;
	case 't':
		return tid_list(val, o);
	case 'g':
		o->callchain = 1;
		return 0;
	case OPT_CALL_GRAPH:
		/* --call-graph alone is -g; a mode may follow as a word */
		if (!val)
			val = cli_opt_take(g_argc, g_argv, is_cg_mode);
		return call_graph_mode(val, o) ? EXIT_USAGE : 0;
	case 'd':
		o->data = 1;
		return 0;
	case 'a':
		o->all = 1;
		return 0;
	case 'q':
		o->quiet = 1;
		return 0;
	case OPT_CONTROL:
		return rec_ctl_open(&o->ctl, a, val);
	case OPT_SWITCH:
		return rec_switch_parse(&o->sw, a, val);
	case OPT_SWITCH_MAX:
		return rec_switch_max_files(&o->sw, a, val);
	}
	return EXIT_USAGE;
}

/* Open each event on ourselves, disabled, to learn at once whether it can be
 * sampled here: pmk_sampler_probe, which samples user space only where
 * kernel space is refused (said once), and explains a refusal. */
static int probe_events(struct ropts *o)
{
	pmk_sample_opts so;
	memset(&so, 0, sizeof so);
	so.all_cpus = (unsigned)o->all;
	for (int i = 0; i < o->nev; i++) {
		pmk_diag d;
		int rc = pmk_sampler_probe(&o->ev[i], &so, &d);
		if (rc > 0 && !o->user_only_said) {
			cli_warn("%s", d.message);
			o->user_only_said = 1;
		} else if (rc < 0) {
			cli_error("%s", d.message[0] ? d.message
						     : "cannot sample this event");
			if (d.hint[0])
				fprintf(stderr, "hint: %s\n", d.hint);
			return rc == PMK_EPERM ? 1 : EXIT_USAGE;
		}
	}
	return 0;
}

/* Fork the command, stopped until `go` is written. */
static pid_t start_child(char **argv, int *go_fd, int *err_fd)
{
	int go[2], er[2];
	pid_t pid;
	if (pipe2(go, O_CLOEXEC) || pipe2(er, O_CLOEXEC))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		char c;
		int e;
		ssize_t k;
		close(go[1]);
		close(er[0]);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		signal(SIGPIPE, SIG_DFL);
		while ((k = read(go[0], &c, 1)) < 0 && errno == EINTR)
			;
		if (k != 1)
			_exit(127);
		execvp(argv[0], argv);
		e = errno;
		if (write(er[1], &e, sizeof e) < 0)
			_exit(127);
		_exit(e == ENOENT ? 127 : 126);
	}
	close(go[0]);
	close(er[1]);
	*go_fd = go[1];
	*err_fd = er[0];
	return pid;
}

/* SIGUSR2: a --switch-output cut (counted, so that none is lost while one
 * is written); without --switch-output it is ignored, as perf does, rather
 * than ending the recording. */
static volatile sig_atomic_t usr2_seen;
static void on_usr2(int sig)
{
	(void)sig;
	usr2_seen++;
}

/* One --switch-output file: the records since the last cut, then the maps
 * of what is recorded again, so that the next file has them too. */
static int switch_cut(struct ropts *o, pmk_rec_writer *w, pmk_sampler *s,
		      pid_t pid, int last, char *name, size_t size)
{
	pmk_perfdata_opts po;
	pmk_diag d;
	memset(&po, 0, sizeof po);
	po.flags = PMK_PERFDATA_NO_BACKUP;
	po.argc = g_argc;
	po.argv = g_argv;
	po.zstd_level = o->zstd_level;
	if (!last && pmk_rec_writer_flush(w) < 0)
		return -1;
	if (rec_switch_cut(&o->sw, o->out, o->perf_format, &po, name, size,
			   &d) < 0) {
		cli_diag(&d);
		return -1;
	}
	if (!o->quiet && cli_as_perf)
		fprintf(stderr, "[ perf record: dump data: Woken up 0 times ]\n"
				"[ perf record: Dump %s ]\n", name);
	else if (!o->quiet)
		fprintf(stderr, "pmkit record: %s written\n", name);
	if (!last) {
		if (o->all)
			pmk_sampler_synthesize(s, 0);
		else if (pid > 0 || o->pid)
			pmk_sampler_synthesize(s, pid > 0 ? (int)pid
							  : (int)o->pid);
	}
	return 0;
}

/* Carry out the commands waiting on --control. */
static void control(struct ropts *o, pmk_rec_writer *w, pmk_sampler *s,
		    pid_t pid)
{
	char arg[256];
	enum rec_ctl_cmd c;
	while ((c = rec_ctl_next(&o->ctl, arg, sizeof arg)) != REC_CTL_NONE) {
		switch (c) {
		case REC_CTL_ENABLE:
		case REC_CTL_DISABLE:
			if (!rec_ctl_all_events(c, arg))
				continue;
			if (c == REC_CTL_ENABLE)
				pmk_sampler_enable(s);
			else
				pmk_sampler_disable(s);
			break;
		case REC_CTL_STOP: /* as SIGTERM */
			if (!cli_stop_sig)
				cli_stop_sig = SIGTERM;
			if (pid > 0)
				kill(pid, SIGTERM);
			break;
		case REC_CTL_SNAPSHOT:
			if (o->sw.on) {
				char name[4096];
				if (switch_cut(o, w, s, pid, 0, name,
					       sizeof name) < 0)
					continue; /* said; not carried out */
			} else
				cli_warn("--control: snapshot cuts a "
					 "--switch-output file; there is none");
			break;
		case REC_CTL_EVLIST:
			for (int i = 0; i < o->nev; i++)
				printf("%s\n", o->ev[i].name);
			fflush(stdout);
			break;
		case REC_CTL_UNKNOWN:
			cli_warn("--control: unknown command '%s'", arg);
			continue;
		default:
			break;
		}
		rec_ctl_ack(&o->ctl);
	}
}

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The recording of cmd_record, its options parsed. */
static int record_run(struct ropts *o, char **cmd)
{
	pmk_rec_writer *w = NULL;
	pmk_sampler *s = NULL;
	pmk_sample_opts so;
	pmk_diag d;
	pid_t pid = -1;
	int go_fd = -1, err_fd = -1, status = 0, rc, exit_code = 0;
	int write_failed = 0;
	uint64_t t0, stop_t = 0;
	int killed = 0;
	sig_atomic_t usr2_done = 0;
	int cut_failed = 0;
	char last_name[4096]; /* --switch-output: the last file written */
	pmk_rec_finish fin;
	FILE *tmp = NULL; /* --format perf, --switch-output: the records */

	if (!o->out)
		o->out = o->perf_format ? CLI_PERF_DATA : PMK_REC_DEFAULT_FILE;
	if (o->zstd_level && !o->perf_format) {
		cli_error("-z compresses perf.data: add --format perf");
		return EXIT_USAGE;
	}
	if (o->dwarf && o->callchain) {
		cli_error("-g (frame pointers) and --call-graph dwarf exclude "
			  "each other");
		return EXIT_USAGE;
	}
	if (o->dwarf && !pmk_sampler_can_unwind()) {
		cli_error("--call-graph dwarf is not supported on this "
			  "architecture (x86-64 and arm64 only); use -g");
		return EXIT_USAGE;
	}
	if (o->period && o->freq) {
		cli_error("-c and -F exclude each other");
		return EXIT_USAGE;
	}
	if ((o->pid != 0) + (o->ntids != 0) + o->all > 1) {
		cli_error("-p, -t and -a exclude each other");
		return EXIT_USAGE;
	}
	if ((o->pid || o->ntids) && cmd) {
		cli_error("give either -p PID, -t TID or a command, not both");
		return EXIT_USAGE;
	}
	if (!cmd && !o->pid && !o->ntids && !o->all) {
		cli_error("nothing to record");
		fprintf(stderr, "hint: pmkit record -- COMMAND [ARGS], or -p "
				"PID, or -t TID, or -a\n");
		return EXIT_USAGE;
	}
	if (o->nev == 0 && add_events("cpu-clock", o))
		return 1;
	for (int e = 0; e < o->nev; e++) {
		if (o->period)
			o->ev[e].sample = o->period;
		else if (o->freq) {
			o->ev[e].sample = o->freq;
			o->ev[e].freq = 1;
		}
	}
	rc = probe_events(o);
	if (rc)
		return rc;

	/* the new file, and whether FILE can become FILE.old, before the
	 * command is started: a refusal costs no run */
	if (o->sw.on && !strcmp(o->out, "-")) {
		cli_error("--switch-output writes files: not with -o -");
		return EXIT_USAGE;
	}
	if (o->perf_format || o->sw.on) {
		int fd;
		if (pmk__outfile_check(o->out,
				       PMK__OUT_PRIVATE | PMK__OUT_DASH |
					   (o->no_backup ? PMK__OUT_NO_BACKUP
							: 0),
				       &d) < 0) {
			cli_diag(&d);
			return 1;
		}
		tmp = tmpfile();
		fd = tmp ? fileno(tmp) : -1;
		if (fd < 0) {
			cli_error("cannot create a temporary file: %s",
				  strerror(errno));
			return 1;
		}
		if (pmk_rec_writer_fdopen(&w, fd, "pmkit record", &d) < 0) {
			cli_diag(&d);
			fclose(tmp);
			return 1;
		}
	} else if (pmk_rec_writer_open_ex(&w, o->out, "pmkit record",
					  o->no_backup ? PMK_REC_NO_BACKUP : 0,
					  &d) < 0) {
		cli_diag(&d);
		return 1;
	}
	cli_stop_catch(); /* docs/files.md */
	signal(SIGPIPE, SIG_IGN);
	{
		struct sigaction sa;
		memset(&sa, 0, sizeof sa);
		sa.sa_handler = on_usr2;
		sa.sa_flags = SA_RESTART; /* a cut's reads and writes go on */
		sigemptyset(&sa.sa_mask);
		sigaction(SIGUSR2, &sa, NULL);
	}
	if (cmd) {
		pid = start_child(cmd, &go_fd, &err_fd);
		if (pid < 0) {
			cli_error("cannot start '%s': %s", cmd[0],
				  strerror(errno));
			exit_code = 1;
			goto out_kill;
		}
		cli_stop_child = pid;
	}
	memset(&so, 0, sizeof so);
	so.all_cpus = o->all;
	so.pid = o->all ? -1 : cmd ? (int)pid : (int)o->pid;
	so.callchain = (unsigned)o->callchain;
	so.callchain_dwarf = (unsigned)o->dwarf;
	so.stack_bytes = (unsigned)o->stack_bytes;
	so.data_addr = (unsigned)o->data;
	so.inherit = !o->all;
	so.threads = o->pid != 0; /* -p: every thread the process has now */
	if (o->ntids) { /* -t: those threads only (and what they start) */
		so.pid = o->tids[0];
		so.tids = o->tids;
		so.ntids = o->ntids;
	}
	so.enable_on_exec = cmd && !o->all;
	so.ring_pages = (unsigned)o->pages;
	/* a stack copy per sample fills the default rings in milliseconds */
	if (o->dwarf && !o->pages)
		so.ring_pages = 1024;
	if (pmk_sampler_open(&s, o->ev, o->nev, &so, w, &d) < 0) {
		cli_error("%s", d.message[0] ? d.message : "cannot sample");
		if (d.hint[0])
			fprintf(stderr, "hint: %s\n", d.hint);
		exit_code = 1;
		goto out_kill;
	}
	if (o->pid)
		pmk_sampler_synthesize(s, (int)o->pid);
	for (int t = 0; t < o->ntids; t++) {
		/* the maps of each thread's process, once */
		int tg = pmk_task_tgid(o->tids[t]), seen = 0;
		for (int u = 0; u < t; u++)
			seen |= pmk_task_tgid(o->tids[u]) == tg;
		if (!seen)
			pmk_sampler_synthesize(s, tg);
	}
	if (o->all)
		pmk_sampler_synthesize(s, 0);
	if (o->sw.on) { /* every file starts with what is written so far */
		struct stat st;
		pmk_rec_writer_flush(w);
		rec_switch_start(&o->sw, fileno(tmp),
				 fstat(fileno(tmp), &st) ? 0
							 : (uint64_t)st.st_size);
	}
	if (!so.enable_on_exec)
		pmk_sampler_enable(s);
	t0 = now_ns();
	if (cmd && cli_stop_sig) { /* signalled before the command ran */
		exit_code = 128 + cli_stop_sig;
		goto out_kill;
	}
	if (cmd) {
		int e = 0;
		ssize_t k;
		while ((k = write(go_fd, "g", 1)) < 0 && errno == EINTR)
			;
		if (k != 1)
			e = errno ? errno : EIO;
		close(go_fd);
		go_fd = -1;
		if (e == 0)
			while ((k = read(err_fd, &e, sizeof e)) < 0 &&
			       errno == EINTR)
				;
		if (e == 0 && k < 0)
			e = errno;
		if (e && k != (ssize_t)sizeof e) {
			/* pmkit could not release or watch the command */
			cli_error("cannot start '%s': %s", cmd[0], strerror(e));
			close(err_fd);
			exit_code = 1;
			goto out_kill;
		}
		if (e) {
			cli_error("cannot run '%s': %s", cmd[0], strerror(e));
			waitpid(pid, &status, 0);
			cli_stop_child = 0;
			pmk_sampler_close(s);
			pmk_rec_writer_abort(w);
			if (tmp)
				fclose(tmp);
			return e == ENOENT ? 127 : 126;
		}
		close(err_fd);
		err_fd = -1;
	}
	/* the run has started: the file takes its place now (the previous
	 * one kept as .old), so that even a pmkit killed later leaves it */
	if (!tmp && pmk_rec_writer_publish(w, &d) < 0) {
		cli_diag(&d);
		exit_code = 1;
		goto out_kill;
	}
	for (;;) {
		if (!write_failed && o->ctl.ctl_fd >= 0)
			control(o, w, s, pid);
		if (!write_failed && o->sw.on &&
		    (usr2_done != usr2_seen || rec_switch_due(&o->sw))) {
			if (usr2_done != usr2_seen) /* a file a signal */
				usr2_done++;
			if (switch_cut(o, w, s, pid, 0, last_name,
				       sizeof last_name) < 0)
				cut_failed = 1; /* said; recording goes on */
		}
		if (!write_failed &&
		    pmk_sampler_poll(s, o->ctl.ctl_fd >= 0 || o->sw.on ? 50
									: 100) <
			0) {
			/* said once; sampling stops, the file keeps the whole
			 * records written before the error */
			int e = pmk_rec_writer_errno(w);
			write_failed = 1;
			pmk_sampler_disable(s);
			cli_error("cannot write '%s': %s; recording stopped",
				  o->out, strerror(e ? e : EIO));
			if (!cmd)
				break;
			if (o->kill_on_error) {
				kill(pid, SIGTERM);
			} else if (!o->quiet) {
				fprintf(stderr,
					"pmkit record: waiting for '%s' (pid "
					"%d) to finish; --on-error=kill stops "
					"it\n",
					cmd[0], (int)pid);
			}
		}
		if (cmd && cli_stop_sig) {
			/* the command had the signal; SIGKILL if it goes on */
			if (!stop_t)
				stop_t = now_ns();
			else if (!killed && now_ns() - stop_t > 2000000000u) {
				kill(pid, SIGKILL);
				killed = 1;
			}
			if (write_failed)
				poll(NULL, 0, 100);
		}
		if (cmd) {
			pid_t r = waitpid(pid, &status,
					  write_failed && !cli_stop_sig ? 0 : WNOHANG);
			if (r < 0 && errno == EINTR)
				continue;
			if (r == pid) {
				cli_stop_child = 0;
				exit_code = WIFEXITED(status)
						? WEXITSTATUS(status)
						: 128 + WTERMSIG(status);
				break;
			}
		} else if (cli_stop_sig) {
			break;
		} else if (o->pid && kill((pid_t)o->pid, 0) != 0 &&
			   errno == ESRCH) {
			break;
		} else if (o->ntids && !threads_alive(o)) {
			break;
		}
	}
	pmk_sampler_disable(s);
	pmk_sampler_poll(s, 0);
	/* signals that came as the command ended still get their files */
	while (o->sw.on && !write_failed && !cut_failed &&
	       usr2_done != usr2_seen) {
		usr2_done++;
		if (switch_cut(o, w, s, -1, 0, last_name, sizeof last_name) < 0)
			cut_failed = 1;
	}
	memset(&fin, 0, sizeof fin);
	fin.status = exit_code;
	fin.samples = pmk_sampler_samples(s);
	fin.lost = pmk_sampler_lost(s);
	fin.duration_ns = now_ns() - t0;
	pmk_rec_write_finish(w, &fin);
	pmk_sampler_close(s);
	/* stopped by a signal: the recording is kept, the status says so */
	if (cli_stop_sig)
		exit_code = 128 + cli_stop_sig;
	if (pmk_rec_writer_close(w) < 0 || write_failed) {
		if (!write_failed)
			cli_error("cannot write '%s': %s", o->out,
				  strerror(errno ? errno : EIO));
		/* pmkit's own failure, whatever the workload's status */
		if (tmp)
			fclose(tmp);
		return 1;
	}
	if (o->sw.on) { /* the last --switch-output file */
		rc = switch_cut(o, NULL, NULL, pid, 1, last_name,
				sizeof last_name);
		fclose(tmp);
		if (rc < 0 || cut_failed)
			return 1;
	} else if (tmp) { /* the recording, written out as perf.data */
		pmk_perfdata_opts po;
		memset(&po, 0, sizeof po);
		po.flags = o->no_backup ? PMK_PERFDATA_NO_BACKUP : 0;
		po.argc = g_argc;
		po.argv = g_argv;
		po.zstd_level = o->zstd_level;
		rc = pmk_perfdata_write_fd(fileno(tmp), o->out, &po, &d);
		fclose(tmp);
		if (rc < 0) {
			cli_diag(&d);
			return 1;
		}
	}
	if (!o->quiet) {
		struct stat st;
		double mb = 0;
		const char *out = o->sw.on ? last_name : o->out;
		if (strcmp(out, "-") && stat(out, &st) == 0)
			mb = (double)st.st_size / 1e6;
		if (cli_as_perf) /* perf's two lines; wakeups not counted */
			fprintf(stderr,
				"[ perf record: Woken up 0 times to write data ]\n"
				"[ perf record: Captured and wrote %.3f MB %s "
				"(%llu samples) ]\n",
				mb, out, (unsigned long long)fin.samples);
		else
			fprintf(stderr,
				"pmkit record: %llu samples, %llu lost, %.2f MB "
				"written to %s\n",
				(unsigned long long)fin.samples,
				(unsigned long long)fin.lost, mb, out);
	}
	if (fin.lost)
		cli_warn("%llu records were lost (ring buffer full)",
			 (unsigned long long)fin.lost);
	return exit_code;

out_kill:
	if (pid > 0) {
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
		cli_stop_child = 0;
	}
	if (s)
		pmk_sampler_close(s);
	pmk_rec_writer_abort(w);
	if (tmp)
		fclose(tmp);
	return exit_code ? exit_code : 1;
}

int cmd_record(int argc, char **argv)
{
	struct ropts o;
	int i, rc;

	memset(&o, 0, sizeof o);
	o.out = NULL;
	o.ctl.ctl_fd = o.ctl.ack_fd = -1;
	o.sw.fd = -1;
	o.perf_format = cli_as_perf;
	g_argc = argc;
	g_argv = argv;
	i = cli_opt_parse("record", argc, argv, record_opts, on_opt, &o);
	if (i < 0) {
		rec_ctl_close(&o.ctl);
		return -i;
	}
	rc = record_run(&o, i < argc ? argv + i : NULL);
	rec_ctl_close(&o.ctl);
	rec_switch_release(&o.sw);
	return rc;
}
