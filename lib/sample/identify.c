/*
 * identify.c: the identity of a mapped file, so a report can tell whether
 * the file it symbolizes is the one that ran: the GNU build id from the ELF
 * notes when there is one, and always the size and mtime. Reads the ELF
 * headers with bounds checks (64- and 32-bit, little-endian).
 */
#include <elf.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pmkit/sample.h"

static int rd(int fd, void *buf, size_t n, uint64_t off)
{
	return pread(fd, buf, n, (off_t)off) == (ssize_t)n ? 0 : -1;
}

/* Scan a note segment for NT_GNU_BUILD_ID. */
static int scan_notes(int fd, uint64_t off, uint64_t size, pmk_rec_map *m)
{
	uint8_t buf[4096];
	size_t n = size < sizeof buf ? (size_t)size : sizeof buf, p = 0;
	if (rd(fd, buf, n, off))
		return -1;
	while (p + 12 <= n) {
		uint32_t nsz, dsz, type;
		memcpy(&nsz, buf + p, 4);
		memcpy(&dsz, buf + p + 4, 4);
		memcpy(&type, buf + p + 8, 4);
		p += 12;
		if (nsz > n || dsz > n)
			return -1;
		{
			size_t np = (nsz + 3u) & ~3u, dp = (dsz + 3u) & ~3u;
			if (p + np + dp > n)
				return -1;
			if (type == NT_GNU_BUILD_ID && nsz == 4 &&
			    !memcmp(buf + p, "GNU", 4) && dsz > 0) {
				m->build_id_len = dsz > 20 ? 20 : dsz;
				memcpy(m->build_id, buf + p + np,
				       m->build_id_len);
				return 0;
			}
			p += np + dp;
		}
	}
	return -1;
}

static void build_id(int fd, pmk_rec_map *m)
{
	unsigned char id[EI_NIDENT];
	if (rd(fd, id, sizeof id, 0) || memcmp(id, ELFMAG, SELFMAG))
		return;
	if (id[EI_CLASS] == ELFCLASS64) {
		Elf64_Ehdr eh;
		if (rd(fd, &eh, sizeof eh, 0) ||
		    eh.e_phentsize != sizeof(Elf64_Phdr))
			return;
		for (unsigned i = 0; i < eh.e_phnum && i < 64; i++) {
			Elf64_Phdr ph;
			if (rd(fd, &ph, sizeof ph, eh.e_phoff + i * sizeof ph))
				return;
			if (ph.p_type == PT_NOTE &&
			    scan_notes(fd, ph.p_offset, ph.p_filesz, m) == 0)
				return;
		}
	} else if (id[EI_CLASS] == ELFCLASS32) {
		Elf32_Ehdr eh;
		if (rd(fd, &eh, sizeof eh, 0) ||
		    eh.e_phentsize != sizeof(Elf32_Phdr))
			return;
		for (unsigned i = 0; i < eh.e_phnum && i < 64; i++) {
			Elf32_Phdr ph;
			if (rd(fd, &ph, sizeof ph, eh.e_phoff + i * sizeof ph))
				return;
			if (ph.p_type == PT_NOTE &&
			    scan_notes(fd, ph.p_offset, ph.p_filesz, m) == 0)
				return;
		}
	}
}

void pmk_rec_map_identify(pmk_rec_map *m)
{
	struct stat st;
	int fd;
	if (m->path[0] != '/')
		return;
	fd = open(m->path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return;
	}
	{
		m->size = (uint64_t)st.st_size;
		m->mtime_ns = (uint64_t)st.st_mtim.tv_sec * 1000000000u +
			      (uint64_t)st.st_mtim.tv_nsec;
		if (!m->ino)
			m->ino = st.st_ino;
	}
	if (!m->build_id_len)
		build_id(fd, m);
	close(fd);
}

void pmk_rec_kernel_identify(pmk_rec_map *m)
{
	struct stat st;
	int fd = open("/sys/kernel/notes", O_RDONLY | O_CLOEXEC);
	snprintf(m->path, sizeof m->path, "[kernel.kallsyms]");
	if (fd < 0)
		return;
	/* a sysfs file: its size is the notes' (164 bytes here) */
	if (fstat(fd, &st) == 0 && st.st_size > 0 && st.st_size <= 4096)
		scan_notes(fd, 0, (uint64_t)st.st_size, m);
	close(fd);
}
