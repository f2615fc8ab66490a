/*
 * stdin_file.c: standard input saved to an unnamed temporary file, for
 * `report -i -` and `script -i -` (cli/stdin_file.h). The readers map
 * their input and read it twice, which a pipe cannot give them.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/stdin_file.h"

const char *cli_stdin_file(void)
{
	static char path[64];
	static FILE *tmp; /* open until exit: the path names it */
	char buf[65536];
	ssize_t n;
	if (tmp)
		return path;
	if (!(tmp = tmpfile())) {
		cli_error("cannot create a temporary file for standard input: "
			  "%s",
			  strerror(errno));
		return NULL;
	}
	for (;;) {
		n = read(0, buf, sizeof buf);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (fwrite(buf, 1, (size_t)n, tmp) != (size_t)n) {
			n = -1;
			break;
		}
	}
	if (n < 0 || fflush(tmp)) {
		cli_error("cannot read standard input: %s", strerror(errno));
		fclose(tmp);
		tmp = NULL;
		return NULL;
	}
	snprintf(path, sizeof path, "/proc/self/fd/%d", fileno(tmp));
	return path;
}
