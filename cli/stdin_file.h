/*
 * cli/stdin_file.h: `-i -` for the commands that read a recording (report,
 * script): standard input (a pipe from `record -o -`, pmkit's or perf's)
 * copied into an unnamed temporary file that the readers open by a path,
 * as they open any file.
 */
#ifndef PMK_CLI_STDIN_FILE_H
#define PMK_CLI_STDIN_FILE_H

/* Copy standard input to its end into an unnamed temporary file, kept
 * open until pmkit exits, and return a path that opens it
 * ("/proc/self/fd/N"); NULL after the reason is said. */
const char *cli_stdin_file(void);

#endif
