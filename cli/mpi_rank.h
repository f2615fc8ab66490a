/*
 * mpi_rank.h: `pmkit stat` as one rank of an MPI job (mpirun, srun). The
 * launcher's environment names the rank; then each rank's output block is
 * written at once, text lines prefixed "[rank R] ", and, when PMKIT_MPI_DIR
 * is set, the counts are also written as that rank's record of a job
 * (DIR/pmkit-mpi.RANK.json, the schema of libpmkit-mpi) for
 * `pmkit mpi report --mpi-merge DIR`.
 */
#ifndef PMK_CLI_MPI_RANK_H
#define PMK_CLI_MPI_RANK_H

#include <stdio.h>

#include "cli/stat_output.h"

/* This process's rank from OMPI_COMM_WORLD_RANK, PMI_RANK, PMIX_RANK or
 * SLURM_PROCID, and the job's size (OMPI_COMM_WORLD_SIZE, PMI_SIZE,
 * SLURM_NTASKS; 0 when unknown); -1 outside a job. */
int cli_mpi_rank(int *size);
/* Where stat should print one result: `out` itself outside a job, else a
 * buffer that cli_mpi_stat_end() writes to `out` at once, with every line
 * prefixed "[rank R] " when `prefix` (text; CSV and JSON stay parseable). */
FILE *cli_mpi_stat_begin(FILE *out);
void cli_mpi_stat_end(FILE *f, FILE *out, const struct stat_result *res,
		      int prefix);
/* A per-rank output name under a launcher: PATH.RANK (PATH itself outside
 * a job), so that `stat -o FILE` of N ranks writes N files. Static
 * storage; NULL and "-" stay as they are. Used by stat's -o. */
const char *cli_mpi_rank_path(const char *path);

#endif
