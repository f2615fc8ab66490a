/*
 * cli/stop.h: how a command that runs something (a workload, a simulation)
 * stops on SIGINT, SIGTERM and SIGHUP (docs/files.md, "Signals"): the
 * signal is remembered in cli_stop_sig and forwarded to the workload named
 * in cli_stop_child (from a terminal it has it already); a second signal
 * kills the workload. The command then keeps what it measured and exits
 * 128 + cli_stop_sig. One handler for stat, record and sim.
 */
#ifndef PMK_CLI_STOP_H
#define PMK_CLI_STOP_H
#include <signal.h>
#include <sys/types.h>

extern volatile sig_atomic_t cli_stop_sig; /* 0 until a signal came */
extern volatile pid_t cli_stop_child;	   /* the workload, 0 for none */

/* Install the handler for SIGINT, SIGTERM and SIGHUP (each blocked while
 * it runs). */
void cli_stop_catch(void);

#endif
