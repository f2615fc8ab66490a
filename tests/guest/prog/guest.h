/*
 * guest.h: helpers shared by the guest test programs (tests/guest/prog):
 * raw perf_event_open, sysfs and procfs access, the sample ring, and the
 * arm64 user-space (EL0) counter read. Header only.
 */
#ifndef PMK_GUEST_H
#define PMK_GUEST_H

#include <dirent.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

/* loop.S */
void g_loop(uint64_t n);
void g_count_loop(int group_fd, uint64_t n);
extern const char g_loop_body[], g_loop_end[];

static inline int g_perf_open(struct perf_event_attr *a, pid_t pid, int cpu,
			      int group, unsigned long flags)
{
	return (int)syscall(SYS_perf_event_open, a, pid, cpu, group, flags);
}

static inline void g_enable_all(void)
{
	prctl(PR_TASK_PERF_EVENTS_ENABLE, 0, 0, 0, 0);
}

static inline void g_disable_all(void)
{
	prctl(PR_TASK_PERF_EVENTS_DISABLE, 0, 0, 0, 0);
}

static inline int g_write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY);
	if (fd < 0)
		return -1;
	ssize_t n = write(fd, text, strlen(text));
	close(fd);
	return n == (ssize_t)strlen(text) ? 0 : -1;
}

static inline int g_read_file(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	ssize_t n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = 0;
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = 0;
	return 0;
}

/* The value of NAME=VALUE on the kernel command line. */
static inline int g_cmdline_param(const char *name, char *out, size_t size)
{
	char buf[1024];
	size_t n = strlen(name);
	if (g_read_file("/proc/cmdline", buf, sizeof buf))
		return -1;
	for (char *p = strtok(buf, " "); p; p = strtok(NULL, " "))
		if (strncmp(p, name, n) == 0 && p[n] == '=') {
			snprintf(out, size, "%s", p + n + 1);
			return 0;
		}
	return -1;
}

/* The core PMU's sysfs name (armv8_pmuv3...), or NULL. */
static inline const char *g_core_pmu(void)
{
	static char name[256];
	if (name[0])
		return name;
	DIR *d = opendir("/sys/bus/event_source/devices");
	struct dirent *e;
	if (!d)
		return NULL;
	while ((e = readdir(d)) != NULL)
		if (strncmp(e->d_name, "armv8", 5) == 0) {
			snprintf(name, sizeof name, "%s", e->d_name);
			break;
		}
	closedir(d);
	return name[0] ? name : NULL;
}

static inline int g_core_type(void)
{
	char path[256], buf[32];
	const char *pmu = g_core_pmu();
	if (!pmu)
		return -1;
	snprintf(path, sizeof path, "/sys/bus/event_source/devices/%s/type", pmu);
	return g_read_file(path, buf, sizeof buf) ? -1 : atoi(buf);
}

/* Copy `len` bytes at ring offset `off` (wrapping) out of the data area. */
static inline void g_ring_copy(const char *data, uint64_t size, uint64_t off,
			       void *dst, size_t len)
{
	for (size_t i = 0; i < len; i++)
		((char *)dst)[i] = data[(off + i) % size];
}

#if defined(__aarch64__)
static inline uint64_t g__read_pmc(uint32_t counter)
{
	uint64_t v;
	if (counter == 31) {
		__asm__ volatile("mrs %0, pmccntr_el0" : "=r"(v));
	} else {
		__asm__ volatile("msr pmselr_el0, %1\n\tisb\n\tmrs %0, pmxevcntr_el0"
				 : "=r"(v)
				 : "r"((uint64_t)counter));
	}
	return v;
}
#else
static inline uint64_t g__read_pmc(uint32_t counter)
{
	(void)counter;
	return 0;
}
#endif

/* The event's count read at EL0 through its mmap page (no system call);
 * (uint64_t)-1 when the page says user reads are not possible. */
static inline uint64_t g_user_read(volatile struct perf_event_mmap_page *mp)
{
	uint32_t seq, idx;
	uint64_t count;
	do {
		seq = mp->lock;
		__sync_synchronize();
		idx = mp->index;
		count = (uint64_t)mp->offset;
		if (!mp->cap_user_rdpmc || idx == 0)
			return (uint64_t)-1;
		int64_t pmc = (int64_t)g__read_pmc(idx - 1);
		unsigned w = mp->pmc_width;
		if (w < 64) {
			pmc = (int64_t)((uint64_t)pmc << (64 - w));
			pmc >>= 64 - w;
		}
		count += (uint64_t)pmc;
		__sync_synchronize();
	} while (mp->lock != seq);
	return count;
}

#endif
