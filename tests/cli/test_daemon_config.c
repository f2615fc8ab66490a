/*
 * test_daemon_config.c: the config parser of `pmkit daemon`
 * (cli/daemon_config.c) as a table of files: what a good one gives (base,
 * sessions and their run lines, quotes, comments, other sections skipped,
 * a section seen twice) and on which line a bad one fails, with what.
 */
#include <string.h>

#include "tests/support/t.h"

#include "cli/daemon_config.c"

static const struct good {
	int line;
	const char *text, *base, *name0, *run0;
	int nsess;
} goods[] = {
    {__LINE__,
     "[daemon]\nbase=/b\n[session-size]\nrun = -e cpu-clock -m 1 sleep 10\n",
     "/b", "size", "-e cpu-clock -m 1 sleep 10", 1},
    {__LINE__,
     "# c\n; c\n[report]\n\tchildren = false\n[Daemon]\n  BASE = \"/a b\" # "
     "x\n",
     "/a b", NULL, NULL, 0},
    {__LINE__,
     "[session-x]\nrun = one\n[other \"sub\"]\nk = v\n[session-x]\nrun = \"two "
     "\\\"q\\\"\" ; c\n",
     "", "x", "two \"q\"", 1},
    {__LINE__, "[session-a.b_c-d]\nrun=x   \n[session-e]\nrun=y\n", "",
     "a.b_c-d", "x", 2},
    {__LINE__, "", "", NULL, NULL, 0},
};

static const struct bad {
	int line;
	const char *text;
	int err_line;
	const char *msg; /* a part of the message */
} bads[] = {
    {__LINE__, "[daemon]\nbase = rel\n", 2, "absolute"},
    {__LINE__, "base = /x\n", 1, "outside any [section]"},
    {__LINE__, "[daemon]\nbase = /x\nfoo = 1\n", 3, "unknown key 'foo'"},
    {__LINE__, "[session-a]\n[session-b]\nrun = x\n", 1, "no 'run"},
    {__LINE__, "[session-a b]\n", 1, "bad section header"},
    {__LINE__, "[session-.x]\n", 1, "bad session name"},
    {__LINE__, "[session-a/b]\n", 1, "bad session name"},
    {__LINE__, "[daemon\n", 1, "without ']'"},
    {__LINE__, "[daemon] x\n", 1, "text after"},
    {__LINE__, "[daemon]\nbase\n", 2, "has no '= value'"},
    {__LINE__, "[daemon]\nbase /x\n", 2, "expected '='"},
    {__LINE__, "[session-a]\nrun = \"x\n", 2, "unterminated"},
    {__LINE__, "[session-a]\nrun = \\q\n", 2, "unknown escape"},
    {__LINE__, "[session-a]\nrun =  # nothing\n", 2, "empty run"},
    {__LINE__, "\n\n= x\n", 3, "expected '[section]'"},
};

static void test_good(void)
{
	static struct dcfg c;
	struct dcfg_err e;
	for (size_t i = 0; i < sizeof goods / sizeof goods[0]; i++) {
		const struct good *g = &goods[i];
		int rc = dcfg_parse(g->text, strlen(g->text), &c, &e);
		T_CHECKF(rc == 0, "line %d: failed at %d: %s", g->line, e.line,
			 e.msg);
		if (rc)
			continue;
		T_CHECKF(!strcmp(c.base, g->base), "line %d: base '%s'",
			 g->line, c.base);
		T_CHECKF(c.nsess == g->nsess, "line %d: %d sessions", g->line,
			 c.nsess);
		if (g->name0 && c.nsess)
			T_CHECKF(!strcmp(c.sess[0].name, g->name0) &&
				     !strcmp(c.sess[0].run, g->run0),
				 "line %d: session '%s' run '%s'", g->line,
				 c.sess[0].name, c.sess[0].run);
	}
}

static void test_bad(void)
{
	static struct dcfg c;
	struct dcfg_err e;
	for (size_t i = 0; i < sizeof bads / sizeof bads[0]; i++) {
		const struct bad *b = &bads[i];
		int rc = dcfg_parse(b->text, strlen(b->text), &c, &e);
		T_CHECKF(rc < 0 && e.line == b->err_line &&
			     strstr(e.msg, b->msg),
			 "line %d: rc %d, line %d, '%s'", b->line, rc, e.line,
			 e.msg);
	}
}

static void test_too_many(void)
{
	static struct dcfg c;
	static char text[DCFG_MAX_SESSIONS * 40 + 100];
	struct dcfg_err e;
	size_t n = 0;
	for (int i = 0; i <= DCFG_MAX_SESSIONS; i++)
		n += (size_t)snprintf(text + n, sizeof text - n,
				      "[session-s%d]\nrun = x\n", i);
	T_EQ_INT(dcfg_parse(text, n, &c, &e), -1);
	T_EQ_INT(e.line, 2 * DCFG_MAX_SESSIONS + 1);
}

int main(void)
{
	T_RUN(test_good);
	T_RUN(test_bad);
	T_RUN(test_too_many);
	return t_done();
}
