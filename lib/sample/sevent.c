/*
 * sevent.c: event names for sampling, resolved without the full event
 * parser: the kernel's software events, the generic hardware events and raw
 * rNNNN codes, with the :u :k :h :p... modifiers. Pure code.
 */
#include <stdlib.h>
#include <string.h>

#include "pmkit/sample.h"

static const struct {
	const char *name;
	uint32_t type;
	uint64_t config;
} names[] = {
    {"cpu-clock", PMK_TYPE_SOFTWARE, 0},
    {"task-clock", PMK_TYPE_SOFTWARE, 1},
    {"page-faults", PMK_TYPE_SOFTWARE, 2},
    {"faults", PMK_TYPE_SOFTWARE, 2},
    {"context-switches", PMK_TYPE_SOFTWARE, 3},
    {"cs", PMK_TYPE_SOFTWARE, 3},
    {"cpu-migrations", PMK_TYPE_SOFTWARE, 4},
    {"migrations", PMK_TYPE_SOFTWARE, 4},
    {"minor-faults", PMK_TYPE_SOFTWARE, 5},
    {"major-faults", PMK_TYPE_SOFTWARE, 6},
    {"alignment-faults", PMK_TYPE_SOFTWARE, 7},
    {"emulation-faults", PMK_TYPE_SOFTWARE, 8},
    {"cycles", PMK_TYPE_HARDWARE, 0},
    {"cpu-cycles", PMK_TYPE_HARDWARE, 0},
    {"instructions", PMK_TYPE_HARDWARE, 1},
    {"cache-references", PMK_TYPE_HARDWARE, 2},
    {"cache-misses", PMK_TYPE_HARDWARE, 3},
    {"branches", PMK_TYPE_HARDWARE, 4},
    {"branch-instructions", PMK_TYPE_HARDWARE, 4},
    {"branch-misses", PMK_TYPE_HARDWARE, 5},
    {"bus-cycles", PMK_TYPE_HARDWARE, 6},
    {"stalled-cycles-frontend", PMK_TYPE_HARDWARE, 7},
    {"stalled-cycles-backend", PMK_TYPE_HARDWARE, 8},
    {"ref-cycles", PMK_TYPE_HARDWARE, 9},
};

static int fail(pmk_diag *d, const char *s, int col, int len, const char *msg,
		const char *hint)
{
	pmk_diag_clear(d);
	if (d) {
		d->code = PMK_ENOEVENT;
		d->column = col;
		d->length = len;
		snprintf(d->input, sizeof d->input, "%s", s);
		snprintf(d->message, sizeof d->message, "%s", msg);
		snprintf(d->hint, sizeof d->hint, "%s", hint);
	}
	return PMK_ENOEVENT;
}

int pmk_sample_event_lookup(const char *s, pmk_attr *a, pmk_diag *d)
{
	const char *colon = strchr(s, ':');
	size_t n = colon ? (size_t)(colon - s) : strlen(s);
	int found = 0;
	memset(a, 0, sizeof *a);
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		if (strlen(names[i].name) == n &&
		    !strncmp(names[i].name, s, n)) {
			a->type = names[i].type;
			a->config = names[i].config;
			snprintf(a->pmu, sizeof a->pmu, "%s",
				 a->type == PMK_TYPE_SOFTWARE ? "software"
							      : "cpu");
			found = 1;
			break;
		}
	}
	if (!found && n > 1 && s[0] == 'r') {
		char *end;
		unsigned long long v = strtoull(s + 1, &end, 16);
		if (end == s + n) {
			a->type = PMK_TYPE_RAW;
			a->config = v;
			snprintf(a->pmu, sizeof a->pmu, "cpu");
			found = 1;
		}
	}
	if (!found)
		return fail(d, s, 1, (int)n, "unknown event for sampling",
			    "sample time with cpu-clock (the default) or "
			    "task-clock; 'pmkit list' shows the events");
	if (n >= sizeof a->name)
		n = sizeof a->name - 1;
	memcpy(a->name, s, n);
	a->name[n] = 0;
	if (colon) {
		int u = 0, k = 0, h = 0, p = 0;
		for (const char *m = colon + 1; *m; m++) {
			switch (*m) {
			case 'u':
				u = 1;
				break;
			case 'k':
				k = 1;
				break;
			case 'h':
				h = 1;
				break;
			case 'p':
				p++;
				break;
			default:
				return fail(d, s, (int)(m - s) + 1, 1,
					    "unknown modifier",
					    "modifiers are u, k, h and p, pp, "
					    "ppp");
			}
		}
		if (p > 3)
			return fail(d, s, (int)(colon - s) + 1, 4,
				    "precise level above 3",
				    "use :p, :pp or :ppp");
		if (u || k || h) {
			a->exclude_user = !u;
			a->exclude_kernel = !k;
			a->exclude_hv = !h;
		}
		a->precise_ip = (unsigned)p;
		snprintf(a->name, sizeof a->name, "%s", s);
	}
	return 0;
}
