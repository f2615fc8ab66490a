/*
 * cmd_daemon.c: `pmkit daemon [start|stop|signal|ping] [--config FILE]
 * [--base DIR] [-x SEP] [-v] [--session NAME] [-f]`, perf's daemon: record
 * sessions kept running in the background, configured in a perf config
 * file ([daemon] base=DIR, [session-NAME] run=RECORD ARGUMENTS). Without a
 * subcommand it lists the daemon and its sessions (with -x SEP one line
 * each, fields separated by SEP, as perf's). The pieces: daemon_config.c
 * (the file), daemon_start.c and daemon_server.c (the daemon),
 * daemon_session.c (one record session), daemon_client.c (the requests).
 */
/* pmkit-command: daemon | record sessions kept running in the background */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/daemon_client.h"
#include "cli/daemon_config.h"
#include "cli/daemon_start.h"
#include "cli/opt.h"
#include "cli/personality.h"

enum { OPT_CONFIG = 256, OPT_BASE, OPT_SESSION };

static const struct cli_opt daemon_opts[] = {
    {OPT_CONFIG, "config", CLI_ARG},
    {OPT_BASE, "base", CLI_ARG},
    {'x', "field-separator", CLI_ARG},
    {'v', "verbose", CLI_NOARG},
    {OPT_SESSION, "session", CLI_ARG},
    {'f', "foreground", CLI_NOARG},
    {0},
};

struct dargs {
	const char *config, *base, *sep, *session;
	int verbose, foreground;
};

static int on_opt(int key, const char *val, void *arg)
{
	struct dargs *a = arg;
	switch (key) {
	case OPT_CONFIG:
		a->config = val;
		break;
	case OPT_BASE:
		a->base = val;
		break;
	case 'x':
		if (!val[0] ||
		    strlen(val) >= sizeof((struct dproto_req *)0)->sep) {
			cli_error("option '%s' takes a separator of 1 to 15 "
				  "characters",
				  cli_opt_current());
			return EXIT_USAGE;
		}
		a->sep = val;
		break;
	case 'v':
		a->verbose = 1;
		break;
	case OPT_SESSION:
		if (strlen(val) >= DCFG_NAME_MAX) {
			cli_error("no session is named '%s'", val);
			return EXIT_USAGE;
		}
		a->session = val;
		break;
	case 'f':
		a->foreground = 1;
		break;
	}
	return 0;
}

/* FILE made absolute (the daemon leaves the working directory). */
static int absolute(const char *path, char *out, size_t size)
{
	char cwd[PATH_MAX];
	size_t n;
	if (path[0] == '/')
		n = (size_t)snprintf(out, size, "%s", path);
	else if (!getcwd(cwd, sizeof cwd))
		return -1;
	else
		n = (size_t)snprintf(out, size, "%s/%s", cwd, path);
	if (n >= size)
		return -1;
	while (n > 1 && out[n - 1] == '/') /* base/ is base */
		out[--n] = 0;
	return 0;
}

/* The config file: --config, else ~/.perfconfig, else /etc/perfconfig,
 * where they exist; "" for none. */
static int find_config(const char *given, char *out, size_t size)
{
	const char *home = getenv("HOME");
	char p[PATH_MAX];
	out[0] = 0;
	if (given)
		return absolute(given, out, size);
	if (home &&
	    snprintf(p, sizeof p, "%s/.perfconfig", home) < (int)sizeof p &&
	    access(p, F_OK) == 0)
		return absolute(p, out, size);
	if (access("/etc/perfconfig", F_OK) == 0)
		return absolute("/etc/perfconfig", out, size);
	return 0;
}

int cmd_daemon(int argc, char **argv)
{
	static const char *subs[] = {"start", "stop", "signal", "ping"};
	static struct dcfg cfg;
	static char config[PATH_MAX], base[PATH_MAX];
	struct dargs a;
	struct dproto_req r;
	struct dcfg_err e;
	const char *sub = NULL;
	int rc;
	if (argc > 1)
		for (size_t i = 0; i < sizeof subs / sizeof subs[0]; i++)
			if (!strcmp(argv[1], subs[i]))
				sub = subs[i];
	if (sub) { /* the subcommand's options: argv[0] is its name */
		argc--;
		argv++;
	}
	memset(&a, 0, sizeof a);
	rc = cli_opt_parse_only("daemon", argc, argv, daemon_opts, on_opt, &a);
	if (rc)
		return rc;
	if (a.session &&
	    (!sub || (strcmp(sub, "signal") && strcmp(sub, "ping")))) {
		cli_error("--session goes with signal and ping");
		return EXIT_USAGE;
	}
	if (a.foreground && (!sub || strcmp(sub, "start"))) {
		cli_error("-f goes with start");
		return EXIT_USAGE;
	}
	if (find_config(a.config, config, sizeof config) < 0) {
		cli_error("config path '%s' is too long", a.config);
		return EXIT_USAGE;
	}
	memset(&cfg, 0, sizeof cfg);
	if (config[0] && dcfg_load(config, &cfg, &e) < 0) {
		if (e.line)
			cli_error("%s:%d: %s", config, e.line, e.msg);
		else
			cli_error("config '%s': %s", config, e.msg);
		return EXIT_USAGE;
	}
	if (!a.base && !cfg.base[0]) {
		cli_error("no base directory: give --base DIR or 'base = DIR' "
			  "in the [daemon] section of %s",
			  config[0] ? config : "a config file (--config FILE)");
		return EXIT_USAGE;
	}
	if (absolute(a.base ? a.base : cfg.base, base, DCFG_BASE_MAX) < 0) {
		cli_error("base path '%s' is too long",
			  a.base ? a.base : cfg.base);
		return EXIT_USAGE;
	}
	if (sub && !strcmp(sub, "start"))
		return daemon_start(config[0] ? config : NULL, &cfg, base,
				    a.foreground);
	memset(&r, 0, sizeof r);
	memcpy(r.magic, DPROTO_MAGIC, sizeof DPROTO_MAGIC);
	r.cmd = !sub			 ? DPROTO_LIST
		: !strcmp(sub, "stop")	 ? DPROTO_STOP
		: !strcmp(sub, "signal") ? DPROTO_SIGNAL
					 : DPROTO_PING;
	r.verbose = a.verbose;
	r.as_perf = cli_as_perf;
	if (a.sep)
		snprintf(r.sep, sizeof r.sep, "%s", a.sep);
	if (a.session)
		snprintf(r.session, sizeof r.session, "%s", a.session);
	return dclient_request(base, &r);
}
