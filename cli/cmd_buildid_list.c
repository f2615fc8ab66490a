/*
 * cmd_buildid_list.c: `pmkit buildid-list [-i FILE] [-k]`, perf's
 * buildid-list: the build ids of the files a recording has samples in
 * ("HEX PATH" a line: a perf.data file's header section as perf wrote it,
 * a pmkit record file's from its recorded maps), an ELF file's own, or
 * with -k the running kernel's.
 */
/* pmkit-command: buildid-list | build ids of the files a recording sampled */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/opt.h"
#include "cli/personality.h"

static const struct cli_opt bid_opts[] = {
	{'i', "input", CLI_ARG},
	{'k', "kernel", CLI_NOARG},
	{'f', "force", CLI_NOARG},
	{0},
};

struct bargs {
	const char *in;
	int kernel;
};

static int on_opt(int key, const char *val, void *arg)
{
	struct bargs *a = arg;
	if (key == 'i')
		a->in = val;
	else if (key == 'k')
		a->kernel = 1;
	return 0; /* -f: perf's "don't complain", nothing to complain of */
}

static void put_id(const pmk_rec_map *m)
{
	for (uint32_t i = 0; i < m->build_id_len; i++)
		printf("%02x", m->build_id[i]);
	printf("\n");
}

/* An ELF file given as the input: its own build id, as perf prints it */
static int elf_file(const char *path)
{
	pmk_rec_map m;
	char *abs = realpath(path, NULL); /* identify reads absolute paths */
	memset(&m, 0, sizeof m);
	snprintf(m.path, sizeof m.path, "%s", abs ? abs : path);
	free(abs);
	pmk_rec_map_identify(&m);
	if (!m.build_id_len) {
		cli_error("'%s' is neither a recording (pmkit's or perf.data) "
			  "nor an ELF file with a build id", path);
		return EXIT_USAGE;
	}
	put_id(&m);
	return 0;
}

int cmd_buildid_list(int argc, char **argv)
{
	struct bargs a = {NULL, 0};
	pmk_profile *p = NULL;
	pmk_diag d;
	int rc = cli_opt_parse_only("buildid-list", argc, argv, bid_opts,
				    on_opt, &a);
	if (rc)
		return rc;
	if (a.kernel) {
		pmk_rec_map m;
		memset(&m, 0, sizeof m);
		pmk_rec_kernel_identify(&m);
		if (!m.build_id_len) {
			cli_error("the running kernel's build id: "
				  "/sys/kernel/notes cannot be read or has none");
			return 1;
		}
		put_id(&m);
		return 0;
	}
	if (!a.in)
		a.in = cli_as_perf ? CLI_PERF_DATA : PMK_REC_DEFAULT_FILE;
	switch (pmk_rec_file_kind(a.in)) {
	case PMK_FILE_PERFDATA:
		rc = pmk_perfdata_build_ids(a.in, stdout, &d);
		if (rc != PMK_ENOENT)
			break;
		/* no header section: the files with samples, their build
		 * ids from the MMAP2 records (--buildid-mmap) */
		/* fall through */
	case PMK_FILE_RECORD:
		if ((rc = pmk_profile_load(&p, a.in, &d)) == 0) {
			rc = pmk_profile_build_ids(p, stdout);
			pmk_profile_free(p);
		}
		break;
	case 0:
		return elf_file(a.in);
	default:
		cli_error("cannot read '%s': %s", a.in, strerror(errno));
		return 1;
	}
	if (rc < 0) {
		cli_diag(&d);
		return rc == PMK_EFORMAT ? EXIT_USAGE : 1;
	}
	return fflush(stdout) ? 1 : 0;
}
