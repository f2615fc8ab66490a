/*
 * perfconv.c: a perf.data file converted into a pmkit record file (the
 * other way is perfwrite.c). The translation is perfdata.c's, the one
 * every report of a perf.data file goes through; the record file is
 * written as pmkit's output files are (lib/core/outfile.h). Pipe-mode
 * input is read from memory like a file (perfdata.c knows both).
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/core/diag.h"
#include "lib/core/outfile.h"
#include "lib/sample/perfdata.h"
#include "pmkit/sample.h"

int pmk_perfdata_to_rec(const char *in, const char *out, unsigned flags,
			pmk_diag *d)
{
	pmk__outfile of;
	struct stat st;
	uint64_t skipped = 0;
	void *m;
	int fd, rc;
	pmk_diag_clear(d);
	fd = open(in, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return pmk__diag_file(d, PMK_EIO, errno, in, NULL,
				      "cannot read '%s'", in);
	if (fstat(fd, &st) || st.st_size <= 0) {
		close(fd);
		return pmk__diag_file(d, PMK_EFORMAT, 0, in, NULL,
				      "'%s' is empty", in);
	}
	m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (m == MAP_FAILED)
		return pmk__diag_file(d, PMK_EIO, errno, in, NULL,
				      "cannot read '%s'", in);
	if (!pmk__perfdata_is(m, (size_t)st.st_size)) {
		munmap(m, (size_t)st.st_size);
		return pmk__diag_file(d, PMK_EFORMAT, 0, in, NULL,
				      "'%s' is not a perf.data file", in);
	}
	memset(&of, 0, sizeof of);
	of.fd = -1;
	rc = pmk__outfile_open(
	    &of, out,
	    PMK__OUT_DASH | PMK__OUT_PRIVATE |
		(flags & PMK_PERFDATA_NO_BACKUP ? PMK__OUT_NO_BACKUP : 0),
	    d);
	if (!rc) {
		rc = pmk__perfdata_convert(m, (size_t)st.st_size, of.fd,
					   &skipped, d);
		if (!rc)
			rc = pmk__outfile_commit(&of, d);
		else
			pmk__outfile_abort(&of);
	}
	munmap(m, (size_t)st.st_size);
	return rc;
}

int pmk_rec_file_kind(const char *path)
{
	char m[8];
	int fd = open(path, O_RDONLY | O_CLOEXEC), e;
	ssize_t n;
	if (fd < 0)
		return PMK_EIO;
	n = read(fd, m, sizeof m);
	e = errno;
	close(fd);
	if (n < 0) {
		errno = e;
		return PMK_EIO;
	}
	if (n == 8 && !memcmp(m, "PERFILE2", 8))
		return PMK_FILE_PERFDATA;
	if (n == 8 && !memcmp(m, "PMKITREC", 8))
		return PMK_FILE_RECORD;
	return 0;
}

int pmk_perfdata_info_read(const char *path, pmk_perfdata_info *info,
			   pmk_diag *d)
{
	struct stat st;
	void *m;
	int fd, rc;
	pmk_diag_clear(d);
	memset(info, 0, sizeof *info);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return pmk__diag_file(d, PMK_EIO, errno, path, NULL,
				      "cannot read '%s'", path);
	if (fstat(fd, &st) || st.st_size < 16) {
		close(fd);
		return pmk__diag_file(d, PMK_EFORMAT, 0, path, NULL,
				      "'%s' is not a perf.data file", path);
	}
	m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (m == MAP_FAILED)
		return pmk__diag_file(d, PMK_EIO, errno, path, NULL,
				      "cannot read '%s'", path);
	rc = pmk__perfdata_is(m, (size_t)st.st_size)
		 ? pmk__perfdata_info(m, (size_t)st.st_size, info, d)
		 : pmk__diag_file(d, PMK_EFORMAT, 0, path, NULL,
				  "'%s' is not a perf.data file", path);
	munmap(m, (size_t)st.st_size);
	return rc;
}
