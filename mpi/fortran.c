/*
 * fortran.c: libpmkit-mpi's Fortran entry points (mpif.h and `use mpi`).
 *
 * Open MPI's Fortran bindings call the C PMPI_ functions directly, so the
 * C wrappers never see a Fortran program's calls. These wrappers stand in
 * for the Fortran symbols (mpi_send_, and the mpi_send__ and MPI_SEND
 * spellings of other compilers), time the MPI library's own profiling
 * entry point (pmpi_send_, found at the first call) and count the call
 * under the same name as C's. Arguments pass through untouched; only the
 * type handle is converted, to count bytes. The mpi_f08 module's entry
 * points are not wrapped (docs/mpi.md).
 *
 * MPI_PCONTROL(1, 'name') / MPI_PCONTROL(-1, 'name') open and close a
 * region as in C; the name comes with its hidden length argument.
 */
#include <dlfcn.h>
#include <mpi.h>
#include <stddef.h>
#include <string.h>

#include "mpi/rank.h"

typedef MPI_Fint F; /* every Fortran argument is a reference */

static void *real(const char *name, void **cache)
{
	if (!*cache) {
		*cache = dlsym(RTLD_NEXT, name);
		if (!*cache)
			pmk__mpi_note("error: '%s' not found in the MPI library",
				      name);
	}
	return *cache;
}

/* Call the library's pmpi_NAME_ with the arguments, or fail the call. */
#define REAL(name, type, ...)                                                  \
	do {                                                                   \
		static void *cache_;                                           \
		__typeof__(type) fn_ = (type)real("p" #name, &cache_);                    \
		if (fn_)                                                       \
			fn_(__VA_ARGS__);                                      \
		else                                                           \
			*ierr = MPI_ERR_INTERN;                                \
	} while (0)

#define ALIASES(fn, a, b)                                                      \
	extern __typeof__(fn) a __attribute__((alias(#fn)));                   \
	extern __typeof__(fn) b __attribute__((alias(#fn)));

/* pmpi.c's, with its table of the predefined types' sizes */
uint64_t pmk__mpi_tbytes(int count, MPI_Datatype t) PMK__MPI_HIDDEN;
uint64_t pmk__mpi_status_bytes(const MPI_Status *st) PMK__MPI_HIDDEN;

static uint64_t fbytes(const F *count, const F *type)
{
	return *count <= 0 ? 0 : pmk__mpi_tbytes(*count, PMPI_Type_f2c(*type));
}

static uint64_t fstatus_bytes(F *status)
{
	MPI_Status st;
	if (status == MPI_F_STATUS_IGNORE ||
	    PMPI_Status_f2c(status, &st) != MPI_SUCCESS)
		return 0;
	return pmk__mpi_status_bytes(&st);
}

static int frank(const F *comm)
{
	int r = -1;
	PMPI_Comm_rank(PMPI_Comm_f2c(*comm), &r);
	return r;
}

static int fsize(const F *comm)
{
	int n = 0;
	PMPI_Comm_size(PMPI_Comm_f2c(*comm), &n);
	return n;
}

/* ---- init, finalize, regions ------------------------------------------ */

void mpi_init_(F *ierr)
{
	REAL(mpi_init_, void (*)(F *), ierr);
	if (*ierr == MPI_SUCCESS)
		pmk__mpi_after_init();
}
ALIASES(mpi_init_, mpi_init__, MPI_INIT)

void mpi_init_thread_(F *required, F *provided, F *ierr)
{
	REAL(mpi_init_thread_, void (*)(F *, F *, F *), required, provided,
	     ierr);
	if (*ierr == MPI_SUCCESS) {
		pmk__mpi_after_init();
		if (*provided == MPI_THREAD_MULTIPLE)
			pmk__mpi_timing_exact();
	}
}
ALIASES(mpi_init_thread_, mpi_init_thread__, MPI_INIT_THREAD)

void mpi_finalize_(F *ierr)
{
	pmk__mpi_finish();
	REAL(mpi_finalize_, void (*)(F *), ierr);
}
ALIASES(mpi_finalize_, mpi_finalize__, MPI_FINALIZE)

void mpi_pcontrol_(F *level, const char *name, size_t len)
{
	char buf[PMK__MPI_NAME];
	if (*level == 1 || *level == -1) {
		/* the name and its hidden length only exist when the caller
		 * passed one: read both carefully */
		size_t n = len < sizeof buf - 1 ? len : sizeof buf - 1;
		if (pmk__mpi_safe_name(name, n, buf, sizeof buf) == 0) {
			n = strlen(buf);
			while (n > 0 && buf[n - 1] == ' ') /* blank padding */
				buf[--n] = 0;
		} else
			buf[0] = 0;
		pmk__mpi_pcontrol(*level, buf[0] ? buf : NULL);
	}
	PMPI_Pcontrol(*level);
}
ALIASES(mpi_pcontrol_, mpi_pcontrol__, MPI_PCONTROL)

/* ---- point to point ---------------------------------------------------- */

#define FSEND(lname, ID)                                                       \
	void lname(void *buf, F *count, F *type, F *dest, F *tag, F *comm,     \
		   F *ierr)                                                    \
	{                                                                      \
		PMK__MPI_ENTER(ID)                                             \
		REAL(lname, void (*)(void *, F *, F *, F *, F *, F *, F *),    \
		     buf, count, type, dest, tag, comm, ierr);                 \
		PMK__MPI_LEAVE(ID, fbytes(count, type), 0)                     \
	}
FSEND(mpi_send_, SEND)
ALIASES(mpi_send_, mpi_send__, MPI_SEND)
FSEND(mpi_ssend_, SSEND)
ALIASES(mpi_ssend_, mpi_ssend__, MPI_SSEND)
FSEND(mpi_bsend_, BSEND)
ALIASES(mpi_bsend_, mpi_bsend__, MPI_BSEND)
FSEND(mpi_rsend_, RSEND)
ALIASES(mpi_rsend_, mpi_rsend__, MPI_RSEND)

void mpi_isend_(void *buf, F *count, F *type, F *dest, F *tag, F *comm,
		F *req, F *ierr)
{
	PMK__MPI_ENTER(ISEND)
	REAL(mpi_isend_, void (*)(void *, F *, F *, F *, F *, F *, F *, F *),
	     buf, count, type, dest, tag, comm, req, ierr);
	PMK__MPI_LEAVE(ISEND, fbytes(count, type), 0)
}
ALIASES(mpi_isend_, mpi_isend__, MPI_ISEND)

void mpi_irecv_(void *buf, F *count, F *type, F *src, F *tag, F *comm,
		F *req, F *ierr)
{
	PMK__MPI_ENTER(IRECV)
	REAL(mpi_irecv_, void (*)(void *, F *, F *, F *, F *, F *, F *, F *),
	     buf, count, type, src, tag, comm, req, ierr);
	PMK__MPI_LEAVE(IRECV, 0, fbytes(count, type))
}
ALIASES(mpi_irecv_, mpi_irecv__, MPI_IRECV)

void mpi_recv_(void *buf, F *count, F *type, F *src, F *tag, F *comm,
	       F *status, F *ierr)
{
	PMK__MPI_ENTER(RECV)
	REAL(mpi_recv_, void (*)(void *, F *, F *, F *, F *, F *, F *, F *),
	     buf, count, type, src, tag, comm, status, ierr);
	PMK__MPI_LEAVE(RECV, 0,
		       status == MPI_F_STATUS_IGNORE ? fbytes(count, type)
						     : fstatus_bytes(status))
}
ALIASES(mpi_recv_, mpi_recv__, MPI_RECV)

void mpi_sendrecv_(void *sbuf, F *scount, F *stype, F *dest, F *stag,
		   void *rbuf, F *rcount, F *rtype, F *src, F *rtag, F *comm,
		   F *status, F *ierr)
{
	PMK__MPI_ENTER(SENDRECV)
	REAL(mpi_sendrecv_,
	     void (*)(void *, F *, F *, F *, F *, void *, F *, F *, F *, F *,
		      F *, F *, F *),
	     sbuf, scount, stype, dest, stag, rbuf, rcount, rtype, src, rtag,
	     comm, status, ierr);
	PMK__MPI_LEAVE(SENDRECV, fbytes(scount, stype),
		       status == MPI_F_STATUS_IGNORE ? fbytes(rcount, rtype)
						     : fstatus_bytes(status))
}
ALIASES(mpi_sendrecv_, mpi_sendrecv__, MPI_SENDRECV)

/* ---- completion and probes ---------------------------------------------- */

void mpi_wait_(F *req, F *status, F *ierr)
{
	PMK__MPI_ENTER(WAIT)
	REAL(mpi_wait_, void (*)(F *, F *, F *), req, status, ierr);
	PMK__MPI_LEAVE(WAIT, 0, 0)
}
ALIASES(mpi_wait_, mpi_wait__, MPI_WAIT)

void mpi_waitall_(F *n, F *reqs, F *statuses, F *ierr)
{
	PMK__MPI_ENTER(WAITALL)
	REAL(mpi_waitall_, void (*)(F *, F *, F *, F *), n, reqs, statuses,
	     ierr);
	PMK__MPI_LEAVE(WAITALL, 0, 0)
}
ALIASES(mpi_waitall_, mpi_waitall__, MPI_WAITALL)

void mpi_waitany_(F *n, F *reqs, F *index, F *status, F *ierr)
{
	PMK__MPI_ENTER(WAITANY)
	REAL(mpi_waitany_, void (*)(F *, F *, F *, F *, F *), n, reqs, index,
	     status, ierr);
	PMK__MPI_LEAVE(WAITANY, 0, 0)
}
ALIASES(mpi_waitany_, mpi_waitany__, MPI_WAITANY)

void mpi_test_(F *req, F *flag, F *status, F *ierr)
{
	PMK__MPI_ENTER(TEST)
	REAL(mpi_test_, void (*)(F *, F *, F *, F *), req, flag, status, ierr);
	PMK__MPI_LEAVE(TEST, 0, 0)
}
ALIASES(mpi_test_, mpi_test__, MPI_TEST)

void mpi_probe_(F *src, F *tag, F *comm, F *status, F *ierr)
{
	PMK__MPI_ENTER(PROBE)
	REAL(mpi_probe_, void (*)(F *, F *, F *, F *, F *), src, tag, comm,
	     status, ierr);
	PMK__MPI_LEAVE(PROBE, 0, 0)
}
ALIASES(mpi_probe_, mpi_probe__, MPI_PROBE)

void mpi_iprobe_(F *src, F *tag, F *comm, F *flag, F *status, F *ierr)
{
	PMK__MPI_ENTER(IPROBE)
	REAL(mpi_iprobe_, void (*)(F *, F *, F *, F *, F *, F *), src, tag,
	     comm, flag, status, ierr);
	PMK__MPI_LEAVE(IPROBE, 0, 0)
}
ALIASES(mpi_iprobe_, mpi_iprobe__, MPI_IPROBE)

/* ---- collectives ------------------------------------------------------- */

void mpi_barrier_(F *comm, F *ierr)
{
	PMK__MPI_ENTER(BARRIER)
	REAL(mpi_barrier_, void (*)(F *, F *), comm, ierr);
	PMK__MPI_LEAVE(BARRIER, 0, 0)
}
ALIASES(mpi_barrier_, mpi_barrier__, MPI_BARRIER)

void mpi_bcast_(void *buf, F *count, F *type, F *root, F *comm, F *ierr)
{
	PMK__MPI_ENTER(BCAST)
	REAL(mpi_bcast_, void (*)(void *, F *, F *, F *, F *, F *), buf, count,
	     type, root, comm, ierr);
	PMK__MPI_LEAVE(BCAST, frank(comm) == *root ? fbytes(count, type) : 0,
		       frank(comm) == *root ? 0 : fbytes(count, type))
}
ALIASES(mpi_bcast_, mpi_bcast__, MPI_BCAST)

void mpi_reduce_(void *sbuf, void *rbuf, F *count, F *type, F *op, F *root,
		 F *comm, F *ierr)
{
	PMK__MPI_ENTER(REDUCE)
	REAL(mpi_reduce_,
	     void (*)(void *, void *, F *, F *, F *, F *, F *, F *), sbuf, rbuf,
	     count, type, op, root, comm, ierr);
	PMK__MPI_LEAVE(REDUCE, fbytes(count, type),
		       frank(comm) == *root ? fbytes(count, type) : 0)
}
ALIASES(mpi_reduce_, mpi_reduce__, MPI_REDUCE)

void mpi_allreduce_(void *sbuf, void *rbuf, F *count, F *type, F *op,
		    F *comm, F *ierr)
{
	PMK__MPI_ENTER(ALLREDUCE)
	REAL(mpi_allreduce_, void (*)(void *, void *, F *, F *, F *, F *, F *),
	     sbuf, rbuf, count, type, op, comm, ierr);
	PMK__MPI_LEAVE(ALLREDUCE, fbytes(count, type), fbytes(count, type))
}
ALIASES(mpi_allreduce_, mpi_allreduce__, MPI_ALLREDUCE)

#define FGATHER(lname, ID, SENT, RECV)                                         \
	void lname(void *sbuf, F *scount, F *stype, void *rbuf, F *rcount,     \
		   F *rtype, F *root, F *comm, F *ierr)                        \
	{                                                                      \
		PMK__MPI_ENTER(ID)                                             \
		REAL(lname,                                                    \
		     void (*)(void *, F *, F *, void *, F *, F *, F *, F *,    \
			      F *),                                            \
		     sbuf, scount, stype, rbuf, rcount, rtype, root, comm,     \
		     ierr);                                                    \
		PMK__MPI_LEAVE(ID, SENT, RECV)                                 \
	}
FGATHER(mpi_gather_, GATHER, fbytes(scount, stype),
	frank(comm) == *root ? fbytes(rcount, rtype) * (uint64_t)fsize(comm)
			     : 0)
ALIASES(mpi_gather_, mpi_gather__, MPI_GATHER)
FGATHER(mpi_scatter_, SCATTER,
	frank(comm) == *root ? fbytes(scount, stype) * (uint64_t)fsize(comm)
			     : 0,
	fbytes(rcount, rtype))
ALIASES(mpi_scatter_, mpi_scatter__, MPI_SCATTER)

#define FALLGATHER(lname, ID, SENT)                                            \
	void lname(void *sbuf, F *scount, F *stype, void *rbuf, F *rcount,     \
		   F *rtype, F *comm, F *ierr)                                 \
	{                                                                      \
		PMK__MPI_ENTER(ID)                                             \
		REAL(lname,                                                    \
		     void (*)(void *, F *, F *, void *, F *, F *, F *, F *),   \
		     sbuf, scount, stype, rbuf, rcount, rtype, comm, ierr);    \
		PMK__MPI_LEAVE(ID, SENT,                                       \
			       fbytes(rcount, rtype) * (uint64_t)fsize(comm))  \
	}
FALLGATHER(mpi_allgather_, ALLGATHER, fbytes(scount, stype))
ALIASES(mpi_allgather_, mpi_allgather__, MPI_ALLGATHER)
FALLGATHER(mpi_alltoall_, ALLTOALL,
	   fbytes(scount, stype) * (uint64_t)fsize(comm))
ALIASES(mpi_alltoall_, mpi_alltoall__, MPI_ALLTOALL)
