/*
 * test_names.c: symbol tables that are not ELF files and names that need
 * decoding. A kallsyms fixture: functions found with their extents, aliases
 * resolved to the preferred name, module functions tagged with their module,
 * data symbols and addresses past _etext not taken for functions, a file of
 * zero addresses (kptr_restrict) refused. A JIT perf map: sized entries, bad
 * lines skipped. Demangling: C++ and Rust legacy names (table of cases),
 * unmangled names untouched.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sample/demangle.h"
#include "sample/ksym.h"
#include "tests/support/t.h"

static char path[256];

static void write_file(const char *tag, const char *text)
{
	FILE *f;
	snprintf(path, sizeof path, "/tmp/pmk_test_names_%d_%s", (int)getpid(),
		 tag);
	f = fopen(path, "w");
	T_ASSERT(f != NULL);
	fputs(text, f);
	fclose(f);
}

static void test_kallsyms(void)
{
	pmk__ksyms *k;
	const char *mod = "x", *n;
	uint64_t start = 0;
	write_file("ks", "ffffffff81000000 T _stext\n"
			 "ffffffff81000000 T _text\n"
			 "ffffffff81000100 t local_fn\n"
			 "ffffffff81000200 T __pi___thunk\n"
			 "ffffffff81000200 T __thunk\n"
			 "ffffffff81000300 D some_data\n"
			 "ffffffff81000400 T last_fn\n"
			 "ffffffff81000500 T _etext\n"
			 "garbage line\n"
			 "ffffffffc0001000 t mod_fn\t[mymod]\n"
			 "ffffffffc0001080 t mod_fn2\t[mymod]\n");
	k = pmk__ksyms_kallsyms(path);
	unlink(path);
	T_ASSERT(k != NULL);
	n = pmk__ksyms_lookup(k, 0xffffffff81000150ull, &start, &mod);
	T_EQ_STR(n, "local_fn");
	T_EQ_U64(start, 0xffffffff81000100ull);
	T_CHECK(mod == NULL);
	T_EQ_STR(pmk__ksyms_lookup(k, 0xffffffff81000210ull, NULL, NULL),
		 "__thunk");
	/* data is no function: the thunk's extent reaches last_fn */
	T_EQ_STR(pmk__ksyms_lookup(k, 0xffffffff81000310ull, NULL, NULL),
		 "__thunk");
	T_EQ_STR(pmk__ksyms_lookup(k, 0xffffffff81000410ull, NULL, NULL),
		 "last_fn");
	T_CHECK(pmk__ksyms_lookup(k, 0xffffffff81000600ull, NULL, NULL) ==
		NULL);
	T_CHECK(pmk__ksyms_lookup(k, 0xffffffff80000000ull, NULL, NULL) ==
		NULL);
	n = pmk__ksyms_lookup(k, 0xffffffffc0001010ull, NULL, &mod);
	T_EQ_STR(n, "mod_fn");
	T_EQ_STR(mod, "[mymod]");
	pmk__ksyms_free(k);

	write_file("ks0", "0000000000000000 T _stext\n"
			  "0000000000000000 T read_zero\n");
	k = pmk__ksyms_kallsyms(path);
	unlink(path);
	T_CHECK(k == NULL);
}

static void test_perfmap(void)
{
	pmk__ksyms *k;
	write_file("pm", "7f0000001000 40 jit_one\n"
			 "zzz\n"
			 "7f0000002000 100 Interpreted: java.lang.Foo::bar (x)\n"
			 "7f0000003000\n");
	k = pmk__ksyms_perfmap(path);
	unlink(path);
	T_ASSERT(k != NULL);
	T_EQ_STR(pmk__ksyms_lookup(k, 0x7f000000103full, NULL, NULL),
		 "jit_one");
	T_CHECK(pmk__ksyms_lookup(k, 0x7f0000001040ull, NULL, NULL) == NULL);
	T_EQ_STR(pmk__ksyms_lookup(k, 0x7f0000002010ull, NULL, NULL),
		 "Interpreted: java.lang.Foo::bar (x)");
	pmk__ksyms_free(k);
}

static void test_demangle(void)
{
	static const struct {
		int line;
		const char *in, *out; /* out NULL: left alone */
	} cases[] = {
	    {__LINE__, "_ZN4work8spin_absEi", "work::spin_abs(int)"},
	    {__LINE__, "_Z8map_worki", "map_work(int)"},
	    {__LINE__, "_ZNSt6vectorIiSaIiEE9push_backERKi",
	     "std::vector<int, std::allocator<int> >::push_back(int const&)"},
	    {__LINE__, "_ZN4core3fmt5write17h0123456789abcdefE",
	     "core::fmt::write"},
	    {__LINE__, "_ZN45_$LT$alloc..string..String$u20$as$u20$Foo$GT$3fmt17h00112233445566aaE",
	     "<alloc::string::String as Foo>::fmt"},
	    {__LINE__, "main", NULL},
	    {__LINE__, "_Zgarbage", NULL},
	    {__LINE__, "_R", NULL},
	};
	if (!pmk__demangle_available())
		T_SKIP("libstdc++'s __cxa_demangle cannot be loaded");
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		char *d = pmk__demangle(cases[i].in);
		if (!cases[i].out)
			T_CHECKF(d == NULL, "line %d: '%s' demangled as '%s'",
				 cases[i].line, cases[i].in, d);
		else
			T_CHECKF(d && !strcmp(d, cases[i].out),
				 "line %d: '%s' -> '%s', want '%s'",
				 cases[i].line, cases[i].in, d ? d : "(null)",
				 cases[i].out);
		free(d);
	}
}

int main(void)
{
	T_RUN(test_kallsyms);
	T_RUN(test_perfmap);
	T_RUN(test_demangle);
	return t_done();
}
