/*
 * script.c: the samples of a profile as `perf script` (6.1) prints them,
 * for the tools that read that text (FlameGraph's stackcollapse-perf.pl,
 * Firefox Profiler's and speedscope's perf importers). One header line per
 * sample (comm, tid or pid/tid, [cpu], time, period, event), then, for a
 * call-graph sample, one line per frame (address, symbol+offset, file) and
 * a blank line; a sample without a stack carries its frame on the header
 * line. The command is padded to 16 columns only on that one-line form, as
 * perf does: stackcollapse-perf.pl reads a header only when it starts with
 * the command. Samples are formatted while the file loads, kept in
 * memory (their text and 32 bytes each) and printed sorted by time, as
 * perf does. A tracepoint's sample prints its fields by the event's
 * format (tpfmt.c) where period and frame were, as perf's defaults for
 * tracepoints (comm, tid, cpu, time, event, trace, and the stack when it
 * has one). Does not print: branch stacks, registers, inlined frames.
 */
#include <stdlib.h>
#include <string.h>

#include "sample/perfout.h"
#include "sample/profile.h"
#include "sample/tpfmt.h"

static const struct {
	const char *name;
	unsigned bit;
} fields[] = {
    {"comm", PMK__SF_COMM}, {"tid", PMK__SF_TID},
    {"pid", PMK__SF_PID},   {"time", PMK__SF_TIME},
    {"cpu", PMK__SF_CPU},   {"event", PMK__SF_EVENT},
    {"ip", PMK__SF_IP},	    {"sym", PMK__SF_SYM},
    {"symoff", PMK__SF_SYMOFF}, {"dso", PMK__SF_DSO},
    {"period", PMK__SF_PERIOD}, {"addr", PMK__SF_ADDR},
    {"trace", PMK__SF_TRACE},
};
#define NFIELDS (sizeof fields / sizeof *fields)

void pmk__script_opts_init(pmk__script_opts *o)
{
	memset(o, 0, sizeof *o);
	o->fields = PMK__SF_DEFAULT;
}

int pmk__script_fields_parse(const char *spec, pmk__script_opts *o,
			     pmk_diag *d)
{
	const char *s = spec, *colon = strchr(spec, ':');
	unsigned set;
	if (colon && (size_t)(colon - spec) < strcspn(spec, ","))
		s = colon + 1; /* "sw:comm,tid": one set for every type */
	/* "f,f": that set; "+f,-f,...": changes to the current one */
	set = *s == '+' || *s == '-' ? o->fields : 0;
	while (*s) {
		int sign = *s == '+' || *s == '-' ? *s++ : '+';
		size_t l = strcspn(s, ",");
		size_t i;
		for (i = 0; i < NFIELDS; i++)
			if (strlen(fields[i].name) == l &&
			    !strncmp(s, fields[i].name, l))
				break;
		if (i == NFIELDS) {
			pmk_diag_clear(d);
			if (d) {
				d->code = PMK_EINVAL;
				snprintf(d->message, sizeof d->message,
					 "unknown or unsupported field '%.*s'",
					 (int)l, s);
				snprintf(d->hint, sizeof d->hint,
					 "fields: comm, tid, pid, time, cpu, "
					 "event, ip, sym, symoff, dso, period, "
					 "addr, trace (-F f,f sets them, -F +f "
					 "adds, -F -f removes)");
			}
			return PMK_EINVAL;
		}
		if (sign == '-')
			set &= ~fields[i].bit;
		else
			set |= fields[i].bit;
		if (fields[i].bit == PMK__SF_CPU)
			o->explicit_cpu = sign == '+';
		s += l;
		if (*s == ',')
			s++;
	}
	o->fields = set;
	o->fields_set = 1;
	return 0;
}

/* Samples are printed in time order, as perf script prints them: each
 * one's text goes to one buffer, indexed by (time, file order), and the
 * index is sorted at the end. */
struct sent {
	uint64_t time, seq;
	size_t off, len;
};
struct sctx {
	const pmk__script_opts *o;
	FILE *out;   /* the buffer's stream */
	int evw;     /* width of the event column: the longest name */
	char *buf;   /* every sample's text */
	size_t size;
	struct sent *ent;
	size_t nent, cap;
	int oom;
};

/* One frame: address, symbol+offset, file. On a stack line the address
 * of a frame in a file is relative to its mapping (as perf 6.1 prints it),
 * kernel and unknown ones absolute. A caller's frame (`ret`: a return
 * address) is named here by the return address itself, as perf names it,
 * where the reports name the call before it (they differ only when a call
 * ends a function: a noreturn call, or _start's call of _dl_start). */
static void frame(pmk_profile *p, const struct sctx *c, uint32_t pid,
		  uint64_t addr, uint32_t li, int ret, int stackline)
{
	struct loc *l;
	unsigned f = c->o->fields;
	uint64_t a = addr;
	if (ret) {
		int k = pmk__loc_at(p, pid, addr, (addr >> 63) ? 2 : 0);
		if (k >= 0)
			li = (uint32_t)k;
	}
	l = &p->loc[li];
	pmk__loc_resolve(p, l, 0);
	if (stackline && l->dso >= 2 && !pmk__dso_is_kernel(p, l->dso))
		a = l->off;
	if (f & PMK__SF_IP)
		fprintf(c->out, "%16llx", (unsigned long long)a);
	if (f & PMK__SF_SYM) {
		if (l->func[0] == '[')
			fputs(" [unknown]", c->out);
		else {
			fprintf(c->out, " %s", l->func);
			if (f & PMK__SF_SYMOFF)
				fprintf(c->out, "+0x%llx",
					(unsigned long long)(l->vaddr >=
								     l->fstart
								 ? l->vaddr -
								       l->fstart
								 : 0));
		}
	}
	if (f & PMK__SF_DSO) {
		char jit[48];
		fprintf(c->out, " (%s)",
			pmk__dso_perf_name_in(p, l->dso, pid, 1, jit,
					      sizeof jit));
	}
	fputc('\n', c->out);
}

static void script_hook(pmk_profile *p, const pmk_sample *s,
			const uint64_t *addr, const uint32_t *loc, uint32_t n,
			int chain, void *ctx)
{
	struct sctx *c = ctx;
	const pmk__script_opts *o = c->o;
	unsigned f = o->fields;
	FILE *out = c->out;
	const char *comm = pmk__comm(p, s->pid, s->tid);
	const struct pmk__tpfmt *tp = p->tpfmt[s->event];
	int stack;
	if (p->ev[s->event].type == PMK_TYPE_TRACEPOINT && !o->fields_set)
		f = PMK__SF_TP_DEFAULT |
		    (chain ? PMK__SF_IP | PMK__SF_SYM | PMK__SF_SYMOFF |
				 PMK__SF_DSO
			   : 0);
	stack = chain && !o->hide_graph &&
		(f & (PMK__SF_IP | PMK__SF_SYM | PMK__SF_DSO));
	if (c->evw < 0) /* every event is known before the first sample */
		for (int e = c->evw = 0; e < p->nevents; e++) {
			int w = (int)strlen(pmk_profile_event_name(p, e));
			if (w > c->evw)
				c->evw = w;
		}
	if (!pmk__list_has(o->comms, comm) ||
	    !pmk__list_has_u(o->pids, s->pid) ||
	    !pmk__list_has_u(o->tids, s->tid) || c->oom)
		return;
	if (c->nent == c->cap) {
		size_t nc = c->cap ? c->cap * 2 : 4096;
		struct sent *ne = realloc(c->ent, nc * sizeof *ne);
		if (!ne) {
			c->oom = 1;
			return;
		}
		c->ent = ne;
		c->cap = nc;
	}
	fflush(out);
	c->ent[c->nent].time = s->time_ns;
	c->ent[c->nent].seq = c->nent;
	c->ent[c->nent].off = c->size;
	c->nent++;
	if (f & PMK__SF_COMM)
		fprintf(out, stack ? "%s " : "%16s ", comm);
	if ((f & PMK__SF_PID) && (f & PMK__SF_TID))
		fprintf(out, "%5u/%-5u ", s->pid, s->tid);
	else if (f & PMK__SF_PID)
		fprintf(out, "%5u ", s->pid);
	else if (f & PMK__SF_TID)
		fprintf(out, "%5u ", s->tid);
	if ((f & PMK__SF_CPU) && (s->cpu != UINT32_MAX || o->explicit_cpu))
		fprintf(out, "[%03u] ", s->cpu == UINT32_MAX ? 0 : s->cpu);
	if (f & PMK__SF_TIME) {
		if (o->ns)
			fprintf(out, "%5llu.%09llu: ",
				(unsigned long long)(s->time_ns / 1000000000u),
				(unsigned long long)(s->time_ns % 1000000000u));
		else
			fprintf(out, "%5llu.%06llu: ",
				(unsigned long long)(s->time_ns / 1000000000u),
				(unsigned long long)(s->time_ns % 1000000000u /
						     1000u));
	}
	if (f & PMK__SF_PERIOD)
		fprintf(out, "%10llu ", (unsigned long long)s->period);
	if (f & PMK__SF_EVENT)
		fprintf(out, "%*s: ", c->evw,
			pmk_profile_event_name(p, (int)s->event));
	if ((f & PMK__SF_TRACE) && tp && (s->flags & PMK_SAMPLE_HAS_RAW))
		pmk__tpfmt_print(tp, s->raw, s->raw_len, out);
	if ((f & PMK__SF_ADDR) && (s->flags & PMK_SAMPLE_HAS_ADDR))
		fprintf(out, "%16llx ", (unsigned long long)s->addr);
	if (!(f & (PMK__SF_IP | PMK__SF_SYM | PMK__SF_DSO))) {
		fputc('\n', out);
		return;
	}
	if (!stack) {
		fputc(' ', out);
		/* the sampled IP, absolute */
		frame(p, c, s->pid, s->ip, loc[0], 0, 0);
		return;
	}
	fputc('\n', out);
	for (uint32_t i = 0; i < n; i++) {
		fputc('\t', out);
		frame(p, c, s->pid, addr[i], loc[i],
		      pmk__chain_ret(addr, i), 1);
	}
	fputc('\n', out);
}

static int sent_cmp(const void *a, const void *b)
{
	const struct sent *x = a, *y = b;
	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

int pmk__profile_script(const char *path, const pmk__script_opts *o,
			FILE *out, pmk_diag *d)
{
	struct sctx c;
	pmk_profile *p;
	int rc;
	memset(&c, 0, sizeof c);
	c.o = o;
	c.evw = -1;
	c.out = open_memstream(&c.buf, &c.size);
	if (!c.out)
		return PMK_ENOMEM;
	rc = pmk__profile_load_hook(&p, path, d, script_hook, &c, o->mangled);
	if ((fclose(c.out) != 0 || c.oom) && !rc) {
		pmk_profile_free(p);
		rc = PMK_ENOMEM;
	}
	if (!rc) {
		pmk_profile_free(p);
		for (size_t i = 0; i < c.nent; i++)
			c.ent[i].len = (i + 1 < c.nent ? c.ent[i + 1].off
						       : c.size) -
				       c.ent[i].off;
		if (c.nent > 1)
			qsort(c.ent, c.nent, sizeof *c.ent, sent_cmp);
		for (size_t i = 0; i < c.nent; i++)
			fwrite(c.buf + c.ent[i].off, 1, c.ent[i].len, out);
	}
	free(c.buf);
	free(c.ent);
	if (rc)
		return rc;
	return ferror(out) ? PMK_EIO : 0;
}

int pmk_profile_script(const char *path, int mangled, FILE *out,
		       pmk_diag *d)
{
	pmk__script_opts o;
	pmk__script_opts_init(&o);
	o.mangled = mangled;
	return pmk__profile_script(path, &o, out, d);
}
