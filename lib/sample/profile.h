/*
 * profile.h: the loaded profile, shared by profile.c (loading, resolving)
 * and report.c (histograms and output). Internal to lib/sample.
 */
#ifndef PMK_SAMPLE_PROFILE_H
#define PMK_SAMPLE_PROFILE_H

#include "pmkit/sample.h"
#include "sample/symtab.h"
#include "sample/unwind.h"
#include "sample/ksym.h"

enum { DSO_KERNEL = 0, DSO_UNKNOWN = 1 };

struct pdso {
	char *path, *base;
	char *unk; /* "[base]": the name of addresses without a symbol */
	uint8_t bid[20];
	uint32_t bidlen;
	uint64_t size, mtime;
	pmk__symtab *st;
	int tried, changed;
	int kind;	/* PDSO_FILE, PDSO_KMOD (symbols from kallsyms), PDSO_JIT */
	pmk__ksyms *jit; /* PDSO_JIT: the perf map's symbols */
};
enum { PDSO_FILE = 0, PDSO_KMOD, PDSO_JIT };

struct pmap {
	uint64_t start, end, pgoff;
	int dso;
	int data; /* not executable (recorded with --data): for data
		     addresses only */
};

struct proc {
	uint32_t pid, ppid;
	int has_parent;
	struct pmap *maps;
	int nmap, cap;
	int jit; /* DSO of /tmp/perf-PID.map; 0 untried, -1 none */
	char comm[32];
};

/* A distinct code location: (DSO, offset in it), resolved lazily. One is
 * kept per distinct address of every call chain, so it is small (72 bytes):
 * the per-event counts of a location that was never the sampled IP are
 * the shared zeros (pmk__zero_counts), and those of a sampled one and of
 * every stack live in the profile's count blocks (a stride of the events
 * the file has, not PMK_REC_MAX_EVENTS), so that a caller costs no counts
 * at all. The arrays are indexed by event, below p->nevents. */
struct loc {
	uint64_t off;
	int dso;
	int line;
	uint64_t *samples; /* as the leaf (sampled IP) */
	uint64_t *period;
	uint64_t vaddr, fstart;
	const char *func; /* owned by the DSO's symtab, or a constant */
	const char *file; /* DWARF's, or NULL */
	uint32_t fsize;	  /* held at UINT32_MAX */
	uint16_t resolved, line_done;
};

/* A distinct call stack of one thread: loc ids, innermost first, and the
 * sampled location (`leaf`); its counts are in the count blocks. */
struct stack {
	uint32_t first, n;
	uint32_t pid, tid, leaf;
	uint64_t *samples;
	uint64_t *period;
};

/* Counts of every event of a location or a stack: `stride` samples, then
 * `stride` periods, in blocks that never move (the pointers above stay
 * valid); made again with a wider stride when a sample names an event
 * beyond it. */
struct cntblk {
	struct cntblk *next;
	size_t used, cap; /* entries */
	uint64_t v[];
};
extern uint64_t pmk__zero_counts[2 * PMK_REC_MAX_EVENTS];

/* A sample's data address (PMK_SAMPLE_HAS_ADDR), kept for the data sort;
 * resolved when a histogram asks (daddr.c). */
struct dsample {
	uint64_t addr, period;
	uint32_t pid, event;
};

struct idx {
	uint32_t *slot; /* index+1, 0 empty */
	uint32_t *hv;	/* low 32 bits of the hash of each slot's entry */
	size_t cap, n;
};

#define PMK__IPCACHE 65536u /* entries at most; it starts at 256 and
				* grows with the locations (a small file
				* needs no 1.5 MB of cache to clear) */
struct ipcache {
	uint64_t ip;
	uint32_t pid, kern, loc; /* loc: index+1, 0 empty */
};

/* A hook that sees each sample while the profile loads (script.c prints
 * them as perf script does): the sample, the addresses of its frames
 * (innermost first: the chain, or the IP alone when `chain` is 0) and
 * their locations. */
typedef void (*pmk__sample_hook)(pmk_profile *p, const pmk_sample *s,
				 const uint64_t *addr, const uint32_t *loc,
				 uint32_t n, int chain, void *ctx);

struct pmk_profile {
	struct ipcache *ipc;
	size_t ipcap; /* entries of ipc, a power of 2 */
	int nevents;
	pmk_rec_event ev[PMK_REC_MAX_EVENTS];
	/* tracepoint events' formats (their FORMAT records), or NULL */
	struct pmk__tpfmt *tpfmt[PMK_REC_MAX_EVENTS];
	pmk_profile_stats st;
	struct pdso *dso;
	int ndso, capdso;
	struct idx dso_idx; /* by path and build id (entries 2 and up) */
	struct proc *proc;
	size_t nproc, capproc;
	struct idx proc_idx;
	struct loc *loc;
	size_t nloc, caploc;
	struct idx loc_idx;
	struct stack *stk;
	size_t nstk, capstk;
	struct idx stk_idx;
	uint32_t *frames;
	size_t nframes, capframes;
	struct cntblk *cnt; /* count blocks, newest first */
	int stride;	    /* events per count entry */
	int has_chains;
	struct dsample *dsamp;
	size_t ndsamp, capdsamp;
	pmk__unwinder *uw; /* for samples with a user stack */
	pmk__ksyms *kallsyms; /* the kernel's symbols, read on first use */
	int ks_tried;
	int mangled; /* keep mangled names */
	struct idx dm_idx; /* mangled name (by pointer) -> readable */
	const char **dm_from;
	char **dm_to;
	size_t ndm, capdm;
	uint64_t skipped, skipped_bytes, first_skip; /* damaged records */
	char jitdir[256];
	pmk__sample_hook hook; /* called for each sample while loading */
	void *hook_ctx;
	uint64_t t_first, t_last, t_any; /* first and last sample times */
	int annotate_asm; /* pmk_profile_annotate shows instructions */
	/* last histogram */
	pmk_profile_row *rows;
	char **keys;
	int nrows;
};

uint64_t pmk__hash64(uint64_t x);
/* FNV-1a over a string, from `h` (PMK__STR_HASH0 to start; a key of two
 * strings hashes the second from the first's value, with a separator
 * byte between them: pmk__str_hash(pmk__str_hash(H0, a) ^ 0xff, b)) */
#define PMK__STR_HASH0 1469598103934665603ull
static inline uint64_t pmk__str_hash(uint64_t h, const char *s)
{
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}
/* a + b, held at UINT64_MAX instead of wrapping: period sums of damaged or
 * crafted files (periods near 2^63) never exceed 100 % of their total */
static inline uint64_t pmk__sat_add(uint64_t a, uint64_t b)
{
	return a + b < a ? UINT64_MAX : a + b;
}
/* Find or insert in an index: `eq(ctx, index)` tells whether an entry
 * matches; returns the existing index, or `*inserted` = 1 and `fresh`. */
int pmk__idx_find(struct idx *ix, uint64_t h, int (*eq)(void *, uint32_t),
		  void *ctx, uint32_t fresh, int *inserted);
void pmk__idx_free(struct idx *ix);
/* Resolve a location's function (and, when `lines`, its source line). */
void pmk__loc_resolve(pmk_profile *p, struct loc *l, int lines);
const char *pmk__dso_name(const pmk_profile *p, int dso);
/* The index of the first event named `event` (NULL: the first event),
 * -1 when none is. */
int pmk__profile_event_index(const pmk_profile *p, const char *event);
/* A recorded process (NULL when none), and a DSO's symbols (NULL when the
 * file cannot be read), opened on first use. */
struct proc *pmk__proc_find(pmk_profile *p, uint32_t pid);
pmk__symtab *pmk__dso_symtab(pmk_profile *p, int dso);
/* The data object holding `addr` in process `pid` (daddr.c): the row key
 * goes to key[size], and the DSO index is returned (DSO_KERNEL,
 * DSO_UNKNOWN, or the file whose image holds the address). */
int pmk__data_key(pmk_profile *p, uint32_t pid, uint64_t addr, char *key,
		  size_t size);
/* The command name of thread `tid` (of process `pid`): the last one its
 * COMM records gave, else its process's, else the recording's command. */
const char *pmk__comm(pmk_profile *p, uint32_t pid, uint32_t tid);
/* Instruction-level annotate of a function found at [fstart, +fsize) of
 * DSO `dso` (annotate_asm.c). */
int pmk__annotate_asm(pmk_profile *p, int dso, const char *function,
		      uint64_t fstart, uint64_t fsize, FILE *out);

/* Whether entry i of a call chain is a return address (its call is at
 * the address before): every entry but the sampled IP (entry 0) and the
 * first user-space entry after kernel ones, which is the interrupted
 * user IP. */
static inline int pmk__chain_ret(const uint64_t *chain, uint32_t i)
{
	return i > 0 && chain[i] != 0 &&
	       !(!(chain[i] >> 63) && (chain[i - 1] >> 63));
}

/* The location of address `a` of process `pid` (`kern`: 1 a kernel
 * sample's IP, 2 a chain entry in the kernel half, 0 user), added when
 * new; -1 when out of memory. Invalidates pointers into p->loc. */
int pmk__loc_at(pmk_profile *p, uint32_t pid, uint64_t a, int kern);

/* Load a profile calling `hook` (when not NULL) for each sample, with
 * names kept mangled when `mangled`. */
int pmk__profile_load_hook(pmk_profile **pp, const char *path, pmk_diag *d,
			   pmk__sample_hook hook, void *ctx, int mangled);
/* perf's name of a DSO: the path, [kernel.kallsyms], [unknown] (`path`
 * 1), or its file name (`path` 0). */
const char *pmk__dso_perf_name(const pmk_profile *p, int dso, int path);
/* perf's name of a DSO as process `pid` maps it: pmk__dso_perf_name's,
 * but code in anonymous memory (a JIT's, whether it wrote
 * /tmp/perf-PID.map or not) is "[JIT] tid PID" (`path` 0) or
 * "/tmp/perf-PID.map" (`path` 1), written in `buf`. */
const char *pmk__dso_perf_name_in(const pmk_profile *p, int dso,
				  uint32_t pid, int path, char *buf,
				  size_t size);
/* Whether resolved location `l` is an address of a user object without a
 * symbol there (named the object's "[base]"), which perf names by address */
int pmk__loc_nosym(const pmk_profile *p, const struct loc *l);
/* Whether a DSO is the kernel's (the kernel or a module). */
int pmk__dso_is_kernel(const pmk_profile *p, int dso);

#endif
