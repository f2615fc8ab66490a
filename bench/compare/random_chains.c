/*
 * random_chains.c: writes a record file of samples whose call chains are
 * random addresses, through pmkit's own writer API, for the growth
 * benchmark of `pmkit report` (bench/growth/report.sh, issue 31): almost
 * every chain entry is an address seen once, so the file's distinct
 * addresses grow with its size, the shape that cost 385 bytes of memory
 * per distinct address.
 *
 *   build/bench/random_chains -o FILE [-n SAMPLES] [-d DEPTH] [-s SEED]
 *
 * One process (pid 4242), one event (cpu-clock), one executable map of a
 * file that does not exist (so nothing is symbolized from disk: the
 * benchmark measures aggregation, not DWARF), SAMPLES samples (default
 * 100,000) each with DEPTH frames (default 16) drawn from the map's 1 GiB.
 * Prints the number of samples and distinct addresses written at most.
 * It does not measure anything itself.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmkit.h"

static uint64_t rng = 0x2545f4914f6cdd1dull;
static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

int main(int argc, char **argv)
{
	const char *out = NULL;
	long n = 100000, depth = 16;
	const uint64_t base = 0x400000, span = 1ull << 30;
	pmk_rec_writer *w;
	pmk_rec_event ev;
	pmk_rec_map m;
	pmk_rec_comm c;
	pmk_diag d;
	uint64_t chain[128];

	for (int i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "-o"))
			out = argv[i + 1];
		else if (!strcmp(argv[i], "-n"))
			n = atol(argv[i + 1]);
		else if (!strcmp(argv[i], "-d"))
			depth = atol(argv[i + 1]);
		else if (!strcmp(argv[i], "-s"))
			rng = strtoull(argv[i + 1], NULL, 0) | 1;
	}
	if (!out || n < 0 || depth < 1 || depth > 128) {
		fprintf(stderr, "usage: random_chains -o FILE [-n SAMPLES] "
				"[-d DEPTH 1..128] [-s SEED]\n");
		return 2;
	}
	if (pmk_rec_writer_open_ex(&w, out, "random_chains", PMK_REC_NO_BACKUP,
				   &d)) {
		fprintf(stderr, "error: '%s': %s\n", out, d.message);
		return 1;
	}
	memset(&ev, 0, sizeof ev);
	ev.type = 1; /* PERF_TYPE_SOFTWARE */
	ev.period = 10000;
	snprintf(ev.name, sizeof ev.name, "cpu-clock");
	pmk_rec_write_event(w, &ev);
	memset(&c, 0, sizeof c);
	c.pid = c.tid = 4242;
	c.exec = 1;
	snprintf(c.comm, sizeof c.comm, "random");
	pmk_rec_write_comm(w, &c);
	memset(&m, 0, sizeof m);
	m.pid = 4242;
	m.start = base;
	m.len = span;
	m.prot = 5; /* PROT_READ | PROT_EXEC */
	snprintf(m.path, sizeof m.path, "/nonexistent/random_chains.bin");
	pmk_rec_write_map(w, &m);
	for (long i = 0; i < n; i++) {
		pmk_sample s;
		memset(&s, 0, sizeof s);
		for (long k = 0; k < depth; k++)
			chain[k] = base + next() % span;
		s.ip = chain[0];
		s.pid = s.tid = 4242;
		s.time_ns = (uint64_t)i * 100000;
		s.period = 10000;
		s.nchain = (uint32_t)depth;
		s.chain = chain;
		if (pmk_rec_write_sample(w, &s)) {
			fprintf(stderr, "error: '%s': write failed\n", out);
			pmk_rec_writer_abort(w);
			return 1;
		}
	}
	if (pmk_rec_writer_close(w)) {
		fprintf(stderr, "error: '%s': write failed\n", out);
		return 1;
	}
	printf("%ld samples, %ld addresses\n", n, n * depth);
	return 0;
}
