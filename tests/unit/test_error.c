/* test_error.c: error messages and diagnostic formatting. */
#include <string.h>

#include "pmkit.h"
#include "tests/support/t.h"

static void test_strerror_covers_every_code(void)
{
#define CHECK_ONE(name, val, msg) T_EQ_STR(pmk_strerror(val), msg);
	PMK_ERRNO_MAP(CHECK_ONE)
#undef CHECK_ONE
	T_EQ_STR(pmk_strerror(-9999), "unknown error");
	T_EQ_STR(pmk_errname(PMK_ENOEVENT), "PMK_ENOEVENT");
}

static void test_diag_marker_under_column(void)
{
	pmk_diag d;
	char buf[512];
	pmk_diag_clear(&d);
	d.code = PMK_ENOEVENT;
	d.column = 12;
	d.length = 6;
	strcpy(d.input, "task-clock,nosuch");
	strcpy(d.message, "unknown event 'nosuch'");
	strcpy(d.hint, "'pmkit list' shows the events");
	pmk_diag_format(&d, buf, sizeof buf);
	T_CHECK(strstr(buf, "unknown event 'nosuch'\n") == buf);
	T_CHECK(strstr(buf, "\n    task-clock,nosuch\n               ^~~~~~\n") != NULL);
	T_CHECK(strstr(buf, "hint: 'pmkit list' shows the events") != NULL);
}

static void test_diag_file_line(void)
{
	pmk_diag d;
	char buf[256];
	pmk_diag_clear(&d);
	strcpy(d.file, "defs.txt");
	d.line = 3;
	d.column = 7;
	strcpy(d.message, "stack underflow");
	pmk_diag_format(&d, buf, sizeof buf);
	T_EQ_STR(buf, "defs.txt:3:7: stack underflow");
}

int main(void)
{
	T_RUN(test_strerror_covers_every_code);
	T_RUN(test_diag_marker_under_column);
	T_RUN(test_diag_file_line);
	return t_done();
}
