/*
 * cmd_mpi.c: `pmkit mpi report`: an MPI job's per-rank data again, from
 * the JSON that libpmkit-mpi's rank 0 wrote at MPI_Finalize, or merged from
 * the per-rank files of PMKIT_MPI_DIR (or of `pmkit stat` under mpirun)
 * with --mpi-merge DIR, which names the ranks that left no file.
 *
 *   pmkit mpi report pmkit-mpi.json            the banner
 *   pmkit mpi report --csv FILE.json           one row per rank and quantity
 *   pmkit mpi report --svg job.svg FILE.json   per-rank bars: compute vs MPI
 *                                              time, and one event (--event)
 *   pmkit mpi report --comm-svg comm.svg FILE.json
 *                                              who talks to whom: bytes per
 *                                              rank pair as a heat map
 *   pmkit mpi report --html job.html FILE.json one self-contained page
 *   pmkit mpi report --mpi-merge DIR [--json merged.json]
 *
 * Exit status: 0; 1 when a file cannot be written or ranks are missing
 * from a merge; 2 for bad usage or input that is not a pmkit-mpi file
 * (read through lib/core/infile.h: regular files only, 64 MiB unless
 * PMK_INPUT_MAX says otherwise).
 */
/* pmkit-command: mpi | MPI jobs: per-rank report of libpmkit-mpi's JSON */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/opt.h"
#include "cli/subcmd.h"
#include "lib/core/infile.h"
#include "mpi/comm.h"
#include "mpi/job.h"

static int load(struct pmk__mpi_job *job, const char *path)
{
	size_t len;
	char err[200], *text = NULL;
	pmk_diag d;
	int rc = pmk__infile_read(path, 0, 0, &text, &len, &d);
	if (rc) {
		cli_diag(&d);
		return EXIT_USAGE;
	}
	rc = pmk__mpi_json_read(job, text, len, err, sizeof err);
	free(text);
	if (rc) {
		cli_error("%s: %s", path, err[0] ? err : pmk_strerror(rc));
		return EXIT_USAGE;
	}
	return 0;
}

static int is_rank_file(const char *name)
{
	size_t n = strlen(name);
	const char *p = name + strlen("pmkit-mpi.");
	if (strncmp(name, "pmkit-mpi.", 10) || n < 16 ||
	    strcmp(name + n - 5, ".json"))
		return 0;
	for (; p < name + n - 5; p++)
		if (*p < '0' || *p > '9')
			return 0;
	return 1;
}

/* Every DIR/pmkit-mpi.RANK.json into one job. */
static int merge_dir(struct pmk__mpi_job *job, const char *dir, int *nfiles)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL;
	int n = 0, cap = 0, rc = 0;
	if (!d) {
		cli_error("cannot open directory '%s': %s", dir, strerror(errno));
		return EXIT_USAGE;
	}
	while ((e = readdir(d))) {
		if (!is_rank_file(e->d_name))
			continue;
		if (n == cap) {
			int nc = cap ? cap * 2 : 64;
			char **nn = realloc(names, sizeof *nn * (size_t)nc);
			if (!nn)
				break;
			names = nn;
			cap = nc;
		}
		names[n++] = strdup(e->d_name);
	}
	closedir(d);
	for (int i = 0; i < n && !rc; i++) {
		char path[4096];
		if (!names[i])
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, names[i]);
		rc = load(job, path);
	}
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(names);
	*nfiles = n;
	if (!rc && n == 0) {
		cli_error("no pmkit-mpi.RANK.json files in '%s'", dir);
		rc = EXIT_USAGE;
	}
	return rc;
}

/* Write what `fn` prints to `path` ("-": stdout) safely. */
static int write_out(const char *path, const struct pmk__mpi_job *job,
		     void (*fn)(FILE *, const struct pmk__mpi_job *, int),
		     int arg)
{
	char *text = NULL;
	size_t len = 0;
	pmk_diag d;
	FILE *m;
	int rc;
	if (!strcmp(path, "-")) {
		fn(stdout, job, arg);
		return fflush(stdout) == 0 ? 0 : 1;
	}
	m = open_memstream(&text, &len);
	if (!m) {
		cli_error("out of memory");
		return 1;
	}
	fn(m, job, arg);
	fclose(m);
	rc = pmk__mpi_write_file(path, text, len, &d);
	free(text);
	if (rc) {
		cli_error("%s", d.message);
		return 1;
	}
	return 0;
}

/* The banner, then the communication picture's tables (mpi/comm.h) when
 * the records have one. */
static void w_banner(FILE *f, const struct pmk__mpi_job *job, int top)
{
	pmk__mpi_banner(f, job, top);
	pmk__mpi_comm_report(f, job, top);
}
static void w_comm_svg(FILE *f, const struct pmk__mpi_job *job, int unused)
{
	pmk__mpi_comm_svg(f, job);
}
static void w_csv(FILE *f, const struct pmk__mpi_job *job, int unused)
{
	pmk__mpi_csv(f, job);
}
static void w_json(FILE *f, const struct pmk__mpi_job *job, int unused)
{
	pmk__mpi_json(f, job);
}

/* The event of the second SVG panel: --event, else the first hardware
 * count (cycles, instructions), else task-clock, else the first. */
static int pick_event(const struct pmk__mpi_job *job, const char *want)
{
	static const char *const pref[] = {"cycles", "instructions",
					   "task-clock"};
	if (want) {
		for (int e = 0; e < job->nev; e++)
			if (!strcmp(job->evname[e], want))
				return e;
		cli_error("no event '%s' in this job", want);
		if (job->nev) {
			fprintf(stderr, "hint: events:");
			for (int e = 0; e < job->nev; e++)
				fprintf(stderr, " %s", job->evname[e]);
			fputc('\n', stderr);
		}
		return -2;
	}
	for (size_t i = 0; i < sizeof pref / sizeof pref[0]; i++)
		for (int e = 0; e < job->nev; e++)
			if (!strcmp(job->evname[e], pref[i]))
				return e;
	return job->nev ? 0 : -1;
}

enum { R_SVG = 256, R_COMM_SVG, R_HTML, R_JSON, R_MERGE, R_EVENT, R_CSV,
       R_TOP };

static const struct cli_opt report_opts[] = {
	{R_SVG, "svg", CLI_ARG},	   {R_COMM_SVG, "comm-svg", CLI_ARG},
	{R_HTML, "html", CLI_ARG},	   {R_JSON, "json", CLI_ARG},
	{R_MERGE, "mpi-merge", CLI_ARG}, {R_EVENT, "event", CLI_ARG},
	{'o', "output", CLI_ARG},	   {R_CSV, "csv", CLI_NOARG},
	{R_TOP, "top", CLI_ARG},	   {0},
};

struct report_args {
	const char *svg, *html, *json, *merge, *comm_svg, *event, *out;
	int csv;
	unsigned long long top;
};

static int on_report_opt(int key, const char *val, void *arg)
{
	struct report_args *r = arg;

	switch (key) {
	case R_SVG: r->svg = val; break;
	case R_COMM_SVG: r->comm_svg = val; break;
	case R_HTML: r->html = val; break;
	case R_JSON: r->json = val; break;
	case R_MERGE: r->merge = val; break;
	case R_EVENT: r->event = val; break;
	case 'o': r->out = val; break;
	case R_CSV: r->csv = 1; break;
	case R_TOP: return cli_opt_u64_in(val, 0, ~0ULL, &r->top);
	}
	return 0;
}

static int report(int argc, char **argv)
{
	struct report_args r = {.out = "-", .top = 8};
	const char *svg, *html, *json, *merge, *comm_svg, *event, *input = NULL;
	const char *out;
	int csv, rc = 0, ev, missing, nfiles = 0;
	unsigned long long top;
	struct pmk__mpi_job job = {0};
	int first = cli_opt_parse_mixed("mpi", argc, argv, report_opts,
					on_report_opt, &r);

	if (first < 0)
		return -first;
	if (first < argc)
		input = argv[first];
	if (argc - first > 1) {
		cli_error("one input file, not '%s' too", argv[first + 1]);
		return EXIT_USAGE;
	}
	svg = r.svg, html = r.html, json = r.json, merge = r.merge;
	comm_svg = r.comm_svg, event = r.event, out = r.out, csv = r.csv;
	top = r.top;
	if (!!input + !!merge != 1) {
		cli_error(input ? "give FILE.json or --mpi-merge DIR, not both"
				: "no input: give FILE.json or --mpi-merge DIR");
		return cli_usage("mpi");
	}
	rc = merge ? merge_dir(&job, merge, &nfiles) : load(&job, input);
	if (rc) {
		pmk__mpi_job_release(&job);
		return rc;
	}
	ev = pick_event(&job, event);
	if (ev == -2) {
		pmk__mpi_job_release(&job);
		return EXIT_USAGE;
	}
	missing = job.size - pmk__mpi_job_present(&job);
	if (csv)
		rc |= write_out(out, &job, w_csv, 0);
	else if (!svg && !html && !json && !comm_svg)
		rc |= write_out(out, &job, w_banner, (int)(top > 1000 ? 1000 : top));
	if (svg)
		rc |= write_out(svg, &job, pmk__mpi_svg, ev);
	if (html)
		rc |= write_out(html, &job, pmk__mpi_html, ev);
	if (comm_svg) {
		int any = 0;
		for (int i = 0; i < job.size; i++)
			any |= job.ranks[i].present && job.ranks[i].comm;
		if (!any) {
			cli_error("no communication picture in these records "
				  "(written by an older libpmkit-mpi)");
			rc = 1;
		} else
			rc |= write_out(comm_svg, &job, w_comm_svg, 0);
	}
	if (json)
		rc |= write_out(json, &job, w_json, 0);
	if (merge && missing) {
		fprintf(stderr, "pmkit mpi: %d of %d ranks left no file in '%s':",
			missing, job.size, merge);
		for (int i = 0, shown = 0; i < job.size; i++)
			if (!job.ranks[i].present && shown++ < 32)
				fprintf(stderr, " %d", i);
		fputc('\n', stderr);
		rc = 1;
	}
	pmk__mpi_job_release(&job);
	return rc ? 1 : 0;
}

int cmd_mpi(int argc, char **argv)
{
	static const struct cli_sub subs[] = {
		{"report", report},
		{NULL, NULL},
	};
	return cli_sub_run("mpi", subs, argc, argv);
}
