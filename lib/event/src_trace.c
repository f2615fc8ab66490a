/*
 * src_trace.c: tracepoints by name, as perf spells them: "sched:sched_switch",
 * "syscalls:sys_enter_read". The id is read from the tracefs of the
 * target's machine (SYSFS/kernel/tracing/events/SUB/NAME/id, or the older
 * SYSFS/kernel/debug/tracing), so a captured machine's tracefs
 * (tests/fixtures) answers like a live one. The only file reads of the
 * event layer; nothing else here touches the system.
 *
 * A glob in either part ("syscalls:sys_enter_*") is expanded by
 * pmk_tracepoint_foreach(); a single event string must name one tracepoint.
 */
#include <dirent.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/event/target.h"
#include "lib/event/trace.h"

static const char *const tracefs[] = {"kernel/tracing/events",
				      "kernel/debug/tracing/events"};

static int valid_part(const char *s, size_t n, int glob)
{
	if (n == 0 || n >= 128)
		return 0;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '_' || c == '-' ||
		      (glob && (c == '*' || c == '?'))))
			return 0;
	}
	return 1;
}

int pmk__tracepoint_id(const pmk_target *t, const char *sub, size_t sl,
		       const char *name, size_t nl, uint64_t *id)
{
	char path[1024], buf[32];
	if (!t || !t->sysfs[0] || !valid_part(sub, sl, 0) ||
	    !valid_part(name, nl, 0))
		return PMK_ENOEVENT;
	for (size_t i = 0; i < sizeof tracefs / sizeof *tracefs; i++) {
		FILE *f;
		char *end;
		size_t n;
		snprintf(path, sizeof path, "%s/%s/%.*s/%.*s/id", t->sysfs,
			 tracefs[i], (int)sl, sub, (int)nl, name);
		f = fopen(path, "r");
		if (!f)
			continue;
		n = fread(buf, 1, sizeof buf - 1, f);
		fclose(f);
		buf[n] = 0;
		*id = strtoull(buf, &end, 10);
		if (end != buf)
			return 0;
	}
	return PMK_ENOEVENT;
}

int pmk__tracefs_present(const pmk_target *t)
{
	char path[1024];
	for (size_t i = 0; t && t->sysfs[0] && i < 2; i++) {
		DIR *d;
		snprintf(path, sizeof path, "%s/%s", t->sysfs, tracefs[i]);
		if ((d = opendir(path)) != NULL) {
			closedir(d);
			return 1;
		}
	}
	return 0;
}

int pmk_tracepoint_foreach(const pmk_target *t, const char *pattern,
			   int (*fn)(const char *name, uint64_t id, void *arg),
			   void *arg)
{
	char path[1024], subpat[128], namepat[128], full[300];
	const char *colon = pattern ? strchr(pattern, ':') : NULL;
	int rc = 0;
	if (!t || !t->sysfs[0])
		return 0;
	if (pattern && colon) {
		snprintf(subpat, sizeof subpat, "%.*s",
			 (int)(colon - pattern), pattern);
		snprintf(namepat, sizeof namepat, "%s", colon + 1);
	} else {
		snprintf(subpat, sizeof subpat, "%s", pattern ? pattern : "*");
		snprintf(namepat, sizeof namepat, "*");
	}
	for (size_t i = 0; i < sizeof tracefs / sizeof *tracefs; i++) {
		DIR *d, *e;
		struct dirent *s, *n;
		snprintf(path, sizeof path, "%s/%s", t->sysfs, tracefs[i]);
		if (!(d = opendir(path)))
			continue;
		while (!rc && (s = readdir(d)) != NULL) {
			if (s->d_name[0] == '.' ||
			    fnmatch(subpat, s->d_name, 0) != 0)
				continue;
			snprintf(path, sizeof path, "%s/%s/%s", t->sysfs,
				 tracefs[i], s->d_name);
			if (!(e = opendir(path)))
				continue;
			while (!rc && (n = readdir(e)) != NULL) {
				uint64_t id;
				if (n->d_name[0] == '.' ||
				    fnmatch(namepat, n->d_name, 0) != 0)
					continue;
				if (pmk__tracepoint_id(t, s->d_name,
						       strlen(s->d_name),
						       n->d_name,
						       strlen(n->d_name),
						       &id) != 0)
					continue;
				snprintf(full, sizeof full, "%s:%s", s->d_name,
					 n->d_name);
				rc = fn(full, id, arg);
			}
			closedir(e);
		}
		closedir(d);
		return rc; /* the first tracefs that exists is the one */
	}
	return rc;
}
