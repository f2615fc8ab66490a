/*
 * demangle.h: C++ and Rust symbol names made readable. Internal to
 * lib/sample.
 */
#ifndef PMK_SAMPLE_DEMANGLE_H
#define PMK_SAMPLE_DEMANGLE_H

/* The readable form of a mangled `name` (malloc'd), or NULL when it is not
 * mangled or no demangler is available. */
char *pmk__demangle(const char *name);
/* Whether a demangler could be loaded (libstdc++'s __cxa_demangle). */
int pmk__demangle_available(void);
/* Whether Rust v0 names ("_R...") are demangled (built with libiberty). */
int pmk__demangle_rust_v0_available(void);

#endif
