/*
 * textout.c: strings into XML and JSON (textout.h).
 *
 * Names that reach these writers come from files and from other programs
 * (symbol names, command lines, event names), so they may hold any bytes.
 * Both formats must be valid UTF-8: well-formed UTF-8 sequences pass
 * through unchanged, and any other byte is written as U+FFFD.
 */
#include "lib/core/textout.h"

int pmk__utf8_len(const char *p)
{
	const unsigned char *s = (const unsigned char *)p;
	int n;
	unsigned lo = 0x80, hi = 0xbf;
	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4;
	else
		return 0; /* continuation byte, overlong lead, or > U+10FFFF */
	/* The second byte's range rules out overlong forms, surrogates and
	 * code points past U+10FFFF (RFC 3629, section 4). */
	if (s[0] == 0xe0)
		lo = 0xa0;
	else if (s[0] == 0xed)
		hi = 0x9f;
	else if (s[0] == 0xf0)
		lo = 0x90;
	else if (s[0] == 0xf4)
		hi = 0x8f;
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (int i = 2; i < n; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return n;
}

void pmk__xml_text(FILE *f, const char *s)
{
	while (s && *s) {
		unsigned char c = (unsigned char)*s;
		int n = pmk__utf8_len(s);
		if (c == '<')
			fputs("&lt;", f);
		else if (c == '>')
			fputs("&gt;", f);
		else if (c == '&')
			fputs("&amp;", f);
		else if (c == '"')
			fputs("&quot;", f);
		else if (n == 0 ||
			 (c < 0x20 && c != '\t' && c != '\n' && c != '\r'))
			fputs("\xef\xbf\xbd", f); /* not allowed in XML 1.0 */
		else
			fwrite(s, 1, (size_t)n, f);
		s += n ? n : 1;
	}
}

void pmk__json_str(FILE *f, const char *s)
{
	fputc('"', f);
	while (s && *s) {
		unsigned char c = (unsigned char)*s;
		int n = pmk__utf8_len(s);
		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else if (n == 0)
			fputs("\\ufffd", f);
		else
			fwrite(s, 1, (size_t)n, f);
		s += n ? n : 1;
	}
	fputc('"', f);
}
