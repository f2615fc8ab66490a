/*
 * config.c: the core's configuration and its file format.
 *
 * A file is lines of `key = value`; `#` starts a comment; blank lines are
 * ignored. Numbers take K, M, G suffixes (powers of 1024). Keys are the
 * names in the table below (docs/sim.md lists them with their meaning);
 * `bp` takes bimodal|gshare|hybrid and `perfect` a comma list of
 * l1i,l2i,itlb,l1d,l2d,dtlb,bp,longlat (or none). A bad line is reported
 * as file:line:column and nothing of the file is applied.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/core/diag.h"
#include "lib/core/infile.h"
#include "pmkit/sim.h"

#define F(x) offsetof(pmk_sim_config, x)
static const struct ckey {
	const char *key;
	size_t off;
} ckeys[] = {
    {"fetch_width", F(fetch_width)},
    {"dispatch_width", F(dispatch_width)},
    {"issue_width", F(issue_width)},
    {"commit_width", F(commit_width)},
    {"rob_size", F(rob_size)},
    {"fe_depth", F(fe_depth)},
    {"lat.other", F(lat[PMK_SIM_OP_OTHER])},
    {"lat.int", F(lat[PMK_SIM_OP_INT])},
    {"lat.imul", F(lat[PMK_SIM_OP_IMUL])},
    {"lat.fadd", F(lat[PMK_SIM_OP_FADD])},
    {"lat.fdiv", F(lat[PMK_SIM_OP_FDIV])},
    {"lat.load", F(lat[PMK_SIM_OP_LOAD])},
    {"lat.store", F(lat[PMK_SIM_OP_STORE])},
    {"lat.branch", F(lat[PMK_SIM_OP_BCOND])},
    {"l1i.size", F(l1i.size_bytes)},
    {"l1i.assoc", F(l1i.assoc)},
    {"l1i.line", F(l1i.line_bytes)},
    {"l1i.latency", F(l1i.latency)},
    {"l1d.size", F(l1d.size_bytes)},
    {"l1d.assoc", F(l1d.assoc)},
    {"l1d.line", F(l1d.line_bytes)},
    {"l1d.latency", F(l1d.latency)},
    {"l2.size", F(l2.size_bytes)},
    {"l2.assoc", F(l2.assoc)},
    {"l2.line", F(l2.line_bytes)},
    {"l2.latency", F(l2.latency)},
    {"l3.size", F(l3.size_bytes)},
    {"l3.assoc", F(l3.assoc)},
    {"l3.line", F(l3.line_bytes)},
    {"l3.latency", F(l3.latency)},
    {"itlb.entries", F(itlb.entries)},
    {"itlb.assoc", F(itlb.assoc)},
    {"itlb.miss_latency", F(itlb.miss_latency)},
    {"dtlb.entries", F(dtlb.entries)},
    {"dtlb.assoc", F(dtlb.assoc)},
    {"dtlb.miss_latency", F(dtlb.miss_latency)},
    {"page_size", F(page_bytes)},
    {"mem_latency", F(mem_latency)},
    {"max_misses", F(max_misses)},
    {"bp", F(bp_kind)},
    {"bp.bits", F(bp_bits)},
    {"bp.history", F(bp_history)},
    {"btb.entries", F(btb_entries)},
    {"btb.assoc", F(btb_assoc)},
    {"ras.depth", F(ras_depth)},
    {"wrong_path_loads", F(wrong_path_loads)},
    {"perfect", F(perfect)},
    {"pmu.counters", F(pmu_counters)},
    {"pmu.skid", F(pmu_skid)},
    {"pmu.skid_jitter", F(pmu_skid_jitter)},
    {"pmu.rotate", F(pmu_rotate)},
    {"pcmap.max", F(pcmap_max)},
    {"freq_mhz", F(freq_mhz)},
};
#undef F

static const char *perfect_names[] = {"l1i", "l2i",  "itlb", "l1d",
				      "l2d", "dtlb", "bp",   "longlat"};
static const char *bp_names[] = {"bimodal", "gshare", "hybrid"};

void pmk_sim_config_default(pmk_sim_config *c)
{
	memset(c, 0, sizeof *c);
	c->fetch_width = c->dispatch_width = c->issue_width = c->commit_width =
	    4;
	c->rob_size = 128;
	c->fe_depth = 5;
	c->lat[PMK_SIM_OP_OTHER] = 1;
	c->lat[PMK_SIM_OP_INT] = 1;
	c->lat[PMK_SIM_OP_IMUL] = 10;
	c->lat[PMK_SIM_OP_FADD] = 4;
	c->lat[PMK_SIM_OP_FDIV] = 20;
	c->lat[PMK_SIM_OP_LOAD] = 1; /* address generation; + cache */
	c->lat[PMK_SIM_OP_STORE] = 1;
	for (int op = PMK_SIM_OP_BCOND; op <= PMK_SIM_OP_RET; op++)
		c->lat[op] = 1;
	c->l1i = (pmk_sim_cache_cfg){8 * 1024, 2, 64, 1};
	c->l1d = (pmk_sim_cache_cfg){16 * 1024, 4, 64, 2};
	c->l2 = (pmk_sim_cache_cfg){1024 * 1024, 8, 64, 10};
	c->l3 = (pmk_sim_cache_cfg){0, 16, 64, 30};
	c->itlb = (pmk_sim_tlb_cfg){64, 4, 30};
	c->dtlb = (pmk_sim_tlb_cfg){64, 4, 30};
	c->page_bytes = 4096;
	c->mem_latency = 250;
	c->max_misses = 8;
	c->bp_kind = PMK_SIM_BP_HYBRID;
	c->bp_bits = 12;
	c->bp_history = 10;
	c->btb_entries = 2048;
	c->btb_assoc = 4;
	c->ras_depth = 16;
	c->wrong_path_loads = 1;
	c->perfect = 0;
	c->pmu_counters = 4;
	c->pmu_skid = 6;
	c->pmu_skid_jitter = 8;
	c->pmu_rotate = 20000;
	c->pcmap_max = 1u << 19;
	c->freq_mhz = 2000;
}

/* The argument order of this file's many calls; see pmk__diag_at. */
static void diag_set(pmk_diag *d, int code, const char *file, int line, int col,
		     const char *input, const char *msg, const char *hint)
{
	pmk__diag_at(d, code, file, line, input, col, 1, hint, "%s", msg);
}

static int parse_u32(const char *s, uint32_t *out)
{
	char *end;
	unsigned long long v, m = 1;
	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno)
		return -1;
	if (*end == 'K' || *end == 'k')
		m = 1024, end++;
	else if (*end == 'M' || *end == 'm')
		m = 1024 * 1024, end++;
	else if (*end == 'G' || *end == 'g')
		m = 1024ull * 1024 * 1024, end++;
	if (*end || v > 0xffffffffull / m)
		return -1;
	*out = (uint32_t)(v * m);
	return 0;
}

int pmk_sim_config_set(pmk_sim_config *c, const char *key, const char *value,
		       pmk_diag *d)
{
	char msg[256];
	for (size_t i = 0; i < sizeof ckeys / sizeof ckeys[0]; i++) {
		uint32_t *f, v = 0;
		if (strcmp(ckeys[i].key, key))
			continue;
		f = (uint32_t *)((char *)c + ckeys[i].off);
		if (!strcmp(key, "bp")) {
			for (v = 0; v < 3; v++)
				if (!strcmp(value, bp_names[v]))
					break;
			if (v == 3) {
				diag_set(d, PMK_EINVAL, NULL, 0, 0, value,
					 "unknown branch predictor",
					 "bimodal, gshare or hybrid");
				return PMK_EINVAL;
			}
		} else if (!strcmp(key, "perfect")) {
			const char *p = value;
			while (*p && strcmp(value, "none")) {
				size_t n = strcspn(p, ","), k;
				for (k = 0; k < 8; k++)
					if (strlen(perfect_names[k]) == n &&
					    !strncmp(p, perfect_names[k], n))
						break;
				if (k == 8) {
					diag_set(
					    d, PMK_EINVAL, NULL, 0,
					    (int)(p - value) + 1, value,
					    "unknown structure to idealize",
					    "l1i l2i itlb l1d l2d dtlb bp "
					    "longlat, comma separated");
					return PMK_EINVAL;
				}
				v |= 1u << k;
				p += n;
				if (*p == ',')
					p++;
			}
		} else if (parse_u32(value, &v)) {
			snprintf(msg, sizeof msg,
				 "'%s' needs a whole number (K, M, G allowed)",
				 key);
			diag_set(d, PMK_EINVAL, NULL, 0, 1, value, msg, NULL);
			return PMK_EINVAL;
		}
		*f = v;
		return 0;
	}
	snprintf(msg, sizeof msg, "unknown configuration key '%s'", key);
	diag_set(d, PMK_ENOENT, NULL, 0, 1, key, msg,
		 "docs/sim.md lists the keys; `pmkit sim config` prints them");
	return PMK_ENOENT;
}

static int pow2(uint32_t x)
{
	return x && !(x & (x - 1));
}

static int check_cache(const pmk_sim_cache_cfg *k, const char *name,
		       int optional, pmk_diag *d)
{
	char msg[200];
	if (optional && !k->size_bytes)
		return 0;
	if (!pow2(k->line_bytes) || k->line_bytes < 8 || !k->assoc ||
	    k->size_bytes < k->line_bytes * k->assoc ||
	    (k->size_bytes / k->line_bytes) % k->assoc ||
	    !pow2(k->size_bytes / k->line_bytes / k->assoc)) {
		snprintf(msg, sizeof msg,
			 "%s: size / (line * assoc) must be a power of two "
			 "and the line a power of two >= 8",
			 name);
		diag_set(d, PMK_EINVAL, NULL, 0, 0, name, msg, NULL);
		return PMK_EINVAL;
	}
	return 0;
}

int pmk_sim_config_check(const pmk_sim_config *c, pmk_diag *d)
{
	int rc;
#define BAD(cond, m)                                                           \
	if (cond) {                                                            \
		diag_set(d, PMK_EINVAL, NULL, 0, 0, "", m, NULL);              \
		return PMK_EINVAL;                                             \
	}
	BAD(!c->fetch_width || c->fetch_width > 16 || !c->dispatch_width ||
		c->dispatch_width > 16 || !c->issue_width ||
		c->issue_width > 16 || !c->commit_width || c->commit_width > 16,
	    "widths must be 1..16");
	BAD(c->rob_size < 4 || c->rob_size > 4096, "rob_size must be 4..4096");
	BAD(!c->fe_depth || c->fe_depth > 64, "fe_depth must be 1..64");
	for (int op = 0; op < PMK_SIM_OP_COUNT; op++)
		BAD(!c->lat[op] || c->lat[op] > 1000,
		    "latencies must be 1..1000");
	BAD(c->mem_latency > 10000, "mem_latency must be at most 10000");
	BAD(!c->max_misses || c->max_misses > 256, "max_misses must be 1..256");
	BAD(c->bp_kind > 2, "bp must be bimodal, gshare or hybrid");
	BAD(c->bp_bits < 2 || c->bp_bits > 24 || c->bp_history > c->bp_bits,
	    "bp.bits must be 2..24 and bp.history at most bp.bits");
	BAD(!pow2(c->page_bytes) || c->page_bytes < 256,
	    "page_size must be a power of two >= 256");
	BAD(!c->itlb.assoc || !c->itlb.entries ||
		c->itlb.entries % c->itlb.assoc ||
		!pow2(c->itlb.entries / c->itlb.assoc) || !c->dtlb.assoc ||
		!c->dtlb.entries || c->dtlb.entries % c->dtlb.assoc ||
		!pow2(c->dtlb.entries / c->dtlb.assoc),
	    "TLB entries / assoc must be a power of two");
	BAD(!c->btb_assoc || !c->btb_entries || c->btb_entries % c->btb_assoc ||
		!pow2(c->btb_entries / c->btb_assoc),
	    "btb.entries / btb.assoc must be a power of two");
	BAD(!c->ras_depth || c->ras_depth > 1024, "ras.depth must be 1..1024");
	BAD(c->pmu_counters > 16, "pmu.counters must be at most 16");
	BAD(c->pmu_skid > 100000 || c->pmu_skid_jitter > 100000,
	    "pmu.skid and pmu.skid_jitter must be at most 100000");
	BAD(c->pmu_rotate && c->pmu_rotate < 100,
	    "pmu.rotate must be at least 100 cycles (0: 20000)");
	BAD(c->pcmap_max < 16 || c->pcmap_max > (1u << 24),
	    "pcmap.max must be 16..16M");
	BAD(!c->freq_mhz, "freq_mhz must be positive");
	BAD(c->perfect >= 256, "perfect: unknown structure");
#undef BAD
	if ((rc = check_cache(&c->l1i, "l1i", 0, d)) ||
	    (rc = check_cache(&c->l1d, "l1d", 0, d)) ||
	    (rc = check_cache(&c->l2, "l2", 0, d)) ||
	    (rc = check_cache(&c->l3, "l3", 1, d)))
		return rc;
	return 0;
}

int pmk_sim_config_parse(pmk_sim_config *out, const char *text, uint64_t len,
			 const char *name, pmk_diag *d)
{
	pmk_sim_config c = *out;
	uint64_t pos = 0;
	int line = 0, rc;
	char buf[512];
	while (pos < len) {
		uint64_t e = pos;
		size_t n, i = 0;
		char *key, *val, *p, *q;
		while (e < len && text[e] != '\n')
			e++;
		n = (size_t)(e - pos);
		line++;
		if (n >= sizeof buf) {
			diag_set(d, PMK_ESYNTAX, name, line, 1, "",
				 "line too long", NULL);
			return PMK_ESYNTAX;
		}
		memcpy(buf, text + pos, n);
		buf[n] = 0;
		pos = e + 1;
		if (memchr(buf, 0, n)) {
			diag_set(d, PMK_ESYNTAX, name, line, 1, "",
				 "NUL byte in configuration", NULL);
			return PMK_ESYNTAX;
		}
		if ((p = strchr(buf, '#')))
			*p = 0;
		while (buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\r')
			i++;
		if (!buf[i])
			continue;
		key = buf + i;
		q = strchr(key, '=');
		if (!q) {
			diag_set(d, PMK_ESYNTAX, name, line, (int)i + 1, buf,
				 "expected 'key = value'", NULL);
			return PMK_ESYNTAX;
		}
		val = q + 1;
		for (p = q; p > key && (p[-1] == ' ' || p[-1] == '\t'); p--)
			;
		*p = 0;
		while (*val == ' ' || *val == '\t')
			val++;
		for (p = val + strlen(val);
		     p > val &&
		     (p[-1] == ' ' || p[-1] == '\t' || p[-1] == '\r');
		     p--)
			;
		*p = 0;
		rc = pmk_sim_config_set(&c, key, val, d);
		if (rc < 0) {
			if (d) {
				char in[512];
				int col = d->column > 0 ? d->column : 1;
				memcpy(in, text + (pos - n - 1), n);
				in[n] = 0;
				d->line = line;
				d->column = rc == PMK_ENOENT
						? (int)(key - buf) + 1
						: (int)(val - buf) + col;
				snprintf(d->file, sizeof d->file, "%s", name);
				snprintf(d->input, sizeof d->input, "%s", in);
			}
			return rc;
		}
	}
	rc = pmk_sim_config_check(&c, d);
	if (rc < 0) {
		if (d)
			snprintf(d->file, sizeof d->file, "%s", name);
		return rc;
	}
	*out = c;
	return 0;
}

int pmk_sim_config_load(pmk_sim_config *c, const char *path, pmk_diag *d)
{
	char *text;
	size_t n;
	/* bounded and typed (lib/core/infile.h): at most 1 MB, a regular
	 * file, no NUL byte */
	int rc = pmk__infile_read(path, 0, (size_t)1 << 20, &text, &n, d);
	if (rc)
		return rc;
	rc = pmk_sim_config_parse(c, text, n, path, d);
	free(text);
	return rc;
}

int pmk_sim_config_format(const pmk_sim_config *c, char *buf,
			  unsigned long size)
{
	unsigned long n = 0;
	for (size_t i = 0; i < sizeof ckeys / sizeof ckeys[0]; i++) {
		uint32_t v =
		    *(const uint32_t *)((const char *)c + ckeys[i].off);
		char val[128] = "";
		if (!strcmp(ckeys[i].key, "bp")) {
			snprintf(val, sizeof val, "%s",
				 v < 3 ? bp_names[v] : "?");
		} else if (!strcmp(ckeys[i].key, "perfect")) {
			size_t m = 0;
			for (int k = 0; k < 8; k++)
				if (v & (1u << k))
					m += (size_t)snprintf(
					    val + m, sizeof val - m, "%s%s",
					    m ? "," : "", perfect_names[k]);
			if (!m)
				snprintf(val, sizeof val, "none");
		} else {
			snprintf(val, sizeof val, "%u", v);
		}
		int k = snprintf(buf + (n < size ? n : size),
				 n < size ? size - n : 0, "%s = %s\n",
				 ckeys[i].key, val);
		n += (unsigned long)k;
	}
	return (int)n;
}
