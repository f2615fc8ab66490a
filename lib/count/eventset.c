/*
 * eventset.c: event sets. Events are added by name or parsed; on open their
 * natives are placed in kernel groups (one group per event by default, so
 * a derived event's natives are always counted together; PMK_ES_GROUP puts
 * every native of a PMU in one group), opened on the backend, and read as
 * groups. Values are scaled by enabled/running time, and every read also
 * updates per-native rate statistics from which multiplexed counts get an
 * error estimate (mpx.c).
 *
 * Shared natives: with one group per event, an event of one native (plain,
 * or computed from that one native) identical to a native of a derived
 * event in the set opens no counter of its own; it reads that native (an
 * alias), so the derived value and the counts shown beside it come from the
 * same counters over the same time, as perf's IPC comes from the cycles and
 * instructions it prints. Separate groups are enabled one ioctl after
 * another; under emulation without -icount a host stall between those
 * ioctls put up to 0.9 ms into one group's task-clock only, and fpm =
 * page-faults / task-clock ms differed from the set's own page-faults and
 * task-clock by up to 15 % (3 runs in 40).
 *
 * Reset is done in software (the kernel's RESET clears counts but not the
 * enabled/running times, which would break scaling): a reset stores the
 * current readings as a base that later reads subtract.
 */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "lib/backend/backend.h"
#include "lib/count/es_struct.h"
#include "lib/count/eventset.h"
#include "lib/event/attr.h"
#include "lib/event/target.h"
#include "lib/event/eval.h"
#include "lib/event/parse.h"


int pmk_eventset_new(pmk_eventset **out, unsigned flags)
{
	pmk_eventset *es = calloc(1, sizeof *es);
	if (!es)
		return PMK_ENOMEM;
	pthread_mutex_init(&es->lock, NULL);
	es->flags = flags;
	es->scope.pid = 0;
	es->scope.cpu = -1;
	es->sweep_ref = -1;
	*out = es;
	return 0;
}

static void close_all(pmk_eventset *es)
{
	if (es->be)
		for (int i = 0; i < es->nleaf; i++)
			if (es->leaf[i].handle >= 0)
				es->be->ops->close(es->be, es->leaf[i].handle);
	for (int i = 0; i < es->nleaf; i++) {
		es->leaf[i].handle = -1;
		es->leaf[i].group = -1;
		es->leaf[i].alias = -1;
	}
	es->ngroup = 0;
	es->opened = es->started = 0;
}

void pmk_eventset_free(pmk_eventset *es)
{
	if (!es)
		return;
	close_all(es);
	if (es->own_be && es->be)
		es->be->ops->free(es->be);
	for (int e = 0; e < es->nev; e++) {
		free((pmk_op *)es->ev[e].prog.ops);
		free(es->ev[e].full);
		free(es->ev[e].diag);
	}
	free(es->ev);
	free(es->leaf);
	free(es->grp);
	pthread_mutex_destroy(&es->lock);
	free(es);
}

int pmk_eventset_set_backend(pmk_eventset *es, struct pmk_backend *be)
{
	if (es->opened)
		return PMK_ESTATE;
	if (es->own_be && es->be)
		es->be->ops->free(es->be);
	es->be = be;
	es->own_be = 0;
	return 0;
}

void pmk_backend_free(struct pmk_backend *be)
{
	if (be)
		be->ops->free(be);
}

int pmk_eventset_set_scope(pmk_eventset *es, pmk_scope scope)
{
	if (es->opened)
		return PMK_ESTATE;
	if (scope.pid == -1 && scope.cpu < 0)
		return PMK_EINVAL;
	es->scope = scope;
	return 0;
}

int pmk_eventset_set_flags(pmk_eventset *es, unsigned flags)
{
	if (es->opened && ((flags ^ es->flags) & ~(unsigned)PMK_ES_MULTIPLEX))
		return PMK_ESTATE;
	es->flags = flags;
	return 0;
}

unsigned pmk_eventset_flags(const pmk_eventset *es)
{
	return es->flags;
}

int pmk__es_counter_limited(const pmk_attr *a)
{
	return a->type != PMK_TYPE_SOFTWARE && a->type != PMK_TYPE_TRACEPOINT &&
	       a->type != PMK_TYPE_SIM && a->type != PMK_TYPE_TOOL;
}

/* Natives of the set that need a counter of the core PMU (aliases share
 * one; they are known only at open, so before it this may overcount). */
static int set_limited(const pmk_eventset *es)
{
	int n = 0;
	for (int i = 0; i < es->nleaf; i++)
		n += es->leaf[i].alias < 0 && !es->leaf[i].off_cpu &&
		     pmk__es_counter_limited(&es->leaf[i].attr);
	return n;
}

int pmk__core_counters(void)
{
	const char *env = getenv("PMK_COUNTERS");
	const char *model = pmk_target_model(pmk_target_host());
	if (env && atoi(env) > 0)
		return atoi(env);
	const char *core = pmk_target_core_pmu(pmk_target_host());
	if (!strncmp(model, "amd64_fam", 9) || !strncmp(model, "arm", 3))
		return 6;
	/* Arm PMUv3 implementations commonly have 6 event counters besides
	 * the cycle counter (Cortex-A5x/A7x, Neoverse, QEMU's model) */
	if (core && !strncmp(core, "armv8", 5))
		return 6;
	return 4;
}

int pmk_eventset_add_event(pmk_eventset *es, const pmk_event *ev, pmk_diag *d)
{
	int limited = 0, total = 0, idx;
	pmk_op *ops = NULL;
	pmk_diag_clear(d); /* no string of the caller's shown with its errors */
	if (!es || !ev || ev->nleaf < 1 || ev->nleaf > PMK_LEAF_MAX)
		return pmk__diag_set(d, PMK_EINVAL, 0, 0, NULL,
				     "event has no natives");
	if (ev->nops < 0 || ev->nops > PMK_OPS_MAX)
		return pmk__diag_set(d, PMK_EINVAL, 0, 0, NULL,
				     "'%s': a program of %d steps (at most %d)",
				     ev->name, ev->nops, PMK_OPS_MAX);
	pthread_mutex_lock(&es->lock);
	if (es->opened) {
		pthread_mutex_unlock(&es->lock);
		return pmk__diag_set(d, PMK_ESTATE, 0, 0,
				     "add events before starting the set",
				     "event set already started");
	}
	for (int i = 0; i < ev->nleaf; i++)
		limited += pmk__es_counter_limited(&ev->leaf[i]);
	total = set_limited(es);
	if (!(es->flags & PMK_ES_MULTIPLEX) && es->be == NULL &&
	    (limited > pmk__core_counters() ||
	     total + limited > pmk__core_counters())) {
		pthread_mutex_unlock(&es->lock);
		return pmk__diag_set(
			d, PMK_ENEEDMPX, 0, 0,
			"enable multiplexing on the event set (PMK_ES_MULTIPLEX)",
			"'%s' needs %d counters with the set's %d; the core "
			"PMU has %d",
			ev->name, limited, total, pmk__core_counters());
	}
	if (es->nev == es->cev) {
		int nc = es->cev ? es->cev * 2 : 8;
		struct event *ne = realloc(es->ev, sizeof *ne * (size_t)nc);
		if (!ne)
			goto nomem;
		es->ev = ne;
		es->cev = nc;
	}
	if (es->nleaf + ev->nleaf > es->cleaf) {
		int nc = (es->nleaf + ev->nleaf) * 2;
		struct leaf *nl = realloc(es->leaf, sizeof *nl * (size_t)nc);
		if (!nl)
			goto nomem;
		es->leaf = nl;
		es->cleaf = nc;
	}
	if (ev->nops > 0 && !(ops = malloc(sizeof *ops * (size_t)ev->nops)))
		goto nomem;
	idx = es->nev++;
	memset(&es->ev[idx], 0, sizeof es->ev[idx]);
	snprintf(es->ev[idx].name, sizeof es->ev[idx].name, "%s", ev->name);
	es->ev[idx].kind = ev->kind;
	snprintf(es->ev[idx].unit, sizeof es->ev[idx].unit, "%s", ev->unit);
	if (ops)
		memcpy(ops, ev->ops, sizeof *ops * (size_t)ev->nops);
	es->ev[idx].prog = (pmk__prog){ops, ev->nops, ev->nleaf};
	es->ev[idx].first_leaf = es->nleaf;
	es->ev[idx].group_last = -1;
	for (int i = 0; i < ev->nleaf; i++) {
		struct leaf *l = &es->leaf[es->nleaf++];
		memset(l, 0, sizeof *l);
		l->attr = ev->leaf[i];
		l->event = idx;
		l->handle = l->group = l->alias = -1;
		l->tool = l->attr.type == PMK_TYPE_TOOL ? 1 + (int)l->attr.config
							: 0;
	}
	pthread_mutex_unlock(&es->lock);
	return idx;
nomem:
	pthread_mutex_unlock(&es->lock);
	return pmk__diag_set(d, PMK_ENOMEM, 0, 0, NULL, "out of memory");
}

int pmk_eventset_add(pmk_eventset *es, const char *name, pmk_diag *d)
{
	pmk_event ev;
	int rc = pmk_event_parse(pmk_target_host(), name, &ev, d);
	if (rc)
		return rc;
	return pmk_eventset_add_event(es, &ev, d);
}

int pmk_eventset_size(const pmk_eventset *es)
{
	return es ? es->nev : 0;
}

/* The whole pmk_event, made from what the set keeps when first asked for
 * (its natives as they are counted: a native that fell back to user space
 * says so) and kept until the set is freed. */
const pmk_event *pmk_eventset_event(const pmk_eventset *es, int i)
{
	pmk_eventset *w = (pmk_eventset *)es; /* the copy is made here */
	struct event *e;
	if (!es || i < 0 || i >= es->nev)
		return NULL;
	pthread_mutex_lock(&w->lock);
	e = &w->ev[i];
	if (!e->full && (e->full = calloc(1, sizeof *e->full))) {
		snprintf(e->full->name, sizeof e->full->name, "%s", e->name);
		e->full->kind = e->kind;
		snprintf(e->full->unit, sizeof e->full->unit, "%s", e->unit);
		e->full->nleaf = e->prog.nleaf;
		for (int k = 0; k < e->prog.nleaf; k++)
			e->full->leaf[k] = w->leaf[e->first_leaf + k].attr;
		e->full->nops = e->prog.nops;
		if (e->prog.nops)
			memcpy(e->full->ops, e->prog.ops,
			       sizeof *e->prog.ops * (size_t)e->prog.nops);
	}
	pthread_mutex_unlock(&w->lock);
	return e->full;
}

/* An event's reason, when keep_diag could not allocate one */
static const pmk_diag no_memory = {.code = PMK_ENOMEM,
				   .message = "out of memory"};

const pmk_diag *pmk_eventset_event_diag(const pmk_eventset *es, int i)
{
	if (!es || i < 0 || i >= es->nev || es->ev[i].status == 0)
		return NULL;
	return es->ev[i].diag ? es->ev[i].diag : &no_memory;
}

int pmk_eventset_user_only(const pmk_eventset *es, int i)
{
	return es && i >= 0 && i < es->nev && es->ev[i].user_only;
}

int pmk_eventset_group(pmk_eventset *es, int first, int last)
{
	int natives = 0;
	if (!es || first < 0 || last < first || last >= es->nev)
		return PMK_EINVAL;
	if (es->opened)
		return PMK_ESTATE;
	for (int k = first; k <= last; k++) {
		if (es->ev[k].group_last != -1)
			return PMK_EINVAL; /* already in a group */
		natives += es->ev[k].prog.nleaf;
	}
	if (natives > PMK_GROUP_MAX)
		return PMK_ETOOMANY;
	es->ev[first].group_last = last;
	for (int k = first + 1; k <= last; k++)
		es->ev[k].group_last = -2; /* inside a group */
	return 0;
}

int pmk_eventset_groups(const pmk_eventset *es, int *split)
{
	if (split)
		*split = es->split;
	return es->ngroup;
}

void pmk__es_open_opts(const pmk_eventset *es, int leader, pmk_open_opts *o)
{
	memset(o, 0, sizeof *o);
	o->scope = es->scope;
	o->leader = leader;
	o->inherit = (es->flags & PMK_ES_INHERIT) != 0;
	o->start_disabled = 1;
	o->enable_on_exec = (es->flags & PMK_ES_ENABLE_ON_EXEC) != 0;
	o->cgroup = (es->flags & PMK_ES_CGROUP) != 0;
	o->no_user_reads = (es->flags & PMK_ES_NO_RDPMC) != 0;
}

/* Open one native; on a paranoid refusal retry as user-space only, like a
 * user would (and say so). */
static int open_leaf(pmk_eventset *es, struct leaf *l, int leader,
		     pmk_diag *d)
{
	pmk_open_opts o;
	int h;
	pmk__es_open_opts(es, leader, &o);
	h = es->be->ops->open(es->be, &l->attr, &o, d);
	if (h == PMK_EPERM && !l->attr.exclude_kernel) {
		pmk_diag d2;
		pmk_attr save = l->attr;
		pmk_diag_clear(&d2);
		l->attr.exclude_kernel = 1;
		l->attr.exclude_hv = 1;
		h = es->be->ops->open(es->be, &l->attr, &o, &d2);
		if (h >= 0) {
			es->ev[l->event].user_only = 1;
		} else {
			l->attr = save;
			/* refused in user space too: that refusal (ptrace
			 * access, -a) is the one to explain */
			if (h == PMK_EPERM && d)
				*d = d2;
		}
	}
	return h;
}

static int new_group(pmk_eventset *es)
{
	if (es->ngroup == es->cgroup) {
		int nc = es->cgroup ? es->cgroup * 2 : 8;
		struct group *ng = realloc(es->grp, sizeof *ng * (size_t)nc);
		if (!ng)
			return PMK_ENOMEM;
		es->grp = ng;
		es->cgroup = nc;
	}
	memset(&es->grp[es->ngroup], 0, sizeof es->grp[0]);
	es->grp[es->ngroup].leader = -1;
	return es->ngroup++;
}

/* Open `n` leaves as one group; on a member failure, close the group and
 * open each leaf alone (the split is counted). Returns 0 or the error of
 * the first leaf that could not be opened at all. */
static int open_group(pmk_eventset *es, const int *leaves, int n, pmk_diag *d)
{
	int g = new_group(es), rc = 0;
	if (g < 0)
		return g;
	for (int i = 0; i < n; i++) {
		struct leaf *l = &es->leaf[leaves[i]];
		int h = open_leaf(es, l, i ? es->grp[g].leader : -1, d);
		if (h < 0) {
			if (i == 0) {
				es->ngroup--;
				return h;
			}
			rc = h;
			break;
		}
		if (i == 0)
			es->grp[g].leader = h;
		l->handle = h;
		l->group = g;
		es->grp[g].leaf[es->grp[g].nleaf++] = leaves[i];
	}
	if (rc == 0)
		return 0;
	/* split: close what was opened and take the leaves one by one */
	for (int i = 0; i < es->grp[g].nleaf; i++) {
		struct leaf *l = &es->leaf[es->grp[g].leaf[i]];
		es->be->ops->close(es->be, l->handle);
		l->handle = l->group = -1;
	}
	es->ngroup--;
	es->split++;
	rc = 0;
	for (int i = 0; i < n; i++) {
		int r = open_group(es, &leaves[i], 1, d);
		if (r && !rc)
			rc = r;
	}
	return rc;
}

/* A native that opens no counter of its own: a tool event (measured by
 * the set itself) or one counted on another CPU (off_cpu). */
static int opens_nothing(const struct leaf *l)
{
	return l->tool || l->off_cpu;
}

static int same_native(const pmk_attr *a, const pmk_attr *b)
{
	return pmk__attr_same_encoding(a, b) && a->pinned == b->pinned &&
	       a->exclusive == b->exclusive && !strcmp(a->name, b->name);
}

/* Shared natives (see the top of this file): an event of one native, not in
 * a user group, reads the identical native of the first event of two or
 * more natives that has one. */
static void find_aliases(pmk_eventset *es)
{
	for (int e = 0; e < es->nev; e++) {
		const struct event *ev = &es->ev[e];
		struct leaf *l = &es->leaf[ev->first_leaf];
		if (ev->prog.nleaf != 1 || ev->group_last != -1 ||
		    opens_nothing(l))
			continue; /* it reads no counter, its own or another's */
		for (int s = 0; s < es->nev && l->alias < 0; s++) {
			const struct event *src = &es->ev[s];
			if (s == e || src->prog.nleaf < 2)
				continue;
			for (int i = 0; i < src->prog.nleaf; i++)
				if (same_native(&l->attr,
						&es->leaf[src->first_leaf + i].attr)) {
					l->alias = src->first_leaf + i;
					break;
				}
		}
	}
}

/* An event's reason is kept only where it has one (a pmk_diag is 1.3 KB,
 * and `stat -a` has a set per CPU); left NULL when it cannot be allocated
 * (pmk_eventset_event_diag then says so). */
static void keep_diag(pmk_eventset *es, int e, const pmk_diag *d)
{
	struct event *ev = &es->ev[e];
	if (!d || (!d->code && !d->message[0]))
		return;
	if (!ev->diag && !(ev->diag = malloc(sizeof *ev->diag)))
		return;
	*ev->diag = *d;
}

/* open_group, a failure's reason kept as event e's */
static void open_group_of(pmk_eventset *es, int e, const int *leaves, int n)
{
	pmk_diag d;
	pmk_diag_clear(&d);
	open_group(es, leaves, n, &d);
	keep_diag(es, e, &d);
}

/* After the groups are open: an alias takes its native's group and, if that
 * fell back to user space only, its attributes. One whose native could not
 * be opened is opened alone, to fail (or not) with its own reason. */
static void settle_aliases(pmk_eventset *es)
{
	for (int i = 0; i < es->nleaf; i++) {
		struct leaf *l = &es->leaf[i];
		if (l->alias < 0)
			continue;
		const struct leaf *x = &es->leaf[l->alias];
		if (x->handle < 0) {
			l->alias = -1;
			open_group_of(es, l->event, &i, 1);
			continue;
		}
		l->group = x->group;
		if (x->attr.exclude_kernel && !l->attr.exclude_kernel) {
			l->attr = x->attr;
			es->ev[l->event].user_only = 1;
		}
	}
}

/* PMK_ES_PMU_CPUMASK: a set that counts one CPU opens no native whose PMU
 * counts that CPU's package on another CPU (an uncore or RAPL PMU's
 * cpumask; perf -a opens such events only there: the kernel would take
 * it and count the whole package again, once per CPU of it), nor one of
 * a hybrid's core PMU whose `cpus` leave the CPU out. Such a native reads
 * 0; an event all of whose natives are such is PMK_VALUE_OFF_CPU. */
static void mark_off_cpu(pmk_eventset *es)
{
	const pmk_target *t = es->scope.cpu >= 0 &&
				      (es->flags & PMK_ES_PMU_CPUMASK)
				  ? pmk_target_host()
				  : NULL;
	for (int i = 0; i < es->nleaf; i++) {
		struct leaf *l = &es->leaf[i];
		l->off_cpu = t && !l->tool &&
			     !pmk__target_pmu_on_cpu(t, l->attr.pmu,
						     es->scope.cpu);
	}
	for (int e = 0; e < es->nev; e++) {
		struct event *ev = &es->ev[e];
		ev->off_cpu = ev->prog.nleaf > 0;
		for (int i = 0; i < ev->prog.nleaf; i++)
			ev->off_cpu &= es->leaf[ev->first_leaf + i].off_cpu;
	}
}

int pmk_eventset_open(pmk_eventset *es, pmk_diag *d)
{
	int ok = 0, first_err = 0;
	pmk_diag first;
	pthread_mutex_lock(&es->lock);
	if (es->opened) {
		pthread_mutex_unlock(&es->lock);
		return 0;
	}
	if (!es->be) {
		es->be = pmk__backend_kernel_new();
		if (!es->be) {
			pthread_mutex_unlock(&es->lock);
			return PMK_ENOMEM;
		}
		es->own_be = 1;
	}
	pmk_diag_clear(&first);
	mark_off_cpu(es);
	if (es->flags & PMK_ES_GROUP) {
		/* every counter-limited native in one group (split on
		 * failure), software natives in another */
		int hw[PMK_GROUP_MAX], sw[PMK_GROUP_MAX], nh = 0, ns = 0;
		for (int i = 0; i <= es->nleaf; i++) {
			int flush = i == es->nleaf;
			if (!flush && opens_nothing(&es->leaf[i])) {
				/* never opened */
			} else if (!flush) {
				if (pmk__es_counter_limited(&es->leaf[i].attr))
					hw[nh++] = i;
				else
					sw[ns++] = i;
			}
			if (flush || nh == PMK_GROUP_MAX) {
				if (nh)
					open_group_of(es, es->leaf[hw[0]].event, hw, nh);
				nh = 0;
			}
			if (flush || ns == PMK_GROUP_MAX) {
				if (ns)
					open_group_of(es, es->leaf[sw[0]].event, sw, ns);
				ns = 0;
			}
		}
	} else {
		/* one group per event, or per user group (pmk_eventset_group);
		 * aliases open nothing */
		if (!(es->flags & PMK_ES_NO_SHARE))
			find_aliases(es);
		for (int e = 0; e < es->nev;) {
			int leaves[PMK_GROUP_MAX], n = 0;
			int last = es->ev[e].group_last >= 0 ? es->ev[e].group_last : e;
			for (int k = e; k <= last; k++)
				for (int i = 0; i < es->ev[k].prog.nleaf && n < PMK_GROUP_MAX; i++)
					if (!opens_nothing(&es->leaf[es->ev[k].first_leaf + i]) &&
					    es->leaf[es->ev[k].first_leaf + i].alias < 0)
						leaves[n++] = es->ev[k].first_leaf + i;
			if (n && last == e && es->ev[e].group_last == -1 &&
			    (es->flags & PMK_ES_NO_EVENT_GROUP))
				for (int i = 0; i < n; i++)
					open_group_of(es, e, &leaves[i], 1);
			else if (n)
				open_group_of(es, e, leaves, n);
			/* members of the group share the first event's reason */
			for (int k = e + 1; k <= last; k++)
				if (!es->ev[k].diag || !es->ev[k].diag->code)
					keep_diag(es, k, es->ev[e].diag);
			e = last + 1;
		}
		settle_aliases(es);
	}
	/* an event counts only when all its natives are open */
	for (int e = 0; e < es->nev; e++) {
		struct event *ev = &es->ev[e];
		int missing = 0;
		for (int i = 0; i < ev->prog.nleaf; i++)
			if (es->leaf[ev->first_leaf + i].handle < 0 &&
			    !opens_nothing(&es->leaf[ev->first_leaf + i]) &&
			    es->leaf[ev->first_leaf + i].alias < 0)
				missing = 1;
		if (missing) {
			ev->status = ev->diag && ev->diag->code ? ev->diag->code
								: PMK_ENOTSUP;
			if (!ev->diag || !ev->diag->message[0]) {
				pmk_diag m;
				pmk_diag_clear(&m);
				if (ev->diag)
					m = *ev->diag;
				snprintf(m.message, sizeof m.message,
					 "'%s': one of its natives could not be opened",
					 ev->name);
				keep_diag(es, e, &m);
			}
			if (!first_err) {
				first_err = ev->status;
				first = ev->diag ? *ev->diag : no_memory;
			}
		} else {
			ev->status = 0;
			ok++;
		}
	}
	es->opened = 1;
	/* the simulated core multiplexes its own natives (sim/be), which
	 * the host's counter count says nothing about */
	es->may_mpx = (es->flags & PMK_ES_MULTIPLEX) &&
		      (set_limited(es) > pmk__core_counters() ||
		       strcmp(es->be->ops->name, "kernel") != 0);
	es->time_edges = es->may_mpx && es->scope.pid == 0 &&
			 !(es->flags & PMK_ES_ENABLE_ON_EXEC) &&
			 strcmp(es->be->ops->name, "kernel") == 0;
	es->any_tool = es->any_alias = 0;
	for (int i = 0; i < es->nleaf; i++) {
		es->any_tool |= es->leaf[i].tool != 0;
		es->any_alias |= es->leaf[i].alias >= 0;
	}
	/* A kernel group of software natives is never multiplexed (the
	 * software PMU always schedules it: its running time is its enabled
	 * time), so in a set that does not multiplex (where the set-wide terms
	 * are 0) nothing reads its natives' rate statistics: a read skips
	 * them, three dependent divisions fewer on a lone task-clock. */
	for (int g = 0; g < es->ngroup; g++) {
		int sw = !es->may_mpx && !strcmp(es->be->ops->name, "kernel");
		for (int i = 0; i < es->grp[g].nleaf; i++)
			sw &= es->leaf[es->grp[g].leaf[i]].attr.type ==
			      PMK_TYPE_SOFTWARE;
		for (int i = 0; i < es->grp[g].nleaf; i++)
			es->leaf[es->grp[g].leaf[i]].no_slices = sw;
	}
	for (int i = 0; i < es->nleaf; i++)
		if (es->leaf[i].alias >= 0)
			es->leaf[i].no_slices =
				es->leaf[es->leaf[i].alias].no_slices;
	pthread_mutex_unlock(&es->lock);
	if (ok == 0 && es->nev > 0) {
		if (d)
			*d = first;
		return first_err;
	}
	return 0;
}

/*
 * Edges: a set counting the calling thread also counts the library's own
 * enable, disable and read calls on it, made while some of its events run.
 * Those calls are not the code being measured and their rate is not its
 * rate; an event that happened to be on a counter during them carries them
 * into its scaled value, one that was not does not. Each group keeps the
 * time of those calls while it was enabled: from its own enable to the end
 * of the enabling loop, every read while started, and from the start of the
 * disabling loop to its own disable. For the error estimate of multiplexed
 * counts (pmk_mpx_error).
 */
static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Edges are timed only where they matter, a set that multiplexes
 * (time_edges, set at open): a clock read costs a variable number of
 * instructions (the vDSO's), which would spoil the fixed overhead of exact
 * counts. When a read, reset or accumulate begins: */
static uint64_t edge_start(const pmk_eventset *es)
{
	return es->started && es->time_edges ? now_ns() : 0;
}

/* A call that began at t0 and read or reset every group while started. */
static void add_edge(pmk_eventset *es, uint64_t t0)
{
	if (!es->started || !es->time_edges)
		return;
	uint64_t dt = now_ns() - t0;
	for (int g = 0; g < es->ngroup; g++)
		es->grp[g].edge_ns += dt;
}

static void tool_rusage(const pmk_eventset *es, struct rusage *ru);

static int control_all(pmk_eventset *es, int op)
{
	int rc = 0, self = es->time_edges;
	uint64_t t0 = self ? now_ns() : 0, t;
	for (int g = 0; g < es->ngroup; g++) {
		struct group *gr = &es->grp[g];
		gr->mark = self && op == PMK_BE_ENABLE ? now_ns() : 0;
		int r = es->be->ops->control(es->be, gr->leader, op, 1);
		if (r && !rc)
			rc = r;
		if (self && op == PMK_BE_DISABLE)
			gr->edge_ns += now_ns() - t0;
	}
	if (self && op == PMK_BE_ENABLE) {
		t = now_ns();
		for (int g = 0; g < es->ngroup; g++)
			es->grp[g].edge_ns += t - es->grp[g].mark;
	}
	return rc;
}

int pmk_eventset_start(pmk_eventset *es)
{
	int rc;
	if (!es->opened && (rc = pmk_eventset_open(es, NULL)) != 0)
		return rc;
	pthread_mutex_lock(&es->lock);
	rc = (es->flags & PMK_ES_ENABLE_ON_EXEC) ? 0
						 : control_all(es, PMK_BE_ENABLE);
	es->tool_t0 = now_ns();
	tool_rusage(es, &es->ru0);
	es->started = 1;
	pthread_mutex_unlock(&es->lock);
	return rc;
}

int pmk_eventset_stop(pmk_eventset *es)
{
	int rc;
	if (!es->opened)
		return PMK_ESTATE;
	pthread_mutex_lock(&es->lock);
	rc = control_all(es, PMK_BE_DISABLE);
	es->tool_t1 = now_ns();
	tool_rusage(es, &es->ru1);
	es->started = 0;
	pthread_mutex_unlock(&es->lock);
	return rc;
}

static uint64_t tv_ns(struct timeval tv)
{
	return (uint64_t)tv.tv_sec * 1000000000u + (uint64_t)tv.tv_usec * 1000u;
}

/* The CPU times the tool events report: the set's own process when it
 * counts itself, else the children it has reaped (a stat workload). */
static void tool_rusage(const pmk_eventset *es, struct rusage *ru)
{
	memset(ru, 0, sizeof *ru);
	getrusage(es->scope.pid == 0 ? RUSAGE_SELF : RUSAGE_CHILDREN, ru);
}

/* perf's tool events, from the clock and getrusage() since start (up to
 * stop once stopped): duration_time, user_time, system_time in ns. */
static void read_tools(pmk_eventset *es)
{
	struct rusage now;
	const struct rusage *r = &es->ru1;
	uint64_t t1 = es->tool_t1, dur;
	int any = 0;
	for (int i = 0; i < es->nleaf; i++)
		any |= es->leaf[i].tool;
	if (!any || !es->tool_t0)
		return;
	if (es->started) {
		struct timespec ts;
		clock_gettime(CLOCK_MONOTONIC, &ts);
		t1 = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
		tool_rusage(es, &now);
		r = &now;
	}
	dur = t1 - es->tool_t0;
	for (int i = 0; i < es->nleaf; i++) {
		struct leaf *l = &es->leaf[i];
		if (!l->tool)
			continue;
		l->raw = l->tool == 1 ? dur
			 : l->tool == 2
			     ? tv_ns(r->ru_utime) - tv_ns(es->ru0.ru_utime)
			     : tv_ns(r->ru_stime) - tv_ns(es->ru0.ru_stime);
		l->enabled = l->running = dur;
	}
}

/* After a start sweep: the time each group was held off counts as enabled
 * (sweep.c). Out of line: a set that was not swept reads without it. */
static __attribute__((noinline)) void add_held(pmk_eventset *es)
{
	for (int g = 0; g < es->ngroup; g++)
		for (int i = 0; i < es->grp[g].nleaf; i++)
			es->leaf[es->grp[g].leaf[i]].enabled += es->grp[g].held_ns;
}

/* Read every group into the leaves (absolute kernel values). Inlined, and
 * the loops a set does not need skipped: a read of one software event costs
 * about 480 ns of CPU time here, and each stack frame that the system call
 * returns through costs about 5 ns more (the return predictions do not
 * survive the kernel), so the read path is kept flat and short. */
static inline __attribute__((always_inline)) int read_groups(pmk_eventset *es)
{
	if (es->any_tool)
		read_tools(es);
	for (int g = 0; g < es->ngroup; g++) {
		pmk_group_read r;
		int rc = es->be->ops->read_group(es->be, es->grp[g].leader, &r);
		if (rc)
			return rc;
		for (int i = 0; i < r.n && i < es->grp[g].nleaf; i++) {
			struct leaf *l = &es->leaf[es->grp[g].leaf[i]];
			l->raw = r.value[i];
			l->enabled = r.enabled_ns;
			l->running = r.running_ns;
		}
	}
	if (es->swept)
		add_held(es);
	for (int i = 0; es->any_alias && i < es->nleaf; i++) {
		struct leaf *l = &es->leaf[i];
		if (l->alias >= 0) {
			l->raw = es->leaf[l->alias].raw;
			l->enabled = es->leaf[l->alias].enabled;
			l->running = es->leaf[l->alias].running;
		}
	}
	return 0;
}

/* A window's rate into the windows' statistics (Welford, unweighted: each
 * window is one look at the program's rate, as each gap is one stretch of
 * it the native did not see), with 1/its running time for the counting
 * noise in that rate. */
static void window_add(double *n, double *mean, double *m2, double *inv,
		       uint64_t raw, uint64_t run)
{
	double rate = (double)raw / (double)run, delta = rate - *mean;
	*n += 1;
	*mean += delta / *n;
	*m2 += delta * (rate - *mean);
	*inv += 1 / (double)run;
}

static void window_close(struct leaf *l)
{
	window_add(&l->nwr, &l->wr_mean, &l->wr_m2, &l->wr_inv, l->win_raw,
		   l->win_run);
	l->win_raw = l->win_run = 0;
}

/* The sd of the program's rate between the native's windows (per ns), the
 * open window included: the variance of the windows' rates less what
 * counting noise alone puts there (a Poisson count's rate over t varies by
 * rate / t), which the Poisson term of the estimate carries already. 0 with
 * fewer than two windows. `*mean` gets the windows' mean rate. */
static double window_sd(const struct leaf *l, double *mean, int *nwin)
{
	double n = l->nwr, m = l->wr_mean, m2 = l->wr_m2, inv = l->wr_inv;
	if (l->win_run > 0)
		window_add(&n, &m, &m2, &inv, l->win_raw, l->win_run);
	*mean = m;
	*nwin = (int)n;
	if (n < 2)
		return 0;
	return sqrt(fmax(0, m2 / (n - 1) - m * inv / n));
}

/* Fold the slice since the previous read into the rate statistics
 * (weighted by running time: West's incremental algorithm). */
static __attribute__((noinline)) void update_slices(struct leaf *l,
						    int swept)
{
	uint64_t draw = l->raw - l->slice_raw, drun = l->running - l->slice_run;
	uint64_t den = l->enabled - l->slice_en;
	if (l->running < l->slice_run || l->raw < l->slice_raw)
		drun = 0;
	if (l->enabled < l->slice_en)
		den = 0;
	/* windows (runs of slices in which the native counted) and gaps (runs
	 * of slices with time it did not count): the phases of a program last
	 * longer than a slice, so these, not the slices, are the independent
	 * looks at its rate (mpx.c) */
	if (den > 0) {
		int seen = drun > 0, part = drun < den;
		if (!l->first_done) {
			/* the first slice: the start (start_rel, mpx.c) */
			l->first_done = 1;
			l->first_run_ns = drun;
			if (!part || swept) {
				l->start_raw = draw;
				l->start_ns = drun;
				l->start_len = den;
			}
			if (swept) {
				/* a sweep: its looks at the start are the
				 * start term's, not phases that recur */
				l->nslices += drun > 0;
				l->slice_raw = l->raw;
				l->slice_run = l->running;
				l->slice_en = l->enabled;
				return;
			}
		}
		if (seen && l->last_seen != 1)
			l->nwin++;
		if (!seen && l->win_run > 0)
			window_close(l);
		if (part && l->last_part != 1)
			l->ngap++;
		l->last_seen = seen;
		l->last_part = part;
	}
	if (drun > 0) {
		double w = (double)drun, rate = (double)draw / (double)drun;
		double wn = l->w + w, delta = rate - l->mean;
		l->mean += delta * w / wn;
		l->m2 += w * delta * (rate - l->mean);
		l->w = wn;
		l->nslices++;
		l->win_raw += draw;
		l->win_run += drun;
	}
	l->slice_raw = l->raw;
	l->slice_run = l->running;
	l->slice_en = l->enabled;
}

/* How much the program's rate varied in a native's looks at it (per ns):
 * between its windows when it has two or more (window_sd), else between
 * its slices (a set whose gaps are shorter than a read has no slice
 * without the native, so all its time is one window); -1 when it has
 * neither. `*mean` gets the mean rate. */
static double leaf_phase_sd(const struct leaf *l, double *mean)
{
	int nw;
	double sd = window_sd(l, mean, &nw);
	if (nw >= 2)
		return sd;
	*mean = l->mean;
	return l->w > 0 && l->nslices >= 2 ? sqrt(l->m2 / l->w) : -1;
}

/* The median relative rate variability of the multiplexed natives that have
 * looks at it (leaf_phase_sd; pmk__mpx_common_rel_sd), over the first 256
 * of them. No allocation: a read's own cost lands in the counts of a
 * region, say. */
static double common_rel_sd(const pmk_eventset *es)
{
	double rel[256];
	int n = 0;
	for (int i = 0; i < es->nleaf && n < 256; i++) {
		const struct leaf *l = &es->leaf[i];
		double m, sd = leaf_phase_sd(l, &m);
		if (l->handle >= 0 && sd >= 0 && m > 0 &&
		    l->running - l->base_run < l->enabled - l->base_en)
			rel[n++] = sd / m;
	}
	return pmk__mpx_common_rel_sd(rel, n);
}

/* A native's rate in the first slice over its rate since, k, one count
 * added to each side so that a native that counted nothing on one side
 * gives a finite ratio; -1 when it did not count all of the first slice
 * (or part of it, when that slice was a sweep) and something since. */
static double leaf_start_ratio(const struct leaf *l)
{
	uint64_t raw = l->raw - l->base_raw, run = l->running - l->base_run;
	if (l->handle < 0 || !l->start_ns || l->nslices < 2 ||
	    run <= l->start_ns || raw < l->start_raw)
		return -1;
	double r1 = ((double)l->start_raw + 1) / (double)l->start_ns;
	double r2 = ((double)(raw - l->start_raw) + 1) /
		    (double)(run - l->start_ns);
	return r1 / r2;
}

/* The start of counting is a phase every program has (exec and its first
 * page faults; cold caches, predictors and TLBs): the median, over the
 * natives that counted all of the first slice, of how far their rate there
 * was from their rate since, relative to the latter, |k - 1| (mpx.c).
 * `*len_ns` gets the first slice's length, the extent over which that
 * change was seen. */
static double start_rel(const pmk_eventset *es, uint64_t *len_ns)
{
	double rel[256];
	int n = 0;
	*len_ns = 0;
	for (int i = 0; i < es->nleaf && n < 256; i++) {
		const struct leaf *l = &es->leaf[i];
		double k = leaf_start_ratio(l);
		if (k <= 0)
			continue;
		rel[n++] = fabs(k - 1);
		if (l->start_len > *len_ns)
			*len_ns = l->start_len;
	}
	return pmk__mpx_common_rel_sd(rel, n);
}

/* A native that counted all of the first slice knows its own rate change
 * there, |k - 1|; -1 for the others (mpx.c). */
static double own_start_rel(const struct leaf *l)
{
	double k = leaf_start_ratio(l);
	return k > 0 ? fabs(k - 1) : -1;
}

static uint64_t leaf_edge(const pmk_eventset *es, const struct leaf *l)
{
	return l->group >= 0 ? es->grp[l->group].edge_ns : 0;
}

/* After a start sweep the run is two strata, each scaled by its own share
 * (pmk__mpx_swept); 0 when the native has no such strata (no sweep, a
 * reset since, or one of the strata never on counters): the one-stratum
 * scaling then. */
static int swept_value(const pmk_eventset *es, const struct leaf *l,
		       uint64_t raw, uint64_t en, uint64_t run, double sd,
		       double *val, double *err)
{
	if (!es->swept || !l->first_done || !l->start_ns ||
	    l->start_len < l->start_ns || run <= l->start_ns ||
	    en <= l->start_len || raw < l->start_raw)
		return 0;
	pmk__mpx_in rest = {raw - l->start_raw,
			    en - l->start_len,
			    run - l->start_ns,
			    leaf_edge(es, l),
			    sd,
			    es->common_rel_sd,
			    l->nslices,
			    l->nwin,
			    l->ngap,
			    0,
			    0,
			    0,
			    -1};
	*err = pmk__mpx_swept(l->start_raw, l->start_ns, l->start_len,
			      es->sweep_passes, &rest, val);
	return 1;
}

/* Any event: scaled values, error estimates, derived expressions. Kept
 * out of line so that the common case below stays a short, flat path. */
static __attribute__((noinline)) void event_value_full(pmk_eventset *es,
							int e, pmk_value *v)
{
	struct event *ev = &es->ev[e];
	double val[PMK_LEAF_MAX], err[PMK_LEAF_MAX], lo[PMK_LEAF_MAX],
		hi[PMK_LEAF_MAX];
	double running = 1;
	pmk_eval_result r;

	memset(v, 0, sizeof *v);
	if (ev->status) {
		v->status = ev->status;
		v->flags = PMK_VALUE_UNSUPPORTED;
		v->value = v->lo = v->hi = NAN;
		return;
	}
	for (int i = 0; i < ev->prog.nleaf; i++) {
		struct leaf *l = &es->leaf[ev->first_leaf + i];
		uint64_t raw = l->raw - l->base_raw;
		uint64_t en = l->enabled - l->base_en;
		uint64_t run = l->running - l->base_run;
		double wmean, sd = fmax(0, leaf_phase_sd(l, &wmean));
		if (i == 0) {
			v->raw = raw;
			v->enabled_ns = en;
			v->running_ns = run;
			v->edge_ns = leaf_edge(es, l);
		}
		if (run == 0 && en > 0) {
			v->flags |= PMK_VALUE_NOT_COUNTED;
			running = 0;
			val[i] = NAN;
			err[i] = 0;
		} else {
			double f = en ? (double)run / (double)en : 1;
			if (!swept_value(es, l, raw, en, run, sd, &val[i],
					 &err[i])) {
				val[i] = f > 0 && run < en ? (double)raw / f
							   : (double)raw;
				pmk__mpx_in in = {
					raw, en, run, leaf_edge(es, l), sd,
					es->common_rel_sd, l->nslices, l->nwin,
					l->ngap, es->start_rel, es->start_len_ns,
					l->first_run_ns, own_start_rel(l)};
				err[i] = pmk__mpx_estimate(&in);
			}
			if (run < en && raw == 0 && l->first_done &&
			    l->first_run_ns == 0 && es->start_len_ns > 0 &&
			    es->start_rel >= 0.5)
				v->flags |= PMK_VALUE_START_UNSEEN;
			if (run < en) {
				v->flags |= PMK_VALUE_MULTIPLEXED;
				if (f < running)
					running = f;
			}
		}
		lo[i] = val[i] - 2 * err[i];
		hi[i] = val[i] + 2 * err[i];
		/* what was counted happened: the truth is never below it */
		if (lo[i] < (double)raw)
			lo[i] = (double)raw;
	}
	v->running = running;
	if (v->flags & PMK_VALUE_NOT_COUNTED) {
		v->value = v->lo = v->hi = NAN;
		return;
	}
	if (!(v->flags & PMK_VALUE_MULTIPLEXED)) {
		/* exact natives: the value alone, no error to carry */
		v->value = v->lo = v->hi = pmk__prog_eval(&ev->prog, val);
		if (isnan(v->value))
			v->flags |= PMK_VALUE_NAN;
		return;
	}
	if (pmk__prog_eval_full(&ev->prog, val, err, lo, hi, &r) != 0) {
		v->value = v->lo = v->hi = NAN;
		v->flags |= PMK_VALUE_NAN;
		return;
	}
	v->value = r.value;
	v->err = r.err;
	v->lo = r.lo;
	v->hi = r.hi;
	if (r.nan)
		v->flags |= PMK_VALUE_NAN;
}

static inline void event_value(pmk_eventset *es, int e, pmk_value *v)
{
	const struct event *ev = &es->ev[e];
	if (__builtin_expect(ev->off_cpu, 0)) {
		*v = (pmk_value){.flags = PMK_VALUE_OFF_CPU};
		return;
	}
	if (ev->status == 0 && ev->prog.nops == 0) {
		/* the common case: one native, counted all the time */
		const struct leaf *l = &es->leaf[ev->first_leaf];
		uint64_t run = l->running - l->base_run;
		uint64_t en = l->enabled - l->base_en;
		if (run == en) {
			uint64_t raw = l->raw - l->base_raw;
			*v = (pmk_value){.value = (double)raw,
					 .lo = (double)raw,
					 .hi = (double)raw,
					 .raw = raw,
					 .enabled_ns = en,
					 .running_ns = run,
					 .edge_ns = leaf_edge(es, l),
					 .running = 1};
			return;
		}
	}
	event_value_full(es, e, v);
}

int pmk_eventset_leaf_values(pmk_eventset *es, int e, double *leaf, int n)
{
	const struct event *ev;
	if (!es->opened)
		return PMK_ESTATE;
	if (e < 0 || e >= es->nev)
		return PMK_ERANGE;
	ev = &es->ev[e];
	if (ev->status)
		return ev->status;
	pthread_mutex_lock(&es->lock);
	for (int i = 0; i < ev->prog.nleaf && i < n; i++) {
		const struct leaf *l = &es->leaf[ev->first_leaf + i];
		uint64_t raw = l->raw - l->base_raw;
		uint64_t en = l->enabled - l->base_en;
		uint64_t run = l->running - l->base_run;
		if (run == 0 && en > 0)
			leaf[i] = NAN;
		else if (run < en)
			leaf[i] = (double)raw * (double)en / (double)run;
		else
			leaf[i] = (double)raw;
	}
	pthread_mutex_unlock(&es->lock);
	return ev->prog.nleaf;
}

/* Read every group and fold the slice since the last read into the rate
 * statistics; the set's lock held. Inlined into pmk_eventset_read (the
 * read path is kept flat: read_groups). */
static inline __attribute__((always_inline)) int
read_locked(pmk_eventset *es)
{
	uint64_t t0 = edge_start(es);
	int rc = read_groups(es);
	add_edge(es, t0);
	if (rc)
		return rc;
	for (int i = 0; i < es->nleaf; i++)
		if ((es->leaf[i].handle >= 0 || es->leaf[i].alias >= 0) &&
		    !es->leaf[i].no_slices)
			update_slices(&es->leaf[i], es->swept);
	/* only in a set that multiplexes: exact counts keep a fixed read
	 * cost (a region's counts include it) */
	es->common_rel_sd = es->may_mpx ? common_rel_sd(es) : 0;
	es->start_rel = 0;
	es->start_len_ns = 0;
	if (es->may_mpx)
		es->start_rel = start_rel(es, &es->start_len_ns);
	return 0;
}

int pmk__es_read(pmk_eventset *es)
{
	return read_locked(es);
}

int pmk_eventset_read(pmk_eventset *es, pmk_value *vals, int n)
{
	int rc;
	if (!es->opened)
		return PMK_ESTATE;
	pthread_mutex_lock(&es->lock);
	rc = read_locked(es);
	if (rc == 0) {
		for (int e = 0; e < es->nev && e < n; e++)
			event_value(es, e, &vals[e]);
		rc = es->nev;
	}
	pthread_mutex_unlock(&es->lock);
	return rc;
}


static void set_base(pmk_eventset *es)
{
	for (int i = 0; i < es->nleaf; i++) {
		struct leaf *l = &es->leaf[i];
		l->base_raw = l->slice_raw = l->raw;
		l->base_en = l->enabled;
		l->base_run = l->slice_run = l->running;
		l->slice_en = l->enabled;
		l->w = l->mean = l->m2 = 0;
		l->win_raw = l->win_run = 0;
		l->nwr = 0;
		l->wr_mean = l->wr_m2 = l->wr_inv = 0;
		l->nslices = 0;
		l->nwin = l->ngap = 0;
		l->last_seen = l->last_part = -1;
		l->start_raw = l->start_ns = l->start_len = 0;
		l->first_run_ns = 0;
		l->first_done = 0;
	}
	for (int g = 0; g < es->ngroup; g++)
		es->grp[g].edge_ns = 0;
}

int pmk_eventset_reset(pmk_eventset *es)
{
	int rc;
	if (!es->opened)
		return PMK_ESTATE;
	pthread_mutex_lock(&es->lock);
	uint64_t t0 = edge_start(es);
	rc = read_groups(es);
	if (rc == 0)
		set_base(es);
	add_edge(es, t0); /* the reset's own reads follow some bases */
	pthread_mutex_unlock(&es->lock);
	return rc;
}

void pmk__value_add(pmk_value *a, const pmk_value *b)
{
	a->value += b->value;
	a->err = sqrt(a->err * a->err + b->err * b->err);
	a->lo += b->lo;
	a->hi += b->hi;
	a->raw += b->raw;
	a->enabled_ns += b->enabled_ns;
	a->running_ns += b->running_ns;
	a->edge_ns += b->edge_ns;
	a->flags |= b->flags;
}

int pmk_eventset_accum(pmk_eventset *es, pmk_value *vals, int n)
{
	pmk_value *now = calloc((size_t)(es->nev ? es->nev : 1), sizeof *now);
	int rc;
	if (!now)
		return PMK_ENOMEM;
	uint64_t t0 = edge_start(es);
	rc = pmk_eventset_read(es, now, es->nev);
	if (rc >= 0) {
		for (int e = 0; e < es->nev && e < n; e++) {
			pmk_value *a = &vals[e], *b = &now[e];
			pmk__value_add(a, b);
			a->running = a->enabled_ns
					     ? (double)a->running_ns / (double)a->enabled_ns
					     : b->running;
			if (b->status)
				a->status = b->status;
		}
		pthread_mutex_lock(&es->lock);
		set_base(es);
		add_edge(es, t0);
		pthread_mutex_unlock(&es->lock);
	}
	free(now);
	return rc;
}
