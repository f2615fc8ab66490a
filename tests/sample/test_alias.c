/*
 * test_alias.c: which name a report shows for an address that several
 * symbols share, perf's order (lib/sample/symtab.c, ksym.c). The ELF cases
 * are aliases of functions in this very program, looked up in its own
 * symbol table: a global before a local before a weak one, then fewer
 * leading underscores, then the longer name (glibc's write, memmove and
 * memcpy, as perf 6.1 shows them). The kallsyms cases: the alias listed
 * last wins, whatever its binding or prefix (perf sizes only the last one).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

#include "sample/ksym.h"
#include "sample/symtab.h"
#include "tests/support/t.h"

#define NOINL __attribute__((noinline, used))

/* glibc's write: weak write and __write, local __libc_write and
 * __GI___libc_write; perf shows the longest local */
NOINL static int __body_write(int x) { return x + 1; }
extern int write_w(int) __attribute__((weak, alias("__body_write")));
extern int __write_w(int) __attribute__((weak, alias("__body_write")));
static int __libc_write_l(int) __attribute__((used, alias("__body_write")));
static int __GI___libc_write_l(int)
    __attribute__((used, alias("__body_write")));

/* memmove and memcpy share a body, both local: the longer name */
NOINL static int __body_mem(int x) { return x * 3; }
static int __memcpy_l(int) __attribute__((used, alias("__body_mem")));
static int __memmove_l(int) __attribute__((used, alias("__body_mem")));

/* a global beats a weak one with fewer underscores, and fewer
 * underscores beat length among globals */
NOINL int __gbody_long_name(int x) { return x - 7; }
extern int gl(int) __attribute__((weak, alias("__gbody_long_name")));
extern int g_short(int) __attribute__((alias("__gbody_long_name")));
extern int g_short_longer(int) __attribute__((alias("__gbody_long_name")));

static uintptr_t bias;

static int first_object(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size;
	(void)data;
	bias = info->dlpi_addr; /* the program itself comes first */
	return 1;
}

static const char *name_at(pmk__symtab *st, int (*fn)(int))
{
	return pmk__symtab_function(st, (uintptr_t)fn - bias + 2, NULL, NULL);
}

static void test_elf_aliases(void)
{
	char exe[512];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	pmk__symtab *st;
	const char *s;
	T_ASSERT(n > 0);
	exe[n] = 0;
	dl_iterate_phdr(first_object, NULL);
	st = pmk__symtab_open(exe);
	if (!st)
		T_SKIP("no ELF reader (built without elfutils)");
	s = name_at(st, __body_write);
	if (!s) {
		pmk__symtab_free(st);
		T_SKIP("this test program has no symbol table (stripped)");
	}
	T_EQ_STR(s, "__GI___libc_write_l");
	T_EQ_STR(name_at(st, __body_mem), "__memmove_l");
	T_EQ_STR(name_at(st, __gbody_long_name), "g_short_longer");
	pmk__symtab_free(st);
	(void)write_w;
	(void)__write_w;
	(void)__libc_write_l;
	(void)__GI___libc_write_l;
	(void)__memcpy_l;
	(void)__memmove_l;
	(void)gl;
	(void)g_short;
}

static void test_kallsyms_aliases(void)
{
	char path[128];
	FILE *f;
	pmk__ksyms *k;
	snprintf(path, sizeof path, "/tmp/pmk_test_alias_%d", (int)getpid());
	f = fopen(path, "w");
	T_ASSERT(f != NULL);
	/* this kernel's thunk, then a group whose last name is local and
	 * has the most underscores */
	fputs("ffffffff81000000 T _stext\n"
	      "ffffffff82204bc0 T __pi___x86_indirect_thunk_rax\n"
	      "ffffffff82204bc0 T __x86_indirect_thunk_array\n"
	      "ffffffff82204bc0 T __x86_indirect_thunk_rax\n"
	      "ffffffff82204be0 T __pi___x86_indirect_thunk_rcx\n"
	      "ffffffff82204be0 T __x86_indirect_thunk_rcx\n"
	      "ffffffff82205000 T plain\n"
	      "ffffffff82205000 t ___last_local\n"
	      "ffffffff82206000 T _etext\n",
	      f);
	fclose(f);
	k = pmk__ksyms_kallsyms(path);
	unlink(path);
	T_ASSERT(k != NULL);
	T_EQ_STR(pmk__ksyms_lookup(k, 0xffffffff82204bc5ull, NULL, NULL),
		 "__x86_indirect_thunk_rax");
	T_EQ_STR(pmk__ksyms_lookup(k, 0xffffffff82204be1ull, NULL, NULL),
		 "__x86_indirect_thunk_rcx");
	T_EQ_STR(pmk__ksyms_lookup(k, 0xffffffff82205010ull, NULL, NULL),
		 "___last_local");
	pmk__ksyms_free(k);
}

int main(void)
{
	T_RUN(test_elf_aliases);
	T_RUN(test_kallsyms_aliases);
	return t_done();
}
