/*
 * lackey.c: real programs into pmkit traces, from valgrind's lackey tool.
 *
 * `valgrind --tool=lackey --trace-mem=yes -v -v -v` prints, in program
 * order, `I  ADDR,SIZE` for each executed instruction and ` L|S|M ADDR,SIZE`
 * for its loads, stores and modifies; at verbosity 3 it also prints, for
 * each object it maps, `Reading syms from PATH` then `svma S, avma A`, which
 * gives the object's load bias (A - S). With that bias and the object's
 * ELF program headers, an instruction address leads to its bytes in the
 * file, and capstone (Debian's libcapstone, optional) decodes them into the
 * op class, the registers read and written (sub-registers folded onto their
 * full register: eax, ax, al -> rax) and a direct branch's target. Taken
 * branches are seen in the next instruction's address. Without capstone,
 * or for code it cannot find (valgrind's own preloads, vdso, JIT), the op
 * class comes from the memory operands and control transfers are inferred
 * from non-sequential addresses (as indirect jumps). Decoded instructions
 * are cached by address.
 */
#include <elf.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/core/infile.h"
#include "pmkit/sim.h"

#if PMK_HAVE_CAPSTONE
#include <capstone/capstone.h>
#endif

#define MAX_OBJ 256
#define MAX_SEG 16
#define DCACHE	(1u << 16)

typedef struct obj {
	int fd;
	uint64_t bias;
	int nseg;
	struct {
		uint64_t vaddr, memsz, offset, filesz;
	} seg[MAX_SEG];
} obj;

typedef struct dinfo {
	uint64_t pc; /* + 1; 0 = empty slot */
	uint64_t target;
	uint8_t op, nsrc, ndst, decoded, len;
	uint8_t src[PMK_SIM_MAX_SRC], dst[PMK_SIM_MAX_DST];
} dinfo;

struct pmk_lackey {
	pmk_trace_writer *w;
	obj objs[MAX_OBJ];
	int nobj;
	char path[4096];
	int have_path;
	dinfo *cache;
	char regname[255][16];
	int nreg;
	int have_cur;
	pmk_sim_insn cur;
	pmk_lackey_stats st;
	uint64_t skip; /* instructions still to drop before writing */
	int err;
#if PMK_HAVE_CAPSTONE
	csh cs;
	int cs_ok;
#endif
};

int pmk_lackey_available(void)
{
#if PMK_HAVE_CAPSTONE
	return 1;
#else
	return 0;
#endif
}

void pmk_lackey_skip(pmk_lackey *l, uint64_t n)
{
	l->skip = n;
}

int pmk_lackey_new(pmk_lackey **out, pmk_trace_writer *w)
{
	pmk_lackey *l = calloc(1, sizeof *l);
	*out = NULL;
	if (!l)
		return PMK_ENOMEM;
	l->w = w;
	l->cache = calloc(DCACHE, sizeof *l->cache);
	if (!l->cache) {
		free(l);
		return PMK_ENOMEM;
	}
#if PMK_HAVE_CAPSTONE
	if (cs_open(CS_ARCH_X86, CS_MODE_64, &l->cs) == CS_ERR_OK) {
		cs_option(l->cs, CS_OPT_DETAIL, CS_OPT_ON);
		l->cs_ok = 1;
	}
#endif
	*out = l;
	return 0;
}

void pmk_lackey_free(pmk_lackey *l)
{
	if (!l)
		return;
	for (int i = 0; i < l->nobj; i++)
		if (l->objs[i].fd >= 0)
			close(l->objs[i].fd);
#if PMK_HAVE_CAPSTONE
	if (l->cs_ok)
		cs_close(&l->cs);
#endif
	free(l->cache);
	free(l);
}

const pmk_lackey_stats *pmk_lackey_stats_get(const pmk_lackey *l)
{
	return &l->st;
}

/* An object's PT_LOAD segments from its ELF header (64-bit only). */
static void add_object(pmk_lackey *l, const char *path, uint64_t bias)
{
	Elf64_Ehdr eh;
	obj *o;
	int fd;
	if (l->nobj == MAX_OBJ)
		return;
	/* a regular file only: a FIFO or device named in the log is skipped
	 * (the bounded, typed open of lib/core/infile.h) */
	fd = pmk__infile_open(path, PMK__IN_BINARY, NULL);
	if (fd < 0)
		return;
	if (pread(fd, &eh, sizeof eh, 0) != (ssize_t)sizeof eh ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_phentsize != sizeof(Elf64_Phdr) || eh.e_phnum > 64) {
		close(fd);
		return;
	}
	o = &l->objs[l->nobj];
	memset(o, 0, sizeof *o);
	o->fd = fd;
	o->bias = bias;
	for (int i = 0; i < eh.e_phnum && o->nseg < MAX_SEG; i++) {
		Elf64_Phdr ph;
		if (pread(fd, &ph, sizeof ph,
			  (off_t)(eh.e_phoff + (uint64_t)i * sizeof ph)) !=
		    (ssize_t)sizeof ph)
			break;
		if (ph.p_type != PT_LOAD || !(ph.p_flags & PF_X))
			continue;
		o->seg[o->nseg].vaddr = ph.p_vaddr;
		o->seg[o->nseg].memsz = ph.p_memsz;
		o->seg[o->nseg].offset = ph.p_offset;
		o->seg[o->nseg].filesz = ph.p_filesz;
		o->nseg++;
	}
	l->nobj++;
}

/* Up to 16 code bytes at pc; returns how many. */
static int code_bytes(pmk_lackey *l, uint64_t pc, uint8_t *buf)
{
	for (int i = 0; i < l->nobj; i++) {
		obj *o = &l->objs[i];
		uint64_t sv = pc - o->bias;
		for (int k = 0; k < o->nseg; k++) {
			uint64_t off, n;
			ssize_t got;
			if (sv < o->seg[k].vaddr ||
			    sv >= o->seg[k].vaddr + o->seg[k].filesz)
				continue;
			off = o->seg[k].offset + (sv - o->seg[k].vaddr);
			n = o->seg[k].vaddr + o->seg[k].filesz - sv;
			got = pread(o->fd, buf, n < 16 ? n : 16, (off_t)off);
			return got > 0 ? (int)got : 0;
		}
	}
	return 0;
}

#if PMK_HAVE_CAPSTONE
/* A register number 1..255 for a capstone register, sub-registers folded
 * onto their full register, 0 for none (rip) or when the table is full. */
static uint8_t reg_of(pmk_lackey *l, unsigned id)
{
	static const char *fam[][5] = {
	    {"rax", "eax", "ax", "al", "ah"}, {"rbx", "ebx", "bx", "bl", "bh"},
	    {"rcx", "ecx", "cx", "cl", "ch"}, {"rdx", "edx", "dx", "dl", "dh"},
	    {"rsi", "esi", "si", "sil", ""},  {"rdi", "edi", "di", "dil", ""},
	    {"rbp", "ebp", "bp", "bpl", ""},  {"rsp", "esp", "sp", "spl", ""},
	};
	const char *name = cs_reg_name(l->cs, id);
	char n[16];
	if (!name || !strcmp(name, "rip") || !strcmp(name, "eip"))
		return 0;
	snprintf(n, sizeof n, "%s", name);
	for (size_t f = 0; f < sizeof fam / sizeof fam[0]; f++)
		for (int k = 0; k < 5; k++)
			if (fam[f][k][0] && !strcmp(n, fam[f][k]))
				snprintf(n, sizeof n, "%s", fam[f][0]);
	if (n[0] == 'r' && n[1] >= '0' && n[1] <= '9') {
		size_t k = 1;
		while (n[k] >= '0' && n[k] <= '9')
			k++;
		n[k] = 0; /* r8d, r8w, r8b -> r8 */
	}
	if ((n[0] == 'y' || n[0] == 'z') && !strncmp(n + 1, "mm", 2))
		n[0] = 'x'; /* ymm3, zmm3 -> xmm3 */
	if (!strcmp(n, "eflags") || !strcmp(n, "rflags"))
		snprintf(n, sizeof n, "flags");
	for (int i = 0; i < l->nreg; i++)
		if (!strcmp(l->regname[i], n))
			return (uint8_t)(i + 1);
	if (l->nreg == 255)
		return 0;
	snprintf(l->regname[l->nreg], sizeof l->regname[0], "%s", n);
	return (uint8_t)(++l->nreg);
}

static int has_suffix(const char *m, const char *const *sfx)
{
	size_t n = strlen(m);
	for (; *sfx; sfx++) {
		size_t k = strlen(*sfx);
		if (n > k && !strcmp(m + n - k, *sfx))
			return 1;
	}
	return 0;
}

static int op_class(const char *m)
{
	static const char *const fpsfx[] = {"ss", "sd", "ps", "pd", NULL};
	const char *b = m[0] == 'v' ? m + 1 : m;
	if (strstr(m, "sqrt") || !strncmp(m, "fdiv", 4) ||
	    (!strncmp(b, "div", 3) && has_suffix(m, fpsfx)))
		return PMK_SIM_OP_FDIV;
	if (((!strncmp(b, "add", 3) || !strncmp(b, "sub", 3) ||
	      !strncmp(b, "mul", 3) || !strncmp(b, "min", 3) ||
	      !strncmp(b, "max", 3) || !strncmp(b, "fmadd", 5) ||
	      !strncmp(b, "fmsub", 5) || !strncmp(b, "fnmadd", 6)) &&
	     has_suffix(m, fpsfx)) ||
	    !strncmp(m, "fadd", 4) || !strncmp(m, "fmul", 4) ||
	    !strncmp(m, "fsub", 4))
		return PMK_SIM_OP_FADD;
	if (!strncmp(m, "div", 3) || !strncmp(m, "idiv", 4) ||
	    !strncmp(m, "mul", 3) || !strncmp(m, "imul", 4))
		return PMK_SIM_OP_IMUL;
	if (!strncmp(m, "nop", 3) || !strncmp(m, "endbr", 5))
		return PMK_SIM_OP_OTHER;
	return PMK_SIM_OP_INT;
}

static void decode(pmk_lackey *l, dinfo *di, uint64_t pc)
{
	uint8_t buf[16];
	int n = code_bytes(l, pc, buf);
	cs_insn *in;
	cs_regs rr, ww;
	uint8_t nr = 0, nw = 0;
	if (!l->cs_ok || n <= 0 ||
	    cs_disasm(l->cs, buf, (size_t)n, pc, 1, &in) != 1)
		return;
	di->decoded = 1;
	di->len = (uint8_t)in->size;
	if (cs_insn_group(l->cs, in, CS_GRP_RET))
		di->op = PMK_SIM_OP_RET;
	else if (cs_insn_group(l->cs, in, CS_GRP_CALL))
		di->op = PMK_SIM_OP_CALL;
	else if (cs_insn_group(l->cs, in, CS_GRP_JUMP))
		di->op =
		    in->id == X86_INS_JMP ? PMK_SIM_OP_JUMP : PMK_SIM_OP_BCOND;
	else
		di->op = (uint8_t)op_class(in->mnemonic);
	if ((di->op == PMK_SIM_OP_JUMP || di->op == PMK_SIM_OP_CALL ||
	     di->op == PMK_SIM_OP_BCOND) &&
	    in->detail->x86.op_count >= 1) {
		cs_x86_op *o = &in->detail->x86.operands[0];
		if (o->type == X86_OP_IMM)
			di->target = (uint64_t)o->imm;
		else if (di->op == PMK_SIM_OP_JUMP)
			di->op = PMK_SIM_OP_JIND;
	}
	if (cs_regs_access(l->cs, in, rr, &nr, ww, &nw) == CS_ERR_OK) {
		for (int i = 0; i < nr && di->nsrc < PMK_SIM_MAX_SRC; i++) {
			uint8_t r = reg_of(l, rr[i]);
			if (r)
				di->src[di->nsrc++] = r;
		}
		for (int i = 0; i < nw && di->ndst < PMK_SIM_MAX_DST; i++) {
			uint8_t r = reg_of(l, ww[i]);
			if (r)
				di->dst[di->ndst++] = r;
		}
	}
	cs_free(in, 1);
}
#endif

static dinfo *lookup(pmk_lackey *l, uint64_t pc)
{
	uint32_t h =
	    (uint32_t)((pc * 0x9E3779B97F4A7C15ull) >> 48) & (DCACHE - 1);
	dinfo *di = &l->cache[h];
	if (di->pc == pc + 1)
		return di;
	memset(di, 0, sizeof *di); /* direct-mapped: replace */
	di->pc = pc + 1;
#if PMK_HAVE_CAPSTONE
	decode(l, di, pc);
#endif
	return di;
}

/* Complete the pending instruction now that the next PC is known. */
static int flush(pmk_lackey *l, uint64_t next_pc, int have_next)
{
	pmk_sim_insn *c = &l->cur;
	dinfo *di;
	int rc;
	if (!l->have_cur)
		return 0;
	l->have_cur = 0;
	di = lookup(l, c->pc);
	if (di->decoded) {
		l->st.decoded++;
		c->op = di->op;
		c->nsrc = di->nsrc;
		c->ndst = di->ndst;
		memcpy(c->src, di->src, sizeof c->src);
		memcpy(c->dst, di->dst, sizeof c->dst);
		c->target = di->target;
		if (pmk_sim_op_is_branch(c->op) && have_next) {
			c->taken = next_pc != c->pc + c->len;
			if (c->taken)
				c->target = next_pc;
		}
		if (c->op == PMK_SIM_OP_RET || c->op == PMK_SIM_OP_JIND ||
		    c->op == PMK_SIM_OP_CALL || c->op == PMK_SIM_OP_JUMP)
			c->taken = 1;
	} else {
		c->op = PMK_SIM_OP_INT;
		if (have_next && next_pc != c->pc + c->len) {
			c->op = PMK_SIM_OP_JIND;
			c->taken = 1;
			c->target = next_pc;
		}
	}
	if (!pmk_sim_op_is_branch(c->op) && c->nmem &&
	    (c->op == PMK_SIM_OP_INT || c->op == PMK_SIM_OP_OTHER)) {
		int ld = 0;
		for (int k = 0; k < c->nmem; k++)
			ld |= !c->mem[k].store;
		c->op = ld ? PMK_SIM_OP_LOAD : PMK_SIM_OP_STORE;
	}
	if (!pmk_sim_op_is_branch(c->op))
		c->taken = 0;
	if (l->skip) {
		l->skip--;
		l->st.skipped++;
		return 0;
	}
	rc = pmk_trace_write(l->w, c);
	if (rc < 0)
		return rc;
	l->st.instructions++;
	if (pmk_sim_op_is_branch(c->op))
		l->st.branches++;
	return 0;
}

static int hexpair(const char *p, uint64_t *a, uint64_t *n)
{
	char *e;
	*a = strtoull(p, &e, 16);
	if (e == p || *e != ',')
		return -1;
	p = e + 1;
	*n = strtoull(p, &e, 10);
	return e == p ? -1 : 0;
}

int pmk_lackey_line(pmk_lackey *l, const char *line)
{
	uint64_t a, n;
	const char *p;
	if (l->err)
		return l->err;
	if (line[0] == 'I' && line[1] == ' ') {
		if (hexpair(line + 2 + strspn(line + 2, " "), &a, &n) || !n ||
		    n > 15) {
			l->st.bad_lines++;
			return 0;
		}
		if ((l->err = flush(l, a, 1)) < 0)
			return l->err;
		memset(&l->cur, 0, sizeof l->cur);
		l->cur.pc = a;
		l->cur.len = (uint8_t)n;
		l->have_cur = 1;
		return 0;
	}
	if (line[0] == ' ' &&
	    (line[1] == 'L' || line[1] == 'S' || line[1] == 'M') &&
	    line[2] == ' ') {
		if (!l->have_cur || hexpair(line + 3, &a, &n) || !n) {
			l->st.bad_lines++;
			return 0;
		}
		if (n > 128)
			n = 128;
		/* M (modify) is a load and a store of the same bytes */
		for (int k = 0; k < (line[1] == 'M' ? 2 : 1); k++) {
			pmk_sim_insn *c = &l->cur;
			int store = line[1] == 'S' || k == 1;
			if (c->nmem == PMK_SIM_MAX_MEM) {
				/* keep one load and one store at most */
				for (int j = 0; j < c->nmem; j++)
					if (c->mem[j].store == store)
						goto next;
				c->nmem--;
			}
			c->mem[c->nmem].addr = a;
			c->mem[c->nmem].size = (uint8_t)n;
			c->mem[c->nmem].store = (uint8_t)store;
			c->nmem++;
		next:;
		}
		return 0;
	}
	if (line[0] == '-' && line[1] == '-') {
		if ((p = strstr(line, "Reading syms from "))) {
			snprintf(l->path, sizeof l->path, "%s", p + 18);
			l->path[strcspn(l->path, "\n")] = 0;
			l->have_path = 1;
		} else if (l->have_path && (p = strstr(line, "svma 0x"))) {
			const char *q = strstr(p, "avma 0x");
			uint64_t sv = strtoull(p + 5, NULL, 16),
				 av = q ? strtoull(q + 5, NULL, 16) : 0;
			if (q) {
				add_object(l, l->path, av - sv);
				l->st.objects++;
			}
			l->have_path = 0;
		}
	}
	return 0;
}

int pmk_lackey_finish(pmk_lackey *l)
{
	if (l->err)
		return l->err;
	return flush(l, 0, 0);
}
