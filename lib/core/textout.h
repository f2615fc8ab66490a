/*
 * textout.h: writing strings into XML (SVG) and JSON. Internal.
 */
#ifndef PMK_CORE_TEXTOUT_H
#define PMK_CORE_TEXTOUT_H

#include <stdio.h>

/* `s` as XML character data or attribute value: < > & " escaped. NULL
 * writes nothing. */
void pmk__xml_text(FILE *f, const char *s);
/* `s` as a quoted JSON string: " and \ escaped, control characters as
 * \u00XX, other bytes as they are. NULL writes "". */
void pmk__json_str(FILE *f, const char *s);

#endif
