/*
 * export.c: a profile for other tools and for comparison. speedscope's
 * JSON file format (https://www.speedscope.app/file-format-schema.json):
 * one "sampled" profile per event, the distinct stacks (outermost first)
 * weighted by their samples, frames shared by name and file. And the
 * per-function difference of two profiles: each function's share of its
 * profile's period in the base and in the new one, and the change.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/core/textout.h"
#include "sample/profile.h"

struct fr_ctx {
	const char **names;
	const char *name;
};
static int fr_eq(void *c, uint32_t i)
{
	struct fr_ctx *x = c;
	return !strcmp(x->names[i], x->name);
}
static uint64_t shash(const char *s)
{
	return pmk__str_hash(PMK__STR_HASH0, s);
}

int pmk_profile_speedscope(pmk_profile *p, const char *name, FILE *out)
{
	struct idx ix;
	const char **names;
	int *dso;
	uint32_t *fid;
	size_t nn = 0;
	memset(&ix, 0, sizeof ix);
	names = malloc((p->nloc ? p->nloc : 1) * sizeof *names);
	dso = malloc((p->nloc ? p->nloc : 1) * sizeof *dso);
	fid = malloc((p->nloc ? p->nloc : 1) * sizeof *fid);
	if (!names || !dso || !fid) {
		free(names);
		free(dso);
		free(fid);
		return PMK_ENOMEM;
	}
	/* a frame per distinct function name */
	for (size_t i = 0; i < p->nloc; i++) {
		struct loc *l = &p->loc[i];
		struct fr_ctx c = {names, NULL};
		int ins, k;
		pmk__loc_resolve(p, l, 0);
		c.name = l->func;
		k = pmk__idx_find(&ix, shash(l->func), fr_eq, &c, (uint32_t)nn,
				  &ins);
		if (k < 0) {
			nn = 0;
			break;
		}
		if (ins) {
			names[nn] = l->func;
			dso[nn] = l->dso;
			nn++;
		}
		fid[i] = (uint32_t)k;
	}
	pmk__idx_free(&ix);
	fprintf(out, "{\"$schema\": "
		     "\"https://www.speedscope.app/file-format-schema.json\", "
		     "\"exporter\": \"pmkit\", \"name\": ");
	pmk__json_str(out, name ? name : "pmkit profile");
	fprintf(out, ", \"activeProfileIndex\": 0,\n\"shared\": {\"frames\": [");
	for (size_t k = 0; k < nn; k++) {
		fprintf(out, "%s\n {\"name\": ", k ? "," : "");
		pmk__json_str(out, names[k]);
		fprintf(out, ", \"file\": ");
		pmk__json_str(out, pmk__dso_name(p, dso[k]));
		fputc('}', out);
	}
	fprintf(out, "]},\n\"profiles\": [");
	for (int e = 0; e < p->nevents; e++) {
		int first = 1;
		fprintf(out, "%s\n {\"type\": \"sampled\", \"name\": ",
			e ? "," : "");
		pmk__json_str(out, pmk_profile_event_name(p, e));
		fprintf(out, ", \"unit\": \"none\", \"startValue\": 0, "
			     "\"endValue\": %llu, \"samples\": [",
			(unsigned long long)p->st.samples[e]);
		for (size_t i = 0; i < p->nstk; i++) {
			const struct stack *s = &p->stk[i];
			if (!s->samples[e])
				continue;
			fprintf(out, "%s[", first ? "" : ", ");
			for (uint32_t k = s->n; k-- > 0;)
				fprintf(out, "%u%s", fid[p->frames[s->first + k]],
					k ? ", " : "");
			fputc(']', out);
			first = 0;
		}
		fprintf(out, "], \"weights\": [");
		first = 1;
		for (size_t i = 0; i < p->nstk; i++) {
			if (!p->stk[i].samples[e])
				continue;
			fprintf(out, "%s%llu", first ? "" : ", ",
				(unsigned long long)p->stk[i].samples[e]);
			first = 0;
		}
		fprintf(out, "]}");
	}
	fprintf(out, "\n]}\n");
	free(names);
	free(dso);
	free(fid);
	return ferror(out) ? PMK_EIO : 0;
}

/* ---- diff ---- */

struct drow {
	char *key;
	double base, now; /* percent */
	uint64_t bs, ns;  /* samples */
};
struct d_ctx {
	struct drow *v;
	const char *key;
};
static int d_eq(void *c, uint32_t i)
{
	struct d_ctx *x = c;
	return !strcmp(x->v[i].key, x->key);
}
static int dcmp(const void *a, const void *b)
{
	const struct drow *x = a, *y = b;
	double dx = fabs(x->now - x->base), dy = fabs(y->now - y->base);
	if (dx != dy)
		return dx > dy ? -1 : 1;
	return strcmp(x->key, y->key);
}

int pmk_profile_diff(pmk_profile *base, pmk_profile *p, const char *event,
		     int json, FILE *out)
{
	struct idx ix;
	struct drow *v = NULL;
	size_t n = 0, cap = 0;
	int eb = pmk__profile_event_index(base, event),
	    ep = pmk__profile_event_index(p, event), rc = 0;
	if (eb < 0 || ep < 0)
		return PMK_ENOEVENT;
	memset(&ix, 0, sizeof ix);
	for (int side = 0; side < 2 && !rc; side++) {
		pmk_profile *q = side ? p : base;
		int e = side ? ep : eb;
		const pmk_profile_row *rows;
		int nr;
		rc = pmk_profile_histogram(q, PMK_SORT_FUNCTION, &rows, &nr);
		for (int r = 0; !rc && r < nr; r++) {
			char key[768];
			struct d_ctx c = {NULL, key};
			int ins, k;
			snprintf(key, sizeof key, "%s\t%s", rows[r].key,
				 rows[r].dso);
			if (n == cap) {
				size_t nc = cap ? cap * 2 : 256;
				struct drow *nv = realloc(v, nc * sizeof *nv);
				if (!nv) {
					rc = PMK_ENOMEM;
					break;
				}
				v = nv;
				cap = nc;
			}
			c.v = v;
			k = pmk__idx_find(&ix, shash(key), d_eq, &c,
					  (uint32_t)n, &ins);
			if (k < 0) {
				rc = PMK_ENOMEM;
				break;
			}
			if (ins) {
				memset(&v[k], 0, sizeof v[k]);
				v[k].key = strdup(key);
				if (!v[k].key) {
					rc = PMK_ENOMEM;
					break;
				}
				n++;
			}
			if (side) {
				v[k].now = rows[r].percent[e];
				v[k].ns = rows[r].samples[e];
			} else {
				v[k].base = rows[r].percent[e];
				v[k].bs = rows[r].samples[e];
			}
		}
	}
	pmk__idx_free(&ix);
	if (!rc) {
		if (n > 1)
			qsort(v, n, sizeof *v, dcmp);
		if (json) {
			fprintf(out, "{\"event\": ");
			pmk__json_str(out, pmk_profile_event_name(p, ep));
			fprintf(out, ", \"base_samples\": %llu, "
				     "\"samples\": %llu, \"rows\": [",
				(unsigned long long)base->st.samples[eb],
				(unsigned long long)p->st.samples[ep]);
		} else {
			fprintf(out,
				"# event: %s; base: %llu samples, new: %llu "
				"samples\n#\n#      Base        New     "
				"Change  Symbol  dso\n",
				pmk_profile_event_name(p, ep),
				(unsigned long long)base->st.samples[eb],
				(unsigned long long)p->st.samples[ep]);
		}
		for (size_t i = 0; i < n; i++) {
			char *tab = strchr(v[i].key, '\t');
			*tab = 0;
			if (json) {
				fprintf(out, "%s\n {\"function\": ",
					i ? "," : "");
				pmk__json_str(out, v[i].key);
				fprintf(out, ", \"dso\": ");
				pmk__json_str(out, tab + 1);
				fprintf(out,
					", \"base_percent\": %.4f, "
					"\"percent\": %.4f, \"base_samples\": "
					"%llu, \"samples\": %llu}",
					v[i].base, v[i].now,
					(unsigned long long)v[i].bs,
					(unsigned long long)v[i].ns);
			} else {
				fprintf(out, "  %8.2f%%  %8.2f%%  %+8.2f  %s  %s\n",
					v[i].base, v[i].now,
					v[i].now - v[i].base, v[i].key,
					tab + 1);
			}
		}
		if (json)
			fprintf(out, "\n]}\n");
	}
	for (size_t i = 0; i < n; i++)
		free(v[i].key);
	free(v);
	return rc ? rc : ferror(out) ? PMK_EIO : 0;
}
