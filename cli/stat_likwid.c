/*
 * stat_likwid.c: `pmkit stat -g GROUP` and `-g list`: LIKWID's
 * performance groups (likwid-perfctr -g GROUP) for the target's CPU
 * model, read from $PMKIT_LIKWID_GROUPS or Debian's likwid package
 * (/usr/share/likwid/perfgroups/ARCH/GROUP.txt) and evaluated through
 * pmkit's one evaluator (lib/derive/likwid.h). Each event of the group is
 * a row, named as LIKWID names it, then each metric. An event that does
 * not map onto the target is left out with its reason, and with it the
 * metrics that need it.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/stat_likwid.h"
#include "lib/core/strdist.h"
#include "lib/derive/likwid.h"

#define DEBIAN_DIR "/usr/share/likwid/perfgroups"

static const char *groups_dir(void)
{
	const char *env = getenv("PMKIT_LIKWID_GROUPS");
	return env && *env ? env : DEBIAN_DIR;
}

const char *stat_likwid_token(const char *name)
{
	static char tok[16][160];
	static int next;
	char *s;
	if (name[0] == '-') {
		/* perf stat's -g/--group takes no argument */
		cli_error("-g takes a LIKWID group name (likwid-perfctr's -g), "
			  "not '%s'",
			  name);
		fprintf(stderr, "hint: perf's 'stat -g' (count the events as "
				"one group) is written -e '{a,b}' in pmkit\n");
		return NULL;
	}
	if (strchr(name, ',') || strchr(name, '/') || !*name ||
	    strlen(name) > 100) {
		cli_error("-g takes one LIKWID group name, not '%s'", name);
		fprintf(stderr, "hint: repeat -g for several groups; "
				"'pmkit stat -g list' lists them\n");
		return NULL;
	}
	s = tok[next++ % 16];
	snprintf(s, sizeof tok[0], "likwid:%s", name);
	return s;
}

const char *stat_likwid_name(const char *token)
{
	return !strncmp(token, "likwid:", 7) ? token + 7 : NULL;
}

/* The target's LIKWID arch: $PMKIT_LIKWID_ARCH, else from its model. NULL
 * after printing why there is none. */
static const char *target_arch(const char **model_out)
{
	const pmk_target *t = pmk_target_host();
	const char *model = pmk_target_model(t),
		   *env = getenv("PMKIT_LIKWID_ARCH");
	char path[600];
	*model_out = model;
	if (access(groups_dir(), R_OK) != 0) {
		cli_error("LIKWID's performance groups are not installed (%s)",
			  groups_dir());
		fprintf(stderr, "hint: install Debian's package likwid, or set "
				"PMKIT_LIKWID_GROUPS to a perfgroups "
				"directory\n");
		return NULL;
	}
	if (env && *env)
		return env;
	if (!*model) {
		cli_error("-g needs the CPU model of a core PMU, and this "
			  "machine has none (virtual machine?)");
		fprintf(stderr, "hint: PMK_SYSROOT=DIR reads a captured "
				"machine (tests/fixtures); PMKIT_LIKWID_ARCH "
				"names LIKWID's arch directory\n");
		return NULL;
	}
	if (!pmk__lw_arch(model)) {
		cli_error(
		    "LIKWID's groups (%s) have no directory for CPU model "
		    "'%s'",
		    groups_dir(), model);
		fprintf(stderr, "hint: PMKIT_LIKWID_ARCH=DIR uses another "
				"arch's groups (Debian's likwid 5.2 has none "
				"for Sapphire Rapids or Zen 4)\n");
		return NULL;
	}
	snprintf(path, sizeof path, "%s/%s", groups_dir(), pmk__lw_arch(model));
	if (access(path, R_OK) != 0) {
		cli_error("no LIKWID group directory %s", path);
		return NULL;
	}
	return pmk__lw_arch(model);
}

/* The group names of `dir`, sorted; *n of them. */
static int names_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static char **group_names(const char *dir, int *n)
{
	DIR *dp = opendir(dir);
	struct dirent *de;
	char **v = NULL;
	int cap = 0;
	*n = 0;
	if (!dp)
		return NULL;
	while ((de = readdir(dp)) != NULL) {
		size_t l = strlen(de->d_name);
		if (l < 5 || strcmp(de->d_name + l - 4, ".txt"))
			continue;
		if (*n == cap) {
			char **p = realloc(v, (size_t)(cap = cap * 2 + 16) *
						  sizeof *v);
			if (!p)
				break;
			v = p;
		}
		if ((v[*n] = strndup(de->d_name, l - 4)) != NULL)
			(*n)++;
	}
	closedir(dp);
	if (v)
		qsort(v, (size_t)*n, sizeof *v, names_cmp);
	return v;
}

static void names_free(char **v, int n)
{
	for (int i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

int stat_likwid_list(FILE *out)
{
	const char *model, *arch = target_arch(&model);
	char dir[600];
	char **names;
	int n, ok = 0;
	pmk__lw_group *g;
	pmk__lw_mapped *m;
	if (!arch)
		return 1;
	snprintf(dir, sizeof dir, "%s/%s", groups_dir(), arch);
	names = group_names(dir, &n);
	g = malloc(sizeof *g);
	m = malloc(sizeof *m);
	if (!g || !m) {
		free(g);
		free(m);
		names_free(names, n);
		cli_error("out of memory");
		return 1;
	}
	fprintf(out, "LIKWID's groups for %s (%s):\n", *model ? model : arch,
		dir);
	fprintf(out, "%-16s %-10s %s\n", "group", "here", "what it measures");
	for (int i = 0; i < n; i++) {
		char path[700];
		pmk_diag d;
		snprintf(path, sizeof path, "%s/%s.txt", dir, names[i]);
		if (pmk__lw_read(path, g, &d) < 0) {
			fprintf(out, "%-16s %-10s %s:%d: %s\n", names[i],
				"unreadable", d.file, d.line, d.message);
			continue;
		}
		pmk__lw_map(pmk_target_host(), g, m);
		if (!m->nunmapped && !m->nmissing) {
			ok++;
			fprintf(out, "%-16s %-10s %s\n", g->name, "evaluable",
				g->short_);
			continue;
		}
		fprintf(out, "%-16s %-10s %s\n", g->name, "partial", g->short_);
		for (int e = 0; e < g->nevent; e++)
			if (!m->ok[e])
				fprintf(out, "    event %s (%s): %s\n",
					g->event[e].name, g->event[e].counter,
					m->expr[e]);
		for (int k = 0; k < g->nmetric; k++)
			if (!m->mok[k])
				fprintf(out, "    metric '%s' left out: %s\n",
					g->metric[k].name, m->mwhy[k]);
	}
	fprintf(out,
		"\n%d of %d groups evaluable on %s; -g GROUP counts a "
		"partial one without what does not map\n",
		ok, n, *model ? model : arch);
	free(g);
	free(m);
	names_free(names, n);
	return 0;
}

/* "did you mean" for an unknown group: the names within distance 3. */
static void nearest(const char *dir, const char *name)
{
	int n, shown = 0;
	char **names = group_names(dir, &n);
	for (int pass = 0; pass <= 3 && !shown; pass++)
		for (int i = 0; i < n; i++)
			if (pmk__edit_distance(names[i], name) == pass ||
			    (pass == 3 && strcasestr(names[i], name))) {
				fprintf(stderr, "%s%s",
					shown ? ", " : "hint: did you mean ",
					names[i]);
				shown++;
			}
	if (shown)
		fprintf(stderr, "?\n");
	fprintf(stderr, "hint: 'pmkit stat -g list' lists the groups of %s\n",
		dir);
	names_free(names, n);
}

int stat_likwid_add(pmk_event *ev, int *nev, int max, const char *name)
{
	const char *model, *arch = target_arch(&model);
	const pmk_target *t = pmk_target_host();
	char dir[600], path[800], why[300];
	pmk__lw_group *g;
	pmk__lw_mapped *m;
	pmk_diag d;
	int added = 0, rc = 0;
	if (!arch)
		return EXIT_USAGE;
	snprintf(dir, sizeof dir, "%s/%s", groups_dir(), arch);
	snprintf(path, sizeof path, "%s/%s.txt", dir, name);
	if (access(path, F_OK) != 0) {
		cli_error("no LIKWID group '%s' for %s", name,
			  *model ? model : arch);
		nearest(dir, name);
		return EXIT_USAGE;
	}
	g = malloc(sizeof *g);
	m = malloc(sizeof *m);
	if (!g || !m) {
		free(g);
		free(m);
		cli_error("out of memory");
		return EXIT_USAGE;
	}
	if (pmk__lw_read(path, g, &d) < 0) {
		cli_diag(&d);
		rc = EXIT_USAGE;
		goto out;
	}
	pmk__lw_map(t, g, m);
	for (int i = 0; i < g->nevent; i++) {
		if (!m->ok[i]) {
			cli_warn("-g %s: event %s (%s, %s:%d) left out: %s",
				 name, g->event[i].name, g->event[i].counter,
				 g->path, g->event[i].line, m->expr[i]);
			continue;
		}
		if (m->skip[i])
			continue;
		if (*nev == max)
			goto full;
		if (pmk__lw_event_compile(t, g, m, i, &ev[*nev], why,
					  sizeof why) < 0) {
			cli_warn("-g %s: event %s left out: %s", name,
				 g->event[i].name, why);
			continue;
		}
		snprintf(ev[*nev].name, sizeof ev[0].name, "%s",
			 g->event[i].name);
		(*nev)++;
	}
	for (int k = 0; k < g->nmetric; k++) {
		pmk_defs *defs;
		int idx;
		if (!m->mok[k]) {
			cli_warn("-g %s: metric '%s' left out: %s", name,
				 g->metric[k].name, m->mwhy[k]);
			continue;
		}
		if (*nev == max)
			goto full;
		if (pmk__lw_metric_defs(t, g, m, k, &defs, &idx, why,
					sizeof why) < 0) {
			cli_warn("-g %s: metric '%s' left out: %s", name,
				 g->metric[k].name, why);
			continue;
		}
		if (pmk_defs_event(defs, idx, &ev[*nev], &d) == 0) {
			snprintf(ev[*nev].name, sizeof ev[0].name, "%s",
				 g->metric[k].name);
			(*nev)++;
			added++;
		} else {
			cli_warn("-g %s: metric '%s' left out: %s", name,
				 g->metric[k].name, d.message);
		}
		pmk_defs_free(defs);
	}
	if (!added) {
		cli_error("-g %s: none of the group's metrics can be evaluated "
			  "on %s",
			  name, *model ? model : arch);
		rc = EXIT_USAGE;
	}
	goto out;
full:
	cli_error("more than %d events", max);
	rc = EXIT_USAGE;
out:
	free(g);
	free(m);
	return rc;
}
