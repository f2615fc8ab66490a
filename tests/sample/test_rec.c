/*
 * test_rec.c: the record-file writer and reader (every kind round-trips,
 * a truncated file reads up to its last whole record, damaged headers and
 * records are refused with a message), and profiles built from synthetic
 * record files (maps resolve PIE addresses through the recorded maps to the
 * right function; fork parents supply maps; histograms, folded stacks and
 * JSON agree with the samples written).
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pmkit.h"
#include "tests/support/t.h"

static char path[256];

__attribute__((noinline)) int t_func_alpha(int x)
{
	return x * 3 + 1;
}
__attribute__((noinline)) int t_func_beta(int x)
{
	return x * 5 + 2;
}

static void tmp_path(const char *tag)
{
	snprintf(path, sizeof path, "/tmp/pmk_test_rec_%d_%s", (int)getpid(),
		 tag);
}

static unsigned char *slurp(const char *p, size_t *n)
{
	FILE *f = fopen(p, "rb");
	unsigned char *b;
	long len;
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	fseek(f, 0, SEEK_SET);
	b = malloc((size_t)len + 1);
	if (b && fread(b, 1, (size_t)len, f) != (size_t)len) {
		free(b);
		b = NULL;
	}
	fclose(f);
	*n = (size_t)len;
	return b;
}

/* Write one of each kind; return the file size. */
static void write_all_kinds(void)
{
	pmk_rec_writer *w;
	pmk_diag d;
	pmk_rec_event e = {
	    .index = 0, .type = 1, .config = 0, .period = 4000, .freq = 1};
	pmk_rec_map m;
	pmk_rec_comm c = {.pid = 10, .tid = 10, .exec = 1, .time_ns = 5};
	pmk_rec_task fk = {.pid = 11, .tid = 11, .ppid = 10, .ptid = 10};
	pmk_rec_finish fin = {.status = 3, .samples = 2, .lost = 7};
	uint64_t chain[3] = {0x1010, 0x2020, 0x3030};
	pmk_sample s = {.event = 0,
			.ip = 0x1010,
			.pid = 10,
			.tid = 12,
			.time_ns = 99,
			.period = 250000,
			.cpu = 1,
			.nchain = 3,
			.chain = chain};
	snprintf(e.name, sizeof e.name, "cpu-clock");
	snprintf(c.comm, sizeof c.comm, "prog");
	memset(&m, 0, sizeof m);
	m.pid = 10;
	m.start = 0x1000;
	m.len = 0x3000;
	m.pgoff = 0;
	m.build_id_len = 4;
	memcpy(m.build_id, "\x01\x02\x03\x04", 4);
	snprintf(m.path, sizeof m.path, "/nonexistent/prog");
	T_ASSERT(pmk_rec_writer_open(&w, path, "test", &d) == 0);
	T_EQ_INT(pmk_rec_write_event(w, &e), 0);
	T_EQ_INT(pmk_rec_write_comm(w, &c), 0);
	T_EQ_INT(pmk_rec_write_map(w, &m), 0);
	T_EQ_INT(pmk_rec_write_fork(w, &fk), 0);
	T_EQ_INT(pmk_rec_write_sample(w, &s), 0);
	s.nchain = 0;
	s.flags = PMK_SAMPLE_HAS_ADDR;
	s.addr = 0xdead0;
	T_EQ_INT(pmk_rec_write_sample(w, &s), 0);
	T_EQ_INT(pmk_rec_write_exit(w, &fk), 0);
	T_EQ_INT(pmk_rec_write_lost(w, 0, 7), 0);
	T_EQ_INT(pmk_rec_write_finish(w, &fin), 0);
	T_EQ_INT(pmk_rec_writer_samples(w), 2);
	T_EQ_INT(pmk_rec_writer_close(w), 0);
}

static void test_roundtrip_every_kind(void)
{
	pmk_rec_reader *r;
	pmk_rec_item it;
	pmk_diag d;
	int kinds[16] = {0}, n = 0, rc;
	tmp_path("rt");
	write_all_kinds();
	T_ASSERT(pmk_rec_reader_open(&r, path, &d) == 0);
	T_EQ_STR(pmk_rec_reader_producer(r), "test");
	while ((rc = pmk_rec_next(r, &it, &d)) == 1) {
		n++;
		kinds[it.kind]++;
		if (it.kind == PMK_REC_SAMPLE && it.u.sample.nchain) {
			T_EQ_U64(it.u.sample.ip, 0x1010);
			T_EQ_INT(it.u.sample.tid, 12);
			T_EQ_U64(it.u.sample.period, 250000);
			T_EQ_INT(it.u.sample.cpu, 1);
			T_EQ_INT(it.u.sample.nchain, 3);
			T_EQ_U64(it.u.sample.chain[2], 0x3030);
		} else if (it.kind == PMK_REC_SAMPLE) {
			T_EQ_U64(it.u.sample.addr, 0xdead0);
			T_CHECK(it.u.sample.flags & PMK_SAMPLE_HAS_ADDR);
		} else if (it.kind == PMK_REC_MAP) {
			T_EQ_STR(it.u.map.path, "/nonexistent/prog");
			T_EQ_INT(it.u.map.build_id_len, 4);
			T_EQ_U64(it.u.map.len, 0x3000);
		} else if (it.kind == PMK_REC_EVENT) {
			T_EQ_STR(it.u.event.name, "cpu-clock");
		} else if (it.kind == PMK_REC_COMM) {
			T_EQ_STR(it.u.comm.comm, "prog");
			T_EQ_INT(it.u.comm.exec, 1);
		} else if (it.kind == PMK_REC_FINISH) {
			T_EQ_INT(it.u.finish.status, 3);
		} else if (it.kind == PMK_REC_FORK) {
			T_EQ_INT(it.u.task.ppid, 10);
		}
	}
	T_EQ_INT(rc, 0);
	T_EQ_INT(n, 9);
	T_EQ_INT(kinds[PMK_REC_SAMPLE], 2);
	T_EQ_INT(pmk_rec_reader_truncated(r), 0);
	pmk_rec_reader_close(r);
	unlink(path);
}

/* Cutting the file anywhere after the header loses only the cut record. */
static void test_truncation_anywhere(void)
{
	size_t n, hdr = 0;
	unsigned char *buf;
	tmp_path("tr");
	write_all_kinds();
	buf = slurp(path, &n);
	T_ASSERT(buf != NULL);
	memcpy(&hdr, buf + 12, 4);
	for (size_t cut = 0; cut <= n; cut++) {
		pmk_rec_reader *r;
		pmk_rec_item it;
		pmk_diag d;
		int rc = pmk_rec_reader_open_mem(&r, buf, cut, &d);
		if (cut < hdr) {
			T_CHECKF(rc == PMK_EFORMAT, "cut %zu opened", cut);
			T_CHECK(d.message[0] != 0);
			continue;
		}
		T_ASSERT(rc == 0);
		while ((rc = pmk_rec_next(r, &it, &d)) == 1)
			;
		T_CHECKF(rc == 0, "cut at %zu: %s", cut, d.message);
		pmk_rec_reader_close(r);
	}
	free(buf);
	unlink(path);
}

static void test_bad_files(void)
{
	pmk_rec_reader *r;
	pmk_rec_item it;
	pmk_diag d;
	size_t n;
	unsigned char *buf;
	T_EQ_INT(pmk_rec_reader_open_mem(&r, "", 0, &d), PMK_EFORMAT);
	T_CHECK(strstr(d.message, "empty") != NULL);
	T_EQ_INT(pmk_rec_reader_open_mem(&r,
					 "hello world, not a record file"
					 "................",
					 46, &d),
		 PMK_EFORMAT);
	T_CHECK(strstr(d.message, "not a pmkit record file") != NULL);
	T_EQ_INT(pmk_rec_reader_open(&r, "/nonexistent/x.rec", &d), PMK_ENOENT);
	tmp_path("bad");
	write_all_kinds();
	buf = slurp(path, &n);
	T_ASSERT(buf != NULL);
	buf[8] = 99; /* version */
	T_EQ_INT(pmk_rec_reader_open_mem(&r, buf, n, &d), PMK_EVERSION);
	T_CHECK(strstr(d.message, "version 99") != NULL);
	buf[8] = 1;
	{
		uint32_t hs;
		memcpy(&hs, buf + 12, 4);
		buf[hs + 4] = 3; /* first record's size: not a multiple of 8 */
		T_ASSERT(pmk_rec_reader_open_mem(&r, buf, n, &d) == 0);
		T_EQ_INT(pmk_rec_next(r, &it, &d), PMK_EFORMAT);
		T_CHECK(strstr(d.message, "bad record size") != NULL);
		pmk_rec_reader_close(r);
	}
	free(buf);
	unlink(path);
}

/* A synthetic profile of this very program: samples at the addresses of two
 * functions, mapped as the kernel would map a PIE. */
static int find_exec_map(uint64_t *start, uint64_t *end, uint64_t *off,
			 char *exe, size_t exelen)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[4352];
	uint64_t fa = (uint64_t)(uintptr_t)&t_func_alpha;
	ssize_t k = readlink("/proc/self/exe", exe, exelen - 1);
	if (!f || k <= 0)
		return -1;
	exe[k] = 0;
	while (fgets(line, sizeof line, f)) {
		unsigned long long a, b, o;
		char perms[8];
		if (sscanf(line, "%llx-%llx %7s %llx", &a, &b, perms, &o) != 4)
			continue;
		if (fa >= a && fa < b) {
			*start = a;
			*end = b;
			*off = o;
			fclose(f);
			return 0;
		}
	}
	fclose(f);
	return -1;
}

static void test_profile_resolves_through_maps(void)
{
	pmk_rec_writer *w;
	pmk_diag d;
	pmk_rec_event e = {.index = 0, .type = 1, .period = 1000};
	pmk_rec_map m;
	pmk_rec_task fk = {.pid = 200, .tid = 200, .ppid = 100, .ptid = 100};
	pmk_profile *p;
	pmk_profile_stats st;
	const pmk_profile_row *rows;
	int nrows;
	uint64_t a = (uint64_t)(uintptr_t)&t_func_alpha,
		 b = (uint64_t)(uintptr_t)&t_func_beta, chain[2];
	char exe[4096];
	FILE *out;
	char *text = NULL;
	size_t tlen = 0;
	if (!pmk_profile_can_symbolize())
		T_SKIP("built without elfutils");
	memset(&m, 0, sizeof m);
	T_ASSERT(find_exec_map(&m.start, &m.len, &m.pgoff, exe, sizeof exe) ==
		 0);
	m.len -= m.start;
	m.pid = 100;
	snprintf(m.path, sizeof m.path, "%s", exe);
	pmk_rec_map_identify(&m);
	T_CHECK(m.size > 0);
	snprintf(e.name, sizeof e.name, "cpu-clock");
	tmp_path("prof");
	T_ASSERT(pmk_rec_writer_open(&w, path, "test", &d) == 0);
	pmk_rec_write_event(w, &e);
	pmk_rec_write_map(w, &m);
	pmk_rec_write_fork(w, &fk);
	for (int i = 0; i < 100; i++) {
		/* 80 in alpha (process 100), 20 in beta (its child 200,
		 * which has no maps of its own) with a stack beta<-alpha */
		pmk_sample s = {
		    .event = 0, .period = 1000, .pid = 100, .tid = 100};
		if (i < 80) {
			s.ip = a + 1;
		} else {
			s.ip = b + 1;
			s.pid = s.tid = 200;
			chain[0] = b + 1;
			chain[1] = a + 2;
			s.chain = chain;
			s.nchain = 2;
		}
		pmk_rec_write_sample(w, &s);
	}
	T_ASSERT(pmk_rec_writer_close(w) == 0);

	T_ASSERT(pmk_profile_load(&p, path, &d) == 0);
	pmk_profile_stats_get(p, &st);
	T_EQ_INT(st.samples[0], 100);
	T_EQ_INT(st.unresolved, 0);
	T_ASSERT(pmk_profile_histogram(p, PMK_SORT_FUNCTION, &rows, &nrows) ==
		 0);
	T_ASSERT(nrows == 2);
	T_EQ_STR(rows[0].key, "t_func_alpha");
	T_NEAR(rows[0].percent[0], 80.0, 1e-9);
	T_EQ_STR(rows[1].key, "t_func_beta");
	T_EQ_INT(rows[1].samples[0], 20);
	pmk_profile_stats_get(p, &st);
	T_EQ_INT(st.dsos_opened, 1);
	T_EQ_INT(st.dsos_changed, 0);
	T_ASSERT(pmk_profile_histogram(p, PMK_SORT_LINE, &rows, &nrows) == 0);
	T_CHECKF(strstr(rows[0].key, "test_rec.c:") != NULL, "line key %s",
		 rows[0].key);
	out = open_memstream(&text, &tlen);
	T_ASSERT(out != NULL);
	T_EQ_INT(pmk_profile_print_folded(p, NULL, out), 0);
	fclose(out);
	T_CHECKF(strstr(text, "t_func_alpha;t_func_beta 20\n") != NULL,
		 "folded: %s", text);
	T_CHECKF(strstr(text, "t_func_alpha 80\n") != NULL, "folded: %s", text);
	free(text);
	text = NULL;
	out = open_memstream(&text, &tlen);
	T_EQ_INT(pmk_profile_print(p, PMK_SORT_FUNCTION, 1, out), 0);
	fclose(out);
	T_CHECK(strstr(text, "\"key\": \"t_func_alpha\"") != NULL);
	T_CHECK(strstr(text, "\"percent\": [80.0000]") != NULL);
	free(text);
	pmk_profile_free(p);
	unlink(path);
}

static void test_event_lookup(void)
{
	pmk_attr a;
	pmk_diag d;
	T_EQ_INT(pmk_sample_event_lookup("cpu-clock", &a, &d), 0);
	T_EQ_INT(a.type, PMK_TYPE_SOFTWARE);
	T_EQ_INT(a.config, 0);
	T_EQ_INT(pmk_sample_event_lookup("instructions:upp", &a, &d), 0);
	T_EQ_INT(a.type, PMK_TYPE_HARDWARE);
	T_EQ_INT(a.precise_ip, 2);
	T_EQ_INT(a.exclude_kernel, 1);
	T_EQ_INT(a.exclude_user, 0);
	T_EQ_INT(pmk_sample_event_lookup("r1c0", &a, &d), 0);
	T_EQ_U64(a.config, 0x1c0);
	T_EQ_INT(pmk_sample_event_lookup("nosuch", &a, &d), PMK_ENOEVENT);
	T_EQ_INT(d.column, 1);
	T_EQ_INT(pmk_sample_event_lookup("cycles:x", &a, &d), PMK_ENOEVENT);
	T_EQ_INT(d.column, 8);
}

/* A sample's user registers and stack copy come back as written; a stack
 * length past the record's end is an error, not a read out of bounds. */
static void test_user_stack_roundtrip_and_bounds(void)
{
	pmk_rec_writer *w;
	pmk_rec_reader *r;
	pmk_rec_item it;
	pmk_rec_event e;
	pmk_sample s;
	pmk_diag d;
	uint64_t regs[17];
	uint8_t stack[40];
	unsigned char *buf;
	size_t n;
	int rc, seen = 0;
	tmp_path("us");
	memset(&e, 0, sizeof e);
	snprintf(e.name, sizeof e.name, "cpu-clock");
	memset(&s, 0, sizeof s);
	for (int i = 0; i < 17; i++)
		regs[i] = 0x1000u + (uint64_t)i;
	for (int i = 0; i < 40; i++)
		stack[i] = (uint8_t)(i * 7);
	s.ip = 0x1010;
	s.pid = s.tid = 5;
	s.flags = PMK_SAMPLE_HAS_USTACK;
	s.uarch = 62;
	s.nuregs = 17;
	s.uregs = regs;
	s.ustack_len = 37; /* not a multiple of 8: padded in the file */
	s.ustack = stack;
	T_ASSERT(pmk_rec_writer_open(&w, path, "test", &d) == 0);
	T_EQ_INT(pmk_rec_write_event(w, &e), 0);
	T_EQ_INT(pmk_rec_write_sample(w, &s), 0);
	s.nuregs = PMK_REC_MAX_UREGS + 1;
	T_EQ_INT(pmk_rec_write_sample(w, &s), PMK_ERANGE);
	T_EQ_INT(pmk_rec_writer_close(w), 0);
	T_ASSERT(pmk_rec_reader_open(&r, path, &d) == 0);
	while ((rc = pmk_rec_next(r, &it, &d)) == 1) {
		const pmk_sample *g = &it.u.sample;
		if (it.kind != PMK_REC_SAMPLE)
			continue;
		seen++;
		T_CHECK(g->flags & PMK_SAMPLE_HAS_USTACK);
		T_EQ_INT(g->uarch, 62);
		T_EQ_INT(g->nuregs, 17);
		T_EQ_INT(g->ustack_len, 37);
		T_CHECK(g->uregs && g->uregs[16] == 0x1010);
		T_CHECK(g->ustack && !memcmp(g->ustack, stack, 37));
	}
	T_EQ_INT(rc, 0);
	T_EQ_INT(seen, 1);
	pmk_rec_reader_close(r);
	/* the stack length field of the sample (after its 56 fixed bytes and
	 * no chain: +8 in the extension) made larger than the record */
	buf = slurp(path, &n);
	T_ASSERT(buf != NULL);
	uint32_t hdr;
	memcpy(&hdr, buf + 12, 4);
	for (size_t off = hdr; off + 8 <= n; off += 8) {
		uint32_t kind, size;
		memcpy(&kind, buf + off, 4);
		memcpy(&size, buf + off + 4, 4);
		if (kind == PMK_REC_SAMPLE) {
			uint32_t big = 4096;
			memcpy(buf + off + 8 + 56 + 8, &big, 4);
			break;
		}
		if (size < 8)
			break;
		off += size - 8;
	}
	T_ASSERT(pmk_rec_reader_open_mem(&r, buf, n, &d) == 0);
	while ((rc = pmk_rec_next(r, &it, &d)) == 1)
		;
	T_EQ_INT(rc, PMK_EFORMAT);
	T_CHECK(strstr(d.message, "bad user stack length") != NULL);
	pmk_rec_reader_close(r);
	free(buf);
	unlink(path);
}

int main(void)
{
	T_RUN(test_roundtrip_every_kind);
	T_RUN(test_truncation_anywhere);
	T_RUN(test_bad_files);
	T_RUN(test_profile_resolves_through_maps);
	T_RUN(test_event_lookup);
	T_RUN(test_user_stack_roundtrip_and_bounds);
	return t_done();
}
