/*
 * declared.c: the cache sizes the machine declares. sysfs cacheinfo first;
 * else CPUID: leaf 4 (Intel) or 0x8000001D (AMD) deterministic cache
 * parameters, else AMD's legacy leaves 0x80000005/0x80000006. In a VM these
 * can be empty or absurd (a whole socket's L3), which is why the probe puts
 * them beside the measured sizes rather than trusting them.
 */
#include <stdio.h>
#include <string.h>

#include "pmkit/bench.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#define HAVE_CPUID 1
#endif

static size_t read_size(const char *path)
{
	char buf[64];
	FILE *f = fopen(path, "r");
	size_t v = 0;
	if (!f)
		return 0;
	if (fgets(buf, sizeof buf, f)) {
		char unit = 0;
		unsigned long n = 0;
		if (sscanf(buf, "%lu%c", &n, &unit) >= 1) {
			v = n;
			if (unit == 'K')
				v <<= 10;
			else if (unit == 'M')
				v <<= 20;
		}
	}
	fclose(f);
	return v;
}

static int from_sysfs(pmk_declared *d)
{
	int found = 0;
	for (int i = 0; i < 8; i++) {
		char p[128], type[32] = "";
		FILE *f;
		size_t size, level, line;
		snprintf(p, sizeof p,
			 "/sys/devices/system/cpu/cpu0/cache/index%d/type", i);
		f = fopen(p, "r");
		if (!f)
			break;
		if (!fgets(type, sizeof type, f))
			type[0] = 0;
		fclose(f);
		snprintf(p, sizeof p,
			 "/sys/devices/system/cpu/cpu0/cache/index%d/level", i);
		level = read_size(p);
		snprintf(p, sizeof p,
			 "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
		size = read_size(p);
		snprintf(p, sizeof p,
			 "/sys/devices/system/cpu/cpu0/cache/index%d/"
			 "coherency_line_size",
			 i);
		line = read_size(p);
		if (!strncmp(type, "Instruction", 11) || !size)
			continue;
		if (level == 1)
			d->l1d = size;
		else if (level == 2)
			d->l2 = size;
		else if (level == 3)
			d->l3 = size;
		if (line && !d->line)
			d->line = line;
		found = 1;
	}
	return found;
}

#ifdef HAVE_CPUID
static int from_leaf(pmk_declared *d, unsigned leaf)
{
	unsigned a, b, c, dx, max;
	int found = 0;
	max = __get_cpuid_max(leaf & 0x80000000u, NULL);
	if (max < leaf)
		return 0;
	for (unsigned i = 0; i < 8; i++) {
		__cpuid_count(leaf, i, a, b, c, dx);
		unsigned type = a & 31, level = (a >> 5) & 7;
		size_t ways = ((b >> 22) & 0x3ff) + 1,
		       parts = ((b >> 12) & 0x3ff) + 1, line = (b & 0xfff) + 1,
		       sets = (size_t)c + 1;
		size_t size = ways * parts * line * sets;
		if (type == 0)
			break;
		if (type == 2)
			continue;
		if (level == 1)
			d->l1d = size;
		else if (level == 2)
			d->l2 = size;
		else if (level == 3)
			d->l3 = size;
		if (!d->line)
			d->line = line;
		found = 1;
	}
	return found;
}

static void amd_legacy(pmk_declared *d, int *found)
{
	unsigned a, b, c, dx;
	if (__get_cpuid_max(0x80000000u, NULL) < 0x80000006u)
		return;
	__cpuid(0x80000005u, a, b, c, dx);
	if (!*found && (c >> 24)) {
		d->l1d = (size_t)(c >> 24) << 10;
		d->line = c & 0xff;
	}
	if ((b >> 16) & 0xff)
		d->dtlb_entries = (b >> 16) & 0xff;
	__cpuid(0x80000006u, a, b, c, dx);
	if (!*found) {
		if (c >> 16)
			d->l2 = (size_t)(c >> 16) << 10;
		if (dx >> 18)
			d->l3 = (size_t)(dx >> 18) * (512u << 10);
		*found = d->l1d || d->l2;
	}
}
#endif

void pmk_declared_caches(pmk_declared *d)
{
	int found;
	memset(d, 0, sizeof *d);
	found = from_sysfs(d);
	if (found)
		snprintf(d->source, sizeof d->source, "sysfs");
#ifdef HAVE_CPUID
	{
		unsigned a, b, c, dx;
		int vendor_amd = 0;
		__cpuid(0, a, b, c, dx);
		vendor_amd = b == 0x68747541u; /* "Auth" */
		if (!found) {
			found = from_leaf(d, vendor_amd ? 0x8000001Du : 4);
			if (found)
				snprintf(d->source, sizeof d->source, "cpuid");
		}
		if (vendor_amd) {
			int had = found;
			amd_legacy(d, &found);
			if (!had && found)
				snprintf(d->source, sizeof d->source,
					 "cpuid 0x80000005/6");
		}
	}
#endif
}
