/*
 * measure.c: recorded measurements for `pmkit metric eval`.
 *
 * Three inputs, told apart by their first non-blank character and lines:
 *  - JSON (starts with '{' or '['): every object holding an event name
 *    ("event" or "name") and a value ("value", "counter-value" or "count";
 *    a number, or a string such as "<not counted>") gives one measurement;
 *    objects may be nested anywhere, and several top-level values may
 *    follow each other (one JSON object per line).
 *  - CSV (lines with the separator ',' ';' or a tab): with a header line
 *    naming an "event"/"name" column and a "value"/"count" column, those
 *    columns; without one, perf's -x layout: the first numeric field is the
 *    value and every other non-empty, non-numeric field names it (the unit
 *    field too, which is harmless: nobody defines an event named "ns").
 *  - plain text: `name value` per line.
 * '#' lines are comments. A value written `<not counted>`, `<not
 * supported>` or empty is recorded as missing (NaN). When a name appears
 * more than once, the last value counts.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <strings.h>

#include "lib/core/diag.h"
#include "lib/derive/defs.h"

struct pmk_measure {
	char **name;
	double *value, *err;
	int n, cap;
	/* names by hash (open addressing, linear probing): index + 1, 0 for
	 * an empty slot; nslot a power of two, at least twice n */
	int *slot;
	size_t nslot;
};

static size_t name_hash(const char *s, size_t len)
{
	uint64_t h = 1469598103934665603u; /* FNV-1a */
	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211u;
	return (size_t)h;
}

/* The index of `name` (len bytes), or -1; *at gets its slot or the empty
 * slot where it would go. */
static int find(const pmk_measure *m, const char *name, size_t len,
		size_t *at)
{
	size_t mask = m->nslot - 1, i;
	if (!m->nslot)
		return -1;
	for (i = name_hash(name, len) & mask; m->slot[i]; i = (i + 1) & mask) {
		const char *n = m->name[m->slot[i] - 1];
		if (strlen(n) == len && !memcmp(n, name, len))
			break;
	}
	if (at)
		*at = i;
	return m->slot[i] ? m->slot[i] - 1 : -1;
}

/* Room for one more name in the table. */
static int grow_index(pmk_measure *m)
{
	size_t ns, at;
	int *old = m->slot;
	if (m->nslot && (size_t)(m->n + 1) * 2 <= m->nslot)
		return 0;
	ns = m->nslot ? m->nslot * 2 : 64;
	m->slot = calloc(ns, sizeof *m->slot);
	if (!m->slot) {
		m->slot = old;
		return PMK_ENOMEM;
	}
	m->nslot = ns;
	free(old);
	for (int k = 0; k < m->n; k++) {
		find(m, m->name[k], strlen(m->name[k]), &at);
		m->slot[at] = k + 1;
	}
	return 0;
}

static int put_err(pmk_measure *m, const char *name, size_t len, double v,
		   double e)
{
	size_t at;
	int i;
	len = strnlen(name, len); /* the name as it is stored (strndup) */
	i = find(m, name, len, NULL);
	if (i >= 0) {
		m->value[i] = v;
		m->err[i] = e;
		return 0;
	}
	if (grow_index(m) != 0)
		return PMK_ENOMEM;
	if (m->n == m->cap) {
		int nc = m->cap ? m->cap * 2 : 32;
		char **nn = realloc(m->name, sizeof *nn * (size_t)nc);
		double *nv;
		if (!nn)
			return PMK_ENOMEM;
		m->name = nn;
		nv = realloc(m->value, sizeof *nv * (size_t)nc);
		if (!nv)
			return PMK_ENOMEM;
		m->value = nv;
		nv = realloc(m->err, sizeof *nv * (size_t)nc);
		if (!nv)
			return PMK_ENOMEM;
		m->err = nv;
		m->cap = nc;
	}
	m->name[m->n] = strndup(name, len);
	if (!m->name[m->n])
		return PMK_ENOMEM;
	find(m, name, len, &at);
	m->slot[at] = m->n + 1;
	m->err[m->n] = e;
	m->value[m->n++] = v;
	return 0;
}

static int put(pmk_measure *m, const char *name, size_t len, double v)
{
	return put_err(m, name, len, v, 0);
}

void pmk_measure_free(pmk_measure *m)
{
	if (!m)
		return;
	for (int i = 0; i < m->n; i++)
		free(m->name[i]);
	free(m->name);
	free(m->value);
	free(m->err);
	free(m->slot);
	free(m);
}

/* A whole field as a number: 1, its value in *v; 0 if not a number. */
static int number(const char *s, size_t len, double *v)
{
	char buf[64], *end;
	while (len && isspace((unsigned char)*s))
		s++, len--;
	while (len && isspace((unsigned char)s[len - 1]))
		len--;
	if (len == 0 || len >= sizeof buf)
		return 0;
	if (!isdigit((unsigned char)s[0]) && s[0] != '-' && s[0] != '+' &&
	    s[0] != '.')
		return 0;
	memcpy(buf, s, len);
	buf[len] = 0;
	*v = strtod(buf, &end);
	return *end == 0 && isfinite(*v);
}

/* pmkit stat and perf print clocks in msec; user events see the
 * library's unit, ns. The factor to it, or 1. */
static double unit_scale(const char *u, size_t len)
{
#define U(s) (len == strlen(s) && !strncmp(u, s, len))
	if (U("msec") || U("ms"))
		return 1e6;
	if (U("usec") || U("us"))
		return 1e3;
	if (U("sec") || U("s"))
		return 1e9;
#undef U
	return 1;
}

static int missing(const char *s, size_t len)
{
	return len == 0 || (len > 2 && s[0] == '<' && s[len - 1] == '>');
}

/* ---- JSON ---- */

struct js {
	const char *s, *e, *p;
	pmk_measure *m;
	const char *file;
	pmk_diag *d;
	int depth;
};

static void js_ws(struct js *j)
{
	while (j->p < j->e && isspace((unsigned char)*j->p))
		j->p++;
}

static int js_fail(struct js *j, const char *msg)
{
	int line = 1, col = 1;
	for (const char *q = j->s; q < j->p; q++) {
		if (*q == '\n')
			line++, col = 1;
		else
			col++;
	}
	pmk__diag_at(j->d, PMK_EFORMAT, j->file, line, NULL, col, 1, NULL, "%s",
		     msg);
	return PMK_EFORMAT;
}

/* A string: its raw contents (escapes kept, which event names never
 * need). */
static int js_string(struct js *j, const char **s, size_t *len)
{
	const char *st;
	if (j->p >= j->e || *j->p != '"')
		return js_fail(j, "expected a string");
	st = ++j->p;
	while (j->p < j->e && *j->p != '"') {
		if (*j->p == '\\' && j->p + 1 < j->e)
			j->p++;
		j->p++;
	}
	if (j->p >= j->e)
		return js_fail(j, "unterminated string");
	*s = st;
	*len = (size_t)(j->p - st);
	j->p++;
	return 0;
}

static int js_value(struct js *j);

static int js_object(struct js *j)
{
	const char *name = NULL, *sval = NULL, *unit = NULL;
	size_t nlen = 0, slen = 0, ulen = 0;
	double v = NAN, e = 0;
	int have_v = 0, rc;

	j->p++; /* '{' */
	js_ws(j);
	if (j->p < j->e && *j->p == '}') {
		j->p++;
		return 0;
	}
	for (;;) {
		const char *k;
		size_t kl;
		js_ws(j);
		if ((rc = js_string(j, &k, &kl)))
			return rc;
		js_ws(j);
		if (j->p >= j->e || *j->p != ':')
			return js_fail(j, "expected ':'");
		j->p++;
		js_ws(j);
#define KEY(s) (kl == strlen(s) && !strncmp(k, s, kl))
		if ((KEY("event") || KEY("name")) && j->p < j->e &&
		    *j->p == '"') {
			if ((rc = js_string(j, &name, &nlen)))
				return rc;
		} else if (KEY("error") && j->p < j->e &&
			   strchr("+-.0123456789", *j->p)) {
			const char *st = j->p;
			while (j->p < j->e && strchr("+-.0123456789eE", *j->p))
				j->p++;
			if (!number(st, (size_t)(j->p - st), &e) || !(e >= 0))
				e = 0;
		} else if (KEY("unit") && j->p < j->e && *j->p == '"') {
			if ((rc = js_string(j, &unit, &ulen)))
				return rc;
		} else if ((KEY("value") || KEY("counter-value") ||
			    KEY("count")) &&
			   j->e - j->p >= 4 && !strncmp(j->p, "null", 4)) {
			j->p += 4;
			have_v = 1;
			v = NAN;
		} else if ((KEY("value") || KEY("counter-value") ||
			    KEY("count")) &&
			   j->p < j->e) {
			if (*j->p == '"') {
				if ((rc = js_string(j, &sval, &slen)))
					return rc;
				have_v = 1;
				if (!number(sval, slen, &v))
					v = NAN;
			} else {
				const char *st = j->p;
				while (j->p < j->e &&
				       strchr("+-.0123456789eE", *j->p))
					j->p++;
				if (j->p == st) {
					if ((rc = js_value(j)))
						return rc;
				} else {
					have_v = 1;
					if (!number(st, (size_t)(j->p - st),
						    &v))
						return js_fail(
						    j, "malformed number");
				}
			}
		} else if ((rc = js_value(j))) {
			return rc;
		}
#undef KEY
		js_ws(j);
		if (j->p < j->e && *j->p == ',') {
			j->p++;
			continue;
		}
		if (j->p < j->e && *j->p == '}') {
			j->p++;
			break;
		}
		return js_fail(j, "expected ',' or '}'");
	}
	if (name && have_v && nlen) {
		double k = unit ? unit_scale(unit, ulen) : 1;
		return put_err(j->m, name, nlen, v * k, e * k);
	}
	return 0;
}

static int js_value(struct js *j)
{
	int rc;
	js_ws(j);
	if (j->p >= j->e)
		return js_fail(j, "unexpected end of input");
	if (++j->depth > 64)
		return js_fail(j, "nested too deeply");
	if (*j->p == '{') {
		rc = js_object(j);
	} else if (*j->p == '[') {
		j->p++;
		js_ws(j);
		rc = 0;
		if (j->p < j->e && *j->p == ']') {
			j->p++;
		} else {
			for (;;) {
				if ((rc = js_value(j)))
					break;
				js_ws(j);
				if (j->p < j->e && *j->p == ',') {
					j->p++;
					continue;
				}
				if (j->p < j->e && *j->p == ']') {
					j->p++;
					break;
				}
				rc = js_fail(j, "expected ',' or ']'");
				break;
			}
		}
	} else if (*j->p == '"') {
		const char *s;
		size_t l;
		rc = js_string(j, &s, &l);
	} else {
		const char *st = j->p;
		while (j->p < j->e &&
		       (isalnum((unsigned char)*j->p) || strchr("+-.", *j->p)))
			j->p++;
		rc = j->p == st ? js_fail(j, "unexpected character") : 0;
	}
	j->depth--;
	return rc;
}

static int parse_json(pmk_measure *m, const char *file, const char *text,
		      size_t len, pmk_diag *d)
{
	struct js j = {text, text + len, text, m, file, d, 0};
	int rc = 0;
	for (;;) {
		js_ws(&j);
		if (j.p >= j.e)
			break;
		if ((rc = js_value(&j)))
			break;
	}
	return rc;
}

/* ---- CSV and plain text ---- */

static int parse_lines(pmk_measure *m, const char *file, const char *text,
		       size_t len, pmk_diag *d)
{
	const char *p = text, *e = text + len;
	char sep = 0;
	int lineno = 0, ecol = -1, vcol = -1, rc = 0, header_done = 0;

	/* The separator: the first of , ; TAB on the first data line. */
	for (const char *q = text; q < e && !sep; q++) {
		if (*q == '#') {
			while (q < e && *q != '\n')
				q++;
			continue;
		}
		if (*q == ',' || *q == ';' || *q == '\t')
			sep = *q;
		else if (*q == '\n' && q > text && q[-1] != '\n')
			break;
	}
	while (p < e && rc == 0) {
		const char *nl = memchr(p, '\n', (size_t)(e - p));
		const char *le = nl ? nl : e;
		const char *f[64];
		size_t fl[64];
		int nf = 0;
		lineno++;
		{
			const char *s = p;
			while (s < le && isspace((unsigned char)*s))
				s++;
			if (s == le || *s == '#') {
				p = nl ? nl + 1 : e;
				continue;
			}
		}
		/* Fields. */
		if (sep) {
			const char *q = p;
			for (;;) {
				const char *fe =
				    memchr(q, sep, (size_t)(le - q));
				if (!fe)
					fe = le;
				if (nf < 64) {
					const char *a = q, *b = fe;
					while (a < b &&
					       isspace((unsigned char)*a))
						a++;
					while (b > a &&
					       isspace((unsigned char)b[-1]))
						b--;
					if (b - a >= 2 && *a == '"' &&
					    b[-1] == '"')
						a++, b--;
					f[nf] = a;
					fl[nf++] = (size_t)(b - a);
				}
				if (fe == le)
					break;
				q = fe + 1;
			}
		} else {
			const char *q = p;
			while (q < le && nf < 2) {
				while (q < le && isspace((unsigned char)*q))
					q++;
				if (q == le)
					break;
				f[nf] = q;
				if (nf == 1) {
					/* The value: the rest of the line. */
					q = le;
					while (q > f[nf] &&
					       isspace((unsigned char)q[-1]))
						q--;
				}
				while (q < le && !isspace((unsigned char)*q))
					q++;
				fl[nf] = (size_t)(q - f[nf]);
				nf++;
			}
		}
		if (sep && !header_done) {
			header_done = 1;
			for (int i = 0; i < nf; i++) {
#define IS(s) (fl[i] == strlen(s) && !strncasecmp(f[i], s, fl[i]))
				if (IS("event") || IS("name"))
					ecol = i;
				else if (IS("value") || IS("count") ||
					 IS("counter-value"))
					vcol = i;
#undef IS
			}
			if (ecol >= 0 && vcol >= 0) {
				p = nl ? nl + 1 : e;
				continue;
			}
			ecol = vcol = -1;
		}
		double v;
		if (!sep) {
			char buf[512];
			if (nf != 2 || !(number(f[1], fl[1], &v) ||
					 missing(f[1], fl[1]))) {
				snprintf(buf, sizeof buf, "%.*s", (int)(le - p),
					 p);
				return pmk__diag_at(
				    d, PMK_EFORMAT, file, lineno, buf,
				    nf >= 2 ? (int)(f[1] - p) + 1 : 1, 1, NULL,
				    "expected 'NAME VALUE'");
			}
			if (!number(f[1], fl[1], &v))
				v = NAN;
			rc = put(m, f[0], fl[0], v);
		} else if (ecol >= 0) {
			if (ecol < nf && vcol < nf && fl[ecol]) {
				if (!number(f[vcol], fl[vcol], &v))
					v = NAN;
				rc = put(m, f[ecol], fl[ecol], v);
			}
		} else {
			/* perf's layout: VALUE,UNIT,EVENT,... and with -I a
			 * time stamp first. */
			int vi = -1;
			double tmp;
			for (int i = 0; i < nf && vi < 0; i++)
				if (number(f[i], fl[i], &v))
					vi = i;
				else if (missing(f[i], fl[i]) && fl[i])
					vi = i, v = NAN;
			if (vi == 0 && nf > 1 &&
			    (number(f[1], fl[1], &tmp) ||
			     (missing(f[1], fl[1]) && fl[1]))) {
				vi = 1;
				v = missing(f[1], fl[1]) ? NAN : tmp;
			}
			if (vi >= 0 && vi + 1 < nf)
				v *= unit_scale(f[vi + 1], fl[vi + 1]);
			for (int i = 0; i < nf && rc == 0; i++) {
				if (i == vi || !fl[i] || missing(f[i], fl[i]) ||
				    number(f[i], fl[i], &tmp) ||
				    strchr("%", f[i][fl[i] - 1]))
					continue;
				if (vi >= 0)
					rc = put(m, f[i], fl[i], v);
			}
		}
		p = nl ? nl + 1 : e;
	}
	return rc;
}

int pmk_measure_parse(pmk_measure **out, const char *name, const char *text,
		      size_t len, pmk_diag *d)
{
	pmk_measure *m;
	const char *s = text;
	int rc;
	if (!out || !text)
		return PMK_EINVAL;
	*out = NULL;
	pmk_diag_clear(d);
	m = calloc(1, sizeof *m);
	if (!m)
		return PMK_ENOMEM;
	while (s < text + len && isspace((unsigned char)*s))
		s++;
	if (s < text + len && (*s == '{' || *s == '['))
		rc = parse_json(m, name ? name : "<input>", text, len, d);
	else
		rc = parse_lines(m, name ? name : "<input>", text, len, d);
	if (rc) {
		pmk_measure_free(m);
		return rc;
	}
	*out = m;
	return 0;
}

int pmk_measure_read(pmk_measure **out, const char *path, pmk_diag *d)
{
	char *text;
	size_t len;
	int rc;
	if (!out || !path)
		return PMK_EINVAL;
	*out = NULL;
	rc = pmk__read_whole(path, &text, &len, d);
	if (rc)
		return rc;
	rc = pmk_measure_parse(out, path, text, len, d);
	free(text);
	return rc;
}

int pmk_measure_get(const pmk_measure *m, const char *name, double *value)
{
	int i = m && name ? find(m, name, strlen(name), NULL) : -1;
	if (i < 0)
		return PMK_ENOENT;
	if (value)
		*value = m->value[i];
	return 0;
}

int pmk_measure_count(const pmk_measure *m)
{
	return m ? m->n : 0;
}

const char *pmk_measure_name(const pmk_measure *m, int i, double *value)
{
	if (!m || i < 0 || i >= m->n)
		return NULL;
	if (value)
		*value = m->value[i];
	return m->name[i];
}

double pmk_measure_err(const pmk_measure *m, const char *name)
{
	int i = m && name ? find(m, name, strlen(name), NULL) : -1;
	return i >= 0 ? m->err[i] : 0;
}
