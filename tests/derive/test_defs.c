/*
 * test_defs.c: definition files (seed 002's format, infix, PAPI 7 CSV),
 * their errors with line and column, compilation into pmk_events, and the
 * registry. Base events come from a small table resolver here, so these
 * tests do not depend on the machine or on the event parser's tables.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pmkit.h"
#include "lib/event/user.h"
#include "tests/support/t.h"

/* Known base events: name, config; "PAPI_L1_DCA" is derived from two
 * natives (like a preset mapped to loads + stores); NOSUP is a known event
 * with no encoding here. */
static const struct {
	const char *name;
	unsigned config;
} table[] = {
    {"PAPI_BR_INS", 1},	 {"PAPI_BR_MSP", 2},
    {"PAPI_TOT_INS", 3}, {"instructions", 3},
    {"PAPI_L2_DCA", 5},	 {"PAPI_L2_DCM", 6},
    {"PAPI_TOT_CYC", 7}, {"cycles", 7},
    {"task-clock", 8},	 {"page-faults", 9},
    {"E1", 11},		 {"E2", 12},
    {"E3", 13},		 {"E4", 14},
    {"E5", 15},		 {"E6", 16},
    {"E7", 17},		 {"E8", 18},
    {"E9", 19},		 {"RS_UOPS_DISPATCHED:C=1", 20},
};

static void leaf(pmk_attr *a, const char *name, unsigned config)
{
	memset(a, 0, sizeof *a);
	snprintf(a->pmu, sizeof a->pmu, "test");
	snprintf(a->name, sizeof a->name, "%s", name);
	a->type = PMK_TYPE_RAW;
	a->config = config;
}

static int calls;
static int resolve(const char *name, pmk_event *ev, pmk_diag *d, void *arg)
{
	calls++;
	memset(ev, 0, sizeof *ev);
	snprintf(ev->name, sizeof ev->name, "%s", name);
	if (!strcmp(name, "PAPI_L1_DCA")) {
		ev->kind = PMK_KIND_PRESET;
		ev->nleaf = 2;
		leaf(&ev->leaf[0], "loads", 40);
		leaf(&ev->leaf[1], "stores", 41);
		ev->nops = 3;
		ev->ops[0].code = PMK_OP_LEAF;
		ev->ops[1].code = PMK_OP_LEAF;
		ev->ops[1].arg = 1;
		ev->ops[2].code = PMK_OP_ADD;
		return 0;
	}
	if (!strcmp(name, "NOSUP"))
		return PMK_ENOTSUP;
	for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
		if (!strcmp(table[i].name, name)) {
			ev->kind = PMK_KIND_RAW;
			ev->nleaf = 1;
			leaf(&ev->leaf[0], name, table[i].config);
			return 0;
		}
	if (d)
		snprintf(d->message, sizeof d->message, "no such event");
	return PMK_ENOEVENT;
}

static const pmk_defs_opts opts = {.resolve = resolve, .model = "zen9"};

static pmk_defs *load(const char *text, pmk_diag *d, int *rc)
{
	pmk_defs *defs = NULL;
	*rc = pmk_defs_parse_string(&defs, "t.def", text, &opts, d);
	return defs;
}

/* Values of a definition's bases from a name=value table. */
static double eval_named(const pmk_defs *defs, const char *name,
			 const char *const *names, const double *vals, int n,
			 unsigned *flags)
{
	double in[32];
	int i = pmk_defs_find(defs, name);
	if (i < 0)
		return -12345;
	for (int k = 0; k < pmk_defs_base_count(defs, i); k++) {
		in[k] = NAN;
		for (int j = 0; j < n; j++)
			if (!strcmp(names[j], pmk_defs_base(defs, i, k)))
				in[k] = vals[j];
	}
	return pmk_defs_eval(defs, i, in, flags);
}

static const char figure1[] =
    "#define BR_lat 5\n"
    "#define BR_miss_lat 45\n"
    "#define L1_lat 3\n"
    "#define L2_lat 13\n"
    "#define Mem_lat 450\n"
    "\n"
    "Branch_cat, PAPI_BR_INS|BR_lat|*|PAPI_BR_MSP|BR_miss_lat|*|+|"
    "PAPI_TOT_INS|/\n"
    "Mem_cat, PAPI_L1_DCA|L1_lat|*|PAPI_L2_DCA|L2_lat|*|+|PAPI_L2_DCM|"
    "Mem_lat|*|+\n";

static const char *const fig_names[] = {"PAPI_BR_INS",	"PAPI_BR_MSP",
					"PAPI_TOT_INS", "PAPI_L1_DCA",
					"PAPI_L2_DCA",	"PAPI_L2_DCM"};
static const double fig_vals[] = {1000, 50, 10000, 4000, 300, 20};

/* Seed 002's Figure 1, as printed: `BR_lat*` is the paper's shorthand for
 * `BR_lat|*`, so the file is given with explicit separators here and as
 * printed in test_figure1_as_printed. */
static void test_figure1(void)
{
	pmk_diag d;
	int rc;
	pmk_defs *defs = load(figure1, &d, &rc);
	double v;
	unsigned fl;
	T_ASSERT(rc == 0);
	T_EQ_INT(pmk_defs_count(defs), 2);
	T_EQ_STR(pmk_defs_name(defs, 0), "Branch_cat");
	T_EQ_INT(pmk_defs_base_count(defs, 0), 3);
	T_EQ_STR(pmk_defs_base(defs, 0, 0), "PAPI_BR_INS");
	T_EQ_STR(pmk_defs_base(defs, 0, 1), "PAPI_BR_MSP");
	T_EQ_STR(pmk_defs_base(defs, 0, 2), "PAPI_TOT_INS");
	T_EQ_STR(pmk_defs_base(defs, 1, 0), "PAPI_L1_DCA");
	T_EQ_STR(pmk_defs_base(defs, 1, 1), "PAPI_L2_DCA");
	T_EQ_STR(pmk_defs_base(defs, 1, 2), "PAPI_L2_DCM");
	T_CHECK(pmk_defs_constant(defs, "Mem_lat", &v) == 0 && v == 450);
	/* (1000*5 + 50*45) / 10000 */
	v = eval_named(defs, "Branch_cat", fig_names, fig_vals, 6, &fl);
	T_NEAR(v, 0.725, 1e-15);
	T_EQ_INT(fl, 0);
	/* 4000*3 + 300*13 + 20*450 */
	v = eval_named(defs, "Mem_cat", fig_names, fig_vals, 6, &fl);
	T_NEAR(v, 24900, 1e-9);
	pmk_defs_free(defs);
}

static void test_figure1_as_printed(void)
{
	/* The figure writes "BR_lat*": a token followed by an operator
	 * without '|'. We read the file as printed too. */
	static const char printed[] =
	    "#define BR_lat 5\n#define BR_miss_lat 45\n"
	    "Branch_cat, PAPI_BR_INS|BR_lat*|PAPI_BR_MSP|BR_miss_lat*|+|"
	    "PAPI_TOT_INS|/\n";
	pmk_diag d;
	int rc;
	pmk_defs *defs = load(printed, &d, &rc);
	T_ASSERT(rc == 0);
	T_NEAR(eval_named(defs, "Branch_cat", fig_names, fig_vals, 6, NULL),
	       0.725, 1e-15);
	pmk_defs_free(defs);
}

static void test_infix(void)
{
	static const char text[] = "#define K (2 + 3) * 2\n"
				   "X = -(0x10 + 2e1) * 3 / 4 - -1\n"
				   "Y = E1 - E2 * 2 + K\n"
				   "Z = (E1 - E2) / -E3\n"
				   "W = X + Y\n"
				   "F = task-clock / 1e6\n"
				   "G = \"RS_UOPS_DISPATCHED:C=1\" + .5\n";
	const char *n[] = {"E1", "E2", "E3", "task-clock",
			   "RS_UOPS_DISPATCHED:C=1"};
	const double v[] = {10, 3, 2, 5e6, 7};
	pmk_diag d;
	int rc;
	pmk_defs *defs = load(text, &d, &rc);
	T_ASSERT(rc == 0);
	T_NEAR(eval_named(defs, "X", n, v, 5, NULL), -26, 1e-12);
	T_NEAR(eval_named(defs, "Y", n, v, 5, NULL), 14, 1e-12);
	T_NEAR(eval_named(defs, "Z", n, v, 5, NULL), -3.5, 1e-12);
	T_NEAR(eval_named(defs, "W", n, v, 5, NULL), -12, 1e-12);
	T_NEAR(eval_named(defs, "F", n, v, 5, NULL), 5, 1e-12);
	T_NEAR(eval_named(defs, "G", n, v, 5, NULL), 7.5, 1e-12);
	/* X is constant: folded to one step, no bases. */
	T_EQ_INT(pmk_defs_base_count(defs, pmk_defs_find(defs, "X")), 0);
	pmk_defs_free(defs);
}

static void test_papi_csv(void)
{
	static const char text[] =
	    "# PAPI 7 style\n"
	    "CPU,amd64_fam19h_zen4\n"
	    "EVENT,ONLY_ZEN4,NOT_DERIVED,E1\n"
	    "CPU,zen9\n"
	    "CPU,other\n"
	    "EVENT,USER_IPC,DERIVED_POSTFIX,N0|N1|/|,PAPI_TOT_INS,"
	    "PAPI_TOT_CYC,LDESC,\"instructions per cycle\"\n"
	    "EVENT,SUM,DERIVED_ADD,E1,E2,E3\n"
	    "EVENT,DIFF,DERIVED_SUB,E1,E2,E3\n"
	    "EVENT,ALIAS,NOT_DERIVED,E4\n"
	    "EVENT,THIRD,DERIVED_POSTFIX,N0|3|/|,E2\n"
	    "EVENT,INF,DERIVED_INFIX,N0*2+(N1-N2),E1,E2,USER_IPC\n"
	    "CPU,amd64_fam19h_zen4\n"
	    "EVENT,ONLY_ZEN4B,NOT_DERIVED,E1\n";
	const char *n[] = {"PAPI_TOT_INS", "PAPI_TOT_CYC", "E1",
			   "E2",	   "E3",	   "E4"};
	const double v[] = {300, 200, 10, 32, 1, 4};
	pmk_diag d;
	int rc;
	pmk_defs *defs = load(text, &d, &rc);
	T_CHECKF(rc == 0, "%d:%d %s", d.line, d.column, d.message);
	T_ASSERT(rc == 0);
	T_EQ_INT(pmk_defs_count(defs), 6);
	T_CHECK(pmk_defs_find(defs, "ONLY_ZEN4") < 0);
	T_CHECK(pmk_defs_find(defs, "ONLY_ZEN4B") < 0);
	T_NEAR(eval_named(defs, "USER_IPC", n, v, 6, NULL), 1.5, 1e-12);
	T_NEAR(eval_named(defs, "SUM", n, v, 6, NULL), 43, 1e-12);
	T_NEAR(eval_named(defs, "DIFF", n, v, 6, NULL), -23, 1e-12);
	T_NEAR(eval_named(defs, "ALIAS", n, v, 6, NULL), 4, 1e-12);
	/* 32/3 is 10.67 here, not PAPI 7's integer 10. */
	T_NEAR(eval_named(defs, "THIRD", n, v, 6, NULL), 32.0 / 3, 1e-12);
	T_NEAR(eval_named(defs, "INF", n, v, 6, NULL), 20 + 32 - 1.5, 1e-12);
	pmk_defs_free(defs);
}

/* Each bad line, inserted into a good file, gives its error at its line
 * and column; the same file without it loads. */
static void test_errors(void)
{
	static const char good[] = "#define L 3\n"
				   "A, E1|L|*\n"
				   "B = A / E2\n";
	static const struct {
		int line;
		const char *bad;
		int code, col;
		const char *msg;
	} cases[] = {
	    {__LINE__, "C, E1|NOSUCH|+", PMK_ENOEVENT, 7, "unknown event"},
	    {__LINE__, "C = E1 + NOSUCH", PMK_ENOEVENT, 10, "unknown event"},
	    {__LINE__, "C, E1|+", PMK_ESYNTAX, 7, "underflow"},
	    {__LINE__, "C, E1|E2", PMK_ESYNTAX, 7, "left on the stack"},
	    {__LINE__, "C, E1|E2|+|+", PMK_ESYNTAX, 12, "underflow"},
	    {__LINE__, "C, C|1|+", PMK_ECYCLE, 4, "cycle"},
	    {__LINE__, "C = D + 1\nD = E1 * C", PMK_ECYCLE, 10, "cycle"},
	    {__LINE__, "C, E1|0|/", PMK_ERANGE, 9, "division by zero"},
	    {__LINE__, "#define Z 0\nC = E1 / Z", PMK_ERANGE, 8,
	     "division by zero"},
	    {__LINE__, "C, E1|1.2.3|+", PMK_ESYNTAX, 7, "malformed number"},
	    {__LINE__, "C = (E1 + 2", PMK_ESYNTAX, 12, "missing ')'"},
	    {__LINE__, "C = E1 + 2)", PMK_ESYNTAX, 11, "unbalanced"},
	    {__LINE__, "C = E1 E2", PMK_ESYNTAX, 8, "operator"},
	    {__LINE__, "C = 0x", PMK_ESYNTAX, 5, "malformed number"},
	    {__LINE__, "C = 1e", PMK_ESYNTAX, 5, "malformed number"},
	    {__LINE__, "A, E2", PMK_EEXIST, 1, "already defined"},
	    {__LINE__, "cycles = E1", PMK_EEXIST, 1, "name of an event"},
	    {__LINE__, "#define Q E1 + 1", PMK_ESYNTAX, 11, "unknown constant"},
	    {__LINE__, "#define Q A + 1", PMK_ESYNTAX, 11, "is an event"},
	    {__LINE__, "#define Q R + 1", PMK_ESYNTAX, 11, "unknown constant"},
	    {__LINE__, "#define Q", PMK_ESYNTAX, 10, "no value"},
	    {__LINE__, "C E1", PMK_ESYNTAX, 3, "expected ','"},
	    {__LINE__, "C, E1||+", PMK_ESYNTAX, 7, "empty token"},
	    {__LINE__, "C, E1 E2|+", PMK_ESYNTAX, 6, "space inside"},
	    {__LINE__, "EVENT,C,DERIVED_POSTFIX,N0|N2|+|,E1,E2", PMK_ESYNTAX,
	     28, "refers to base event 2"},
	    {__LINE__, "EVENT,C,DERIVED_CMPD,E1", PMK_ENOTSUP, 9,
	     "not supported"},
	    {__LINE__, "EVENT,C,DERIVED_ADD,E1,NOSUCH", PMK_ENOEVENT, 24,
	     "unknown event"},
	    {__LINE__, "123abc", PMK_ESYNTAX, 1, "expected a definition"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char text[512];
		pmk_diag d;
		int rc, nl = 0;
		pmk_defs *defs;
		/* The bad line goes in the middle, as line 3. */
		snprintf(text, sizeof text,
			 "#define L 3\nA, E1|L|*\n%s\nB = A / E2\n",
			 cases[i].bad);
		for (const char *p = cases[i].bad; *p; p++)
			nl += *p == '\n';
		defs = load(text, &d, &rc);
		T_CHECKF(rc == cases[i].code && !defs,
			 "line %d: rc %s, want %s (%s)", cases[i].line,
			 pmk_errname(rc), pmk_errname(cases[i].code),
			 d.message);
		T_CHECKF(d.line == 3 + nl && d.column == cases[i].col,
			 "line %d: at %d:%d, want %d:%d (%s)", cases[i].line,
			 d.line, d.column, 3 + nl, cases[i].col, d.message);
		T_CHECKF(strstr(d.message, cases[i].msg) != NULL,
			 "line %d: message '%s' lacks '%s'", cases[i].line,
			 d.message, cases[i].msg);
		T_CHECKF(!strcmp(d.file, "t.def"), "line %d: file '%s'",
			 cases[i].line, d.file);
		pmk_defs_free(defs);
	}
	{
		pmk_diag d;
		int rc;
		pmk_defs *defs = load(good, &d, &rc);
		T_CHECK(rc == 0 && pmk_defs_count(defs) == 2);
		pmk_defs_free(defs);
	}
}

static void test_runtime_div0(void)
{
	pmk_diag d;
	int rc;
	unsigned fl;
	pmk_defs *defs = load("R = E1 / E2\nS = E1 + E3\n", &d, &rc);
	const char *n[] = {"E1", "E2"};
	const double v[] = {5, 0};
	double x;
	T_ASSERT(rc == 0);
	x = eval_named(defs, "R", n, v, 2, &fl);
	T_CHECK(isnan(x));
	T_EQ_INT(fl, PMK_EVAL_DIV0);
	x = eval_named(defs, "S", n, v, 2, &fl); /* E3 missing */
	T_CHECK(isnan(x));
	T_EQ_INT(fl, PMK_EVAL_MISSING);
	pmk_defs_free(defs);
}

static void test_eval_err(void)
{
	/* R = A / B with A = 100 +- 5, B = 50 exact: 2 +- 0.1, [1.8, 2.2];
	 * T = A / C with C = 2 +- 1: C's interval [0, 4] holds 0. */
	pmk_diag d;
	int rc;
	unsigned fl;
	double e, lo, hi, v;
	pmk_defs *defs =
	    load("R = E1 / E2\nT = E1 / E3\nU = E1 - 2 * E2\n", &d, &rc);
	double vals[2] = {100, 50}, errs[2] = {5, 0}, cerr[2] = {5, 1};
	double cval[2] = {100, 2};
	T_ASSERT(rc == 0);
	v = pmk_defs_eval_err(defs, 0, vals, errs, &e, &lo, &hi, &fl);
	T_NEAR(v, 2, 1e-12);
	T_NEAR(e, 0.1, 1e-12);
	T_NEAR(lo, 1.8, 1e-12);
	T_NEAR(hi, 2.2, 1e-12);
	v = pmk_defs_eval_err(defs, 1, cval, cerr, &e, &lo, &hi, &fl);
	T_NEAR(v, 50, 1e-12);
	T_NEAR(e, hypot(2.5, 25), 1e-9);
	T_CHECK(isinf(lo) && lo < 0 && isinf(hi) && hi > 0);
	/* 100 +- 5 minus 2 * (50 +- 5): error sqrt(25 + 100) */
	errs[1] = 5;
	v = pmk_defs_eval_err(defs, 2, vals, errs, &e, &lo, &hi, &fl);
	T_NEAR(v, 0, 1e-12);
	T_NEAR(e, sqrt(125), 1e-9);
	T_NEAR(lo, -30, 1e-12);
	T_NEAR(hi, 30, 1e-12);
	/* exact inputs: no spread */
	v = pmk_defs_eval_err(defs, 0, vals, NULL, &e, &lo, &hi, &fl);
	T_CHECK(v == 2 && e == 0 && lo == 2 && hi == 2);
	pmk_defs_free(defs);
}

static void test_ops_eval(void)
{
	/* leaf0 / leaf1, and malformed programs */
	pmk_op div[3] = {
	    {PMK_OP_LEAF, 0, 0}, {PMK_OP_LEAF, 1, 0}, {PMK_OP_DIV, 0, 0}};
	pmk_op under[2] = {{PMK_OP_LEAF, 0, 0}, {PMK_OP_ADD, 0, 0}};
	pmk_op badleaf[1] = {{PMK_OP_LEAF, PMK_LEAF_MAX, 0}};
	pmk_op badcode[2] = {{PMK_OP_CONST, 0, 1}, {99, 0, 0}};
	pmk_op left[2] = {{PMK_OP_CONST, 0, 1}, {PMK_OP_CONST, 0, 2}};
	double lv[PMK_LEAF_MAX] = {6, 3};
	unsigned fl;
	T_NEAR(pmk_ops_eval(div, 3, lv, &fl), 2, 0);
	T_EQ_INT(fl, 0);
	lv[1] = 0;
	T_CHECK(isnan(pmk_ops_eval(div, 3, lv, &fl)));
	T_EQ_INT(fl, PMK_EVAL_DIV0);
	lv[1] = NAN;
	T_CHECK(isnan(pmk_ops_eval(div, 3, lv, &fl)));
	T_EQ_INT(fl, PMK_EVAL_MISSING);
	T_CHECK(isnan(pmk_ops_eval(under, 2, lv, NULL)));
	T_CHECK(isnan(pmk_ops_eval(badleaf, 1, lv, NULL)));
	T_CHECK(isnan(pmk_ops_eval(badcode, 2, lv, NULL)));
	T_CHECK(isnan(pmk_ops_eval(left, 2, lv, NULL)));
	T_NEAR(pmk_ops_eval(NULL, 0, lv, NULL), 6, 0);
}

/* perf's operations in pmkit's infix (min, max, d_ratio, < >, `a if c
 * else b`): their values, precedence, the branch a constant condition
 * drops with its events, the errors and intervals they carry, and the
 * same answers from the compiled pmk_event. */
static void test_perf_ops(void)
{
	static const char text[] =
	    "MN = min(E1, E2)\n"
	    "MX = max(E1, E2 * 2)\n"
	    "LT = E1 < E2\n"
	    "GT = E1 > E2 + 1\n"
	    "IF = E1 if E2 > 5 else E3\n"
	    "DR = d_ratio(E1, E3 - 2)\n"
	    "CF = E1 if 1 else E2\n"
	    "CF0 = E1 if 0 > 1 else E2 * 3\n"
	    "NEST = (E1 if E2 < 1 else E3) if E3 > 0 else 0\n"
	    "PREC = 1 + 2 < 2 * 2 if 1 else 9\n"
	    "CHAIN = E1 if E3 > 5 else E2 if E3 > 1 else E3\n"
	    "CONSTS = max(2, 3) + min(2, 3) + d_ratio(1, 0)\n";
	static const struct {
		const char *name;
		double want;
		int nbases;
	} cases[] = {
	    {"MN", 3, 2},   {"MX", 10, 2},  {"LT", 0, 2},    {"GT", 1, 2},
	    {"IF", 2, 3},   {"DR", 0, 2},   {"CF", 10, 1},   {"CF0", 9, 1},
	    {"NEST", 2, 3}, {"PREC", 1, 0}, {"CHAIN", 3, 3}, {"CONSTS", 5, 0},
	};
	const char *n[] = {"E1", "E2", "E3"};
	const double v[] = {10, 3, 2};
	pmk_diag d;
	int rc;
	pmk_defs *defs = load(text, &d, &rc);
	T_ASSERT(rc == 0);
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		int k = pmk_defs_find(defs, cases[i].name);
		double got = eval_named(defs, cases[i].name, n, v, 3, NULL);
		T_CHECKF(got == cases[i].want &&
			     pmk_defs_base_count(defs, k) == cases[i].nbases,
			 "%s: %g (want %g), %d bases (want %d)", cases[i].name,
			 got, cases[i].want, pmk_defs_base_count(defs, k),
			 cases[i].nbases);
	}
	/* the branch a constant condition drops takes its events along */
	T_EQ_STR(pmk_defs_base(defs, pmk_defs_find(defs, "CF0"), 0), "E2");
	{
		/* a NaN (missing) condition or operand gives NaN */
		double in[3] = {10, NAN, 2};
		T_CHECK(isnan(
		    pmk_defs_eval(defs, pmk_defs_find(defs, "IF"), in, NULL)));
		T_CHECK(isnan(
		    pmk_defs_eval(defs, pmk_defs_find(defs, "MN"), in, NULL)));
	}
	{
		/* min follows the operand it picks: E2 = 3 +- 0.5 */
		double in[2] = {10, 3}, err[2] = {1, 0.5}, e, lo, hi;
		double r = pmk_defs_eval_err(defs, pmk_defs_find(defs, "MN"),
					     in, err, &e, &lo, &hi, NULL);
		T_CHECK(r == 3 && e == 0.5 && lo == 2 && hi == 4);
		/* E1 < E2 is certain when the intervals do not meet, [0, 1]
		 * when they do */
		r = pmk_defs_eval_err(defs, pmk_defs_find(defs, "LT"), in, err,
				      &e, &lo, &hi, NULL);
		T_CHECK(r == 0 && e == 0 && lo == 0 && hi == 0);
		in[1] = 9.5;
		r = pmk_defs_eval_err(defs, pmk_defs_find(defs, "LT"), in, err,
				      &e, &lo, &hi, NULL);
		T_CHECK(r == 0 && lo == 0 && hi == 1);
	}
	{
		/* compiled into one event: the same values */
		static const char *const names[] = {"MN", "MX",	  "IF",
						    "DR", "NEST", "CHAIN"};
		for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
			int k = pmk_defs_find(defs, names[i]);
			pmk_event ev;
			double lv[PMK_LEAF_MAX];
			T_ASSERT(pmk_defs_event(defs, k, &ev, &d) == 0);
			for (int l = 0; l < ev.nleaf; l++)
				lv[l] = ev.leaf[l].config == 11	  ? 10
					: ev.leaf[l].config == 12 ? 3
								  : 2;
			T_CHECKF(pmk_event_eval(&ev, lv) ==
				     eval_named(defs, names[i], n, v, 3, NULL),
				 "%s: %g", names[i], pmk_event_eval(&ev, lv));
			T_CHECK(pmk_ops_eval(ev.ops, ev.nops, lv, NULL) ==
				pmk_event_eval(&ev, lv));
		}
	}
	pmk_defs_free(defs);
	{
		static const struct {
			const char *text, *msg;
		} bad[] = {
		    {"X = min(E1)\n", "takes two operands"},
		    {"X = E1 if E2\n", "expected 'else'"},
		    {"X = foo(E1, E2)\n", "is no function"},
		    {"X = max(E1, E2\n", "missing ')'"},
		};
		for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
			defs = load(bad[i].text, &d, &rc);
			T_CHECKF(rc < 0 && strstr(d.message, bad[i].msg),
				 "%s: %s", bad[i].text, d.message);
			pmk_defs_free(defs);
		}
	}
	{
		/* a SELECT program by hand; a NaN condition gives NaN */
		pmk_op sel[4] = {{PMK_OP_LEAF, 0, 0},
				 {PMK_OP_LEAF, 1, 0},
				 {PMK_OP_LEAF, 2, 0},
				 {PMK_OP_SELECT, 0, 0}};
		double lv[PMK_LEAF_MAX] = {7, 0, 8};
		T_CHECK(pmk_ops_eval(sel, 4, lv, NULL) == 8);
		lv[1] = -1;
		T_CHECK(pmk_ops_eval(sel, 4, lv, NULL) == 7);
		lv[1] = NAN;
		T_CHECK(isnan(pmk_ops_eval(sel, 4, lv, NULL)));
	}
}

static void test_compile_event(void)
{
	pmk_diag d;
	int rc;
	pmk_event ev;
	pmk_defs *defs = load(figure1, &d, &rc);
	double leafv[PMK_LEAF_MAX];
	unsigned fl;
	T_ASSERT(rc == 0);
	/* Mem_cat: PAPI_L1_DCA brings two natives (loads + stores). */
	T_ASSERT(pmk_defs_event(defs, 1, &ev, &d) == 0);
	T_EQ_STR(ev.name, "Mem_cat");
	T_EQ_INT(ev.kind, PMK_KIND_USER);
	T_EQ_INT(ev.nleaf, 4);
	for (int i = 0; i < ev.nleaf; i++) {
		const char *nm = ev.leaf[i].name;
		leafv[i] = !strcmp(nm, "loads")		? 3000
			   : !strcmp(nm, "stores")	? 1000
			   : !strcmp(nm, "PAPI_L2_DCA") ? 300
							: 20;
	}
	T_NEAR(pmk_ops_eval(ev.ops, ev.nops, leafv, &fl), 24900, 1e-9);
	pmk_defs_free(defs);

	/* Equal encodings share one native: instructions == PAPI_TOT_INS. */
	defs = load("I = instructions + PAPI_TOT_INS * 2\n", &d, &rc);
	T_ASSERT(rc == 0);
	T_ASSERT(pmk_defs_event(defs, 0, &ev, &d) == 0);
	T_EQ_INT(ev.nleaf, 1);
	leafv[0] = 7;
	T_NEAR(pmk_ops_eval(ev.ops, ev.nops, leafv, NULL), 21, 1e-12);
	pmk_defs_free(defs);

	/* More steps than one event holds (PMK_OPS_MAX) do not fit; the file
	 * still parses. */
	{
		static char big[8 * PMK_OPS_MAX];
		size_t n = (size_t)snprintf(big, sizeof big, "N = E1");
		for (int k = 0; k < PMK_OPS_MAX / 2 + 1; k++)
			n += (size_t)snprintf(big + n, sizeof big - n, "+E%d",
					      1 + k % 9);
		snprintf(big + n, sizeof big - n, "\n");
		defs = load(big, &d, &rc);
	}
	T_ASSERT(rc == 0);
	T_EQ_INT(pmk_defs_event(defs, 0, &ev, &d), PMK_ERANGE);
	T_CHECK(strstr(d.message, "natives") != NULL);
	pmk_defs_free(defs);

	/* A known event without an encoding here: an unresolved leaf. */
	defs = load("U = NOSUP / E1\n", &d, &rc);
	T_ASSERT(rc == 0);
	T_CHECK(!pmk_defs_base_resolved(defs, 0, 0));
	T_ASSERT(pmk_defs_event(defs, 0, &ev, &d) == 0);
	T_EQ_INT(ev.leaf[0].type, PMK_TYPE_UNRESOLVED);
	T_EQ_STR(ev.leaf[0].name, "NOSUP");
	pmk_defs_free(defs);
}

static int count_user(const pmk_event *ev, const char *def, void *arg)
{
	(*(int *)arg)++;
	return 0;
}

static void test_register(void)
{
	pmk_diag d;
	int rc, n = 0;
	pmk_event ev;
	pmk_defs *defs;

	pmk__user_clear();
	defs = load(figure1, &d, &rc);
	T_ASSERT(rc == 0);
	T_EQ_INT(pmk_defs_register(defs, &d), 0);
	T_EQ_INT(pmk__user_find("Branch_cat", &ev), 0);
	T_EQ_INT(ev.kind, PMK_KIND_USER);
	T_EQ_INT(ev.nleaf, 3);
	/* Twice: refused whole, nothing added. */
	T_EQ_INT(pmk_defs_register(defs, &d), PMK_EEXIST);
	pmk__user_foreach(count_user, &n);
	T_EQ_INT(n, 2);
	pmk_defs_free(defs);
	pmk__user_clear();
}

static void test_include(void)
{
	char dir[] = "/tmp/pmk_derive_XXXXXX", path[256], inc[256];
	FILE *f;
	pmk_defs *defs = NULL;
	pmk_diag d;
	double v;
	T_ASSERT(mkdtemp(dir) != NULL);
	snprintf(inc, sizeof inc, "%s/machine.h", dir);
	snprintf(path, sizeof path, "%s/m.def", dir);
	f = fopen(inc, "w");
	T_ASSERT(f);
	fputs("# written by pmkit probe\n#define L2_lat 17\n", f);
	fclose(f);
	f = fopen(path, "w");
	T_ASSERT(f);
	fputs("#include \"machine.h\"\nM = E1 * L2_lat\n", f);
	fclose(f);
	T_EQ_INT(pmk_defs_parse_file(&defs, path, &opts, &d), 0);
	T_CHECK(pmk_defs_constant(defs, "L2_lat", &v) == 0 && v == 17);
	pmk_defs_free(defs);
	/* A file including itself stops with an error. */
	f = fopen(path, "w");
	T_ASSERT(f);
	fputs("#include \"m.def\"\n", f);
	fclose(f);
	T_EQ_INT(pmk_defs_parse_file(&defs, path, &opts, &d), PMK_ETOOMANY);
	T_EQ_INT(d.line, 1);
	/* A missing include names the line. */
	f = fopen(path, "w");
	T_ASSERT(f);
	fputs("\n#include \"nothere.h\"\n", f);
	fclose(f);
	T_EQ_INT(pmk_defs_parse_file(&defs, path, &opts, &d), PMK_EIO);
	T_EQ_INT(d.line, 2);
	T_EQ_INT(d.column, 11);
	unlink(inc);
	unlink(path);
	rmdir(dir);
}

static void test_blowup(void)
{
	/* Each line doubles the previous: inlining must stop, not hang. */
	char text[4096];
	int n = 0;
	pmk_diag d;
	int rc;
	pmk_defs *defs;
	n += snprintf(text + n, sizeof text - (size_t)n, "A0 = E1 + E2\n");
	for (int i = 1; i < 30; i++)
		n += snprintf(text + n, sizeof text - (size_t)n,
			      "A%d = A%d + A%d\n", i, i - 1, i - 1);
	defs = load(text, &d, &rc);
	T_EQ_INT(rc, PMK_ERANGE);
	T_CHECK(defs == NULL);
	T_CHECK(strstr(d.message, "steps") != NULL);
}

static void test_measure(void)
{
	static const char plain[] = "# comment\nPAPI_TOT_INS 10000\n"
				    "PAPI_BR_INS 1e3\nX <not counted>\n";
	static const char perfcsv[] =
	    "5.01,msec,task-clock,5010000,100.00,,\n"
	    "<not supported>,,cycles,0,100.00,,\n"
	    "12,,page-faults,5010000,100.00,2.395,K/sec\n";
	static const char hdrcsv[] = "event;value;unit\ntask-clock;7.5;ns\n";
	static const char icsv[] = "1.000100,<not counted>,msec,task-clock,0\n"
				   "2.000200,3,,page-faults,10\n";
	static const char json[] =
	    "{\"events\":[{\"event\":\"task-clock\",\"value\":3.5,"
	    "\"unit\":\"ms\"},{\"event\":\"cycles\",\"value\":\"<not "
	    "supported>\"}]}\n";
	static const char jsonl[] =
	    "{\"counter-value\" : \"42.000000\", \"event\" : "
	    "\"page-faults\"}\n{\"counter-value\" : \"9\", \"event\" : "
	    "\"task-clock\"}\n";
	pmk_measure *m;
	pmk_diag d;
	double v;

	T_ASSERT(pmk_measure_parse(&m, "p", plain, strlen(plain), &d) == 0);
	T_CHECK(pmk_measure_get(m, "PAPI_TOT_INS", &v) == 0 && v == 10000);
	T_CHECK(pmk_measure_get(m, "PAPI_BR_INS", &v) == 0 && v == 1000);
	T_CHECK(pmk_measure_get(m, "X", &v) == 0 && isnan(v));
	T_EQ_INT(pmk_measure_get(m, "Y", &v), PMK_ENOENT);
	pmk_measure_free(m);

	T_ASSERT(pmk_measure_parse(&m, "c", perfcsv, strlen(perfcsv), &d) == 0);
	/* msec is converted to the library's ns. */
	T_CHECK(pmk_measure_get(m, "task-clock", &v) == 0 && v == 5.01e6);
	T_CHECK(pmk_measure_get(m, "page-faults", &v) == 0 && v == 12);
	T_CHECK(pmk_measure_get(m, "cycles", &v) == 0 && isnan(v));
	pmk_measure_free(m);

	T_ASSERT(pmk_measure_parse(&m, "h", hdrcsv, strlen(hdrcsv), &d) == 0);
	T_CHECK(pmk_measure_get(m, "task-clock", &v) == 0 && v == 7.5);
	T_EQ_INT(pmk_measure_count(m), 1);
	pmk_measure_free(m);

	T_ASSERT(pmk_measure_parse(&m, "i", icsv, strlen(icsv), &d) == 0);
	T_CHECK(pmk_measure_get(m, "task-clock", &v) == 0 && isnan(v));
	T_CHECK(pmk_measure_get(m, "page-faults", &v) == 0 && v == 3);
	pmk_measure_free(m);

	T_ASSERT(pmk_measure_parse(&m, "j", json, strlen(json), &d) == 0);
	T_CHECK(pmk_measure_get(m, "task-clock", &v) == 0 && v == 3.5e6);
	T_CHECK(pmk_measure_get(m, "cycles", &v) == 0 && isnan(v));
	pmk_measure_free(m);

	T_ASSERT(pmk_measure_parse(&m, "l", jsonl, strlen(jsonl), &d) == 0);
	T_CHECK(pmk_measure_get(m, "page-faults", &v) == 0 && v == 42);
	T_CHECK(pmk_measure_get(m, "task-clock", &v) == 0 && v == 9);
	pmk_measure_free(m);

	T_EQ_INT(pmk_measure_parse(&m, "bad", "a 1\nb\n", 6, &d), PMK_EFORMAT);
	T_EQ_INT(d.line, 2);
	T_EQ_INT(pmk_measure_parse(&m, "bad", "{\"a\":", 5, &d), PMK_EFORMAT);
}

static void test_resolved_once(void)
{
	/* Each distinct base name is resolved once, however often used. */
	pmk_diag d;
	int rc;
	pmk_defs *defs;
	calls = 0;
	defs = load("A = E1 + E1 * E2\nB = E1 / E2 + A\n", &d, &rc);
	T_ASSERT(rc == 0);
	/* 2 bases + 2 checks that the defined names are not events */
	T_EQ_INT(calls, 4);
	pmk_defs_free(defs);
}

int main(void)
{
	T_RUN(test_figure1);
	T_RUN(test_figure1_as_printed);
	T_RUN(test_infix);
	T_RUN(test_papi_csv);
	T_RUN(test_errors);
	T_RUN(test_runtime_div0);
	T_RUN(test_eval_err);
	T_RUN(test_ops_eval);
	T_RUN(test_perf_ops);
	T_RUN(test_compile_event);
	T_RUN(test_register);
	T_RUN(test_include);
	T_RUN(test_blowup);
	T_RUN(test_measure);
	T_RUN(test_resolved_once);
	return t_done();
}
