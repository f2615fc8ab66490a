/*
 * defs.h: the parsed form of a definition file. Internal to lib/derive.
 *
 * read.c turns lines into definitions (each a postfix token list with its
 * source positions); compile.c resolves names, rejects cycles, inlines
 * constants and other user events and folds constants, giving each user
 * event a program over the file's base events.
 */
#ifndef PMK_DERIVE_DEFS_H
#define PMK_DERIVE_DEFS_H

#include "pmkit/derive.h"

enum { TOK_NUM = 1, TOK_NAME, TOK_OP };

struct dtok {
	int kind; /* TOK_* */
	int op;	  /* PMK_OP_ADD..PMK_OP_NEG for TOK_OP */
	double num;
	char *name; /* TOK_NAME, owned */
	int line, col, len;
	int file; /* index into pmk_defs.files */
};

/* One step of a compiled program: like pmk_op, with a wide leaf index
 * (into pmk_defs.bases). */
struct dop {
	int code;
	int arg;
	double value;
};

struct ddef {
	char *name;
	int is_const;
	int active; /* in a selected CPU section (or outside any) */
	int file, line, col;
	char *text, *desc;
	char *input; /* the source line, for diagnostics */
	struct dtok *toks;
	int ntok;
	/* compile.c */
	int state; /* 0 new, 1 in progress, 2 done */
	struct dop *prog;
	int nprog;
	double value; /* constants */
	int *bases;   /* distinct base indices, first-use order */
	int nbases;
};

struct dbase {
	char *name;
	int rc; /* resolver's answer: 0, or PMK_ENOTSUP, or 1 = symbolic */
	pmk_event ev;
};

struct pmk_defs {
	pmk_defs_opts opts;
	char model[64];
	char **files;
	int nfiles;
	struct ddef *defs;
	int ndefs, capdefs;
	int *events; /* indices of active non-constant defs */
	int nevents;
	struct dbase *bases;
	int nbases, capbases;
	/* the text read (includes too), and the steps and base references
	 * of every compiled program: memory stays within a constant of the
	 * input (PROG_PER_BYTE in compile.c) */
	size_t text_bytes, total_steps;
};

/* read.c: parse `text` as file `fileidx` into defs (appending); handles
 * includes recursively. */
int pmk__defs_read(pmk_defs *defs, int fileidx, const char *text, int depth,
		   int active, pmk_diag *d);
/* Add a file name to defs->files; returns its index or a negative code. */
int pmk__defs_add_file(pmk_defs *defs, const char *path);
/* Fill `d` for a problem at (file, line, col, len) with the source line. */
void pmk__defs_error(pmk_diag *d, int code, const pmk_defs *defs, int file,
		     int line, const char *input, int col, int len,
		     const char *fmt, ...)
    __attribute__((format(printf, 9, 10)));
/* Read a whole file into a NUL-terminated buffer (caller frees). */
int pmk__read_whole(const char *path, char **out, size_t *len, pmk_diag *d);

/* compile.c */
int pmk__defs_compile(pmk_defs *defs, pmk_diag *d);

/* resolve.c: the default resolver and the model it uses. */
int pmk__defs_default_resolve(const char *name, pmk_event *ev, pmk_diag *d,
			      void *arg);
/* Prepare the default resolver's state for `model` (NULL: host). Returns
 * an opaque argument for pmk__defs_default_resolve, and the model in use. */
void *pmk__defs_resolver_new(const char *model, char *model_out,
			     size_t model_size, pmk_diag *d, int *rc);
void pmk__defs_resolver_free(void *arg);
/* Whether a definition's name is already an event of the default
 * resolver's target. */
int pmk__defs_default_is_event(const char *name, void *arg);

#endif
