/*
 * mpi_rank.c: rank awareness of `pmkit stat` under an MPI launcher
 * (mpi_rank.h). Nothing here talks MPI: the launcher's environment is
 * enough to tell the ranks apart.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/mpi_rank.h"
#include "mpi/job.h"

static int env_num(const char *name)
{
	const char *s = getenv(name);
	char *end;
	long v;
	if (!s || !*s)
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (*end || errno || v < 0 || v >= PMK__MPI_MAX_RANKS)
		return -1;
	return (int)v;
}

int cli_mpi_rank(int *size)
{
	static const char *const rank_var[] = {"OMPI_COMM_WORLD_RANK",
					       "PMI_RANK", "PMIX_RANK",
					       "SLURM_PROCID"};
	static const char *const size_var[] = {"OMPI_COMM_WORLD_SIZE",
					       "PMI_SIZE", "SLURM_NTASKS"};
	int rank = -1;
	for (size_t i = 0; i < 4 && rank < 0; i++)
		rank = env_num(rank_var[i]);
	*size = 0;
	for (size_t i = 0; i < 3 && *size <= 0; i++)
		*size = env_num(size_var[i]);
	if (*size > 0 && rank >= *size)
		*size = 0; /* inconsistent: do not claim a size */
	return rank;
}

/* The block being printed (open_memstream's buffer and size). */
static char *block;
static size_t block_len;

FILE *cli_mpi_stat_begin(FILE *out)
{
	int size;
	FILE *m;
	if (cli_mpi_rank(&size) < 0)
		return out;
	free(block);
	block = NULL;
	m = open_memstream(&block, &block_len);
	return m ? m : out;
}

/* The counts of one stat result as this rank's record. */
static void write_record(const char *dir, int rank, int size,
			 const struct stat_result *res)
{
	struct pmk__mpi_job job;
	struct pmk__mpi_rank *r;
	char path[4096], *text = NULL;
	size_t len = 0;
	FILE *m;
	if (size <= 0) {
		cli_warn("rank %d: the job's size is unknown: no record in '%s'",
			 rank, dir);
		return;
	}
	if (pmk__mpi_job_init(&job, size))
		return;
	snprintf(job.command, sizeof job.command, "%s", res->command);
	r = &job.ranks[rank];
	r->present = 1;
	r->pid = (long)getpid();
	if (gethostname(r->host, sizeof r->host - 1) != 0)
		snprintf(r->host, sizeof r->host, "?");
	r->wall_ns = (uint64_t)(res->elapsed_s * 1e9);
	for (int i = 0; i < res->nrows; i++) {
		const struct stat_row *w = &res->rows[i];
		int clock = !strcmp(w->unit, "msec");
		int e = pmk__mpi_job_event(&job, w->name, clock ? "ns" : w->unit);
		if (e < 0)
			break;
		double v = w->status || (w->flags & PMK_VALUE_NOT_COUNTED)
				   ? NAN
				   : clock ? w->value * 1e6 : w->value;
		/* -A, --per-core ...: one row per unit; the rank's is the sum */
		r->ev[e] = w->aggr && !isnan(r->ev[e]) ? r->ev[e] + v : v;
	}
	m = open_memstream(&text, &len);
	if (m) {
		pmk__mpi_json(m, &job);
		fclose(m);
		snprintf(path, sizeof path, "%s/pmkit-mpi.%d.json", dir, rank);
		pmk_diag d;
		if (text && pmk__mpi_write_file(path, text, len, &d) != 0)
			cli_warn("%s", d.message);
	}
	free(text);
	pmk__mpi_job_release(&job);
}

const char *cli_mpi_rank_path(const char *path)
{
	static char buf[4096];
	int size, rank = cli_mpi_rank(&size);
	if (!path || rank < 0 || !strcmp(path, "-"))
		return path;
	snprintf(buf, sizeof buf, "%s.%d", path, rank);
	return buf;
}

void cli_mpi_stat_end(FILE *f, FILE *out, const struct stat_result *res,
		      int prefix)
{
	int size, rank = cli_mpi_rank(&size);
	const char *dir = getenv("PMKIT_MPI_DIR");
	char pfx[32], *text = NULL;
	size_t len = 0;
	FILE *m;
	if (f == out || rank < 0)
		return;
	fclose(f); /* block and block_len now hold what stat printed */
	snprintf(pfx, sizeof pfx, "[rank %d] ", rank);
	m = open_memstream(&text, &len);
	if (m) {
		int bol = 1;
		for (size_t i = 0; block && i < block_len; i++) {
			if (bol && prefix)
				fputs(pfx, m);
			fputc(block[i], m);
			bol = block[i] == '\n';
		}
		fclose(m);
		/* one write, so that ranks' blocks do not interleave */
		if (text && len)
			fwrite(text, 1, len, out);
		fflush(out);
	}
	free(text);
	free(block);
	block = NULL;
	if (dir && *dir)
		write_record(dir, rank, size, res);
}
