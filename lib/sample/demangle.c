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

/* Rust v0: "_R" then an uppercase letter, a digit (encoding version) or '_'
 * is rejected by the grammar itself; leave the checking to libiberty, which
 * bounds its own recursion (1024 levels unless DMGL_NO_RECURSE_LIMIT). */
static char *rust_v0(const char *name)
{
#if PMK_HAVE_IBERTY
	/* the longest symbol rustc emits is far below this; a longer "name"
	 * is not worth a demangler's time and memory */
	if (strnlen(name, 65536) >= 65536)
		return NULL;
	return cplus_demangle(name, DMGL_PARAMS | DMGL_ANSI | DMGL_RUST);
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
