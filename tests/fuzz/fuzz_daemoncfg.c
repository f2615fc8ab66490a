/*
 * fuzz_daemoncfg.c: the config parser of `pmkit daemon`
 * (cli/daemon_config.c) on arbitrary bytes. A parse that succeeds must
 * give what the daemon relies on: an absolute base or none, sessions with
 * valid names and a run line; a failure must name a line of the input.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli/daemon_config.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct dcfg c;
	struct dcfg_err e;
	int lines = 1;
	for (size_t i = 0; i < size; i++)
		lines += data[i] == '\n';
	if (dcfg_parse((const char *)data, size, &c, &e) != 0) {
		if (e.line < 1 || e.line > lines || !e.msg[0])
			abort();
		return 0;
	}
	if (c.base[0] && c.base[0] != '/')
		abort();
	for (int i = 0; i < c.nsess; i++)
		if (!name_ok(c.sess[i].name, strlen(c.sess[i].name)) ||
		    !c.sess[i].run[0] || dcfg_find(&c, c.sess[i].name) == NULL)
			abort();
	return 0;
}
