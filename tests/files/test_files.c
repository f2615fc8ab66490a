/* test_files.c: the safe writer (lib/core/outfile.c) and the bounded,
 * typed reader (lib/core/infile.c) as library calls: the new file beside
 * the target, commit with NAME.old, abort leaving NAME alone, a planted
 * link's target untouched, publish, in-place streams, refusals; the
 * reader's cap, NUL position, FIFO and directory refusals, and streaming. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/core/infile.h"
#include "lib/core/outfile.h"
#include "pmkit.h"
#include "tests/support/t.h"

static char dir[256];

static const char *at(const char *name)
{
	static char p[4][512];
	static int k;
	k = (k + 1) % 4;
	snprintf(p[k], sizeof p[k], "%s/%s", dir, name);
	return p[k];
}

static void put(const char *name, const char *text)
{
	FILE *f = fopen(at(name), "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* The file's text (first 255 bytes), or "(none)". */
static const char *get(const char *name)
{
	static char buf[256];
	FILE *f = fopen(at(name), "r");
	size_t n;
	if (!f)
		return "(none)";
	n = fread(buf, 1, sizeof buf - 1, f);
	buf[n] = 0;
	fclose(f);
	return buf;
}

/* How many NAME.tmp-* files are in the directory. */
static int temps(void)
{
	char cmd[600];
	FILE *p;
	int n = -1;
	snprintf(cmd, sizeof cmd, "ls %s | grep -c '\\.tmp-'", dir);
	p = popen(cmd, "r");
	if (p) {
		if (fscanf(p, "%d", &n) != 1)
			n = -1;
		pclose(p);
	}
	return n;
}

static void test_commit_keeps_the_previous_file_as_old(void)
{
	pmk__outfile of;
	pmk_diag d;
	FILE *f;
	put("a", "old\n");
	T_ASSERT(pmk__outfile_open(&of, at("a"), 0, &d) == 0);
	T_EQ_STR(get("a"), "old\n"); /* untouched while written */
	f = pmk__outfile_stream(&of);
	T_ASSERT(f != NULL);
	fputs("new\n", f);
	T_EQ_INT(temps(), 1);
	T_EQ_INT(pmk__outfile_commit(&of, &d), 0);
	T_EQ_STR(get("a"), "new\n");
	T_EQ_STR(get("a.old"), "old\n");
	T_EQ_INT(temps(), 0);
}

static void test_abort_leaves_the_target_alone(void)
{
	pmk__outfile of;
	pmk_diag d;
	put("b", "keep\n");
	T_ASSERT(pmk__outfile_open(&of, at("b"), 0, &d) == 0);
	T_CHECK(write(of.fd, "junk", 4) == 4);
	pmk__outfile_abort(&of);
	T_EQ_STR(get("b"), "keep\n");
	T_EQ_STR(get("b.old"), "(none)");
	T_EQ_INT(temps(), 0);
}

static void test_no_backup_replaces_without_old(void)
{
	FILE *f;
	put("c", "one\n");
	f = pmk__out_fopen(at("c"), PMK__OUT_NO_BACKUP, NULL);
	T_ASSERT(f != NULL);
	fputs("two\n", f);
	T_EQ_INT(pmk__out_fclose(f, 1, NULL), 0);
	T_EQ_STR(get("c"), "two\n");
	T_EQ_STR(get("c.old"), "(none)");
}

static void test_planted_link_target_is_never_written(void)
{
	FILE *f;
	struct stat st;
	put("victim", "victim\n");
	T_ASSERT(symlink(at("victim"), at("link")) == 0);
	f = pmk__out_fopen(at("link"), 0, NULL);
	T_ASSERT(f != NULL);
	fputs("data\n", f);
	T_EQ_INT(pmk__out_fclose(f, 1, NULL), 0);
	T_EQ_STR(get("victim"), "victim\n");
	T_CHECK(lstat(at("link"), &st) == 0 && S_ISREG(st.st_mode));
	T_CHECK(lstat(at("link.old"), &st) == 0 && S_ISLNK(st.st_mode));
	T_EQ_STR(get("link"), "data\n");
}

static void test_publish_puts_the_file_in_place_early(void)
{
	pmk__outfile of;
	pmk_diag d;
	put("p", "before\n");
	T_ASSERT(pmk__outfile_open(&of, at("p"), PMK__OUT_SYNC, &d) == 0);
	T_CHECK(write(of.fd, "x", 1) == 1);
	T_EQ_INT(pmk__outfile_publish(&of, &d), 0);
	T_EQ_STR(get("p"), "x");
	T_EQ_STR(get("p.old"), "before\n");
	T_CHECK(write(of.fd, "y", 1) == 1);
	pmk__outfile_abort(&of); /* after publish: the file stays */
	T_EQ_STR(get("p"), "xy");
}

static void test_devices_are_written_in_place_directories_refused(void)
{
	pmk__outfile of;
	pmk_diag d;
	struct stat st;
	T_ASSERT(pmk__outfile_open(&of, "/dev/null", 0, &d) == 0);
	T_CHECK(of.in_place);
	T_EQ_INT(pmk__outfile_commit(&of, &d), 0);
	T_CHECK(stat("/dev/null", &st) == 0 && S_ISCHR(st.st_mode));
	mkdir(at("sub"), 0755);
	T_CHECK(pmk__outfile_open(&of, at("sub"), 0, &d) < 0);
	T_CHECK(strstr(d.message, "directory") != NULL);
	T_CHECK(pmk__outfile_open(&of, at("nodir/x"), 0, &d) < 0);
	T_EQ_INT(temps(), 0);
}

/* Only the null device is written in place: a FIFO or another device at
 * NAME is refused by the check and the open, before anything is created;
 * a link to a FIFO is not followed (the new file replaces the link); a
 * NAME.old that is a directory is found by the check, not at the rename. */
static void test_fifos_devices_and_old_directories_refused_first(void)
{
	pmk__outfile of;
	pmk_diag d;
	struct stat st;
	FILE *f;
	T_ASSERT(mkfifo(at("ff"), 0644) == 0);
	T_CHECK(pmk__outfile_check(at("ff"), 0, &d) < 0);
	T_CHECK(strstr(d.message, "FIFO") != NULL);
	T_CHECK(pmk__outfile_open(&of, at("ff"), 0, &d) < 0);
	T_ASSERT(symlink(at("ff"), at("lf")) == 0);
	T_EQ_INT(pmk__outfile_check(at("lf"), 0, &d), 0);
	f = pmk__out_fopen(at("lf"), 0, NULL); /* would block if followed */
	T_ASSERT(f != NULL);
	fputs("data\n", f);
	T_EQ_INT(pmk__out_fclose(f, 1, NULL), 0);
	T_CHECK(lstat(at("lf"), &st) == 0 && S_ISREG(st.st_mode));
	T_CHECK(lstat(at("lf.old"), &st) == 0 && S_ISLNK(st.st_mode));
	T_CHECK(lstat(at("ff"), &st) == 0 && S_ISFIFO(st.st_mode));
	T_CHECK(pmk__outfile_open(&of, "/dev/zero", 0, &d) < 0);
	T_CHECK(strstr(d.message, "character device") != NULL);
	f = pmk__out_fopen(at("o"), 0, NULL);
	T_ASSERT(f != NULL);
	T_EQ_INT(pmk__out_fclose(f, 1, NULL), 0);
	mkdir(at("o.old"), 0755);
	T_CHECK(pmk__outfile_check(at("o"), 0, &d) < 0);
	T_CHECK(strstr(d.message, "o.old") != NULL);
	T_EQ_INT(pmk__outfile_check(at("o"), PMK__OUT_NO_BACKUP, &d), 0);
	T_EQ_INT(temps(), 0);
}

/* PMK__OUT_PRIVATE (record files): 0600, whatever the umask allows. */
static void test_private_files_are_0600(void)
{
	pmk__outfile of;
	pmk_diag d;
	struct stat st;
	T_ASSERT(pmk__outfile_open(&of, at("priv"), PMK__OUT_PRIVATE, &d) == 0);
	T_EQ_INT(pmk__outfile_commit(&of, &d), 0);
	T_CHECK(stat(at("priv"), &st) == 0);
	T_EQ_INT((int)(st.st_mode & 0777), 0600);
}

static void test_mode_follows_the_umask(void)
{
	FILE *f;
	struct stat st;
	mode_t old = umask(027);
	f = pmk__out_fopen(at("m"), 0, NULL);
	umask(old);
	T_ASSERT(f != NULL);
	T_EQ_INT(pmk__out_fclose(f, 1, NULL), 0);
	T_CHECK(stat(at("m"), &st) == 0);
	T_EQ_INT((int)(st.st_mode & 0777), 0640);
}

static void test_reader_refuses_what_is_not_a_file(void)
{
	char *t;
	pmk_diag d;
	T_EQ_INT(pmk__infile_read("/dev/zero", 0, 0, &t, NULL, &d),
		 PMK_EFORMAT);
	T_CHECK(strstr(d.message, "character device") != NULL);
	T_EQ_INT(pmk__infile_read(dir, 0, 0, &t, NULL, &d), PMK_EFORMAT);
	T_CHECK(strstr(d.message, "directory") != NULL);
	T_ASSERT(mkfifo(at("fifo"), 0600) == 0);
	T_EQ_INT(pmk__infile_read(at("fifo"), 0, 0, &t, NULL, &d), PMK_EFORMAT);
	T_CHECK(strstr(d.message, "FIFO") != NULL);
	T_EQ_INT(pmk__infile_read(at("none"), 0, 0, &t, NULL, &d), PMK_ENOENT);
}

static void test_reader_streams_a_fifo_only_when_asked(void)
{
	pmk_diag d;
	int fd;
	mkfifo(at("fifo2"), 0600);
	fd = pmk__infile_open(at("fifo2"), 0, &d);
	T_CHECK(fd == PMK_EFORMAT);
	fd = pmk__infile_open(at("fifo2"), PMK__IN_STREAM, &d);
	T_CHECK(fd >= 0); /* no writer: the open did not block */
	if (fd >= 0) {
		T_CHECK((fcntl(fd, F_GETFL) & O_NONBLOCK) == 0);
		close(fd);
	}
}

static void test_reader_caps_and_finds_nul(void)
{
	char *t = NULL;
	size_t n = 0;
	pmk_diag d;
	FILE *f;
	put("ok", "a = 1\n");
	T_EQ_INT(pmk__infile_read(at("ok"), 0, 0, &t, &n, &d), 0);
	T_EQ_STR(t, "a = 1\n");
	T_EQ_U64(n, 6);
	free(t);
	T_EQ_INT(pmk__infile_read(at("ok"), 0, 5, &t, &n, &d), PMK_ERANGE);
	T_EQ_INT(pmk__infile_read(at("ok"), 0, 6, &t, &n, &d), 0);
	free(t);
	f = fopen(at("nul"), "w");
	T_ASSERT(f != NULL);
	fwrite("ab\ncd\0e", 1, 7, f);
	fclose(f);
	T_EQ_INT(pmk__infile_read(at("nul"), 0, 0, &t, &n, &d), PMK_EFORMAT);
	T_EQ_INT(d.line, 2);
	T_EQ_INT(d.column, 3);
	T_CHECK(strstr(d.message, "offset 5") != NULL);
	T_EQ_INT(pmk__infile_read(at("nul"), PMK__IN_BINARY, 0, &t, &n, &d), 0);
	T_EQ_U64(n, 7);
	free(t);
}

/* PMK_INPUT_MAX: a size is taken; anything else (junk, a sign, a size
 * that overflows once multiplied: 18014398509481985K wrapped to 1 KiB
 * before) is 0, and a read then fails naming the variable. */
static void test_input_max_from_the_environment(void)
{
	pmk_diag d;
	char *t = NULL;
	setenv("PMK_INPUT_MAX", "3K", 1);
	T_EQ_U64(pmk__infile_max(), 3072);
	setenv("PMK_INPUT_MAX", "junk", 1);
	T_EQ_U64(pmk__infile_max(), 0);
	setenv("PMK_INPUT_MAX", "-5", 1);
	T_EQ_U64(pmk__infile_max(), 0);
	setenv("PMK_INPUT_MAX", "18014398509481985K", 1);
	T_EQ_U64(pmk__infile_max(), 0);
	T_CHECK(pmk__infile_read(at("nul"), PMK__IN_BINARY, 0, &t, NULL, &d) < 0);
	T_CHECK(t == NULL);
	T_CHECK(strstr(d.message, "PMK_INPUT_MAX") != NULL);
	unsetenv("PMK_INPUT_MAX");
	T_EQ_U64(pmk__infile_max(), PMK__INFILE_MAX_DEFAULT);
}

/* A file of procfs (or sysfs, tracefs: trace_pipe never ends) is refused
 * by the whole-file reader at once, with a message; PMK__IN_PSEUDO lets a
 * caller that means it read one. */
static void test_reader_refuses_pseudo_files(void)
{
	pmk_diag d;
	char *t = NULL;
	T_CHECK(pmk__infile_read("/proc/self/status", 0, 0, &t, NULL, &d) < 0);
	T_CHECK(strstr(d.message, "procfs pseudo-file") != NULL);
	T_EQ_INT(pmk__infile_read("/proc/self/status", PMK__IN_PSEUDO, 0, &t,
				  NULL, &d),
		 0);
	T_CHECK(t && strstr(t, "Name:") != NULL);
	free(t);
}

/* Periods near 2^63 (a damaged or crafted record file): the sums hold at
 * their maximum instead of wrapping, so no row is above 100 % (two rows
 * read 150 % each before). */
static void test_report_sums_do_not_wrap(void)
{
	pmk_rec_writer *w;
	pmk_profile *p;
	const pmk_profile_row *rows;
	pmk_rec_event e;
	pmk_diag d;
	int n;
	T_ASSERT(pmk_rec_writer_open_ex(&w, at("ovf.rec"), "test",
					PMK_REC_NO_BACKUP, &d) == 0);
	memset(&e, 0, sizeof e);
	snprintf(e.name, sizeof e.name, "cpu-clock");
	e.type = 1;
	T_ASSERT(pmk_rec_write_event(w, &e) == 0);
	for (int i = 0; i < 4; i++) {
		pmk_sample s;
		memset(&s, 0, sizeof s);
		s.pid = s.tid = 1;
		s.ip = 0x1000 + 0x100 * (uint64_t)(i % 2);
		s.period = i < 2 ? 1ull << 63 : 1ull << 62;
		T_ASSERT(pmk_rec_write_sample(w, &s) == 0);
	}
	T_ASSERT(pmk_rec_writer_close(w) == 0);
	T_ASSERT(pmk_profile_load(&p, at("ovf.rec"), &d) == 0);
	T_ASSERT(pmk_profile_histogram(p, PMK_SORT_ADDRESS, &rows, &n) == 0);
	T_EQ_INT(n, 2);
	for (int i = 0; i < n; i++)
		T_CHECKF(rows[i].percent[0] <= 100.0, "row %d: %.1f %%", i,
			 rows[i].percent[0]);
	pmk_profile_free(p);
}

int main(void)
{
	char cmd[300];
	snprintf(dir, sizeof dir, "/tmp/pmk-files-XXXXXX");
	if (!mkdtemp(dir))
		return 1;
	T_RUN(test_commit_keeps_the_previous_file_as_old);
	T_RUN(test_abort_leaves_the_target_alone);
	T_RUN(test_no_backup_replaces_without_old);
	T_RUN(test_planted_link_target_is_never_written);
	T_RUN(test_publish_puts_the_file_in_place_early);
	T_RUN(test_devices_are_written_in_place_directories_refused);
	T_RUN(test_fifos_devices_and_old_directories_refused_first);
	T_RUN(test_private_files_are_0600);
	T_RUN(test_mode_follows_the_umask);
	T_RUN(test_reader_refuses_what_is_not_a_file);
	T_RUN(test_reader_streams_a_fifo_only_when_asked);
	T_RUN(test_reader_caps_and_finds_nul);
	T_RUN(test_input_max_from_the_environment);
	T_RUN(test_reader_refuses_pseudo_files);
	T_RUN(test_report_sums_do_not_wrap);
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	if (system(cmd) != 0)
		return 1;
	return t_done();
}
