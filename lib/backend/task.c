/*
 * task.c: the threads of a process, read from /proc (see task.h).
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/backend/task.h"
#include "pmkit/error.h"

int pmk_task_threads(int pid, int *tids, int max)
{
	char path[64];
	DIR *dir;
	struct dirent *de;
	int n = 0;
	if (pid <= 0 || max <= 0)
		return PMK_EINVAL;
	snprintf(path, sizeof path, "/proc/%d/task", pid);
	if (!(dir = opendir(path)))
		return PMK_ENOENT;
	tids[n++] = pid; /* the process's first thread, in its place first */
	while ((de = readdir(dir)) != NULL && n < max) {
		int t = atoi(de->d_name);
		if (t > 0 && t != pid)
			tids[n++] = t;
	}
	closedir(dir);
	return n;
}

int pmk_task_tgid(int tid)
{
	char path[64], line[128];
	int tg = tid;
	FILE *f;
	snprintf(path, sizeof path, "/proc/%d/status", tid);
	if (!(f = fopen(path, "re")))
		return tid;
	while (fgets(line, sizeof line, f))
		if (!strncmp(line, "Tgid:", 5)) {
			tg = atoi(line + 5);
			break;
		}
	fclose(f);
	return tg > 0 ? tg : tid;
}

int pmk_task_alive(int tid)
{
	char path[64];
	struct stat st;
	snprintf(path, sizeof path, "/proc/%d/task/%d", pmk_task_tgid(tid),
		 tid);
	return stat(path, &st) == 0;
}
