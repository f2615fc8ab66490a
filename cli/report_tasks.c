/*
 * report_tasks.c: `report --task` (cli/report_tasks.h). The tasks come
 * from the recording's COMM and FORK records and its samples, read with
 * the record-file reader (a perf.data file is converted first, into an
 * unnamed temporary file). The layout is perf report --task's: a header
 * line, the idle task (pid 0) first, then every task whose parent was not
 * recorded, each followed by its children one column further in, in the
 * order of their ids.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/report_tasks.h"

struct task {
	int pid, tid, ppid;
	char comm[32];
	int named; /* comm from a COMM record */
	int done;
};

struct tasks {
	struct task *t;
	int n, cap;
};

static struct task *task_get(struct tasks *ts, int pid, int tid)
{
	struct task *t;
	for (int i = 0; i < ts->n; i++)
		if (ts->t[i].tid == tid)
			return &ts->t[i];
	if (ts->n == ts->cap) {
		int cap = ts->cap ? ts->cap * 2 : 64;
		struct task *m = realloc(ts->t, (size_t)cap * sizeof *m);
		if (!m)
			return NULL;
		ts->t = m;
		ts->cap = cap;
	}
	t = &ts->t[ts->n++];
	memset(t, 0, sizeof *t);
	t->pid = pid;
	t->tid = tid;
	t->ppid = -1;
	snprintf(t->comm, sizeof t->comm, ":%d", tid);
	return t;
}

static void print_tree(struct tasks *ts, struct task *t, int level, FILE *out)
{
	t->done = 1;
	fprintf(out, "%10d %8d %8d |%*s%s\n", t->pid, t->tid, t->ppid, level,
		"", t->comm);
	for (int i = 0; i < ts->n; i++)
		if (!ts->t[i].done && ts->t[i].ppid == t->pid &&
		    ts->t[i].pid != t->pid)
			print_tree(ts, &ts->t[i], level + 1, out);
}

static int by_pid(const void *a, const void *b)
{
	const struct task *x = a, *y = b;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return (x->tid > y->tid) - (x->tid < y->tid);
}

static int known(const struct tasks *ts, int pid)
{
	for (int i = 0; i < ts->n; i++)
		if (ts->t[i].pid == pid)
			return 1;
	return 0;
}

int cli_report_tasks(const char *path, FILE *out)
{
	struct tasks ts = {0};
	pmk_rec_reader *r;
	pmk_rec_item it;
	pmk_diag d;
	FILE *tmp = NULL;
	char tpath[64];
	int rc, kind = pmk_rec_file_kind(path);
	if (kind == PMK_FILE_PERFDATA) {
		if (!(tmp = tmpfile())) {
			cli_error("cannot create a temporary file: %s",
				  strerror(errno));
			return 1;
		}
		snprintf(tpath, sizeof tpath, "/proc/self/fd/%d", fileno(tmp));
		if (pmk_perfdata_to_rec(path, tpath, PMK_PERFDATA_NO_BACKUP,
					&d) < 0) {
			cli_diag(&d);
			fclose(tmp);
			return 1;
		}
		path = tpath;
	}
	if (pmk_rec_reader_open(&r, path, &d) < 0) {
		cli_diag(&d);
		if (tmp)
			fclose(tmp);
		return 1;
	}
	task_get(&ts, 0, 0); /* the idle task, as perf shows it */
	if (ts.t)
		snprintf(ts.t[0].comm, sizeof ts.t[0].comm, "swapper");
	while ((rc = pmk_rec_next(r, &it, &d)) > 0) {
		struct task *t = NULL;
		if (it.kind == PMK_REC_COMM) {
			t = task_get(&ts, (int)it.u.comm.pid,
				     (int)it.u.comm.tid);
			if (t) {
				snprintf(t->comm, sizeof t->comm, "%s",
					 it.u.comm.comm);
				t->named = 1;
			}
		} else if (it.kind == PMK_REC_FORK) {
			struct task *parent;
			t = task_get(&ts, (int)it.u.task.pid,
				     (int)it.u.task.tid);
			parent = t ? task_get(&ts, (int)it.u.task.ppid,
					      (int)it.u.task.ptid)
				   : NULL;
			/* a new process: its parent's process; a thread keeps
			 * its process's parent */
			t = task_get(&ts, (int)it.u.task.pid,
				     (int)it.u.task.tid);
			if (t && parent && it.u.task.pid != it.u.task.ppid)
				t->ppid = (int)it.u.task.ppid;
			if (t && parent && !t->named)
				snprintf(t->comm, sizeof t->comm, "%s",
					 parent->comm);
		} else if (it.kind == PMK_REC_SAMPLE) {
			t = task_get(&ts, (int)it.u.sample.pid,
				     (int)it.u.sample.tid);
		}
		(void)t;
	}
	pmk_rec_reader_close(r);
	if (tmp)
		fclose(tmp);
	if (rc < 0) {
		cli_diag(&d);
		free(ts.t);
		return 1;
	}
	qsort(ts.t, (size_t)ts.n, sizeof *ts.t, by_pid);
	fprintf(out, "#      pid      tid     ppid  comm\n");
	for (int i = 0; i < ts.n; i++)
		if (!ts.t[i].done &&
		    (ts.t[i].ppid < 0 || !known(&ts, ts.t[i].ppid)))
			print_tree(&ts, &ts.t[i], 0, out);
	free(ts.t);
	return 0;
}
