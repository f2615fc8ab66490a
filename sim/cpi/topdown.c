/*
 * topdown.c: names of the top-down level-1 parts (metrics/topdown.def).
 */
#include "pmkit/cpistack.h"

static const char *const parts[PMK_TD_NPART] = {
    "frontend_bound", "bad_speculation", "retiring", "backend_bound"};
static const char *const metrics[PMK_TD_NPART] = {
    "tma_frontend_bound", "tma_bad_speculation", "tma_retiring",
    "tma_backend_bound"};

const char *pmk_td_part_name(int part)
{
	return part >= 0 && part < PMK_TD_NPART ? parts[part] : "?";
}

const char *pmk_td_metric_name(int part)
{
	return part >= 0 && part < PMK_TD_NPART ? metrics[part] : "?";
}
