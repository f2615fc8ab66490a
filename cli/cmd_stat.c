/*
 * cmd_stat.c: `pmkit stat`: count events while a command runs (or a
 * built-in workload, or a pid/tid, or every CPU) and print the counts.
 *
 *  Performance counter stats for 'sleep 0.1':
 *
 *                0.52 msec task-clock   #  0.005 CPUs utilized
 *                  72       page-faults  #  138.4 K/sec
 *
 * The event strings are all parsed before anything runs: a bad one is
 * shown with a marker under its column and pmkit exits 2. Events that
 * cannot be counted here become `<not supported>` rows with the reason;
 * the default list adapts to what the machine counts. The exit status is
 * the workload's own.
 */
/* pmkit-command: stat | count events while a command runs */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/stat_output.h"
#include "cli/workload.h"
#include "lib/backend/backend.h"
#include "lib/core/outfile.h"
#include "lib/count/eventset.h"

#define MAX_EVENTS 64
#define MAX_SETS 1024

struct opts {
	char *lists[MAX_EVENTS];
	int nlists;
	unsigned long long repeat, interval_ms;
	const char *sep, *outfile, *cpus;
	int json, all_cpus, per_thread, no_inherit;
	pid_t pid, tid;
	char **argv; /* the command, or NULL for the built-in workload */
	int sim;     /* --sim: count on the simulated core */
	const char *sim_config, *sim_workload;
};

struct run {
	pmk_event ev[MAX_EVENTS];
	int nev;
	int ngroups, group_first[MAX_EVENTS], group_last[MAX_EVENTS];
	pmk_eventset *set[MAX_SETS];
	char label[MAX_SETS][24];
	int nset;
};

static volatile sig_atomic_t interrupted;
static void on_sigint(int sig)
{
	(void)sig;
	interrupted = 1;
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Parse every event of one -e list; on error print it with the column of
 * the whole list and return EXIT_USAGE. */
struct parse_ctx {
	struct run *run;
	const char *list;
	int failed;
	int sim;
	int group_open; /* index of the first event of an open {group}, or -1 */
};

static int parse_item(const char *item, int column, void *arg)
{
	struct parse_ctx *c = arg;
	pmk_diag d;
	char buf[PMK_EVENT_NAME_MAX * 2];
	size_t n = strlen(item);
	int closes = 0;
	/* {a,b}: events counted as one kernel group, as in perf */
	if (item[0] == '{') {
		if (c->group_open >= 0) {
			cli_error("groups do not nest: '{' at column %d", column);
			c->failed = 1;
			return 1;
		}
		c->group_open = c->run->nev;
		item++, n--, column++;
	}
	if (n && item[n - 1] == '}') {
		if (c->group_open < 0) {
			cli_error("'}' without '{' at column %d",
				  column + (int)n - 1);
			c->failed = 1;
			return 1;
		}
		closes = 1;
		n--;
	}
	snprintf(buf, sizeof buf, "%.*s", (int)n, item);
	item = buf;
	if (c->run->nev == MAX_EVENTS) {
		cli_error("more than %d events", MAX_EVENTS);
		c->failed = 1;
		return 1;
	}
	if ((c->sim ? pmk_sim_event_parse(item, &c->run->ev[c->run->nev], &d)
		    : pmk_event_parse(pmk_target_host(), item,
				      &c->run->ev[c->run->nev], &d)) != 0) {
		/* show the whole -e argument with the marker under the
		 * failing column */
		if (d.column < 1)
			d.column = 1;
		d.column += column - 1;
		snprintf(d.input, sizeof d.input, "%s", c->list);
		cli_diag(&d);
		c->failed = 1;
		return 1;
	}
	c->run->nev++;
	if (closes) {
		struct run *r = c->run;
		r->group_first[r->ngroups] = c->group_open;
		r->group_last[r->ngroups++] = r->nev - 1;
		c->group_open = -1;
	}
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

static const char *const default_sw[] = {"task-clock", "context-switches",
					 "cpu-migrations", "page-faults"};
static const char *const default_hw[] = {"cycles", "instructions", "branches",
					 "branch-misses"};

static int build_events(struct opts *o, struct run *r, const char **note)
{
	static char note_buf[160];
	if (o->nlists == 0 && !o->sim) {
		int hw = hardware_counts();
		for (size_t i = 0; i < 4; i++)
			pmk_event_parse(pmk_target_host(), default_sw[i],
					&r->ev[r->nev++], NULL);
		if (hw)
			for (size_t i = 0; i < 4; i++)
				pmk_event_parse(pmk_target_host(), default_hw[i],
						&r->ev[r->nev++], NULL);
		else {
			snprintf(note_buf, sizeof note_buf,
				 "hardware counters are unavailable here (%s): "
				 "counted software events only",
				 pmk_target_core_pmu(pmk_target_host())
					 ? "the core PMU refused to count"
					 : "no hardware PMU: virtual machine?");
			*note = note_buf;
		}
		return 0;
	}
	if (o->sim && o->nlists == 0) {
		for (size_t i = 0; i < 4; i++)
			pmk_sim_event_parse(default_hw[i], &r->ev[r->nev++], NULL);
		return 0;
	}
	for (int i = 0; i < o->nlists; i++) {
		struct parse_ctx c = {r, o->lists[i], 0, o->sim, -1};
		pmk_event_list_foreach(o->lists[i], parse_item, &c);
		if (c.failed)
			return EXIT_USAGE;
		if (c.group_open >= 0) {
			cli_error("'{' without '}' in '%s'", o->lists[i]);
			return EXIT_USAGE;
		}
	}
	return 0;
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

static int parse_cpus(const char *s, int *cpus, int max)
{
	int n = 0;
	while (s && *s) {
		char *end;
		long a = strtol(s, &end, 10), b = a;
		if (end == s || a < 0)
			return -1;
		if (*end == '-') {
			s = end + 1;
			b = strtol(s, &end, 10);
			if (end == s || b < a)
				return -1;
		}
		for (long c = a; c <= b && n < max; c++)
			cpus[n++] = (int)c;
		s = end;
		if (*s == ',')
			s++;
		else if (*s)
			return -1;
	}
	return n;
}

/* Sum set values event by event (errors in quadrature). */
static void sum_sets(struct run *r, int first, int nsets, pmk_value *out)
{
	pmk_value *tmp = calloc((size_t)r->nev, sizeof *tmp);
	memset(out, 0, sizeof *out * (size_t)r->nev);
	for (int s = first; s < first + nsets; s++) {
		pmk_eventset_read(r->set[s], tmp, r->nev);
		for (int e = 0; e < r->nev; e++) {
			pmk_value *a = &out[e], *b = &tmp[e];
			if (s == first) {
				*a = *b;
				continue;
			}
			if (b->status || (b->flags & PMK_VALUE_NOT_COUNTED)) {
				a->flags |= b->flags & PMK_VALUE_NOT_COUNTED;
				continue;
			}
			pmk__value_add(a, b);
			if (b->running < a->running)
				a->running = b->running;
		}
	}
	free(tmp);
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
		w->unit = clock ? "msec" : "";
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
		w->user_only = pmk_eventset_user_only(r->set[set], e);
		w->derived = r->ev[e].nops > 0;
	}
}

struct output {
	FILE *out;
	const struct opts *o;
};

static void emit(const struct output *out, const struct stat_result *res)
{
	if (out->o->json)
		stat_print_json(out->out, res);
	else if (out->o->sep)
		stat_print_csv(out->out, out->o->sep, res);
	else
		stat_print_text(out->out, res);
	fflush(out->out);
}

/* Wait for the end of the measurement (workload exit, target exit or
 * Ctrl-C), reading every 10 ms (feeds the multiplexing error model) and
 * printing intervals when asked. Returns the workload status. */
static int measure(struct opts *o, struct run *r, struct workload *w,
		   const struct output *out, const char *cmd, double t0)
{
	double next_print = t0 + (double)o->interval_ms / 1e3;
	pmk_value *v = calloc((size_t)r->nev, sizeof *v);
	pmk_value *prev = calloc((size_t)r->nev, sizeof *prev);
	struct stat_row *rows = calloc((size_t)r->nev, sizeof *rows);
	int status = 0;
	long sleep_ns = 500 * 1000; /* short first waits: quick commands end quick */
	for (;;) {
		struct timespec ts = {0, sleep_ns};
		if (sleep_ns < 10 * 1000 * 1000)
			sleep_ns *= 2;
		if (w && workload_poll(w, &status))
			break;
		if (!w && o->argv == NULL && (o->pid || o->tid) &&
		    kill(o->pid ? o->pid : o->tid, 0) != 0)
			break;
		if (interrupted)
			break;
		nanosleep(&ts, NULL);
		for (int s = 0; s < r->nset; s++)
			pmk_eventset_read(r->set[s], v, r->nev);
		if (o->interval_ms && now_s() >= next_print) {
			struct stat_result res = {cmd, 0, 1, 0, -1, -1, 0, 0, NULL, NULL};
			sum_sets(r, 0, r->nset, v);
			for (int e = 0; e < r->nev; e++) {
				pmk_value d = v[e];
				d.value -= prev[e].value;
				d.lo -= prev[e].value;
				d.hi -= prev[e].value;
				prev[e] = v[e];
				v[e] = d;
			}
			fill_rows(r, v, rows, 0);
			res.interval_s = now_s() - t0;
			res.rows = rows;
			res.nrows = r->nev;
			emit(out, &res);
			next_print += (double)o->interval_ms / 1e3;
		}
	}
	free(v);
	free(prev);
	free(rows);
	return status;
}

static int usage_error(const char *msg)
{
	cli_error("%s", msg);
	return cli_usage("stat");
}

static int parse_opts(int argc, char **argv, struct opts *o)
{
	int i;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *val = i + 1 < argc ? argv[i + 1] : NULL;
		char shortopt[3];
		int attached = 0;
		/* -x, -r5, -I100, -eLIST: short options with their value */
		if (a[0] == '-' && a[1] && strchr("erIxoptC", a[1]) && a[2]) {
			shortopt[0] = '-';
			shortopt[1] = a[1];
			shortopt[2] = 0;
			val = a + 2;
			a = shortopt;
			attached = 1;
		}
#define NEED_VAL()                                                             \
	do {                                                                   \
		if (!val)                                                      \
			return usage_error("option needs a value");            \
		if (!attached)                                                 \
			i++;                                                   \
	} while (0)
		if (!strcmp(a, "--")) {
			i++;
			break;
		}
		if (a[0] != '-')
			break;
		if (!strcmp(a, "-e") || !strcmp(a, "--event")) {
			NEED_VAL();
			if (o->nlists == MAX_EVENTS)
				return usage_error("too many -e options");
			o->lists[o->nlists++] = (char *)val;
		} else if (!strcmp(a, "-r") || !strcmp(a, "--repeat")) {
			NEED_VAL();
			if (cli_opt_u64(a, val, &o->repeat) || o->repeat == 0)
				return EXIT_USAGE;
		} else if (!strcmp(a, "-I") || !strcmp(a, "--interval")) {
			NEED_VAL();
			if (cli_opt_u64(a, val, &o->interval_ms) ||
			    o->interval_ms < 10)
				return usage_error("-I needs at least 10 (ms)");
		} else if (!strcmp(a, "-x") || !strcmp(a, "--field-separator")) {
			NEED_VAL();
			o->sep = val;
		} else if (!strcmp(a, "--json") || !strcmp(a, "-j")) {
			o->json = 1;
		} else if (!strcmp(a, "-o") || !strcmp(a, "--output")) {
			NEED_VAL();
			o->outfile = val;
		} else if (!strcmp(a, "-p") || !strcmp(a, "--pid") ||
			   !strcmp(a, "-t") || !strcmp(a, "--tid")) {
			unsigned long long p;
			NEED_VAL();
			if (cli_opt_u64(a, val, &p) || p == 0)
				return EXIT_USAGE;
			if (a[1] == 'p' || a[2] == 'p')
				o->pid = (pid_t)p;
			else
				o->tid = (pid_t)p;
		} else if (!strcmp(a, "-a") || !strcmp(a, "--all-cpus")) {
			o->all_cpus = 1;
		} else if (!strcmp(a, "-C") || !strcmp(a, "--cpu")) {
			NEED_VAL();
			o->cpus = val;
		} else if (!strcmp(a, "--defs")) {
			NEED_VAL();
			if (cli_defs_load(val))
				return EXIT_USAGE;
		} else if (!strcmp(a, "--sim") || !strncmp(a, "--sim=", 6)) {
			o->sim = 1;
			if (a[5] == '=')
				o->sim_config = a + 6;
		} else if (!strcmp(a, "--workload")) {
			NEED_VAL();
			o->sim_workload = val;
		} else if (!strcmp(a, "--per-thread")) {
			o->per_thread = 1;
		} else if (!strcmp(a, "--no-inherit") || !strcmp(a, "-i")) {
			o->no_inherit = 1;
		} else {
			cli_error("unknown option '%s'", a);
			return cli_usage("stat");
		}
#undef NEED_VAL
	}
	o->argv = i < argc ? argv + i : NULL;
	if (o->json && o->sep)
		return usage_error("choose one of -x and --json");
	if ((o->pid != 0) + (o->tid != 0) + o->all_cpus > 1)
		return usage_error("choose one of -p, -t and -a");
	if (o->cpus && !o->all_cpus)
		return usage_error("-C goes with -a");
	if (o->per_thread && !o->pid)
		return usage_error("--per-thread goes with -p");
	if (!o->repeat)
		o->repeat = 1;
	if (o->sim_workload && !o->sim)
		return usage_error("--workload goes with --sim");
	if (o->sim && (o->pid || o->tid || o->all_cpus || o->interval_ms ||
		       o->per_thread || o->repeat > 1))
		return usage_error("--sim runs a workload or trace; not with "
				   "-p, -t, -a, -I, -r or --per-thread");
	if (o->sim && o->argv && (o->sim_workload || o->argv[1]))
		return usage_error("--sim takes one TRACE or --workload NAME");
	if (o->repeat > 1 && (o->pid || o->tid || o->all_cpus || o->interval_ms))
		return usage_error("-r repeats a command; not with -p, -t, -a or -I");
	return 0;
}

static void command_string(struct opts *o, char *buf, size_t size)
{
	size_t n = 0;
	buf[0] = 0;
	if (!o->argv) {
		snprintf(buf, size, "%s",
			 o->pid ? "process" : o->tid ? "thread"
				: o->all_cpus         ? "system wide"
						      : "built-in workload");
		if (o->pid || o->tid)
			snprintf(buf + strlen(buf), size - strlen(buf), " %d",
				 (int)(o->pid ? o->pid : o->tid));
		return;
	}
	for (char **a = o->argv; *a && n + 2 < size; a++)
		n += (size_t)snprintf(buf + n, size - n, "%s%s",
				      a == o->argv ? "" : " ", *a);
}

/* Create the event sets for the scope the options ask for. */
static int make_sets(struct opts *o, struct run *r, pid_t child)
{
	unsigned flags = PMK_ES_MULTIPLEX;
	char label[24];
	if (o->all_cpus) {
		int cpus[MAX_SETS], n;
		if (o->cpus)
			n = parse_cpus(o->cpus, cpus, MAX_SETS);
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
		for (int c = 0; c < n; c++) {
			snprintf(label, sizeof label, "CPU%d", cpus[c]);
			if (add_set(r, (pmk_scope){-1, cpus[c]}, flags, label))
				return 1;
		}
		return 0;
	}
	if (o->pid) {
		char path[64];
		DIR *d;
		struct dirent *e;
		snprintf(path, sizeof path, "/proc/%d/task", (int)o->pid);
		d = opendir(path);
		if (!d) {
			cli_error("no process %d", (int)o->pid);
			return 1;
		}
		while ((e = readdir(d)) != NULL) {
			pid_t t = (pid_t)atoi(e->d_name);
			if (t <= 0)
				continue;
			snprintf(label, sizeof label, "%d", (int)t);
			if (add_set(r, (pmk_scope){t, -1}, flags, label))
				break;
		}
		closedir(d);
		return r->nset ? 0 : 1;
	}
	if (o->tid) {
		snprintf(label, sizeof label, "%d", (int)o->tid);
		return add_set(r, (pmk_scope){o->tid, -1}, flags, label) ? 1 : 0;
	}
	if (!o->no_inherit)
		flags |= PMK_ES_INHERIT;
	if (o->argv)
		flags |= PMK_ES_ENABLE_ON_EXEC;
	return add_set(r, (pmk_scope){child, -1}, flags, "workload") ? 1 : 0;
}

/* The first set's diagnostics, if every event failed to open. */
static int open_sets(struct run *r)
{
	pmk_diag d;
	for (int s = 0; s < r->nset; s++) {
		int rc = pmk_eventset_open(r->set[s], &d);
		if (rc) {
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
static int stat_sim(struct opts *o, struct run *r, const struct output *out)
{
	const char *what = o->argv ? o->argv[0]
			   : o->sim_workload ? o->sim_workload
					     : "int-mix";
	pmk_sim_config cfg;
	pmk_backend *be = NULL;
	pmk_eventset *es = NULL;
	struct stat_row *rows = calloc((size_t)r->nev, sizeof *rows);
	pmk_value *v = calloc((size_t)r->nev, sizeof *v);
	struct stat_result res;
	pmk_diag d;
	int rc = 1;
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
	if (!rows || !v || pmk_sim_backend_new(&be, &cfg, what, &d) < 0) {
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
	if (pmk_sim_backend_run(be, &d) < 0) {
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
	emit(out, &res);
	rc = 0;
out:
	pmk_eventset_free(es);
	r->set[0] = NULL;
	r->nset = 0;
	if (be)
		be->ops->free(be);
	free(rows);
	free(v);
	return rc;
}

int cmd_stat(int argc, char **argv)
{
	struct opts o;
	struct run r;
	struct output out;
	struct stat_result res;
	struct stat_row *rows;
	pmk_value *vals, *sum, *sumsq;
	const char *note = NULL;
	char cmd[512];
	int rc, status = 0, nrep_ok = 0, emitted = 0;
	double elapsed = 0, user = 0, sys = 0;
	pmk__outfile of; /* -o: written beside FILE, in place when it worked */
	pmk_diag od;

	memset(&o, 0, sizeof o);
	memset(&r, 0, sizeof r);
	if ((rc = parse_opts(argc, argv, &o)) != 0)
		return rc;
	if ((rc = build_events(&o, &r, &note)) != 0)
		return rc;
	command_string(&o, cmd, sizeof cmd);
	out.o = &o;
	out.out = stderr;
	if (o.outfile && !(out.out = pmk__outfile_fopen(&of, o.outfile, 0, &od))) {
		cli_diag(&od);
		return 1;
	}
	if (o.sim) {
		status = stat_sim(&o, &r, &out);
		if (out.out != stderr &&
		    pmk__outfile_fclose(&of, status == 0, &od) && status == 0) {
			cli_diag(&od);
			status = 1;
		}
		return status;
	}
	vals = calloc((size_t)r.nev, sizeof *vals);
	sum = calloc((size_t)r.nev, sizeof *sum);
	sumsq = calloc((size_t)r.nev, sizeof *sumsq);
	rows = calloc((size_t)r.nev, sizeof *rows);
	signal(SIGINT, on_sigint);

	for (unsigned long long rep = 0; rep < o.repeat; rep++) {
		struct workload w, *wp = NULL;
		struct rusage ru0, ru1;
		double t0, t1;
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
		if ((rc = make_sets(&o, &r, wp ? w.pid : 0)) != 0 ||
		    (rc = open_sets(&r)) != 0) {
			if (wp) {
				kill(w.pid, SIGKILL);
				workload_wait(&w);
			}
			status = rc == EXIT_USAGE ? rc : 1;
			goto out;
		}
		for (int s = 0; s < r.nset; s++)
			pmk_eventset_start(r.set[s]);
		t0 = now_s();
		if (wp) {
			int e = workload_start(&w);
			if (e) {
				workload_wait(&w);
				cli_error("cannot run '%s': %s", o.argv[0],
					  strerror(e));
				status = e == ENOENT ? 127 : 126;
				goto out;
			}
			status = measure(&o, &r, &w, &out, cmd, t0);
		} else if (o.argv) {
			struct workload cw;
			if (workload_prepare(&cw, o.argv) != 0 ||
			    workload_start(&cw) != 0) {
				cli_error("cannot run '%s'", o.argv[0]);
				status = 127;
				goto out;
			}
			status = measure(&o, &r, &cw, &out, cmd, t0);
		} else {
			if (!o.json && !o.sep && !o.interval_ms)
				fprintf(stderr, "counting %s; Ctrl-C to stop\n", cmd);
			measure(&o, &r, NULL, &out, cmd, t0);
		}
		t1 = now_s();
		for (int s = 0; s < r.nset; s++)
			pmk_eventset_stop(r.set[s]);
		getrusage(RUSAGE_CHILDREN, &ru1);
		elapsed += t1 - t0;
		user += (double)(ru1.ru_utime.tv_sec - ru0.ru_utime.tv_sec) +
			(double)(ru1.ru_utime.tv_usec - ru0.ru_utime.tv_usec) * 1e-6;
		sys += (double)(ru1.ru_stime.tv_sec - ru0.ru_stime.tv_sec) +
		       (double)(ru1.ru_stime.tv_usec - ru0.ru_stime.tv_usec) * 1e-6;
		sum_sets(&r, 0, r.nset, vals);
		for (int e = 0; e < r.nev; e++) {
			sum[e].value += vals[e].value;
			sumsq[e].value += vals[e].value * vals[e].value;
		}
		nrep_ok++;
		if (o.per_thread && !o.json && !o.sep) {
			for (int s = 0; s < r.nset; s++) {
				pmk_value *tv = calloc((size_t)r.nev, sizeof *tv);
				struct stat_result tr;
				pmk_eventset_read(r.set[s], tv, r.nev);
				fill_rows(&r, tv, rows, s);
				memset(&tr, 0, sizeof tr);
				tr.command = r.label[s];
				tr.repeats = 1;
				tr.interval_s = -1;
				tr.user_s = -1;
				tr.elapsed_s = t1 - t0;
				tr.rows = rows;
				tr.nrows = r.nev;
				fprintf(out.out, "\nthread %s:", r.label[s]);
				stat_print_text(out.out, &tr);
				free(tv);
			}
		}
		if (rep + 1 < o.repeat)
			free_sets(&r);
		if (interrupted)
			break;
	}
	/* mean and sample standard deviation over the repeats */
	fill_rows(&r, vals, rows, 0);
	for (int e = 0; e < r.nev; e++) {
		double n = nrep_ok, mean = sum[e].value / n;
		double var = n > 1 ? (sumsq[e].value - n * mean * mean) / (n - 1) : 0;
		double scale = !strcmp(r.ev[e].unit, "ns") ? 1e-6 : 1;
		if (n > 1) {
			rows[e].value = mean * scale;
			rows[e].stddev = (var > 0 ? sqrt(var) : 0) * scale;
		}
	}
	memset(&res, 0, sizeof res);
	res.command = cmd;
	res.exit_status = status;
	res.repeats = nrep_ok;
	res.elapsed_s = elapsed / (nrep_ok ? nrep_ok : 1);
	res.user_s = (o.pid || o.tid || o.all_cpus) ? -1 : user / (nrep_ok ? nrep_ok : 1);
	res.sys_s = sys / (nrep_ok ? nrep_ok : 1);
	res.interval_s = -1;
	res.rows = rows;
	res.nrows = r.nev;
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
	emit(&out, &res);
	emitted = 1;
out:
	free_sets(&r);
	free(vals);
	free(sum);
	free(sumsq);
	free(rows);
	/* FILE is replaced only when the run produced counts */
	if (out.out != stderr && pmk__outfile_fclose(&of, emitted, &od) &&
	    emitted) {
		cli_diag(&od);
		if (!status)
			status = 1;
	}
	return status;
}
