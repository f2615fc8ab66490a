/*
 * read.c: definition files, line by line, into postfix token lists.
 *
 * Four line forms share one file (docs/derive.md):
 *   #define NAME VALUE         a constant (VALUE: a number or an infix
 *                              expression over numbers and constants)
 *   #include "FILE"            another file, relative to this one
 *   NAME, TOK|TOK|OP|...       seed 002's reverse Polish
 *   NAME = EXPR                infix
 *   CPU,PMU / EVENT,... / PRESET,...   PAPI 7's CSV lines
 * plus `#` comments and blank lines. Nothing is resolved here: names stay
 * names, checked by compile.c once the whole file is read (so definitions
 * may come in any order). Every token keeps its line and column.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lib/core/diag.h"
#include "lib/core/infile.h"
#include "lib/derive/defs.h"

#define INCLUDE_DEPTH_MAX 8
#define INFIX_DEPTH_MAX	  100

void pmk__defs_error(pmk_diag *d, int code, const pmk_defs *defs, int file,
		     int line, const char *input, int col, int len,
		     const char *fmt, ...)
{
	char msg[sizeof d->message];
	va_list ap;
	if (!d)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	pmk__diag_at(
	    d, code,
	    defs && file >= 0 && file < defs->nfiles ? defs->files[file] : NULL,
	    line, input, col, len, NULL, "%s", msg);
}

int pmk__read_whole(const char *path, char **out, size_t *len, pmk_diag *d)
{
	/* bounded and typed: no directory, FIFO or endless device */
	int rc = pmk__infile_read(path, 0, 0, out, len, d);
	if (rc == PMK_ENOENT) { /* these readers always said PMK_EIO */
		rc = PMK_EIO;
		if (d)
			d->code = rc;
	}
	return rc;
}

int pmk__defs_add_file(pmk_defs *defs, const char *path)
{
	char **nf =
	    realloc(defs->files, sizeof *nf * (size_t)(defs->nfiles + 1));
	if (!nf)
		return PMK_ENOMEM;
	defs->files = nf;
	nf[defs->nfiles] = strdup(path);
	if (!nf[defs->nfiles])
		return PMK_ENOMEM;
	return defs->nfiles++;
}

/* The state of one line being read. */
struct rd {
	pmk_defs *defs;
	int file, line;
	const char *s; /* the line, NUL-terminated */
	pmk_diag *d;
	struct dtok *toks;
	int ntok, cap;
	int depth;     /* infix recursion */
	int no_hyphen; /* PAPI infix: '-' never joins a name */
};

static int err(struct rd *r, int code, const char *at, int len, const char *fmt,
	       ...) __attribute__((format(printf, 5, 6)));
static int err(struct rd *r, int code, const char *at, int len, const char *fmt,
	       ...)
{
	char msg[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	pmk__defs_error(r->d, code, r->defs, r->file, r->line, r->s,
			at ? (int)(at - r->s) + 1 : 0, len, "%s", msg);
	return code;
}

static void toks_free(struct dtok *t, int n)
{
	for (int i = 0; i < n; i++)
		free(t[i].name);
	free(t);
}

static int push_tok(struct rd *r, int kind, int op, double num,
		    const char *name, size_t namelen, const char *at, int len)
{
	struct dtok *t;
	if (r->ntok == r->cap) {
		int nc = r->cap ? r->cap * 2 : 16;
		struct dtok *nt = realloc(r->toks, sizeof *nt * (size_t)nc);
		if (!nt)
			return PMK_ENOMEM;
		r->toks = nt;
		r->cap = nc;
	}
	t = &r->toks[r->ntok];
	memset(t, 0, sizeof *t);
	t->kind = kind;
	t->op = op;
	t->num = num;
	if (name) {
		t->name = strndup(name, namelen);
		if (!t->name)
			return PMK_ENOMEM;
	}
	t->line = r->line;
	t->col = (int)(at - r->s) + 1;
	t->len = len;
	t->file = r->file;
	r->ntok++;
	return 0;
}

/*
 * A number at `p`: decimal with optional fraction and exponent, or hex
 * 0x... (an integer). Returns its length, 0 when `p` does not start a
 * number, or -1 when it starts one that is malformed or out of range.
 */
static int scan_number(const char *p, double *v)
{
	const char *q = p;
	if (q[0] == '0' && (q[1] == 'x' || q[1] == 'X')) {
		double x = 0;
		q += 2;
		if (!isxdigit((unsigned char)*q))
			return -1;
		while (isxdigit((unsigned char)*q)) {
			int c = tolower((unsigned char)*q);
			x = x * 16 + (c <= '9' ? c - '0' : c - 'a' + 10);
			q++;
		}
		if (isalnum((unsigned char)*q) || *q == '_' || *q == '.')
			return -1;
		*v = x;
		return (int)(q - p);
	}
	if (!isdigit((unsigned char)*q) &&
	    !(*q == '.' && isdigit((unsigned char)q[1])))
		return 0;
	while (isdigit((unsigned char)*q))
		q++;
	if (*q == '.') {
		q++;
		while (isdigit((unsigned char)*q))
			q++;
	}
	if (*q == 'e' || *q == 'E') {
		q++;
		if (*q == '+' || *q == '-')
			q++;
		if (!isdigit((unsigned char)*q))
			return -1;
		while (isdigit((unsigned char)*q))
			q++;
	}
	if (isalpha((unsigned char)*q) || *q == '_' || *q == '.')
		return -1;
	{
		char buf[128];
		size_t n = (size_t)(q - p);
		if (n >= sizeof buf)
			return -1;
		memcpy(buf, p, n);
		buf[n] = 0;
		*v = strtod(buf, NULL);
		if (!isfinite(*v))
			return -1;
	}
	return (int)(q - p);
}

static int is_name_start(int c)
{
	return isalpha(c) || c == '_';
}
static int is_name_char(int c)
{
	return isalnum(c) || c == '_' || c == '.';
}

/* A defined name at p: [A-Za-z_][A-Za-z0-9_.-]*. Returns its length. */
static int scan_defname(const char *p)
{
	int n = 0;
	if (!is_name_start((unsigned char)p[0]))
		return 0;
	while (is_name_char((unsigned char)p[n]) ||
	       (p[n] == '-' && n > 0 && isalnum((unsigned char)p[n + 1])))
		n++;
	return n;
}

static const char *skip_ws(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

/* ---- infix expressions, compiled to postfix tokens ---- */

static int infix_expr(struct rd *r, const char **pp);

/* An infix name: [A-Za-z_][A-Za-z0-9_.:=@]* where a '-' between two
 * letters or digits stays in the name (task-clock), or "anything" in
 * double quotes. */
static int infix_name(const char *p, const char **start, int *len,
		      int no_hyphen)
{
	int n = 0;
	if (*p == '"') {
		const char *e = strchr(p + 1, '"');
		if (!e || e == p + 1)
			return -1;
		*start = p + 1;
		*len = (int)(e - p - 1);
		return (int)(e - p + 1);
	}
	if (!is_name_start((unsigned char)*p))
		return 0;
	while (is_name_char((unsigned char)p[n]) || p[n] == ':' ||
	       p[n] == '=' || p[n] == '@' ||
	       (p[n] == '-' && !no_hyphen && n > 0 &&
		isalnum((unsigned char)p[n - 1]) &&
		isalnum((unsigned char)p[n + 1])))
		n++;
	*start = p;
	*len = n;
	return n;
}

static int infix_primary(struct rd *r, const char **pp)
{
	const char *p = skip_ws(*pp);
	const char *start;
	double v;
	int n, len, rc;

	if (*p == '(') {
		if (++r->depth > INFIX_DEPTH_MAX)
			return err(r, PMK_ESYNTAX, p, 1,
				   "expression nested too deeply");
		p++;
		rc = infix_expr(r, &p);
		if (rc)
			return rc;
		p = skip_ws(p);
		if (*p != ')')
			return err(r, PMK_ESYNTAX, p, 1,
				   *p ? "expected ')' here"
				      : "missing ')' at the end of the line");
		r->depth--;
		*pp = p + 1;
		return 0;
	}
	if (*p == '-' || *p == '+') {
		const char *at = p;
		if (++r->depth > INFIX_DEPTH_MAX)
			return err(r, PMK_ESYNTAX, p, 1,
				   "expression nested too deeply");
		p++;
		rc = infix_primary(r, &p);
		if (rc)
			return rc;
		r->depth--;
		if (*at == '-') {
			/* Fold a negative literal at once. */
			struct dtok *last = &r->toks[r->ntok - 1];
			if (last->kind == TOK_NUM)
				last->num = -last->num;
			else if ((rc = push_tok(r, TOK_OP, PMK_OP_NEG, 0, NULL,
						0, at, 1)))
				return rc;
		}
		*pp = p;
		return 0;
	}
	n = scan_number(p, &v);
	if (n < 0)
		return err(r, PMK_ESYNTAX, p, 1, "malformed number");
	if (n > 0) {
		*pp = p + n;
		return push_tok(r, TOK_NUM, 0, v, NULL, 0, p, n);
	}
	n = infix_name(p, &start, &len, r->no_hyphen);
	if (n < 0)
		return err(r, PMK_ESYNTAX, p, 1,
			   "unterminated or empty quoted name");
	if (n > 0 && *p != '"' && *skip_ws(p + n) == '(') {
		/* perf's functions of two operands: min, max, d_ratio */
		static const struct {
			const char *name;
			int op;
		} fn[] = {{"min", PMK_OP_MIN},
			  {"max", PMK_OP_MAX},
			  {"d_ratio", PMK_OP_DRATIO}};
		const char *q = skip_ws(p + n) + 1;
		size_t f;
		for (f = 0; f < sizeof fn / sizeof fn[0]; f++)
			if ((int)strlen(fn[f].name) == n &&
			    !strncmp(p, fn[f].name, (size_t)n))
				break;
		if (f == sizeof fn / sizeof fn[0])
			return err(r, PMK_ESYNTAX, p, n,
				   "'%.*s(' is no function: the functions are "
				   "min, max and d_ratio",
				   n, p);
		if (++r->depth > INFIX_DEPTH_MAX)
			return err(r, PMK_ESYNTAX, p, 1,
				   "expression nested too deeply");
		if ((rc = infix_expr(r, &q)))
			return rc;
		q = skip_ws(q);
		if (*q != ',')
			return err(r, PMK_ESYNTAX, q, 1,
				   "%s() takes two operands: expected ','",
				   fn[f].name);
		q++;
		if ((rc = infix_expr(r, &q)))
			return rc;
		q = skip_ws(q);
		if (*q != ')')
			return err(r, PMK_ESYNTAX, q, 1,
				   *q ? "expected ')' here"
				      : "missing ')' at the end of the line");
		r->depth--;
		*pp = q + 1;
		return push_tok(r, TOK_OP, fn[f].op, 0, NULL, 0, p, n);
	}
	if (n > 0) {
		if (len >= PMK_EVENT_NAME_MAX)
			return err(r, PMK_ESYNTAX, p, n, "name too long");
		*pp = p + n;
		return push_tok(r, TOK_NAME, 0, 0, start, (size_t)len, start,
				len);
	}
	if (!*p)
		return err(r, PMK_ESYNTAX, p, 1,
			   "expected an operand at the end of the line");
	return err(r, PMK_ESYNTAX, p, 1, "expected a number, a name or '('");
}

static int infix_term(struct rd *r, const char **pp)
{
	int rc = infix_primary(r, pp);
	while (rc == 0) {
		const char *p = skip_ws(*pp);
		if (*p != '*' && *p != '/')
			break;
		const char *at = p++;
		rc = infix_primary(r, &p);
		if (rc == 0)
			rc = push_tok(r, TOK_OP,
				      *at == '*' ? PMK_OP_MUL : PMK_OP_DIV, 0,
				      NULL, 0, at, 1);
		*pp = p;
	}
	return rc;
}

static int infix_sum(struct rd *r, const char **pp)
{
	int rc = infix_term(r, pp);
	while (rc == 0) {
		const char *p = skip_ws(*pp);
		if (*p != '+' && *p != '-')
			break;
		const char *at = p++;
		rc = infix_term(r, &p);
		if (rc == 0)
			rc = push_tok(r, TOK_OP,
				      *at == '+' ? PMK_OP_ADD : PMK_OP_SUB, 0,
				      NULL, 0, at, 1);
		*pp = p;
	}
	return rc;
}

/* Comparisons bind more loosely than + and -, as in perf's grammar. */
static int infix_cmp(struct rd *r, const char **pp)
{
	int rc = infix_sum(r, pp);
	while (rc == 0) {
		const char *p = skip_ws(*pp);
		if (*p != '<' && *p != '>')
			break;
		const char *at = p++;
		rc = infix_sum(r, &p);
		if (rc == 0)
			rc = push_tok(r, TOK_OP,
				      *at == '<' ? PMK_OP_LT : PMK_OP_GT, 0,
				      NULL, 0, at, 1);
		*pp = p;
	}
	return rc;
}

/* The keyword `word` at p, ending before a blank or '('. */
static int keyword(const char *p, const char *word)
{
	size_t n = strlen(word);
	return !strncmp(p, word, n) &&
	       (p[n] == ' ' || p[n] == '\t' || p[n] == '(');
}

/* perf's `a if c else b`, the loosest of all: c is a comparison, and b
 * may be another `if` (it nests to the right). */
static int infix_expr(struct rd *r, const char **pp)
{
	int rc = infix_cmp(r, pp);
	const char *p, *at;
	if (rc)
		return rc;
	p = skip_ws(*pp);
	if (!keyword(p, "if"))
		return 0;
	at = p;
	p += 2;
	if (++r->depth > INFIX_DEPTH_MAX)
		return err(r, PMK_ESYNTAX, at, 2,
			   "expression nested too deeply");
	if ((rc = infix_cmp(r, &p)))
		return rc;
	p = skip_ws(p);
	if (!keyword(p, "else"))
		return err(r, PMK_ESYNTAX, p, 1,
			   "expected 'else' after 'if' and its condition");
	p += 4;
	if ((rc = infix_expr(r, &p)))
		return rc;
	r->depth--;
	*pp = p;
	return push_tok(r, TOK_OP, PMK_OP_SELECT, 0, NULL, 0, at, 2);
}

/* A whole infix expression from p to the end of the line (or `end`). */
static int infix_all(struct rd *r, const char *p, const char *end)
{
	int rc;
	r->depth = 0;
	rc = infix_expr(r, &p);
	if (rc)
		return rc;
	p = skip_ws(p);
	if (end ? (p < end && *p != ',') : *p != 0)
		return err(r, PMK_ESYNTAX, p, 1,
			   *p == ')' ? "unbalanced ')'"
				     : "expected an operator here");
	return 0;
}

/* ---- reverse Polish ---- */

/* Tokens separated by '|', from p up to `end` (NUL or a field end).
 * `refs`/`nrefs`: PAPI's N0, N1... refer to these names. */
static int postfix_all(struct rd *r, const char *p, const char *end,
		       const char *const *refs, const char *const *refpos,
		       int nrefs)
{
	int depth = 0, rc, trail;
	const char *last = p;
	if (!end)
		end = p + strlen(p);
	for (;;) {
		const char *bar = memchr(p, '|', (size_t)(end - p));
		const char *te = bar ? bar : end;
		const char *ts = skip_ws(p);
		while (te > ts && (te[-1] == ' ' || te[-1] == '\t'))
			te--;
		int n = (int)(te - ts);
		double v;
		if (n == 0) {
			if (!bar && depth > 0)
				break; /* a trailing '|' */
			return err(r, PMK_ESYNTAX, ts, 1,
				   bar ? "empty token between '|'"
				       : "empty definition");
		}
		last = ts;
		/* Seed 002's Figure 1 writes "BR_lat*" for "BR_lat|*": an
		 * operator glued to a plain name or number is split off. */
		trail = 0;
		if (n > 1 && strchr("+-*/", ts[n - 1])) {
			int simple = 1;
			for (int i = 0; i < n - 1; i++)
				if (!is_name_char((unsigned char)ts[i]))
					simple = 0;
			if (simple) {
				trail = ts[n - 1];
				n--;
				te--;
			}
		}
		if (n == 1 && strchr("+-*/", *ts)) {
			static const int code[] = {PMK_OP_ADD, PMK_OP_SUB,
						   PMK_OP_MUL, PMK_OP_DIV};
			if (depth < 2)
				return err(r, PMK_ESYNTAX, ts, 1,
					   "stack underflow: '%c' needs two "
					   "operands, the stack holds %d",
					   *ts, depth);
			rc = push_tok(r, TOK_OP,
				      code[strchr("+-*/", *ts) - "+-*/"], 0,
				      NULL, 0, ts, 1);
			depth--;
		} else if (isdigit((unsigned char)*ts) || *ts == '.' ||
			   ((*ts == '-' || *ts == '+') && n > 1)) {
			int neg = *ts == '-';
			const char *ns =
			    (*ts == '-' || *ts == '+') ? ts + 1 : ts;
			int m = scan_number(ns, &v);
			if (m <= 0 || ns + m != te)
				return err(r, PMK_ESYNTAX, ts, n,
					   "malformed number '%.*s'", n, ts);
			rc = push_tok(r, TOK_NUM, 0, neg ? -v : v, NULL, 0, ts,
				      n);
			depth++;
		} else if (refs && (*ts == 'N') && n > 1 &&
			   strspn(ts + 1, "0123456789") == (size_t)(n - 1)) {
			long k = strtol(ts + 1, NULL, 10);
			if (n > 4 || k >= nrefs)
				return err(r, PMK_ESYNTAX, ts, n,
					   "'%.*s' refers to base event %ld, "
					   "but %d are listed",
					   n, ts, k, nrefs);
			rc = push_tok(r, TOK_NAME, 0, 0, refs[k],
				      strlen(refs[k]), refpos[k],
				      (int)strlen(refs[k]));
			depth++;
		} else {
			for (int i = 0; i < n; i++)
				if ((unsigned char)ts[i] <= ' ')
					return err(r, PMK_ESYNTAX, ts + i, 1,
						   "space inside a name (a "
						   "missing '|'?)");
			if (!is_name_start((unsigned char)*ts))
				return err(r, PMK_ESYNTAX, ts, n,
					   "'%.*s' is not a number, an "
					   "operator or a name",
					   n, ts);
			if (n >= PMK_EVENT_NAME_MAX)
				return err(r, PMK_ESYNTAX, ts, n,
					   "name too long");
			rc = push_tok(r, TOK_NAME, 0, 0, ts, (size_t)n, ts, n);
			depth++;
		}
		if (rc)
			return rc;
		if (trail) {
			static const int code[] = {PMK_OP_ADD, PMK_OP_SUB,
						   PMK_OP_MUL, PMK_OP_DIV};
			if (depth < 2)
				return err(r, PMK_ESYNTAX, te, 1,
					   "stack underflow: '%c' needs two "
					   "operands, the stack holds %d",
					   trail, depth);
			rc = push_tok(r, TOK_OP,
				      code[strchr("+-*/", trail) - "+-*/"], 0,
				      NULL, 0, te, 1);
			if (rc)
				return rc;
			depth--;
		}
		if (!bar)
			break;
		p = bar + 1;
	}
	if (depth != 1)
		return err(r, PMK_ESYNTAX, last, 1,
			   "%d values left on the stack at the end; an "
			   "operator is missing",
			   depth);
	return 0;
}

/* ---- definitions ---- */

static int add_def(struct rd *r, const char *name, int namelen, const char *at,
		   int is_const, int active, const char *desc)
{
	pmk_defs *defs = r->defs;
	struct ddef *x;
	const char *txt = skip_ws(r->s);
	size_t tl = strlen(txt);
	if (namelen >= PMK_EVENT_NAME_MAX)
		return err(r, PMK_ESYNTAX, at, namelen, "name too long");
	if (defs->ndefs == defs->capdefs) {
		int nc = defs->capdefs ? defs->capdefs * 2 : 32;
		struct ddef *nd = realloc(defs->defs, sizeof *nd * (size_t)nc);
		if (!nd)
			return PMK_ENOMEM;
		defs->defs = nd;
		defs->capdefs = nc;
	}
	x = &defs->defs[defs->ndefs];
	memset(x, 0, sizeof *x);
	while (tl && (txt[tl - 1] == ' ' || txt[tl - 1] == '\t'))
		tl--;
	x->name = strndup(name, (size_t)namelen);
	x->text = strndup(txt, tl);
	x->desc = strdup(desc ? desc : "");
	x->input = strdup(r->s);
	if (!x->name || !x->text || !x->desc || !x->input) {
		free(x->name);
		free(x->text);
		free(x->desc);
		free(x->input);
		return PMK_ENOMEM;
	}
	x->is_const = is_const;
	x->active = active;
	x->file = r->file;
	x->line = r->line;
	x->col = (int)(at - r->s) + 1;
	x->toks = r->toks;
	x->ntok = r->ntok;
	r->toks = NULL;
	r->ntok = r->cap = 0;
	defs->ndefs++;
	return 0;
}

/* Split a CSV line into fields (double quotes group, and are kept). */
#define CSV_FIELDS_MAX 64
static int csv_split(const char *s, const char **f, int *flen)
{
	int n = 0;
	const char *p = s;
	for (;;) {
		const char *st = p;
		int q = 0;
		while (*p && (q || *p != ',')) {
			if (*p == '"')
				q = !q;
			p++;
		}
		if (n == CSV_FIELDS_MAX)
			return -1;
		f[n] = st;
		flen[n] = (int)(p - st);
		n++;
		if (!*p)
			break;
		p++;
	}
	return n;
}

static void field_trim(const char **f, int *len)
{
	while (*len > 0 && (**f == ' ' || **f == '\t')) {
		(*f)++;
		(*len)--;
	}
	while (*len > 0 && ((*f)[*len - 1] == ' ' || (*f)[*len - 1] == '\t'))
		(*len)--;
}

static int papi_line(struct rd *r, const char *p, int active, const char *desc)
{
	const char *f[CSV_FIELDS_MAX];
	int fl[CSV_FIELDS_MAX], n, nb = 0, rc, i;
	const char *type;
	int tl, first_base;
	char *bases[CSV_FIELDS_MAX];
	const char *bpos[CSV_FIELDS_MAX];

	n = csv_split(p, f, fl);
	if (n < 0)
		return err(r, PMK_ESYNTAX, p, 1, "too many fields");
	for (i = 0; i < n; i++)
		field_trim(&f[i], &fl[i]);
	if (n < 4)
		return err(r, PMK_ESYNTAX, p, fl[0],
			   "expected %.*s,NAME,TYPE,... with at least one base "
			   "event",
			   fl[0], f[0]);
	if (scan_defname(f[1]) != fl[1])
		return err(r, PMK_ESYNTAX, f[1], fl[1] ? fl[1] : 1,
			   "malformed event name");
	type = f[2];
	tl = fl[2];
#define IS(s) (tl == (int)strlen(s) && strncmp(type, s, (size_t)tl) == 0)
	first_base = (IS("DERIVED_POSTFIX") || IS("DERIVED_INFIX")) ? 4 : 3;
	for (i = first_base; i < n; i++) {
		if ((fl[i] == 5 && !strncmp(f[i], "LDESC", 5)) ||
		    (fl[i] == 5 && !strncmp(f[i], "SDESC", 5)) ||
		    (fl[i] == 4 && !strncmp(f[i], "NOTE", 4)))
			break;
		if (fl[i] == 0 || !is_name_start((unsigned char)*f[i])) {
			rc = err(r, PMK_ESYNTAX, f[i], fl[i] ? fl[i] : 1,
				 "expected a base event name");
			goto out;
		}
		bpos[nb] = f[i];
		bases[nb] = strndup(f[i], (size_t)fl[i]);
		if (!bases[nb]) {
			rc = PMK_ENOMEM;
			goto out;
		}
		nb++;
	}
	if (nb == 0) {
		rc = err(r, PMK_ESYNTAX, f[first_base - 1],
			 fl[first_base - 1] ? fl[first_base - 1] : 1,
			 "no base events listed");
		goto out;
	}
	rc = 0;
	if (IS("NOT_DERIVED") || IS("DERIVED_ADD") || IS("DERIVED_SUB")) {
		int code = IS("DERIVED_SUB") ? PMK_OP_SUB : PMK_OP_ADD;
		if (IS("NOT_DERIVED") && nb != 1) {
			rc = err(r, PMK_ESYNTAX, bpos[1], 1,
				 "NOT_DERIVED takes one base event");
			goto out;
		}
		for (i = 0; i < nb && rc == 0; i++) {
			rc = push_tok(r, TOK_NAME, 0, 0, bases[i],
				      strlen(bases[i]), bpos[i],
				      (int)strlen(bases[i]));
			if (rc == 0 && i > 0)
				rc = push_tok(r, TOK_OP, code, 0, NULL, 0,
					      bpos[i], 1);
		}
	} else if (IS("DERIVED_POSTFIX")) {
		rc = postfix_all(r, f[3], f[3] + fl[3],
				 (const char *const *)bases, bpos, nb);
	} else if (IS("DERIVED_INFIX")) {
		/* Nk names are rewritten to the bases after parsing. */
		r->no_hyphen = 1;
		rc = infix_all(r, f[3], f[3] + fl[3]);
		r->no_hyphen = 0;
		for (i = 0; rc == 0 && i < r->ntok; i++) {
			struct dtok *t = &r->toks[i];
			char *end;
			long k;
			if (t->kind != TOK_NAME || t->name[0] != 'N' ||
			    !isdigit((unsigned char)t->name[1]))
				continue;
			k = strtol(t->name + 1, &end, 10);
			if (*end)
				continue;
			if (k >= nb) {
				rc = err(r, PMK_ESYNTAX, r->s + t->col - 1,
					 t->len,
					 "'%s' refers to base event %ld, but "
					 "%d are listed",
					 t->name, k, nb);
				break;
			}
			free(t->name);
			t->name = strdup(bases[k]);
			if (!t->name) {
				rc = PMK_ENOMEM;
				break;
			}
			t->col = (int)(bpos[k] - r->s) + 1;
			t->len = (int)strlen(bases[k]);
		}
	} else {
		rc = err(r, PMK_ENOTSUP, type, tl ? tl : 1,
			 "derived type '%.*s' is not supported (use "
			 "DERIVED_POSTFIX, DERIVED_INFIX, DERIVED_ADD, "
			 "DERIVED_SUB or NOT_DERIVED)",
			 tl, type);
	}
#undef IS
	if (rc == 0)
		rc = add_def(r, f[1], fl[1], f[1], 0, active, desc);
out:
	for (i = 0; i < nb; i++)
		free(bases[i]);
	return rc;
}

static int model_matches(const pmk_defs *defs, const char *pmu, int len)
{
	if ((len == 4 && !strncasecmp(pmu, "perf", 4)) ||
	    (len == 8 && !strncasecmp(pmu, "perf_raw", 8)) ||
	    (len == 3 && !strncasecmp(pmu, "any", 3)))
		return 1;
	return defs->model[0] && (int)strlen(defs->model) == len &&
	       strncasecmp(defs->model, pmu, (size_t)len) == 0;
}

static int do_include(struct rd *r, const char *p, int depth, int active)
{
	const char *st = skip_ws(p), *e;
	char path[1024], *text = NULL;
	int fi, rc;
	pmk_diag id;
	if (*st == '"' || *st == '<') {
		e = strchr(st + 1, *st == '"' ? '"' : '>');
		if (!e)
			return err(r, PMK_ESYNTAX, st, 1,
				   "unterminated file name");
		st++;
	} else {
		e = st;
		while (*e && *e != ' ' && *e != '\t')
			e++;
	}
	if (e == st)
		return err(r, PMK_ESYNTAX, st, 1, "expected a file name");
	if (*skip_ws(e + (*e ? 1 : 0)) && (*e == '"' || *e == '>'))
		return err(r, PMK_ESYNTAX, skip_ws(e + 1), 1,
			   "unexpected text after the file name");
	if (r->defs->opts.no_include)
		return err(r, PMK_EPERM, st, (int)(e - st),
			   "#include is not allowed here");
	if (depth >= INCLUDE_DEPTH_MAX)
		return err(r, PMK_ETOOMANY, st, (int)(e - st),
			   "includes nested more than %d deep (a file "
			   "including itself?)",
			   INCLUDE_DEPTH_MAX);
	{
		const char *cur = r->defs->files[r->file];
		const char *slash = strrchr(cur, '/');
		int dl = (*st != '/' && slash) ? (int)(slash - cur + 1) : 0;
		if (snprintf(path, sizeof path, "%.*s%.*s", dl, cur,
			     (int)(e - st), st) >= (int)sizeof path)
			return err(r, PMK_ESYNTAX, st, (int)(e - st),
				   "file name too long");
	}
	rc = pmk__read_whole(path, &text, NULL, &id);
	if (rc)
		return err(r, rc, st, (int)(e - st), "%s", id.message);
	fi = pmk__defs_add_file(r->defs, path);
	if (fi < 0) {
		free(text);
		return fi;
	}
	rc = pmk__defs_read(r->defs, fi, text, depth + 1, active, r->d);
	free(text);
	return rc;
}

int pmk__defs_read(pmk_defs *defs, int fi, const char *text, int depth,
		   int active, pmk_diag *d)
{
	struct rd r = {.defs = defs, .file = fi, .d = d};
	const char *p = text;
	char *line = NULL, desc[256] = "";
	size_t cap = 0;
	int rc = 0, in_cpu = 0, base_active = active;

	defs->text_bytes += strlen(text); /* the budget of compile.c */
	while (*p && rc == 0) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		const char *s;
		int was_cpu = 0;
		if (len + 1 > cap) {
			char *nb = realloc(line, len + 1);
			if (!nb) {
				rc = PMK_ENOMEM;
				break;
			}
			line = nb;
			cap = len + 1;
		}
		memcpy(line, p, len);
		line[len] = 0;
		if (len && line[len - 1] == '\r')
			line[len - 1] = 0;
		p = nl ? nl + 1 : p + len;
		r.line++;
		r.s = line;
		s = skip_ws(line);

		if (!*s) {
			desc[0] = 0;
		} else if (*s == '#') {
			const char *q = s + 1;
			if (!strncmp(q, "define", 6) &&
			    (q[6] == ' ' || q[6] == '\t')) {
				const char *nm = skip_ws(q + 6);
				int nlen = scan_defname(nm);
				const char *v;
				if (!nlen)
					rc = err(&r, PMK_ESYNTAX, nm, 1,
						 "expected a constant name");
				else if (!*(v = skip_ws(nm + nlen)))
					rc = err(&r, PMK_ESYNTAX, v, 1,
						 "'#define %.*s' has no value",
						 nlen, nm);
				else if (v == nm + nlen)
					rc = err(&r, PMK_ESYNTAX, v, 1,
						 "expected a space after the "
						 "name");
				else
					rc = infix_all(&r, v, NULL);
				if (rc == 0)
					rc = add_def(&r, nm, nlen, nm, 1,
						     active, desc);
			} else if (!strncmp(q, "include", 7) &&
				   (q[7] == ' ' || q[7] == '\t' ||
				    q[7] == '"')) {
				rc = do_include(&r, q + 7, depth, active);
			} else {
				const char *c = skip_ws(q);
				snprintf(desc, sizeof desc, "%s", c);
			}
		} else if (!strncmp(s, "CPU,", 4)) {
			const char *f = skip_ws(s + 4);
			int fl = (int)strcspn(f, ", \t");
			if (fl == 0)
				rc = err(&r, PMK_ESYNTAX, f, 1,
					 "expected a PMU name after 'CPU,'");
			if (!in_cpu)
				active = 0;
			if (model_matches(defs, f, fl))
				active = base_active;
			was_cpu = 1;
		} else if (!strncmp(s, "EVENT,", 6) ||
			   !strncmp(s, "PRESET,", 7)) {
			rc = papi_line(&r, s, active, desc);
			desc[0] = 0;
		} else {
			int nlen = scan_defname(s);
			const char *q = skip_ws(s + nlen);
			if (!nlen)
				rc = err(&r, PMK_ESYNTAX, s, 1,
					 "expected a definition (NAME, "
					 "POSTFIX or NAME = EXPRESSION), "
					 "'#define' or a comment");
			else if (*q == ',')
				rc =
				    postfix_all(&r, q + 1, NULL, NULL, NULL, 0);
			else if (*q == '=')
				rc = infix_all(&r, q + 1, NULL);
			else
				rc = err(&r, PMK_ESYNTAX, q, 1,
					 "expected ',' (reverse Polish) or "
					 "'=' (infix) after '%.*s'",
					 nlen, s);
			if (rc == 0)
				rc = add_def(&r, s, nlen, s, 0, active, desc);
			desc[0] = 0;
		}
		if (*s && *s != '#')
			in_cpu = was_cpu;
		if (r.toks) {
			toks_free(r.toks, r.ntok);
			r.toks = NULL;
			r.ntok = r.cap = 0;
		}
	}
	free(line);
	return rc;
}
