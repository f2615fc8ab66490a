/*
 * report.c: histograms of a loaded profile (by function, line, address,
 * DSO or data object), and their output as a table, JSON, folded stacks or an
 * annotated function. Rows are built from the distinct locations, so the cost
 * grows with the number of distinct addresses, not with the number of samples.
 */
#include <stdlib.h>
#include <string.h>

#include "sample/profile.h"
#include "lib/core/textout.h"

static const char *sort_names[] = {"function", "line", "address", "dso",
				   "data"};
#define NSORT ((int)(sizeof sort_names / sizeof *sort_names))

const char *pmk_sort_name(pmk_sort s)
{
	return (unsigned)s < NSORT ? sort_names[s] : "?";
}

int pmk_sort_parse(const char *s, pmk_sort *out)
{
	for (int i = 0; i < NSORT; i++)
		if (!strcmp(s, sort_names[i])) {
			*out = (pmk_sort)i;
			return 0;
		}
	if (!strcmp(s, "symbol") || !strcmp(s, "sym")) {
		*out = PMK_SORT_FUNCTION;
		return 0;
	}
	if (!strcmp(s, "srcline")) {
		*out = PMK_SORT_LINE;
		return 0;
	}
	if (!strcmp(s, "daddr") || !strcmp(s, "symbol_daddr")) {
		*out = PMK_SORT_DATA;
		return 0;
	}
	return PMK_EINVAL;
}

int pmk_profile_can_symbolize(void)
{
#if PMK_HAVE_DW
	return 1;
#else
	return 0;
#endif
}

static const char *base_name(const char *path)
{
	const char *b = strrchr(path, '/');
	return b && b[1] ? b + 1 : path;
}

struct row_ctx {
	pmk_profile *p;
	const char *key, *dso;
};
static int row_eq(void *c, uint32_t i)
{
	struct row_ctx *x = c;
	return !strcmp(x->p->rows[i].key, x->key) &&
	       !strcmp(x->p->rows[i].dso, x->dso);
}

static uint64_t str_hash(const char *a, const char *b)
{
	return pmk__str_hash(pmk__str_hash(PMK__STR_HASH0, a) ^ 0xff, b);
}

static pmk_profile *sort_p;
static int row_cmp(const void *a, const void *b)
{
	const pmk_profile_row *x = a, *y = b;
	for (int e = 0; e < sort_p->nevents; e++) {
		if (x->period[e] != y->period[e])
			return x->period[e] > y->period[e] ? -1 : 1;
		if (x->samples[e] != y->samples[e])
			return x->samples[e] > y->samples[e] ? -1 : 1;
	}
	{
		int c = strcmp(x->key, y->key);
		return c ? c : strcmp(x->dso, y->dso);
	}
}

static void rows_clear(pmk_profile *p)
{
	for (int i = 0; i < p->nrows; i++)
		free(p->keys[i]);
	free(p->keys);
	free(p->rows);
	p->keys = NULL;
	p->rows = NULL;
	p->nrows = 0;
}

/* The row of (key, dso), added when new; -1 when out of memory. */
static int row_at(pmk_profile *p, struct idx *ix, size_t *cap, const char *key,
		  const char *dso, const char *fn)
{
	struct row_ctx c = {p, key, dso};
	int ins, r;
	if (p->nrows >= (int)*cap) {
		size_t nc = *cap ? *cap * 2 : 256;
		void *nr = realloc(p->rows, nc * sizeof *p->rows);
		void *nk;
		if (!nr)
			return -1;
		p->rows = nr;
		nk = realloc(p->keys, nc * sizeof *p->keys);
		if (!nk)
			return -1;
		p->keys = nk;
		*cap = nc;
	}
	r = pmk__idx_find(ix, str_hash(key, dso), row_eq, &c,
			  (uint32_t)p->nrows, &ins);
	if (r < 0)
		return -1;
	if (ins) {
		pmk_profile_row *row = &p->rows[r];
		memset(row, 0, sizeof *row);
		p->keys[r] = strdup(key);
		if (!p->keys[r])
			return -1;
		row->key = p->keys[r];
		row->dso = dso;
		row->function = fn ? fn : row->key;
		p->nrows++;
	}
	return r;
}

/* Rows by data object, from the samples that carry a data address. */
static int data_rows(pmk_profile *p, struct idx *ix, size_t *cap)
{
	for (size_t i = 0; i < p->ndsamp; i++) {
		const struct dsample *s = &p->dsamp[i];
		char key[512];
		int dso = pmk__data_key(p, s->pid, s->addr, key, sizeof key);
		int r = row_at(p, ix, cap, key, pmk__dso_name(p, dso), NULL);
		if (r < 0)
			return -1;
		p->rows[r].samples[s->event]++;
		p->rows[r].period[s->event] =
		    pmk__sat_add(p->rows[r].period[s->event], s->period);
	}
	return 0;
}

int pmk_profile_histogram(pmk_profile *p, pmk_sort sort,
			  const pmk_profile_row **rows, int *nrows)
{
	struct idx ix;
	size_t cap = 0;
	memset(&ix, 0, sizeof ix);
	rows_clear(p);
	if ((unsigned)sort >= NSORT)
		return PMK_EINVAL;
	if (sort == PMK_SORT_DATA && data_rows(p, &ix, &cap) < 0)
		goto oom;
	for (size_t i = 0; sort != PMK_SORT_DATA && i < p->nloc; i++) {
		struct loc *l = &p->loc[i];
		char key[512];
		const char *dso = pmk__dso_name(p, l->dso), *fn;
		int any = 0, r;
		for (int e = 0; e < p->nevents; e++)
			any |= l->samples[e] != 0;
		if (!any)
			continue;
		pmk__loc_resolve(p, l, sort == PMK_SORT_LINE);
		fn = l->func;
		switch (sort) {
		case PMK_SORT_FUNCTION:
		case PMK_SORT_DATA:
			snprintf(key, sizeof key, "%s", fn);
			break;
		case PMK_SORT_LINE:
			if (l->file)
				snprintf(key, sizeof key, "%s:%d",
					 base_name(l->file), l->line);
			else
				snprintf(key, sizeof key, "%s (no line info)",
					 fn);
			break;
		case PMK_SORT_ADDRESS:
			snprintf(key, sizeof key, "0x%llx",
				 (unsigned long long)l->vaddr);
			break;
		case PMK_SORT_DSO:
			snprintf(key, sizeof key, "%s", dso);
			break;
		}
		r = row_at(p, &ix, &cap, key, dso, fn);
		if (r < 0)
			goto oom;
		for (int e = 0; e < p->nevents; e++) {
			p->rows[r].samples[e] += l->samples[e];
			p->rows[r].period[e] =
			    pmk__sat_add(p->rows[r].period[e], l->period[e]);
		}
	}
	pmk__idx_free(&ix);
	for (int r = 0; r < p->nrows; r++)
		for (int e = 0; e < p->nevents; e++)
			p->rows[r].percent[e] =
			    p->st.period[e]
				? 100.0 * (double)p->rows[r].period[e] /
				      (double)p->st.period[e]
				: 0.0;
	sort_p = p;
	if (p->nrows > 1)
		qsort(p->rows, (size_t)p->nrows, sizeof *p->rows, row_cmp);
	/* keys[] no longer lines up with rows[] after sorting; it is only
	 * used for freeing, which does not care. */
	*rows = p->rows;
	*nrows = p->nrows;
	return 0;
oom:
	pmk__idx_free(&ix);
	rows_clear(p);
	return PMK_ENOMEM;
}

int pmk_profile_print(pmk_profile *p, pmk_sort sort, int json, FILE *out)
{
	const pmk_profile_row *rows;
	int n, rc = pmk_profile_histogram(p, sort, &rows, &n);
	if (rc)
		return rc;
	if (json) {
		fprintf(out, "{\"version\": 1, \"sort\": \"%s\", \"events\": [",
			pmk_sort_name(sort));
		for (int e = 0; e < p->nevents; e++) {
			fprintf(out, "%s{\"name\": ", e ? ", " : "");
			pmk__json_str(out, pmk_profile_event_name(p, e));
			fprintf(out, ", \"samples\": %llu, \"period\": %llu}",
				(unsigned long long)p->st.samples[e],
				(unsigned long long)p->st.period[e]);
		}
		fprintf(out, "], \"lost\": %llu, \"truncated_bytes\": %llu",
			(unsigned long long)p->st.lost,
			(unsigned long long)p->st.truncated_bytes);
		if (p->st.has_finish)
			fprintf(out, ", \"status\": %d, \"duration_ns\": %llu",
				p->st.finish.status,
				(unsigned long long)p->st.finish.duration_ns);
		if (p->st.command[0]) {
			fprintf(out, ", \"command\": ");
			pmk__json_str(out, p->st.command);
		}
		fprintf(out, ", \"rows\": [");
		for (int r = 0; r < n; r++) {
			fprintf(out, "%s\n  {\"key\": ", r ? "," : "");
			pmk__json_str(out, rows[r].key);
			fprintf(out, ", \"function\": ");
			pmk__json_str(out, rows[r].function);
			fprintf(out, ", \"dso\": ");
			pmk__json_str(out, rows[r].dso);
			fprintf(out, ", \"samples\": [");
			for (int e = 0; e < p->nevents; e++)
				fprintf(out, "%s%llu", e ? ", " : "",
					(unsigned long long)rows[r].samples[e]);
			fprintf(out, "], \"percent\": [");
			for (int e = 0; e < p->nevents; e++)
				fprintf(out, "%s%.4f", e ? ", " : "",
					rows[r].percent[e]);
			fprintf(out, "]}");
		}
		fprintf(out, "\n]}\n");
		return ferror(out) ? PMK_EIO : 0;
	}
	if (p->st.command[0] || p->st.has_finish) {
		fprintf(out, "# command: %s",
			p->st.command[0] ? p->st.command : "?");
		if (p->st.has_finish)
			fprintf(out, ", exit status %d, %.3f s recorded",
				p->st.finish.status,
				(double)p->st.finish.duration_ns / 1e9);
		else if (p->st.perf_data)
			fprintf(out, " (read from perf.data)");
		else
			fprintf(out, " (recording cut short)");
		fputc('\n', out);
	}
	for (int e = 0; e < p->nevents; e++)
		fprintf(out, "# %s: %llu samples\n",
			pmk_profile_event_name(p, e),
			(unsigned long long)p->st.samples[e]);
	if (sort == PMK_SORT_DATA)
		fprintf(out,
			"# %llu samples with a data address (objects by "
			"symbol, else by data mapping, else by 4 KiB "
			"page)\n",
			(unsigned long long)p->ndsamp);
	if (p->st.lost)
		fprintf(out, "# lost records: %llu\n",
			(unsigned long long)p->st.lost);
	fprintf(out, "#\n#");
	for (int e = 0; e < p->nevents; e++) {
		const char *nm = pmk_profile_event_name(p, e);
		fprintf(out, " %10.10s", p->nevents > 1 ? nm : "overhead");
	}
	fprintf(out, " %9s  %-*s %s\n", "samples",
		sort == PMK_SORT_DSO ? 0 : 32,
		sort == PMK_SORT_DSO	   ? ""
		: sort == PMK_SORT_LINE	   ? "line"
		: sort == PMK_SORT_ADDRESS ? "address"
		: sort == PMK_SORT_DATA	   ? "data object"
					   : "function",
		sort == PMK_SORT_DSO ? "dso" : "dso");
	for (int r = 0; r < n; r++) {
		uint64_t tot = 0;
		fputc(' ', out);
		for (int e = 0; e < p->nevents; e++) {
			fprintf(out, " %9.2f%%", rows[r].percent[e]);
			tot += rows[r].samples[e];
		}
		fprintf(out, " %9llu  ", (unsigned long long)tot);
		if (sort != PMK_SORT_DSO)
			fprintf(out, "%-32s ", rows[r].key);
		if (sort == PMK_SORT_ADDRESS || sort == PMK_SORT_LINE)
			fprintf(out, "%s  (%s)\n", rows[r].dso,
				rows[r].function);
		else
			fprintf(out, "%s\n", rows[r].dso);
	}
	return ferror(out) ? PMK_EIO : 0;
}

/* ---- folded stacks ---- */

struct fold {
	char *s;
	uint64_t n;
};
static int fold_cmp(const void *a, const void *b)
{
	return strcmp(((const struct fold *)a)->s, ((const struct fold *)b)->s);
}

int pmk_profile_print_folded(pmk_profile *p, const char *event, FILE *out)
{
	int ev = 0;
	struct fold *f;
	size_t nf = 0;
	if (event) {
		ev = -1;
		for (int e = 0; e < p->nevents; e++)
			if (!strcmp(pmk_profile_event_name(p, e), event))
				ev = e;
		if (ev < 0)
			return PMK_ENOEVENT;
	}
	f = calloc(p->nstk ? p->nstk : 1, sizeof *f);
	if (!f)
		return PMK_ENOMEM;
	for (size_t i = 0; i < p->nstk; i++) {
		const struct stack *s = &p->stk[i];
		size_t cap = 256, len = 0;
		char *buf;
		const char *prev = NULL;
		if (!s->samples[ev])
			continue;
		buf = malloc(cap);
		if (!buf)
			break;
		buf[0] = 0;
		for (uint32_t k = s->n; k-- > 0;) {
			struct loc *l = &p->loc[p->frames[s->first + k]];
			const char *name;
			size_t nl;
			pmk__loc_resolve(p, l, 0);
			name = l->func;
			if (prev && !strcmp(prev, "[kernel]") &&
			    !strcmp(name, "[kernel]"))
				continue;
			nl = strlen(name);
			if (len + nl + 2 > cap) {
				char *nb;
				while (len + nl + 2 > cap)
					cap *= 2;
				nb = realloc(buf, cap);
				if (!nb)
					break;
				buf = nb;
			}
			if (len)
				buf[len++] = ';';
			for (size_t c = 0; c < nl; c++) /* ; and space */
				buf[len++] = name[c] == ';' || name[c] == ' '
						 ? '_'
						 : name[c];
			buf[len] = 0;
			prev = name;
		}
		f[nf].s = buf;
		f[nf].n = s->samples[ev];
		nf++;
	}
	if (nf > 1)
		qsort(f, nf, sizeof *f, fold_cmp);
	for (size_t i = 0; i < nf;) {
		size_t j = i + 1;
		uint64_t n = f[i].n;
		while (j < nf && !strcmp(f[j].s, f[i].s))
			n += f[j++].n;
		fprintf(out, "%s %llu\n", f[i].s, (unsigned long long)n);
		i = j;
	}
	for (size_t i = 0; i < nf; i++)
		free(f[i].s);
	free(f);
	return ferror(out) ? PMK_EIO : 0;
}

/* ---- annotate ---- */

int pmk_profile_annotate_asm(pmk_profile *p, const char *function, FILE *out,
			     pmk_diag *d)
{
	int rc;
	p->annotate_asm = 1;
	rc = pmk_profile_annotate(p, function, out, d);
	p->annotate_asm = 0;
	return rc;
}

/* A function named by its full name, or a C++ one by its name without the
 * parameter list, qualified or not ("ns::f" or "f" for "ns::f(int)"). */
static int fn_match(const char *func, const char *want)
{
	size_t n = strlen(want);
	const char *paren;
	if (!strcmp(func, want))
		return 1;
	paren = strchr(func, '(');
	if (!paren || (size_t)(paren - func) < n ||
	    strncmp(paren - n, want, n))
		return 0;
	return paren - n == func ||
	       (paren - n >= func + 2 && paren[-(long)n - 1] == ':' &&
		paren[-(long)n - 2] == ':');
}

int pmk_profile_annotate(pmk_profile *p, const char *function, FILE *out,
			 pmk_diag *d)
{
	uint64_t total = 0, *per_line = NULL;
	int dso = -1, lo = 0, hi = 0, have_range = 0;
	const char *file = NULL;
	uint64_t fstart = 0, fsize = 0, dso_best = 0;
	/* the DSO where the function has the most samples */
	{
		uint64_t *per_dso = calloc((size_t)p->ndso, sizeof *per_dso);
		if (!per_dso)
			return PMK_ENOMEM;
		for (size_t i = 0; i < p->nloc; i++) {
			struct loc *l = &p->loc[i];
			uint64_t n = 0;
			for (int e = 0; e < p->nevents; e++)
				n += l->samples[e];
			if (!n)
				continue;
			pmk__loc_resolve(p, l, 0);
			if (fn_match(l->func, function) && l->dso < p->ndso)
				per_dso[l->dso] += n;
		}
		for (int i = 0; i < p->ndso; i++)
			if (per_dso[i] > dso_best) {
				dso_best = per_dso[i];
				dso = i;
			}
		free(per_dso);
	}
	if (dso < 0) {
		pmk_diag_clear(d);
		if (d) {
			d->code = PMK_ENOENT;
			snprintf(d->message, sizeof d->message,
				 "no samples in a function named '%s'",
				 function);
			snprintf(d->hint, sizeof d->hint,
				 "'pmkit report' lists the sampled functions");
		}
		return PMK_ENOENT;
	}
	/* the file most samples of the function point at */
	for (size_t i = 0; i < p->nloc; i++) {
		struct loc *l = &p->loc[i];
		if (!l->resolved || l->dso != dso || !fn_match(l->func, function))
			continue;
		pmk__loc_resolve(p, l, 1);
		for (int e = 0; e < p->nevents; e++)
			total += l->samples[e];
		fstart = l->fstart;
		fsize = l->fsize;
		if (l->file && !file)
			file = l->file;
	}
	if (p->annotate_asm) {
		int rc = dso >= 2 ? pmk__annotate_asm(p, dso, function, fstart,
						      fsize, out)
				  : PMK_ENOTSUP;
		if (rc == PMK_ENOTSUP || rc == PMK_ENOENT) {
			pmk_diag_clear(d);
			if (d) {
				d->code = rc;
				snprintf(d->message, sizeof d->message,
					 "no instructions for '%s': %s",
					 function,
					 rc == PMK_ENOTSUP
					     ? "built without capstone, or "
					       "not an x86-64 or arm64 file"
					     : "its code cannot be read from "
					       "its file");
			}
		}
		return rc;
	}
	if (file && dso >= 2 && p->dso[dso].st &&
	    pmk__symtab_line_range(p->dso[dso].st, fstart, fsize, file, &lo,
				   &hi) == 0)
		have_range = 1;
	fprintf(out, "# %s (%s): %llu samples\n", function,
		pmk__dso_name(p, dso), (unsigned long long)total);
	if (!file) {
		fprintf(out, "# no line information: addresses\n");
		for (size_t i = 0; i < p->nloc; i++) {
			struct loc *l = &p->loc[i];
			uint64_t n = 0;
			if (!l->resolved || l->dso != dso ||
			    !fn_match(l->func, function))
				continue;
			for (int e = 0; e < p->nevents; e++)
				n += l->samples[e];
			fprintf(out, " %7.2f%% %8llu  0x%llx\n",
				total ? 100.0 * (double)n / (double)total : 0,
				(unsigned long long)n,
				(unsigned long long)l->vaddr);
		}
		return 0;
	}
	if (!have_range) {
		lo = hi = 0;
	}
	/* widen to every sampled line of this file */
	for (size_t i = 0; i < p->nloc; i++) {
		struct loc *l = &p->loc[i];
		if (!l->resolved || l->dso != dso ||
		    !fn_match(l->func, function) || !l->file ||
		    strcmp(l->file, file) || l->line <= 0)
			continue;
		if (!lo || l->line < lo)
			lo = l->line;
		if (l->line > hi)
			hi = l->line;
	}
	if (lo <= 0 || hi < lo || hi - lo > 100000)
		return 0;
	per_line = calloc((size_t)(hi - lo + 1), sizeof *per_line);
	if (!per_line)
		return PMK_ENOMEM;
	for (size_t i = 0; i < p->nloc; i++) {
		struct loc *l = &p->loc[i];
		if (!l->resolved || l->dso != dso ||
		    !fn_match(l->func, function) || !l->file ||
		    strcmp(l->file, file) || l->line < lo || l->line > hi)
			continue;
		for (int e = 0; e < p->nevents; e++)
			per_line[l->line - lo] += l->samples[e];
	}
	fprintf(out, "# source: %s\n", file);
	{
		FILE *src = fopen(file, "r");
		char text[1024];
		int ln = 0;
		for (int k = lo; k <= hi; k++) {
			const char *t = "";
			if (src) {
				while (ln < k &&
				       fgets(text, sizeof text, src)) {
					ln++;
					text[strcspn(text, "\n")] = 0;
				}
				if (ln == k)
					t = text;
			}
			if (per_line[k - lo])
				fprintf(
				    out, " %7.2f%% %8llu %6d  %s\n",
				    total ? 100.0 * (double)per_line[k - lo] /
						(double)total
					  : 0,
				    (unsigned long long)per_line[k - lo], k, t);
			else
				fprintf(out, " %7s  %8s %6d  %s\n", "", "", k,
					t);
		}
		if (src)
			fclose(src);
	}
	free(per_line);
	return ferror(out) ? PMK_EIO : 0;
}
