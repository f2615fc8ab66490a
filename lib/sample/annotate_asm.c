/*
 * annotate_asm.c: instruction-level annotate. The function's bytes are
 * read from its file (the ELF section holding it), decoded with capstone
 * (x86-64 and arm64), and printed one instruction a line with the share of
 * the function's samples at that address; where the DWARF line changes,
 * the source line is interleaved above its instructions. Without capstone
 * in the build, PMK_ENOTSUP. Remember skid (docs/profiles.md): a sample
 * lands at or shortly after the instruction that cost the time.
 */
#include <stdlib.h>
#include <string.h>

#include "sample/profile.h"

#if PMK_HAVE_CAPSTONE && PMK_HAVE_DW
#include <capstone/capstone.h>

/* Source text of `file` line `line` (a small cache of one file). */
struct srcfile {
	char *path, *text;
	const char **lines;
	int n;
};

static void src_load(struct srcfile *s, const char *path)
{
	FILE *f;
	long len;
	if (s->path && !strcmp(s->path, path))
		return;
	free(s->path);
	free(s->text);
	free(s->lines);
	memset(s, 0, sizeof *s);
	s->path = strdup(path);
	f = fopen(path, "re");
	if (!f)
		return;
	if (fseek(f, 0, SEEK_END) == 0 && (len = ftell(f)) > 0 &&
	    len < (64l << 20) && fseek(f, 0, SEEK_SET) == 0) {
		s->text = malloc((size_t)len + 1);
		if (s->text && fread(s->text, 1, (size_t)len, f) == (size_t)len) {
			int cap = 1024;
			s->text[len] = 0;
			s->lines = malloc((size_t)cap * sizeof *s->lines);
			for (char *p = s->text; s->lines && p && *p;) {
				char *nl = strchr(p, '\n');
				if (s->n == cap) {
					const char **nv = realloc(
					    s->lines,
					    (size_t)cap * 2 * sizeof *nv);
					if (!nv)
						break;
					s->lines = nv;
					cap *= 2;
				}
				s->lines[s->n++] = p;
				if (nl)
					*nl = 0;
				p = nl ? nl + 1 : NULL;
			}
		}
	}
	fclose(f);
}

int pmk__annotate_asm(pmk_profile *p, int dso, const char *function,
		      uint64_t fstart, uint64_t fsize, FILE *out)
{
	pmk__symtab *st = pmk__dso_symtab(p, dso);
	const uint8_t *code;
	uint64_t *per = NULL, total = 0;
	size_t n;
	csh cs;
	cs_insn *insn;
	int machine, arch, mode, lastline = -1;
	const char *lastfile = NULL;
	struct srcfile src;
	if (!st || !fsize || fsize > (16u << 20))
		return PMK_ENOENT;
	n = pmk__symtab_code(st, fstart, fsize, &code, &machine);
	if (!n)
		return PMK_ENOENT;
	if (machine == 62) { /* EM_X86_64 */
		arch = CS_ARCH_X86;
		mode = CS_MODE_64;
	} else if (machine == 183) { /* EM_AARCH64 */
		arch = CS_ARCH_ARM64;
		mode = CS_MODE_ARM;
	} else {
		return PMK_ENOTSUP;
	}
	if (cs_open((cs_arch)arch, (cs_mode)mode, &cs) != CS_ERR_OK)
		return PMK_ENOTSUP;
	per = calloc(n, sizeof *per);
	if (!per) {
		cs_close(&cs);
		return PMK_ENOMEM;
	}
	for (size_t i = 0; i < p->nloc; i++) {
		struct loc *l = &p->loc[i];
		uint64_t k = 0;
		if (l->dso != dso || !l->resolved || l->vaddr < fstart ||
		    l->vaddr - fstart >= n)
			continue;
		for (int e = 0; e < p->nevents; e++)
			k += l->samples[e];
		per[l->vaddr - fstart] += k;
		total += k;
	}
	memset(&src, 0, sizeof src);
	fprintf(out, "# %s (%s): %llu samples, instructions\n", function,
		pmk__dso_name(p, dso), (unsigned long long)total);
	fprintf(out, "#  Percent  Samples  Address           Instruction\n");
	{
		const uint8_t *c = code;
		size_t left = n;
		uint64_t addr = fstart;
		insn = cs_malloc(cs);
		while (insn && left &&
		       cs_disasm_iter(cs, &c, &left, &addr, insn)) {
			const char *file;
			int line;
			uint64_t k = 0;
			if (pmk__symtab_line(st, insn->address, &file, &line) ==
				0 &&
			    (line != lastline || file != lastfile)) {
				const char *b = strrchr(file, '/');
				src_load(&src, file);
				fprintf(out, "%28s%s:%d  %s\n", "",
					b ? b + 1 : file, line,
					line > 0 && line <= src.n
					    ? src.lines[line - 1]
					    : "");
				lastline = line;
				lastfile = file;
			}
			for (uint64_t a = insn->address;
			     a < insn->address + insn->size; a++)
				k += per[a - fstart];
			if (k)
				fprintf(out, " %8.2f%% %8llu", 
					total ? 100.0 * (double)k /
						    (double)total
					      : 0.0,
					(unsigned long long)k);
			else
				fprintf(out, " %9s %8s", "", "");
			fprintf(out, "  0x%-14llx %s %s\n",
				(unsigned long long)insn->address,
				insn->mnemonic, insn->op_str);
		}
		if (insn)
			cs_free(insn, 1);
	}
	free(src.path);
	free(src.text);
	free(src.lines);
	free(per);
	cs_close(&cs);
	return ferror(out) ? PMK_EIO : 0;
}

#else

int pmk__annotate_asm(pmk_profile *p, int dso, const char *function,
		      uint64_t fstart, uint64_t fsize, FILE *out)
{
	(void)p, (void)dso, (void)function, (void)fstart, (void)fsize,
	    (void)out;
	return PMK_ENOTSUP;
}

#endif
