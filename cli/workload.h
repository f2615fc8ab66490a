/*
 * workload.h: starting the program a command measures, and its status.
 */
#ifndef PMK_CLI_WORKLOAD_H
#define PMK_CLI_WORKLOAD_H

#include <sys/types.h>

struct workload {
	pid_t pid;
	int go_fd;  /* write end: one byte lets the child go on */
	int err_fd; /* read end: the child's exec errno, or EOF on success */
};

/* Fork a child that waits for workload_start(), then runs argv (execvp)
 * or, when argv is NULL, the built-in workload. 0, or -1 with errno. */
int workload_prepare(struct workload *w, char **argv);
/* Let the child run. Returns 0, or the exec errno when exec failed. */
int workload_start(struct workload *w);
/* Wait for the child; returns its exit status as a shell would: the code,
 * 128+N for signal N, 127 not found, 126 not executable. */
int workload_wait(struct workload *w);
/* Whether the child has ended (non-blocking); stores the status. */
int workload_poll(struct workload *w, int *status);
/* Shell-style status from a waitpid() status. */
int workload_status(int wstatus);
/* The built-in workload: about 0.2 s of arithmetic, branches and a
 * pointer chase over 16 MiB. Returns a checksum. */
unsigned long workload_builtin(void);

#endif
