/*
 * t.h: the unit-test harness. Header only, no dependencies.
 *
 * A test program defines `static void test_NAME(void)` functions and calls
 * T_RUN(test_NAME) for each from main(), then returns t_done(). Each test
 * prints exactly one line, which tests/run counts:
 *   ok - NAME
 *   not ok - NAME: FILE:LINE: what failed
 *   skip - NAME: reason
 * A test that checks nothing is reported as failed: a pass must mean that
 * something was verified.
 */
#ifndef PMK_TESTS_T_H
#define PMK_TESTS_T_H

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static struct {
	int failed_now, skipped_now, checks_now;
	int passed, failed, skipped;
	char why[512];
	jmp_buf out;
} t__;

static inline void t__fail(const char *file, int line, const char *fmt, ...)
{
	int n;
	va_list ap;
	if (t__.failed_now)
		return;
	t__.failed_now = 1;
	n = snprintf(t__.why, sizeof t__.why, "%s:%d: ", file, line);
	va_start(ap, fmt);
	vsnprintf(t__.why + n, sizeof t__.why - (size_t)n, fmt, ap);
	va_end(ap);
}

/* Record a failure and keep going. */
#define T_CHECK(cond)                                                          \
	do {                                                                   \
		t__.checks_now++;                                              \
		if (!(cond))                                                   \
			t__fail(__FILE__, __LINE__, "%s", #cond);              \
	} while (0)
/* Same, with a printf-style explanation. */
#define T_CHECKF(cond, ...)                                                    \
	do {                                                                   \
		t__.checks_now++;                                              \
		if (!(cond))                                                   \
			t__fail(__FILE__, __LINE__, __VA_ARGS__);              \
	} while (0)
/* Record a failure and leave the test at once. */
#define T_ASSERT(cond)                                                         \
	do {                                                                   \
		T_CHECK(cond);                                                 \
		if (t__.failed_now)                                            \
			longjmp(t__.out, 1);                                   \
	} while (0)
#define T_EQ_INT(a, b)                                                         \
	T_CHECKF((long long)(a) == (long long)(b), "%s == %s: %lld != %lld",   \
		 #a, #b, (long long)(a), (long long)(b))
#define T_EQ_U64(a, b)                                                         \
	T_CHECKF((unsigned long long)(a) == (unsigned long long)(b),           \
		 "%s == %s: 0x%llx != 0x%llx", #a, #b,                         \
		 (unsigned long long)(a), (unsigned long long)(b))
#define T_EQ_STR(a, b)                                                         \
	T_CHECKF(strcmp((a), (b)) == 0, "%s == %s: \"%s\" != \"%s\"", #a, #b,  \
		 (a), (b))
#define T_NEAR(a, b, tol)                                                      \
	T_CHECKF(fabs((double)(a) - (double)(b)) <= (tol),                     \
		 "%s ~ %s: %g vs %g (tol %g)", #a, #b, (double)(a),            \
		 (double)(b), (double)(tol))
/* Leave the test as skipped, with the reason. */
#define T_SKIP(...)                                                            \
	do {                                                                   \
		t__.skipped_now = 1;                                           \
		snprintf(t__.why, sizeof t__.why, __VA_ARGS__);                \
		longjmp(t__.out, 1);                                           \
	} while (0)

#define T_RUN(fn) t__run(fn, #fn)
static inline void t__run(void (*fn)(void), const char *volatile name)
{
	if (strncmp(name, "test_", 5) == 0)
		name += 5;
	t__.failed_now = t__.skipped_now = t__.checks_now = 0;
	t__.why[0] = 0;
	if (setjmp(t__.out) == 0)
		fn();
	if (t__.skipped_now && !t__.failed_now) {
		printf("skip - %s: %s\n", name, t__.why);
		t__.skipped++;
	} else if (t__.failed_now || t__.checks_now == 0) {
		printf("not ok - %s: %s\n", name,
		       t__.failed_now ? t__.why : "checked nothing");
		t__.failed++;
	} else {
		printf("ok - %s\n", name);
		t__.passed++;
	}
	fflush(stdout);
}

static inline int t_done(void)
{
	return t__.failed ? 1 : 0;
}

#endif
