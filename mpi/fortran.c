/*
 * fortran.c: libpmkit-mpi's Fortran entry points: mpif.h and `use mpi`
 * (mpi_send_, and the mpi_send__ and MPI_SEND spellings of other
 * compilers), and `use mpi_f08` (mpi_send_f08_).
 *
 * Open MPI's Fortran bindings call the C PMPI_ functions directly, so the
 * C wrappers never see a Fortran program's calls. These wrappers stand in
 * for the Fortran symbols, time the MPI library's own profiling entry
 * point (pmpi_send_, pmpi_send_f08_, found at the first call) and count
 * the call under the same name as C's. Arguments pass through untouched;
 * only the type handle is converted, to count bytes. The two bindings
 * have the same calling convention in Open MPI (a handle of mpi_f08 is a
 * derived type holding the Fortran integer handle; a status is the same
 * array), except that mpi_f08's error argument is optional (a null
 * pointer when left out): the wrappers of both are one text,
 * mpi/fortran_calls.h, included once for each.
 *
 * MPI_PCONTROL(1, 'name') / MPI_PCONTROL(-1, 'name') open and close a
 * region as in C; the name comes with its hidden length argument. mpi_f08's
 * MPI_Pcontrol takes the level only: no regions from it.
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

/* Call the library's pmpi_NAME_ with the arguments, or fail the call.
 * NAME may be a macro (FN(send)): expanded before it is spelled. */
#define REAL(name, type, ...) REAL_(name, type, __VA_ARGS__)
#define REAL_(name, type, ...)                                                 \
	do {                                                                   \
		static void *cache_;                                           \
		__typeof__(type) fn_ = (type)real("p" #name, &cache_);         \
		if (fn_)                                                       \
			fn_(__VA_ARGS__);                                      \
		else if (ierr)                                                 \
			*ierr = MPI_ERR_INTERN;                                \
	} while (0)

#define ALIASES(fn, a, b)                                                      \
	extern __typeof__(fn) a __attribute__((alias(#fn)));                   \
	extern __typeof__(fn) b __attribute__((alias(#fn)));

/* pmpi.c's, with its table of the predefined types' sizes */
uint64_t pmk__mpi_tbytes(int count, MPI_Datatype t) PMK__MPI_HIDDEN;
uint64_t pmk__mpi_status_bytes(const MPI_Status *st) PMK__MPI_HIDDEN;
int pmk__mpi_world_rank(int dest, MPI_Comm comm) PMK__MPI_HIDDEN;
/* pmpi_ext.c's: persistent requests, a window's target rank */
void pmk__mpi_persist_init(MPI_Request req, int send, int world, uint64_t bytes)
	PMK__MPI_HIDDEN;
void pmk__mpi_persist_start(MPI_Request req, uint64_t *sent, uint64_t *recv)
	PMK__MPI_HIDDEN;
int pmk__mpi_win_world_rank(int target, MPI_Win win) PMK__MPI_HIDDEN;
void pmk__mpi_win_forget(MPI_Win win) PMK__MPI_HIDDEN;

/* Inside a measured call: a send to `dest` of `comm` (who talks to whom). */
#define FCOUNT_SEND(dest, comm, bytes)                                         \
	if (pmk_on_)                                                           \
		pmk__mpi_comm_send(                                            \
			pmk__mpi_world_rank(*(dest), PMPI_Comm_f2c(*(comm))),  \
			bytes);

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
		pmk__mpi_after_init(MPI_THREAD_SINGLE);
}
ALIASES(mpi_init_, mpi_init__, MPI_INIT)

void mpi_init_thread_(F *required, F *provided, F *ierr)
{
	REAL(mpi_init_thread_, void (*)(F *, F *, F *), required, provided,
	     ierr);
	if (*ierr == MPI_SUCCESS)
		pmk__mpi_after_init(*provided);
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

/* mpi_f08: the error argument may be left out (a null pointer) */
void mpi_init_f08_(F *ierr)
{
	F e = MPI_SUCCESS;
	REAL(mpi_init_f08_, void (*)(F *), &e);
	if (ierr)
		*ierr = e;
	if (e == MPI_SUCCESS)
		pmk__mpi_after_init(MPI_THREAD_SINGLE);
}

void mpi_init_thread_f08_(F *required, F *provided, F *ierr)
{
	F e = MPI_SUCCESS;
	REAL(mpi_init_thread_f08_, void (*)(F *, F *, F *), required, provided,
	     &e);
	if (ierr)
		*ierr = e;
	if (e == MPI_SUCCESS)
		pmk__mpi_after_init(*provided);
}

void mpi_finalize_f08_(F *ierr)
{
	pmk__mpi_finish();
	REAL(mpi_finalize_f08_, void (*)(F *), ierr);
}

/* ---- point to point, completion, probes, collectives -------------------
 * The shapes shared by several functions; the wrappers themselves are in
 * mpi/fortran_calls.h, once per binding: FN(send) is the symbol, FALIAS
 * its other spellings. */

#define FSEND(lname, ID)                                                       \
	void lname(void *buf, F *count, F *type, F *dest, F *tag, F *comm,     \
		   F *ierr)                                                    \
	{                                                                      \
		PMK__MPI_ENTER(ID)                                             \
		REAL(lname, void (*)(void *, F *, F *, F *, F *, F *, F *),    \
		     buf, count, type, dest, tag, comm, ierr);                 \
		FCOUNT_SEND(dest, comm, fbytes(count, type))                   \
		PMK__MPI_LEAVE(ID, fbytes(count, type), 0)                     \
	}
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

/* One-sided: a put or get (`put`: its origin bytes are sent, to the
 * target's pair; else received) */
#define FRMA(lname, ID, put)                                                   \
	void lname(void *obuf, F *ocount, F *otype, F *target, void *disp,     \
		   F *tcount, F *ttype, F *win, F *ierr)                       \
	{                                                                      \
		PMK__MPI_ENTER(ID)                                             \
		REAL(lname,                                                    \
		     void (*)(void *, F *, F *, F *, void *, F *, F *, F *,    \
			      F *),                                            \
		     obuf, ocount, otype, target, disp, tcount, ttype, win,    \
		     ierr);                                                    \
		if (pmk_on_ && put)                                            \
			pmk__mpi_comm_send(                                    \
				pmk__mpi_win_world_rank(*target,               \
							PMPI_Win_f2c(*win)),   \
				fbytes(ocount, otype));                        \
		PMK__MPI_LEAVE(ID, put ? fbytes(ocount, otype) : 0,            \
			       put ? 0 : fbytes(ocount, otype))                \
	}
/* Synchronization and other calls of 1 to 3 arguments: time only */
#define FSYNC1(lname, ID)                                                      \
	void lname(F *a, F *ierr)                                              \
	{                                                                      \
		PMK__MPI_ENTER(ID)                                             \
		REAL(lname, void (*)(F *, F *), a, ierr);                      \
		PMK__MPI_LEAVE(ID, 0, 0)                                       \
	}
#define FSYNC2(lname, ID)                                                      \
	void lname(F *a, F *b, F *ierr)                                        \
	{                                                                      \
		PMK__MPI_ENTER(ID)                                             \
		REAL(lname, void (*)(F *, F *, F *), a, b, ierr);              \
		PMK__MPI_LEAVE(ID, 0, 0)                                       \
	}
#define FSYNC3(lname, ID)                                                      \
	void lname(F *a, F *b, F *c, F *ierr)                                  \
	{                                                                      \
		PMK__MPI_ENTER(ID)                                             \
		REAL(lname, void (*)(F *, F *, F *, F *), a, b, c, ierr);      \
		PMK__MPI_LEAVE(ID, 0, 0)                                       \
	}
/* MPI-IO reads and writes, with and without an explicit offset */
#define FFILE(lname, ID, write)                                                \
	void lname(F *fh, void *buf, F *count, F *type, F *status, F *ierr)    \
	{                                                                      \
		PMK__MPI_ENTER(ID)                                             \
		REAL(lname, void (*)(F *, void *, F *, F *, F *, F *), fh,     \
		     buf, count, type, status, ierr);                          \
		PMK__MPI_LEAVE(ID, write ? fbytes(count, type) : 0,            \
			       write ? 0 : fbytes(count, type))                \
	}
#define FFILE_AT(lname, ID, write)                                             \
	void lname(F *fh, void *off, void *buf, F *count, F *type, F *status,  \
		   F *ierr)                                                    \
	{                                                                      \
		PMK__MPI_ENTER(ID)                                             \
		REAL(lname,                                                    \
		     void (*)(F *, void *, void *, F *, F *, F *, F *), fh,    \
		     off, buf, count, type, status, ierr);                     \
		PMK__MPI_LEAVE(ID, write ? fbytes(count, type) : 0,            \
			       write ? 0 : fbytes(count, type))                \
	}

/* mpif.h and `use mpi` */
#define FN(name) mpi_##name##_
#define FALIAS(name, NAME) ALIASES(mpi_##name##_, mpi_##name##__, MPI_##NAME)
#include "mpi/fortran_calls.h"
#undef FN
#undef FALIAS

/* `use mpi_f08` */
#define FN(name) mpi_##name##_f08_
#define FALIAS(name, NAME)
#include "mpi/fortran_calls.h"
#undef FN
#undef FALIAS
