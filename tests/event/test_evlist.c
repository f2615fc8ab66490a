/*
 * test_evlist.c: the event-list grammar (pmk_event_list_walk and
 * pmk_event_list_parse, lib/event/evlist.c): commas, pmu/terms/ commas,
 * {groups} and their :modifiers, tracepoint globs, spaces, and the column
 * of every error counted over the whole list.
 *
 * One table of good and bad lists, each with its __LINE__. A good list
 * gives its events as "STR@COLUMN", a group's first one opened with '{'
 * and its last closed with '}'; a bad one its code, column and a word of
 * its message. Events are parsed by pmk_event_parse() on the intel-spr
 * fixture (a cpu PMU with formats, a small tracefs for the globs).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/support/t.h"
#include "pmkit.h"

static pmk_target *spr;

static const struct {
	int line;
	const char *list;
	int rc;		  /* 0, or the error code */
	const char *want; /* the events, or a word of the message */
	int column;	  /* of the error */
} cases[] = {
    /* good */
    {__LINE__, "cycles", 0, "cycles@1", 0},
    {__LINE__, "cycles,instructions", 0, "cycles@1 instructions@8", 0},
    {__LINE__, " cycles , instructions ", 0, "cycles@2 instructions@11", 0},
    {__LINE__, "cpu/event=0x3c,umask=1/,cycles", 0,
     "cpu/event=0x3c,umask=1/@1 cycles@25", 0},
    {__LINE__, "{cycles,instructions}", 0, "{cycles@2 instructions@9}", 0},
    {__LINE__, "{cycles,instructions}:u", 0, "{cycles:u@2 instructions:u@9}",
     0},
    {__LINE__, "{cycles:k,instructions}:u,task-clock", 0,
     "{cycles:k:u@2 instructions:u@11} task-clock@27", 0},
    {__LINE__, "{task-clock}:k", 0, "{task-clock:k@2}", 0},
    {__LINE__, "{cycles},{instructions}", 0, "{cycles@2} {instructions@11}", 0},
    {__LINE__, "{cpu/event=0x3c,umask=1/,cycles}:u", 0,
     "{cpu/event=0x3c,umask=1/:u@2 cycles:u@26}", 0},
    {__LINE__, "syscalls:sys_enter_*", 0,
     "syscalls:sys_enter_openat@1 syscalls:sys_enter_read@1 "
     "syscalls:sys_enter_write@1",
     0},
    {__LINE__, "sched:sched_s*:k", 0, "sched:sched_switch:k@1", 0},
    {__LINE__, "{syscalls:sys_enter_w*,cycles}:u", 0,
     "{syscalls:sys_enter_write:u@2 cycles:u@24}", 0},
    {__LINE__, "{syscalls:sys_exit_*}", 0,
     "{syscalls:sys_exit_read@2 syscalls:sys_exit_write@2}", 0},
    /* bad: the list's own grammar */
    {__LINE__, "", PMK_ESYNTAX, "empty event", 1},
    {__LINE__, "cycles,,instructions", PMK_ESYNTAX, "empty event", 8},
    {__LINE__, "cycles,", PMK_ESYNTAX, "empty event", 8},
    {__LINE__, "{cycles,{instructions}}", PMK_ESYNTAX, "do not nest", 9},
    {__LINE__, "cycles}", PMK_ESYNTAX, "without '{'", 7},
    {__LINE__, "cycles,instructions}:u", PMK_ESYNTAX, "without '{'", 20},
    {__LINE__, "{cycles,instructions", PMK_ESYNTAX, "without '}'", 1},
    {__LINE__, "task-clock,{cycles", PMK_ESYNTAX, "without '}'", 12},
    {__LINE__, "{cycles}x", PMK_ESYNTAX, "after '}'", 9},
    {__LINE__, "{cycles}:", PMK_ESYNTAX, "empty modifier", 10},
    /* bad: one event, its column over the whole list */
    {__LINE__, "task-clock,nope", PMK_ENOEVENT, "nope", 12},
    {__LINE__, "cycles,instructions:q", PMK_ESYNTAX, "modifier", 21},
    {__LINE__, "{cycles,nope}", PMK_ENOEVENT, "nope", 9},
    {__LINE__, "{cycles,instructions}:q", PMK_ESYNTAX, "modifier", 23},
    {__LINE__, "{cycles,instructions:q}:u", PMK_ESYNTAX, "modifier", 22},
    {__LINE__, "task-clock,{cycles}:uq", PMK_ESYNTAX, "modifier", 22},
    {__LINE__, "cycles,cpu/event=0x3c,nope=1/", PMK_ENOEVENT, "nope", 23},
    {__LINE__, "syscalls:nomatch_*", PMK_ENOEVENT, "syscalls", 1},
    {__LINE__, "syscalls:sys_enter_*:q", PMK_ESYNTAX, "modifier", 1},
};

struct got {
	char buf[1024];
	size_t n;
};

static int collect(const pmk_event_item *it, void *arg, pmk_diag *d)
{
	struct got *g = arg;
	pmk_event ev;
	int rc = pmk_event_parse(spr, it->str, &ev, d);
	if (rc)
		return rc;
	g->n +=
	    (size_t)snprintf(g->buf + g->n, sizeof g->buf - g->n, "%s%s%s@%d%s",
			     g->n ? " " : "", it->group_first ? "{" : "",
			     it->str, it->column, it->group_last ? "}" : "");
	return 0;
}

static pmk_target *fixture(const char *name)
{
	char sys[1024], cpuinfo[1024];
	const char *src = getenv("PMK_SRC");
	pmk_target *t = pmk_target_new();
	snprintf(sys, sizeof sys, "%s/tests/fixtures/%s/sys", src ? src : ".",
		 name);
	snprintf(cpuinfo, sizeof cpuinfo, "%s/tests/fixtures/%s/proc/cpuinfo",
		 src ? src : ".", name);
	if (t && pmk_target_discover(t, sys, cpuinfo) != 0) {
		pmk_target_free(t);
		return NULL;
	}
	return t;
}

static void test_lists(void)
{
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		struct got g = {"", 0};
		pmk_diag d;
		int rc =
		    pmk_event_list_walk(spr, cases[i].list, collect, &g, &d);
		T_CHECKF(rc == cases[i].rc,
			 "line %d: '%s' gave %s (%s), not %s", cases[i].line,
			 cases[i].list, pmk_errname(rc), rc ? d.message : g.buf,
			 pmk_errname(cases[i].rc));
		if (rc != cases[i].rc)
			continue;
		if (!rc) {
			T_CHECKF(!strcmp(g.buf, cases[i].want),
				 "line %d: '%s' gave '%s', not '%s'",
				 cases[i].line, cases[i].list, g.buf,
				 cases[i].want);
			continue;
		}
		T_CHECKF(d.column == cases[i].column,
			 "line %d: '%s': column %d, not %d (%s)", cases[i].line,
			 cases[i].list, d.column, cases[i].column, d.message);
		T_CHECKF(strstr(d.message, cases[i].want) != NULL,
			 "line %d: '%s': message '%s' lacks '%s'",
			 cases[i].line, cases[i].list, d.message,
			 cases[i].want);
		T_CHECKF(!strcmp(d.input, cases[i].list),
			 "line %d: the input shown is '%s', not the whole list",
			 cases[i].line, d.input);
	}
}

/* A caller that stops the walk without a diagnostic gets its own return
 * back and an untouched (clear) diagnostic; without a target no glob is
 * expanded. */
static int stop_at_second(const pmk_event_item *it, void *arg, pmk_diag *d)
{
	int *n = arg;
	(void)it;
	(void)d;
	return ++*n == 2 ? 7 : 0;
}

static int keep_str(const pmk_event_item *it, void *arg, pmk_diag *d)
{
	(void)d;
	snprintf(arg, 64, "%s", it->str);
	return 0;
}

static void test_caller_stops(void)
{
	pmk_diag d;
	int n = 0;
	char last[64];
	T_EQ_INT(pmk_event_list_walk(NULL, "a,b,c", stop_at_second, &n, &d), 7);
	T_EQ_INT(n, 2);
	T_EQ_INT(d.code, 0);
	T_EQ_INT(pmk_event_list_walk(NULL, "syscalls:sys_enter_*", keep_str,
				     last, NULL),
		 0);
	T_EQ_STR(last, "syscalls:sys_enter_*");
}

static void test_list_parse(void)
{
	pmk_event_list *l;
	pmk_diag d;
	int g;
	T_EQ_INT(pmk_event_list_parse(
		     spr, "task-clock,{cycles,syscalls:sys_enter_*}:u", &l, &d),
		 0);
	T_ASSERT(l != NULL);
	T_EQ_INT(pmk_event_list_count(l), 5);
	T_EQ_INT(pmk_event_list_groups(l), 1);
	T_EQ_STR(pmk_event_list_event(l, 0, &g)->name, "task-clock");
	T_EQ_INT(g, -1);
	T_EQ_STR(pmk_event_list_event(l, 1, &g)->name, "cycles:u");
	T_EQ_INT(g, 0);
	T_EQ_STR(pmk_event_list_event(l, 4, &g)->name,
		 "syscalls:sys_enter_write:u");
	T_EQ_INT(g, 0);
	T_CHECK(pmk_event_list_event(l, 5, NULL) == NULL);
	pmk_event_list_free(l);
	T_EQ_INT(
	    pmk_event_list_parse(spr, "cycles,{instructions,nope}", &l, &d),
	    PMK_ENOEVENT);
	T_CHECK(l == NULL);
	T_EQ_INT(d.column, 22);
	T_EQ_STR(d.input, "cycles,{instructions,nope}");
}

int main(void)
{
	spr = fixture("intel-spr");
	if (!spr) {
		printf("not ok - fixture: tests/fixtures/intel-spr not found "
		       "(run from the repository root or set PMK_SRC)\n");
		return 1;
	}
	T_RUN(test_lists);
	T_RUN(test_caller_stops);
	T_RUN(test_list_parse);
	pmk_target_free(spr);
	return t_done();
}
