/*
 * fortran_calls.h: the Fortran wrappers of libpmkit-mpi, included by
 * mpi/fortran.c once for each binding, with FN(name) the symbol of the
 * binding (mpi_send_, mpi_send_f08_) and FALIAS(name, NAME) its other
 * spellings. No include guard: meant to be included twice.
 */
/* ---- point to point ---------------------------------------------------- */

FSEND(FN(send), SEND)
FALIAS(send, SEND)
FSEND(FN(ssend), SSEND)
FALIAS(ssend, SSEND)
FSEND(FN(bsend), BSEND)
FALIAS(bsend, BSEND)
FSEND(FN(rsend), RSEND)
FALIAS(rsend, RSEND)

void FN(isend)(void *buf, F *count, F *type, F *dest, F *tag, F *comm,
		F *req, F *ierr)
{
	PMK__MPI_ENTER(ISEND)
	REAL(FN(isend), void (*)(void *, F *, F *, F *, F *, F *, F *, F *),
	     buf, count, type, dest, tag, comm, req, ierr);
	FCOUNT_SEND(dest, comm, fbytes(count, type))
	PMK__MPI_LEAVE(ISEND, fbytes(count, type), 0)
}
FALIAS(isend, ISEND)

void FN(irecv)(void *buf, F *count, F *type, F *src, F *tag, F *comm,
		F *req, F *ierr)
{
	PMK__MPI_ENTER(IRECV)
	REAL(FN(irecv), void (*)(void *, F *, F *, F *, F *, F *, F *, F *),
	     buf, count, type, src, tag, comm, req, ierr);
	PMK__MPI_LEAVE(IRECV, 0, fbytes(count, type))
}
FALIAS(irecv, IRECV)

void FN(recv)(void *buf, F *count, F *type, F *src, F *tag, F *comm,
	       F *status, F *ierr)
{
	PMK__MPI_ENTER(RECV)
	REAL(FN(recv), void (*)(void *, F *, F *, F *, F *, F *, F *, F *),
	     buf, count, type, src, tag, comm, status, ierr);
	PMK__MPI_LEAVE(RECV, 0,
		       status == MPI_F_STATUS_IGNORE ? fbytes(count, type)
						     : fstatus_bytes(status))
}
FALIAS(recv, RECV)

void FN(sendrecv)(void *sbuf, F *scount, F *stype, F *dest, F *stag,
		   void *rbuf, F *rcount, F *rtype, F *src, F *rtag, F *comm,
		   F *status, F *ierr)
{
	PMK__MPI_ENTER(SENDRECV)
	REAL(FN(sendrecv),
	     void (*)(void *, F *, F *, F *, F *, void *, F *, F *, F *, F *,
		      F *, F *, F *),
	     sbuf, scount, stype, dest, stag, rbuf, rcount, rtype, src, rtag,
	     comm, status, ierr);
	FCOUNT_SEND(dest, comm, fbytes(scount, stype))
	PMK__MPI_LEAVE(SENDRECV, fbytes(scount, stype),
		       status == MPI_F_STATUS_IGNORE ? fbytes(rcount, rtype)
						     : fstatus_bytes(status))
}
FALIAS(sendrecv, SENDRECV)

/* ---- completion and probes ---------------------------------------------- */

void FN(wait)(F *req, F *status, F *ierr)
{
	PMK__MPI_ENTER(WAIT)
	REAL(FN(wait), void (*)(F *, F *, F *), req, status, ierr);
	PMK__MPI_LEAVE(WAIT, 0, 0)
}
FALIAS(wait, WAIT)

void FN(waitall)(F *n, F *reqs, F *statuses, F *ierr)
{
	PMK__MPI_ENTER(WAITALL)
	REAL(FN(waitall), void (*)(F *, F *, F *, F *), n, reqs, statuses,
	     ierr);
	PMK__MPI_LEAVE(WAITALL, 0, 0)
}
FALIAS(waitall, WAITALL)

void FN(waitany)(F *n, F *reqs, F *index, F *status, F *ierr)
{
	PMK__MPI_ENTER(WAITANY)
	REAL(FN(waitany), void (*)(F *, F *, F *, F *, F *), n, reqs, index,
	     status, ierr);
	PMK__MPI_LEAVE(WAITANY, 0, 0)
}
FALIAS(waitany, WAITANY)

void FN(test)(F *req, F *flag, F *status, F *ierr)
{
	PMK__MPI_ENTER(TEST)
	REAL(FN(test), void (*)(F *, F *, F *, F *), req, flag, status, ierr);
	PMK__MPI_LEAVE(TEST, 0, 0)
}
FALIAS(test, TEST)

void FN(probe)(F *src, F *tag, F *comm, F *status, F *ierr)
{
	PMK__MPI_ENTER(PROBE)
	REAL(FN(probe), void (*)(F *, F *, F *, F *, F *), src, tag, comm,
	     status, ierr);
	PMK__MPI_LEAVE(PROBE, 0, 0)
}
FALIAS(probe, PROBE)

void FN(iprobe)(F *src, F *tag, F *comm, F *flag, F *status, F *ierr)
{
	PMK__MPI_ENTER(IPROBE)
	REAL(FN(iprobe), void (*)(F *, F *, F *, F *, F *, F *), src, tag,
	     comm, flag, status, ierr);
	PMK__MPI_LEAVE(IPROBE, 0, 0)
}
FALIAS(iprobe, IPROBE)

/* ---- collectives ------------------------------------------------------- */

void FN(barrier)(F *comm, F *ierr)
{
	PMK__MPI_ENTER(BARRIER)
	REAL(FN(barrier), void (*)(F *, F *), comm, ierr);
	PMK__MPI_LEAVE(BARRIER, 0, 0)
}
FALIAS(barrier, BARRIER)

void FN(bcast)(void *buf, F *count, F *type, F *root, F *comm, F *ierr)
{
	PMK__MPI_ENTER(BCAST)
	REAL(FN(bcast), void (*)(void *, F *, F *, F *, F *, F *), buf, count,
	     type, root, comm, ierr);
	PMK__MPI_LEAVE(BCAST, frank(comm) == *root ? fbytes(count, type) : 0,
		       frank(comm) == *root ? 0 : fbytes(count, type))
}
FALIAS(bcast, BCAST)

void FN(reduce)(void *sbuf, void *rbuf, F *count, F *type, F *op, F *root,
		 F *comm, F *ierr)
{
	PMK__MPI_ENTER(REDUCE)
	REAL(FN(reduce),
	     void (*)(void *, void *, F *, F *, F *, F *, F *, F *), sbuf, rbuf,
	     count, type, op, root, comm, ierr);
	PMK__MPI_LEAVE(REDUCE, fbytes(count, type),
		       frank(comm) == *root ? fbytes(count, type) : 0)
}
FALIAS(reduce, REDUCE)

void FN(allreduce)(void *sbuf, void *rbuf, F *count, F *type, F *op,
		    F *comm, F *ierr)
{
	PMK__MPI_ENTER(ALLREDUCE)
	REAL(FN(allreduce), void (*)(void *, void *, F *, F *, F *, F *, F *),
	     sbuf, rbuf, count, type, op, comm, ierr);
	PMK__MPI_LEAVE(ALLREDUCE, fbytes(count, type), fbytes(count, type))
}
FALIAS(allreduce, ALLREDUCE)

FGATHER(FN(gather), GATHER, fbytes(scount, stype),
	frank(comm) == *root ? fbytes(rcount, rtype) * (uint64_t)fsize(comm)
			     : 0)
FALIAS(gather, GATHER)
FGATHER(FN(scatter), SCATTER,
	frank(comm) == *root ? fbytes(scount, stype) * (uint64_t)fsize(comm)
			     : 0,
	fbytes(rcount, rtype))
FALIAS(scatter, SCATTER)

FALLGATHER(FN(allgather), ALLGATHER, fbytes(scount, stype))
FALIAS(allgather, ALLGATHER)
FALLGATHER(FN(alltoall), ALLTOALL,
	   fbytes(scount, stype) * (uint64_t)fsize(comm))
FALIAS(alltoall, ALLTOALL)
