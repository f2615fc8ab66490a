/*
 * unwind.c: DWARF unwinding of recorded user stacks (unwind.h), through
 * elfutils' libdwfl. For each process, one Dwfl holds its mapped files at
 * their load biases (from the recorded maps, as for symbols); a sample's
 * registers seed the unwinder, and its stack copy answers the unwinder's
 * memory reads. The call-frame information comes from the files
 * themselves (.eh_frame, or .debug_frame where present).
 */
#include <stdlib.h>
#include <string.h>

#include "sample/profile.h"
#include "sample/rec_format.h"
#include "sample/unwind.h"

#if PMK_HAVE_DW
#include <dwarf.h>
#include <elfutils/libdwfl.h>

struct uw_proc {
	uint32_t pid;
	Dwfl *dwfl; /* NULL when it could not be set up */
};

struct pmk__unwinder {
	struct uw_proc *v;
	size_t n, cap;
	const pmk_sample *cur; /* the sample being unwound */
	uint64_t *out;
	int nout, max;
};

/* The stack pointer among the recorded registers. */
static int sp_of(const pmk_sample *s, uint64_t *sp)
{
	if (s->uarch == PMK__EM_X86_64 && s->nuregs >= 17)
		*sp = s->uregs[7];
	else if (s->uarch == PMK__EM_AARCH64 && s->nuregs >= 33)
		*sp = s->uregs[31];
	else
		return -1;
	return 0;
}

static pid_t next_thread(Dwfl *dwfl, void *arg, void **thread_argp)
{
	pmk__unwinder *u = arg;
	(void)dwfl;
	if (*thread_argp)
		return 0;
	*thread_argp = u;
	return (pid_t)u->cur->pid;
}

static bool memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result,
			void *arg)
{
	pmk__unwinder *u = arg;
	const pmk_sample *s = u->cur;
	uint64_t sp;
	(void)dwfl;
	if (sp_of(s, &sp) || addr < sp || addr - sp > s->ustack_len ||
	    s->ustack_len - (addr - sp) < sizeof *result)
		return false;
	memcpy(result, s->ustack + (addr - sp), sizeof *result);
	return true;
}

/* The recorded registers (the kernel's perf_regs order) in DWARF's
 * numbering. */
static bool set_initial_registers(Dwfl_Thread *thread, void *thread_arg)
{
	pmk__unwinder *u = thread_arg;
	const pmk_sample *s = u->cur;
	const uint64_t *r = s->uregs;
	Dwarf_Word d[32];
	if (s->uarch == PMK__EM_X86_64 && s->nuregs >= 17) {
		/* perf: ax bx cx dx si di bp sp ip r8..r15;
		 * DWARF: rax rdx rcx rbx rsi rdi rbp rsp r8..r15 */
		d[0] = r[0];
		d[1] = r[3];
		d[2] = r[2];
		d[3] = r[1];
		d[4] = r[4];
		d[5] = r[5];
		d[6] = r[6];
		d[7] = r[7];
		for (int i = 0; i < 8; i++)
			d[8 + i] = r[9 + i];
		return dwfl_thread_state_registers(thread, 0, 16, d) &&
		       (dwfl_thread_state_register_pc(thread, r[8]), true);
	}
	if (s->uarch == PMK__EM_AARCH64 && s->nuregs >= 33) {
		/* perf and DWARF: x0..x30, sp; perf's 32 is the pc */
		for (int i = 0; i < 32; i++)
			d[i] = r[i];
		return dwfl_thread_state_registers(thread, 0, 32, d) &&
		       (dwfl_thread_state_register_pc(thread, r[32]), true);
	}
	return false;
}

static const Dwfl_Thread_Callbacks thread_cbs = {
    .next_thread = next_thread,
    .memory_read = memory_read,
    .set_initial_registers = set_initial_registers,
};

/* No separate debug files: the call-frame information is in the mapped
 * files themselves (.eh_frame), and distributions' debug files carry no
 * .debug_frame beside it. Looking them up cost more than the unwinding:
 * libdwfl falls back to the debug file wherever .eh_frame ends a stack (at
 * every outermost frame) and decompresses all its DWARF for that, once
 * per profile (a fifth of the time of a record with libc's stacks). */
static int no_debuginfo(Dwfl_Module *mod, void **userdata, const char *name,
			Dwarf_Addr base, const char *file, const char *link,
			GElf_Word crc, char **debug_name)
{
	(void)mod, (void)userdata, (void)name, (void)base, (void)file;
	(void)link, (void)crc, (void)debug_name;
	return -1;
}

static char *debuginfo_path; /* the default, for find_elf */
static const Dwfl_Callbacks offline_cbs = {
    .find_elf = dwfl_build_id_find_elf,
    .find_debuginfo = no_debuginfo,
    .section_address = dwfl_offline_section_address,
    .debuginfo_path = &debuginfo_path,
};

/* A Dwfl with the files of process `pid` (or of the nearest ancestor with
 * maps: a child shares its parent's until it execs). */
static Dwfl *proc_dwfl(pmk_profile *p, const struct pmk__unwind_env *env,
		       pmk__unwinder *u, uint32_t pid)
{
	const struct proc *pr = NULL;
	Dwfl *d;
	int any = 0;
	for (int depth = 0; depth < 16; depth++) {
		pr = env->proc_find(p, pid);
		if (!pr || pr->nmap || !pr->has_parent || pr->ppid == pid)
			break;
		pid = pr->ppid;
	}
	if (!pr || !pr->nmap || (d = dwfl_begin(&offline_cbs)) == NULL)
		return NULL;
	dwfl_report_begin(d);
	for (int i = 0; i < pr->nmap; i++) {
		const struct pmap *m = &pr->maps[i];
		pmk__symtab *st;
		int seen = 0;
		if (m->dso < 2 || (st = env->dso_symtab(p, m->dso)) == NULL)
			continue;
		for (int j = 0; j < i && !seen; j++)
			seen = pr->maps[j].dso == m->dso;
		if (seen)
			continue; /* one module per file */
		if (dwfl_report_elf(
			d, p->dso[m->dso].base, p->dso[m->dso].path, -1,
			m->start - pmk__symtab_vaddr(st, m->pgoff), false))
			any = 1;
	}
	dwfl_report_end(d, NULL, NULL);
	if (!any || !dwfl_attach_state(d, NULL, (pid_t)pid, &thread_cbs, u)) {
		dwfl_end(d);
		return NULL;
	}
	return d;
}

static int on_frame(Dwfl_Frame *f, void *arg)
{
	pmk__unwinder *u = arg;
	Dwarf_Addr pc;
	bool activation;
	if (!dwfl_frame_pc(f, &pc, &activation) || pc == 0)
		return DWARF_CB_ABORT;
	u->out[u->nout++] = pc;
	return u->nout < u->max ? DWARF_CB_OK : DWARF_CB_ABORT;
}

int pmk__unwind(pmk_profile *p, const struct pmk__unwind_env *env,
		pmk__unwinder **up, const pmk_sample *s, uint64_t *out, int max)
{
	pmk__unwinder *u = *up;
	struct uw_proc *e = NULL;
	uint64_t sp;
	if (max <= 0 || !(s->flags & PMK_SAMPLE_HAS_USTACK) || sp_of(s, &sp))
		return 0;
	if (!u) {
		u = *up = calloc(1, sizeof *u);
		if (!u)
			return 0;
	}
	for (size_t i = 0; i < u->n && !e; i++)
		if (u->v[i].pid == s->pid)
			e = &u->v[i];
	if (!e) {
		if (u->n == u->cap) {
			size_t nc = u->cap ? u->cap * 2 : 8;
			void *nv = realloc(u->v, nc * sizeof *u->v);
			if (!nv)
				return 0;
			u->v = nv;
			u->cap = nc;
		}
		e = &u->v[u->n++];
		e->pid = s->pid;
		u->cur = s;
		e->dwfl = proc_dwfl(p, env, u, s->pid);
	}
	if (!e->dwfl)
		return 0;
	u->cur = s;
	u->out = out;
	u->nout = 0;
	u->max = max;
	/* ends with -1 at the outermost frame or where the unwinding stops;
	 * the frames found up to there are kept either way */
	dwfl_getthread_frames(e->dwfl, (pid_t)s->pid, on_frame, u);
	return u->nout;
}

void pmk__unwinder_free(pmk__unwinder *u)
{
	if (!u)
		return;
	for (size_t i = 0; i < u->n; i++)
		if (u->v[i].dwfl)
			dwfl_end(u->v[i].dwfl);
	free(u->v);
	free(u);
}

#else /* no elfutils: no unwinding */

int pmk__unwind(struct pmk_profile *p, const struct pmk__unwind_env *env,
		pmk__unwinder **u, const pmk_sample *s, uint64_t *out, int max)
{
	(void)p, (void)env, (void)u, (void)s, (void)out, (void)max;
	return 0;
}
void pmk__unwinder_free(pmk__unwinder *u)
{
	(void)u;
}
#endif
