/* test_textout.c: the shared JSON-string and XML-text writers keep UTF-8,
 * escape what each format needs, and never emit bytes that are not UTF-8. */
#include <stdlib.h>
#include <string.h>

#include "lib/core/textout.h"
#include "tests/support/t.h"

/* What `fn` writes for `s`, in a static buffer. */
static const char *written(void (*fn)(FILE *, const char *), const char *s)
{
	static char buf[256];
	FILE *f;
	memset(buf, 0, sizeof buf);
	f = fmemopen(buf, sizeof buf, "w");
	if (!f)
		return "";
	fn(f, s);
	fclose(f);
	return buf;
}

static void test_utf8_len_accepts_well_formed_sequences(void)
{
	T_EQ_INT(pmk__utf8_len("a"), 1);
	T_EQ_INT(pmk__utf8_len("\x7f"), 1);
	T_EQ_INT(pmk__utf8_len("\xc3\xa9"), 2);		/* é */
	T_EQ_INT(pmk__utf8_len("\xe2\x82\xac"), 3);	/* € */
	T_EQ_INT(pmk__utf8_len("\xf0\x9f\x94\xa5"), 4); /* U+1F525 */
	T_EQ_INT(pmk__utf8_len("\xf4\x8f\xbf\xbf"), 4); /* U+10FFFF */
}

static void test_utf8_len_rejects_malformed_bytes(void)
{
	T_EQ_INT(pmk__utf8_len("\x80"), 0);		/* lone continuation */
	T_EQ_INT(pmk__utf8_len("\xc0\xaf"), 0);		/* overlong '/' */
	T_EQ_INT(pmk__utf8_len("\xe0\x80\xaf"), 0);	/* overlong */
	T_EQ_INT(pmk__utf8_len("\xed\xa0\x80"), 0);	/* surrogate D800 */
	T_EQ_INT(pmk__utf8_len("\xf4\x90\x80\x80"), 0); /* past U+10FFFF */
	T_EQ_INT(pmk__utf8_len("\xff"), 0);
	T_EQ_INT(pmk__utf8_len("\xc3"), 0);	/* cut short by the NUL */
	T_EQ_INT(pmk__utf8_len("\xe2\x82"), 0); /* cut short by the NUL */
	T_EQ_INT(pmk__utf8_len("\xc3"
			       "a"),
		 0);
}

static void test_json_keeps_utf8_and_replaces_other_bytes(void)
{
	T_EQ_STR(written(pmk__json_str, "caf\xc3\xa9::\xe2\x82\xac"),
		 "\"caf\xc3\xa9::\xe2\x82\xac\"");
	T_EQ_STR(written(pmk__json_str, "a\"b\\c\n\x01\x7f"),
		 "\"a\\\"b\\\\c\\u000a\\u0001\x7f\"");
	T_EQ_STR(written(pmk__json_str, "x\xffy\xc3"), "\"x\\ufffdy\\ufffd\"");
	T_EQ_STR(written(pmk__json_str, NULL), "\"\"");
}

static void test_xml_escapes_markup_and_replaces_what_xml_forbids(void)
{
	T_EQ_STR(written(pmk__xml_text, "a<b>&\"c\" \xc3\xa9"),
		 "a&lt;b&gt;&amp;&quot;c&quot; \xc3\xa9");
	T_EQ_STR(written(pmk__xml_text, "t\tn\n\x01z\xfe"),
		 "t\tn\n\xef\xbf\xbdz\xef\xbf\xbd");
	T_EQ_STR(written(pmk__xml_text, NULL), "");
}

int main(void)
{
	T_RUN(test_utf8_len_accepts_well_formed_sequences);
	T_RUN(test_utf8_len_rejects_malformed_bytes);
	T_RUN(test_json_keeps_utf8_and_replaces_other_bytes);
	T_RUN(test_xml_escapes_markup_and_replaces_what_xml_forbids);
	return t_done();
}
