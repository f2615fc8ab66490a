/*
 * test_papi_csv.c: the reader of PAPI's papi_events.csv (lib/event/
 * papi_csv.c), on strings: a table of good and bad inputs, each bad one
 * with its error code, line, column and message, and good ones with the
 * reverse Polish each definition becomes and which definition is in force
 * for a model. Pure: no file is read.
 */
#include <stdio.h>
#include <string.h>

#include "tests/support/t.h"
#include "lib/event/papi_csv.h"

static const struct bad {
	int at; /* __LINE__ */
	const char *text;
	int code, line, col;
	const char *msg;
} bad[] = {
    {__LINE__, "CPU\n", PMK_ESYNTAX, 1, 4, "expected a CPU name"},
    {__LINE__, "CPU,skx\nPRESET\n", PMK_ESYNTAX, 2, 7,
     "expected a preset name"},
    {__LINE__, "CPU,skx\nPRESET,PAPI_X\n", PMK_ESYNTAX, 2, 14,
     "expected a derived type"},
    {__LINE__, "CPU,skx\nPRESET,PAPI X,NOT_DERIVED,A\n", PMK_ESYNTAX, 2, 8,
     "malformed preset name"},
    {__LINE__, "CPU,skx\nPRESET,PAPI_X,NOT_DERIVED\n", PMK_ESYNTAX, 2, 26,
     "expected the natives"},
    {__LINE__, "CPU,skx\nPRESET,PAPI_X,DERIVED_POSTFIX\n", PMK_ESYNTAX, 2, 30,
     "expected a formula"},
    {__LINE__, "CPU,skx\nPRESET,PAPI_X,NOT_DERIVED,A,NOTE,\"open\n",
     PMK_ESYNTAX, 2, 34, "unterminated quoted field"},
    {__LINE__, "CPU,skx\nPRESET,PAPI_X,NOT_DERIVED,A,NOTE,\"n\"x\n",
     PMK_ESYNTAX, 2, 37, "expected ',' after a quoted field"},
    {__LINE__, "CPU,skx\nPRESET,PAPI_X,NOT_DERIVED,A\x01\n", PMK_EFORMAT, 2, 28,
     "control character 0x01"},
    {__LINE__,
     "CPU,a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p,q,r,s,t,u,v,w,x,y,z,a,b,c,d,e,f,"
     "g,h,i,j,k,l,m,n,o,p,q,r,s,t,u,v,w,x,y,z,a,b,c,d,e,f,g,h,i,j,k,l\n",
     PMK_ERANGE, 1, 131, "more than 64 fields"},
    /* a PRESET before any CPU line is still read */
    {__LINE__, "PRESET,PAPI_X\n", PMK_ESYNTAX, 1, 14,
     "expected a derived type"},
};

static void test_bad_inputs(void)
{
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		const struct bad *b = &bad[i];
		pmk__papi_csv *c = NULL;
		pmk_diag d;
		int rc = pmk__papi_csv_parse(b->text, strlen(b->text), "t.csv",
					     &c, &d);
		T_CHECKF(rc == b->code, "line %d: rc %d, want %d (%s)", b->at,
			 rc, b->code, d.message);
		T_CHECKF(c == NULL, "line %d: a result on error", b->at);
		T_CHECKF(d.line == b->line && d.column == b->col,
			 "line %d: at %d:%d, want %d:%d", b->at, d.line,
			 d.column, b->line, b->col);
		T_CHECKF(strstr(d.message, b->msg) != NULL,
			 "line %d: '%s' lacks '%s'", b->at, d.message, b->msg);
		T_CHECKF(!strcmp(d.file, "t.csv"), "line %d: file '%s'", b->at,
			 d.file);
		pmk__papi_csv_free(c);
	}
}

static void test_long_line(void)
{
	static char text[PMK__PAPI_LINE_MAX + 64];
	pmk__papi_csv *c = NULL;
	pmk_diag d;
	memset(text, 'A', sizeof text - 1);
	memcpy(text, "CPU,skx\n#", 9);
	text[sizeof text - 1] = 0;
	T_EQ_INT(pmk__papi_csv_parse(text, strlen(text), "t.csv", &c, &d),
		 PMK_ERANGE);
	T_EQ_INT(d.line, 2);
	T_CHECK(strstr(d.message, "line longer than") != NULL);
}

/* Definitions and the formulas they become. */
static const char good[] =
    "# comment\n"
    "\n"
    "CPU,skl\n"
    "CPU,kbl\n"
    "CPU,skx\r\n"
    "PRESET,PAPI_TOT_INS,NOT_DERIVED,INST_RETIRED:ANY_P\n"
    "PRESET,PAPI_L1_TCM, DERIVED_ADD ,L1D:REPLACEMENT,L2_RQSTS:ALL_CODE_RD\n"
    "PRESET,PAPI_BR_PRC,DERIVED_SUB,A,B,C\n"
    "PRESET,PAPI_DP_OPS,DERIVED_POSTFIX,N0|N1|2|*|+|,S,P\n"
    "PRESET,PAPI_FSQ_INS,NOT_DERIVED,X,NOTE,\"div, and \"\"sqrt\"\"\"\n"
    "PRESET,PAPI_LD_INS,DERIVED_CMPD,A,B\n"
    "PRESET,PAPI_SR_INS,DERIVED_POSTFIX,N0|N2|+|,A,B\n"
    "PRESET,PAPI_L1_ICH,DERIVED_SUB,32_BYTE_FETCH,32_BYTE_MISS\n"
    "PRESET,PAPI_VEC_INS,NOT_DERIVED,A B\n"
    "PRESET,PAPI_L1_DCA,DERIVED_POSTFIX,N0|N1|,A,B\n"
    "\n"
    "CPU,skx\n"
    "PRESET,PAPI_TOT_INS,NOT_DERIVED,INSTRUCTIONS_RETIRED\n"
    "cuda,sm_90\n"
    "PRESET,PAPI_TOT_CYC,NOT_DERIVED,NOT_FOR_SKX\n"
    "CPU,icx,7\n"
    "PRESET,PAPI_TOT_CYC,NOT_DERIVED,QUALIFIED\n";

static const struct want {
	const char *model, *preset, *rpn, *why;
	int line;
} want[] = {
    {"skl", "PAPI_TOT_INS", "INST_RETIRED:ANY_P", NULL, 6},
    {"skx", "PAPI_TOT_INS", "INSTRUCTIONS_RETIRED", NULL, 18},
    {"skl", "PAPI_L1_TCM", "L1D:REPLACEMENT L2_RQSTS:ALL_CODE_RD +", NULL, 7},
    {"skl", "PAPI_BR_PRC", "A B - C -", NULL, 8},
    {"skl", "PAPI_DP_OPS", "S P 2 * +", NULL, 9},
    {"skl", "PAPI_FSQ_INS", "X", NULL, 10},
    {"skl", "PAPI_LD_INS", NULL, "derived type DERIVED_CMPD is not read", 11},
    {"skl", "PAPI_SR_INS", NULL, "postfix 'N2' names no native", 12},
    {"skl", "PAPI_L1_ICH", "32_BYTE_FETCH 32_BYTE_MISS -", NULL, 13},
    {"skl", "PAPI_VEC_INS", NULL, "holds a blank", 14},
    {"skl", "PAPI_L1_DCA", NULL, "leaves 2 values", 15},
    {"skx", "PAPI_TOT_CYC", NULL, NULL, 0}, /* after cuda: none */
    {"icx", "PAPI_TOT_CYC", NULL, NULL, 0}, /* qualified: none */
};

static int count_cb(const pmk__papi_def *def, void *arg)
{
	(*(int *)arg)++;
	return 0;
}

static void test_good_input(void)
{
	pmk__papi_csv *c = NULL;
	pmk_diag d;
	const pmk__papi_def *def;
	int n = 0;
	T_ASSERT(pmk__papi_csv_parse(good, strlen(good), "g.csv", &c, &d) == 0);
	for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
		const struct want *w = &want[i];
		def = pmk__papi_csv_find(c, w->model, w->preset);
		if (!w->line) {
			T_CHECKF(def == NULL, "%s on %s: defined at %d",
				 w->preset, w->model, def ? def->line : 0);
			continue;
		}
		T_CHECKF(def != NULL, "%s on %s: none", w->preset, w->model);
		if (!def)
			continue;
		T_CHECKF(def->line == w->line, "%s: line %d, want %d",
			 w->preset, def->line, w->line);
		if (w->rpn)
			T_CHECKF(def->rpn && !strcmp(def->rpn, w->rpn),
				 "%s: '%s', want '%s'", w->preset,
				 def->rpn ? def->rpn : "(null)", w->rpn);
		else
			T_CHECKF(!def->rpn && def->why &&
				     strstr(def->why, w->why),
				 "%s: why '%s', want '%s'", w->preset,
				 def->why ? def->why : "(null)", w->why);
	}
	def = pmk__papi_csv_find(c, "skl", "PAPI_FSQ_INS");
	T_CHECK(def && def->note && !strcmp(def->note, "div, and \"sqrt\""));
	/* kbl is PAPI's name for a Skylake: pmkit's skl */
	T_CHECK(pmk__papi_cpu_is("kbl", "skl") &&
		!pmk__papi_cpu_is("kbl", "skx"));
	T_CHECK(pmk__papi_csv_defines(c, "PAPI_L1_ICH"));
	T_CHECK(!pmk__papi_csv_defines(c, "PAPI_NOPE"));
	pmk__papi_csv_foreach(c, "skx", count_cb, &n);
	T_EQ_INT(n, 10); /* each preset once, the skx one replacing */
	T_EQ_INT(pmk__papi_csv_count(c), 12);
	pmk__papi_csv_free(c);
}

int main(void)
{
	T_RUN(test_bad_inputs);
	T_RUN(test_long_line);
	T_RUN(test_good_input);
	return t_done();
}
