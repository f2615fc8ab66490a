/*
 * report_stats.c: `report --stats` and --header's compression line
 * (cli/report_stats.h), with perf's names for the record types.
 */
#include <string.h>

#include "cli/cli.h"
#include "cli/report_stats.h"

/* perf's names of its record types, by number */
static const char *type_name(int t)
{
	static const char *kernel[] = {NULL,	       "MMAP",
				       "LOST",	       "COMM",
				       "EXIT",	       "THROTTLE",
				       "UNTHROTTLE",   "FORK",
				       "READ",	       "SAMPLE",
				       "MMAP2",	       "AUX",
				       "ITRACE_START", "LOST_SAMPLES",
				       "SWITCH",       "SWITCH_CPU_WIDE",
				       "NAMESPACES",   "KSYMBOL",
				       "BPF_EVENT",    "CGROUP",
				       "TEXT_POKE",    "AUX_OUTPUT_HW_ID"};
	static const char *user[] = {
	    "ATTR",	      "EVENT_TYPE", "TRACING_DATA",  "BUILD_ID",
	    "FINISHED_ROUND", "ID_INDEX",   "AUXTRACE_INFO", "AUXTRACE",
	    "AUXTRACE_ERROR", "THREAD_MAP", "CPU_MAP",	     "STAT_CONFIG",
	    "STAT",	      "STAT_ROUND", "EVENT_UPDATE",  "TIME_CONV",
	    "FEATURE",	      "COMPRESSED", "FINISHED_INIT"};
	if (t > 0 && t < (int)(sizeof kernel / sizeof *kernel))
		return kernel[t];
	if (t >= 64 && t - 64 < (int)(sizeof user / sizeof *user))
		return user[t - 64];
	return NULL;
}

int cli_report_stats(const char *path, FILE *out)
{
	pmk_perfdata_info in;
	pmk_diag d;
	pmk_profile *p;
	uint64_t total = 0;
	if (pmk_rec_file_kind(path) != PMK_FILE_PERFDATA) {
		cli_error("--stats counts the records of a perf.data file; "
			  "'%s' is not one",
			  path);
		fprintf(stderr,
			"hint: pmkit convert %s F.data, then "
			"--stats -i F.data\n",
			path);
		return 1;
	}
	if (pmk_perfdata_info_read(path, &in, &d) < 0) {
		cli_diag(&d);
		return 1;
	}
	/* perf counts the records it processes: not the attributes, names
	 * and features of a pipe */
	for (int t = 0; t < PMK_PERFDATA_NTYPES; t++)
		if (t != 64 && t != 78 && t != 80)
			total += in.records[t];
	fprintf(out, "\nAggregated stats:\n%16s events: %10llu\n", "TOTAL",
		(unsigned long long)total);
	for (int t = 1; t < PMK_PERFDATA_NTYPES; t++) {
		const char *n = type_name(t);
		if (!in.records[t] || t == 64 || t == 78 || t == 80)
			continue;
		if (n)
			fprintf(out, "%16s events: %10llu  (%4.1f%%)\n", n,
				(unsigned long long)in.records[t],
				100.0 * (double)in.records[t] /
				    (double)(total ? total : 1));
	}
	/* then each event's samples */
	if (pmk_profile_load(&p, path, &d) == 0) {
		pmk_profile_stats st;
		pmk_profile_stats_get(p, &st);
		for (int e = 0; e < st.nevents; e++) {
			const char *name = pmk_profile_event_name(p, e);
			fprintf(out, "%s stats:\n", name ? name : "?");
			if (st.samples[e])
				fprintf(out, "%16s events: %10llu\n", "SAMPLE",
					(unsigned long long)st.samples[e]);
		}
		pmk_profile_free(p);
	}
	return 0;
}

void cli_report_compressed(const char *path, char *line, size_t size)
{
	pmk_perfdata_info in;
	pmk_diag d;
	line[0] = 0;
	if (pmk_rec_file_kind(path) != PMK_FILE_PERFDATA ||
	    pmk_perfdata_info_read(path, &in, &d) < 0 || !in.comp_type)
		return;
	snprintf(line, size, "# compressed : %s, level = %u, ratio = %u\n",
		 in.comp_type == 1 ? "Zstd" : "unknown", in.comp_level,
		 in.comp_ratio);
}
