/*
 * stat_control.c: stat's --control commands (stat_control.h).
 */
#include <stdio.h>

#include "cli/cli.h"
#include "cli/stat_control.h"

void stat_control(struct rec_ctl *c, pmk_eventset *const *set, int nset,
		  int *enabled, int *ever)
{
	char arg[256];
	enum rec_ctl_cmd cmd;
	while ((cmd = rec_ctl_next(c, arg, sizeof arg)) != REC_CTL_NONE) {
		switch (cmd) {
		case REC_CTL_ENABLE:
		case REC_CTL_DISABLE:
			if (!rec_ctl_all_events(cmd, arg))
				continue;
			if ((cmd == REC_CTL_ENABLE) != !!*enabled) {
				for (int s = 0; s < nset; s++)
					if (cmd == REC_CTL_ENABLE)
						pmk_eventset_start(set[s]);
					else
						pmk_eventset_stop(set[s]);
				*enabled = cmd == REC_CTL_ENABLE;
			}
			*ever |= *enabled;
			fprintf(stderr, "Events %s\n",
				*enabled ? "enabled" : "disabled");
			break;
		case REC_CTL_PING:
			break;
		case REC_CTL_UNKNOWN:
			cli_warn("--control: unknown command '%s'", arg);
			continue;
		default: /* stop, snapshot, evlist: record's */
			cli_warn("--control: '%s' is a command of record, not "
				 "of stat",
				 cmd == REC_CTL_STOP	   ? "stop"
				 : cmd == REC_CTL_SNAPSHOT ? "snapshot"
							   : "evlist");
			continue;
		}
		rec_ctl_ack(c);
	}
}
