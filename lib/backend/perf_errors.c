/*
 * perf_errors.c: turn a failed perf_event_open into a message a user can
 * act on: what the errno means for this event, and the next step.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "lib/backend/perf_errors.h"
#include "lib/event/parse.h"

int pmk__sysctl_int(const char *path, int dflt)
{
	FILE *f = fopen(path, "r");
	int v = dflt;
	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = dflt;
		fclose(f);
	}
	return v;
}

int pmk__raise_nofile(void)
{
	struct rlimit rl;
	if (getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur >= rl.rlim_max)
		return 0;
	rl.rlim_cur = rl.rlim_max;
	return setrlimit(RLIMIT_NOFILE, &rl) == 0;
}

int pmk__paranoid_level(void)
{
	return pmk__sysctl_int("/proc/sys/kernel/perf_event_paranoid", 2);
}

/* What a perf_event_paranoid level lets an unprivileged user do. */
static const char *paranoid_allows(int level)
{
	if (level <= -1)
		return "no restriction";
	if (level == 0)
		return "processes and every CPU (-a), user and kernel space";
	if (level == 1)
		return "processes, user and kernel space; not every CPU (-a)";
	if (level == 2)
		return "processes, user space only";
	return "nothing without privilege (a distribution patch)";
}

int pmk__perf_perm_error(int err, const char *ev, int exclude_kernel, int pid,
			 int system_wide, pmk_diag *d)
{
	int level = pmk__paranoid_level();
	const char *allows = paranoid_allows(level);
	d->sys_errno = err;
	if (level >= 3)
		return pmk__diag_set(
		    d, PMK_EPERM, 0, 0,
		    "as root: sysctl kernel.perf_event_paranoid=2 (user space "
		    "of your own processes), or run with CAP_PERFMON",
		    "'%s': not allowed: perf_event_paranoid is %d (%s)", ev,
		    level, allows);
	if (system_wide && level > 0)
		return pmk__diag_set(
		    d, PMK_EPERM, 0, 0,
		    "as root: sysctl kernel.perf_event_paranoid=0, or run with "
		    "CAP_PERFMON; without -a, a command or -p PID of yours "
		    "needs no privilege",
		    "'%s': every CPU (-a) needs perf_event_paranoid 0 or less, "
		    "or CAP_PERFMON; it is %d (%s)",
		    ev, level, allows);
	if (!exclude_kernel && level >= 2)
		return pmk__diag_set(
		    d, PMK_EPERM, 0, 0,
		    "add ':u' to count user space only, or as root: sysctl "
		    "kernel.perf_event_paranoid=1",
		    "'%s': kernel space needs perf_event_paranoid 1 or less; it "
		    "is %d (%s)",
		    ev, level, allows);
	if (pid > 0 && pid != (int)getpid()) {
		int scope = pmk__sysctl_int("/proc/sys/kernel/yama/ptrace_scope",
					    -1);
		char ys[96] = "";
		if (scope >= 1)
			snprintf(ys, sizeof ys,
				 "; kernel.yama.ptrace_scope is %d%s", scope,
				 scope == 1 ? " (only descendants)" : "");
		return pmk__diag_set(
		    d, PMK_EPERM, 0, 0,
		    "run as the process's owner, or as root (CAP_SYS_PTRACE); "
		    "perf_event_paranoid is not the cause",
		    "'%s': not allowed to observe process %d: the kernel "
		    "requires ptrace access to it (another user's process, or "
		    "not dumpable%s)",
		    ev, pid, ys);
	}
	return pmk__diag_set(d, PMK_EPERM, 0, 0,
			     "run as root or with CAP_PERFMON",
			     "'%s': permission denied by the kernel "
			     "(perf_event_paranoid is %d: %s)",
			     ev, level, allows);
}

static int is_hardware(const pmk_attr *a)
{
	return a->type == PMK_TYPE_HARDWARE || a->type == PMK_TYPE_HW_CACHE ||
	       a->type == PMK_TYPE_RAW;
}

int pmk__perf_open_error(int err, const pmk_attr *a, int pid,
			 int system_wide, pmk_diag *d)
{
	const char *ev = a->name[0] ? a->name : a->pmu;
	d->sys_errno = err;
	switch (err) {
	case EACCES:
	case EPERM:
		return pmk__perf_perm_error(err, ev, a->exclude_kernel, pid,
					    system_wide, d);
	case ENOENT:
		if (is_hardware(a)) {
			const char *core = pmk_target_core_pmu(pmk_target_host());
			if (core)
				return pmk__diag_set(
					d, PMK_ENOTSUP, 0, 0,
					"'pmkit list' shows what counts here",
					"'%s': the core PMU '%s' does not have this event",
					ev, core);
			return pmk__diag_set(
				d, PMK_ENOTSUP, 0, 0,
				"software events (task-clock, page-faults) still count; 'pmkit list' shows what counts here",
				"'%s': the kernel has no such hardware event here "
				"(no hardware PMU: virtual machine?)",
				ev);
		}
		return pmk__diag_set(d, PMK_ENOTSUP, 0, 0,
				     "'pmkit list' shows what counts here",
				     "'%s': this kernel does not support the event",
				     ev);
	case ENODEV:
	case ENXIO:
		return pmk__diag_set(
			d, PMK_ENOTSUP, 0, 0,
			"uncore and msr-style PMUs count per CPU: try -a",
			"'%s': PMU '%s' cannot count this way (per thread?)",
			ev, a->pmu);
	case EOPNOTSUPP:
		if (a->sample)
			return pmk__diag_set(
				d, PMK_ENOTSUP, 0, 0,
				"sample time instead: -e cpu-clock (works without a hardware PMU)",
				"'%s' cannot be sampled here", ev);
		if (a->precise_ip)
			return pmk__diag_set(d, PMK_ENOTSUP, 0, 0,
					     "use fewer 'p' modifiers",
					     "'%s': precise level %u not supported",
					     ev, a->precise_ip);
		return pmk__diag_set(
			d, PMK_ENOTSUP, 0, 0,
			"drop the privilege modifiers (:u/:k) for this PMU",
			"'%s': the PMU does not support this mode (exclusion "
			"or branch sampling)",
			ev);
	case EINVAL:
		if (a->precise_ip)
			return pmk__diag_set(d, PMK_ENOTSUP, 0, 0,
					     "use fewer 'p' modifiers",
					     "'%s': precise level %u is not available",
					     ev, a->precise_ip);
		return pmk__diag_set(
			d, PMK_EINVAL, 0, 0,
			"'pmkit encode EVENT' shows what was programmed",
			"'%s': the kernel rejected the encoding for PMU '%s'",
			ev, a->pmu);
	case EMFILE:
	case ENFILE:
		return pmk__diag_set(d, PMK_ETOOMANY, 0, 0,
				     "raise the limit: ulimit -n 65536",
				     "too many open files (one per event and CPU)");
	case ENOSPC:
		return pmk__diag_set(
			d, PMK_ECONFLICT, 0, 0,
			"split the group, or enable multiplexing",
			"'%s': no counter left for it (group too large)", ev);
	case EBUSY:
		return pmk__diag_set(
			d, PMK_EBUSY, 0, 0,
			"another tool or the NMI watchdog holds the counter "
			"(sysctl kernel.nmi_watchdog=0)",
			"'%s': counter is in exclusive use", ev);
	case ESRCH:
		return pmk__diag_set(d, PMK_ENOENT, 0, 0, NULL,
				     "no such process or thread");
	case ENOSYS:
		return pmk__diag_set(d, PMK_ENOTSUP, 0, 0,
				     "the kernel lacks CONFIG_PERF_EVENTS",
				     "perf_event_open is not available");
	default:
		return pmk__diag_set(d, PMK_ESYS, 0, 0, NULL,
				     "'%s': perf_event_open failed: %s", ev,
				     strerror(err));
	}
}

int pmk__perf_sample_error(int err, const pmk_attr *a, int pid,
			   int system_wide, pmk_diag *d)
{
	int hw = a->type != PMK_TYPE_SOFTWARE && a->type != PMK_TYPE_TRACEPOINT;
	int code = PMK_ENOTSUP;
	pmk_diag_clear(d);
	if (!d)
		return code;
	d->sys_errno = err;
	snprintf(d->input, sizeof d->input, "%s", a->name);
	if (a->type == PMK_TYPE_TOOL) {
		/* duration_time, user_time, system_time: pmkit's own clocks
		 * (and perf's), read around a count; no kernel counter */
		snprintf(d->message, sizeof d->message,
			 "event '%s' cannot be sampled: it is a tool event, "
			 "computed by 'pmkit stat' from the clock, with no "
			 "kernel counter to interrupt on", a->name);
		snprintf(d->hint, sizeof d->hint,
			 "count it with 'pmkit stat -e %s'; sample time with "
			 "-e cpu-clock (the default) or -e task-clock", a->name);
	} else if (err == EACCES || err == EPERM) {
		/* the real refusal: paranoid against -a or kernel space,
		 * ptrace access to another process */
		code = pmk__perf_perm_error(err, a->name, a->exclude_kernel,
					    pid, system_wide, d);
		snprintf(d->input, sizeof d->input, "%s", a->name);
	} else if (err == ESRCH) {
		code = PMK_ENOENT;
		snprintf(d->message, sizeof d->message,
			 "cannot sample '%s': no process %d", a->name, pid);
	} else if (err == EMFILE || err == ENFILE) {
		code = PMK_ETOOMANY;
		snprintf(d->message, sizeof d->message,
			 "too many open files while opening '%s'", a->name);
		snprintf(d->hint, sizeof d->hint, "raise 'ulimit -n'");
	} else if (hw && a->type > PMK_TYPE_RAW && err == EINVAL) {
		snprintf(d->message, sizeof d->message,
			 "event '%s' cannot be sampled here: its PMU '%s' "
			 "refuses sampling (%s)",
			 a->name, a->pmu[0] ? a->pmu : "?", strerror(err));
		snprintf(d->hint, sizeof d->hint,
			 "count it with 'pmkit stat' instead, or sample time: "
			 "-e cpu-clock (the default)");
	} else if (hw && (err == ENOENT || err == EOPNOTSUPP || err == ENODEV ||
			  err == EINVAL)) {
		snprintf(d->message, sizeof d->message,
			 "event '%s' cannot be sampled here: %s (no hardware "
			 "PMU for it: virtual machine?)",
			 a->name, strerror(err));
		snprintf(d->hint, sizeof d->hint,
			 "sample time instead: -e cpu-clock (the default) or "
			 "-e task-clock, with -F HZ or -c NANOSECONDS");
	} else if (a->precise_ip && (err == EINVAL || err == EOPNOTSUPP)) {
		snprintf(d->message, sizeof d->message,
			 "precise level %u not supported for '%s': %s",
			 a->precise_ip, a->name, strerror(err));
		snprintf(d->hint, sizeof d->hint,
			 "drop the :p modifiers, or try a lower level");
	} else {
		snprintf(d->message, sizeof d->message,
			 "cannot sample '%s': %s", a->name, strerror(err));
		if (hw) /* time is what a software event already samples */
			snprintf(d->hint, sizeof d->hint,
				 "sample time instead: -e cpu-clock (the "
				 "default)");
	}
	d->code = code;
	return code;
}
