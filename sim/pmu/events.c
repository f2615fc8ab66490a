/*
 * events.c: the simulated PMU's events (`pmkit sim list-events`), and the
 * text and word encodings of a counter's configuration.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/pmu/pmu.h"

#define OPMASK                                                                 \
	"op classes: 1<<class (other=0 int=1 imul=2 fadd=3 fdiv=4 "            \
	"load=5 store=6 bcond=7 jump=8 jind=9 call=10 ret=11)"
#define CMASK "1 loads, 2 stores, 4 instruction fetches"

static const pmk_sim_event_desc events[EV_COUNT] = {
    [EV_CYCLES] = {"cycles", "core clock cycles", NULL, 1, 0},
    [EV_INST_RETIRED] = {"inst_retired",
			 "instructions retired (completed) this cycle", OPMASK,
			 0, 0},
    [EV_INST_DISPATCHED] = {"inst_dispatched",
			    "instructions dispatched into the ROB, wrong path "
			    "included (speculative)",
			    OPMASK, 0, 1},
    [EV_INST_FETCHED] = {"inst_fetched",
			 "instructions fetched, wrong path included "
			 "(speculative)",
			 OPMASK, 0, 1},
    [EV_INST_SQUASHED] = {"inst_squashed",
			  "wrong-path instructions thrown away at a "
			  "misprediction",
			  OPMASK, 0, 1},
    [EV_BR_RETIRED] = {"br_retired", "branches retired", OPMASK, 0, 0},
    [EV_BR_MISP_RETIRED] = {"br_misp_retired", "mispredicted branches retired",
			    OPMASK, 0, 0},
    [EV_BR_DISPATCHED] = {"br_dispatched",
			  "branches dispatched, wrong path included "
			  "(speculative)",
			  OPMASK, 0, 1},
    [EV_L1D_ACCESS] = {"l1d_access",
		       "L1D accesses, wrong path included (speculative)", CMASK,
		       0, 1},
    [EV_L1D_MISS] = {"l1d_miss",
		     "L1D misses, wrong path included (speculative)", CMASK, 0,
		     1},
    [EV_L1D_MISS_RETIRED] = {"l1d_miss_retired",
			     "retired loads that missed the L1D "
			     "(non-speculative)",
			     NULL, 0, 0},
    [EV_L2_ACCESS] = {"l2_access", "L2 accesses (speculative)", CMASK, 0, 1},
    [EV_L2_MISS] = {"l2_miss", "L2 misses (speculative)", CMASK, 0, 1},
    [EV_L2_MISS_RETIRED] = {"l2_miss_retired",
			    "retired loads that missed the L2 "
			    "(non-speculative)",
			    NULL, 0, 0},
    [EV_L3_ACCESS] = {"l3_access", "L3 accesses, when there is an L3", CMASK, 0,
		      1},
    [EV_L3_MISS] = {"l3_miss", "L3 misses", CMASK, 0, 1},
    [EV_L1I_ACCESS] = {"l1i_access",
		       "L1I line fetches, wrong path included (speculative)",
		       NULL, 0, 1},
    [EV_L1I_MISS] = {"l1i_miss",
		     "L1I misses, wrong path included (speculative)", NULL, 0,
		     1},
    [EV_L1I_MISS_RETIRED] = {"l1i_miss_retired",
			     "retired instructions whose fetch missed the L1I "
			     "(non-speculative)",
			     NULL, 0, 0},
    [EV_ITLB_MISS] = {"itlb_miss", "I-TLB misses (speculative)", NULL, 0, 1},
    [EV_ITLB_MISS_RETIRED] = {"itlb_miss_retired",
			      "retired instructions whose fetch missed the "
			      "I-TLB (non-speculative)",
			      NULL, 0, 0},
    [EV_DTLB_MISS] = {"dtlb_miss", "D-TLB misses (speculative)", CMASK, 0, 1},
    [EV_DTLB_MISS_RETIRED] = {"dtlb_miss_retired",
			      "retired loads that missed the D-TLB "
			      "(non-speculative)",
			      NULL, 0, 0},
    [EV_ROB_FULL] = {"rob_full", "cycles the ROB is full", NULL, 1, 0},
    [EV_ROB_OCCUPANCY] = {"rob_occupancy",
			  "instructions in the ROB, each cycle (use a "
			  "threshold)",
			  NULL, 255, 1},
    [EV_DISPATCH_STALL] = {"dispatch_stall",
			   "cycles nothing was dispatched (a stall; edge "
			   "detect counts stalls)",
			   NULL, 1, 0},
    [EV_COMMIT_STALL] = {"commit_stall", "cycles nothing retired", NULL, 1, 0},
    [EV_FE_STALL] = {"fe_stall",
		     "cycles fetch waited on an I-cache or I-TLB miss", NULL, 1,
		     1},
    [EV_MEM_STALL] = {"mem_stall",
		      "cycles the ROB head waited on a data-cache or D-TLB "
		      "miss",
		      NULL, 1, 0},
    [EV_LONGLAT_STALL] = {"longlat_stall",
			  "cycles the ROB head waited on a mul/div/FP-div "
			  "unit",
			  NULL, 1, 0},
    [EV_WRONG_PATH_CYCLES] = {"wrong_path_cycles",
			      "cycles fetch was on a mispredicted path", NULL,
			      1, 1},
    [EV_RECOVERY] = {"recovery", "mispredictions repaired (squashes)", NULL, 1,
		     1},
};

int pmk_sim_event_count(void)
{
	return EV_COUNT;
}

const pmk_sim_event_desc *pmk_sim_event_get(int i)
{
	return i >= 0 && i < EV_COUNT ? &events[i] : NULL;
}

int pmk_sim_event_find(const char *name)
{
	for (int i = 0; i < EV_COUNT; i++)
		if (!strcmp(events[i].name, name))
			return i;
	return PMK_ENOEVENT;
}

uint64_t pmk_sim_counter_encode(const pmk_sim_counter_cfg *c)
{
	return (uint64_t)c->event | (uint64_t)(c->umask & 0xffffffffu) << 16 |
	       (uint64_t)(c->edge & 1) << 48 | (uint64_t)(c->inv & 1) << 49 |
	       (uint64_t)(c->thresh & 0xfff) << 52;
}

void pmk_sim_counter_decode(uint64_t config, pmk_sim_counter_cfg *c)
{
	memset(c, 0, sizeof *c);
	c->event = (uint16_t)(config & 0xffff);
	c->umask = (uint32_t)(config >> 16);
	c->edge = (config >> 48) & 1;
	c->inv = (config >> 49) & 1;
	c->thresh = (uint16_t)((config >> 52) & 0xfff);
	c->usr = c->os = 1;
}

static int perr(pmk_diag *d, const char *s, int col, int len, const char *msg,
		const char *hint)
{
	if (d) {
		pmk_diag_clear(d);
		d->code = PMK_ENOEVENT;
		d->column = col;
		d->length = len;
		snprintf(d->input, sizeof d->input, "%s", s);
		snprintf(d->message, sizeof d->message, "%s", msg);
		snprintf(d->hint, sizeof d->hint, "%s", hint ? hint : "");
	}
	return PMK_ENOEVENT;
}

static int num(const char *s, size_t n, uint64_t *v)
{
	char buf[32], *end;
	if (!n || n >= sizeof buf || s[0] < '0' || s[0] > '9')
		return -1;
	memcpy(buf, s, n);
	buf[n] = 0;
	*v = strtoull(buf, &end, 0);
	return *end ? -1 : 0;
}

int pmk_sim_counter_parse(const char *str, pmk_sim_counter_cfg *cfg,
			  pmk_diag *d)
{
	const char *s = str, *p;
	char name[64];
	size_t n;
	int ev, priv_given = 0;
	memset(cfg, 0, sizeof *cfg);
	if (!strncmp(s, "sim/", 4))
		s += 4;
	n = strcspn(s, ":/");
	if (n == 0 || n >= sizeof name)
		return perr(d, str, (int)(s - str) + 1, (int)n,
			    "expected a sim event name",
			    "`pmkit sim list-events` lists them");
	memcpy(name, s, n);
	name[n] = 0;
	ev = pmk_sim_event_find(name);
	if (ev < 0) {
		char msg[128];
		snprintf(msg, sizeof msg, "unknown sim event '%s'", name);
		return perr(d, str, (int)(s - str) + 1, (int)n, msg,
			    "`pmkit sim list-events` lists them");
	}
	cfg->event = (uint16_t)ev;
	p = s + n;
	if (*p == '/' && !p[1])
		p++; /* "sim/name/" */
	while (*p == ':' || *p == ',') {
		const char *t = ++p;
		size_t m = strcspn(t, ":,/");
		const char *eq = memchr(t, '=', m);
		uint64_t v = 0;
		size_t kl = eq ? (size_t)(eq - t) : m;
		int col = (int)(t - str) + 1;
		if (eq && num(eq + 1, m - kl - 1, &v))
			return perr(d, str, col + (int)kl + 1,
				    (int)(m - kl - 1), "expected a number",
				    NULL);
#define IS(k) (kl == strlen(k) && !strncmp(t, k, kl))
		if (IS("u") && !eq) {
			if (!priv_given)
				cfg->usr = cfg->os = 0;
			priv_given = 1;
			cfg->usr = 1;
		} else if (IS("k") && !eq) {
			if (!priv_given)
				cfg->usr = cfg->os = 0;
			priv_given = 1;
			cfg->os = 1;
		} else if ((IS("e") || IS("edge")) && (!eq || v <= 1)) {
			cfg->edge = eq ? (uint8_t)v : 1;
		} else if ((IS("i") || IS("inv")) && (!eq || v <= 1)) {
			cfg->inv = eq ? (uint8_t)v : 1;
		} else if ((IS("c") || IS("cmask") || IS("thresh")) && eq &&
			   v < 4096) {
			cfg->thresh = (uint16_t)v;
		} else if ((IS("umask") || IS("m")) && eq && v <= 0xffffffffu) {
			cfg->umask = (uint32_t)v;
		} else if (IS("period") && eq) {
			cfg->period = v;
		} else {
			return perr(d, str, col, (int)m,
				    "unknown or bad modifier",
				    "modifiers: u k e i c=N umask=N period=N");
		}
#undef IS
		p = t + m;
		if (*p == '/' && !p[1])
			p++;
	}
	if (*p)
		return perr(d, str, (int)(p - str) + 1, 1,
			    "unexpected character", NULL);
	if (!priv_given)
		cfg->usr = cfg->os = 1;
	return 0;
}
