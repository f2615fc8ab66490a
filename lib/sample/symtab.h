/*
 * symtab.h: one DSO's symbols and lines, loaded once and indexed (sorted
 * symbol table, load segments). Internal to lib/sample. Built on elfutils
 * (libelf for symbols, libdw for lines) when PMK_HAVE_DW; otherwise every
 * lookup fails and reports show DSO offsets.
 */
#ifndef PMK_SAMPLE_SYMTAB_H
#define PMK_SAMPLE_SYMTAB_H

#include <stddef.h>
#include <stdint.h>

typedef struct pmk__symtab pmk__symtab;

/* Open and index `path`; NULL when it cannot be read as ELF. */
pmk__symtab *pmk__symtab_open(const char *path);
void pmk__symtab_free(pmk__symtab *st);
/* File offset -> link-time virtual address through the PT_LOAD segments
 * (returns `off` itself when no segment holds it). */
uint64_t pmk__symtab_vaddr(const pmk__symtab *st, uint64_t off);
/* The function holding `vaddr`: its name (owned by `st`) and start; NULL
 * when none. */
const char *pmk__symtab_function(const pmk__symtab *st, uint64_t vaddr,
				 uint64_t *start, uint64_t *size);
/* The sized data object (STT_OBJECT) holding `vaddr`: its name and start;
 * NULL when none. */
const char *pmk__symtab_object(const pmk__symtab *st, uint64_t vaddr,
			       uint64_t *start);
/* Link-time extent of the file's image: [lo, hi) over its PT_LOAD segments
 * (memory sizes: .bss included); -1 when it has none. */
int pmk__symtab_image(const pmk__symtab *st, uint64_t *lo, uint64_t *hi);
/* Source file (owned by `st`'s DWARF) and line of `vaddr`; -1 when none. */
int pmk__symtab_line(pmk__symtab *st, uint64_t vaddr, const char **file,
		     int *line);
/* The functions inlined at `vaddr`, innermost first (the one whose code
 * is at `vaddr`, then the inlined function it was inlined into, ...; the
 * symbol's own function is not among them): each one's name (and linkage
 * name, when the DWARF has one: C++) and the source
 * line of the call it replaced (in the next one out, or for the last, in
 * the symbol's own function; file NULL and line 0 when not recorded).
 * Strings are owned by `st`'s DWARF. At most `max`; 0 when none or without
 * debug info. */
struct pmk__inl {
	const char *name, *linkage, *call_file; /* linkage: mangled, or NULL */
	int call_line;
};
int pmk__symtab_inlines(pmk__symtab *st, uint64_t vaddr, struct pmk__inl *out,
			int max);
/* Lowest and highest line of `file` among the line-table rows for
 * [start, start+size); -1 when none. */
int pmk__symtab_line_range(pmk__symtab *st, uint64_t start, uint64_t size,
			   const char *file, int *lo, int *hi);
/* The code bytes at [vaddr, vaddr+size) of the executable section holding
 * `vaddr` (owned by `st`; cut at the section's end), and the file's ELF
 * machine; 0 when no such section. */
size_t pmk__symtab_code(const pmk__symtab *st, uint64_t vaddr, uint64_t size,
			const uint8_t **bytes, int *machine);
/* Build id of the file (0 bytes when none). */
int pmk__symtab_build_id(const pmk__symtab *st, const uint8_t **id);

#endif
