/*
 * test_names.c: symbol tables that are not ELF files and names that need
 * decoding. A kallsyms fixture: functions found with their extents, aliases
 * resolved to the preferred name, module functions tagged with their module,
 * data symbols and addresses past _etext not taken for functions, a file of
 * zero addresses (kptr_restrict) refused. A JIT perf map: sized entries, bad
 * lines skipped. Demangling: C++ and Rust legacy names (table of cases),
 * unmangled names untouched; Rust v0 names taken from a real build (when
 * built with libiberty), malformed ones left alone.
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

/* a mangled name and what pmk__demangle must make of it */
struct dcase {
	int line;
	const char *in, *out; /* out NULL: left alone */
};

static void check_cases(const struct dcase *c, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char *d = pmk__demangle(c[i].in);
		if (!c[i].out)
			T_CHECKF(d == NULL, "line %d: '%s' demangled as '%s'",
				 c[i].line, c[i].in, d);
		else
			T_CHECKF(d && !strcmp(d, c[i].out),
				 "line %d: '%s' -> '%s', want '%s'", c[i].line,
				 c[i].in, d ? d : "(null)", c[i].out);
		free(d);
	}
}

static void test_demangle(void)
{
	static const struct dcase cases[] = {
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
	};
	if (!pmk__demangle_available())
		T_SKIP("libstdc++'s __cxa_demangle cannot be loaded");
	check_cases(cases, sizeof cases / sizeof *cases);
}

/* Rust v0 names ("_R..."): every mangled input below is a symbol of one
 * real binary, `rustc 1.95.0 -O -C symbol-mangling-version=v0 m.rs` (a crate
 * "m" with fn spin, a generic struct W<T> with a method get, a trait Tr
 * implemented for [u8; 3], a HashMap<String, u64> and a closure), listed by
 * `nm m`, and of a second crate "u". The expected forms are those of Rust's own demangler without
 * crate hashes (rustc-demangle's "{:#}"). */
static void test_demangle_v0(void)
{
	static const struct dcase cases[] = {
	    {__LINE__, "_RNvCskK7mfDs1mzF_1m4main", "m::main"},
	    {__LINE__, "_RNvCskK7mfDs1mzF_1m4spin", "m::spin"},
	    /* an inherent impl of a generic type, instantiated (backref B2_) */
	    {__LINE__, "_RNvMCskK7mfDs1mzF_1mINtB2_1WmE3getB2_",
	     "<m::W<u32>>::get"},
	    /* a trait impl for an array type with a const length */
	    {__LINE__, "_RNvXs_CskK7mfDs1mzF_1mAhj3_NtB4_2Tr2go",
	     "<[u8; 3] as m::Tr>::go"},
	    /* a closure in a generic function */
	    {__LINE__, "_RNCINvNtCsjrHSEGnQ3l9_3std2rt10lang_startuE0CskK7mfDs1mzF_1m",
	     "std::rt::lang_start::<()>::{closure#0}"},
	    /* fn pointer and unit types as generic arguments */
	    {__LINE__, "_RINvNtNtCsjrHSEGnQ3l9_3std3sys9backtrace28___rust_begin_short_backtraceFEuuECskK7mfDs1mzF_1m",
	     "std::sys::backtrace::__rust_begin_short_backtrace::<fn(), ()>"},
	    /* a trait method on a type from another crate, a reference argument */
	    {__LINE__, "_RINvYNtNtNtCsjrHSEGnQ3l9_3std4hash6random11RandomStateNtNtCsgEmfK2I1SDS_4core4hash11BuildHasher8hash_oneRNtNtCslNYArtu3iFV_5alloc6string6StringECskK7mfDs1mzF_1m",
	     "<std::hash::random::RandomState as core::hash::BuildHasher>::hash_one::<&alloc::string::String>"},
	    /* tuples, a shim, and LLVM's ".llvm.<n>" suffix dropped */
	    {__LINE__, "_RINvMs6_NtCsgvbsrvnw3yD_9hashbrown3rawINtB6_8RawTableTNtNtCslNYArtu3iFV_5alloc6string6StringyEE14reserve_rehashNCINvNtB8_3map11make_hasherBQ_yNtNtNtCsjrHSEGnQ3l9_3std4hash6random11RandomStateE0ECskK7mfDs1mzF_1m.llvm.12980484307323983366",
	     "<hashbrown::raw::RawTable<(alloc::string::String, u64)>>::reserve_rehash::<hashbrown::map::make_hasher<alloc::string::String, u64, std::hash::random::RandomState>::{closure#0}>"},
	    {__LINE__, "_RNSNvYNCINvNtCsjrHSEGnQ3l9_3std2rt10lang_startuE0INtNtNtCsgEmfK2I1SDS_4core3ops8function6FnOnceuE9call_once6vtableCskK7mfDs1mzF_1m",
	     "<std::rt::lang_start<()>::{closure#0} as core::ops::function::FnOnce<()>>::call_once::{shim:vtable#0}"},
	    /* from a second program, crate "u" (rustc 1.95, v0, -O and
	     * -C opt-level=0): a punycode identifier (fn größe), const
	     * generic arguments (C<const N: usize, const B: bool>) */
	    {__LINE__, "_RNvCsayYDP3hoOQQ_1uu9gre_6ka8i", "u::gr\xc3\xb6\xc3\x9f" "e"},
	    {__LINE__, "_RNvMCsayYDP3hoOQQ_1uINtB2_1CKj78_Kb0_E1nB2_",
	     "<u::C<120, false>>::n"},
	    {__LINE__, "_RINvCsayYDP3hoOQQ_1u2hrNCNvB2_4mains_0EB2_",
	     "u::hr::<u::main::{closure#1}>"},
	    /* malformed: truncated, a backref pointing forward, garbage */
	    {__LINE__, "_R", NULL},
	    {__LINE__, "_RNvCskK7mfDs1mzF_1m4mai", NULL},
	    {__LINE__, "_RNvB9_4main", NULL},
	    {__LINE__, "_Rxyz", NULL},
	    /* not Rust: the unwinder's, in the same binary */
	    {__LINE__, "_RaiseException", NULL},
	    {__LINE__, "_Resume", NULL},
	};
	if (!pmk__demangle_rust_v0_available())
		T_SKIP("built without libiberty (Debian libiberty-dev): Rust v0 names stay mangled");
	check_cases(cases, sizeof cases / sizeof *cases);
	/* 20,000 nested array types with no lengths: malformed, and so deep
	 * that a demangler without a recursion bound would exhaust the stack */
	{
		size_t n = 20000, k = 0;
		char *deep = malloc(3 * n + 64);
		T_CHECK(deep != NULL);
		if (!deep)
			return;
		k += (size_t)sprintf(deep, "_RINvC1a1f");
		for (size_t j = 0; j < n; j++)
			deep[k++] = 'A';
		deep[k++] = 'h';
		deep[k] = 0;
		{
			char *d = pmk__demangle(deep);
			T_CHECKF(d == NULL, "deep nesting demangled as '%.40s...'", d);
			free(d);
		}
		free(deep);
	}
}

/* v0's base-62 number with its '_' (0 is "_", n is base62(n - 1) "_") */
static size_t b62(char *w, unsigned long n)
{
	static const char d[] = "0123456789abcdefghijklmnopqrstuvwxyz"
				"ABCDEFGHIJKLMNOPQRSTUVWXYZ";
	char t[16];
	size_t k = 0, m = 0;
	if (n) {
		n--;
		do
			t[k++] = d[n % 62];
		while ((n /= 62));
	}
	while (k)
		w[m++] = t[--k];
	w[m++] = '_';
	return m;
}

/* A well-formed v0 name whose printed form doubles at each of `levels`
 * tuple types, each made of two backreferences to the one before:
 * f::<((), ()), (((), ()), ((), ())), ...> grows as 2^levels. */
static char *v0_doubling(int levels)
{
	char *s = malloc(64 + 32 * (size_t)levels);
	size_t k = 2, prev;
	if (!s)
		return NULL;
	memcpy(s, "_RINvC1a1f", 10);
	k = 10;
	prev = k - 2; /* backrefs count from after "_R" */
	k += (size_t)sprintf(s + k, "TuuE");
	for (int i = 0; i < levels; i++) {
		size_t here = k - 2;
		s[k++] = 'T';
		s[k++] = 'B';
		k += b62(s + k, prev);
		s[k++] = 'B';
		k += b62(s + k, prev);
		s[k++] = 'E';
		prev = here;
	}
	s[k++] = 'E';
	s[k] = 0;
	return s;
}

/* Backreferences make output exponential in the input: the demangled form
 * is cut off (the name kept mangled) rather than grown without bound. */
static void test_demangle_v0_blowup(void)
{
	char *s, *d;
	if (!pmk__demangle_rust_v0_available())
		T_SKIP("built without libiberty (Debian libiberty-dev)");
	s = v0_doubling(2); /* small: printed in full */
	d = s ? pmk__demangle(s) : NULL;
	T_CHECKF(d && !strcmp(d, "a::f::<((), ()), (((), ()), ((), ())), "
				 "((((), ()), ((), ())), (((), ()), ((), ())))>"),
		 "2 levels: '%s'", d ? d : "(null)");
	free(d);
	free(s);
	/* 20 levels print 25 MB, 60 levels would print 2^60 units */
	for (int lv = 20; lv <= 60; lv += 40) {
		s = v0_doubling(lv);
		d = s ? pmk__demangle(s) : NULL;
		T_CHECKF(s && d == NULL, "%d levels: %zu bytes demangled", lv,
			 d ? strlen(d) : 0);
		free(d);
		free(s);
	}
}

int main(void)
{
	T_RUN(test_kallsyms);
	T_RUN(test_perfmap);
	T_RUN(test_demangle);
	T_RUN(test_demangle_v0);
	T_RUN(test_demangle_v0_blowup);
	return t_done();
}
