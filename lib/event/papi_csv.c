/*
 * papi_csv.c: PAPI's papi_events.csv read into preset definitions
 * (papi_csv.h). A bounded reader: every line, field, name and count has a
 * limit, and what breaks one names file:line and column. It reads the
 * file as PAPI does where that matters for which definition applies
 * (consecutive CPU lines share the PRESET lines below them; a CPU line
 * after PRESET lines starts a new section; a later definition replaces an
 * earlier one; empty fields are skipped, as PAPI's strtok() skips them;
 * lines of a kind other than CPU and PRESET/EVENT end the section, as the
 * `cuda,...` lines of newer files do) and as CSV where PAPI is loose
 * (a quoted field keeps its commas). Pure but for pmk__papi_csv_load's
 * read of the file.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lib/core/diag.h"
#include "lib/core/infile.h"
#include "lib/event/papi_csv.h"

struct cpu {
	char *name;
	int qualified; /* CPU,NAME,TYPE: PAPI's PMU-type qualifier */
};

struct sect {
	int cpu0, ncpu; /* into cpus[] */
	int def0, ndef; /* into defs[] */
};

struct pmk__papi_csv {
	char *file;
	struct cpu *cpus;
	int ncpu, capcpu;
	struct sect *sect;
	int nsect, capsect;
	pmk__papi_def *defs;
	int ndef, capdef;
};

/* One line being read. */
struct line {
	const char *file;
	int no;
	const char *s; /* the line, NUL-terminated, no newline */
	pmk_diag *d;
};

/* A field: its text (quotes removed, "" turned into "), and its column. */
struct field {
	char *text;
	int col, len;
};

static int line_err(const struct line *l, int code, int col, int len,
		    const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static int line_err(const struct line *l, int code, int col, int len,
		    const char *fmt, ...)
{
	char msg[200];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	return pmk__diag_at(l->d, code, l->file, l->no, l->s, col,
			    len > 0 ? len : 1, NULL, "%s", msg);
}

static int grow(void **p, int *cap, int n, size_t elem, int max)
{
	void *np;
	int nc;
	if (n < *cap)
		return 0;
	if (n >= max)
		return PMK_ERANGE;
	nc = *cap ? *cap * 2 : 64;
	if (nc > max)
		nc = max;
	np = realloc(*p, (size_t)nc * elem);
	if (!np)
		return PMK_ENOMEM;
	*p = np;
	*cap = nc;
	return 0;
}

static void fields_free(struct field *f, int n)
{
	for (int i = 0; i < n; i++)
		free(f[i].text);
}

/*
 * Split a line into fields at commas, outside double quotes. Unquoted
 * fields lose their surrounding blanks; empty fields are dropped. Returns
 * the count, or a negative code with the diagnostic filled.
 */
static int split(const struct line *l, struct field *f)
{
	const char *p = l->s;
	int n = 0;
	for (;;) {
		const char *st, *en;
		char *text;
		int quoted = 0, col;
		size_t k = 0;
		while (*p == ' ' || *p == '\t')
			p++;
		st = p;
		col = (int)(st - l->s) + 1;
		if (*p == '"') {
			quoted = 1;
			for (p++;; p++) {
				if (!*p) {
					fields_free(f, n);
					return line_err(
					    l, PMK_ESYNTAX, col, 1,
					    "unterminated quoted field");
				}
				if (*p == '"' && p[1] == '"')
					p++;
				else if (*p == '"')
					break;
			}
			en = ++p;
			while (*p == ' ' || *p == '\t')
				p++;
			if (*p && *p != ',') {
				fields_free(f, n);
				return line_err(l, PMK_ESYNTAX,
						(int)(p - l->s) + 1, 1,
						"expected ',' after a quoted "
						"field");
			}
		} else {
			while (*p && *p != ',')
				p++;
			en = p;
			while (en > st && (en[-1] == ' ' || en[-1] == '\t'))
				en--;
		}
		if (en > st || quoted) {
			if (n == PMK__PAPI_FIELDS_MAX) {
				fields_free(f, n);
				return line_err(l, PMK_ERANGE, col, 1,
						"more than %d fields",
						PMK__PAPI_FIELDS_MAX);
			}
			text = malloc((size_t)(en - st) + 1);
			if (!text) {
				fields_free(f, n);
				return PMK_ENOMEM;
			}
			if (quoted) {
				for (const char *q = st + 1; q < en - 1; q++) {
					text[k++] = *q;
					if (*q == '"')
						q++; /* "" is one quote */
				}
			} else {
				memcpy(text, st, (size_t)(en - st));
				k = (size_t)(en - st);
			}
			text[k] = 0;
			f[n].text = text;
			f[n].col = col;
			f[n].len = (int)(en - st);
			n++;
		}
		if (!*p)
			return n;
		p++; /* the comma */
	}
}

/* A whole-token number: decimal or 0x hex, with fraction and exponent. */
static int is_number(const char *s)
{
	char *end;
	if (!*s || !(isdigit((unsigned char)*s) || *s == '.'))
		return 0;
	(void)strtod(s, &end);
	return *end == 0;
}

static int is_op(const char *s)
{
	return s[0] && !s[1] && strchr("+-*/", s[0]);
}

/* Whether `s` can stand as a native in pmkit's reverse Polish: printable,
 * no blank, neither a number nor an operator. NULL, or why not. */
static const char *native_bad(const char *s)
{
	if (strlen(s) >= 256)
		return "is longer than 255 characters";
	for (const char *p = s; *p; p++)
		if (!isgraph((unsigned char)*p))
			return "holds a blank or a control character";
	if (is_number(s) || is_op(s))
		return "is a number or an operator, not an event";
	return NULL;
}

/* Append `tok` and a space to the growing formula. */
static int put(char **buf, size_t *len, size_t *cap, const char *tok)
{
	size_t tl = strlen(tok);
	if (*len + tl + 2 > *cap) {
		size_t nc = (*cap ? *cap * 2 : 128) + tl;
		char *nb = realloc(*buf, nc);
		if (!nb)
			return PMK_ENOMEM;
		*buf = nb;
		*cap = nc;
	}
	if (*len)
		(*buf)[(*len)++] = ' ';
	memcpy(*buf + *len, tok, tl + 1);
	*len += tl;
	return 0;
}

/*
 * PAPI's derived type over natives nat[0..nn) (and, for DERIVED_POSTFIX,
 * the formula `pf`) as pmkit's reverse Polish in *rpn. 0; PMK_ENOMEM; or
 * 1 with *why saying why the definition cannot be used.
 */
static int to_rpn(const char *type, const char *pf, char **nat, int nn,
		  char **rpn, char *why, size_t wsize)
{
	char *buf = NULL, tok[64];
	size_t len = 0, cap = 0;
	int rc = 0, depth = 0, used[PMK__PAPI_NATIVES_MAX] = {0};
	const char *bad;

	*rpn = NULL;
	for (int i = 0; i < nn; i++)
		if ((bad = native_bad(nat[i]))) {
			snprintf(why, wsize, "native '%.60s' %s", nat[i], bad);
			return 1;
		}
	if (!strcasecmp(type, "NOT_DERIVED")) {
		if (nn != 1) {
			snprintf(why, wsize, "NOT_DERIVED lists %d natives",
				 nn);
			return 1;
		}
		rc = put(&buf, &len, &cap, nat[0]);
	} else if (!strcasecmp(type, "DERIVED_ADD") ||
		   !strcasecmp(type, "DERIVED_SUB")) {
		const char *op = !strcasecmp(type, "DERIVED_ADD") ? "+" : "-";
		if (nn < 2) {
			snprintf(why, wsize, "%s needs two natives or more",
				 type);
			return 1;
		}
		for (int i = 0; i < nn && rc == 0; i++) {
			rc = put(&buf, &len, &cap, nat[i]);
			if (rc == 0 && i > 0)
				rc = put(&buf, &len, &cap, op);
		}
	} else if (!strcasecmp(type, "DERIVED_POSTFIX")) {
		const char *p = pf;
		while (rc == 0 && p && *p) {
			size_t tl = strcspn(p, "|");
			if (tl == 0) {
				p++;
				continue;
			}
			if (tl >= sizeof tok) {
				snprintf(why, wsize, "postfix token too long");
				free(buf);
				return 1;
			}
			memcpy(tok, p, tl);
			tok[tl] = 0;
			p += tl;
			if ((tok[0] == 'N' || tok[0] == 'n') &&
			    isdigit((unsigned char)tok[1])) {
				char *end;
				long k = strtol(tok + 1, &end, 10);
				if (*end || k >= nn) {
					snprintf(why, wsize,
						 "postfix '%s' names no native "
						 "(%d listed)",
						 tok, nn);
					free(buf);
					return 1;
				}
				used[k] = 1;
				depth++;
				rc = put(&buf, &len, &cap, nat[k]);
			} else if (is_op(tok)) {
				if (depth < 2) {
					snprintf(why, wsize,
						 "postfix '%s' lacks an "
						 "operand",
						 tok);
					free(buf);
					return 1;
				}
				depth--;
				rc = put(&buf, &len, &cap, tok);
			} else if (is_number(tok)) {
				depth++;
				rc = put(&buf, &len, &cap, tok);
			} else {
				snprintf(
				    why, wsize,
				    "postfix token '%s' is neither N<k>, a "
				    "number nor + - * /",
				    tok);
				free(buf);
				return 1;
			}
		}
		if (rc == 0 && depth != 1) {
			snprintf(why, wsize,
				 "postfix formula leaves %d values, not one",
				 depth);
			free(buf);
			return 1;
		}
		for (int i = 0; rc == 0 && i < nn; i++)
			if (!used[i]) {
				snprintf(why, wsize,
					 "native N%d is not in the formula", i);
				free(buf);
				return 1;
			}
	} else {
		snprintf(why, wsize,
			 "derived type %.40s is not read (pmkit reads "
			 "NOT_DERIVED, DERIVED_ADD, DERIVED_SUB and "
			 "DERIVED_POSTFIX)",
			 type);
		return 1;
	}
	if (rc) {
		free(buf);
		return rc;
	}
	*rpn = buf;
	return 0;
}

static int name_ok(const char *s)
{
	if (!*s || strlen(s) >= PMK__PAPI_NAME_MAX)
		return 0;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_')
			return 0;
	return 1;
}

/* A PRESET (or EVENT) line: fields f[0..n). */
static int preset_line(pmk__papi_csv *c, const struct line *l, struct field *f,
		       int n, int keep)
{
	pmk__papi_def *def;
	char *nat[PMK__PAPI_NATIVES_MAX], why[200] = "";
	const char *pf = NULL, *note = NULL;
	int nn = 0, i, first, rc;

	if (n < 2)
		return line_err(l, PMK_ESYNTAX, (int)strlen(l->s) + 1, 1,
				"expected a preset name after %s", f[0].text);
	if (!name_ok(f[1].text))
		return line_err(l, PMK_ESYNTAX, f[1].col, f[1].len,
				"malformed preset name (letters, digits and _, "
				"under %d characters)",
				PMK__PAPI_NAME_MAX);
	if (n < 3)
		return line_err(l, PMK_ESYNTAX, (int)strlen(l->s) + 1, 1,
				"expected a derived type after %s", f[1].text);
	first = 3;
	if (!strcasecmp(f[2].text, "DERIVED_POSTFIX") ||
	    !strcasecmp(f[2].text, "DERIVED_INFIX")) {
		if (n < 4)
			return line_err(l, PMK_ESYNTAX, (int)strlen(l->s) + 1,
					1, "expected a formula after %s",
					f[2].text);
		pf = f[3].text;
		first = 4;
	}
	for (i = first; i < n; i++) {
		if (!strcasecmp(f[i].text, "NOTE") ||
		    !strcasecmp(f[i].text, "LDESC") ||
		    !strcasecmp(f[i].text, "SDESC")) {
			if (i + 1 < n && !note)
				note = f[i + 1].text;
			break;
		}
		if (nn < PMK__PAPI_NATIVES_MAX)
			nat[nn] = f[i].text;
		nn++;
	}
	if (nn == 0)
		return line_err(l, PMK_ESYNTAX, (int)strlen(l->s) + 1, 1,
				"expected the natives of %s", f[1].text);
	if (!keep)
		return 0; /* before any CPU line: applies to none */
	if ((rc = grow((void **)&c->defs, &c->capdef, c->ndef, sizeof *c->defs,
		       PMK__PAPI_DEFS_MAX)))
		return rc == PMK_ERANGE
			   ? line_err(l, rc, 1, 6, "more than %d definitions",
				      PMK__PAPI_DEFS_MAX)
			   : rc;
	def = &c->defs[c->ndef];
	memset(def, 0, sizeof *def);
	def->line = l->no;
	if (nn > PMK__PAPI_NATIVES_MAX) {
		/* a definition for another machine (Blue Gene/P lists 20) */
		snprintf(why, sizeof why, "lists %d natives, over the %d read",
			 nn, PMK__PAPI_NATIVES_MAX);
		rc = 1;
	} else {
		rc = to_rpn(f[2].text, pf, nat, nn, (char **)&def->rpn, why,
			    sizeof why);
	}
	if (rc < 0)
		return rc;
	def->preset = strdup(f[1].text);
	def->type = strdup(f[2].text);
	def->why = rc ? strdup(why) : NULL;
	def->note = note ? strdup(note) : NULL;
	if (!def->preset || !def->type || (rc && !def->why) ||
	    (note && !def->note)) {
		free((char *)def->preset);
		free((char *)def->type);
		free((char *)def->why);
		free((char *)def->note);
		free((char *)def->rpn);
		return PMK_ENOMEM;
	}
	c->ndef++;
	if (c->nsect)
		c->sect[c->nsect - 1].ndef++;
	return 0;
}

/* A CPU line: starts a section unless the one open has no presets yet. */
static int cpu_line(pmk__papi_csv *c, const struct line *l, struct field *f,
		    int n, int *open)
{
	struct sect *s;
	int rc;
	if (n < 2)
		return line_err(l, PMK_ESYNTAX, (int)strlen(l->s) + 1, 1,
				"expected a CPU name after CPU");
	if (strlen(f[1].text) >= PMK__PAPI_NAME_MAX)
		return line_err(l, PMK_ERANGE, f[1].col, f[1].len,
				"CPU name longer than %d characters",
				PMK__PAPI_NAME_MAX - 1);
	if (!*open || c->sect[c->nsect - 1].ndef > 0) {
		if ((rc = grow((void **)&c->sect, &c->capsect, c->nsect,
			       sizeof *c->sect, PMK__PAPI_CPUS_MAX)))
			return rc == PMK_ERANGE
				   ? line_err(l, rc, 1, 3,
					      "more than %d sections",
					      PMK__PAPI_CPUS_MAX)
				   : rc;
		s = &c->sect[c->nsect++];
		s->cpu0 = c->ncpu;
		s->ncpu = 0;
		s->def0 = c->ndef;
		s->ndef = 0;
		*open = 1;
	}
	if ((rc = grow((void **)&c->cpus, &c->capcpu, c->ncpu, sizeof *c->cpus,
		       PMK__PAPI_CPUS_MAX)))
		return rc == PMK_ERANGE
			   ? line_err(l, rc, 1, 3, "more than %d CPU lines",
				      PMK__PAPI_CPUS_MAX)
			   : rc;
	c->cpus[c->ncpu].name = strdup(f[1].text);
	if (!c->cpus[c->ncpu].name)
		return PMK_ENOMEM;
	/* PAPI matches a qualified CPU line only for the PMU type it
	 * names, a libpfm4 internal: pmkit never matches one */
	c->cpus[c->ncpu].qualified = n > 2;
	c->ncpu++;
	c->sect[c->nsect - 1].ncpu++;
	return 0;
}

void pmk__papi_csv_free(pmk__papi_csv *c)
{
	if (!c)
		return;
	for (int i = 0; i < c->ncpu; i++)
		free(c->cpus[i].name);
	for (int i = 0; i < c->ndef; i++) {
		free((char *)c->defs[i].preset);
		free((char *)c->defs[i].type);
		free((char *)c->defs[i].rpn);
		free((char *)c->defs[i].why);
		free((char *)c->defs[i].note);
	}
	free(c->cpus);
	free(c->sect);
	free(c->defs);
	free(c->file);
	free(c);
}

int pmk__papi_csv_parse(const char *text, size_t len, const char *file,
			pmk__papi_csv **out, pmk_diag *d)
{
	pmk__papi_csv *c;
	char buf[PMK__PAPI_LINE_MAX + 1];
	struct field f[PMK__PAPI_FIELDS_MAX];
	struct line l = {file ? file : "papi_events.csv", 0, buf, d};
	size_t pos = 0;
	int open = 0, rc = 0;

	if (d)
		pmk_diag_clear(d);
	if (!out || (!text && len))
		return PMK_EINVAL;
	*out = NULL;
	if (len > PMK__PAPI_FILE_MAX)
		return pmk__diag_at(d, PMK_ERANGE, l.file, 0, NULL, 0, 1, NULL,
				    "file larger than %zu bytes",
				    PMK__PAPI_FILE_MAX);
	if (!(c = calloc(1, sizeof *c)) || !(c->file = strdup(l.file))) {
		free(c);
		return PMK_ENOMEM;
	}
	while (pos < len && rc == 0) {
		size_t e = pos, ll;
		int n, i;
		while (e < len && text[e] != '\n')
			e++;
		ll = e - pos;
		l.no++;
		if (ll && text[pos + ll - 1] == '\r')
			ll--;
		if (ll > PMK__PAPI_LINE_MAX) {
			buf[0] = 0;
			rc = pmk__diag_at(d, PMK_ERANGE, l.file, l.no, NULL,
					  PMK__PAPI_LINE_MAX + 1, 1, NULL,
					  "line longer than %d bytes",
					  PMK__PAPI_LINE_MAX);
			break;
		}
		memcpy(buf, text + pos, ll);
		buf[ll] = 0;
		pos = e + 1;
		for (i = 0; i < (int)ll; i++)
			if ((unsigned char)buf[i] < 0x20 && buf[i] != '\t') {
				rc = line_err(&l, PMK_EFORMAT, i + 1, 1,
					      "control character 0x%02x",
					      (unsigned char)buf[i]);
				break;
			}
		if (rc)
			break;
		i = (int)strspn(buf, " \t");
		if (!buf[i] || buf[i] == '#')
			continue;
		if ((n = split(&l, f)) < 0) {
			rc = n;
			break;
		}
		if (n == 0)
			continue;
		if (!strcasecmp(f[0].text, "CPU")) {
			rc = cpu_line(c, &l, f, n, &open);
		} else if (!strcasecmp(f[0].text, "PRESET") ||
			   !strcasecmp(f[0].text, "EVENT")) {
			rc = preset_line(c, &l, f, n, open);
		} else {
			/* another kind (a component's section in newer
			 * files): it closes the CPU section, as in PAPI */
			open = 0;
		}
		fields_free(f, n);
	}
	if (rc) {
		pmk__papi_csv_free(c);
		return rc;
	}
	*out = c;
	return 0;
}

int pmk__papi_csv_load(const char *path, pmk__papi_csv **out, pmk_diag *d)
{
	char *text = NULL;
	size_t len = 0;
	int rc = pmk__infile_read(path, 0, PMK__PAPI_FILE_MAX, &text, &len, d);
	if (rc)
		return rc;
	rc = pmk__papi_csv_parse(text, len, path, out, d);
	free(text);
	return rc;
}

const char *pmk__papi_csv_file(const pmk__papi_csv *c)
{
	return c ? c->file : NULL;
}

int pmk__papi_csv_count(const pmk__papi_csv *c)
{
	return c ? c->ndef : 0;
}

int pmk__papi_csv_defines(const pmk__papi_csv *c, const char *preset)
{
	for (int i = 0; c && preset && i < c->ndef; i++)
		if (!strcasecmp(c->defs[i].preset, preset))
			return 1;
	return 0;
}

int pmk__papi_cpu_is(const char *cpu, const char *model)
{
	static const char *const alias[][2] = {
	    {"kbl", "skl"}, /* libpfm4 treats Kaby Lake as Skylake */
	};
	if (!cpu || !model)
		return 0;
	if (!strcasecmp(cpu, model))
		return 1;
	for (size_t i = 0; i < sizeof alias / sizeof *alias; i++)
		if (!strcasecmp(cpu, alias[i][0]) &&
		    !strcasecmp(model, alias[i][1]))
			return 1;
	return 0;
}

static int sect_names(const pmk__papi_csv *c, const struct sect *s,
		      const char *model)
{
	for (int i = s->cpu0; i < s->cpu0 + s->ncpu; i++)
		if (!c->cpus[i].qualified &&
		    pmk__papi_cpu_is(c->cpus[i].name, model))
			return 1;
	return 0;
}

const pmk__papi_def *pmk__papi_csv_find(const pmk__papi_csv *c,
					const char *model, const char *preset)
{
	const pmk__papi_def *found = NULL;
	for (int i = 0; c && model && preset && i < c->nsect; i++) {
		const struct sect *s = &c->sect[i];
		if (!sect_names(c, s, model))
			continue;
		for (int k = s->def0; k < s->def0 + s->ndef; k++)
			if (!strcasecmp(c->defs[k].preset, preset))
				found = &c->defs[k];
	}
	return found;
}

int pmk__papi_csv_foreach(const pmk__papi_csv *c, const char *model,
			  int (*fn)(const pmk__papi_def *def, void *arg),
			  void *arg)
{
	for (int i = 0; c && model && i < c->nsect; i++) {
		const struct sect *s = &c->sect[i];
		if (!sect_names(c, s, model))
			continue;
		for (int k = s->def0; k < s->def0 + s->ndef; k++) {
			const pmk__papi_def *in =
			    pmk__papi_csv_find(c, model, c->defs[k].preset);
			int seen = 0, rc;
			/* once, at its first definition for the model */
			for (int j = 0; j < i && !seen; j++) {
				const struct sect *t = &c->sect[j];
				if (!sect_names(c, t, model))
					continue;
				for (int m = t->def0; m < t->def0 + t->ndef;
				     m++)
					if (!strcasecmp(c->defs[m].preset,
							c->defs[k].preset))
						seen = 1;
			}
			for (int m = s->def0; m < k && !seen; m++)
				if (!strcasecmp(c->defs[m].preset,
						c->defs[k].preset))
					seen = 1;
			if (seen)
				continue;
			if ((rc = fn(in, arg)))
				return rc;
		}
	}
	return 0;
}

int pmk__papi_csv_cpus(const pmk__papi_csv *c,
		       int (*fn)(const char *cpu, void *arg), void *arg)
{
	for (int i = 0; c && i < c->ncpu; i++) {
		int seen = 0, rc;
		for (int j = 0; j < i && !seen; j++)
			seen = !strcasecmp(c->cpus[j].name, c->cpus[i].name);
		if (seen)
			continue;
		if ((rc = fn(c->cpus[i].name, arg)))
			return rc;
	}
	return 0;
}
