/*
 * daemon_config.c: the perf config file of `pmkit daemon` (daemon_config.h).
 *
 * The syntax is git's config syntax, as perf reads it: `[section]` or
 * `[section "subsection"]` headers, `key = value` lines, `#` and `;`
 * comments (also after a value, outside double quotes), values optionally
 * in double quotes with \" \\ \n \t escapes, blank lines. Section and key
 * names are case-insensitive; session names are kept as written. A section
 * seen twice goes on where it left off (a later run replaces an earlier
 * one), as in git. Every error names its line.
 */
#include "cli/daemon_config.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

enum { SEC_NONE, SEC_OTHER, SEC_DAEMON, SEC_SESSION };

static int fail(struct dcfg_err *e, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail(struct dcfg_err *e, int line, const char *fmt, ...)
{
	va_list ap;
	e->line = line;
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof e->msg, fmt, ap);
	va_end(ap);
	return -1;
}

/* A session name becomes a directory name and a field of `daemon -x:`:
 * letters, digits, '_', '-' and '.', not starting with '.'. */
static int name_ok(const char *s, size_t n)
{
	if (n == 0 || n >= DCFG_NAME_MAX || s[0] == '.')
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && !strchr("_-.", s[i]))
			return 0;
	return 1;
}

/* The section header of line `p`..`end` (starting with '['). */
static int section(const char *p, const char *end, int line, struct dcfg *c,
		   int *sec, int *cur, struct dcfg_err *e)
{
	const char *q = memchr(p, ']', (size_t)(end - p));
	const char *n = p + 1, *ne;
	const char *rest;
	if (!q)
		return fail(e, line, "section header without ']'");
	for (rest = q + 1; rest < end; rest++)
		if (*rest == '#' || *rest == ';')
			break;
		else if (!isspace((unsigned char)*rest))
			return fail(e, line, "text after the section header");
	ne = n;
	while (ne < q && !isspace((unsigned char)*ne))
		ne++;
	if (ne < q) { /* [section "subsection"]: never ours */
		const char *sub = ne;
		while (sub < q && isspace((unsigned char)*sub))
			sub++;
		if (*sub != '"' || q - sub < 2 || q[-1] != '"')
			return fail(e, line,
				    "bad section header: '[NAME]' or '[NAME "
				    "\"SUBSECTION\"]'");
		*sec = SEC_OTHER;
		return 0;
	}
	if ((size_t)(ne - n) == 6 && !strncasecmp(n, "daemon", 6)) {
		*sec = SEC_DAEMON;
		return 0;
	}
	if ((size_t)(ne - n) >= 8 && !strncasecmp(n, "session-", 8)) {
		const char *s = n + 8;
		size_t len = (size_t)(ne - s);
		int i;
		if (!name_ok(s, len))
			return fail(e, line,
				    "bad session name '%.*s': letters, digits, "
				    "'_', '-' and '.' (not first), at most %d",
				    (int)(len > 80 ? 80 : len), s,
				    DCFG_NAME_MAX - 1);
		for (i = 0; i < c->nsess; i++)
			if (strlen(c->sess[i].name) == len &&
			    !memcmp(c->sess[i].name, s, len))
				break;
		if (i == c->nsess) {
			if (c->nsess == DCFG_MAX_SESSIONS)
				return fail(e, line, "more than %d sessions",
					    DCFG_MAX_SESSIONS);
			memcpy(c->sess[i].name, s, len);
			c->sess[i].name[len] = 0;
			c->sess[i].run[0] = 0;
			c->sess[i].line = line;
			c->nsess++;
		}
		*sec = SEC_SESSION;
		*cur = i;
		return 0;
	}
	*sec = SEC_OTHER;
	return 0;
}

/* The value of `p`..`end` (after the '='), unquoted, into `out`. */
static int value(const char *p, const char *end, int line, char *out,
		 size_t size, struct dcfg_err *e)
{
	size_t n = 0, keep = 0; /* keep: length up to the last quoted char */
	int quoted = 0;
	while (p < end && isspace((unsigned char)*p))
		p++;
	for (; p < end; p++) {
		char ch = *p;
		int lit = quoted; /* quoted or escaped: kept as is */
		if (!quoted && (ch == '#' || ch == ';'))
			break;
		if (ch == '"') {
			quoted = !quoted;
			keep = n;
			continue;
		}
		if (ch == '\\') {
			lit = 1;
			if (++p == end)
				return fail(e, line,
					    "'\\' at the end of the line");
			switch (*p) {
			case '"':
				ch = '"';
				break;
			case '\\':
				ch = '\\';
				break;
			case 'n':
				ch = '\n';
				break;
			case 't':
				ch = '\t';
				break;
			default:
				return fail(e, line, "unknown escape '\\%c'",
					    isprint((unsigned char)*p) ? *p
								       : '?');
			}
		}
		if (n + 1 >= size)
			return fail(e, line, "value longer than %zu bytes",
				    size - 1);
		out[n++] = ch;
		if (lit)
			keep = n;
	}
	if (quoted)
		return fail(e, line, "unterminated '\"'");
	while (n > keep && isspace((unsigned char)out[n - 1]))
		n--;
	out[n] = 0;
	return 0;
}

static int keyval(const char *p, const char *end, int line, struct dcfg *c,
		  int sec, int cur, struct dcfg_err *e)
{
	const char *k = p, *ke = p;
	char *dst;
	size_t size;
	while (ke < end && (isalnum((unsigned char)*ke) || *ke == '-' ||
			    *ke == '_' || *ke == '.'))
		ke++;
	if (ke == k)
		return fail(e, line, "expected '[section]' or 'key = value'");
	p = ke;
	while (p < end && isspace((unsigned char)*p))
		p++;
	if (p == end || *p == '#' || *p == ';')
		return fail(e, line, "'%.*s' has no '= value'", (int)(ke - k),
			    k);
	if (*p != '=')
		return fail(e, line, "expected '=' after '%.*s'", (int)(ke - k),
			    k);
	p++;
	if (sec == SEC_NONE)
		return fail(e, line, "'%.*s' is outside any [section]",
			    (int)(ke - k), k);
	if (sec == SEC_OTHER) { /* checked, not kept */
		char scratch[DCFG_RUN_MAX];
		return value(p, end, line, scratch, sizeof scratch, e);
	}
	if (sec == SEC_DAEMON && (size_t)(ke - k) == 4 &&
	    !strncasecmp(k, "base", 4)) {
		dst = c->base;
		size = sizeof c->base;
	} else if (sec == SEC_SESSION && (size_t)(ke - k) == 3 &&
		   !strncasecmp(k, "run", 3)) {
		dst = c->sess[cur].run;
		size = sizeof c->sess[cur].run;
	} else {
		return fail(e, line, "unknown key '%.*s' in [%s] (it takes %s)",
			    (int)(ke - k > 60 ? 60 : ke - k), k,
			    sec == SEC_DAEMON ? "daemon" : "session-NAME",
			    sec == SEC_DAEMON ? "base" : "run");
	}
	if (value(p, end, line, dst, size, e))
		return -1;
	if (dst == c->base && c->base[0] != '/')
		return fail(e, line, "base must be an absolute path, not '%s'",
			    c->base);
	if (!dst[0])
		return fail(e, line, "empty %s",
			    dst == c->base ? "base" : "run");
	return 0;
}

int dcfg_parse(const char *text, size_t len, struct dcfg *c, struct dcfg_err *e)
{
	const char *p = text, *end = text + len;
	int line = 0, sec = SEC_NONE, cur = -1;
	memset(c, 0, sizeof *c);
	e->line = 0;
	e->msg[0] = 0;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		line++;
		if (memchr(p, 0, (size_t)(le - p)))
			return fail(e, line, "NUL byte in the line");
		while (p < le && isspace((unsigned char)*p))
			p++;
		if (p < le && *p != '#' && *p != ';') {
			int rc = *p == '['
				     ? section(p, le, line, c, &sec, &cur, e)
				     : keyval(p, le, line, c, sec, cur, e);
			if (rc)
				return rc;
		}
		p = nl ? nl + 1 : end;
	}
	for (int i = 0; i < c->nsess; i++)
		if (!c->sess[i].run[0])
			return fail(e, c->sess[i].line,
				    "session '%s' has no 'run = ...'",
				    c->sess[i].name);
	return 0;
}

int dcfg_load(const char *path, struct dcfg *c, struct dcfg_err *e)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	char *buf;
	ssize_t n;
	size_t got = 0;
	int rc;
	if (fd < 0)
		return fail(e, 0, "cannot read: %s", strerror(errno));
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return fail(e, 0, "not a regular file");
	}
	if (st.st_size > DCFG_FILE_MAX) {
		close(fd);
		return fail(e, 0, "larger than %d bytes", DCFG_FILE_MAX);
	}
	buf = malloc((size_t)st.st_size + 1);
	if (!buf) {
		close(fd);
		return fail(e, 0, "out of memory");
	}
	while (got <= (size_t)st.st_size &&
	       (n = read(fd, buf + got, (size_t)st.st_size + 1 - got)) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			rc = fail(e, 0, "cannot read: %s", strerror(errno));
			free(buf);
			close(fd);
			return rc;
		}
		got += (size_t)n;
	}
	close(fd);
	rc = dcfg_parse(
	    buf, got > (size_t)st.st_size ? (size_t)st.st_size : got, c, e);
	free(buf);
	return rc;
}

const struct dcfg_session *dcfg_find(const struct dcfg *c, const char *name)
{
	for (int i = 0; i < c->nsess; i++)
		if (!strcmp(c->sess[i].name, name))
			return &c->sess[i];
	return NULL;
}
