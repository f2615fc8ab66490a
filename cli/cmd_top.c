/*
 * cmd_top.c: `pmkit top [--stdio] [-e EVENT] [-F HZ] [-c PERIOD] [-d SECS]
 * [-E N] [-p PID] [-a] [-z] [-K] [-U]`: perf top's text display. Samples
 * the whole system (or a process) into an unnamed file and, every -d
 * seconds, prints perf top's heading (samples a second, the kernel's
 * share, lost samples, the event, the target) and the hottest symbols
 * with their shared object. As perf top, a symbol's weight decays by 7/8
 * at each refresh before the new samples add to it (-z: the last interval
 * only). The file holds one interval: after each display its samples
 * are dropped and the maps of the running processes written again. Runs
 * until SIGINT, SIGTERM or SIGHUP, then prints the last display and exits
 * 0. The screen is cleared between displays on a
 * terminal only.
 */
/* pmkit-command: top | the hottest symbols, system-wide, refreshed */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/opt.h"
#include "cli/stop.h"

enum { T_STDIO = 256 };

static const struct cli_opt top_opts[] = {
	{'e', "event", CLI_ARG},      {'F', "freq", CLI_ARG},
	{'c', "count", CLI_ARG},      {'d', "delay", CLI_ARG},
	{'E', "entries", CLI_ARG},    {'p', "pid", CLI_ARG},
	{'a', "all-cpus", CLI_NOARG}, {'z', "zero", CLI_NOARG},
	{'K', "hide_kernel_symbols", CLI_NOARG},
	{'U', "hide_user_symbols", CLI_NOARG},
	{T_STDIO, "stdio", CLI_NOARG}, {0},
};

struct targs {
	const char *event;
	double delay;
	long freq, count, entries, pid;
	int zero, hide_k, hide_u;
};

static int on_opt(int key, const char *val, void *arg)
{
	struct targs *a = arg;
	unsigned long long v = 0;
	int rc = 0;
	switch (key) {
	case 'e':
		a->event = val;
		break;
	case 'F':
		rc = cli_opt_u64_in(val, 1, 1000000, &v);
		a->freq = (long)v;
		break;
	case 'c':
		rc = cli_opt_u64_in(val, 1, 1000000000000000ull, &v);
		a->count = (long)v;
		break;
	case 'd':
		rc = cli_opt_double_in(val, 0.1, 3600, &a->delay);
		break;
	case 'E':
		rc = cli_opt_u64_in(val, 1, 100000, &v);
		a->entries = (long)v;
		break;
	case 'p':
		rc = cli_opt_u64_in(val, 1, 4194304, &v);
		a->pid = (long)v;
		break;
	case 'z':
		a->zero = 1;
		break;
	case 'K':
		a->hide_k = 1;
		break;
	case 'U':
		a->hide_u = 1;
		break;
	default: /* -a (the default) and --stdio (the only display) */
		break;
	}
	return rc;
}

/* A symbol's weight across displays. */
struct ent {
	char *key; /* "DSO\x1fSYMBOL" */
	double w;
	int kernel;
};

struct tab {
	struct ent *v;
	size_t n, cap;
};

static struct ent *find(struct tab *t, const char *key)
{
	size_t lo = 0, hi = t->n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strcmp(t->v[mid].key, key);
		if (!c)
			return &t->v[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (t->n == t->cap) {
		size_t nc = t->cap ? t->cap * 2 : 256;
		struct ent *nv = realloc(t->v, nc * sizeof *nv);
		if (!nv)
			return NULL;
		t->v = nv;
		t->cap = nc;
	}
	memmove(&t->v[lo + 1], &t->v[lo], (t->n - lo) * sizeof *t->v);
	memset(&t->v[lo], 0, sizeof t->v[lo]);
	if (!(t->v[lo].key = strdup(key)))
		return NULL;
	t->n++;
	return &t->v[lo];
}

static int by_weight(const void *a, const void *b)
{
	const struct ent *x = *(const struct ent *const *)a,
			 *y = *(const struct ent *const *)b;
	if (x->w != y->w)
		return x->w > y->w ? -1 : 1;
	return strcmp(x->key, y->key);
}

struct topstate {
	struct targs a;
	int fd;
	off_t base; /* the file's events and first maps end here */
	const char *evname;
	struct tab t;
	uint64_t samples, ksamples; /* so far */
	double last;		    /* time of the last display */
};

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Read what was sampled since the last display, fold it into the
 * weights and print. */
static int display(struct topstate *st, pmk_sampler *s, int ncpu)
{
	char path[64];
	pmk_profile *p;
	pmk_diag d;
	const pmk_profile_row *rows;
	int nr, rc, shown = 0, wd = 13;
	uint64_t nsamp = 0, nk = 0, lost = pmk_sampler_lost(s);
	double t = now_s(), dt = t - st->last, total = 0;
	struct ent **order;
	snprintf(path, sizeof path, "/proc/self/fd/%d", st->fd);
	pmk_diag_clear(&d);
	if ((rc = pmk_profile_load(&p, path, &d)) < 0) {
		cli_diag(&d);
		return 1;
	}
	rc = pmk_profile_histogram(p, PMK_SORT_FUNCTION, &rows, &nr);
	for (size_t i = 0; i < st->t.n; i++) /* perf top's decay */
		st->t.v[i].w = st->a.zero ? 0 : st->t.v[i].w * 7.0 / 8.0;
	for (int r = 0; !rc && r < nr; r++) {
		char key[1024];
		struct ent *e;
		snprintf(key, sizeof key, "%s\x1f%s", rows[r].dso, rows[r].key);
		if (!(e = find(&st->t, key))) {
			rc = PMK_ENOMEM;
			break;
		}
		e->kernel = !strcmp(rows[r].dso, "[kernel]");
		e->w += (double)rows[r].samples[0];
		nsamp += rows[r].samples[0];
		nk += e->kernel ? rows[r].samples[0] : 0;
	}
	pmk_profile_free(p);
	if (rc)
		return 1;
	order = malloc((st->t.n ? st->t.n : 1) * sizeof *order);
	if (!order)
		return 1;
	for (size_t i = 0; i < st->t.n; i++) {
		struct ent *e = &st->t.v[i];
		if ((e->kernel && st->a.hide_k) || (!e->kernel && st->a.hide_u))
			continue;
		order[shown++] = e;
		total += e->w;
	}
	qsort(order, (size_t)shown, sizeof *order, by_weight);
	if (shown > st->a.entries)
		shown = (int)st->a.entries;
	while (shown > 0 && !(order[shown - 1]->w > 0))
		shown--;
	for (int i = 0; i < shown; i++) {
		int l = (int)strcspn(order[i]->key, "\x1f");
		wd = l > wd ? (l > 60 ? 60 : l) : wd;
	}
	if (isatty(STDOUT_FILENO))
		fputs("\033[H\033[2J", stdout);
	printf("   PerfTop:%8.0f irqs/sec  kernel:%4.1f%%  exact:  0.0%% lost: "
	       "%llu/%llu drop: 0/0 [",
	       dt > 0 ? (double)nsamp / dt : 0.0,
	       nsamp ? 100.0 * (double)nk / (double)nsamp : 0.0,
	       (unsigned long long)lost, (unsigned long long)lost);
	if (st->a.count)
		printf("%s", st->evname);
	else
		printf("%ldHz %s", st->a.freq ? st->a.freq : 4000, st->evname);
	if (st->a.pid)
		printf("],  (target_pid: %ld)\n", st->a.pid);
	else
		printf("],  (all, %d CPU%s)\n", ncpu, ncpu == 1 ? "" : "s");
	printf("%.79s\n\n", "-------------------------------------------------"
			    "------------------------------");
	for (int i = 0; i < shown; i++) {
		const struct ent *e = order[i];
		int l = (int)strcspn(e->key, "\x1f");
		printf("  %8.2f%%  %-*.*s  [%c] %s\n",
		       total > 0 ? 100.0 * e->w / total : 0.0, wd, l, e->key,
		       e->kernel ? 'k' : '.', e->key + l + 1);
	}
	fflush(stdout);
	free(order);
	st->samples += nsamp;
	st->ksamples += nk;
	st->last = t;
	return ferror(stdout) ? 1 : 0;
}

static int open_event(struct targs *a, pmk_attr *attr, const char **name,
		      const pmk_sample_opts *so)
{
	const char *ev = a->event ? a->event : "cycles";
	pmk_event e;
	pmk_diag d;
	pmk_diag_clear(&d);
	if (pmk_event_parse(pmk_target_host(), ev, &e, &d) == 0 &&
	    e.nleaf == 1 && e.nops <= 1)
		*attr = e.leaf[0];
	else if (pmk_sample_event_lookup(ev, attr, &d) < 0) {
		cli_diag(&d);
		return EXIT_USAGE;
	}
	attr->freq = !a->count;
	attr->sample = a->count ? (uint64_t)a->count
				: (uint64_t)(a->freq ? a->freq : 4000);
	pmk_diag_clear(&d);
	if (pmk_sampler_probe(attr, so, &d) < 0) {
		if (a->event) { /* asked for: say why not */
			cli_diag(&d);
			return 1;
		}
		/* perf top's default falls back to the CPU clock where the
		 * cycles cannot be sampled */
		ev = "cpu-clock";
		if (pmk_sample_event_lookup(ev, attr, &d) < 0)
			return 1;
		attr->freq = !a->count;
		attr->sample = a->count ? (uint64_t)a->count
					: (uint64_t)(a->freq ? a->freq : 4000);
	}
	snprintf(attr->name, sizeof attr->name, "%s", ev);
	*name = attr->name;
	return 0;
}

int cmd_top(int argc, char **argv)
{
	struct topstate st;
	pmk_sample_opts so;
	pmk_attr attr;
	pmk_rec_writer *w = NULL;
	pmk_sampler *s = NULL;
	pmk_diag d;
	struct winsize ws;
	int first, rc = 0, ncpu = (int)sysconf(_SC_NPROCESSORS_ONLN);
	double next;
	memset(&st, 0, sizeof st);
	st.a.delay = 2;
	st.a.entries = isatty(STDOUT_FILENO) &&
			       ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 &&
			       ws.ws_row > 8
			   ? ws.ws_row - 6
			   : 20;
	first = cli_opt_parse("top", argc, argv, top_opts, on_opt, &st.a);
	if (first < 0)
		return -first;
	if (first < argc) {
		cli_error("top takes no command: '%s' (perf top watches the "
			  "system, or a process with -p)",
			  argv[first]);
		return EXIT_USAGE;
	}
	memset(&so, 0, sizeof so);
	so.pid = st.a.pid ? (int)st.a.pid : -1;
	so.all_cpus = !st.a.pid;
	so.inherit = so.threads = st.a.pid != 0;
	if ((rc = open_event(&st.a, &attr, &st.evname, &so)) != 0)
		return rc;
	st.fd = memfd_create("pmkit-top", MFD_CLOEXEC);
	pmk_diag_clear(&d);
	if (st.fd < 0 || pmk_rec_writer_fdopen(&w, st.fd, "pmkit top", &d) < 0) {
		cli_error("cannot make the samples' file: %s",
			  d.message[0] ? d.message : "memfd_create failed");
		return 1;
	}
	if (pmk_sampler_open(&s, &attr, 1, &so, w, &d) < 0) {
		cli_diag(&d);
		pmk_rec_writer_close(w);
		close(st.fd);
		return 1;
	}
	pmk_sampler_synthesize(s, st.a.pid ? (int)st.a.pid : 0);
	pmk_rec_writer_flush(w);
	st.base = lseek(st.fd, 0, SEEK_CUR);
	cli_stop_catch();
	pmk_sampler_enable(s);
	st.last = now_s();
	next = st.last + st.a.delay;
	while (!rc) {
		double left = next - now_s();
		if (cli_stop_sig || left <= 0) {
			pmk_rec_writer_flush(w);
			rc = display(&st, s, ncpu);
			if (cli_stop_sig || rc)
				break;
			/* the samples shown are dropped (their weights are
			 * kept), so that the file stays the size of one
			 * interval; the maps of the processes now running are
			 * written again after the first ones */
			if (st.base > 0 && ftruncate(st.fd, st.base) == 0 &&
			    lseek(st.fd, st.base, SEEK_SET) == st.base)
				pmk_sampler_synthesize(
				    s, st.a.pid ? (int)st.a.pid : 0);
			next += st.a.delay;
			continue;
		}
		pmk_sampler_poll(s, left > 0.1 ? 100 : (int)(left * 1000) + 1);
	}
	pmk_sampler_close(s);
	pmk_rec_writer_close(w);
	close(st.fd);
	for (size_t i = 0; i < st.t.n; i++)
		free(st.t.v[i].key);
	free(st.t.v);
	return rc;
}
