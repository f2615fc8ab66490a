/*
 * defs_load.c: loading definition files of user events for the commands
 * that take --defs FILE (stat, list, metric), and the one warning about
 * PMK_USER_EVENTS_FILE that main.c gives before any command runs.
 */
#include "cli/cli.h"

int cli_defs_load(const char *path)
{
	pmk_diag d;
	if (pmk_defs_load(path, &d) == 0)
		return 0;
	cli_diag(&d);
	return -1;
}

void cli_defs_env_warn(void)
{
	pmk_diag d;
	char buf[2048];
	if (pmk_defs_env_status(&d) == 0)
		return;
	pmk_diag_format(&d, buf, sizeof buf);
	cli_warn("PMK_USER_EVENTS_FILE not loaded: %s", buf);
}
