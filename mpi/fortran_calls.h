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

/* ---- persistent requests, one-sided, MPI-IO (pmpi_ext.c) ----------------
 * Addresses and offsets (INTEGER(KIND=MPI_ADDRESS_KIND / MPI_OFFSET_KIND))
 * pass through as references like the rest; a file name keeps its hidden
 * length argument. */

void FN(send_init)(void *buf, F *count, F *type, F *dest, F *tag, F *comm,
		    F *req, F *ierr)
{
	PMK__MPI_ENTER(SEND_INIT)
	REAL(FN(send_init),
	     void (*)(void *, F *, F *, F *, F *, F *, F *, F *), buf, count,
	     type, dest, tag, comm, req, ierr);
	if (pmk_on_ && (!ierr || *ierr == MPI_SUCCESS))
		pmk__mpi_persist_init(
			PMPI_Request_f2c(*req), 1,
			pmk__mpi_world_rank(*dest, PMPI_Comm_f2c(*comm)),
			fbytes(count, type));
	PMK__MPI_LEAVE(SEND_INIT, 0, 0)
}
FALIAS(send_init, SEND_INIT)

void FN(recv_init)(void *buf, F *count, F *type, F *src, F *tag, F *comm,
		    F *req, F *ierr)
{
	PMK__MPI_ENTER(RECV_INIT)
	REAL(FN(recv_init),
	     void (*)(void *, F *, F *, F *, F *, F *, F *, F *), buf, count,
	     type, src, tag, comm, req, ierr);
	if (pmk_on_ && (!ierr || *ierr == MPI_SUCCESS))
		pmk__mpi_persist_init(PMPI_Request_f2c(*req), 0, -1,
				      fbytes(count, type));
	PMK__MPI_LEAVE(RECV_INIT, 0, 0)
}
FALIAS(recv_init, RECV_INIT)

void FN(start)(F *req, F *ierr)
{
	uint64_t sent = 0, recv = 0;
	MPI_Request r = PMPI_Request_f2c(*req);
	PMK__MPI_ENTER(START)
	REAL(FN(start), void (*)(F *, F *), req, ierr);
	if (pmk_on_)
		pmk__mpi_persist_start(r, &sent, &recv);
	PMK__MPI_LEAVE(START, sent, recv)
}
FALIAS(start, START)

void FN(startall)(F *n, F *reqs, F *ierr)
{
	uint64_t sent = 0, recv = 0;
	PMK__MPI_ENTER(STARTALL)
	REAL(FN(startall), void (*)(F *, F *, F *), n, reqs, ierr);
	for (int i = 0; pmk_on_ && i < *n; i++)
		pmk__mpi_persist_start(PMPI_Request_f2c(reqs[i]), &sent, &recv);
	PMK__MPI_LEAVE(STARTALL, sent, recv)
}
FALIAS(startall, STARTALL)

void FN(win_create)(void *base, void *size, F *disp_unit, F *info, F *comm,
		     F *win, F *ierr)
{
	PMK__MPI_ENTER(WIN_CREATE)
	REAL(FN(win_create),
	     void (*)(void *, void *, F *, F *, F *, F *, F *), base, size,
	     disp_unit, info, comm, win, ierr);
	PMK__MPI_LEAVE(WIN_CREATE, 0, 0)
}
FALIAS(win_create, WIN_CREATE)

void FN(win_allocate)(void *size, F *disp_unit, F *info, F *comm, void *base,
		       F *win, F *ierr)
{
	PMK__MPI_ENTER(WIN_ALLOCATE)
	REAL(FN(win_allocate),
	     void (*)(void *, F *, F *, F *, void *, F *, F *), size,
	     disp_unit, info, comm, base, win, ierr);
	PMK__MPI_LEAVE(WIN_ALLOCATE, 0, 0)
}
FALIAS(win_allocate, WIN_ALLOCATE)

FRMA(FN(put), PUT, 1)
FALIAS(put, PUT)
FRMA(FN(get), GET, 0)
FALIAS(get, GET)

void FN(accumulate)(void *obuf, F *ocount, F *otype, F *target, void *disp,
		     F *tcount, F *ttype, F *op, F *win, F *ierr)
{
	PMK__MPI_ENTER(ACCUMULATE)
	REAL(FN(accumulate),
	     void (*)(void *, F *, F *, F *, void *, F *, F *, F *, F *, F *),
	     obuf, ocount, otype, target, disp, tcount, ttype, op, win, ierr);
	if (pmk_on_)
		pmk__mpi_comm_send(pmk__mpi_win_world_rank(*target,
							   PMPI_Win_f2c(*win)),
				   fbytes(ocount, otype));
	PMK__MPI_LEAVE(ACCUMULATE, fbytes(ocount, otype), 0)
}
FALIAS(accumulate, ACCUMULATE)

FSYNC2(FN(win_fence), WIN_FENCE)
FALIAS(win_fence, WIN_FENCE)
FSYNC3(FN(win_lock), WIN_LOCK)
FALIAS(win_lock, WIN_LOCK)
FSYNC2(FN(win_unlock), WIN_UNLOCK)
FALIAS(win_unlock, WIN_UNLOCK)
FSYNC2(FN(win_lock_all), WIN_LOCK_ALL)
FALIAS(win_lock_all, WIN_LOCK_ALL)
FSYNC1(FN(win_unlock_all), WIN_UNLOCK_ALL)
FALIAS(win_unlock_all, WIN_UNLOCK_ALL)
FSYNC2(FN(win_flush), WIN_FLUSH)
FALIAS(win_flush, WIN_FLUSH)
FSYNC3(FN(win_post), WIN_POST)
FALIAS(win_post, WIN_POST)
FSYNC3(FN(win_start), WIN_START)
FALIAS(win_start, WIN_START)
FSYNC1(FN(win_complete), WIN_COMPLETE)
FALIAS(win_complete, WIN_COMPLETE)
FSYNC1(FN(win_wait), WIN_WAIT)
FALIAS(win_wait, WIN_WAIT)
void FN(win_free)(F *win, F *ierr)
{
	PMK__MPI_ENTER(WIN_FREE)
	pmk__mpi_win_forget(PMPI_Win_f2c(*win));
	REAL(FN(win_free), void (*)(F *, F *), win, ierr);
	PMK__MPI_LEAVE(WIN_FREE, 0, 0)
}
FALIAS(win_free, WIN_FREE)

void FN(file_open)(F *comm, char *name, F *amode, F *info, F *fh, F *ierr,
		    size_t len)
{
	PMK__MPI_ENTER(FILE_OPEN)
	REAL(FN(file_open),
	     void (*)(F *, char *, F *, F *, F *, F *, size_t), comm, name,
	     amode, info, fh, ierr, len);
	PMK__MPI_LEAVE(FILE_OPEN, 0, 0)
}
FALIAS(file_open, FILE_OPEN)
FSYNC1(FN(file_close), FILE_CLOSE)
FALIAS(file_close, FILE_CLOSE)
FSYNC1(FN(file_sync), FILE_SYNC)
FALIAS(file_sync, FILE_SYNC)

FFILE(FN(file_read), FILE_READ, 0)
FALIAS(file_read, FILE_READ)
FFILE(FN(file_write), FILE_WRITE, 1)
FALIAS(file_write, FILE_WRITE)
FFILE(FN(file_read_all), FILE_READ_ALL, 0)
FALIAS(file_read_all, FILE_READ_ALL)
FFILE(FN(file_write_all), FILE_WRITE_ALL, 1)
FALIAS(file_write_all, FILE_WRITE_ALL)
FFILE_AT(FN(file_read_at), FILE_READ_AT, 0)
FALIAS(file_read_at, FILE_READ_AT)
FFILE_AT(FN(file_write_at), FILE_WRITE_AT, 1)
FALIAS(file_write_at, FILE_WRITE_AT)
FFILE_AT(FN(file_read_at_all), FILE_READ_AT_ALL, 0)
FALIAS(file_read_at_all, FILE_READ_AT_ALL)
FFILE_AT(FN(file_write_at_all), FILE_WRITE_AT_ALL, 1)
FALIAS(file_write_at_all, FILE_WRITE_AT_ALL)
