/*
 * rdpmc.h: reading a self-monitoring counter from user space through its
 * perf mmap page (no system call), where the kernel allows it:
 * cap_user_rdpmc on x86 (the RDPMC instruction), and on arm64 with
 * kernel.perf_user_access=1 and the event opened with config1 bit 1.
 * Falls back (returns -1) whenever the page says the counter is not on a
 * hardware counter right now, so read() gives the answer instead.
 */
#ifndef PMK_BACKEND_RDPMC_H
#define PMK_BACKEND_RDPMC_H

#include <linux/perf_event.h>
#include <stdint.h>

/* Whether this build can read counters from user space at all. */
int pmk__rdpmc_supported(void);
/* Read value, enabled and running through the mmap page; 0, or -1 when
 * the caller must use read(). */
int pmk__rdpmc_read(volatile struct perf_event_mmap_page *pc, uint64_t v[3]);

#endif
