/*
 * tpfmt.c: a tracepoint's format and its records (tpfmt.h). A format is
 *
 *     name: inet_pton
 *     ID: 1723
 *     format:
 *             field:unsigned short common_type;  offset:0;  size:2;  signed:0;
 *             ...
 *             field:unsigned long __probe_ip;    offset:8;  size:8;  signed:0;
 *
 *     print fmt: "(%lx)", REC->__probe_ip
 *
 * The fields give each value's place in the raw record; the print format
 * is a printf string and C expressions over the record. The expressions
 * most events use are a field (REC->f), a string of the record
 * (__get_str(f), a __data_loc field: u16 offset, u16 length) and casts of
 * them; those are evaluated here, as perf's libtraceevent does. A format
 * with others (__print_flags, __print_symbolic, arithmetic, conditions)
 * is printed as its fields instead, "name=value" each. Pure code.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "sample/tpfmt.h"

#define MAXF 64
#define MAXA 32

struct field {
	char name[64];
	uint32_t off, size;
	int sign, dataloc, array, common;
};

struct pmk__tpfmt {
	struct field f[MAXF];
	int nf;
	char fmt[1024]; /* the print format's string, unescaped */
	int arg[MAXA];	/* the field of each argument */
	int narg;
	int ok; /* every argument understood */
};

uint64_t pmk__tpfmt_id(const char *text)
{
	const char *p = strstr(text, "\nID: ");
	if (!p && !strncmp(text, "ID: ", 4))
		p = text - 1;
	return p ? strtoull(p + 5, NULL, 10) : UINT64_MAX;
}

static int find_field(const pmk__tpfmt *f, const char *name, size_t n)
{
	for (int i = 0; i < f->nf; i++)
		if (strlen(f->f[i].name) == n && !strncmp(f->f[i].name, name, n))
			return i;
	return -1;
}

/* "\tfield:TYPE NAME[N];\toffset:O;\tsize:S;\tsigned:G;" */
static void parse_field(pmk__tpfmt *f, const char *line)
{
	const char *decl = strstr(line, "field:"), *semi, *e, *b, *v;
	struct field *x;
	if (!decl || f->nf >= MAXF || !(semi = strchr(decl, ';')))
		return;
	decl += 6;
	x = &f->f[f->nf];
	memset(x, 0, sizeof *x);
	e = semi;
	if (e > decl && e[-1] == ']') { /* NAME[N]: an array */
		x->array = 1;
		while (e > decl && *e != '[')
			e--;
	}
	b = e;
	while (b > decl && (isalnum((unsigned char)b[-1]) || b[-1] == '_'))
		b--;
	if (b == e || (size_t)(e - b) >= sizeof x->name)
		return;
	memcpy(x->name, b, (size_t)(e - b));
	x->dataloc = !strncmp(decl, "__data_loc", 10);
	x->common = !strncmp(x->name, "common_", 7);
	if ((v = strstr(semi, "offset:")))
		x->off = (uint32_t)strtoul(v + 7, NULL, 10);
	if ((v = strstr(semi, "size:")))
		x->size = (uint32_t)strtoul(v + 5, NULL, 10);
	if ((v = strstr(semi, "signed:")))
		x->sign = atoi(v + 7);
	f->nf++;
}

/* One argument: a field under casts and parentheses, or __get_str of
 * one. The field's index, or -1. */
static int parse_arg(const pmk__tpfmt *f, const char *s, size_t n)
{
	for (;;) {
		while (n && isspace((unsigned char)*s))
			s++, n--;
		while (n && isspace((unsigned char)s[n - 1]))
			n--;
		if (n && *s == '(') {
			/* the ')' closing this '(' */
			size_t i, depth = 0;
			for (i = 0; i < n; i++) {
				if (s[i] == '(')
					depth++;
				else if (s[i] == ')' && --depth == 0)
					break;
			}
			if (i == n)
				return -1;
			if (i == n - 1) { /* (expr) */
				s++;
				n -= 2;
				continue;
			}
			if (memchr(s, '>', i)) /* not a cast */
				return -1;
			s += i + 1; /* (type) expr */
			n -= i + 1;
			continue;
		}
		break;
	}
	if (n > 5 && !strncmp(s, "REC->", 5))
		return find_field(f, s + 5, n - 5);
	if (n > 11 && !strncmp(s, "__get_str(", 10) && s[n - 1] == ')')
		return find_field(f, s + 10, n - 11);
	return -1;
}

static void parse_print(pmk__tpfmt *f, const char *p)
{
	size_t o = 0;
	if (*p++ != '"')
		return;
	for (; *p && *p != '"'; p++) {
		char c = *p;
		if (c == '\\' && p[1]) {
			c = *++p;
			c = c == 'n' ? '\n' : c == 't' ? '\t' : c;
		}
		if (o + 1 < sizeof f->fmt)
			f->fmt[o++] = c;
	}
	f->fmt[o] = 0;
	if (*p != '"')
		return;
	f->ok = 1;
	for (p++; *p == ',' && f->ok;) {
		const char *a = ++p;
		int depth = 0, q = 0;
		for (; *p && *p != '\n'; p++) {
			if (q) {
				if (*p == '\\' && p[1])
					p++;
				else if (*p == '"')
					q = 0;
			} else if (*p == '"') {
				q = 1;
			} else if (*p == '(' || *p == '{' || *p == '[') {
				depth++;
			} else if (*p == ')' || *p == '}' || *p == ']') {
				depth--;
			} else if (*p == ',' && depth == 0) {
				break;
			}
		}
		if (f->narg >= MAXA ||
		    (f->arg[f->narg++] = parse_arg(f, a, (size_t)(p - a))) < 0)
			f->ok = 0;
	}
}

pmk__tpfmt *pmk__tpfmt_parse(const char *text)
{
	pmk__tpfmt *f = calloc(1, sizeof *f);
	const char *line = text;
	if (!f)
		return NULL;
	while (line && *line) {
		const char *nl = strchr(line, '\n');
		const char *t = line;
		while (*t == ' ' || *t == '\t')
			t++;
		if (!strncmp(t, "field:", 6))
			parse_field(f, t);
		else if (!strncmp(t, "print fmt: ", 11))
			parse_print(f, t + 11);
		line = nl ? nl + 1 : NULL;
	}
	return f;
}

void pmk__tpfmt_free(pmk__tpfmt *f)
{
	free(f);
}

static uint64_t value(const struct field *x, const uint8_t *raw, size_t len)
{
	uint64_t v = 0;
	uint32_t n = x->size;
	if (n > 8 || x->off > len || n > len - x->off)
		return 0;
	for (uint32_t i = 0; i < n; i++) /* little-endian */
		v |= (uint64_t)raw[x->off + i] << (8 * i);
	if (x->sign && n < 8 && (v >> (8 * n - 1)) & 1)
		v |= ~0ull << (8 * n);
	return v;
}

/* A string field: a __data_loc (u16 offset, u16 length of the string in
 * the record) or a char array; copied into buf. */
static const char *string(const struct field *x, const uint8_t *raw,
			  size_t len, char *buf, size_t size)
{
	size_t off = x->off, n = x->size;
	if (x->dataloc) {
		uint64_t loc = value(x, raw, len);
		off = loc & 0xffff;
		n = (loc >> 16) & 0xffff;
	}
	if (off > len)
		n = 0;
	else if (n > len - off)
		n = len - off;
	if (n >= size)
		n = size - 1;
	memcpy(buf, raw + off, n);
	buf[n] = 0;
	return buf;
}

/* the conversions are the print format's own, checked above */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
void pmk__tpfmt_print(const pmk__tpfmt *f, const uint8_t *raw, size_t len,
		      FILE *out)
{
	char sbuf[4096];
	int ai = 0;
	if (!f->ok) { /* the fields themselves */
		const char *sep = "";
		for (int i = 0; i < f->nf; i++) {
			const struct field *x = &f->f[i];
			if (x->common)
				continue;
			fprintf(out, "%s%s=", sep, x->name);
			if (x->dataloc || x->array)
				fputs(string(x, raw, len, sbuf, sizeof sbuf),
				      out);
			else if (x->sign)
				fprintf(out, "%lld",
					(long long)value(x, raw, len));
			else
				fprintf(out, "%llu",
					(unsigned long long)value(x, raw, len));
			sep = " ";
		}
		return;
	}
	for (const char *p = f->fmt; *p; p++) {
		char spec[32];
		size_t sl = 0;
		const struct field *x;
		char conv;
		if (*p != '%') {
			fputc(*p, out);
			continue;
		}
		if (p[1] == '%') {
			fputc('%', out);
			p++;
			continue;
		}
		spec[sl++] = '%';
		for (p++; *p && strchr("-+ #0123456789.", *p) &&
			  sl < sizeof spec - 4;
		     p++)
			spec[sl++] = *p;
		while (*p && strchr("hlzjt", *p)) /* the length: ours */
			p++;
		if (!*p)
			break;
		conv = *p;
		x = ai < f->narg ? &f->f[f->arg[ai]] : NULL;
		ai++;
		if (!x)
			continue;
		if (conv == 's') {
			spec[sl++] = 's';
			spec[sl] = 0;
			fprintf(out, spec,
				string(x, raw, len, sbuf, sizeof sbuf));
		} else if (conv == 'p') {
			fprintf(out, "0x%llx",
				(unsigned long long)value(x, raw, len));
		} else if (strchr("diuxXoc", conv)) {
			spec[sl++] = 'l';
			spec[sl++] = 'l';
			spec[sl++] = conv == 'i' ? 'd' : conv;
			spec[sl] = 0;
			if (conv == 'c')
				fputc((int)value(x, raw, len), out);
			else
				fprintf(out, spec,
					(unsigned long long)value(x, raw, len));
		}
	}
}
#pragma GCC diagnostic pop
