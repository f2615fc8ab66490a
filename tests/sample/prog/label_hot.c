/*
 * label_hot.c: the hot loop under an assembly label with no type and no
 * size (like ld.so's _dl_start_user), for label.t: perf names such code
 * by the label, up to the next symbol. Argument: loop trips (default 3e8).
 */
#include <stdlib.h>

#if defined(__x86_64__)
__asm__(".text\n"
	".globl hot_label\n"
	"hot_label:\n"
	"1:	dec %rdi\n"
	"	jnz 1b\n"
	"	ret\n");
#elif defined(__aarch64__)
__asm__(".text\n"
	".globl hot_label\n"
	"hot_label:\n"
	"1:	subs x0, x0, #1\n"
	"	b.ne 1b\n"
	"	ret\n");
#else
void hot_label(unsigned long n)
{
	while (--n)
		__asm__ volatile("");
}
#endif
void hot_label(unsigned long n);

int main(int argc, char **argv)
{
	hot_label(argc > 1 ? strtoul(argv[1], NULL, 0) : 300000000ul);
	return 0;
}
