/*
 * pmpi_ext.c: libpmkit-mpi's C wrappers of persistent requests, one-sided
 * communication and MPI-IO (the functions of rank.h's
 * PMK__MPI_FUNCS_EXT), timed and counted as pmpi.c's.
 *
 * Bytes and pairs (who talks to whom, comm.h):
 *  - MPI_Send_init and MPI_Recv_init only set a request up: no bytes. Each
 *    MPI_Start / MPI_Startall of a send request counts its bytes as sent
 *    and its pair, as a send would; of a receive request, its buffer's
 *    size as received (as MPI_Irecv). The requests set up are remembered
 *    in a small table by handle (an entry is replaced when its handle is
 *    reused; past 1,024 live persistent requests, the rest start without
 *    bytes).
 *  - MPI_Put and MPI_Accumulate count the origin buffer as sent and the
 *    pair to the target (its rank in the window's group translated to
 *    MPI_COMM_WORLD); MPI_Get counts it as received, in no pair (the
 *    bytes come from the target: a pair is the sender's).
 *  - MPI-IO reads and writes count their buffer as received and sent
 *    (what was asked, not what the status says was done).
 * Under MPI_THREAD_MULTIPLE the two tables (persistent requests, windows'
 * translations) are used under a spin lock.
 */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "mpi/rank.h"

uint64_t pmk__mpi_tbytes(int count, MPI_Datatype t) PMK__MPI_HIDDEN;
int pmk__mpi_world_rank(int dest, MPI_Comm comm) PMK__MPI_HIDDEN;
/* pmpi.c: a group's ranks in MPI_COMM_WORLD (a new array of *n) */
int *pmk__mpi_group_world(MPI_Group g, int *n) PMK__MPI_HIDDEN;
void pmk__mpi_persist_init(MPI_Request req, int send, int world,
			   uint64_t bytes) PMK__MPI_HIDDEN;
void pmk__mpi_persist_start(MPI_Request req, uint64_t *sent,
			    uint64_t *recv) PMK__MPI_HIDDEN;
int pmk__mpi_win_world_rank(int target, MPI_Win win) PMK__MPI_HIDDEN;
void pmk__mpi_win_forget(MPI_Win win) PMK__MPI_HIDDEN;

static inline uint64_t tbytes(int count, MPI_Datatype t)
{
	return pmk__mpi_tbytes(count, t);
}

static int ext_lock_word;
static int ext_lock(void)
{
	int threads = pmk__mpi_mode == PMK__MPI_THREADS;
	if (threads)
		while (__atomic_exchange_n(&ext_lock_word, 1, __ATOMIC_ACQUIRE))
			;
	return threads;
}
static void ext_unlock(int threads)
{
	if (threads)
		__atomic_store_n(&ext_lock_word, 0, __ATOMIC_RELEASE);
}

/* ---- persistent requests ------------------------------------------------ */

#define PERSIST_SLOTS 1024 /* a power of 2 */
static struct persist {
	MPI_Request req;
	int used, send, world;
	uint64_t bytes;
} persist[PERSIST_SLOTS];

static unsigned req_slot(MPI_Request r)
{
	uint64_t k = 0;
	memcpy(&k, &r, sizeof r < sizeof k ? sizeof r : sizeof k);
	return (unsigned)((k * 0x9e3779b97f4a7c15u) >> 54) &
	       (PERSIST_SLOTS - 1);
}

void pmk__mpi_persist_init(MPI_Request req, int send, int world, uint64_t bytes)
{
	unsigned i = req_slot(req), n;
	int t;
	if (req == MPI_REQUEST_NULL)
		return;
	t = ext_lock();
	for (n = 0; n < PERSIST_SLOTS; n++, i = (i + 1) & (PERSIST_SLOTS - 1))
		if (!persist[i].used || persist[i].req == req) {
			persist[i] =
			    (struct persist){req, 1, send, world, bytes};
			break;
		}
	ext_unlock(t);
}

void pmk__mpi_persist_start(MPI_Request req, uint64_t *sent, uint64_t *recv)
{
	unsigned i = req_slot(req), n;
	struct persist p = {0};
	int t = ext_lock();
	for (n = 0; n < PERSIST_SLOTS && persist[i].used;
	     n++, i = (i + 1) & (PERSIST_SLOTS - 1))
		if (persist[i].req == req) {
			p = persist[i];
			break;
		}
	ext_unlock(t);
	if (!p.used)
		return;
	if (p.send) {
		*sent += p.bytes;
		pmk__mpi_comm_send(p.world, p.bytes);
	} else
		*recv += p.bytes;
}

int MPI_Send_init(const void *buf, int count, MPI_Datatype t, int dest, int tag,
		  MPI_Comm comm, MPI_Request *req)
{
	int rc;
	PMK__MPI_ENTER(SEND_INIT)
	rc = PMPI_Send_init(buf, count, t, dest, tag, comm, req);
	if (pmk_on_ && rc == MPI_SUCCESS)
		pmk__mpi_persist_init(*req, 1, pmk__mpi_world_rank(dest, comm),
				      tbytes(count, t));
	PMK__MPI_LEAVE(SEND_INIT, 0, 0)
	return rc;
}

int MPI_Recv_init(void *buf, int count, MPI_Datatype t, int src, int tag,
		  MPI_Comm comm, MPI_Request *req)
{
	int rc;
	PMK__MPI_ENTER(RECV_INIT)
	rc = PMPI_Recv_init(buf, count, t, src, tag, comm, req);
	if (pmk_on_ && rc == MPI_SUCCESS)
		pmk__mpi_persist_init(*req, 0, -1, tbytes(count, t));
	PMK__MPI_LEAVE(RECV_INIT, 0, 0)
	return rc;
}

int MPI_Start(MPI_Request *req)
{
	uint64_t sent = 0, recv = 0;
	MPI_Request r = req ? *req : MPI_REQUEST_NULL;
	int rc;
	PMK__MPI_ENTER(START)
	rc = PMPI_Start(req);
	if (pmk_on_ && rc == MPI_SUCCESS)
		pmk__mpi_persist_start(r, &sent, &recv);
	PMK__MPI_LEAVE(START, sent, recv)
	return rc;
}

int MPI_Startall(int n, MPI_Request reqs[])
{
	uint64_t sent = 0, recv = 0;
	int rc;
	PMK__MPI_ENTER(STARTALL)
	rc = PMPI_Startall(n, reqs);
	for (int i = 0; pmk_on_ && rc == MPI_SUCCESS && i < n; i++)
		pmk__mpi_persist_start(reqs[i], &sent, &recv);
	PMK__MPI_LEAVE(STARTALL, sent, recv)
	return rc;
}

/* ---- one-sided ------------------------------------------------------------
 */

/* A target rank of a window as a rank of MPI_COMM_WORLD, through the
 * window's group, translated once for the last few windows (MPI_Win_free
 * forgets one: a handle may be reused). -1: none. */
#define WXLATE_SLOTS 4
static struct wxlate {
	MPI_Win win; /* MPI_WIN_NULL: empty */
	int n, *world;
} wxlate[WXLATE_SLOTS];
static unsigned wxlate_next;

static int win_world_rank(int target, MPI_Win win);
int pmk__mpi_win_world_rank(int target, MPI_Win win)
{
	int t = ext_lock(), w = win_world_rank(target, win);
	ext_unlock(t);
	return w;
}

static int win_world_rank(int target, MPI_Win win)
{
	struct wxlate *x;
	MPI_Group g;
	if (target < 0)
		return -1;
	for (int i = 0; i < WXLATE_SLOTS; i++)
		if (wxlate[i].world && wxlate[i].win == win)
			return target < wxlate[i].n ? wxlate[i].world[target]
						    : -1;
	x = &wxlate[wxlate_next++ % WXLATE_SLOTS];
	free(x->world);
	x->world = NULL;
	if (PMPI_Win_get_group(win, &g) != MPI_SUCCESS)
		return -1;
	x->world = pmk__mpi_group_world(g, &x->n);
	if (x->world)
		x->win = win;
	PMPI_Group_free(&g);
	return x->world && target < x->n ? x->world[target] : -1;
}

void pmk__mpi_win_forget(MPI_Win win)
{
	int t = ext_lock();
	for (int i = 0; i < WXLATE_SLOTS; i++)
		if (wxlate[i].world && wxlate[i].win == win) {
			free(wxlate[i].world);
			wxlate[i].world = NULL;
		}
	ext_unlock(t);
}

int MPI_Win_create(void *base, MPI_Aint size, int disp_unit, MPI_Info info,
		   MPI_Comm comm, MPI_Win *win)
{
	int rc;
	PMK__MPI_ENTER(WIN_CREATE)
	rc = PMPI_Win_create(base, size, disp_unit, info, comm, win);
	PMK__MPI_LEAVE(WIN_CREATE, 0, 0)
	return rc;
}

int MPI_Win_allocate(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm,
		     void *base, MPI_Win *win)
{
	int rc;
	PMK__MPI_ENTER(WIN_ALLOCATE)
	rc = PMPI_Win_allocate(size, disp_unit, info, comm, base, win);
	PMK__MPI_LEAVE(WIN_ALLOCATE, 0, 0)
	return rc;
}

int MPI_Win_free(MPI_Win *win)
{
	int rc;
	PMK__MPI_ENTER(WIN_FREE)
	if (win)
		pmk__mpi_win_forget(*win);
	rc = PMPI_Win_free(win);
	PMK__MPI_LEAVE(WIN_FREE, 0, 0)
	return rc;
}

#define COUNT_PUT(target, win, bytes)                                          \
	if (pmk_on_)                                                           \
		pmk__mpi_comm_send(pmk__mpi_win_world_rank(target, win), bytes);

int MPI_Put(const void *obuf, int ocount, MPI_Datatype ot, int target,
	    MPI_Aint disp, int tcount, MPI_Datatype tt, MPI_Win win)
{
	int rc;
	PMK__MPI_ENTER(PUT)
	rc = PMPI_Put(obuf, ocount, ot, target, disp, tcount, tt, win);
	COUNT_PUT(target, win, tbytes(ocount, ot))
	PMK__MPI_LEAVE(PUT, tbytes(ocount, ot), 0)
	return rc;
}

int MPI_Get(void *obuf, int ocount, MPI_Datatype ot, int target, MPI_Aint disp,
	    int tcount, MPI_Datatype tt, MPI_Win win)
{
	int rc;
	PMK__MPI_ENTER(GET)
	rc = PMPI_Get(obuf, ocount, ot, target, disp, tcount, tt, win);
	PMK__MPI_LEAVE(GET, 0, tbytes(ocount, ot))
	return rc;
}

int MPI_Accumulate(const void *obuf, int ocount, MPI_Datatype ot, int target,
		   MPI_Aint disp, int tcount, MPI_Datatype tt, MPI_Op op,
		   MPI_Win win)
{
	int rc;
	PMK__MPI_ENTER(ACCUMULATE)
	rc = PMPI_Accumulate(obuf, ocount, ot, target, disp, tcount, tt, op,
			     win);
	COUNT_PUT(target, win, tbytes(ocount, ot))
	PMK__MPI_LEAVE(ACCUMULATE, tbytes(ocount, ot), 0)
	return rc;
}

/* synchronization: time only */
#define WIN_SYNC(NAME, ID, PARAMS, ARGS)                                       \
	int MPI_##NAME PARAMS                                                  \
	{                                                                      \
		int rc;                                                        \
		PMK__MPI_ENTER(ID)                                             \
		rc = PMPI_##NAME ARGS;                                         \
		PMK__MPI_LEAVE(ID, 0, 0)                                       \
		return rc;                                                     \
	}
WIN_SYNC(Win_fence, WIN_FENCE, (int assert, MPI_Win win), (assert, win))
WIN_SYNC(Win_lock, WIN_LOCK, (int type, int rank, int assert, MPI_Win win),
	 (type, rank, assert, win))
WIN_SYNC(Win_unlock, WIN_UNLOCK, (int rank, MPI_Win win), (rank, win))
WIN_SYNC(Win_lock_all, WIN_LOCK_ALL, (int assert, MPI_Win win), (assert, win))
WIN_SYNC(Win_unlock_all, WIN_UNLOCK_ALL, (MPI_Win win), (win))
WIN_SYNC(Win_flush, WIN_FLUSH, (int rank, MPI_Win win), (rank, win))
WIN_SYNC(Win_post, WIN_POST, (MPI_Group g, int assert, MPI_Win win),
	 (g, assert, win))
WIN_SYNC(Win_start, WIN_START, (MPI_Group g, int assert, MPI_Win win),
	 (g, assert, win))
WIN_SYNC(Win_complete, WIN_COMPLETE, (MPI_Win win), (win))
WIN_SYNC(Win_wait, WIN_WAIT, (MPI_Win win), (win))

/* ---- MPI-IO ---------------------------------------------------------------
 */

int MPI_File_open(MPI_Comm comm, const char *name, int amode, MPI_Info info,
		  MPI_File *fh)
{
	int rc;
	PMK__MPI_ENTER(FILE_OPEN)
	rc = PMPI_File_open(comm, name, amode, info, fh);
	PMK__MPI_LEAVE(FILE_OPEN, 0, 0)
	return rc;
}

int MPI_File_close(MPI_File *fh)
{
	int rc;
	PMK__MPI_ENTER(FILE_CLOSE)
	rc = PMPI_File_close(fh);
	PMK__MPI_LEAVE(FILE_CLOSE, 0, 0)
	return rc;
}

int MPI_File_set_view(MPI_File fh, MPI_Offset disp, MPI_Datatype et,
		      MPI_Datatype ft, const char *rep, MPI_Info info)
{
	int rc;
	PMK__MPI_ENTER(FILE_SET_VIEW)
	rc = PMPI_File_set_view(fh, disp, et, ft, rep, info);
	PMK__MPI_LEAVE(FILE_SET_VIEW, 0, 0)
	return rc;
}

int MPI_File_sync(MPI_File fh)
{
	int rc;
	PMK__MPI_ENTER(FILE_SYNC)
	rc = PMPI_File_sync(fh);
	PMK__MPI_LEAVE(FILE_SYNC, 0, 0)
	return rc;
}

#define FILE_RW(NAME, ID, BUFQ, SENT, RECV)                                    \
	int MPI_File_##NAME(MPI_File fh, BUFQ void *buf, int count,            \
			    MPI_Datatype t, MPI_Status *st)                    \
	{                                                                      \
		int rc;                                                        \
		PMK__MPI_ENTER(ID)                                             \
		rc = PMPI_File_##NAME(fh, buf, count, t, st);                  \
		PMK__MPI_LEAVE(ID, SENT, RECV)                                 \
		return rc;                                                     \
	}
#define FILE_RW_AT(NAME, ID, BUFQ, SENT, RECV)                                 \
	int MPI_File_##NAME(MPI_File fh, MPI_Offset off, BUFQ void *buf,       \
			    int count, MPI_Datatype t, MPI_Status *st)         \
	{                                                                      \
		int rc;                                                        \
		PMK__MPI_ENTER(ID)                                             \
		rc = PMPI_File_##NAME(fh, off, buf, count, t, st);             \
		PMK__MPI_LEAVE(ID, SENT, RECV)                                 \
		return rc;                                                     \
	}
#define NOQ
FILE_RW(read, FILE_READ, NOQ, 0, tbytes(count, t))
FILE_RW(write, FILE_WRITE, const, tbytes(count, t), 0)
FILE_RW(read_all, FILE_READ_ALL, NOQ, 0, tbytes(count, t))
FILE_RW(write_all, FILE_WRITE_ALL, const, tbytes(count, t), 0)
FILE_RW_AT(read_at, FILE_READ_AT, NOQ, 0, tbytes(count, t))
FILE_RW_AT(write_at, FILE_WRITE_AT, const, tbytes(count, t), 0)
FILE_RW_AT(read_at_all, FILE_READ_AT_ALL, NOQ, 0, tbytes(count, t))
FILE_RW_AT(write_at_all, FILE_WRITE_AT_ALL, const, tbytes(count, t), 0)

int MPI_File_iread(MPI_File fh, void *buf, int count, MPI_Datatype t,
		   MPI_Request *req)
{
	int rc;
	PMK__MPI_ENTER(FILE_IREAD)
	rc = PMPI_File_iread(fh, buf, count, t, req);
	PMK__MPI_LEAVE(FILE_IREAD, 0, tbytes(count, t))
	return rc;
}

int MPI_File_iwrite(MPI_File fh, const void *buf, int count, MPI_Datatype t,
		    MPI_Request *req)
{
	int rc;
	PMK__MPI_ENTER(FILE_IWRITE)
	rc = PMPI_File_iwrite(fh, buf, count, t, req);
	PMK__MPI_LEAVE(FILE_IWRITE, tbytes(count, t), 0)
	return rc;
}
