/*
 * h_runas.c: `h_runas UID COMMAND [ARG...]` runs COMMAND as UID (and group
 * UID) with no supplementary groups; the guest's busybox has no setuidgid.
 */
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: h_runas UID COMMAND [ARG...]\n");
		return 2;
	}
	uid_t id = (uid_t)atoi(argv[1]);
	if (setgroups(0, NULL) || setgid(id) || setuid(id)) {
		perror("h_runas");
		return 126;
	}
	execvp(argv[2], argv + 2);
	perror(argv[2]);
	return 127;
}
