/*
 * usage.c: the manual pages of the commands as plain text, and the
 * "usage: ..." every command prints after a usage error, taken from its
 * man page's SYNOPSIS (docs/man/pmkit-COMMAND.1, embedded at build time).
 * The small roff renderer understands the macros our man pages use: .TH
 * .SH .SS .PP .LP .TP .IP .B .I .BR .IR .RS .RE .nf .fi .br .sp and the
 * \fB \fI \fR \- \(em escapes, and fills and wraps text at 78 columns.
 * It calls no other file of cli/.
 */
#include <string.h>

#include "cli/cli.h"
/* Text in fill mode is gathered into words and wrapped at 78 columns. */
struct filler {
	FILE *out;
	char line[4096];
	int len;    /* bytes in line */
	int indent; /* current left margin */
	int col;    /* column reached on the output line */
	int nofill;
};

/* Expand \fB \fI \fR \- \(em and friends into plain text. */
static void expand(const char *s, char *dst, size_t size)
{
	size_t n = 0;
	for (; *s && n + 3 < size; s++) {
		if (*s != '\\') {
			dst[n++] = *s;
			continue;
		}
		s++;
		if (*s == 'f' && s[1]) {
			s++; /* font change: dropped in plain text */
		} else if (*s == '(' && s[1] && s[2]) {
			if (!strncmp(s + 1, "em", 2))
				dst[n++] = '-', dst[n++] = '-';
			else if (!strncmp(s + 1, "mu", 2))
				dst[n++] = 'x';
			else if (!strncmp(s + 1, "+-", 2))
				dst[n++] = '+', dst[n++] = '-';
			s += 2;
		} else if (*s == '&') {
			/* zero-width */
		} else if (*s == 0) {
			break;
		} else {
			dst[n++] = *s;
		}
	}
	dst[n] = 0;
}

static void flush(struct filler *f)
{
	if (f->col > 0)
		fputc('\n', f->out);
	f->col = 0;
}

static void word(struct filler *f, const char *w, int glue)
{
	int len = (int)strlen(w);
	if (len == 0)
		return;
	if (f->col > 0 && !glue && f->col + 1 + len > 78) {
		fputc('\n', f->out);
		f->col = 0;
	}
	if (f->col == 0) {
		f->col = fprintf(f->out, "%*s", f->indent, "");
	} else if (!glue) {
		fputc(' ', f->out);
		f->col++;
	}
	f->col += fprintf(f->out, "%s", w);
}

/* Add text: split into words; `join` glues alternating-font arguments. */
static void text(struct filler *f, const char *src, int macro_args, int join)
{
	char buf[2048], *p, *save = NULL;
	int first = 1;
	if (f->nofill) {
		expand(src, buf, sizeof buf);
		fprintf(f->out, "%*s%s\n", f->indent, "", buf);
		return;
	}
	if (macro_args) {
		/* arguments: quoted strings keep their spaces */
		char arg[1024];
		const char *s = src;
		while (*s) {
			size_t n = 0;
			while (*s == ' ')
				s++;
			if (!*s)
				break;
			if (*s == '"') {
				s++;
				while (*s && *s != '"' && n + 1 < sizeof arg)
					arg[n++] = *s++;
				if (*s == '"')
					s++;
			} else {
				while (*s && *s != ' ' && n + 1 < sizeof arg)
					arg[n++] = *s++;
			}
			arg[n] = 0;
			expand(arg, buf, sizeof buf);
			if (join && !first) {
				word(f, buf, 1);
			} else {
				/* an argument may hold spaces: words */
				char *q = strtok_r(buf, " ", &save);
				for (int k = 0; q; k++) {
					word(f, q, 0);
					q = strtok_r(NULL, " ", &save);
				}
			}
			first = 0;
		}
		return;
	}
	expand(src, buf, sizeof buf);
	for (p = strtok_r(buf, " \t", &save); p; p = strtok_r(NULL, " \t", &save))
		word(f, p, 0);
}

static int render(const char *src, FILE *out)
{
	struct filler f;
	const char *p = src;
	char line[1024];
	int tp = 0;

	memset(&f, 0, sizeof f);
	f.out = out;
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		char *mac, *arg;
		if (len >= sizeof line)
			len = sizeof line - 1;
		memcpy(line, p, len);
		line[len] = 0;
		p = nl ? nl + 1 : p + len;

		if (line[0] != '.' && line[0] != '\'') {
			if (!line[0] && !f.nofill) {
				flush(&f);
				fputc('\n', out);
				continue;
			}
			text(&f, line, 0, 0);
			goto after_text;
		}
		mac = line + 1;
		arg = strchr(line, ' ');
		if (arg)
			*arg++ = 0;
		else
			arg = "";
		if (!strncmp(mac, "\\\"", 2) || !strcmp(mac, "TH"))
			continue;
		if (!strcmp(mac, "SH") || !strcmp(mac, "SS")) {
			flush(&f);
			fputc('\n', out);
			f.indent = mac[1] == 'H' ? 0 : 3;
			text(&f, arg, 1, 0);
			flush(&f);
			f.indent = 7;
			continue;
		}
		if (!strcmp(mac, "PP") || !strcmp(mac, "LP") || !strcmp(mac, "P")) {
			flush(&f);
			fputc('\n', out);
			f.indent = 7;
			continue;
		}
		if (!strcmp(mac, "TP")) {
			flush(&f);
			fputc('\n', out);
			f.indent = 7;
			tp = 1;
			continue;
		}
		if (!strcmp(mac, "IP")) {
			flush(&f);
			f.indent = 7;
			text(&f, arg, 1, 0);
			flush(&f);
			f.indent = 11;
			continue;
		}
		if (!strcmp(mac, "RS")) {
			flush(&f);
			f.indent += 4;
			continue;
		}
		if (!strcmp(mac, "RE")) {
			flush(&f);
			f.indent = f.indent > 11 ? f.indent - 4 : 7;
			continue;
		}
		if (!strcmp(mac, "nf") || !strcmp(mac, "EX")) {
			flush(&f);
			f.nofill = 1;
			continue;
		}
		if (!strcmp(mac, "fi") || !strcmp(mac, "EE")) {
			f.nofill = 0;
			continue;
		}
		if (!strcmp(mac, "br")) {
			flush(&f);
			continue;
		}
		if (!strcmp(mac, "sp")) {
			flush(&f);
			fputc('\n', out);
			continue;
		}
		/* .B .I (one font), .BR .IR .RB .RI .BI .IB (alternating) */
		text(&f, arg, 1, mac[1] != 0);
after_text:
		if (tp) { /* the line after .TP is the tag */
			tp = 0;
			flush(&f);
			f.indent = 14;
		}
	}
	flush(&f);
	return 0;
}

int cli_man_render(const char *name, FILE *out)
{
	char want[64];
	if (!strncmp(name, "pmkit", 5))
		snprintf(want, sizeof want, "%s", name);
	else
		snprintf(want, sizeof want, "pmkit-%s", name);
	for (const struct cli_manpage *m = cli_manpages; m->name; m++)
		if (!strcmp(m->name, want))
			return render(m->text, out);
	return -1;
}

int cli_usage(const char *cmd)
{
	char want[64];
	snprintf(want, sizeof want, "pmkit-%s", cmd);
	for (const struct cli_manpage *m = cli_manpages; m->name; m++) {
		const char *s, *e;
		if (strcmp(m->name, want))
			continue;
		s = strstr(m->text, ".SH SYNOPSIS\n");
		if (!s)
			break;
		s += strlen(".SH SYNOPSIS\n");
		e = strstr(s, "\n.SH");
		fputs("usage:\n", stderr);
		{
			char buf[4096];
			size_t n = e ? (size_t)(e - s) + 1 : strlen(s);
			if (n >= sizeof buf)
				n = sizeof buf - 1;
			memcpy(buf, s, n);
			buf[n] = 0;
			render(buf, stderr);
		}
		fprintf(stderr, "'pmkit help %s' shows the manual\n", cmd);
		return EXIT_USAGE;
	}
	fprintf(stderr, "usage: pmkit %s ... ('pmkit help %s')\n", cmd, cmd);
	return EXIT_USAGE;
}
