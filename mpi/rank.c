/*
 * rank.c: one rank's measurement (rank.h): the event set from MPI_Init to
 * MPI_Finalize, the MPI_Pcontrol regions, and the rank's record at the
 * end. Counting goes through the public event-set API only.
 *
 * Events: PMKIT_EVENTS (a comma list in pmkit's event grammar), else
 * `pmkit stat`'s default set: task-clock, context-switches,
 * cpu-migrations, page-faults, and cycles, instructions, branches,
 * branch-misses where the machine counts them.
 *
 * Regions (MPI_Pcontrol(1, "name") ... MPI_Pcontrol(-1, "name"), IPM's
 * convention): nested, accumulated per name over calls; each keeps wall
 * time, the MPI time inside it and the event deltas. An inner region's
 * counts are part of the enclosing one's too. Closing a region that is not
 * the innermost closes the ones inside it first; closing one that is not
 * open is ignored (and counted). Regions open at MPI_Finalize are closed
 * there and flagged. Regions of pmkit's own API (pmk_region_begin/end) are
 * added to the record at MPI_Finalize with their own events.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "mpi/rank.h"
#include "pmkit.h"

int pmk__mpi_init_seen;

static const char *const fn_name[] = {
#define PMK__FN_NAME(id, name, local) name,
	PMK__MPI_FUNCS(PMK__FN_NAME)
#undef PMK__FN_NAME
};

#define MAX_DEPTH 32

static struct {
	int rank, size;
	char host[PMK__MPI_NAME];
	uint64_t t0, t1;       /* ticks (pmk__mpi_now) */
	uint64_t t0_ns, t1_ns; /* CLOCK_MONOTONIC at the same moments */
	pmk_eventset *es;
	int nev;
	char evname[PMK__MPI_MAX_EVENTS][PMK__MPI_NAME];
	char evunit[PMK__MPI_MAX_EVENTS][16];
	double ev_end[PMK__MPI_MAX_EVENTS];
	/* region stack and totals */
	int depth;
	struct frame {
		int region; /* index in regions */
		uint64_t t0, mpi0;
		double ev0[PMK__MPI_MAX_EVENTS];
	} stack[MAX_DEPTH];
	struct pmk__mpi_rank rec; /* regions accumulate here */
	unsigned unmatched;       /* closes of regions that were not open */
	unsigned too_deep;
	unsigned unnamed;         /* MPI_Pcontrol(+-1) without a readable name */
} S;

void pmk__mpi_note(const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n = snprintf(buf, sizeof buf, "pmkit-mpi: ");
	va_start(ap, fmt);
	vsnprintf(buf + n, sizeof buf - (size_t)n - 1, fmt, ap);
	va_end(ap);
	n = (int)strlen(buf);
	buf[n++] = '\n';
	/* one write, so that lines of different ranks do not interleave */
	if (write(2, buf, (size_t)n) < 0)
		return;
}

int pmk__mpi_rank(void)
{
	return S.rank;
}

static int hardware_counts(void)
{
	pmk_eventset *es;
	pmk_diag d;
	int ok;
	if (pmk_eventset_new(&es, 0) != 0)
		return 0;
	ok = pmk_eventset_add(es, "instructions", &d) >= 0 &&
	     pmk_eventset_open(es, &d) == 0 && !pmk_eventset_event_diag(es, 0);
	pmk_eventset_free(es);
	return ok;
}

static int add_list(const char *list)
{
	/* each event parsed here for its unit: the set keeps no whole
	 * pmk_event (46 KB) unless asked for one */
	char *copy = strdup(list), *save = NULL;
	pmk_event *ev = malloc(sizeof *ev);
	pmk_diag d;
	int rc = 0;
	if (!copy || !ev) {
		free(copy);
		free(ev);
		return PMK_ENOMEM;
	}
	for (char *tok = strtok_r(copy, ",", &save); tok && !rc;
	     tok = strtok_r(NULL, ",", &save)) {
		if (S.nev == PMK__MPI_MAX_EVENTS) {
			rc = PMK_ETOOMANY;
			if (S.rank == 0)
				pmk__mpi_note("warning: at most %d events; '%s' and "
					      "after left out",
					      PMK__MPI_MAX_EVENTS, tok);
			break;
		}
		rc = pmk_event_parse(pmk_target_host(), tok, ev, &d);
		if (rc == 0)
			rc = pmk_eventset_add_event(S.es, ev, &d);
		if (rc < 0) {
			if (S.rank == 0)
				pmk__mpi_note("warning: PMKIT_EVENTS: '%s': %s%s%s",
					      tok, d.message,
					      d.hint[0] ? "; " : "", d.hint);
			break;
		}
		rc = 0;
		snprintf(S.evname[S.nev], PMK__MPI_NAME, "%s", tok);
		snprintf(S.evunit[S.nev], 16, "%s", ev->unit);
		S.nev++;
	}
	free(copy);
	free(ev);
	return rc;
}

static void events_start(void)
{
	const char *env = getenv("PMKIT_EVENTS");
	if (pmk_eventset_new(&S.es, PMK_ES_MULTIPLEX) != 0) {
		S.es = NULL;
		return;
	}
	if (env && *env) {
		if (add_list(env) == 0)
			goto open;
		if (S.rank == 0)
			pmk__mpi_note("warning: PMKIT_EVENTS not used: counting "
				      "the default events");
		pmk_eventset_free(S.es);
		S.nev = 0;
		if (pmk_eventset_new(&S.es, PMK_ES_MULTIPLEX) != 0) {
			S.es = NULL;
			return;
		}
	}
	add_list("task-clock,context-switches,cpu-migrations,page-faults");
	if (hardware_counts())
		add_list("cycles,instructions,branches,branch-misses");
open:
	{
		pmk_diag d;
		if (pmk_eventset_open(S.es, &d) != 0 ||
		    pmk_eventset_start(S.es) != 0) {
			if (S.rank == 0)
				pmk__mpi_note("warning: counters not started: %s",
					      d.message[0] ? d.message
							   : "cannot open events");
			pmk_eventset_free(S.es);
			S.es = NULL;
		}
	}
}

/* Current counter values (NAN where not counted). */
static void events_read(double *out)
{
	pmk_value v[PMK__MPI_MAX_EVENTS];
	int n = S.es ? pmk_eventset_read(S.es, v, S.nev) : -1;
	for (int i = 0; i < S.nev; i++)
		out[i] = n > i && !v[i].status &&
				 !(v[i].flags & (PMK_VALUE_UNSUPPORTED |
						 PMK_VALUE_NOT_COUNTED))
			 ? v[i].value
			 : NAN;
}

/* The wrappers' other way out (rank.h): exact timing on clock_gettime,
 * sampling, or several threads. */
void pmk__mpi_leave_other(int fn, int is_local, int on, uint64_t t0,
			  uint64_t sent, uint64_t recv, int idle,
			  struct pmk__mpi_site1 *site, const void *addr)
{
	if (pmk__mpi_mode == PMK__MPI_EXACT) {
		uint64_t d;
		if (idle)
			pmk__mpi_poll_arm();
		d = pmk__mpi_now() - t0;
		pmk__mpi_in_t0 = 0;
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
		pmk__mpi_exact_add(fn, d, sent, recv, site, addr);
		if (idle)
			pmk__mpi_poll_idle(fn, t0 + d);
	} else {
		uint64_t d = on == 1 ? pmk__mpi_now() - t0 : UINT64_MAX;
		pmk__mpi_leave(fn, is_local, on, t0, sent, recv);
		pmk__mpi_comm_call(fn, d, sent, recv, addr);
	}
	pmk__mpi_depth = 0;
}

void pmk__mpi_start(int rank, int size, const char *host)
{
	char path[64];
	S.rank = rank;
	S.size = size;
	snprintf(S.host, sizeof S.host, "%s", host);
	/* pmkit's region API writes one file per process at exit: one per
	 * rank, not N ranks into the same file */
	snprintf(path, sizeof path, "pmkit-regions.%d.json", rank);
	setenv("PMK_REGION_OUTPUT", path, 0);
	events_start();
	pmk__mpi_comm_start(size);
	pmk__mpi_tsc = pmk__mpi_counter_usable();
	pmk__mpi_timing_start(0);
	pmk__mpi_timing_clock_cost(pmk__mpi_clock_cost());
	S.t0_ns = pmk__mpi_mono_ns();
	S.t0 = pmk__mpi_now();
	pmk__mpi_on = 1;
	pmk__mpi_gate_update();
}

static void region_open(const char *name)
{
	struct frame *f;
	struct pmk__mpi_region *g;
	const char *parent = S.depth ? S.rec.regions[S.stack[S.depth - 1].region].name
				     : "";
	if (S.depth == MAX_DEPTH) {
		S.too_deep++;
		return;
	}
	g = pmk__mpi_rank_region(&S.rec, name, "pcontrol");
	if (!g)
		return;
	if (!g->calls && !g->parent[0])
		snprintf(g->parent, sizeof g->parent, "%s", parent);
	f = &S.stack[S.depth++];
	f->region = (int)(g - S.rec.regions);
	events_read(f->ev0);
	f->t0 = pmk__mpi_now();
	pmk__mpi_timing_flush(f->t0);
	f->mpi0 = pmk__mpi_total_ns;
}

static void region_close_top(unsigned flags)
{
	struct frame *f = &S.stack[--S.depth];
	struct pmk__mpi_region *g = &S.rec.regions[f->region];
	uint64_t t = pmk__mpi_now();
	double now[PMK__MPI_MAX_EVENTS];
	pmk__mpi_timing_flush(t);
	events_read(now);
	g->calls++;
	g->wall_ns += t - f->t0;
	g->mpi_ns += pmk__mpi_total_ns - f->mpi0;
	g->flags |= flags;
	for (int e = 0; e < S.nev; e++) {
		double d = now[e] - f->ev0[e];
		g->ev[e] = isnan(g->ev[e]) ? d : g->ev[e] + d;
	}
}

int pmk__mpi_safe_name(const char *p, size_t max, char *out, size_t size)
{
	struct iovec local, remote;
	ssize_t n;
	size_t k;
	if (!p || size < 2)
		return -1;
	if (max > size - 1)
		max = size - 1;
	local.iov_base = out;
	local.iov_len = max;
	remote.iov_base = (void *)p;
	remote.iov_len = max;
	n = process_vm_readv(getpid(), &local, 1, &remote, 1, 0);
	if (n <= 0) {
		/* the name may end just before an unreadable page */
		n = 0;
		for (; (size_t)n < max; n++) {
			local.iov_base = out + n;
			local.iov_len = 1;
			remote.iov_base = (void *)(p + n);
			remote.iov_len = 1;
			if (process_vm_readv(getpid(), &local, 1, &remote, 1, 0) != 1)
				break;
			if (!out[n])
				break;
		}
	}
	for (k = 0; k < (size_t)n && out[k]; k++)
		if ((unsigned char)out[k] < 0x20 || out[k] == 0x7f)
			return -1;
	out[k] = 0;
	return k ? 0 : -1;
}

void pmk__mpi_pcontrol(int level, const char *name)
{
	char nm[PMK__MPI_NAME];
	int k;
	if (!pmk__mpi_on || (level != 1 && level != -1))
		return;
	if (pmk__mpi_safe_name(name, sizeof nm - 1, nm, sizeof nm) != 0) {
		S.unnamed++;
		return; /* no name: another tool's MPI_Pcontrol(1) */
	}
	if (level == 1) {
		region_open(nm);
		return;
	}
	for (k = S.depth - 1; k >= 0; k--)
		if (!strcmp(S.rec.regions[S.stack[k].region].name, nm))
			break;
	if (k < 0) {
		S.unmatched++;
		return;
	}
	while (S.depth > k + 1)
		region_close_top(0);
	region_close_top(0);
}

/* pmkit's own regions, with their own events, into the record. */
struct pmk_arg {
	struct pmk__mpi_job *job;
	struct pmk__mpi_rank *r;
};
static int add_pmk_region(const pmk_region_stats *s, void *arg)
{
	struct pmk_arg *a = arg;
	struct pmk__mpi_region *g = pmk__mpi_rank_region(a->r, s->name, "pmk");
	if (!g)
		return 0;
	g->calls = s->calls;
	for (int e = 0; e < s->nevents; e++) {
		pmk_event ev;
		int k = pmk__mpi_job_event(
			a->job, s->event_names[e],
			pmk_event_parse(pmk_target_host(), s->event_names[e], &ev,
					NULL) == 0
				? ev.unit
				: "");
		if (k >= 0)
			g->ev[k] = s->values[e];
	}
	return 0;
}

int pmk__mpi_stop(struct pmk__mpi_job *job)
{
	struct pmk__mpi_rank *r;
	struct pmk__mpi_timing tm;
	double k = 1; /* ns per tick */
	int rc;
	while (S.depth > 0)
		region_close_top(PMK__MPI_REGION_OPEN);
	S.t1 = pmk__mpi_now();
	S.t1_ns = pmk__mpi_mono_ns();
	pmk__mpi_timing_finish(S.t1, &tm);
	events_read(S.ev_end);
	pmk__mpi_on = 0;
	pmk__mpi_gate_update();
	/* ticks to ns over the whole run (1 without the TSC) */
	{
		k = pmk__mpi_tsc && S.t1 > S.t0
			    ? (double)(S.t1_ns - S.t0_ns) / (double)(S.t1 - S.t0)
			    : 1;
		for (int f = 0; f < PMK__MPI_NFUNCS; f++)
			pmk__mpi_fs[f].ns = (uint64_t)(pmk__mpi_fs[f].ns * k + 0.5);
		pmk__mpi_total_ns = (uint64_t)(pmk__mpi_total_ns * k + 0.5);
		tm.err_ticks *= k;
		tm.amb_ticks *= k;
		for (int g = 0; g < S.rec.nregions; g++) {
			S.rec.regions[g].wall_ns =
				(uint64_t)(S.rec.regions[g].wall_ns * k + 0.5);
			S.rec.regions[g].mpi_ns =
				(uint64_t)(S.rec.regions[g].mpi_ns * k + 0.5);
		}
		S.t1 = S.t0 + (uint64_t)((S.t1 - S.t0) * k + 0.5);
	}
	if (pmk__mpi_clock_changed())
		pmk__mpi_note("warning: rank %d: the hypervisor changed the "
			      "TSC's rate during the run (kvm-clock): call "
			      "times were converted at the run's mean rate; "
			      "PMKIT_MPI_CLOCK=monotonic avoids this",
			      S.rank);
	if (S.es)
		pmk_eventset_stop(S.es);

	rc = pmk__mpi_job_init(job, S.size);
	if (rc)
		return rc;
	for (int e = 0; e < S.nev; e++)
		pmk__mpi_job_event(job, S.evname[e], S.evunit[e]);
	r = &job->ranks[S.rank];
	r->present = 1;
	snprintf(r->host, sizeof r->host, "%s", S.host);
	r->pid = (long)getpid();
	r->wall_ns = S.t1 - S.t0;
	r->mpi_ns = pmk__mpi_total_ns;
	r->mpi_err_ns = (uint64_t)(tm.err_ticks + 0.5);
	r->mpi_amb_ns = (uint64_t)(tm.amb_ticks + 0.5);
	for (int e = 0; e < PMK__MPI_MAX_EVENTS; e++)
		r->ev[e] = e < S.nev ? S.ev_end[e] : NAN;
	for (int f = 0; f < PMK__MPI_NFUNCS; f++) {
		struct pmk__mpi_call *c;
		if (!pmk__mpi_fs[f].calls)
			continue;
		c = pmk__mpi_rank_call(r, fn_name[f]);
		if (!c)
			return PMK_ENOMEM;
		c->calls = pmk__mpi_fs[f].calls;
		c->timed = pmk__mpi_fs[f].calls - pmk__mpi_fs[f].untimed;
		c->ns = pmk__mpi_fs[f].ns;
		c->bytes_sent = pmk__mpi_fs[f].sent;
		c->bytes_recv = pmk__mpi_fs[f].recv;
	}
	rc = pmk__mpi_comm_record(r, k);
	if (rc)
		return rc;
	/* the regions: the record's list is the rank's */
	r->regions = S.rec.regions;
	r->nregions = S.rec.nregions;
	r->cregions = S.rec.cregions;
	memset(&S.rec, 0, sizeof S.rec);
	{
		struct pmk_arg a = {job, r};
		pmk_region_foreach(add_pmk_region, &a);
	}
	if (S.unnamed && S.rank == 0)
		pmk__mpi_note("note: %u MPI_Pcontrol(1 or -1) without a region "
			      "name (ignored)",
			      S.unnamed);
	if (S.unmatched && S.rank == 0)
		pmk__mpi_note("note: %u MPI_Pcontrol(-1, ...) closed a region "
			      "that was not open (ignored)",
			      S.unmatched);
	if (S.es) {
		pmk_eventset_free(S.es);
		S.es = NULL;
	}
	return 0;
}

/* ---- the record of a rank that does not reach MPI_Finalize ---------------
 * Everything below runs in a signal handler too: no allocation, no lock,
 * no stdio; the state is read as it stands (a call in progress in another
 * thread may be missing from the counts). */

void pmk__mpi_buf_str(struct pmk__mpi_buf *b, const char *s)
{
	while (*s && b->n + 1 < b->cap)
		b->p[b->n++] = *s++;
	b->p[b->n] = 0;
}

void pmk__mpi_buf_u64(struct pmk__mpi_buf *b, uint64_t v)
{
	char d[24];
	int k = 0;
	do
		d[k++] = (char)('0' + v % 10);
	while ((v /= 10) && k < 23);
	while (k > 0 && b->n + 1 < b->cap)
		b->p[b->n++] = d[--k];
	b->p[b->n] = 0;
}

void pmk__mpi_buf_json(struct pmk__mpi_buf *b, const char *s)
{
	static const char hex[] = "0123456789abcdef";
	char e[7];
	pmk__mpi_buf_str(b, "\"");
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\') {
			e[0] = '\\';
			e[1] = (char)c;
			e[2] = 0;
		} else if (c < 0x20) {
			memcpy(e, "\\u00", 4);
			e[4] = hex[c >> 4];
			e[5] = hex[c & 15];
			e[6] = 0;
		} else {
			e[0] = (char)c;
			e[1] = 0;
		}
		pmk__mpi_buf_str(b, e);
	}
	pmk__mpi_buf_str(b, "\"");
}

size_t pmk__mpi_record_now(char *out, size_t cap, const char *why)
{
	struct pmk__mpi_buf b = {out, 0, cap};
	uint64_t now = pmk__mpi_now(), now_ns = pmk__mpi_mono_ns();
	uint64_t mpi = pmk__mpi_timing_so_far(now), wall, mpi_ns;
	/* ticks to ns as at MPI_Finalize, over the run so far */
	double k = pmk__mpi_tsc && now > S.t0
			   ? (double)(now_ns - S.t0_ns) / (double)(now - S.t0)
			   : 1;
	int first = 1;
	if (cap < 2)
		return 0;
	out[0] = 0;
	wall = (uint64_t)((double)(now - S.t0) * k + 0.5);
	mpi_ns = (uint64_t)((double)mpi * k + 0.5);
	if (mpi_ns > wall)
		mpi_ns = wall;
	pmk__mpi_buf_str(&b, "{\"schema\":\"pmkit-mpi/1\",\"size\":");
	pmk__mpi_buf_u64(&b, (uint64_t)S.size);
	pmk__mpi_buf_str(&b, ",\"command\":\"\",\"events\":[],\"ranks\":[\n"
			     "{\"rank\":");
	pmk__mpi_buf_u64(&b, (uint64_t)S.rank);
	pmk__mpi_buf_str(&b, ",\"host\":");
	pmk__mpi_buf_json(&b, S.host);
	pmk__mpi_buf_str(&b, ",\"pid\":");
	pmk__mpi_buf_u64(&b, (uint64_t)getpid());
	pmk__mpi_buf_str(&b, ",\"wall_ns\":");
	pmk__mpi_buf_u64(&b, wall);
	pmk__mpi_buf_str(&b, ",\"mpi_ns\":");
	pmk__mpi_buf_u64(&b, mpi_ns);
	pmk__mpi_buf_str(&b, ",\"end\":");
	pmk__mpi_buf_json(&b, why);
	pmk__mpi_buf_str(&b, ",\"events\":{},\"calls\":[");
	for (int f = 0; f < PMK__MPI_NFUNCS; f++) {
		const struct pmk__mpi_fstat *c = &pmk__mpi_fs[f];
		uint64_t calls = c->calls, untimed = c->untimed;
		if (!calls)
			continue;
		pmk__mpi_buf_str(&b, first ? "{\"name\":\"" : ",{\"name\":\"");
		first = 0;
		pmk__mpi_buf_str(&b, fn_name[f]);
		pmk__mpi_buf_str(&b, "\",\"calls\":");
		pmk__mpi_buf_u64(&b, calls);
		pmk__mpi_buf_str(&b, ",\"timed\":");
		pmk__mpi_buf_u64(&b, untimed < calls ? calls - untimed : 0);
		pmk__mpi_buf_str(&b, ",\"ns\":");
		pmk__mpi_buf_u64(&b, (uint64_t)((double)c->ns * k + 0.5));
		pmk__mpi_buf_str(&b, ",\"bytes_sent\":");
		pmk__mpi_buf_u64(&b, c->sent);
		pmk__mpi_buf_str(&b, ",\"bytes_recv\":");
		pmk__mpi_buf_u64(&b, c->recv);
		pmk__mpi_buf_str(&b, "}");
	}
	pmk__mpi_buf_str(&b, "],\"regions\":[");
	first = 1;
	/* the regions as they stand, those still open with the time up to
	 * now (and flagged): while there is room for one more and the end */
	for (int g = 0; g < S.rec.nregions && b.n + 600 < b.cap; g++) {
		const struct pmk__mpi_region *r = &S.rec.regions[g];
		uint64_t calls = r->calls, w = r->wall_ns, m = r->mpi_ns;
		int open = 0;
		for (int d = 0; d < S.depth && d < MAX_DEPTH; d++)
			if (S.stack[d].region == g) {
				calls++;
				w += now - S.stack[d].t0;
				m += mpi > S.stack[d].mpi0 ? mpi - S.stack[d].mpi0 : 0;
				open = 1;
			}
		if (!calls)
			continue;
		pmk__mpi_buf_str(&b, first ? "{\"name\":" : ",{\"name\":");
		first = 0;
		pmk__mpi_buf_json(&b, r->name);
		pmk__mpi_buf_str(&b, ",\"parent\":");
		pmk__mpi_buf_json(&b, r->parent);
		pmk__mpi_buf_str(&b, ",\"source\":");
		pmk__mpi_buf_json(&b, r->source);
		pmk__mpi_buf_str(&b, ",\"calls\":");
		pmk__mpi_buf_u64(&b, calls);
		pmk__mpi_buf_str(&b, ",\"wall_ns\":");
		pmk__mpi_buf_u64(&b, (uint64_t)((double)w * k + 0.5));
		pmk__mpi_buf_str(&b, ",\"mpi_ns\":");
		pmk__mpi_buf_u64(&b, (uint64_t)((double)m * k + 0.5));
		pmk__mpi_buf_str(&b, open ? ",\"open_at_finalize\":true}"
					  : ",\"open_at_finalize\":false}");
	}
	pmk__mpi_buf_str(&b, "]}],\n\"missing_ranks\":[]}\n");
	/* cut short (no room): better nothing than a record the reader
	 * refuses */
	return b.n + 1 < b.cap ? b.n : 0;
}
