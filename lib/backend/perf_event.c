/*
 * perf_event.c: the kernel backend. Each native is one perf_event_open
 * file descriptor; a group is read with one read() in PERF_FORMAT_GROUP
 * (value, enabled and running times for every member) unless the group is
 * inherited, where the kernel does not allow that format and each member
 * is read alone. A leader without members is read in the plain format
 * (value, enabled, running), as perf reads a lone event: the group format
 * costs the kernel about a sixth to a third more for the same one value.
 * A leader is therefore opened plain, and opened again in the group format
 * (on the same descriptor number) when its first member arrives, which is
 * before the group is enabled.
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "lib/backend/backend.h"
#include "lib/backend/kernel.h"
#include "lib/backend/perf_errors.h"
#include "lib/backend/rdpmc.h"

struct kev {
	int fd;
	int leader;      /* handle of the leader (itself for a leader) */
	int group_fmt;   /* leader: read with PERF_FORMAT_GROUP */
	int nmemb;       /* leader: members including itself */
	int memb[PMK_GROUP_MAX];
	struct perf_event_mmap_page *page; /* self-monitoring: user reads */
	/* leader opened plain: what it takes to open it again grouped */
	struct perf_event_attr pa;
	pmk_attr attr;
	int pid, cpu;
	unsigned long flags;
};

struct kernel {
	struct kev *ev;
	int n, cap;
	unsigned long long user_reads; /* reads served without a syscall */
};

/* User-space reads only make sense for counters of the calling thread on
 * a hardware PMU (software events are never on a hardware counter). */
static int want_user_reads(const pmk_attr *a, const pmk_open_opts *o)
{
	if (!pmk__rdpmc_supported() || o->scope.pid != 0 || o->scope.cpu != -1 ||
	    o->inherit || o->no_user_reads)
		return 0;
	return a->type != PMK_TYPE_SOFTWARE && a->type != PMK_TYPE_TRACEPOINT &&
	       a->type != PMK_TYPE_BREAKPOINT;
}

/* arm64: counters are readable at EL0 only when the event asks (config1
 * bit 1) and the administrator allows it (kernel.perf_user_access=1). Read
 * at every open: the setting can change while a program runs. */
static uint64_t arm64_user_bit(void)
{
#if defined(__aarch64__)
	return pmk__sysctl_int("/proc/sys/kernel/perf_user_access", 0) == 1
		       ? 0x2
		       : 0;
#else
	return 0;
#endif
}

void pmk__perf_count_attr(const pmk_attr *a, const pmk_open_opts *o,
			  int leader, struct perf_event_attr *pa)
{
	pmk__attr_to_perf(a, pa);
	pa->freq = 0; /* counting: the sampling fields stay unset */
	pa->sample_period = 0;
	pa->sample_max_stack = 0;
	pa->read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			  PERF_FORMAT_TOTAL_TIME_RUNNING;
	if (!o->inherit) /* the kernel refuses the group format inherited */
		pa->read_format |= PERF_FORMAT_GROUP;
	pa->inherit = o->inherit;
	if (leader) {
		pa->disabled = o->start_disabled;
		pa->enable_on_exec = o->enable_on_exec;
	} else { /* members follow their leader */
		pa->pinned = 0;
		pa->exclusive = 0;
	}
}

/* read(2) without libc's wrapper on x86-64: the wrapper is one more stack
 * frame for the system call to return through, and on the development VM
 * each costs about 5 ns after a system call (return predictions do not
 * survive the kernel); a lone read is about 480 ns. Not a cancellation
 * point, which a counter read need not be. */
static inline ssize_t sys_read(int fd, void *buf, size_t n)
{
#if defined(__x86_64__)
	long r;
	register long a0 __asm__("rdi") = fd;
	register long a1 __asm__("rsi") = (long)buf;
	register long a2 __asm__("rdx") = (long)n;
	__asm__ volatile("syscall"
			 : "=a"(r)
			 : "0"(0L /* __NR_read */), "r"(a0), "r"(a1), "r"(a2)
			 : "rcx", "r11", "memory");
	if (r < 0) {
		errno = (int)-r;
		return -1;
	}
	return r;
#else
	return read(fd, buf, n);
#endif
}

static void map_page(struct kev *e)
{
	void *p = mmap(NULL, (size_t)sysconf(_SC_PAGESIZE), PROT_READ,
		       MAP_SHARED, e->fd, 0);
	e->page = p == MAP_FAILED ? NULL : p;
	/* Touch it now: the first read would otherwise take the page fault
	 * while counting (about 1,500 kernel instructions in the emulated
	 * tier). */
	if (e->page)
		(void)*(volatile uint32_t *)&e->page->lock;
}

/* A plain-format leader gets its first member: open it again in the group
 * format and put the new file on its descriptor number (dup2), so the
 * member's group_fd and the caller's view stay the same. Nothing has been
 * counted yet (leaders start disabled; enable_on_exec is carried over). */
static int regroup_leader(struct kev *l, pmk_diag *d)
{
	struct perf_event_attr pa = l->pa;
	int fd;
	pa.read_format |= PERF_FORMAT_GROUP;
	fd = pmk__perf_open(&pa, &l->attr, l->pid, l->cpu, -1, l->flags, d);
	if (fd < 0)
		return fd;
	if (dup2(fd, l->fd) < 0) {
		close(fd);
		return PMK_ESYS;
	}
	close(fd);
	l->pa = pa;
	l->group_fmt = 1;
	if (l->page) {
		munmap(l->page, (size_t)sysconf(_SC_PAGESIZE));
		map_page(l);
	}
	return 0;
}

static int k_open(pmk_backend *be, const pmk_attr *a, const pmk_open_opts *o,
		  pmk_diag *d)
{
	struct kernel *k = be->priv;
	struct perf_event_attr pa;
	struct kev *leader = NULL;
	int fd = -1, group_fd = -1, h;
	uint64_t user_bit;
	unsigned long flags = o->cgroup ? PERF_FLAG_PID_CGROUP : 0;

	if (o->leader >= 0) {
		if (o->leader >= k->n || k->ev[o->leader].fd < 0)
			return PMK_EINVAL;
		leader = &k->ev[o->leader];
		if (leader->nmemb == PMK_GROUP_MAX)
			return PMK_ETOOMANY;
		if (!o->inherit && !leader->group_fmt && leader->nmemb == 1) {
			int rc = regroup_leader(leader, d);
			if (rc < 0)
				return rc;
		}
		group_fd = leader->fd;
	}
	pmk__perf_count_attr(a, o, !leader, &pa);
	if (!leader) /* plain until a member arrives (regroup_leader) */
		pa.read_format &= ~(uint64_t)PERF_FORMAT_GROUP;
	user_bit = want_user_reads(a, o) ? arm64_user_bit() : 0;
	if ((a->config1 | user_bit) != a->config1) {
		/* ask for user-space reads; refused: the plain open below */
		pmk_diag tried;
		pa.config1 |= user_bit;
		fd = pmk__perf_open(&pa, a, o->scope.pid, o->scope.cpu,
				    group_fd, flags, &tried);
		if (fd < 0)
			pa.config1 = a->config1;
	}
	if (fd < 0)
		fd = pmk__perf_open(&pa, a, o->scope.pid, o->scope.cpu,
				    group_fd, flags, d);
	if (fd < 0)
		return fd;
	if (k->n == k->cap) {
		int nc = k->cap ? k->cap * 2 : 16;
		struct kev *ne = realloc(k->ev, sizeof *ne * (size_t)nc);
		if (!ne) {
			close(fd);
			return PMK_ENOMEM;
		}
		k->ev = ne;
		k->cap = nc;
	}
	h = k->n++;
	memset(&k->ev[h], 0, sizeof k->ev[h]);
	k->ev[h].fd = fd;
	if (want_user_reads(a, o))
		map_page(&k->ev[h]);
	if (leader) {
		leader = &k->ev[o->leader]; /* the array may have moved */
		k->ev[h].leader = o->leader;
		leader->memb[leader->nmemb++] = h;
	} else {
		k->ev[h].leader = h;
		k->ev[h].group_fmt = 0;
		k->ev[h].nmemb = 1;
		k->ev[h].memb[0] = h;
		k->ev[h].pa = pa;
		k->ev[h].attr = *a;
		k->ev[h].pid = o->scope.pid;
		k->ev[h].cpu = o->scope.cpu;
		k->ev[h].flags = flags;
	}
	return h;
}

static int k_close(pmk_backend *be, int h)
{
	struct kernel *k = be->priv;
	if (h < 0 || h >= k->n || k->ev[h].fd < 0)
		return PMK_EINVAL;
	if (k->ev[h].page)
		munmap(k->ev[h].page, (size_t)sysconf(_SC_PAGESIZE));
	k->ev[h].page = NULL;
	close(k->ev[h].fd);
	k->ev[h].fd = -1;
	return 0;
}

static int k_control(pmk_backend *be, int h, int op, int whole_group)
{
	struct kernel *k = be->priv;
	unsigned long req = op == PMK_BE_ENABLE    ? PERF_EVENT_IOC_ENABLE
			    : op == PMK_BE_DISABLE ? PERF_EVENT_IOC_DISABLE
						   : PERF_EVENT_IOC_RESET;
	if (h < 0 || h >= k->n || k->ev[h].fd < 0)
		return PMK_EINVAL;
	if (ioctl(k->ev[h].fd, req, whole_group ? PERF_IOC_FLAG_GROUP : 0) < 0)
		return PMK_ESYS;
	return 0;
}

static int k_read_one(pmk_backend *be, int h, uint64_t v[3])
{
	struct kernel *k = be->priv;
	struct kev *e;
	uint64_t buf[3 + PMK_GROUP_MAX];
	ssize_t r;
	if (h < 0 || h >= k->n || k->ev[h].fd < 0)
		return PMK_EINVAL;
	e = &k->ev[h];
	if (e->leader == h && e->group_fmt) {
		r = read(e->fd, buf, sizeof buf);
		if (r < (ssize_t)(4 * sizeof(uint64_t)))
			return r == 0 ? PMK_ENOTSUP : PMK_ESYS;
		v[0] = buf[3];
		v[1] = buf[1];
		v[2] = buf[2];
		return 0;
	}
	if (k->ev[e->leader].group_fmt) { /* a member of a group-format group */
		pmk_group_read g;
		int rc = be->ops->read_group(be, e->leader, &g);
		if (rc)
			return rc;
		for (int i = 0; i < g.n; i++)
			if (g.handle[i] == h) {
				v[0] = g.value[i];
				v[1] = g.enabled_ns;
				v[2] = g.running_ns;
				return 0;
			}
		return PMK_EINVAL;
	}
	r = read(e->fd, buf, 3 * sizeof(uint64_t));
	if (r != (ssize_t)(3 * sizeof(uint64_t)))
		return r == 0 ? PMK_ENOTSUP : PMK_ESYS;
	memcpy(v, buf, 3 * sizeof(uint64_t));
	return 0;
}

static int k_read_group(pmk_backend *be, int leader, pmk_group_read *g)
{
	struct kernel *k = be->priv;
	struct kev *e;
	if (leader < 0 || leader >= k->n || k->ev[leader].fd < 0 ||
	    k->ev[leader].leader != leader)
		return PMK_EINVAL;
	e = &k->ev[leader];
	if (e->nmemb == 1 && !e->page && !e->group_fmt) {
		/* a lone event, read plain: the common case, kept short */
		uint64_t v[3];
		ssize_t r = sys_read(e->fd, v, sizeof v);
		if (r != (ssize_t)sizeof v)
			return r == 0 ? PMK_ENOTSUP : PMK_ESYS;
		g->n = 1;
		g->handle[0] = leader;
		g->value[0] = v[0];
		g->enabled_ns = v[1];
		g->running_ns = v[2];
		return 0;
	}
	g->n = e->nmemb;
	memcpy(g->handle, e->memb, sizeof(int) * (size_t)e->nmemb);
	if (e->page) { /* user-space reads, when every member is on a counter */
		int i;
		for (i = 0; i < e->nmemb; i++) {
			uint64_t v[3];
			struct kev *m = &k->ev[e->memb[i]];
			if (!m->page || pmk__rdpmc_read(m->page, v) != 0)
				break;
			g->value[i] = v[0];
			if (i == 0) {
				g->enabled_ns = v[1];
				g->running_ns = v[2];
			}
		}
		if (i == e->nmemb) {
			k->user_reads++;
			return 0;
		}
	}
	if (e->group_fmt) {
		uint64_t buf[3 + PMK_GROUP_MAX];
		size_t want = sizeof(uint64_t) * (size_t)(3 + e->nmemb);
		ssize_t r = sys_read(e->fd, buf, want);
		if (r != (ssize_t)want)
			return r == 0 ? PMK_ENOTSUP : PMK_ESYS;
		g->enabled_ns = buf[1];
		g->running_ns = buf[2];
		memcpy(g->value, buf + 3, sizeof(uint64_t) * (size_t)e->nmemb);
		return 0;
	}
	for (int i = 0; i < e->nmemb; i++) {
		uint64_t v[3];
		ssize_t r = read(k->ev[e->memb[i]].fd, v, sizeof v);
		if (r != (ssize_t)sizeof v)
			return r == 0 ? PMK_ENOTSUP : PMK_ESYS;
		g->value[i] = v[0];
		if (i == 0) {
			g->enabled_ns = v[1];
			g->running_ns = v[2];
		}
	}
	return 0;
}

static void k_free(pmk_backend *be)
{
	struct kernel *k = be->priv;
	for (int i = 0; i < k->n; i++)
		if (k->ev[i].fd >= 0)
			k_close(be, i);
	free(k->ev);
	free(k);
	free(be);
}

static const struct pmk_backend_ops kernel_ops = {
	.name = "kernel",
	.open = k_open,
	.close = k_close,
	.control = k_control,
	.read_group = k_read_group,
	.read_one = k_read_one,
	.free = k_free,
};

pmk_backend *pmk__backend_kernel_new(void)
{
	pmk_backend *be = calloc(1, sizeof *be);
	struct kernel *k = calloc(1, sizeof *k);
	if (!be || !k) {
		free(be);
		free(k);
		return NULL;
	}
	be->ops = &kernel_ops;
	be->priv = k;
	return be;
}
