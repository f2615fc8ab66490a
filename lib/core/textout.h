/*
 * textout.h: writing strings into XML (SVG) and JSON. Internal.
 */
#ifndef PMK_CORE_TEXTOUT_H
#define PMK_CORE_TEXTOUT_H

#include <stdio.h>

/* Length of the well-formed UTF-8 sequence at `s` (1 to 4; 1 for ASCII,
 * including NUL), or 0 if the byte at `s` does not start one. Never reads
 * past a NUL. */
int pmk__utf8_len(const char *s);
/* `s` as XML character data or attribute value: < > & " escaped; bytes
 * that are not well-formed UTF-8, and control characters other than tab,
 * newline and carriage return, as U+FFFD. NULL writes nothing. */
void pmk__xml_text(FILE *f, const char *s);
/* `s` as a quoted JSON string: " and \ escaped, control characters as
 * \u00XX, well-formed UTF-8 as it is, any other byte as \ufffd. NULL
 * writes "". */
void pmk__json_str(FILE *f, const char *s);

#endif
