/*
 * topdown.c: top-down level 1 from counters, through the user-defined-event
 * machinery (pmkit/derive.h) and the definitions of metrics/topdown.def,
 * of which a copy is built in (tests/cpi/test_topdown.c checks it is the
 * same text), so that `pmkit cpistack -- COMMAND` needs no installed file.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmkit/cpistack.h"
#include "pmkit/derive.h"

static const char topdown_def[] =
    "# topdown.def: top-down analysis level 1 (Yasin, ISPASS 2014) for Intel\n"
    "# Skylake, Intel Ice Lake and later, AMD Zen 4 and Zen 5. The same names "
    "in\n"
    "# every section: the section of the machine's model is used\n"
    "# (`--pmu MODEL` elsewhere). Events are raw encodings, named in comments, "
    "so\n"
    "# that they resolve without model tables. Sources: perf's "
    "skl-metrics.json,\n"
    "# Documentation/topdown.txt and amdzen4/amdzen5 pipeline.json, as "
    "summarized\n"
    "# in the project's research notes (anchors-cpistack.md section 3).\n"
    "\n"
    "# Intel Skylake client and server, and Cascade Lake-SP (the same core:\n"
    "# perf's cascadelakex metrics define level 1 with these events): 4 slots "
    "per\n"
    "# cycle, SMT off.\n"
    "#   r003c CPU_CLK_UNHALTED.THREAD_P   r019c IDQ_UOPS_NOT_DELIVERED.CORE\n"
    "#   r010e UOPS_ISSUED.ANY             r02c2 UOPS_RETIRED.RETIRE_SLOTS\n"
    "#   r010d INT_MISC.RECOVERY_CYCLES\n"
    "CPU,skl\n"
    "CPU,skx\n"
    "CPU,clx\n"
    "tma_slots = 4 * r003c\n"
    "tma_frontend_bound = r019c / tma_slots\n"
    "tma_bad_speculation = (r010e - r02c2 + 4 * r010d) / tma_slots\n"
    "tma_retiring = r02c2 / tma_slots\n"
    "tma_backend_bound = 1 - tma_frontend_bound - (r010e + 4 * r010d) / "
    "tma_slots\n"
    "\n"
    "# Intel Ice Lake and later: fixed counter TOPDOWN.SLOTS (r0400) and the\n"
    "# PERF_METRICS fractions, which perf reads as slot counts: r8000 "
    "retiring,\n"
    "# r8100 bad speculation, r8200 frontend bound, r8300 backend bound (they\n"
    "# must be counted in a group led by the slots event).\n"
    "CPU,icl\n"
    "CPU,icx\n"
    "CPU,tgl\n"
    "CPU,spr\n"
    "CPU,adl_glc\n"
    "tma_slots = r0400\n"
    "tma_metric_sum = r8000 + r8100 + r8200 + r8300\n"
    "tma_frontend_bound = r8200 / tma_metric_sum\n"
    "tma_bad_speculation = r8100 / tma_metric_sum\n"
    "tma_retiring = r8000 / tma_metric_sum\n"
    "tma_backend_bound = r8300 / tma_metric_sum\n"
    "\n"
    "# AMD Zen 4: 6 dispatch slots per cycle. PMCx1A0 is an extended event\n"
    "# select: its bits 11:8 go to config bits 35:32 (0x1000000a0).\n"
    "#   r76 ls_not_halted_cyc\n"
    "#   r1000001a0 de_no_dispatch_per_slot.no_ops_from_frontend (umask 0x01)\n"
    "#   r100001ea0 de_no_dispatch_per_slot.backend_stalls (umask 0x1E)\n"
    "#   r1000060a0 de_no_dispatch_per_slot.smt_contention (umask 0x60)\n"
    "#   r7aa de_src_op_disp.all           rc1 ex_ret_ops\n"
    "# AMD's level 1 is not forced to sum to 1; SMT contention is a fifth "
    "part.\n"
    "CPU,amd64_fam19h_zen4\n"
    "tma_slots = 6 * r76\n"
    "tma_frontend_bound = r1000001a0 / tma_slots\n"
    "tma_bad_speculation = (r7aa - rc1) / tma_slots\n"
    "tma_retiring = rc1 / tma_slots\n"
    "tma_backend_bound = r100001ea0 / tma_slots\n"
    "tma_smt_contention = r1000060a0 / tma_slots\n"
    "\n"
    "# AMD Zen 5: the same events, 8 dispatch slots per cycle.\n"
    "CPU,amd64_fam1ah_zen5\n"
    "tma_slots = 8 * r76\n"
    "tma_frontend_bound = r1000001a0 / tma_slots\n"
    "tma_bad_speculation = (r7aa - rc1) / tma_slots\n"
    "tma_retiring = rc1 / tma_slots\n"
    "tma_backend_bound = r100001ea0 / tma_slots\n"
    "tma_smt_contention = r1000060a0 / tma_slots\n";

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

const char *pmk_topdown_text(void)
{
	return topdown_def;
}

#define TD_MAXEV 16

struct pmk_topdown {
	pmk_defs *defs;
	int idx[PMK_TD_NPART]; /* user event of each part */
	int nev;
	char *ev[TD_MAXEV]; /* the base events, union over the parts */
	int resolved[TD_MAXEV];
	const pmk_event *event[TD_MAXEV];
};

void pmk_topdown_free(pmk_topdown *t)
{
	if (!t)
		return;
	for (int i = 0; i < t->nev; i++)
		free(t->ev[i]);
	pmk_defs_free(t->defs);
	free(t);
}

static int fail(pmk_diag *d, int code, const char *msg, const char *arg)
{
	if (d) {
		pmk_diag_clear(d);
		d->code = code;
		snprintf(d->message, sizeof d->message, "%s%s", msg, arg);
	}
	return code;
}

int pmk_topdown_new(pmk_topdown **out, const char *model, int symbolic,
		    pmk_diag *d)
{
	pmk_defs_opts o;
	pmk_topdown *t;
	int rc;
	*out = NULL;
	if (!model || !*model)
		return fail(d, PMK_ENOTSUP,
			    "no CPU model known for top-down analysis", "");
	t = calloc(1, sizeof *t);
	if (!t)
		return PMK_ENOMEM;
	memset(&o, 0, sizeof o);
	o.model = model;
	o.symbolic = symbolic;
	o.no_include = 1;
	rc = pmk_defs_parse_string(&t->defs, "topdown.def", topdown_def, &o, d);
	if (rc < 0)
		goto bad;
	for (int p = 0; p < PMK_TD_NPART; p++) {
		int i = pmk_defs_find(t->defs, metrics[p]);
		if (i < 0) {
			rc = fail(d, PMK_ENOTSUP,
				  "no top-down definitions (known models: skl, "
				  "skx, clx, icl, icx, tgl, spr, adl_glc, "
				  "amd64_fam19h_zen4, amd64_fam1ah_zen5) for "
				  "CPU model ",
				  model);
			goto bad;
		}
		t->idx[p] = i;
		for (int k = 0; k < pmk_defs_base_count(t->defs, i); k++) {
			const char *b = pmk_defs_base(t->defs, i, k);
			int j;
			for (j = 0; j < t->nev; j++)
				if (!strcmp(t->ev[j], b))
					break;
			if (j < t->nev)
				continue;
			if (t->nev == TD_MAXEV) {
				rc = fail(d, PMK_ERANGE, "too many events", "");
				goto bad;
			}
			t->ev[j] = strdup(b);
			if (!t->ev[j]) {
				rc = PMK_ENOMEM;
				goto bad;
			}
			t->resolved[j] = pmk_defs_base_resolved(t->defs, i, k);
			t->event[j] = pmk_defs_base_event(t->defs, i, k);
			t->nev++;
		}
	}
	*out = t;
	return 0;
bad:
	pmk_topdown_free(t);
	return rc;
}

int pmk_topdown_event_count(const pmk_topdown *t)
{
	return t->nev;
}

const char *pmk_topdown_event(const pmk_topdown *t, int i, int *resolved,
			      const pmk_event **ev)
{
	if (i < 0 || i >= t->nev)
		return NULL;
	if (resolved)
		*resolved = t->resolved[i];
	if (ev)
		*ev = t->event[i];
	return t->ev[i];
}

int pmk_topdown_eval(const pmk_topdown *t, const double *values,
		     double *parts_out)
{
	int bad = 0;
	for (int p = 0; p < PMK_TD_NPART; p++) {
		int i = t->idx[p], n = pmk_defs_base_count(t->defs, i);
		double v[TD_MAXEV];
		unsigned fl = 0;
		for (int k = 0; k < n && k < TD_MAXEV; k++) {
			const char *b = pmk_defs_base(t->defs, i, k);
			v[k] = NAN;
			for (int j = 0; j < t->nev; j++)
				if (!strcmp(t->ev[j], b))
					v[k] = values[j];
		}
		parts_out[p] = pmk_defs_eval(t->defs, i, v, &fl);
		if (fl || isnan(parts_out[p]))
			bad = 1;
	}
	return bad ? PMK_EINVAL : 0;
}
