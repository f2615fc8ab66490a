/*
 * cmd_help.c: `pmkit help [COMMAND]`, and the small roff renderer that
 * shows docs/man/pmkit-COMMAND.1 (embedded at build time) as plain text.
 * It understands the macros our man pages use: .TH .SH .SS .PP .LP .TP .IP
 * .B .I .BR .IR .RS .RE .nf .fi .br and the \fB \fI \fR \- \(em escapes.
 */
/* pmkit-command: help | show the manual of a command */
#include <string.h>

#include "cli/cli.h"

static void put_inline(const char *s, FILE *out)
{
	for (; *s; s++) {
		if (*s != '\\') {
			fputc(*s, out);
			continue;
		}
		s++;
		if (*s == 'f' && s[1]) {
			s++; /* font change: drop */
		} else if (*s == '(' && s[1] && s[2]) {
			if (!strncmp(s + 1, "em", 2))
				fputs("--", out);
			else if (!strncmp(s + 1, "mu", 2))
				fputc('x', out);
			else if (!strncmp(s + 1, "+-", 2))
				fputs("+-", out);
			s += 2;
		} else if (*s == '-' || *s == '\\' || *s == '.' || *s == ' ') {
			fputc(*s, out);
		} else if (*s == '&') {
			/* zero-width */
		} else if (*s == 0) {
			break;
		} else {
			fputc(*s, out);
		}
	}
}

/* Alternating-font macros (.BR, .IR): join the arguments without spaces. */
static void put_args(const char *s, int join, FILE *out)
{
	int inq = 0;
	for (; *s; s++) {
		if (*s == '"') {
			inq = !inq;
			continue;
		}
		if (*s == ' ' && !inq && join)
			continue;
		if (*s == '\\' && s[1]) {
			char tmp[3] = {s[0], s[1], 0};
			put_inline(tmp, out);
			s++;
			continue;
		}
		fputc(*s, out);
	}
}

static int render(const char *text, FILE *out)
{
	const char *p = text;
	int indent = 0, tp = 0, nofill = 0;
	char line[1024];

	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		if (len >= sizeof line)
			len = sizeof line - 1;
		memcpy(line, p, len);
		line[len] = 0;
		p = nl ? nl + 1 : p + len;

		if (line[0] == '.' || line[0] == '\'') {
			char *arg = strchr(line, ' ');
			char *mac = line + 1;
			if (arg)
				*arg++ = 0;
			else
				arg = "";
			if (!strcmp(mac, "\\\"") || !strncmp(mac, "\\\"", 2))
				continue;
			if (!strcmp(mac, "TH"))
				continue;
			if (!strcmp(mac, "SH")) {
				fputc('\n', out);
				put_args(arg, 0, out);
				fputc('\n', out);
				indent = 7;
				continue;
			}
			if (!strcmp(mac, "SS")) {
				fprintf(out, "\n   ");
				put_args(arg, 0, out);
				fputc('\n', out);
				continue;
			}
			if (!strcmp(mac, "PP") || !strcmp(mac, "LP") ||
			    !strcmp(mac, "P")) {
				fputc('\n', out);
				indent = 7;
				continue;
			}
			if (!strcmp(mac, "TP")) {
				fputc('\n', out);
				tp = 1;
				continue;
			}
			if (!strcmp(mac, "IP")) {
				fprintf(out, "\n%*s", indent, "");
				put_args(arg, 0, out);
				fputc('\n', out);
				continue;
			}
			if (!strcmp(mac, "RS")) {
				indent += 4;
				continue;
			}
			if (!strcmp(mac, "RE")) {
				indent = indent > 7 ? indent - 4 : 7;
				continue;
			}
			if (!strcmp(mac, "nf") || !strcmp(mac, "EX")) {
				nofill = 1;
				continue;
			}
			if (!strcmp(mac, "fi") || !strcmp(mac, "EE")) {
				nofill = 0;
				continue;
			}
			if (!strcmp(mac, "br") || !strcmp(mac, "sp")) {
				if (!strcmp(mac, "sp"))
					fputc('\n', out);
				continue;
			}
			/* .B .I .BR .IR .RB .RI .BI .IB: text with fonts */
			fprintf(out, "%*s", tp ? 7 : indent, "");
			put_args(arg, mac[1] != 0, out);
			fputc('\n', out);
			if (tp) {
				tp = 0;
				indent = 14;
			}
			continue;
		}
		fprintf(out, "%*s", tp ? 7 : indent, "");
		put_inline(line, out);
		fputc('\n', out);
		if (tp) {
			tp = 0;
			indent = 14;
		}
		(void)nofill;
	}
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

int cmd_help(int argc, char **argv)
{
	if (argc < 2) {
		if (cli_man_render("pmkit", stdout) != 0)
			return 1;
		printf("\nCOMMANDS\n");
		for (const struct cli_command *c = cli_commands; c->name; c++)
			printf("       %-10s %s\n", c->name, c->summary);
		return 0;
	}
	if (cli_man_render(argv[1], stdout) != 0) {
		cli_error("no manual for '%s'", argv[1]);
		fprintf(stderr, "hint: 'pmkit help' lists the commands\n");
		return EXIT_USAGE;
	}
	return 0;
}
