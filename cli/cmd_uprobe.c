/*
 * cmd_uprobe.c: `pmkit uprobe -x BINARY [-f] [-q] [-a] FUNC...`,
 * `pmkit uprobe -x BINARY --funcs [FILTER]`, `pmkit uprobe -d EVENT...`,
 * `pmkit uprobe -l`: user-space probes (uprobes) through tracefs, as
 * perf probe -x makes them. Run as perf, `perf probe` is this command
 * (cli/main.c): pmkit's own `probe` is the machine probe.
 *
 * A probe on FUNC of BINARY becomes the tracepoint GROUP:EVENT, GROUP
 * perf's (probe_libc for libc.so.6), EVENT the function's name (with
 * -f, FUNC_1, FUNC_2... when that one exists), which pmkit record
 * samples like any tracepoint. The text printed is perf's: "Added new
 * event:" and the event, "Removed event: ...", the --funcs list, the -l
 * lines, so that scripts reading perf probe's output read pmkit's. Kernel
 * probes (without -x) are not made here.
 */
/* pmkit-command: uprobe | user-space probes (perf probe -x): add, list, delete */
#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/opt.h"
#include "cli/personality.h"
#include "lib/sample/uprobe.h"

#define MAX_ITEMS 64 /* -a and -d arguments */

enum { OPT_FUNCS = 'F', OPT_LIST = 'l' };

static const struct cli_opt uprobe_opts[] = {
	{'x', "exec", CLI_ARG},	      {'a', "add", CLI_ARG},
	{'d', "del", CLI_ARG},	      {'l', "list", CLI_OPTARG},
	{'F', "funcs", CLI_OPTARG},   {'f', "force", CLI_NOARG},
	{'q', "quiet", CLI_NOARG},    {0},
};

struct uargs {
	const char *exec;
	const char *add[MAX_ITEMS], *del[MAX_ITEMS];
	int nadd, ndel;
	int list, funcs, force, quiet;
	const char *filter; /* --list=F, --funcs=F */
};

static int on_opt(int key, const char *val, void *arg)
{
	struct uargs *a = arg;
	switch (key) {
	case 'x':
		a->exec = val;
		break;
	case 'a':
	case 'd':
		if ((key == 'a' ? a->nadd : a->ndel) >= MAX_ITEMS) {
			cli_error("too many probes in one command (at most %d)",
				  MAX_ITEMS);
			return EXIT_USAGE;
		}
		if (key == 'a')
			a->add[a->nadd++] = val;
		else
			a->del[a->ndel++] = val;
		break;
	case 'l':
		a->list = 1;
		a->filter = val;
		break;
	case 'F':
		a->funcs = 1;
		a->filter = val;
		break;
	case 'f':
		a->force = 1;
		break;
	case 'q':
		a->quiet = 1;
		break;
	default:
		return EXIT_USAGE;
	}
	return 0;
}

/* ---- perf's filters: globs joined by & and |, ! and ( ) ----------- */

struct fx {
	const char *p, *s;
	int bad;
};
static int f_or(struct fx *x);

static void f_space(struct fx *x)
{
	while (*x->p == ' ')
		x->p++;
}

static int f_atom(struct fx *x)
{
	char glob[256];
	size_t n;
	f_space(x);
	if (*x->p == '!') {
		x->p++;
		return !f_atom(x);
	}
	if (*x->p == '(') {
		int v;
		x->p++;
		v = f_or(x);
		f_space(x);
		if (*x->p == ')')
			x->p++;
		else
			x->bad = 1;
		return v;
	}
	n = strcspn(x->p, "&|() ");
	if (!n || n >= sizeof glob) {
		x->bad = 1;
		return 0;
	}
	memcpy(glob, x->p, n);
	glob[n] = 0;
	x->p += n;
	return fnmatch(glob, x->s, 0) == 0;
}

static int f_and(struct fx *x)
{
	int v = f_atom(x);
	for (f_space(x); *x->p == '&'; f_space(x)) {
		x->p++;
		v &= f_atom(x);
	}
	return v;
}

static int f_or(struct fx *x)
{
	int v = f_and(x);
	for (f_space(x); *x->p == '|'; f_space(x)) {
		x->p++;
		v |= f_and(x);
	}
	return v;
}

/* Whether `s` passes `filter`; -1 when the filter does not parse. */
static int filter_match(const char *filter, const char *s)
{
	struct fx x = {filter, s, 0};
	int v = f_or(&x);
	f_space(&x);
	return x.bad || *x.p ? -1 : v;
}

static int filter_check(const char *filter)
{
	if (filter_match(filter, "") >= 0)
		return 0;
	cli_error("bad filter '%s'", filter);
	fprintf(stderr, "hint: globs joined by '&' and '|', '!' negates: "
			"'foo*', '!_* & !*@plt'\n");
	return EXIT_USAGE;
}

/* ---- the probes there are ------------------------------------------ */

struct plist {
	pmk__uprobe *u;
	int n, cap;
};

static int collect(const pmk__uprobe *u, void *arg)
{
	struct plist *l = arg;
	if (l->n == l->cap) {
		int c = l->cap ? l->cap * 2 : 16;
		pmk__uprobe *v = realloc(l->u, (size_t)c * sizeof *v);
		if (!v)
			return PMK_ENOMEM;
		l->u = v;
		l->cap = c;
	}
	l->u[l->n++] = *u;
	return 0;
}

static int probes_read(struct plist *l)
{
	pmk_diag d;
	int rc;
	memset(l, 0, sizeof *l);
	pmk_diag_clear(&d);
	rc = pmk__uprobe_foreach(collect, l, &d);
	if (rc < 0) {
		if (d.message[0])
			cli_diag(&d);
		else
			cli_error("%s", pmk_strerror(rc));
		free(l->u);
		l->u = NULL;
		return 1;
	}
	return 0;
}

/* ---- symbols --------------------------------------------------------- */

struct syms {
	char **name;
	uint64_t *off;
	int *func;
	size_t n, cap;
	int oom;
};

static int sym_add(const char *name, uint64_t off, int func, void *arg)
{
	struct syms *s = arg;
	if (s->n == s->cap) {
		size_t c = s->cap ? s->cap * 2 : 256;
		char **nv = realloc(s->name, c * sizeof *nv);
		uint64_t *ov;
		int *fv;
		if (nv)
			s->name = nv;
		ov = nv ? realloc(s->off, c * sizeof *ov) : NULL;
		if (ov)
			s->off = ov;
		fv = ov ? realloc(s->func, c * sizeof *fv) : NULL;
		if (!fv) {
			s->oom = 1;
			return 1;
		}
		s->func = fv;
		s->cap = c;
	}
	if (!(s->name[s->n] = strdup(name))) {
		s->oom = 1;
		return 1;
	}
	s->off[s->n] = off;
	s->func[s->n] = func;
	s->n++;
	return 0;
}

static void syms_free(struct syms *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->name[i]);
	free(s->name);
	free(s->off);
	free(s->func);
	memset(s, 0, sizeof *s);
}

static int syms_load(const char *path, struct syms *s)
{
	pmk_diag d;
	int rc;
	memset(s, 0, sizeof *s);
	pmk_diag_clear(&d);
	rc = pmk__elf_symbols(path, sym_add, s, &d);
	if (rc < 0 || s->oom) {
		if (rc < 0 && d.message[0])
			cli_diag(&d);
		else
			cli_error("out of memory reading '%s'", path);
		syms_free(s);
		return 1;
	}
	return 0;
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* --funcs: the names perf could probe, sorted, once each */
static int do_funcs(const struct uargs *a)
{
	struct syms s;
	const char *filter = a->filter ? a->filter : "!_* & !*@plt";
	if (filter_check(filter))
		return EXIT_USAGE;
	if (!a->exec) {
		cli_error("--funcs lists the functions of a binary: give -x "
			  "BINARY");
		return EXIT_USAGE;
	}
	if (syms_load(a->exec, &s))
		return 1;
	qsort(s.name, s.n, sizeof *s.name, str_cmp);
	for (size_t i = 0; i < s.n; i++)
		if ((i == 0 || strcmp(s.name[i], s.name[i - 1])) &&
		    filter_match(filter, s.name[i]) == 1)
			printf("%s\n", s.name[i]);
	syms_free(&s);
	return 0;
}

/* The place of a probe as perf -l shows it: FUNC, FUNC+0xN, or the
 * offset when no function holds it. */
static void place(const pmk__uprobe *u, char *buf, size_t size)
{
	struct syms s;
	const char *best = NULL;
	uint64_t at = 0;
	snprintf(buf, size, "0x%llx", (unsigned long long)u->off);
	if (syms_load(u->path, &s))
		return;
	for (size_t i = 0; i < s.n; i++)
		if (s.func[i] && s.off[i] <= u->off &&
		    (!best || s.off[i] > at)) {
			best = s.name[i];
			at = s.off[i];
		}
	if (best && u->off == at)
		snprintf(buf, size, "%s%s", best,
			 u->kind == 'r' ? "%return" : "");
	else if (best)
		snprintf(buf, size, "%s+%llu", best,
			 (unsigned long long)(u->off - at));
	syms_free(&s);
}

static int do_list(const struct uargs *a)
{
	struct plist l;
	int rc;
	if (a->filter && filter_check(a->filter))
		return EXIT_USAGE;
	if ((rc = probes_read(&l)))
		return rc;
	for (int i = 0; i < l.n; i++) {
		char ge[2 * PMK__UPROBE_NAME_MAX + 2], at[600];
		snprintf(ge, sizeof ge, "%s:%s", l.u[i].group, l.u[i].event);
		if (a->filter && filter_match(a->filter, ge) != 1 &&
		    filter_match(a->filter, l.u[i].event) != 1)
			continue;
		place(&l.u[i], at, sizeof at);
		printf("  %-20s (on %s in %s)\n", ge, at, l.u[i].path);
	}
	free(l.u);
	return 0;
}

/* -d: every probe whose GROUP:EVENT or EVENT a filter matches */
static int do_del(const struct uargs *a)
{
	struct plist l;
	int rc, failed = 0;
	for (int k = 0; k < a->ndel; k++)
		if (filter_check(a->del[k]))
			return EXIT_USAGE;
	if ((rc = probes_read(&l)))
		return rc;
	for (int k = 0; k < a->ndel; k++) {
		int hit = 0;
		for (int i = 0; i < l.n; i++) {
			char ge[2 * PMK__UPROBE_NAME_MAX + 2];
			pmk_diag d;
			if (!l.u[i].kind)
				continue; /* removed already */
			snprintf(ge, sizeof ge, "%s:%s", l.u[i].group,
				 l.u[i].event);
			if (filter_match(a->del[k], ge) != 1 &&
			    filter_match(a->del[k], l.u[i].event) != 1)
				continue;
			hit = 1;
			pmk_diag_clear(&d);
			if (pmk__uprobe_del(l.u[i].group, l.u[i].event, &d)) {
				cli_diag(&d);
				failed = 1;
				continue;
			}
			l.u[i].kind = 0;
			if (!a->quiet)
				fprintf(stderr, "Removed event: %s\n", ge);
		}
		if (!hit) {
			cli_error("'%s' matches no probe event", a->del[k]);
			fprintf(stderr, "hint: '%s -l' lists them\n",
				cli_as_perf ? "perf probe" : "pmkit uprobe");
			failed = 1;
		}
	}
	free(l.u);
	return failed;
}

/* Whether GROUP:EVENT is taken: a uprobe of that name, or any event of
 * tracefs (a kprobe, a tracepoint). */
static int taken(const struct plist *l, const char *group, const char *event)
{
	char path[256];
	const char *dir = pmk__uprobe_dir();
	for (int i = 0; i < l->n; i++)
		if (!strcmp(l->u[i].group, group) &&
		    !strcmp(l->u[i].event, event))
			return 1;
	if (!dir)
		return 0;
	snprintf(path, sizeof path, "%s/events/%s/%s", dir, group, event);
	return access(path, F_OK) == 0;
}

/* One -a SPEC: [[GROUP:]EVENT=]FUNC[+OFF][%return]. */
static int add_one(const struct uargs *a, const char *spec,
		   const char *path, struct plist *l, char (*added)[160],
		   int *nadded)
{
	char func[256], group[PMK__UPROBE_NAME_MAX], event[PMK__UPROBE_NAME_MAX];
	const char *eq = strchr(spec, '='), *f = eq ? eq + 1 : spec;
	size_t fl = strcspn(f, "+%");
	unsigned long long plus = 0;
	pmk__uprobe u;
	struct syms s;
	int found = 0, rc;
	pmk_diag d;
	memset(&u, 0, sizeof u);
	u.kind = 'p';
	if (strchr(spec, ' ') || !fl || fl >= sizeof func) {
		cli_error("cannot read the probe '%s'", spec);
		fprintf(stderr, "hint: [[GROUP:]EVENT=]FUNCTION[+OFFSET]"
				"[%%return]; arguments are not taken\n");
		return EXIT_USAGE;
	}
	memcpy(func, f, fl);
	func[fl] = 0;
	for (const char *r = f + fl; *r;) {
		char *end;
		if (*r == '+' && !plus) {
			plus = strtoull(r + 1, &end, 0);
			if (end == r + 1)
				break;
			r = end;
		} else if (!strcmp(r, "%return")) {
			u.kind = 'r';
			r += 7;
		} else {
			cli_error("cannot read '%s' in the probe '%s'", r,
				  spec);
			return EXIT_USAGE;
		}
	}
	pmk__uprobe_group(path, group, sizeof group);
	if (eq) {
		const char *c = memchr(spec, ':', (size_t)(eq - spec));
		size_t el = (size_t)(eq - (c ? c + 1 : spec));
		if (c && (size_t)(c - spec) < sizeof group)
			snprintf(group, sizeof group, "%.*s", (int)(c - spec),
				 spec);
		snprintf(event, sizeof event, "%.*s", (int)el, c ? c + 1 : spec);
	} else {
		/* perf's: the function's name up to a '.' or '@' */
		size_t n = strcspn(func + 1, ".@") + 1;
		snprintf(event, sizeof event, "%.*s%s", (int)n, func,
			 u.kind == 'r' ? "__return" : "");
	}
	if (syms_load(path, &s))
		return 1;
	for (size_t i = 0; i < s.n && !found; i++)
		if (!strcmp(s.name[i], func)) {
			u.off = s.off[i] + plus;
			found = 1;
		}
	syms_free(&s);
	if (!found) {
		cli_error("no function '%s' in '%s'", func, path);
		fprintf(stderr, "hint: '%s -x %s --funcs' lists them\n",
			cli_as_perf ? "perf probe" : "pmkit uprobe", path);
		return EXIT_USAGE;
	}
	snprintf(u.group, sizeof u.group, "%s", group);
	snprintf(u.event, sizeof u.event, "%s", event);
	if (taken(l, u.group, u.event)) {
		int i;
		if (!a->force) {
			cli_error("event '%s:%s' already exists", u.group,
				  u.event);
			fprintf(stderr,
				"hint: '%s -d %s:%s' removes it; -f adds "
				"another (%s_1)\n",
				cli_as_perf ? "perf probe" : "pmkit uprobe",
				u.group, u.event, u.event);
			return 1;
		}
		for (i = 1; i < 1024; i++) {
			snprintf(u.event, sizeof u.event, "%.*s_%d",
				 PMK__UPROBE_NAME_MAX - 8, event, i);
			if (!taken(l, u.group, u.event))
				break;
		}
	}
	snprintf(u.path, sizeof u.path, "%s", path);
	pmk_diag_clear(&d);
	if ((rc = pmk__uprobe_add(&u, &d)) < 0) {
		cli_diag(&d);
		return 1;
	}
	collect(&u, l);
	snprintf(added[*nadded], sizeof added[0], "%s:%s|%s", u.group,
		 u.event, f);
	(*nadded)++;
	return 0;
}

static int do_add(const struct uargs *a)
{
	char path[4096], (*added)[160];
	struct plist l;
	int rc = 0, n = 0;
	if (!a->exec) {
		cli_error("kernel probes are not made here: give -x BINARY "
			  "for a user-space probe");
		return EXIT_USAGE;
	}
	if (!realpath(a->exec, path)) {
		cli_error("cannot read '%s': %s", a->exec, strerror(errno));
		return EXIT_USAGE;
	}
	if ((rc = probes_read(&l)))
		return rc;
	added = calloc(MAX_ITEMS, sizeof *added);
	if (!added) {
		free(l.u);
		return 1;
	}
	for (int k = 0; k < a->nadd && !rc; k++)
		rc = add_one(a, a->add[k], path, &l, added, &n);
	if (n && !a->quiet) {
		char ev[160];
		fprintf(stderr, "Added new event%s\n", n > 1 ? "s:" : ":");
		for (int k = 0; k < n; k++) {
			char *bar = strchr(added[k], '|');
			*bar = 0;
			fprintf(stderr, "  %-20s (on %s in %s)\n", added[k],
				bar + 1, path);
			snprintf(ev, sizeof ev, "%s", added[k]);
		}
		fprintf(stderr,
			"\nYou can now use it in all perf tools, such as:\n\n");
		if (cli_as_perf)
			fprintf(stderr, "\tperf record -e %s -aR sleep 1\n\n",
				ev);
		else
			fprintf(stderr,
				"\tpmkit record -e %s -a -- sleep 1\n\n", ev);
	}
	free(added);
	free(l.u);
	return rc;
}

int cmd_uprobe(int argc, char **argv)
{
	struct uargs a;
	int first, modes;
	memset(&a, 0, sizeof a);
	first = cli_opt_parse_mixed("uprobe", argc, argv, uprobe_opts, on_opt,
				    &a);
	if (first < 0)
		return -first;
	/* operands: the filter of --funcs and -l, else probes to add */
	if (first < argc && (a.funcs || a.list) && !a.filter &&
	    argc - first == 1) {
		a.filter = argv[first];
		first = argc;
	}
	for (int i = first; i < argc; i++) {
		if (a.nadd >= MAX_ITEMS) {
			cli_error("too many probes in one command (at most "
				  "%d)",
				  MAX_ITEMS);
			return EXIT_USAGE;
		}
		a.add[a.nadd++] = argv[i];
	}
	modes = (a.nadd > 0) + (a.ndel > 0) + a.list + a.funcs;
	if (modes != 1) {
		if (modes > 1)
			cli_error("add (-a), delete (-d), list (-l) and "
				  "--funcs go one at a time");
		return cli_usage("uprobe");
	}
	if (a.funcs)
		return do_funcs(&a);
	if (a.list)
		return do_list(&a);
	if (a.ndel)
		return do_del(&a);
	return do_add(&a);
}
