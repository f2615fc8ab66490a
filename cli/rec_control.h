/*
 * rec_control.h: record's --control=fifo:CTL[,ACK] and --control=fd:N[,M],
 * perf's protocol for steering a running `record` from another process
 * (`pmkit daemon` pings its sessions through it): commands arrive on the
 * control descriptor, one per line (or NUL-terminated), and each one that
 * was carried out is answered "ack\n" on the ack descriptor. Commands:
 * enable, disable, ping, stop, snapshot, evlist. Reading never blocks.
 */
#ifndef PMK_CLI_REC_CONTROL_H
#define PMK_CLI_REC_CONTROL_H

#include <stddef.h>

enum rec_ctl_cmd {
	REC_CTL_NONE,	  /* nothing (more) to read now */
	REC_CTL_ENABLE,	  /* "enable": start sampling */
	REC_CTL_DISABLE,  /* "disable": pause sampling */
	REC_CTL_PING,	  /* "ping": only the ack */
	REC_CTL_STOP,	  /* "stop": end the recording */
	REC_CTL_SNAPSHOT, /* "snapshot": a --switch-output dump now */
	REC_CTL_EVLIST,	  /* "evlist [-v|-g|-F]": the events on stdout */
	REC_CTL_UNKNOWN,  /* anything else: the text is in `arg` */
};

struct rec_ctl {
	int ctl_fd, ack_fd; /* -1 when not given */
	int owned;	    /* opened here (fifo:), closed by rec_ctl_close */
	char buf[256];	    /* a command being read */
	size_t len;
};

/* Parse and open a --control value. 0, or an exit code after an error
 * naming `opt` was printed. */
int rec_ctl_open(struct rec_ctl *c, const char *opt, const char *spec);
/* The next whole command, if one is there; `arg` gets its text (for
 * REC_CTL_UNKNOWN and "enable NAME"-style arguments). REC_CTL_NONE when
 * none is complete, or when no control was given. */
enum rec_ctl_cmd rec_ctl_next(struct rec_ctl *c, char *arg, size_t size);
/* Answer the command just carried out ("ack\n", when there is an ack
 * descriptor). */
void rec_ctl_ack(struct rec_ctl *c);
/* Whether an enable or disable command (`arg`: its argument) applies to
 * every event; perf's "enable NAME" gets a warning and 0 (pmkit turns all
 * events on and off together). */
int rec_ctl_all_events(enum rec_ctl_cmd cmd, const char *arg);
void rec_ctl_close(struct rec_ctl *c);

#endif
