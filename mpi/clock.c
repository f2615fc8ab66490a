/*
 * clock.c: which clock libpmkit-mpi's wrappers read (clock.h). The choice
 * is pmk__mpi_clock_pick, a function of facts; pmk__mpi_counter_usable
 * gathers the host's: the clocksource, the CPU's flags, kvm-clock's
 * parameters page (copied out through a pipe, so that a page that is not
 * there gives an error, not a signal) and a 200 us measurement of the
 * counter against CLOCK_MONOTONIC.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mpi/clock.h"

int pmk__mpi_pvclock_parse(const unsigned char *b, size_t n,
			   struct pmk__mpi_pvclock *pv)
{
	uint64_t v[4];
	if (n < PMK__MPI_PVCLOCK_BYTES)
		return 0;
	/* version, pad; tsc_timestamp; system_time; mul, shift, flags */
	for (int i = 0; i < 4; i++) {
		v[i] = 0;
		for (int k = 7; k >= 0; k--)
			v[i] = v[i] << 8 | b[8 * i + k];
	}
	pv->version = (uint32_t)v[0];
	pv->tsc_timestamp = v[1];
	pv->system_time = v[2];
	pv->mul = (uint32_t)v[3];
	pv->shift = (int8_t)(uint8_t)(v[3] >> 32);
	pv->flags = (uint8_t)(v[3] >> 40);
	return pv->mul != 0 && pv->shift >= -32 && pv->shift <= 32;
}

double pmk__mpi_pvclock_rate(const struct pmk__mpi_pvclock *pv)
{
	/* ns per tick: mul / 2^32 x 2^shift */
	double ns = (double)pv->mul / 4294967296.0;
	for (int s = pv->shift; s > 0; s--)
		ns *= 2;
	for (int s = pv->shift; s < 0; s++)
		ns /= 2;
	return 1 / ns;
}

/* `word` as a whole word of the space-separated `list` */
static int has_word(const char *list, const char *word)
{
	size_t n = strlen(word);
	for (const char *p = list; (p = strstr(p, word)) != NULL; p += n)
		if ((p == list || p[-1] == ' ' || p[-1] == '\t' ||
		     p[-1] == ':') &&
		    (p[n] == 0 || p[n] == ' ' || p[n] == '\n'))
			return 1;
	return 0;
}

int pmk__mpi_clock_pick(const struct pmk__mpi_clock_facts *f)
{
	const char *no = NULL; /* why not the counter */
	int x86 = f->arch && !strcmp(f->arch, "x86_64");
	int arm = f->arch && !strcmp(f->arch, "aarch64");
	const char *cs = f->clocksource ? f->clocksource : "";
	double r;
	if ((x86 && !strcmp(cs, "tsc")) ||
	    (arm && !strcmp(cs, "arch_sys_counter")))
		return PMK__MPI_CLOCK_COUNTER;
	if (!x86 || strcmp(cs, "kvm-clock"))
		no = "the kernel keeps time with another clock";
	else if (!f->cpu_flags || !has_word(f->cpu_flags, "constant_tsc") ||
		 !has_word(f->cpu_flags, "nonstop_tsc"))
		no = "kvm-clock, and the CPU does not say its TSC keeps its "
		     "rate";
	else if (!f->pv)
		no = "kvm-clock, its parameters page not found";
	else if (!(f->pv->flags & PMK__MPI_PVCLOCK_STABLE))
		no = "kvm-clock, the hypervisor does not flag the TSC stable";
	else if (f->pv->version & 1)
		no = "kvm-clock, its parameters page was being updated";
	else if (f->measured <= 0 ||
		 (r = pmk__mpi_pvclock_rate(f->pv) / f->measured) < 0.99 ||
		 r > 1.01)
		no = "kvm-clock, the TSC's measured rate is not its page's";
	return no ? PMK__MPI_CLOCK_MONO : PMK__MPI_CLOCK_PVCLOCK;
}

/* ---- the host's facts ---- */

static void read_line(const char *path, char *buf, size_t n)
{
	FILE *f = fopen(path, "r");
	buf[0] = 0;
	if (!f)
		return;
	if (!fgets(buf, (int)n, f))
		buf[0] = 0;
	fclose(f);
	buf[strcspn(buf, "\n")] = 0;
}

/* The first "flags" line of /proc/cpuinfo (malloc'd; NULL: none) */
static char *cpu_flags(void)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char *line = NULL;
	size_t cap = 0;
	if (!f)
		return NULL;
	while (getline(&line, &cap, f) > 0)
		if (!strncmp(line, "flags", 5))
			break;
	if (line && strncmp(line, "flags", 5)) {
		free(line);
		line = NULL;
	}
	fclose(f);
	return line;
}

/* Where the vDSO's pvclock page lies: the first page of [vvar_vclock]
 * (Linux 6.13 and later), else the second of [vvar] (earlier kernels) */
static uintptr_t pvclock_addr(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512];
	uintptr_t vclock = 0, vvar = 0;
	unsigned long lo, hi;
	long page = sysconf(_SC_PAGESIZE);
	if (!f)
		return 0;
	while (fgets(line, sizeof line, f))
		if (sscanf(line, "%lx-%lx", &lo, &hi) == 2) {
			if (strstr(line, "[vvar_vclock]"))
				vclock = lo;
			else if (strstr(line, "[vvar]") && page > 0 &&
				 hi - lo >= 2 * (unsigned long)page)
				vvar = lo + (unsigned long)page;
		}
	fclose(f);
	return vclock ? vclock : vvar;
}

/* Copy the page's parameters out through a pipe: an address that is not
 * mapped gives EFAULT here, not a SIGBUS in the wrapper's process. Read
 * until two copies agree and the version is even (not being updated). */
int pmk__mpi_pvclock_copy(uintptr_t addr, struct pmk__mpi_pvclock *pv)
{
	unsigned char b[2][PMK__MPI_PVCLOCK_BYTES];
	int p[2], ok = 0;
	if (!addr || pipe2(p, O_CLOEXEC))
		return 0;
	for (int tries = 0; tries < 8 && !ok; tries++) {
		for (int i = 0; i < 2; i++)
			if (write(p[1], (const void *)addr, sizeof b[i]) !=
				(ssize_t)sizeof b[i] ||
			    read(p[0], b[i], sizeof b[i]) !=
				(ssize_t)sizeof b[i])
				goto out;
		ok = !memcmp(b[0], b[1], sizeof b[0]) &&
		     pmk__mpi_pvclock_parse(b[0], sizeof b[0], pv) &&
		     !(pv->version & 1);
	}
out:
	close(p[0]);
	close(p[1]);
	return ok;
}

double pmk__mpi_counter_rate(uint64_t span_ns)
{
	uint64_t n0 = pmk__mpi_mono_ns(), c0 = pmk__mpi_counter(), n1, c1;
	do {
		n1 = pmk__mpi_mono_ns();
		c1 = pmk__mpi_counter();
	} while (n1 - n0 < span_ns);
	return (double)(c1 - c0) / (double)(n1 - n0);
}

/* Where kvm-clock's page was found when its TSC was chosen (0: it was
 * not), and the page then */
static uintptr_t pv_addr;
static struct pmk__mpi_pvclock pv_at;

int pmk__mpi_counter_usable(void)
{
	struct pmk__mpi_clock_facts f = {0};
	struct pmk__mpi_pvclock pv = {0};
	char cs[64];
	char *flags = NULL;
	const char *env = getenv("PMKIT_MPI_CLOCK");
	uintptr_t addr = 0;
	int pick;
	pv_addr = 0;
	if (env && !strcmp(env, "monotonic"))
		return 0;
#if defined(__x86_64__)
	f.arch = "x86_64";
#elif defined(__aarch64__)
	f.arch = "aarch64";
#else
	f.arch = "";
#endif
	read_line("/sys/devices/system/clocksource/clocksource0/"
		  "current_clocksource",
		  cs, sizeof cs);
	f.clocksource = cs;
#if defined(__x86_64__)
	if (!strcmp(cs, "kvm-clock")) {
		flags = cpu_flags();
		f.cpu_flags = flags;
		addr = pvclock_addr();
		if (pmk__mpi_pvclock_copy(addr, &pv)) {
			f.pv = &pv;
			f.measured = pmk__mpi_counter_rate(200000);
		}
	}
#endif
	pick = pmk__mpi_clock_pick(&f);
	free(flags);
	if (pick == PMK__MPI_CLOCK_PVCLOCK) {
		pv_addr = addr;
		pv_at = pv;
	}
	return pick != PMK__MPI_CLOCK_MONO;
}

int pmk__mpi_pvclock_moved(const struct pmk__mpi_pvclock *then,
			   const struct pmk__mpi_pvclock *now)
{
	/* a new timestamp pair alone is the same rate, from a new origin */
	return !now || now->mul != then->mul || now->shift != then->shift ||
	       !(now->flags & PMK__MPI_PVCLOCK_STABLE);
}

int pmk__mpi_clock_changed(void)
{
	struct pmk__mpi_pvclock now;
	if (!pv_addr)
		return 0;
	return pmk__mpi_pvclock_moved(
	    &pv_at, pmk__mpi_pvclock_copy(pv_addr, &now) ? &now : NULL);
}
