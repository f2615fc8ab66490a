/*
 * demangle.c: readable names for C++ and Rust symbols. C++ (Itanium ABI,
 * "_Z...") and Rust's legacy scheme (which is Itanium-shaped) go through
 * libstdc++'s __cxa_demangle, loaded with dlopen on first use so that pmkit
 * itself stays a C program with no C++ runtime linked in; a build or system
 * without libstdc++ keeps mangled names. Rust legacy names then lose their
 * "::h<16 hex>" hash and have their $-escapes decoded, as Rust's own
 * demangler prints them. Rust v0 names ("_R...") go through libiberty's
 * Rust demangler (Debian's libiberty-dev, a static PIC archive linked in
 * when scripts/configure finds it, PMK_HAVE_IBERTY); without it they are
 * kept as they are. Its plain form is the one rustc-demangle prints with
 * "{:#}": no crate disambiguator hashes ("m::main", not "m[f19d...]::main").
 */
#include <dlfcn.h>
#include <setjmp.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "sample/demangle.h"

#if PMK_HAVE_IBERTY
#include <libiberty/demangle.h>
#endif

typedef char *(*cxa_fn)(const char *, char *, size_t *, int *);
static cxa_fn cxa;
static pthread_once_t cxa_once = PTHREAD_ONCE_INIT;

static void cxa_load(void)
{
	void *h = dlopen("libstdc++.so.6", RTLD_LAZY | RTLD_LOCAL);
	if (h)
		*(void **)&cxa = dlsym(h, "__cxa_demangle");
	/* the handle stays open for the life of the process */
}

int pmk__demangle_available(void)
{
	pthread_once(&cxa_once, cxa_load);
	return cxa != NULL;
}

static int is_hex16_hash(const char *s, size_t n)
{
	if (n != 17 || s[0] != 'h')
		return 0;
	for (size_t i = 1; i < n; i++)
		if (!strchr("0123456789abcdef", s[i]))
			return 0;
	return 1;
}

/* Rust legacy: "a::b::h0123456789abcdef" -> "a::b", "$LT$" -> "<" ... */
static void rust_legacy(char *s)
{
	static const struct {
		const char *esc, *to;
	} tab[] = {{"$SP$", "@"}, {"$BP$", "*"}, {"$RF$", "&"}, {"$LT$", "<"},
		   {"$GT$", ">"}, {"$LP$", "("}, {"$RP$", ")"}, {"$C$", ","},
		   {"$u7e$", "~"}, {"$u20$", " "}, {"$u27$", "'"},
		   {"$u5b$", "["}, {"$u5d$", "]"}, {"$u7b$", "{"},
		   {"$u7d$", "}"}, {"$u3b$", ";"}, {"$u2b$", "+"},
		   {"$u22$", "\""}};
	char *last = NULL, *w = s, *src;
	for (char *p = strstr(s, "::"); p; p = strstr(p + 2, "::"))
		last = p;
	if (!last || !is_hex16_hash(last + 2, strlen(last + 2)))
		return; /* not a Rust legacy name */
	*last = 0;
	src = strdup(s);
	if (!src)
		return;
	for (const char *r = src, *s0 = src; *r;) {
		size_t i;
		/* a component starting with '$' is written "_$" */
		if (r[0] == '_' && r[1] == '$' &&
		    (r == s0 || (r - s0 >= 2 && r[-1] == ':' && r[-2] == ':')))
			r++;
		if (r[0] == '.' && r[1] == '.') { /* ".." is "::" */
			*w++ = ':';
			*w++ = ':';
			r += 2;
			continue;
		}
		for (i = 0; i < sizeof tab / sizeof *tab; i++) {
			size_t l = strlen(tab[i].esc);
			if (!strncmp(r, tab[i].esc, l)) {
				*w++ = tab[i].to[0];
				r += l;
				break;
			}
		}
		if (i == sizeof tab / sizeof *tab)
			*w++ = *r++;
	}
	*w = 0;
	free(src);
}

int pmk__demangle_rust_v0_available(void)
{
#if PMK_HAVE_IBERTY
	return 1;
#else
	return 0;
#endif
}

#if PMK_HAVE_IBERTY
/* The longest input and output taken. rustc's longest symbols demangle to a
 * few kilobytes; v0 backreferences can nest so that a 200-byte name prints
 * 25 MB (and one of 300 bytes, terabytes), so the printing is cut off. */
#define V0_MAX_IN 65536
#define V0_MAX_OUT 65536

struct v0_sink {
	char *buf;
	size_t len, cap;
	jmp_buf full;
};

static void v0_put(const char *s, size_t n, void *opaque)
{
	struct v0_sink *k = opaque;
	if (!n) /* libiberty may print nothing, with s NULL */
		return;
	if (n > V0_MAX_OUT - k->len)
		longjmp(k->full, 1);
	if (k->len + n + 1 > k->cap) {
		size_t cap = k->cap ? k->cap : 256;
		char *nb;
		while (cap < k->len + n + 1)
			cap *= 2;
		nb = realloc(k->buf, cap);
		if (!nb)
			longjmp(k->full, 1);
		k->buf = nb;
		k->cap = cap;
	}
	memcpy(k->buf + k->len, s, n);
	k->len += n;
	k->buf[k->len] = 0;
}
#endif

/* Rust v0 through libiberty's demangler, which checks the grammar and
 * bounds its own recursion (1024 levels unless DMGL_NO_RECURSE_LIMIT); its
 * output goes to a sink that gives up past V0_MAX_OUT bytes. Leaving the
 * demangler by longjmp is safe: its callback interface allocates nothing
 * (it is the one meant for signal handlers). */
static char *rust_v0(const char *name)
{
#if PMK_HAVE_IBERTY
	/* on the heap: an automatic object changed between setjmp and longjmp
	 * would be indeterminate after the jump */
	struct v0_sink *k;
	char *out = NULL;
	if (strnlen(name, V0_MAX_IN) >= V0_MAX_IN)
		return NULL;
	k = calloc(1, sizeof *k);
	if (!k)
		return NULL;
	if (!setjmp(k->full)) {
		if (rust_demangle_callback(name, DMGL_PARAMS | DMGL_ANSI,
					   v0_put, k) && k->buf) {
			out = k->buf;
			k->buf = NULL;
		}
	}
	free(k->buf);
	free(k);
	return out;
#else
	(void)name;
	return NULL;
#endif
}

char *pmk__demangle(const char *name)
{
	char *out;
	int status = -1;
	if (name && name[0] == '_' && name[1] == 'R')
		return rust_v0(name);
	if (!name || name[0] != '_' || name[1] != 'Z')
		return NULL;
	if (!pmk__demangle_available())
		return NULL;
	out = cxa(name, NULL, NULL, &status);
	if (status != 0 || !out) {
		free(out);
		return NULL;
	}
	if (!strncmp(name, "_ZN", 3))
		rust_legacy(out);
	return out;
}
