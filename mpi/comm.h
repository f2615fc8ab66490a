/*
 * comm.h: the communication picture of an MPI job (issue 26, as IPM and
 * mpiP give it): who talks to whom, per function the shortest and longest
 * call and a histogram of message sizes, and the call sites. No MPI header
 * here: the record side (comm.c: kept per rank in a job, written to and
 * read from its JSON, merged and reported) is part of the CLI; the
 * counting side (commrank.c) is fed by the wrappers.
 *
 * Per rank, in the record's "comm" object (absent in older files: no
 * picture, nothing else changes):
 *   "to":[[dest,calls,bytes],...]  point-to-point sends by destination
 *        (rank in MPI_COMM_WORLD): MPI_Send, Ssend, Bsend, Rsend, Isend,
 *        Issend, the send half of Sendrecv(_replace); receives are the
 *        same pairs seen from the other end, not counted twice
 *   "coll":[calls,bytes]           collectives, any communicator: calls
 *        and the bytes this rank contributed (its "sent"), a column of
 *        their own, not spread over pairs (what a collective moves
 *        between which ranks is the MPI library's choice)
 *   "fn":[{"name":"MPI_Send","min_ns":..,"max_ns":..,
 *          "hist":[[bucket,calls],...]},...]
 *        bucket 0: calls with no bytes, k >= 1: [2^(k-1), 2^k) bytes (the
 *        call's sent bytes, else its received bytes); min and max over the
 *        calls timed
 *   "sites":[{"fn":"MPI_Send","at":"main (ring.c:42)","calls":..,
 *             "ns":..},...]
 *        the caller's return address per call, symbolized at
 *        MPI_Finalize (function, file:line with debug info, else
 *        DSO+offset)
 */
#ifndef PMK_MPI_COMM_H
#define PMK_MPI_COMM_H

#include <stdint.h>
#include <stdio.h>

#define PMK__MPI_HBUCKETS 48 /* up to 2^47 bytes: every int count of any type  \
			      */

struct pmk__mpi_peer {
	int rank;
	uint64_t calls, bytes;
};

struct pmk__mpi_fsize {
	char name[32];
	uint64_t min_ns, max_ns; /* over timed calls; min UINT64_MAX: none */
	uint64_t hist[PMK__MPI_HBUCKETS];
};

struct pmk__mpi_site {
	char fn[32];
	char at[160];
	uint64_t calls, ns;
};

struct pmk__mpi_comm {
	struct pmk__mpi_peer *to;
	int nto, cto;
	uint64_t coll_calls, coll_bytes;
	struct pmk__mpi_fsize *fs;
	int nfs, cfs;
	struct pmk__mpi_site *sites;
	int nsites, csites;
};

struct pmk__mpi_job;

struct pmk__mpi_comm *pmk__mpi_comm_new(void);
void pmk__mpi_comm_free(struct pmk__mpi_comm *c);
/* A deep copy (NULL for NULL or out of memory). */
struct pmk__mpi_comm *pmk__mpi_comm_dup(const struct pmk__mpi_comm *c);
/* Entries by key, added when new (NULL: no memory). */
struct pmk__mpi_peer *pmk__mpi_comm_peer(struct pmk__mpi_comm *c, int rank);
struct pmk__mpi_fsize *pmk__mpi_comm_fsize(struct pmk__mpi_comm *c,
					   const char *name);
struct pmk__mpi_site *pmk__mpi_comm_site(struct pmk__mpi_comm *c,
					 const char *fn, const char *at);
/* The bucket of a message of `bytes`. */
static inline int pmk__mpi_bucket(uint64_t bytes)
{
	int b = bytes ? 64 - __builtin_clzll(bytes) : 0;
	return b < PMK__MPI_HBUCKETS ? b : PMK__MPI_HBUCKETS - 1;
}

/* `,"comm":{...}` of a rank (nothing for NULL). */
void pmk__mpi_comm_json(FILE *f, const struct pmk__mpi_comm *c);

/*
 * The job's picture, merged over its ranks (comm.c). The matrix is
 * src x dst; a job without any "comm" has none (*n 0).
 */
/* Plain text: the top `top` pairs by bytes, collectives per rank, each
 * function's min/max and size histogram, the top call sites. Prints
 * nothing for a job without a picture. */
void pmk__mpi_comm_report(FILE *f, const struct pmk__mpi_job *job, int top);
/* The heat map of bytes sent, rank x rank (ranks grouped into at most
 * 128 bins past that), as a picture of its own; 0, or PMK_ENOENT when the
 * job has no picture. */
int pmk__mpi_comm_svg(FILE *f, const struct pmk__mpi_job *job);
/* For the HTML page: a heading, the heat map and the tables (nothing
 * without a picture). */
void pmk__mpi_comm_html(FILE *f, const struct pmk__mpi_job *job);

#endif
