/*
 * lastword.c: the record of a rank that does not reach MPI_Finalize.
 *
 * A job that dies takes the gather at MPI_Finalize with it, and with it
 * every rank's data. So from MPI_Init on, each rank is ready to write its
 * own record, flagged with what ended it, into PMKIT_MPI_DIR (or, when
 * that is not set, the job's default directory, pmkit-mpi.d in the rank's
 * working directory at MPI_Init), where `pmkit mpi report --mpi-merge DIR`
 * puts the job together and names the ranks that left nothing:
 *
 *  - SIGTERM and SIGINT (Open MPI's mpirun sends SIGTERM to the ranks
 *    that are left when one dies, calls MPI_Abort or exits without
 *    MPI_Finalize): a handler, installed after PMPI_Init (the program's
 *    own handlers, if installed earlier, are called after it; installed
 *    later, they replace it);
 *  - MPI_Abort: before PMPI_Abort (pmpi.c);
 *  - exit without MPI_Finalize: the library's destructor (pmpi.c).
 *
 * A rank killed with SIGKILL (or by the kernel's OOM killer) writes
 * nothing: the merge names it missing.
 *
 * What a handler does is async-signal-safe: the paths are made at
 * MPI_Init, the record is formatted into a static array with hand-written
 * number formatting (rank.c, pmk__mpi_record_now), and written with
 * mkdir, open, write, close and rename (a new file renamed into place);
 * then the previous action is restored and the signal raised again (or
 * the program's handler called). The counters of the event set are not
 * read there (the record has no events); a call in progress in another
 * thread may be missing from the counts; in sampled timing, the calls of
 * a burst not yet settled are not estimated.
 *
 * If the job dies while MPI_Finalize gathers the records, a rank's
 * complete record, formatted already, is what the handler writes (into
 * the default directory; with PMKIT_MPI_DIR it is there already).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mpi/rank.h"

#define REC_MAX (256 << 10)

static char dir[4096], path[4352], tmp[4352];
static char rec[REC_MAX];
static int armed, rank0;
static volatile sig_atomic_t done;
static const char *volatile final_text;
static volatile size_t final_len;
static struct sigaction old_term, old_int;

static int put(char *out, size_t cap, const char *a, const char *b, uint64_t n,
	       const char *c)
{
	struct pmk__mpi_buf x = {out, 0, cap};
	pmk__mpi_buf_str(&x, a);
	pmk__mpi_buf_str(&x, b);
	if (c) {
		pmk__mpi_buf_u64(&x, n);
		pmk__mpi_buf_str(&x, c);
	}
	return x.n + 1 < cap ? 0 : -1;
}

static void on_signal(int sig, siginfo_t *si, void *uc);

void pmk__mpi_lastword_arm(int rank)
{
	const char *env = getenv("PMKIT_MPI_DIR");
	const char *out = getenv("PMKIT_MPI_OUTPUT");
	struct sigaction sa;
	char cwd[2048];
	armed = 0;
	rank0 = rank == 0;
	if (env && !strcmp(env, "none"))
		return;
	if (!env || !*env) {
		/* no files wanted: no default directory either */
		if (out && !strcmp(out, "none"))
			return;
		env = "pmkit-mpi.d";
	}
	if (env[0] == '/')
		cwd[0] = 0;
	else if (!getcwd(cwd, sizeof cwd))
		return;
	if (put(dir, sizeof dir, cwd, cwd[0] ? "/" : "", 0, NULL) ||
	    put(dir + strlen(dir), sizeof dir - strlen(dir), env, "", 0,
		NULL) ||
	    put(path, sizeof path, dir, "/pmkit-mpi.", (uint64_t)rank,
		".json") ||
	    put(tmp, sizeof tmp, path, ".new.", (uint64_t)getpid(), ""))
		return;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_signal;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, SIGTERM);
	sigaddset(&sa.sa_mask, SIGINT);
	sigaction(SIGTERM, &sa, &old_term);
	sigaction(SIGINT, &sa, &old_int);
	armed = 1;
}

static void write_all(int fd, const char *p, size_t n)
{
	while (n > 0) {
		ssize_t k = write(fd, p, n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return;
		p += k;
		n -= (size_t)k;
	}
}

/* the record into DIR (async-signal-safe); 0 when written */
static int write_record(const char *text, size_t len)
{
	int fd, err = errno, ok;
	if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
		errno = err;
		return -1;
	}
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC,
		  0644);
	if (fd < 0) {
		errno = err;
		return -1;
	}
	write_all(fd, text, len);
	ok = close(fd) == 0 && rename(tmp, path) == 0;
	if (!ok)
		unlink(tmp);
	errno = err;
	return ok ? 0 : -1;
}

static void say(const char *why, int complete)
{
	char line[4608];
	struct pmk__mpi_buf b = {line, 0, sizeof line};
	pmk__mpi_buf_str(&b, "pmkit-mpi: rank ");
	pmk__mpi_buf_u64(&b, (uint64_t)pmk__mpi_rank());
	pmk__mpi_buf_str(&b, complete ? ": job ended during MPI_Finalize ("
				      : ": ended before MPI_Finalize (");
	pmk__mpi_buf_str(&b, why);
	pmk__mpi_buf_str(&b, "): its record is in ");
	pmk__mpi_buf_str(&b, path);
	pmk__mpi_buf_str(&b, " (pmkit mpi report --mpi-merge ");
	pmk__mpi_buf_str(&b, dir);
	pmk__mpi_buf_str(&b, ")\n");
	if (write(2, line, b.n) < 0)
		return;
}

void pmk__mpi_lastword(const char *why)
{
	size_t n;
	const char *text;
	if (!armed || done)
		return;
	if (pmk__mpi_on) {
		done = 1;
		/* stop counting: the record is this moment's */
		pmk__mpi_on = 0;
		pmk__mpi_gate = 0;
		n = pmk__mpi_record_now(rec, sizeof rec, why);
		/* rank 0 says where the records are; a rank that ended the
		 * job itself says so too */
		if (n && write_record(rec, n) == 0 &&
		    (rank0 ||
		     (strcmp(why, "SIGTERM") && strcmp(why, "SIGINT"))))
			say(why, 0);
		return;
	}
	text = final_text;
	if (text) {
		done = 1;
		if (write_record(text, final_len) == 0 && rank0)
			say(why, 1);
	}
}

void pmk__mpi_lastword_final(const char *text, size_t len)
{
	const char *env = getenv("PMKIT_MPI_DIR");
	if (text && env && *env)
		return; /* written there already (or "none") */
	final_len = len;
	final_text = text;
}

static void on_signal(int sig, siginfo_t *si, void *uc)
{
	struct sigaction *old = sig == SIGTERM ? &old_term : &old_int;
	pmk__mpi_lastword(sig == SIGTERM ? "SIGTERM" : "SIGINT");
	sigaction(sig, old, NULL);
	if (old->sa_flags & SA_SIGINFO) {
		if (old->sa_sigaction)
			old->sa_sigaction(sig, si, uc);
	} else if (old->sa_handler == SIG_DFL) {
		raise(sig); /* delivered when this handler returns */
	} else if (old->sa_handler != SIG_IGN) {
		old->sa_handler(sig);
	}
}
