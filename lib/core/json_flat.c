/*
 * json_flat.c: a small bounded reader of JSON files that hold one array of
 * flat objects (json_flat.h): perf's pmu-events files.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/core/json_flat.h"

struct jr {
	const char *s, *end, *file;
	int line;
	const char *line_start;
	pmk_diag *d;
};

static int jr_error(struct jr *r, const char *msg)
{
	if (r->d) {
		const char *e = r->line_start;
		pmk_diag_clear(r->d);
		r->d->code = PMK_EINVAL;
		r->d->line = r->line;
		r->d->column = (int)(r->s - r->line_start) + 1;
		r->d->length = 1;
		snprintf(r->d->file, sizeof r->d->file, "%s", r->file);
		while (e < r->end && *e != '\n' && e - r->line_start < 500)
			e++;
		snprintf(r->d->input, sizeof r->d->input, "%.*s",
			 (int)(e - r->line_start), r->line_start);
		snprintf(r->d->message, sizeof r->d->message, "%s", msg);
	}
	return PMK_EINVAL;
}

static void jr_blank(struct jr *r)
{
	while (r->s < r->end && (*r->s == ' ' || *r->s == '\t' ||
				 *r->s == '\r' || *r->s == '\n')) {
		if (*r->s == '\n') {
			r->line++;
			r->line_start = r->s + 1;
		}
		r->s++;
	}
}

/* A string at r->s (after its opening quote) into buf; ASCII escapes kept,
 * \uXXXX past ASCII written as '?'. */
static int jr_string(struct jr *r, char *buf, size_t size)
{
	size_t n = 0;
	while (r->s < r->end && *r->s != '"') {
		char c = *r->s++;
		if ((unsigned char)c < 0x20) {
			r->s--;
			return jr_error(r, "control character in a string");
		}
		if (c == '\\') {
			if (r->s >= r->end)
				break;
			c = *r->s++;
			switch (c) {
			case '"':
			case '\\':
			case '/':
				break;
			case 'b':
				c = '\b';
				break;
			case 'f':
				c = '\f';
				break;
			case 'n':
				c = '\n';
				break;
			case 'r':
				c = '\r';
				break;
			case 't':
				c = '\t';
				break;
			case 'u': {
				unsigned v = 0;
				for (int k = 0; k < 4; k++) {
					if (r->s >= r->end ||
					    !isxdigit((unsigned char)*r->s))
						return jr_error(
						    r, "bad \\u escape");
					char h = *r->s++;
					v = v * 16 +
					    (unsigned)(isdigit((unsigned char)h)
							   ? h - '0'
							   : (tolower((
								  unsigned char)
									  h) -
							      'a' + 10));
				}
				c = v && v < 0x80 ? (char)v : '?';
				break;
			}
			default:
				r->s -= 2;
				return jr_error(r, "bad escape in a string");
			}
		}
		if (n + 1 >= size)
			return jr_error(
			    r, "string longer than the reader's bound");
		buf[n++] = c;
	}
	if (r->s >= r->end)
		return jr_error(r, "unterminated string");
	r->s++;
	buf[n] = 0;
	return 0;
}

/* A scalar that is not a string: a number, true, false or null. */
static int jr_word(struct jr *r, char *buf, size_t size)
{
	size_t n = 0;
	const char *start = r->s;
	while (r->s < r->end &&
	       (isalnum((unsigned char)*r->s) || *r->s == '-' || *r->s == '+' ||
		*r->s == '.')) {
		if (n + 1 >= size)
			return jr_error(r,
					"value longer than the reader's bound");
		buf[n++] = *r->s++;
	}
	buf[n] = 0;
	if (!n)
		return jr_error(r,
				r->s < r->end && (*r->s == '{' || *r->s == '[')
				    ? "nested value: these files hold flat "
				      "objects"
				    : "expected a value");
	if (strcmp(buf, "true") && strcmp(buf, "false") &&
	    strcmp(buf, "null")) {
		char *e;
		strtod(buf, &e);
		if (*e) {
			r->s = start;
			return jr_error(r, "expected a value");
		}
	}
	return 0;
}

int pmk__json_objects(const char *text, size_t len, const char *file,
		      pmk__json_fn fn, void *arg, pmk_diag *d)
{
	struct jr r = {text, text + len, file ? file : "", 1, text, d};
	char *pool = NULL;
	const char *keys[PMK__JSON_KEYS_MAX], *vals[PMK__JSON_KEYS_MAX];
	int rc = 0;
	pmk_diag_clear(d);
	if (len > PMK__JSON_FILE_MAX)
		return jr_error(&r, "file larger than the reader's bound");
	if (memchr(text, 0, len))
		return jr_error(&r, "NUL byte in the file");
	/* every string of one object fits in a pool of 2 * bound per member */
	pool =
	    malloc((size_t)PMK__JSON_KEYS_MAX * 2 * 256 + PMK__JSON_STRING_MAX);
	if (!pool)
		return PMK_ENOMEM;
	jr_blank(&r);
	if (r.s >= r.end || *r.s != '[') {
		rc = jr_error(&r, "expected '[': a perf pmu-events file is an "
				  "array of objects");
		goto out;
	}
	r.s++;
	jr_blank(&r);
	if (r.s < r.end && *r.s == ']') {
		r.s++;
		goto tail;
	}
	for (;;) {
		int n = 0, line;
		size_t used = 0;
		jr_blank(&r);
		if (r.s >= r.end || *r.s != '{') {
			rc = jr_error(&r, "expected '{'");
			goto out;
		}
		line = r.line;
		r.s++;
		jr_blank(&r);
		if (r.s < r.end && *r.s == '}')
			r.s++;
		else
			for (;;) {
				size_t room;
				jr_blank(&r);
				if (r.s >= r.end || *r.s != '"') {
					rc = jr_error(&r,
						      "expected a member name");
					goto out;
				}
				if (n == PMK__JSON_KEYS_MAX) {
					rc = jr_error(&r,
						      "more members than the "
						      "reader's bound");
					goto out;
				}
				r.s++;
				room = (size_t)PMK__JSON_KEYS_MAX * 2 * 256 +
				       PMK__JSON_STRING_MAX - used;
				if ((rc = jr_string(&r, pool + used,
						    room < 256 ? room : 256)) <
				    0)
					goto out;
				keys[n] = pool + used;
				used += strlen(pool + used) + 1;
				jr_blank(&r);
				if (r.s >= r.end || *r.s != ':') {
					rc = jr_error(&r, "expected ':'");
					goto out;
				}
				r.s++;
				jr_blank(&r);
				room = (size_t)PMK__JSON_KEYS_MAX * 2 * 256 +
				       PMK__JSON_STRING_MAX - used;
				if (room > PMK__JSON_STRING_MAX)
					room = PMK__JSON_STRING_MAX;
				if (r.s < r.end && *r.s == '"') {
					r.s++;
					rc = jr_string(&r, pool + used, room);
				} else {
					rc = jr_word(&r, pool + used,
						     room < 256 ? room : 256);
				}
				if (rc < 0)
					goto out;
				vals[n++] = pool + used;
				used += strlen(pool + used) + 1;
				jr_blank(&r);
				if (r.s < r.end && *r.s == ',') {
					r.s++;
					continue;
				}
				if (r.s < r.end && *r.s == '}') {
					r.s++;
					break;
				}
				rc = jr_error(&r, "expected ',' or '}'");
				goto out;
			}
		if (fn && (rc = fn(arg, n, keys, vals, line)) != 0)
			goto out;
		jr_blank(&r);
		if (r.s < r.end && *r.s == ',') {
			r.s++;
			continue;
		}
		if (r.s < r.end && *r.s == ']') {
			r.s++;
			break;
		}
		rc = jr_error(&r, "expected ',' or ']'");
		goto out;
	}
tail:
	jr_blank(&r);
	if (r.s < r.end)
		rc = jr_error(&r, "text after the array");
out:
	free(pool);
	return rc;
}
