/*
 * rec_format.h: the byte layout of record files (docs/record-format.md),
 * shared by the writer and the reader. Internal to lib/sample.
 *
 * All integers are little-endian. A file is a header followed by records;
 * each record starts with {u32 kind, u32 size} where size counts the whole
 * record, is a multiple of 8 and at least 8. Unknown kinds are skipped.
 */
#ifndef PMK_REC_FORMAT_H
#define PMK_REC_FORMAT_H

#include <stdint.h>
#include <stddef.h>
#include <string.h>

#define PMK__REC_MAGIC	  "PMKITREC"
#define PMK__REC_HDR_MIN  32u /* fixed part of the file header */
#define PMK__REC_HDR_MAX  4096u
#define PMK__REC_BOM	  0x01020304u
#define PMK__REC_MAX_SIZE (1u << 20) /* largest record accepted */

/* Fixed payload sizes (after the 8-byte record header). */
#define PMK__EVENT_FIXED  32u /* then the name, NUL-terminated */
#define PMK__SAMPLE_FIXED 56u /* then nchain u64 */
/* With PMK_SAMPLE_HAS_USTACK, after the chain: u32 uarch, u32 nuregs,
 * u32 ustack_len, u32 0, nuregs u64, then the stack bytes padded to 8. */
#define PMK__USTACK_FIXED 16u
/* The user registers kept for DWARF unwinding, per ELF e_machine (uarch),
 * as perf_regs masks (the kernel's arch/<arch>/include/uapi/asm/
 * perf_regs.h numbering), kept in that order. */
#define PMK__EM_X86_64	   62u
#define PMK__EM_AARCH64	   183u
#define PMK__UREGS_X86_64  (0x1ffull | 0xffull << 16) /* ax..ip, r8..r15 */
#define PMK__UREGS_AARCH64 ((1ull << 33) - 1)	      /* x0..x30, sp, pc */
#define PMK__MAP_FIXED	  96u /* then the path, NUL-terminated */
#define PMK__COMM_FIXED	  56u
#define PMK__TASK_FIXED	  24u
#define PMK__LOST_FIXED	  16u
#define PMK__FINISH_FIXED 32u
#define PMK__FORMAT_FIXED 8u /* then the text, NUL-terminated */
/* With PMK_SAMPLE_HAS_RAW, after the chain (and the user stack): u32 size,
 * u32 0, then the raw bytes padded to 8. */
#define PMK__RAW_FIXED 8u

static inline void pmk__put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}
static inline void pmk__put64(uint8_t *p, uint64_t v)
{
	pmk__put32(p, (uint32_t)v);
	pmk__put32(p + 4, (uint32_t)(v >> 32));
}
static inline uint32_t pmk__get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}
static inline uint64_t pmk__get64(const uint8_t *p)
{
	return (uint64_t)pmk__get32(p) | (uint64_t)pmk__get32(p + 4) << 32;
}

struct pmk_rec_reader;
/* The bytes a reader reads (its mapping of the file). */
void pmk__rec_reader_data(const struct pmk_rec_reader *r, const void **buf,
			  size_t *len);

/* Skip records of `kind` without decoding them (their size is still
 * checked). */
void pmk__rec_reader_skip(struct pmk_rec_reader *r, uint32_t kind);

/* Skip damaged records (counted, the first one's offset and reason kept)
 * and resynchronize at the next plausible record, instead of failing. */
void pmk__rec_reader_tolerant(struct pmk_rec_reader *r);
/* Damaged records skipped so far, their bytes, the first one's offset and
 * what was wrong with it. */
uint64_t pmk__rec_reader_damage(const struct pmk_rec_reader *r,
				uint64_t *bytes, uint64_t *first,
				const char **why);

#endif
