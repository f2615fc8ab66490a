/*
 * uprobe.h: user-space probes through tracefs, as perf probe -x makes them
 * (uprobe.c): the probe-able symbols of an ELF file with their file
 * offsets, the group name perf gives a binary's probes, and the lines of
 * tracefs' uprobe_events read, added and removed. A probe added here is a
 * tracepoint GROUP:EVENT (events/GROUP/EVENT) that pmkit record samples as
 * any other. Internal to pmkit: cli/cmd_uprobe.c includes it as
 * lib/sample/uprobe.h. Nothing here prints.
 */
#ifndef PMK_SAMPLE_UPROBE_H
#define PMK_SAMPLE_UPROBE_H

#include <stddef.h>
#include <stdint.h>

#include "pmkit/error.h"

#define PMK__UPROBE_NAME_MAX 64 /* a group or event name, with its NUL */

/* One line of uprobe_events: "p:GROUP/EVENT PATH:0xOFFSET". */
typedef struct pmk__uprobe {
	char kind; /* 'p' (entry) or 'r' (return) */
	char group[PMK__UPROBE_NAME_MAX], event[PMK__UPROBE_NAME_MAX];
	char path[4096];
	uint64_t off; /* file offset of the probed instruction */
} pmk__uprobe;

/* The tracefs directory holding uprobe_events ("/sys/kernel/tracing", or
 * the older debugfs one), or NULL when neither has it (no tracefs mounted,
 * or a kernel without CONFIG_UPROBE_EVENTS). */
const char *pmk__uprobe_dir(void);

/* Each probe of uprobe_events, in the file's order; `fn` returns nonzero
 * to stop (that value is returned). 0, or a negative PMK_E* code with `d`
 * filled when the file cannot be read. */
int pmk__uprobe_foreach(int (*fn)(const pmk__uprobe *u, void *arg), void *arg,
			pmk_diag *d);
/* Add `u` (its kind, group, event, path and offset); PMK_EEXIST when
 * GROUP:EVENT exists, PMK_EPERM without the privilege, else PMK_ESYS with
 * the kernel's errno. */
int pmk__uprobe_add(const pmk__uprobe *u, pmk_diag *d);
/* Remove GROUP:EVENT; PMK_EBUSY while something records it. */
int pmk__uprobe_del(const char *group, const char *event, pmk_diag *d);

/* perf's group for the probes of `path`: "probe_" and the file's base
 * name up to its first character that is not a letter, digit or '_'
 * (probe_libc for libc.so.6). */
void pmk__uprobe_group(const char *path, char *buf, size_t size);

/* Each symbol of the ELF file at `path` that perf can probe, as perf
 * loads them: functions, data objects and labels (untyped symbols in a
 * text or data section), from .symtab, else .dynsym, each with its name
 * (a version suffix "@@GLIBC_2.2.5" removed) and the file offset of its
 * address. `fn` returns nonzero to stop. 0, PMK_ENOTSUP in a build
 * without elfutils, or PMK_EIO/PMK_EFORMAT with `d` filled. */
int pmk__elf_symbols(const char *path,
		     int (*fn)(const char *name, uint64_t off, int func,
			       void *arg),
		     void *arg, pmk_diag *d);

#endif
