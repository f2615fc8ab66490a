/*
 * cli/stop.c: the one handler for SIGINT, SIGTERM and SIGHUP of the
 * commands that run something (cli/stop.h). Async-signal-safe: it only
 * stores the signal and calls kill(2).
 */
#include "cli/stop.h"

#include <string.h>

volatile sig_atomic_t cli_stop_sig;
volatile pid_t cli_stop_child;

static void on_signal(int sig)
{
	if (cli_stop_sig && cli_stop_child > 0)
		kill(cli_stop_child, SIGKILL);
	else if (cli_stop_child > 0)
		kill(cli_stop_child, sig);
	cli_stop_sig = sig;
}

void cli_stop_catch(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, SIGINT);
	sigaddset(&sa.sa_mask, SIGTERM);
	sigaddset(&sa.sa_mask, SIGHUP);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}
