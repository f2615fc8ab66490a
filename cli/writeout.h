/*
 * cli/writeout.h: a command's output file (an SVG, a table) written the
 * safe way (lib/core/outfile.c: a new file beside the name, renamed into
 * place, the old one kept as NAME.old) with the same messages in every
 * command: the reason when it cannot be opened or written, "wrote NAME"
 * on stderr when it was.
 */
#ifndef PMK_CLI_WRITEOUT_H
#define PMK_CLI_WRITEOUT_H
#include <stdio.h>

/* Open `path` for writing; NULL after the reason is said. */
FILE *cli_out_open(const char *path);
/* Close `f` from cli_out_open (NULL: returns 1). `ok` false (the writer
 * failed) drops the new file and says "cannot write 'PATH'"; otherwise the
 * file is renamed into place and "PREFIXwrote PATH" is said (`prefix` may
 * be ""). 0, or 1 after the reason is said. */
int cli_out_close(FILE *f, const char *path, int ok, const char *prefix);

#endif
