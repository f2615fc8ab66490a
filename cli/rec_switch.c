/*
 * rec_switch.c: record's --switch-output cuts (rec_switch.h).
 */
#include "cli/rec_switch.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "lib/core/outfile.h"

static uint64_t mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* NUMBER followed by one of `units` (each a power of `step` more than the
 * one before, the first 1), or -1. */
static int with_unit(const char *s, const char *units, const uint64_t *mult,
		     uint64_t *out)
{
	char *end;
	unsigned long long v;
	const char *u;
	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s || !end[0] || end[1] || !v)
		return -1;
	u = strchr(units, end[0] | 0x20);
	if (!u)
		return -1;
	if (v > UINT64_MAX / mult[u - units])
		return -1;
	*out = v * mult[u - units];
	return 0;
}

int rec_switch_parse(struct rec_switch *sw, const char *opt, const char *val)
{
	static const uint64_t bytes[] = {1, 1ull << 10, 1ull << 20, 1ull << 30};
	static const uint64_t secs[] = {1000000000ull, 60000000000ull,
					3600000000000ull, 86400000000000ull};
	sw->on = 1;
	sw->size_bytes = sw->time_ns = 0;
	if (!val || !strcmp(val, "signal"))
		return 0;
	if (!with_unit(val, "bkmg", bytes, &sw->size_bytes) ||
	    !with_unit(val, "smhd", secs, &sw->time_ns))
		return 0;
	cli_error("option '%s' takes signal, a size (NUMBER with B, K, M or "
		  "G) or a time (NUMBER with s, m, h or d), not '%s'",
		  opt, val);
	return EXIT_USAGE;
}

int rec_switch_max_files(struct rec_switch *sw, const char *opt,
			 const char *val)
{
	unsigned long long n;
	if (cli_opt_u64(opt, val, &n))
		return EXIT_USAGE;
	if (n == 0 || n > REC_SWITCH_MAX_FILES) {
		cli_error("option '%s' needs a number of files from 1 to %d",
			  opt, REC_SWITCH_MAX_FILES);
		return EXIT_USAGE;
	}
	sw->max_files = (int)n;
	return 0;
}

void rec_switch_start(struct rec_switch *sw, int fd, uint64_t head_end)
{
	sw->fd = fd;
	sw->head_end = sw->seg_start = head_end;
	sw->seg_t0_ns = mono_ns();
}

static uint64_t file_end(const struct rec_switch *sw)
{
	struct stat st;
	return fstat(sw->fd, &st) == 0 ? (uint64_t)st.st_size : sw->seg_start;
}

int rec_switch_due(const struct rec_switch *sw)
{
	if (sw->time_ns && mono_ns() - sw->seg_t0_ns >= sw->time_ns)
		return 1;
	return sw->size_bytes && file_end(sw) - sw->seg_start >= sw->size_bytes;
}

/* The timestamp of now, another than the last file's. */
static void stamp(struct rec_switch *sw, char *buf, size_t size)
{
	for (int tries = 0;; tries++) {
		struct timespec ts;
		struct tm tm;
		clock_gettime(CLOCK_REALTIME, &ts);
		localtime_r(&ts.tv_sec, &tm);
		snprintf(buf, size, "%04d%02d%02d%02d%02d%02d%02d",
			 tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
			 tm.tm_hour, tm.tm_min, tm.tm_sec,
			 (int)(ts.tv_nsec / 10000000));
		if (strcmp(buf, sw->last) || tries > 20)
			break;
		nanosleep(&(struct timespec){0, 5000000}, NULL);
	}
	snprintf(sw->last, sizeof sw->last, "%s", buf);
}

static int read_at(int fd, char *buf, uint64_t len, uint64_t off)
{
	while (len) {
		ssize_t k = pread(fd, buf, len, (off_t)off);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		buf += k;
		len -= (uint64_t)k;
		off += (uint64_t)k;
	}
	return 0;
}

static int write_rec(const char *path, const char *buf, size_t len, pmk_diag *d)
{
	pmk__outfile of;
	int rc = pmk__outfile_open(&of, path,
				   PMK__OUT_PRIVATE | PMK__OUT_NO_BACKUP, d);
	if (rc < 0)
		return rc;
	while (len) {
		ssize_t k = write(of.fd, buf, len);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			pmk_diag_clear(d);
			d->code = PMK_EIO;
			snprintf(d->message, sizeof d->message,
				 "cannot write '%s': %s", path,
				 strerror(k < 0 ? errno : EIO));
			pmk__outfile_abort(&of);
			return PMK_EIO;
		}
		buf += k;
		len -= (size_t)k;
	}
	return pmk__outfile_commit(&of, d);
}

/* Keep the newest max_files: forget (and remove) the oldest. */
static void keep(struct rec_switch *sw, const char *name)
{
	char **f;
	if (!sw->max_files)
		return;
	if (!sw->files &&
	    !(sw->files = calloc((size_t)sw->max_files, sizeof *sw->files)))
		return;
	if (sw->nfiles == sw->max_files) {
		unlink(sw->files[0]);
		free(sw->files[0]);
		memmove(sw->files, sw->files + 1,
			(size_t)(sw->nfiles - 1) * sizeof *sw->files);
		sw->nfiles--;
	}
	f = &sw->files[sw->nfiles];
	if ((*f = strdup(name)))
		sw->nfiles++;
}

int rec_switch_cut(struct rec_switch *sw, const char *out, int perf,
		   const pmk_perfdata_opts *po, char *name, size_t size,
		   pmk_diag *d)
{
	uint64_t end = file_end(sw), seg = end - sw->seg_start;
	char ts[64], *buf;
	int rc;
	pmk_diag_clear(d);
	stamp(sw, ts, sizeof ts);
	if (snprintf(name, size, "%s.%s", out, ts) >= (int)size) {
		d->code = PMK_EINVAL;
		snprintf(d->message, sizeof d->message,
			 "output name '%s' too long", out);
		return PMK_EINVAL;
	}
	buf = malloc(sw->head_end + seg + 1);
	if (!buf || read_at(sw->fd, buf, sw->head_end, 0) ||
	    read_at(sw->fd, buf + sw->head_end, seg, sw->seg_start)) {
		free(buf);
		d->code = PMK_EIO;
		snprintf(d->message, sizeof d->message,
			 "cannot read back the recording for '%s': %s", name,
			 buf ? strerror(errno ? errno : EIO) : "out of memory");
		return PMK_EIO;
	}
	if (perf)
		rc = pmk_perfdata_write_mem(buf, sw->head_end + seg, name, po,
					    d);
	else
		rc = write_rec(name, buf, sw->head_end + seg, d);
	free(buf);
	/* the records taken are not read again: give their space back */
	if (seg)
		fallocate(sw->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
			  (off_t)sw->seg_start, (off_t)seg);
	sw->seg_start = end;
	sw->seg_t0_ns = mono_ns();
	if (rc == 0)
		keep(sw, name);
	return rc;
}

void rec_switch_release(struct rec_switch *sw)
{
	for (int i = 0; i < sw->nfiles; i++)
		free(sw->files[i]);
	free(sw->files);
	sw->files = NULL;
	sw->nfiles = 0;
}
