/*
 * pmpi.c: libpmkit-mpi's C entry points. Each MPI function here times the
 * call to its PMPI_ twin and counts it (rank.h); MPI_Init starts the
 * measurement, MPI_Pcontrol opens and closes regions, and MPI_Finalize
 * gathers every rank's record to rank 0 over a duplicate of
 * MPI_COMM_WORLD before the real PMPI_Finalize.
 *
 * Bytes: a send counts count x type size; MPI_Recv and MPI_Sendrecv what
 * arrived (from the status); MPI_Irecv the size of the posted buffer.
 * Collectives count this rank's buffers: what it contributes as sent and
 * what it gets as received (the root of a gather receives every rank's
 * part, MPI_IN_PLACE counts nothing for that side).
 *
 * With the library preloaded into a program that never calls MPI_Init,
 * nothing is measured and a note is printed at exit, once per job.
 */
#include <limits.h>
#include <mpi.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "mpi/rank.h"
#include "pmkit.h"

uint64_t pmk__mpi_tbytes(int count, MPI_Datatype t) PMK__MPI_HIDDEN;
uint64_t pmk__mpi_status_bytes(const MPI_Status *st) PMK__MPI_HIDDEN;

/* Type sizes without a call into MPI on the wrappers' path: the
 * predefined datatypes' sizes, asked once at MPI_Init, in a small
 * open-addressing table keyed by the handle. A handle not in it (a derived
 * type, which may be freed and its handle reused for another) is asked of
 * PMPI_Type_size at every call. */
#define TSIZE_SLOTS 128 /* a power of 2, well above the predefined types */
_Static_assert(sizeof(MPI_Datatype) <= sizeof(uint64_t), "datatype handle");
static struct {
	uint64_t key;
	int size; /* 0: empty */
} tsize[TSIZE_SLOTS];

static uint64_t tkey(MPI_Datatype t)
{
	uint64_t k = 0;
	memcpy(&k, &t, sizeof t);
	return k;
}

static unsigned tslot(uint64_t k)
{
	return (unsigned)((k * 0x9e3779b97f4a7c15u) >> 57) & (TSIZE_SLOTS - 1);
}

static void tsize_add(MPI_Datatype t)
{
	uint64_t k = tkey(t);
	int s;
	if (t == MPI_DATATYPE_NULL || PMPI_Type_size(t, &s) != MPI_SUCCESS ||
	    s <= 0)
		return;
	for (unsigned i = tslot(k), n = 0; n < TSIZE_SLOTS;
	     i = (i + 1) & (TSIZE_SLOTS - 1), n++) {
		if (tsize[i].size && tsize[i].key == k)
			return;
		if (!tsize[i].size) {
			tsize[i].key = k;
			tsize[i].size = s;
			return;
		}
	}
}

static void tsize_init(void)
{
	const MPI_Datatype pre[] = {
		MPI_CHAR, MPI_SIGNED_CHAR, MPI_UNSIGNED_CHAR, MPI_BYTE,
		MPI_WCHAR, MPI_SHORT, MPI_UNSIGNED_SHORT, MPI_INT, MPI_UNSIGNED,
		MPI_LONG, MPI_UNSIGNED_LONG, MPI_LONG_LONG_INT,
		MPI_UNSIGNED_LONG_LONG, MPI_FLOAT, MPI_DOUBLE, MPI_LONG_DOUBLE,
		MPI_C_BOOL, MPI_INT8_T, MPI_INT16_T, MPI_INT32_T, MPI_INT64_T,
		MPI_UINT8_T, MPI_UINT16_T, MPI_UINT32_T, MPI_UINT64_T,
		MPI_C_FLOAT_COMPLEX, MPI_C_DOUBLE_COMPLEX, MPI_AINT, MPI_OFFSET,
		MPI_PACKED, MPI_FLOAT_INT, MPI_DOUBLE_INT, MPI_LONG_INT,
		MPI_2INT, MPI_SHORT_INT, MPI_LONG_DOUBLE_INT, MPI_INTEGER,
		MPI_REAL, MPI_DOUBLE_PRECISION, MPI_COMPLEX,
		MPI_DOUBLE_COMPLEX, MPI_LOGICAL, MPI_CHARACTER, MPI_2INTEGER,
		MPI_2REAL, MPI_2DOUBLE_PRECISION,
	};
	for (size_t i = 0; i < sizeof pre / sizeof pre[0]; i++)
		tsize_add(pre[i]);
}

/* The slot of the predefined type found last: a send loop with one type
 * finds it with one comparison, inline. The table does not change after
 * MPI_Init, so a slot read by one thread while another writes it is still
 * a right one. */
static unsigned tsize_last;

/* count x the size of t, in bytes (also for the Fortran wrappers) */
uint64_t pmk__mpi_tbytes(int count, MPI_Datatype t)
{
	uint64_t k = tkey(t);
	int s;
	if (count <= 0)
		return 0;
	for (unsigned i = tslot(k), n = 0; n < TSIZE_SLOTS && tsize[i].size;
	     i = (i + 1) & (TSIZE_SLOTS - 1), n++)
		if (tsize[i].key == k) {
			__atomic_store_n(&tsize_last, i, __ATOMIC_RELAXED);
			return (uint64_t)count * (uint64_t)tsize[i].size;
		}
	if (PMPI_Type_size(t, &s) != MPI_SUCCESS || s <= 0)
		return 0;
	return (uint64_t)count * (uint64_t)s;
}
static inline uint64_t tbytes(int count, MPI_Datatype t)
{
	unsigned i = __atomic_load_n(&tsize_last, __ATOMIC_RELAXED);
	if (count > 0 && tsize[i].size && tsize[i].key == tkey(t))
		return (uint64_t)count * (uint64_t)tsize[i].size;
	return pmk__mpi_tbytes(count, t);
}

/* What a receive brought, from its status. Open MPI keeps the byte count
 * in the status itself (what its MPI_Get_count divides by the type size),
 * so it is read there; elsewhere MPI_Get_count in bytes. */
uint64_t pmk__mpi_status_bytes(const MPI_Status *st)
{
#if defined(OPEN_MPI) && OPEN_MPI && defined(OMPI_MAJOR_VERSION) &&            \
	OMPI_MAJOR_VERSION >= 2 && OMPI_MAJOR_VERSION <= 5
	return (uint64_t)st->_ucount;
#else
	int n;
	if (PMPI_Get_count(st, MPI_BYTE, &n) != MPI_SUCCESS || n < 0)
		return 0;
	return (uint64_t)n;
#endif
}
static inline uint64_t status_bytes(const MPI_Status *st)
{
	return pmk__mpi_status_bytes(st);
}

static int comm_size(MPI_Comm c)
{
	int n = 0;
	PMPI_Comm_size(c, &n);
	return n;
}

static int comm_rank(MPI_Comm c)
{
	int n = 0;
	PMPI_Comm_rank(c, &n);
	return n;
}

static uint64_t sum_counts(const int *counts, int n, MPI_Datatype t)
{
	uint64_t s = 0;
	for (int i = 0; counts && i < n; i++)
		s += tbytes(counts[i], t);
	return s;
}

/* A point-to-point destination as a rank of MPI_COMM_WORLD (for who
 * talks to whom; also for the Fortran wrappers): the rank itself in
 * MPI_COMM_WORLD, else through the communicator's group (its remote group
 * for an intercommunicator), translated once and kept for the last few
 * communicators (MPI_Comm_free forgets them: a handle may be reused;
 * under MPI_THREAD_MULTIPLE the cache is used under a spin lock).
 * -1: none (MPI_PROC_NULL, an error). */
int pmk__mpi_world_rank(int dest, MPI_Comm comm) PMK__MPI_HIDDEN;
#define XLATE_SLOTS 8
static struct xlate {
	MPI_Comm comm; /* MPI_COMM_NULL: empty */
	int n;
	int *world;
} xlate[XLATE_SLOTS];
static unsigned xlate_next;
static int xlate_lock;

static int xl_lock(void)
{
	int threads = pmk__mpi_mode == PMK__MPI_THREADS;
	if (threads)
		while (__atomic_exchange_n(&xlate_lock, 1, __ATOMIC_ACQUIRE))
			;
	return threads;
}
static void xl_unlock(int threads)
{
	if (threads)
		__atomic_store_n(&xlate_lock, 0, __ATOMIC_RELEASE);
}

static void xlate_forget(MPI_Comm comm)
{
	for (int i = 0; i < XLATE_SLOTS; i++)
		if (xlate[i].world && xlate[i].comm == comm) {
			free(xlate[i].world);
			xlate[i].world = NULL;
			xlate[i].comm = MPI_COMM_NULL;
		}
}

/* The ranks in MPI_COMM_WORLD of group `g`'s members, in their order (-1
 * for one outside it), in a new array of *n; NULL when out of memory. */
int *pmk__mpi_group_world(MPI_Group g, int *n) PMK__MPI_HIDDEN;
int *pmk__mpi_group_world(MPI_Group g, int *n)
{
	MPI_Group w;
	int *ranks, *world;
	PMPI_Comm_group(MPI_COMM_WORLD, &w);
	PMPI_Group_size(g, n);
	ranks = malloc(sizeof *ranks * (size_t)(*n > 0 ? *n : 1));
	world = malloc(sizeof *world * (size_t)(*n > 0 ? *n : 1));
	if (ranks && world) {
		for (int i = 0; i < *n; i++)
			ranks[i] = i;
		PMPI_Group_translate_ranks(g, *n, ranks, w, world);
		for (int i = 0; i < *n; i++)
			if (world[i] == MPI_UNDEFINED)
				world[i] = -1;
	} else {
		free(world);
		world = NULL;
	}
	free(ranks);
	PMPI_Group_free(&w);
	return world;
}

static int world_rank(int dest, MPI_Comm comm);
int pmk__mpi_world_rank(int dest, MPI_Comm comm)
{
	int t, w;
	if (dest < 0)
		return -1;
	if (comm == MPI_COMM_WORLD)
		return dest;
	t = xl_lock();
	w = world_rank(dest, comm);
	xl_unlock(t);
	return w;
}

static int world_rank(int dest, MPI_Comm comm)
{
	struct xlate *x;
	MPI_Group g;
	int inter = 0;
	if (dest < 0)
		return -1;
	if (comm == MPI_COMM_WORLD)
		return dest;
	for (int i = 0; i < XLATE_SLOTS; i++)
		if (xlate[i].world && xlate[i].comm == comm)
			return dest < xlate[i].n ? xlate[i].world[dest] : -1;
	x = &xlate[xlate_next++ % XLATE_SLOTS];
	free(x->world);
	x->world = NULL;
	PMPI_Comm_test_inter(comm, &inter);
	if ((inter ? PMPI_Comm_remote_group(comm, &g) : PMPI_Comm_group(comm, &g)) !=
	    MPI_SUCCESS)
		return -1;
	x->world = pmk__mpi_group_world(g, &x->n);
	if (x->world)
		x->comm = comm;
	PMPI_Group_free(&g);
	return x->world && dest < x->n ? x->world[dest] : -1;
}

int MPI_Comm_free(MPI_Comm *comm)
{
	if (comm) {
		int t = xl_lock();
		xlate_forget(*comm);
		xl_unlock(t);
	}
	return PMPI_Comm_free(comm);
}

/* Inside a measured call (pmk_on_): count a send to `dest` of `comm`;
 * on MPI_COMM_WORLD in a call timed inline (rank.h: one thread in MPI at
 * a time) inline too, without a call. The senders call it before their
 * call, where it costs a ping-pong nothing (docs/mpi.md, Overhead: after
 * the send's return, two calls here cost it 9 ns). */
#define COUNT_SEND(dest, comm, bytes)                                          \
	if (pmk_on_) {                                                         \
		if (pmk_on_ == 3 && (comm) == MPI_COMM_WORLD)                  \
			pmk__mpi_comm_send_fast(dest, bytes);                  \
		else                                                           \
			pmk__mpi_comm_send(pmk__mpi_world_rank(dest, comm),    \
					   bytes);                             \
	}

/* ---- init, finalize, regions ------------------------------------------ */

void pmk__mpi_after_init(int provided)
{
	char host[MPI_MAX_PROCESSOR_NAME + 1] = "";
	int rank = 0, size = 1, len = 0;
	pmk__mpi_init_seen = 1;
	if (pmk__mpi_on)
		return;
	tsize_init();
	PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
	PMPI_Comm_size(MPI_COMM_WORLD, &size);
	if (PMPI_Get_processor_name(host, &len) != MPI_SUCCESS)
		gethostname(host, sizeof host - 1);
	pmk__mpi_start(rank, size, host);
	if (provided == MPI_THREAD_MULTIPLE)
		pmk__mpi_timing_exact();
	pmk__mpi_lastword_arm(rank);
}

int MPI_Init(int *argc, char ***argv)
{
	int rc = PMPI_Init(argc, argv);
	if (rc == MPI_SUCCESS)
		pmk__mpi_after_init(MPI_THREAD_SINGLE);
	return rc;
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
	int rc = PMPI_Init_thread(argc, argv, required, provided);
	if (rc == MPI_SUCCESS)
		pmk__mpi_after_init(*provided);
	return rc;
}

int MPI_Pcontrol(const int level, ...)
{
	const char *name = NULL;
	va_list ap;
	if (level == 1 || level == -1) {
		va_start(ap, level);
		name = va_arg(ap, const char *);
		va_end(ap);
	}
	pmk__mpi_pcontrol(level, name);
	return PMPI_Pcontrol(level);
}

/* The command line of this process, for the banner. */
static void command_line(char *out, size_t size)
{
	FILE *f = fopen("/proc/self/cmdline", "r");
	size_t n = 0;
	int c;
	out[0] = 0;
	if (!f)
		return;
	while ((c = getc(f)) != EOF && n + 1 < size)
		out[n++] = c ? (char)c : ' ';
	fclose(f);
	while (n > 0 && out[n - 1] == ' ')
		n--;
	out[n] = 0;
}

static void write_rank_file(const char *dir, int rank, const char *text,
			    size_t len)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/pmkit-mpi.%d.json", dir, rank);
	pmk_diag d;
	if (pmk__mpi_write_file(path, text, len, &d) != 0)
		pmk__mpi_note("warning: %s", d.message);
}

/* Rank 0: the records of every rank into one job; the banner, the file. */
static void summarize(const char *all, const int *lens, const int *displs,
		      int size, uint64_t t_start)
{
	struct pmk__mpi_job job = {0};
	const char *out = getenv("PMKIT_MPI_OUTPUT");
	const char *banner = getenv("PMKIT_MPI_BANNER");
	char err[160];
	char *text = NULL;
	size_t len = 0;
	FILE *m;
	int bad = 0;
	if (pmk__mpi_job_init(&job, size) != 0)
		return;
	for (int r = 0; r < size; r++)
		if (lens[r] > 0 &&
		    pmk__mpi_json_read(&job, all + displs[r], (unsigned long)lens[r],
				       err, sizeof err) != 0 &&
		    !bad++)
			pmk__mpi_note("warning: record of rank %d unreadable: %s", r,
				      err);
	command_line(job.command, sizeof job.command);
	if (!out || !*out)
		out = "pmkit-mpi.json";
	if (!banner || strcmp(banner, "0")) {
		m = open_memstream(&text, &len);
		if (m) {
			pmk__mpi_banner(m, &job, 8);
			if (strcmp(out, "none"))
				fprintf(m, "# pmkit-mpi: per-rank data in %s "
					   "(pmkit mpi report %s); gathered in "
					   "%.1f ms\n",
					out, out,
					(double)(pmk__mpi_mono_ns() - t_start) * 1e-6);
			fclose(m);
			if (text && write(2, text, len) < 0)
				len = 0;
			free(text);
			text = NULL;
		}
	}
	if (strcmp(out, "none")) {
		m = open_memstream(&text, &len);
		if (m) {
			pmk__mpi_json(m, &job);
			fclose(m);
			pmk_diag d;
			if (text && pmk__mpi_write_file(out, text, len, &d) != 0)
				pmk__mpi_note("warning: %s", d.message);
			free(text);
		}
	}
	pmk__mpi_job_release(&job);
}

void pmk__mpi_finish(void)
{
	struct pmk__mpi_job mine;
	MPI_Comm c;
	char *text = NULL, *all = NULL;
	size_t len = 0;
	int *lens = NULL, *displs = NULL, mylen, ok = 1, rank, size;
	const char *dir = getenv("PMKIT_MPI_DIR");
	uint64_t t_start;
	FILE *m;

	if (!pmk__mpi_on)
		return;
	t_start = pmk__mpi_mono_ns();
	rank = pmk__mpi_rank();
	PMPI_Comm_size(MPI_COMM_WORLD, &size);
	/* out of memory: this rank sends nothing (rank 0 reports it missing)
	 * but still takes part in the collectives the others are in */
	if (pmk__mpi_stop(&mine) == 0) {
		m = open_memstream(&text, &len);
		if (m) {
			pmk__mpi_json(m, &mine);
			fclose(m);
		}
		pmk__mpi_job_release(&mine);
	}
	if (!text || len > INT_MAX)
		len = 0;
	if (dir && *dir && strcmp(dir, "none") && len)
		write_rank_file(dir, rank, text, len);
	mylen = (int)len;
	/* if the job dies in the gather, a signal handler writes this */
	if (len)
		pmk__mpi_lastword_final(text, len);

	if (PMPI_Comm_dup(MPI_COMM_WORLD, &c) != MPI_SUCCESS) {
		pmk__mpi_lastword_final(NULL, 0);
		free(text);
		return;
	}
	if (rank == 0) {
		lens = calloc((size_t)size, sizeof *lens);
		displs = calloc((size_t)size, sizeof *displs);
		ok = lens && displs;
	}
	/* every rank takes part in the same collectives: rank 0 says with
	 * each broadcast whether the next gather happens */
	PMPI_Bcast(&ok, 1, MPI_INT, 0, c);
	if (ok) {
		PMPI_Gather(&mylen, 1, MPI_INT, lens, 1, MPI_INT, 0, c);
		if (rank == 0) {
			long total = 0;
			for (int r = 0; r < size; r++) {
				displs[r] = (int)total;
				total += lens[r];
				if (total > INT_MAX)
					ok = 0;
			}
			if (ok)
				all = malloc((size_t)total + 1);
			ok = all != NULL;
		}
		PMPI_Bcast(&ok, 1, MPI_INT, 0, c);
		if (ok)
			PMPI_Gatherv(text, mylen, MPI_CHAR, all, lens, displs,
				     MPI_CHAR, 0, c);
	}
	PMPI_Comm_free(&c);
	pmk__mpi_lastword_final(NULL, 0);
	if (rank == 0) {
		if (ok)
			summarize(all, lens, displs, size, t_start);
		else
			pmk__mpi_note("warning: out of memory gathering the ranks' "
				      "records: no banner");
	}
	free(all);
	free(lens);
	free(displs);
	free(text);
}

int MPI_Finalize(void)
{
	pmk__mpi_finish();
	return PMPI_Finalize();
}

/* The job ends here: this rank's record first (lastword.c). */
int MPI_Abort(MPI_Comm comm, int code)
{
	pmk__mpi_lastword("MPI_Abort");
	return PMPI_Abort(comm, code);
}

/*
 * A program that never calls MPI_Init is noted at exit, once per job: with
 * LD_PRELOAD exported, every process a job starts loads the library (a
 * script's every command, a python3's helpers), and one note each would
 * bury the output. So the first process of a tree to load it marks the
 * environment its children inherit (PMKIT_MPI_LOADED=its pid), and only
 * it (also after exec), and under a launcher only rank 0, notes; a shell
 * that exits without running destructors notes nothing. PMKIT_MPI_NOTE=0: never; =all:
 * every process, as before.
 */
__attribute__((constructor)) static void pmk_mpi_load(void)
{
	/* the first process's pid: it stays the first through exec (a
	 * shell script, or pyenv's python3, exec'ing the program), not in
	 * a child forked without exec (checked at exit) */
	if (!getenv("PMKIT_MPI_LOADED")) {
		char pid[24];
		snprintf(pid, sizeof pid, "%ld", (long)getpid());
		setenv("PMKIT_MPI_LOADED", pid, 1);
	}
}

static int note_wanted(void)
{
	static const char *const rank_env[] = {"OMPI_COMM_WORLD_RANK",
					       "PMI_RANK", "PMIX_RANK",
					       "SLURM_PROCID"};
	const char *want = getenv("PMKIT_MPI_NOTE");
	const char *first = getenv("PMKIT_MPI_LOADED");
	if (want && !strcmp(want, "all"))
		return 1;
	if ((want && !strcmp(want, "0")) ||
	    (first && strtol(first, NULL, 10) != (long)getpid()))
		return 0;
	for (size_t i = 0; i < sizeof rank_env / sizeof rank_env[0]; i++) {
		const char *r = getenv(rank_env[i]);
		if (r && *r)
			return !strcmp(r, "0");
	}
	return 1;
}

/* At exit: a rank that never reached MPI_Finalize leaves its record
 * (lastword.c); a program that never called MPI_Init is noted (above). */
__attribute__((destructor)) static void pmk_mpi_unload(void)
{
	char cmd[128];
	if (pmk__mpi_on)
		pmk__mpi_lastword("exit");
	if (pmk__mpi_init_seen || !note_wanted())
		return;
	command_line(cmd, sizeof cmd);
	pmk__mpi_note("note: '%s' never called MPI_Init: nothing measured "
		      "(noted once per job; PMKIT_MPI_NOTE=0: never)",
		      cmd);
}

/* ---- point to point --------------------------------------------------- */

/* A send's bytes, destination, call and call site are counted before it,
 * after its start was read (PMK__MPI_SEND_FIRST): after it returns, only
 * its end is read (a ping-pong's round trip grows with what runs between
 * a send's return and the receive after it; docs/mpi.md). */
#define SEND_LIKE(NAME, ID)                                                    \
	int MPI_##NAME(const void *buf, int count, MPI_Datatype t, int dest,   \
		       int tag, MPI_Comm comm)                                 \
	{                                                                      \
		int rc;                                                        \
		PMK__MPI_ENTER(ID)                                             \
		uint64_t nb_ = pmk_on_ ? tbytes(count, t) : 0;                 \
		COUNT_SEND(dest, comm, nb_)                                    \
		PMK__MPI_SEND_FIRST(ID, nb_)                                   \
		rc = PMPI_##NAME(buf, count, t, dest, tag, comm);              \
		PMK__MPI_SEND_REST(ID)                                         \
		return rc;                                                     \
	}
SEND_LIKE(Send, SEND)
SEND_LIKE(Ssend, SSEND)
SEND_LIKE(Bsend, BSEND)
SEND_LIKE(Rsend, RSEND)

#define ISEND_LIKE(NAME, ID)                                                   \
	int MPI_##NAME(const void *buf, int count, MPI_Datatype t, int dest,   \
		       int tag, MPI_Comm comm, MPI_Request *req)               \
	{                                                                      \
		int rc;                                                        \
		PMK__MPI_ENTER(ID)                                             \
		uint64_t nb_ = pmk_on_ ? tbytes(count, t) : 0;                 \
		COUNT_SEND(dest, comm, nb_)                                    \
		PMK__MPI_SEND_FIRST(ID, nb_)                                   \
		rc = PMPI_##NAME(buf, count, t, dest, tag, comm, req);         \
		PMK__MPI_SEND_REST(ID)                                         \
		return rc;                                                     \
	}
ISEND_LIKE(Isend, ISEND)
ISEND_LIKE(Issend, ISSEND)

int MPI_Recv(void *buf, int count, MPI_Datatype t, int src, int tag,
	     MPI_Comm comm, MPI_Status *status)
{
	MPI_Status local;
	int rc;
	PMK__MPI_ENTER(RECV)
	if (pmk_on_ && status == MPI_STATUS_IGNORE)
		status = &local;
	rc = PMPI_Recv(buf, count, t, src, tag, comm, status);
	PMK__MPI_LEAVE(RECV, 0, rc == MPI_SUCCESS ? status_bytes(status) : 0)
	return rc;
}

int MPI_Irecv(void *buf, int count, MPI_Datatype t, int src, int tag,
	      MPI_Comm comm, MPI_Request *req)
{
	int rc;
	PMK__MPI_ENTER(IRECV)
	rc = PMPI_Irecv(buf, count, t, src, tag, comm, req);
	PMK__MPI_LEAVE(IRECV, 0, tbytes(count, t))
	return rc;
}

int MPI_Sendrecv(const void *sbuf, int scount, MPI_Datatype st, int dest,
		 int stag, void *rbuf, int rcount, MPI_Datatype rt, int src,
		 int rtag, MPI_Comm comm, MPI_Status *status)
{
	MPI_Status local;
	int rc;
	PMK__MPI_ENTER(SENDRECV)
	if (pmk_on_ && status == MPI_STATUS_IGNORE)
		status = &local;
	rc = PMPI_Sendrecv(sbuf, scount, st, dest, stag, rbuf, rcount, rt, src,
			   rtag, comm, status);
	COUNT_SEND(dest, comm, tbytes(scount, st))
	PMK__MPI_LEAVE(SENDRECV, tbytes(scount, st),
		       rc == MPI_SUCCESS ? status_bytes(status) : 0)
	return rc;
}

int MPI_Sendrecv_replace(void *buf, int count, MPI_Datatype t, int dest,
			 int stag, int src, int rtag, MPI_Comm comm,
			 MPI_Status *status)
{
	MPI_Status local;
	int rc;
	PMK__MPI_ENTER(SENDRECV_REPLACE)
	if (pmk_on_ && status == MPI_STATUS_IGNORE)
		status = &local;
	rc = PMPI_Sendrecv_replace(buf, count, t, dest, stag, src, rtag, comm,
				   status);
	COUNT_SEND(dest, comm, tbytes(count, t))
	PMK__MPI_LEAVE(SENDRECV_REPLACE, tbytes(count, t),
		       rc == MPI_SUCCESS ? status_bytes(status) : 0)
	return rc;
}

/* ---- completion and probes -------------------------------------------- */

int MPI_Wait(MPI_Request *req, MPI_Status *status)
{
	int rc;
	PMK__MPI_ENTER(WAIT)
	rc = PMPI_Wait(req, status);
	PMK__MPI_LEAVE(WAIT, 0, 0)
	return rc;
}

int MPI_Waitall(int n, MPI_Request reqs[], MPI_Status statuses[])
{
	int rc;
	PMK__MPI_ENTER(WAITALL)
	rc = PMPI_Waitall(n, reqs, statuses);
	PMK__MPI_LEAVE(WAITALL, 0, 0)
	return rc;
}

int MPI_Waitany(int n, MPI_Request reqs[], int *index, MPI_Status *status)
{
	int rc;
	PMK__MPI_ENTER(WAITANY)
	rc = PMPI_Waitany(n, reqs, index, status);
	PMK__MPI_LEAVE(WAITANY, 0, 0)
	return rc;
}

int MPI_Waitsome(int n, MPI_Request reqs[], int *outcount, int indices[],
		 MPI_Status statuses[])
{
	int rc;
	PMK__MPI_ENTER(WAITSOME)
	rc = PMPI_Waitsome(n, reqs, outcount, indices, statuses);
	PMK__MPI_LEAVE(WAITSOME, 0, 0)
	return rc;
}

int MPI_Test(MPI_Request *req, int *flag, MPI_Status *status)
{
	int rc;
	PMK__MPI_ENTER(TEST)
	rc = PMPI_Test(req, flag, status);
	PMK__MPI_LEAVE_POLL(TEST, 0, 0, rc == MPI_SUCCESS && !*flag)
	return rc;
}

int MPI_Testall(int n, MPI_Request reqs[], int *flag, MPI_Status statuses[])
{
	int rc;
	PMK__MPI_ENTER(TESTALL)
	rc = PMPI_Testall(n, reqs, flag, statuses);
	PMK__MPI_LEAVE_POLL(TESTALL, 0, 0, rc == MPI_SUCCESS && !*flag)
	return rc;
}

int MPI_Testany(int n, MPI_Request reqs[], int *index, int *flag,
		MPI_Status *status)
{
	int rc;
	PMK__MPI_ENTER(TESTANY)
	rc = PMPI_Testany(n, reqs, index, flag, status);
	PMK__MPI_LEAVE_POLL(TESTANY, 0, 0, rc == MPI_SUCCESS && !*flag)
	return rc;
}

int MPI_Probe(int src, int tag, MPI_Comm comm, MPI_Status *status)
{
	int rc;
	PMK__MPI_ENTER(PROBE)
	rc = PMPI_Probe(src, tag, comm, status);
	PMK__MPI_LEAVE(PROBE, 0, 0)
	return rc;
}

int MPI_Iprobe(int src, int tag, MPI_Comm comm, int *flag, MPI_Status *status)
{
	int rc;
	PMK__MPI_ENTER(IPROBE)
	rc = PMPI_Iprobe(src, tag, comm, flag, status);
	PMK__MPI_LEAVE_POLL(IPROBE, 0, 0, rc == MPI_SUCCESS && !*flag)
	return rc;
}

/* ---- collectives ------------------------------------------------------ */

int MPI_Barrier(MPI_Comm comm)
{
	int rc;
	PMK__MPI_ENTER(BARRIER)
	rc = PMPI_Barrier(comm);
	PMK__MPI_LEAVE(BARRIER, 0, 0)
	return rc;
}

int MPI_Bcast(void *buf, int count, MPI_Datatype t, int root, MPI_Comm comm)
{
	int rc;
	PMK__MPI_ENTER(BCAST)
	rc = PMPI_Bcast(buf, count, t, root, comm);
	PMK__MPI_LEAVE(BCAST, comm_rank(comm) == root ? tbytes(count, t) : 0,
		       comm_rank(comm) == root ? 0 : tbytes(count, t))
	return rc;
}

int MPI_Reduce(const void *sbuf, void *rbuf, int count, MPI_Datatype t,
	       MPI_Op op, int root, MPI_Comm comm)
{
	int rc;
	PMK__MPI_ENTER(REDUCE)
	rc = PMPI_Reduce(sbuf, rbuf, count, t, op, root, comm);
	PMK__MPI_LEAVE(REDUCE, sbuf == MPI_IN_PLACE ? 0 : tbytes(count, t),
		       comm_rank(comm) == root ? tbytes(count, t) : 0)
	return rc;
}

int MPI_Allreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype t,
		  MPI_Op op, MPI_Comm comm)
{
	int rc;
	PMK__MPI_ENTER(ALLREDUCE)
	rc = PMPI_Allreduce(sbuf, rbuf, count, t, op, comm);
	PMK__MPI_LEAVE(ALLREDUCE, sbuf == MPI_IN_PLACE ? 0 : tbytes(count, t),
		       tbytes(count, t))
	return rc;
}

int MPI_Gather(const void *sbuf, int scount, MPI_Datatype st, void *rbuf,
	       int rcount, MPI_Datatype rt, int root, MPI_Comm comm)
{
	int rc;
	PMK__MPI_ENTER(GATHER)
	rc = PMPI_Gather(sbuf, scount, st, rbuf, rcount, rt, root, comm);
	PMK__MPI_LEAVE(GATHER, sbuf == MPI_IN_PLACE ? 0 : tbytes(scount, st),
		       comm_rank(comm) == root
			       ? tbytes(rcount, rt) * (uint64_t)comm_size(comm)
			       : 0)
	return rc;
}

int MPI_Gatherv(const void *sbuf, int scount, MPI_Datatype st, void *rbuf,
		const int rcounts[], const int displs[], MPI_Datatype rt,
		int root, MPI_Comm comm)
{
	int rc;
	PMK__MPI_ENTER(GATHERV)
	rc = PMPI_Gatherv(sbuf, scount, st, rbuf, rcounts, displs, rt, root,
			  comm);
	PMK__MPI_LEAVE(GATHERV, sbuf == MPI_IN_PLACE ? 0 : tbytes(scount, st),
		       comm_rank(comm) == root
			       ? sum_counts(rcounts, comm_size(comm), rt)
			       : 0)
	return rc;
}

int MPI_Scatter(const void *sbuf, int scount, MPI_Datatype st, void *rbuf,
		int rcount, MPI_Datatype rt, int root, MPI_Comm comm)
{
	int rc;
	PMK__MPI_ENTER(SCATTER)
	rc = PMPI_Scatter(sbuf, scount, st, rbuf, rcount, rt, root, comm);
	PMK__MPI_LEAVE(SCATTER,
		       comm_rank(comm) == root
			       ? tbytes(scount, st) * (uint64_t)comm_size(comm)
			       : 0,
		       rbuf == MPI_IN_PLACE ? 0 : tbytes(rcount, rt))
	return rc;
}

int MPI_Scatterv(const void *sbuf, const int scounts[], const int displs[],
		 MPI_Datatype st, void *rbuf, int rcount, MPI_Datatype rt,
		 int root, MPI_Comm comm)
{
	int rc;
	PMK__MPI_ENTER(SCATTERV)
	rc = PMPI_Scatterv(sbuf, scounts, displs, st, rbuf, rcount, rt, root,
			   comm);
	PMK__MPI_LEAVE(SCATTERV,
		       comm_rank(comm) == root
			       ? sum_counts(scounts, comm_size(comm), st)
			       : 0,
		       rbuf == MPI_IN_PLACE ? 0 : tbytes(rcount, rt))
	return rc;
}

int MPI_Allgather(const void *sbuf, int scount, MPI_Datatype st, void *rbuf,
		  int rcount, MPI_Datatype rt, MPI_Comm comm)
{
	int rc;
	PMK__MPI_ENTER(ALLGATHER)
	rc = PMPI_Allgather(sbuf, scount, st, rbuf, rcount, rt, comm);
	PMK__MPI_LEAVE(ALLGATHER, sbuf == MPI_IN_PLACE ? 0 : tbytes(scount, st),
		       tbytes(rcount, rt) * (uint64_t)comm_size(comm))
	return rc;
}

int MPI_Allgatherv(const void *sbuf, int scount, MPI_Datatype st, void *rbuf,
		   const int rcounts[], const int displs[], MPI_Datatype rt,
		   MPI_Comm comm)
{
	int rc;
	PMK__MPI_ENTER(ALLGATHERV)
	rc = PMPI_Allgatherv(sbuf, scount, st, rbuf, rcounts, displs, rt, comm);
	PMK__MPI_LEAVE(ALLGATHERV, sbuf == MPI_IN_PLACE ? 0 : tbytes(scount, st),
		       sum_counts(rcounts, comm_size(comm), rt))
	return rc;
}

int MPI_Alltoall(const void *sbuf, int scount, MPI_Datatype st, void *rbuf,
		 int rcount, MPI_Datatype rt, MPI_Comm comm)
{
	int rc;
	PMK__MPI_ENTER(ALLTOALL)
	rc = PMPI_Alltoall(sbuf, scount, st, rbuf, rcount, rt, comm);
	PMK__MPI_LEAVE(ALLTOALL,
		       sbuf == MPI_IN_PLACE
			       ? 0
			       : tbytes(scount, st) * (uint64_t)comm_size(comm),
		       tbytes(rcount, rt) * (uint64_t)comm_size(comm))
	return rc;
}

int MPI_Alltoallv(const void *sbuf, const int scounts[], const int sdispls[],
		  MPI_Datatype st, void *rbuf, const int rcounts[],
		  const int rdispls[], MPI_Datatype rt, MPI_Comm comm)
{
	int rc;
	PMK__MPI_ENTER(ALLTOALLV)
	rc = PMPI_Alltoallv(sbuf, scounts, sdispls, st, rbuf, rcounts, rdispls,
			    rt, comm);
	PMK__MPI_LEAVE(ALLTOALLV,
		       sbuf == MPI_IN_PLACE
			       ? 0
			       : sum_counts(scounts, comm_size(comm), st),
		       sum_counts(rcounts, comm_size(comm), rt))
	return rc;
}

int MPI_Reduce_scatter(const void *sbuf, void *rbuf, const int rcounts[],
		       MPI_Datatype t, MPI_Op op, MPI_Comm comm)
{
	int rc;
	PMK__MPI_ENTER(REDUCE_SCATTER)
	rc = PMPI_Reduce_scatter(sbuf, rbuf, rcounts, t, op, comm);
	PMK__MPI_LEAVE(REDUCE_SCATTER,
		       sbuf == MPI_IN_PLACE
			       ? 0
			       : sum_counts(rcounts, comm_size(comm), t),
		       tbytes(rcounts[comm_rank(comm)], t))
	return rc;
}

int MPI_Scan(const void *sbuf, void *rbuf, int count, MPI_Datatype t,
	     MPI_Op op, MPI_Comm comm)
{
	int rc;
	PMK__MPI_ENTER(SCAN)
	rc = PMPI_Scan(sbuf, rbuf, count, t, op, comm);
	PMK__MPI_LEAVE(SCAN, sbuf == MPI_IN_PLACE ? 0 : tbytes(count, t),
		       tbytes(count, t))
	return rc;
}

int MPI_Exscan(const void *sbuf, void *rbuf, int count, MPI_Datatype t,
	       MPI_Op op, MPI_Comm comm)
{
	int rc;
	PMK__MPI_ENTER(EXSCAN)
	rc = PMPI_Exscan(sbuf, rbuf, count, t, op, comm);
	PMK__MPI_LEAVE(EXSCAN, sbuf == MPI_IN_PLACE ? 0 : tbytes(count, t),
		       tbytes(count, t))
	return rc;
}

/* Non-blocking collectives: the time to start them (their completion is
 * in the waits and tests); bytes as for the blocking ones. */
int MPI_Ibarrier(MPI_Comm comm, MPI_Request *req)
{
	int rc;
	PMK__MPI_ENTER(IBARRIER)
	rc = PMPI_Ibarrier(comm, req);
	PMK__MPI_LEAVE(IBARRIER, 0, 0)
	return rc;
}

int MPI_Ibcast(void *buf, int count, MPI_Datatype t, int root, MPI_Comm comm,
	       MPI_Request *req)
{
	int rc;
	PMK__MPI_ENTER(IBCAST)
	rc = PMPI_Ibcast(buf, count, t, root, comm, req);
	PMK__MPI_LEAVE(IBCAST, comm_rank(comm) == root ? tbytes(count, t) : 0,
		       comm_rank(comm) == root ? 0 : tbytes(count, t))
	return rc;
}

int MPI_Ireduce(const void *sbuf, void *rbuf, int count, MPI_Datatype t,
		MPI_Op op, int root, MPI_Comm comm, MPI_Request *req)
{
	int rc;
	PMK__MPI_ENTER(IREDUCE)
	rc = PMPI_Ireduce(sbuf, rbuf, count, t, op, root, comm, req);
	PMK__MPI_LEAVE(IREDUCE, sbuf == MPI_IN_PLACE ? 0 : tbytes(count, t),
		       comm_rank(comm) == root ? tbytes(count, t) : 0)
	return rc;
}

int MPI_Iallreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype t,
		   MPI_Op op, MPI_Comm comm, MPI_Request *req)
{
	int rc;
	PMK__MPI_ENTER(IALLREDUCE)
	rc = PMPI_Iallreduce(sbuf, rbuf, count, t, op, comm, req);
	PMK__MPI_LEAVE(IALLREDUCE, sbuf == MPI_IN_PLACE ? 0 : tbytes(count, t),
		       tbytes(count, t))
	return rc;
}
