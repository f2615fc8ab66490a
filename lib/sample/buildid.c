/*
 * buildid.c: perf buildid-list's figures: the build ids a perf.data file's
 * header holds (HEADER_BUILD_ID), and those of the files a loaded profile
 * has samples in.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/diag.h"
#include "pmkit/sample.h"
#include "sample/perfdata.h"
#include "sample/profile.h"
#include "sample/rec_format.h"

#define FEAT_BUILD_ID 2		    /* perf's HEADER_BUILD_ID */
#define MISC_BUILD_ID_SIZE (1u << 15) /* the entry's size byte is valid */

static void put_hex(FILE *out, const uint8_t *id, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		fprintf(out, "%02x", id[i]);
}

static int rd(int fd, void *buf, size_t n, uint64_t off)
{
	return pread(fd, buf, n, (off_t)off) == (ssize_t)n ? 0 : -1;
}

/* Print the entries of the section at [off, off + size): each a perf
 * event header, a pid, 24 bytes of build id (20, then its length when the
 * header's misc says so) and a NUL-terminated file name. */
static int print_section(int fd, uint64_t off, uint64_t size, FILE *out,
			 const char *path, pmk_diag *d)
{
	uint8_t *b;
	uint64_t p = 0;
	int n = 0;
	if (size > (64u << 20))
		return pmk__diag_set(d, PMK_EFORMAT, 0, 0, NULL,
				     "%s: a build-id section of %llu bytes",
				     path, (unsigned long long)size);
	if (!(b = malloc(size ? size : 1)))
		return pmk__diag_set(d, PMK_ENOMEM, 0, 0, NULL,
				     "out of memory");
	if (rd(fd, b, size, off)) {
		free(b);
		return pmk__diag_set(d, PMK_EFORMAT, 0, 0, NULL,
				     "%s: build-id section outside the file",
				     path);
	}
	while (p + 36 <= size) {
		uint16_t misc = (uint16_t)(b[p + 4] | b[p + 5] << 8),
			 len = (uint16_t)(b[p + 6] | b[p + 7] << 8);
		unsigned idlen = 20;
		const char *name = (const char *)b + p + 36;
		if (len < 36 || len > size - p)
			break;
		if (misc & MISC_BUILD_ID_SIZE)
			idlen = b[p + 12 + 20] <= 20 ? b[p + 12 + 20] : 20;
		put_hex(out, b + p + 12, idlen);
		fprintf(out, " %.*s\n", (int)strnlen(name, len - 36u), name);
		n++;
		p += len;
	}
	free(b);
	return n;
}

int pmk_perfdata_build_ids(const char *path, FILE *out, pmk_diag *d)
{
	uint8_t h[104];
	uint64_t feat, sec;
	int fd, rc;
	pmk_diag_clear(d);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return pmk__diag_file(d, PMK_EIO, errno, path, NULL,
				      "cannot be opened");
	if (rd(fd, h, 16, 0) || memcmp(h, "PERFILE2", 8)) {
		close(fd);
		return pmk__diag_set(d, PMK_EFORMAT, 0, 0, NULL,
				     "%s: not a perf.data file", path);
	}
	if (pmk__get64(h + 8) == 16 || rd(fd, h, sizeof h, 0)) {
		close(fd);
		return pmk__diag_set(
			d, PMK_EFORMAT, 0, 0,
			"perf record -o FILE writes the file format",
			"%s: perf's pipe format has no header build-id section",
			path);
	}
	feat = pmk__get64(h + 72);
	if (!(feat & (1ull << FEAT_BUILD_ID))) {
		close(fd);
		return PMK_ENOENT; /* --buildid-mmap, or -B: none there */
	}
	sec = pmk__perf_feat_entry(pmk__get64(h + 40) + pmk__get64(h + 48),
				   feat, FEAT_BUILD_ID);
	if (rd(fd, h, 16, sec)) {
		close(fd);
		return pmk__diag_set(d, PMK_EFORMAT, 0, 0, NULL,
				     "%s: feature sections truncated", path);
	}
	rc = print_section(fd, pmk__get64(h), pmk__get64(h + 8), out, path,
			   d);
	close(fd);
	return rc;
}

int pmk_profile_build_ids(const pmk_profile *p, FILE *out)
{
	char *hit = calloc((size_t)(p->ndso > 0 ? p->ndso : 1), 1);
	int n = 0;
	if (!hit)
		return PMK_ENOMEM;
	for (size_t i = 0; i < p->nloc; i++) {
		const struct loc *l = &p->loc[i];
		if (l->dso < 0 || l->dso >= p->ndso || hit[l->dso])
			continue;
		for (int e = 0; e < p->nevents; e++)
			if (l->samples[e]) {
				hit[l->dso] = 1;
				break;
			}
	}
	for (int k = DSO_UNKNOWN + 1; k < p->ndso; k++)
		if (hit[k] && p->dso[k].bidlen && p->dso[k].kind == PDSO_FILE) {
			put_hex(out, p->dso[k].bid, p->dso[k].bidlen);
			fprintf(out, " %s\n", p->dso[k].path);
			n++;
		}
	free(hit);
	return n;
}
