/*
 * stat_output.c: printing counts. Text for people (with units, ratios per
 * instruction, how much of the time a multiplexed event was counted and
 * its error estimate), CSV and JSON for machines.
 */
#include <math.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/stat_output.h"

static const struct stat_row *find(const struct stat_result *r,
				   const char *name)
{
	for (int i = 0; i < r->nrows; i++)
		if (!strcmp(r->rows[i].name, name) && r->rows[i].status == 0 &&
		    !(r->rows[i].flags & PMK_VALUE_NOT_COUNTED))
			return &r->rows[i];
	return NULL;
}

static int is_countable_value(const struct stat_row *w)
{
	return w->status == 0 && !(w->flags & PMK_VALUE_NOT_COUNTED);
}

/* "#  1.23 insn per cycle" and friends. */
static void ratio(FILE *out, const struct stat_result *r,
		  const struct stat_row *w)
{
	const struct stat_row *clk = find(r, "task-clock"),
			      *cyc = find(r, "cycles"),
			      *ins = find(r, "instructions");
	double secs = clk ? clk->value / 1e3 : r->elapsed_s;
	if (!strcmp(w->name, "task-clock") && r->elapsed_s > 0)
		fprintf(out, "  #  %8.3f CPUs utilized",
			w->value / 1e3 / r->elapsed_s / (r->repeats ? 1 : 1));
	else if (!strcmp(w->name, "cycles") && clk && clk->value > 0)
		fprintf(out, "  #  %8.3f GHz", w->value / (clk->value * 1e6));
	else if (!strcmp(w->name, "instructions") && cyc && cyc->value > 0)
		fprintf(out, "  #  %8.2f insn per cycle", w->value / cyc->value);
	else if (ins && ins->value > 0 && w != ins && !w->unit[0] &&
		 strcmp(w->name, "cycles") && !w->derived &&
		 strcmp(w->name, "context-switches") &&
		 strcmp(w->name, "cpu-migrations") &&
		 strcmp(w->name, "page-faults"))
		fprintf(out, "  #  %8.3f per 1k instructions",
			w->value * 1000 / ins->value);
	else if (!w->unit[0] && !w->derived && secs > 0 &&
		 (!strcmp(w->name, "context-switches") ||
		  !strcmp(w->name, "cpu-migrations") ||
		  !strcmp(w->name, "page-faults")))
		fprintf(out, "  #  %8.3f K/sec", w->value / secs / 1e3);
}

void stat_print_text(FILE *out, const struct stat_result *r)
{
	if (r->interval_s < 0) {
		fprintf(out, "\n Performance counter stats for '%s'", r->command);
		if (r->repeats > 1)
			fprintf(out, " (%d runs)", r->repeats);
		fprintf(out, ":\n\n");
	}
	for (int i = 0; i < r->nrows; i++) {
		const struct stat_row *w = &r->rows[i];
		if (r->interval_s >= 0)
			fprintf(out, "%14.6f ", r->interval_s);
		if (w->status) {
			fprintf(out, "  %18s      %-26s %s\n", "<not supported>",
				w->name, w->reason ? w->reason : "");
			continue;
		}
		if (w->flags & PMK_VALUE_NOT_COUNTED) {
			fprintf(out, "  %18s      %-26s %s\n", "<not counted>",
				w->name,
				"(never scheduled on a counter: group too large?)");
			continue;
		}
		if (w->unit[0])
			fprintf(out, "  %18.2f %-5s %-26s", w->value, w->unit,
				w->name);
		else if (w->derived || fabs(w->value - floor(w->value)) > 1e-9 ||
			 fabs(w->value) >= 1e15)
			fprintf(out, "  %18.4g       %-26s", w->value, w->name);
		else
			fprintf(out, "  %18.0f       %-26s", w->value, w->name);
		if (w->flags & PMK_VALUE_NAN)
			fprintf(out, "  # division by zero");
		else
			ratio(out, r, w);
		if (w->flags & PMK_VALUE_MULTIPLEXED)
			fprintf(out, "  (%.1f%% counted, +-%.2f%%)",
				w->counted * 100,
				w->value ? w->err / fabs(w->value) * 100 : 0);
		if (r->repeats > 1 && w->value)
			fprintf(out, "  ( +- %5.2f%% )",
				w->stddev / fabs(w->value) * 100);
		if (w->user_only)
			fprintf(out, "  (user space only)");
		fputc('\n', out);
	}
	if (r->interval_s < 0) {
		fprintf(out, "\n  %14.9f seconds time elapsed\n", r->elapsed_s);
		if (r->user_s >= 0)
			fprintf(out, "  %14.9f seconds user\n  %14.9f seconds sys\n",
				r->user_s, r->sys_s);
		fputc('\n', out);
	}
	if (r->note && r->interval_s < 0)
		fprintf(out, "note: %s\n", r->note);
}

void stat_print_csv(FILE *out, const char *sep, const struct stat_result *r)
{
	for (int i = 0; i < r->nrows; i++) {
		const struct stat_row *w = &r->rows[i];
		if (r->interval_s >= 0)
			fprintf(out, "%.6f%s", r->interval_s, sep);
		if (w->status)
			fprintf(out, "<not supported>%s%s%s%s", sep, w->unit, sep,
				w->name);
		else if (w->flags & PMK_VALUE_NOT_COUNTED)
			fprintf(out, "<not counted>%s%s%s%s", sep, w->unit, sep,
				w->name);
		else
			fprintf(out, "%.15g%s%s%s%s", w->value, sep, w->unit, sep,
				w->name);
		fprintf(out, "%s%llu%s%.2f%s%.6g%s%.6g%s", sep, w->running_ns,
			sep, is_countable_value(w) ? w->counted * 100 : 0.0, sep,
			w->err, sep, w->stddev, sep);
		if (w->status && w->reason) {
			/* the reason is free text: keep the separator out */
			for (const char *c = w->reason; *c; c++)
				fputc(strchr(sep, *c) ? ' ' : *c, out);
		} else if (w->flags & PMK_VALUE_NAN)
			fputs("division by zero", out);
		else if (w->user_only)
			fputs("user space only", out);
		fputc('\n', out);
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
		fprintf(out, ",\"user_s\":");
		cli_json_num(out, r->user_s);
		fprintf(out, ",\"sys_s\":");
		cli_json_num(out, r->sys_s);
	}
	fprintf(out, ",\"notes\":[");
	if (r->note)
		cli_json_str(out, r->note);
	fprintf(out, "],\"events\":[");
	for (int i = 0; i < r->nrows; i++) {
		const struct stat_row *w = &r->rows[i];
		const char *status = w->status ? "not supported"
				     : (w->flags & PMK_VALUE_NOT_COUNTED)
					     ? "not counted"
					     : "counted";
		fprintf(out, "%s{\"event\":", i ? "," : "");
		cli_json_str(out, w->name);
		fprintf(out, ",\"status\":\"%s\",\"value\":", status);
		cli_json_num(out, is_countable_value(w) ? w->value : NAN);
		fprintf(out, ",\"unit\":");
		cli_json_str(out, w->unit);
		fprintf(out, ",\"raw\":%llu,\"enabled_ns\":%llu,\"running_ns\":%llu,"
			     "\"counted_fraction\":",
			w->raw, w->enabled_ns, w->running_ns);
		cli_json_num(out, is_countable_value(w) ? w->counted : 0);
		fprintf(out, ",\"multiplexed\":%s,\"error\":",
			(w->flags & PMK_VALUE_MULTIPLEXED) ? "true" : "false");
		cli_json_num(out, w->err);
		fprintf(out, ",\"interval\":[");
		cli_json_num(out, w->lo);
		fputc(',', out);
		cli_json_num(out, w->hi);
		fprintf(out, "],\"stddev\":");
		cli_json_num(out, w->stddev);
		fprintf(out, ",\"division_by_zero\":%s,\"user_only\":%s",
			(w->flags & PMK_VALUE_NAN) ? "true" : "false",
			w->user_only ? "true" : "false");
		if (w->reason) {
			fprintf(out, ",\"reason\":");
			cli_json_str(out, w->reason);
		}
		fputc('}', out);
	}
	fprintf(out, "]}\n");
}
