/*
 * outfile.c: new file, then rename into place (outfile.h).
 */
#include <errno.h>
#include <pthread.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/capability.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "lib/core/diag.h"
#include "lib/core/outfile.h"

static int fail(pmk_diag *d, int code, int e, const char *path,
		const char *what)
{
	return pmk__diag_file(d, code, e, path,
			      e == ENOSPC || e == EDQUOT
				  ? "free space on its file system or write "
				    "elsewhere with -o"
				  : NULL,
			      "cannot write '%.180s': %s", path,
			      what ? what : strerror(e));
}

static int code_of(int e)
{
	switch (e) {
	case ENOENT:
		return PMK_ENOENT;
	case EACCES:
	case EPERM:
	case EROFS:
		return PMK_EPERM;
	case ENOMEM:
		return PMK_ENOMEM;
	default:
		return PMK_EIO;
	}
}

static int create_tmp(pmk__outfile *of, pmk_diag *d)
{
	static unsigned counter;
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	for (int tries = 0; tries < 64; tries++) {
		unsigned long x = (unsigned long)ts.tv_nsec ^
				  ((unsigned long)getpid() << 16) ^
				  (unsigned long)(++counter * 2654435761u);
		char sfx[8];
		static const char al[] = "abcdefghijklmnopqrstuvwxyz0123456789";
		for (int i = 0; i < 6; i++, x /= 36)
			sfx[i] = al[x % 36];
		sfx[6] = 0;
		if (snprintf(of->tmp, sizeof of->tmp, "%s.tmp-%s", of->path,
			     sfx) >= (int)sizeof of->tmp)
			return fail(d, PMK_EINVAL, ENAMETOOLONG, of->path,
				    NULL);
		of->fd = open(of->tmp,
			      O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
				  O_NOCTTY | O_CLOEXEC,
			      (of->flags & PMK__OUT_PRIVATE) ? 0600 : 0644);
		if (of->fd >= 0) {
			struct stat st;
			/* new, ours, and a plain file: nothing else could
			 * have been opened under O_EXCL, checked anyway */
			if (fstat(of->fd, &st) == 0 && S_ISREG(st.st_mode) &&
			    st.st_nlink == 1)
				return 0;
			close(of->fd);
			unlink(of->tmp);
			of->fd = -1;
			of->tmp[0] = 0;
			return fail(d, PMK_EIO, EEXIST, of->path,
				    "the new file is not a plain file of its "
				    "own");
		}
		if (errno != EEXIST) {
			int e = errno;
			of->tmp[0] = 0;
			return fail(d, code_of(e), e, of->path, NULL);
		}
		ts.tv_nsec += 7919;
	}
	of->tmp[0] = 0;
	return fail(d, PMK_EEXIST, EEXIST, of->path,
		    "cannot create a new file next to it");
}

/* The null device (1:3, wherever its node is): the one device written to,
 * since writing it can harm nothing. */
static int is_null_dev(const struct stat *st)
{
	return S_ISCHR(st->st_mode) && st->st_rdev == makedev(1, 3);
}

static const char *kind_of(mode_t m)
{
	if (S_ISDIR(m))
		return "it is a directory";
	if (S_ISFIFO(m))
		return "it is a FIFO, not a regular file";
	if (S_ISCHR(m))
		return "it is a character device, not a regular file";
	if (S_ISBLK(m))
		return "it is a block device, not a regular file";
	if (S_ISSOCK(m))
		return "it is a socket, not a regular file";
	return "it is not a regular file";
}

static int refuse_kind(pmk_diag *d, const char *path, mode_t m)
{
	return pmk__diag_file(
	    d, PMK_EINVAL, 0, path,
	    S_ISDIR(m) ? "name a file in it"
		       : "pmkit writes regular files only (and -, /dev/null, "
			 "/dev/stdout); to feed a pipe, write to - and "
			 "redirect",
	    "cannot write '%.180s': %s", path, kind_of(m));
}

/* Whether this process may remove or replace `st` (a file in the directory
 * `dir`): the sticky bit of /tmp lets only the owners of the file and of
 * the directory, and CAP_FOWNER, do it. */
static int has_fowner(void)
{
	struct __user_cap_header_struct h = {_LINUX_CAPABILITY_VERSION_3, 0};
	struct __user_cap_data_struct c[2];
	memset(c, 0, sizeof c);
	if (syscall(SYS_capget, &h, c) != 0)
		return geteuid() == 0;
	return (c[0].effective >> CAP_FOWNER) & 1;
}

static int may_replace(const struct stat *dir, const struct stat *st)
{
	uid_t u = geteuid();
	if (!(dir->st_mode & S_ISVTX) || st->st_uid == u || dir->st_uid == u)
		return 1;
	return has_fowner();
}

/* The directory part of `path` ("." when it has none). */
static void dir_of(const char *path, char *dir, size_t n)
{
	const char *slash = strrchr(path, '/');
	if (!slash)
		snprintf(dir, n, ".");
	else if (slash == path)
		snprintf(dir, n, "/");
	else
		snprintf(dir, n, "%.*s", (int)(slash - path), path);
}

enum { T_NEW, T_STDOUT, T_FD, T_NULLDEV };

/* What writing `path` means, decided without opening anything at it:
 * T_STDOUT ("-"), T_FD (a descriptor named as a file, *fd set), T_NULLDEV,
 * or T_NEW (a new file renamed into place, after checking that it can be
 * created and that NAME and NAME.old can be moved). Or an error. */
static int classify(const char *path, unsigned flags, int *fd, pmk_diag *d)
{
	struct stat st, dst, ost;
	char dir[PATH_MAX], old[PATH_MAX + 8];
	int exists;
	if (!path || !*path)
		return fail(d, PMK_EINVAL, EINVAL, "", "no file name");
	if (strlen(path) >= PATH_MAX - 16)
		return fail(d, PMK_EINVAL, ENAMETOOLONG, path, NULL);
	if ((flags & PMK__OUT_DASH) && !strcmp(path, "-"))
		return T_STDOUT;
	/* a descriptor named as a file (/dev/stdout, /dev/fd/N,
	 * /proc/self/fd/N): the caller's own, written through it; a rename
	 * would replace the link in /dev itself */
	{
		int n = -1;
		char *end;
		const char *num = !strncmp(path, "/dev/fd/", 8)	  ? path + 8
				  : !strncmp(path, "/proc/self/fd/", 14) ? path + 14
									  : NULL;
		if (!strcmp(path, "/dev/stdout"))
			n = STDOUT_FILENO;
		else if (!strcmp(path, "/dev/stderr"))
			n = STDERR_FILENO;
		else if (num && *num) {
			long v = strtol(num, &end, 10);
			if (!*end && v >= 0 && v < 1 << 20)
				n = (int)v;
		}
		if (n >= 0) {
			*fd = n;
			return T_FD;
		}
	}
	/* what is at NAME itself: a link is never followed (it is moved to
	 * NAME.old like a file), a FIFO, device or socket never opened */
	exists = lstat(path, &st) == 0;
	if (!exists && errno != ENOENT)
		return fail(d, code_of(errno), errno, path, NULL);
	if (exists && is_null_dev(&st))
		return T_NULLDEV;
	if (exists && !S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode))
		return refuse_kind(d, path, st.st_mode);
	/* the new file is created beside NAME: the directory must be there
	 * and writable */
	dir_of(path, dir, sizeof dir);
	if (stat(dir, &dst) != 0)
		return fail(d, code_of(errno), errno, path, NULL);
	if (!S_ISDIR(dst.st_mode))
		return fail(d, PMK_ENOENT, ENOTDIR, path, NULL);
	if (faccessat(AT_FDCWD, dir, W_OK | X_OK, AT_EACCESS) != 0) {
		int e = errno;
		return pmk__diag_file(
		    d, code_of(e), e, path,
		    "pmkit creates the new file (and NAME.old) beside NAME; "
		    "write elsewhere with -o",
		    "cannot write '%.180s': %s (its directory)", path,
		    strerror(e));
	}
	if (!exists)
		return T_NEW;
	if (!may_replace(&dst, &st))
		return pmk__diag_file(
		    d, PMK_EPERM, EPERM, path,
		    "the directory is sticky (like /tmp) and the file is "
		    "another user's; write elsewhere with -o",
		    "cannot write '%.180s': it belongs to another user and "
		    "cannot be replaced",
		    path);
	if (flags & PMK__OUT_NO_BACKUP)
		return T_NEW;
	snprintf(old, sizeof old, "%s.old", path);
	if (lstat(old, &ost) == 0) {
		if (S_ISDIR(ost.st_mode))
			return pmk__diag_file(
			    d, PMK_EINVAL, EISDIR, path,
			    "remove or rename it, or write elsewhere with -o",
			    "cannot keep the previous file as '%.180s': it is "
			    "a directory",
			    old);
		if (!may_replace(&dst, &ost))
			return pmk__diag_file(
			    d, PMK_EPERM, EPERM, path,
			    "write elsewhere with -o",
			    "cannot keep the previous file as '%.180s': that "
			    "name belongs to another user",
			    old);
	}
	return T_NEW;
}

int pmk__outfile_check(const char *path, unsigned flags, pmk_diag *d)
{
	int fd = -1, t = classify(path, flags, &fd, d);
	return t < 0 ? t : 0;
}

int pmk__outfile_open(pmk__outfile *of, const char *path, unsigned flags,
		      pmk_diag *d)
{
	struct stat st;
	int n = -1, t;
	memset(of, 0, sizeof *of);
	of->fd = -1;
	of->flags = flags;
	t = classify(path, flags, &n, d);
	if (t < 0)
		return t;
	snprintf(of->path, sizeof of->path, "%s", path);
	switch (t) {
	case T_STDOUT:
		of->fd = STDOUT_FILENO;
		of->in_place = 1;
		return 0;
	case T_FD:
		of->fd = dup(n);
		if (of->fd < 0)
			return fail(d, code_of(errno), errno, path, NULL);
		of->in_place = 1;
		return 0;
	case T_NULLDEV:
		/* O_NOFOLLOW and a second look: what was opened is the null
		 * device, whatever was put at NAME in between */
		of->fd = open(path, O_WRONLY | O_NOFOLLOW | O_NOCTTY |
					O_NONBLOCK | O_CLOEXEC);
		if (of->fd < 0)
			return fail(d, code_of(errno), errno, path, NULL);
		if (fstat(of->fd, &st) != 0 || !is_null_dev(&st)) {
			close(of->fd);
			of->fd = -1;
			return refuse_kind(d, path, st.st_mode);
		}
		of->in_place = 1;
		return 0;
	}
	return create_tmp(of, d);
}

FILE *pmk__outfile_stream(pmk__outfile *of)
{
	if (!of->fp && of->fd >= 0) {
		int fd = of->fd == STDOUT_FILENO ? dup(of->fd) : of->fd;
		if (fd < 0)
			return NULL;
		of->fp = fdopen(fd, "w");
		if (!of->fp) {
			if (fd != of->fd)
				close(fd);
			return NULL;
		}
		of->fd = fd;
	}
	return of->fp;
}

/* Flush and close whatever is open; the first errno, or 0. */
static int close_all(pmk__outfile *of)
{
	int e = 0;
	if (of->fp) {
		if (fflush(of->fp) != 0 || ferror(of->fp))
			e = errno ? errno : EIO;
		if (!e && (of->flags & PMK__OUT_SYNC) && !of->in_place &&
		    fsync(fileno(of->fp)) != 0)
			e = errno;
		if (fclose(of->fp) != 0 && !e)
			e = errno ? errno : EIO;
		of->fp = NULL;
		of->fd = -1;
	} else if (of->fd >= 0) {
		if ((of->flags & PMK__OUT_SYNC) && !of->in_place &&
		    fsync(of->fd) != 0)
			e = errno;
		if (of->fd != STDOUT_FILENO && close(of->fd) != 0 && !e &&
		    errno != EINTR)
			e = errno;
		of->fd = -1;
	}
	return e;
}

/* Rename the new file into place, keeping an existing NAME as NAME.old;
 * an empty regular file at NAME (a name made with mktemp for the output)
 * holds nothing to keep: it is replaced, and a NAME.old from before is
 * left as it is, as perf does with an empty perf.data. */
static int put_in_place(pmk__outfile *of, pmk_diag *d)
{
	char old[PATH_MAX + 8];
	struct stat st;
	int e, backed = 0;
	if (!(of->flags & PMK__OUT_NO_BACKUP) && lstat(of->path, &st) == 0 &&
	    !(S_ISREG(st.st_mode) && st.st_size == 0)) {
		if (snprintf(old, sizeof old, "%s.old", of->path) >=
			(int)sizeof old ||
		    rename(of->path, old) != 0) {
			e = errno;
			return fail(
			    d, code_of(e), e, of->path,
			    "cannot keep the previous file as NAME.old");
		}
		backed = 1;
	}
	if (rename(of->tmp, of->path) != 0) {
		e = errno;
		if (backed)
			rename(old, of->path); /* put the previous one back */
		return fail(d, code_of(e), e, of->path, NULL);
	}
	of->tmp[0] = 0;
	return 0;
}

int pmk__outfile_publish(pmk__outfile *of, pmk_diag *d)
{
	if (of->in_place || !of->tmp[0])
		return 0;
	return put_in_place(of, d);
}

int pmk__outfile_commit(pmk__outfile *of, pmk_diag *d)
{
	int e = close_all(of), rc = 0;
	if (!of->tmp[0]) /* in place already (stream, or published) */
		return e ? fail(d, code_of(e), e, of->path, NULL) : 0;
	if (!e)
		rc = put_in_place(of, d);
	else
		rc = fail(d, code_of(e), e, of->path, NULL);
	if (of->tmp[0])
		unlink(of->tmp);
	of->tmp[0] = 0;
	return rc;
}

void pmk__outfile_abort(pmk__outfile *of)
{
	int e = errno;
	if (of->fp)
		fclose(of->fp);
	else if (of->fd >= 0 && of->fd != STDOUT_FILENO)
		close(of->fd);
	of->fp = NULL;
	of->fd = -1;
	if (of->tmp[0])
		unlink(of->tmp);
	of->tmp[0] = 0;
	errno = e;
}

FILE *pmk__outfile_fopen(pmk__outfile *of, const char *path, unsigned flags,
			 pmk_diag *d)
{
	FILE *f;
	if (pmk__outfile_open(of, path, flags | PMK__OUT_DASH, d) < 0)
		return NULL;
	f = pmk__outfile_stream(of);
	if (!f) {
		int e = errno;
		pmk__outfile_abort(of);
		fail(d, code_of(e), e, path, NULL);
	}
	return f;
}

int pmk__outfile_fclose(pmk__outfile *of, int ok, pmk_diag *d)
{
	if (!ok) {
		pmk__outfile_abort(of);
		return -1;
	}
	return pmk__outfile_commit(of, d) < 0 ? -1 : 0;
}

/* The FILE * interface: a small table from stream to outfile. */
#define OUT_MAX 16
static pmk__outfile *out_tab[OUT_MAX];
static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;

FILE *pmk__out_fopen(const char *path, unsigned flags, pmk_diag *d)
{
	pmk__outfile *of = malloc(sizeof *of);
	FILE *f;
	int slot = -1;
	if (!of) {
		fail(d, PMK_ENOMEM, ENOMEM, path ? path : "", NULL);
		return NULL;
	}
	pthread_mutex_lock(&out_lock);
	for (int i = 0; i < OUT_MAX && slot < 0; i++)
		if (!out_tab[i])
			slot = i;
	if (slot >= 0)
		out_tab[slot] = of; /* reserved */
	pthread_mutex_unlock(&out_lock);
	if (slot < 0) {
		free(of);
		fail(d, PMK_ETOOMANY, EMFILE, path ? path : "",
		     "too many output files open at once");
		return NULL;
	}
	f = pmk__outfile_fopen(of, path, flags, d);
	if (!f) {
		pthread_mutex_lock(&out_lock);
		out_tab[slot] = NULL;
		pthread_mutex_unlock(&out_lock);
		free(of);
	}
	return f;
}

int pmk__out_fclose(FILE *f, int ok, pmk_diag *d)
{
	pmk__outfile *of = NULL;
	int rc;
	if (!f)
		return -1;
	pthread_mutex_lock(&out_lock);
	for (int i = 0; i < OUT_MAX && !of; i++)
		if (out_tab[i] && out_tab[i]->fp == f) {
			of = out_tab[i];
			out_tab[i] = NULL;
		}
	pthread_mutex_unlock(&out_lock);
	if (!of) /* not ours: a plain stream (stdout, stderr) */
		return ok ? (fflush(f) ? -1 : 0) : -1;
	rc = pmk__outfile_fclose(of, ok, d);
	free(of);
	return rc;
}

int pmk__outfile_copy_old(const char *path, FILE *to, pmk_diag *d)
{
	char buf[65536];
	struct stat st;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0 && errno == ENOENT)
		return 0;
	if (fd < 0)
		return pmk__diag_file(d, PMK_EIO, errno, path,
				      errno == ELOOP ? "name a plain file: "
						       "--append never follows "
						       "a link"
						     : NULL,
				      "cannot be read to append to it");
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return pmk__diag_file(d, PMK_EIO, 0, path, NULL,
				      "not a plain file: nothing to append to");
	}
	while ((n = read(fd, buf, sizeof buf)) > 0)
		if (fwrite(buf, 1, (size_t)n, to) != (size_t)n)
			break;
	if (n != 0) {
		int e = n < 0 ? errno : EIO;
		close(fd);
		return pmk__diag_file(d, PMK_EIO, e, path, NULL,
				      "cannot be copied to append to it");
	}
	close(fd);
	return 0;
}
