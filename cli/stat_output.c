/*
 * stat_output.c: printing counts in perf's layouts (text, -x SEP, -j JSON
 * lines) with perf's metric column (stat_shadow.c: CPUs utilized, rates
 * per second, GHz, insn per cycle, % of all branches), plus pmkit's
 * extended columns and pmkit's own JSON schema; --metric-only's layout is
 * stat_metric_only.c's. Facts about perf's layouts come from running
 * perf 6.1; the tests in tests/count/perf_oracle.t compare them.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/stat_output.h"

static int countable(const struct stat_row *w)
{
	return w->status == 0 && !(w->flags & PMK_VALUE_NOT_COUNTED);
}

static double pct_running(const struct stat_row *w)
{
	return countable(w) ? w->counted * 100 : 100.0;
}

/* perf's +- in percent: the standard error of the mean over the runs */
static double sem_pct(const struct stat_row *w)
{
	return countable(w) && w->value ? w->sem / fabs(w->value) * 100 : 0;
}

static const char *what_not(const struct stat_row *w)
{
	return w->status ? "<not supported>" : "<not counted>";
}

/* The value as perf writes it in CSV: msec with 2 decimals, counts whole. */
static void csv_value(FILE *out, const struct stat_row *w)
{
	if (!countable(w))
		fputs(what_not(w), out);
	else if (w->unit[0])
		fprintf(out, "%.2f", w->value);
	else if (w->derived) /* pmkit's: as many digits as it has */
		fprintf(out, "%.15g", w->value);
	else
		fprintf(out, "%.0f", w->value);
}

/* pmkit's extended flags, one word each, separated by spaces */
static void flag_words(FILE *out, const struct stat_row *w, const char *sep)
{
	int n = 0;
	if (w->flags & PMK_VALUE_MULTIPLEXED)
		fprintf(out, "%smultiplexed", n++ ? " " : "");
	if (w->flags & PMK_VALUE_NAN)
		fprintf(out, "%sdivision-by-zero", n++ ? " " : "");
	if (w->user_only)
		fprintf(out, "%suser-only", n++ ? " " : "");
	if (w->status && w->reason) {
		fputs(n++ ? " " : "", out);
		/* the reason is free text: keep the separator out */
		for (const char *c = w->reason; *c; c++)
			fputc(sep && strchr(sep, *c) ? ' ' : *c, out);
	}
}

static void text_prefix(FILE *out, const struct stat_result *r,
			const struct stat_row *w)
{
	if (r->interval_s >= 0)
		fprintf(out, "%16.9f ", r->interval_s);
	if (!w->aggr)
		return;
	if (r->aggr == STAT_AGGR_DIE || r->aggr == STAT_AGGR_CACHE)
		/* perf's wider die column (and the cache's, as wide) */
		fprintf(out, "%-12s %4d ", w->aggr, w->aggr_n);
	else if (STAT_AGGR_COUNTS(r->aggr))
		fprintf(out, "%-8s %2d ", w->aggr, w->aggr_n);
	else if (r->aggr == STAT_AGGR_THREAD) {
		/* perf's "%16s-%-8d ": comm right-aligned, tid left */
		const char *dash = strrchr(w->aggr, '-');
		if (dash)
			fprintf(out, "%16.*s-%-8s ", (int)(dash - w->aggr),
				w->aggr, dash + 1);
		else
			fprintf(out, "%16s ", w->aggr);
	}
	else
		fprintf(out, "%-10s ", w->aggr);
}

static int elapsed_precision(double sem)
{
	if (!(sem > 0) || sem >= 1)
		return 2;
	return (int)ceil(-log10(sem)) + 2;
}

/* perf's --table: each run's time, its difference from the mean, and a
 * bar of one '#' and one more per 5 % of difference, the comment lines
 * indented to where the numbers start */
static void print_table(FILE *out, const struct stat_result *r, int p)
{
	char num[64];
	int indent = 0;
	snprintf(num, sizeof num, "%18.*f", p, r->elapsed_s);
	while (num[indent] == ' ')
		indent++;
	fprintf(out, "\n%*s# Table of individual measurements:\n", indent, "");
	for (int i = 0; i < r->nrun_s; i++) {
		double run = r->run_s[i], d = run - r->elapsed_s;
		int pct = run > 0 ? (int)(100.0 * d / run) : 0;
		int bars = 1 + abs(pct / 5);
		fprintf(out, "%18.*f (%+.*f) ", p, run, p, d);
		for (int b = 0; b < bars && b < 100; b++)
			fputc('#', out);
		fputc('\n', out);
	}
	fprintf(out, "\n%*s# Final result:\n", indent, "");
}

/* The cgroup printed after a row's event: its own, else -G's, or NULL */
static const char *row_cgroup(const struct stat_result *r,
			      const struct stat_row *w)
{
	return w->cgroup ? w->cgroup : r->cgroup;
}

/* The note on the events that counted nothing while on counters and were
 * off them through a start the others saw change (PMK_VALUE_START_UNSEEN):
 * their error bars do not cover what they may have missed there. */
static void start_note(FILE *out, const struct stat_result *r)
{
	int n = 0;
	for (int i = 0; i < r->nrows; i++) {
		const struct stat_row *w = &r->rows[i];
		if (!(w->flags & PMK_VALUE_START_UNSEEN) || w->status)
			continue;
		if (n < 6)
			fprintf(out, "%s%s", n ? ", " : "note: ", w->name);
		n++;
	}
	if (n > 6)
		fprintf(out, " and %d more", n - 6);
	if (n)
		fprintf(out, ": counted nothing while on counters, and were "
			     "off them at the start, where the other events' "
			     "rates changed: what they missed there is unknown "
			     "(their error does not cover it)\n");
}

void stat_print_text(FILE *out, const struct stat_result *r)
{
	if (r->interval_s < 0) {
		fprintf(out, "\n Performance counter stats for %s", r->target);
		if (r->repeats > 1)
			fprintf(out, " (%d runs)", r->repeats);
		fprintf(out, ":\n\n");
	} else if (r->first_interval) {
		if (!r->metric_only)
			fprintf(out, "#           time             counts unit "
				     "events\n");
	}
	if (r->metric_only)
		stat_mo_text(out, r);
	for (int i = 0; i < r->nrows && !r->null_run && !r->metric_only; i++) {
		const struct stat_row *w = &r->rows[i];
		double mv;
		char mu[32];
		text_prefix(out, r, w);
		if (!countable(w) && row_cgroup(r, w)) {
			/* perf: a narrower name, then the cgroup */
			fprintf(out, "%18s %-4s %-25s %s%35s\n", what_not(w),
				w->unit, w->name, row_cgroup(r, w), "");
			continue;
		}
		if (!countable(w)) {
			fprintf(out, "%18s %-4s %-32s", what_not(w), w->unit,
				w->name);
			/* the reason once: not on every interval's row */
			if (w->status && w->reason && !w->bare &&
			    (r->interval_s < 0 || r->first_interval))
				fprintf(out, "  (%s)", w->reason);
			else if (!w->status && r->interval_s < 0)
				fprintf(out, "  (never scheduled on a counter: "
					     "group too large?)");
			else /* perf's blank metric column of such a row */
				fprintf(out, "%28s", "");
			fputc('\n', out);
			continue;
		}
		if (w->unit[0])
			fprintf(out, "%18.2f %-4s %-32s", w->value, w->unit,
				w->name);
		else if (w->derived)
			fprintf(out, "%18.4g %-4s %-32s", w->value, "", w->name);
		else
			fprintf(out, "%18.0f %-4s %-32s", w->value, "", w->name);
		if (row_cgroup(r, w))
			fprintf(out, " %s", row_cgroup(r, w));
		if (w->flags & PMK_VALUE_NAN)
			fprintf(out, " # %8s %-23s", "", "division by zero");
		else if (stat_row_metric(r, w, &mv, mu, sizeof mu))
			fprintf(out, " # %8.3f %-23s", mv, mu);
		else
			fprintf(out, "   %8s %-23s", "", "");
		if (r->repeats > 1 && sem_pct(w) != 0) /* perf: none at 0 */
			fprintf(out, "  ( +- %5.2f%% )", sem_pct(w));
		if ((w->flags & PMK_VALUE_MULTIPLEXED) && !r->extended)
			fprintf(out, "  (%.2f%%)", w->counted * 100);
		if (r->extended) {
			fprintf(out, "  [err %.4g", w->err);
			if (w->flags & PMK_VALUE_MULTIPLEXED)
				fprintf(out, ", %.1f%% counted, %.4g..%.4g",
					w->counted * 100, w->lo, w->hi);
			if (r->repeats > 1)
				fprintf(out, ", sd %.4g", w->stddev);
			if (w->flags & PMK_VALUE_START_UNSEEN)
				fprintf(out, ", start unseen");
			fputc(']', out);
		}
		if (w->user_only)
			fprintf(out, "  (user space only)");
		fputc('\n', out);
	}
	if (r->interval_s < 0) {
		if (r->repeats > 1) {
			/* perf's: as many decimals as the error's first
			 * significant digit needs, and two more */
			int p = elapsed_precision(r->elapsed_sem_s);
			if (r->run_s)
				print_table(out, r, p);
			else
				fputc('\n', out);
			fprintf(out, "%18.*f +- %.*f seconds time elapsed  "
				     "( +- %5.2f%% )\n",
				p, r->elapsed_s, p, r->elapsed_sem_s,
				r->elapsed_s > 0
					? r->elapsed_sem_s / r->elapsed_s * 100
					: 0);
		} else
			fprintf(out, "\n%18.9f seconds time elapsed\n",
				r->elapsed_s);
		if (r->user_s >= 0 && r->repeats <= 1)
			fprintf(out, "\n%18.9f seconds user\n%18.9f seconds sys\n",
				r->user_s, r->sys_s);
		fputc('\n', out);
		if (r->note)
			fprintf(out, "note: %s\n", r->note);
		start_note(out, r);
		fputc('\n', out); /* perf ends with two empty lines */
	}
}

void stat_print_csv(FILE *out, const char *sep, const struct stat_result *r)
{
	if (r->metric_only) {
		stat_mo_csv(out, sep, r);
		return;
	}
	for (int i = 0; i < r->nrows && !r->null_run; i++) {
		const struct stat_row *w = &r->rows[i];
		double mv;
		char mu[32];
		int has = stat_row_metric(r, w, &mv, mu, sizeof mu);
		if (r->interval_s >= 0)
			fprintf(out, "%16.9f%s", r->interval_s, sep);
		else if (r->csv_summary)
			fprintf(out, "%16s%s", "summary", sep);
		if (w->aggr) {
			fprintf(out, "%s%s", w->aggr, sep);
			if (STAT_AGGR_COUNTS(r->aggr))
				fprintf(out, "%d%s", w->aggr_n, sep);
		}
		csv_value(out, w);
		fprintf(out, "%s%s%s%s", sep, w->unit, sep, w->name);
		if (row_cgroup(r, w))
			fprintf(out, "%s%s", sep, row_cgroup(r, w));
		if (r->repeats > 1)
			fprintf(out, "%s%.2f%%", sep, sem_pct(w));
		fprintf(out, "%s%llu%s%.2f%s", sep,
			countable(w) ? w->running_ns : 0ULL, sep, pct_running(w),
			sep);
		if (has)
			fprintf(out, "%.3f%s%s", mv, sep, mu);
		else
			fputs(sep, out);
		if (r->extended) {
			fprintf(out, "%s%.6g%s%.6g%s%.6g%s%.6g%s", sep, w->err, sep,
				w->lo, sep, w->hi, sep, w->stddev, sep);
			flag_words(out, w, sep);
		}
		fputc('\n', out);
	}
}

void stat_print_perf_json(FILE *out, const struct stat_result *r)
{
	if (r->metric_only) {
		stat_mo_perf_json(out, r);
		return;
	}
	for (int i = 0; i < r->nrows && !r->null_run; i++) {
		const struct stat_row *w = &r->rows[i];
		double mv = 0;
		char mu[32];
		int has = stat_row_metric(r, w, &mv, mu, sizeof mu);
		fputc('{', out);
		if (r->interval_s >= 0)
			fprintf(out, "\"interval\" : %.9f, ", r->interval_s);
		if (w->aggr) {
			const char *v = w->aggr;
			if (r->aggr == STAT_AGGR_CPU && !strncmp(v, "CPU", 3))
				v += 3;
			fprintf(out, "\"%s\" : ", stat_aggr_key(r->aggr));
			cli_json_str(out, v);
			fprintf(out, ", ");
			if (STAT_AGGR_COUNTS(r->aggr))
				fprintf(out, "\"aggregate-number\" : %d, ",
					w->aggr_n);
		}
		if (countable(w))
			fprintf(out, "\"counter-value\" : \"%f\"", w->value);
		else
			fprintf(out, "\"counter-value\" : \"%s\"", what_not(w));
		fprintf(out, ", \"unit\" : ");
		cli_json_str(out, w->unit);
		fprintf(out, ", \"event\" : ");
		cli_json_str(out, w->name);
		if (row_cgroup(r, w)) {
			fprintf(out, ", \"cgroup\" : ");
			cli_json_str(out, row_cgroup(r, w));
		}
		if (r->repeats > 1)
			fprintf(out, ", \"variance\" : %.2f", sem_pct(w));
		fprintf(out,
			", \"event-runtime\" : %llu, \"pcnt-running\" : %.2f, "
			"\"metric-value\" : %f, \"metric-unit\" : ",
			countable(w) ? w->running_ns : 0ULL, pct_running(w),
			has && isfinite(mv) ? mv : 0.0);
		cli_json_str(out, has ? mu : "");
		fputs("}\n", out);
	}
}

void stat_print_json(FILE *out, const struct stat_result *r)
{
	fprintf(out, "{\"schema\":\"pmkit-stat/1\",\"command\":");
	cli_json_str(out, r->command);
	if (r->interval_s >= 0) {
		fprintf(out, ",\"interval_s\":");
		cli_json_num(out, r->interval_s);
	} else {
		fprintf(out, ",\"exit_status\":%d,\"repeats\":%d,\"elapsed_s\":",
			r->exit_status, r->repeats);
		cli_json_num(out, r->elapsed_s);
		fprintf(out, ",\"elapsed_sem_s\":");
		cli_json_num(out, r->elapsed_sem_s);
		fprintf(out, ",\"user_s\":");
		cli_json_num(out, r->user_s);
		fprintf(out, ",\"sys_s\":");
		cli_json_num(out, r->sys_s);
	}
	fprintf(out, ",\"notes\":[");
	if (r->note)
		cli_json_str(out, r->note);
	fprintf(out, "],\"events\":[");
	for (int i = 0; i < r->nrows && !r->null_run; i++) {
		const struct stat_row *w = &r->rows[i];
		double mv;
		char mu[32];
		const char *status = w->status ? "not supported"
				     : (w->flags & PMK_VALUE_NOT_COUNTED)
					     ? "not counted"
					     : "counted";
		fprintf(out, "%s{\"event\":", i ? "," : "");
		cli_json_str(out, w->name);
		if (w->aggr) {
			fprintf(out, ",\"aggr\":");
			cli_json_str(out, w->aggr);
			if (w->aggr_n)
				fprintf(out, ",\"aggr_cpus\":%d", w->aggr_n);
		}
		if (row_cgroup(r, w)) {
			fprintf(out, ",\"cgroup\":");
			cli_json_str(out, row_cgroup(r, w));
		}
		fprintf(out, ",\"status\":\"%s\",\"value\":", status);
		cli_json_num(out, countable(w) ? w->value : NAN);
		fprintf(out, ",\"unit\":");
		cli_json_str(out, w->unit);
		fprintf(out, ",\"raw\":%llu,\"enabled_ns\":%llu,\"running_ns\":%llu,"
			     "\"counted_fraction\":",
			w->raw, w->enabled_ns, w->running_ns);
		cli_json_num(out, countable(w) ? w->counted : 0);
		fprintf(out, ",\"multiplexed\":%s,\"error\":",
			(w->flags & PMK_VALUE_MULTIPLEXED) ? "true" : "false");
		cli_json_num(out, w->err);
		fprintf(out, ",\"interval\":[");
		cli_json_num(out, w->lo);
		fputc(',', out);
		cli_json_num(out, w->hi);
		fprintf(out, "],\"stddev\":");
		cli_json_num(out, w->stddev);
		fprintf(out, ",\"sem\":");
		cli_json_num(out, w->sem);
		if (stat_row_metric(r, w, &mv, mu, sizeof mu)) {
			fprintf(out, ",\"metric_value\":");
			cli_json_num(out, mv);
			fprintf(out, ",\"metric_unit\":");
			cli_json_str(out, mu);
		}
		fprintf(out, ",\"division_by_zero\":%s,\"user_only\":%s"
			     ",\"start_unseen\":%s",
			(w->flags & PMK_VALUE_NAN) ? "true" : "false",
			w->user_only ? "true" : "false",
			(w->flags & PMK_VALUE_START_UNSEEN) ? "true" : "false");
		if (w->reason) {
			fprintf(out, ",\"reason\":");
			cli_json_str(out, w->reason);
		}
		fputc('}', out);
	}
	fprintf(out, "]}\n");
}
