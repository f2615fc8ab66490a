/*
 * papi/info.c: what PAPI tells about the machine, the program and its one
 * component. The hardware description is read from /proc/cpuinfo and
 * sysfs once; the component is "perf_event" (the name PAPI-based tools
 * look for), counting through libpmkit. Its hardware counter count is 0
 * when pmkit finds no core PMU (a VM without one: software events only).
 */
#include <dirent.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "papi/papi_int.h"

static pthread_once_t hw_once = PTHREAD_ONCE_INIT;
static PAPI_hw_info_t hw;

static long read_long(const char *path)
{
	FILE *f = fopen(path, "r");
	long v = -1;
	if (f) {
		if (fscanf(f, "%ld", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

static int read_str(const char *path, char *buf, size_t n)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	if (!fgets(buf, (int)n, f))
		buf[0] = 0;
	fclose(f);
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}

static void caches(void)
{
	char path[256], type[32];
	for (int i = 0; i < 16; i++) {
		snprintf(path, sizeof path,
			 "/sys/devices/system/cpu/cpu0/cache/index%d/level", i);
		long level = read_long(path);
		if (level < 1)
			break;
		if (level > PAPI_MAX_MEM_HIERARCHY_LEVELS)
			continue;
		PAPI_mh_level_t *l = &hw.mem_hierarchy.level[level - 1];
		int k = 0;
		while (k < PAPI_MH_MAX_LEVELS && l->cache[k].type)
			k++;
		if (k == PAPI_MH_MAX_LEVELS)
			continue;
		PAPI_mh_cache_info_t *c = &l->cache[k];
		snprintf(path, sizeof path,
			 "/sys/devices/system/cpu/cpu0/cache/index%d/type", i);
		read_str(path, type, sizeof type);
		c->type = !strcmp(type, "Data")          ? PAPI_MH_TYPE_DATA
			  : !strcmp(type, "Instruction") ? PAPI_MH_TYPE_INST
							 : PAPI_MH_TYPE_UNIFIED;
		snprintf(path, sizeof path,
			 "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
		c->size = (int)read_long(path) * 1024;
		snprintf(path, sizeof path,
			 "/sys/devices/system/cpu/cpu0/cache/index%d/coherency_line_size", i);
		c->line_size = (int)read_long(path);
		snprintf(path, sizeof path,
			 "/sys/devices/system/cpu/cpu0/cache/index%d/ways_of_associativity", i);
		c->associativity = (int)read_long(path);
		c->num_lines = c->line_size > 0 ? c->size / c->line_size : 0;
		if ((int)level > hw.mem_hierarchy.levels)
			hw.mem_hierarchy.levels = (int)level;
	}
}

static void hw_read(void)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[1024];
	int siblings = 0, cores = 0, maxphys = -1;
	float mhz = 0, bogomips = 0;
	while (f && fgets(line, sizeof line, f)) {
		char *v = strchr(line, ':');
		if (!v)
			continue;
		v++;
		v += strspn(v, " \t");
		v[strcspn(v, "\n")] = 0;
		if (!strncmp(line, "vendor_id", 9) && !hw.vendor_string[0])
			snprintf(hw.vendor_string, sizeof hw.vendor_string, "%s", v);
		else if (!strncmp(line, "model name", 10) && !hw.model_string[0])
			snprintf(hw.model_string, sizeof hw.model_string, "%s", v);
		else if (!strncmp(line, "cpu family", 10))
			hw.cpuid_family = atoi(v);
		else if (!strncmp(line, "model\t", 6) || !strncmp(line, "model ", 6))
			hw.cpuid_model = hw.model = atoi(v);
		else if (!strncmp(line, "stepping", 8))
			hw.cpuid_stepping = atoi(v), hw.revision = (float)atoi(v);
		else if (!strncmp(line, "cpu MHz", 7) && mhz == 0)
			mhz = (float)atof(v);
		else if (!strncmp(line, "BogoMIPS", 8) && bogomips == 0)
			bogomips = (float)atof(v);
		else if (!strncmp(line, "siblings", 8))
			siblings = atoi(v);
		else if (!strncmp(line, "cpu cores", 9))
			cores = atoi(v);
		else if (!strncmp(line, "physical id", 11) && atoi(v) > maxphys)
			maxphys = atoi(v);
		else if (!strncmp(line, "flags", 5) && strstr(v, " hypervisor"))
			hw.virtualized = 1;
		else if (!strncmp(line, "CPU implementer", 15) && !hw.vendor_string[0])
			snprintf(hw.vendor_string, sizeof hw.vendor_string, "ARM");
	}
	if (f)
		fclose(f);
	hw.vendor = strstr(hw.vendor_string, "Intel")  ? PAPI_VENDOR_INTEL
		    : strstr(hw.vendor_string, "AMD")  ? PAPI_VENDOR_AMD
		    : strstr(hw.vendor_string, "ARM")  ? PAPI_VENDOR_ARM
						       : PAPI_VENDOR_UNKNOWN;
	hw.totalcpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
	hw.sockets = maxphys >= 0 ? maxphys + 1 : 1;
	hw.cores = cores > 0 ? cores : hw.totalcpus / hw.sockets;
	hw.threads = cores > 0 && siblings >= cores ? siblings / cores : 1;
	int nodes = 0;
	DIR *d = opendir("/sys/devices/system/node");
	struct dirent *de;
	while (d && (de = readdir(d)))
		if (!strncmp(de->d_name, "node", 4) && de->d_name[4] >= '0' &&
		    de->d_name[4] <= '9')
			nodes++;
	if (d)
		closedir(d);
	hw.nnodes = nodes > 0 ? nodes : 1;
	hw.ncpu = hw.totalcpus / hw.nnodes;
	/* Arm's (and MIPS's) /proc/cpuinfo has no MHz: PAPI 7.0 takes
	 * BogoMIPS instead (linux-common.c), divided by the CPU count, and
	 * programs size thresholds by it (ctests/overflow.c: cpu_max_mhz *
	 * 20000), so a zero there would mean no overflow at all */
	if (mhz == 0 && bogomips > 0 && hw.totalcpus > 0)
		mhz = bogomips / (float)hw.totalcpus;
	long khz = read_long("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq");
	hw.cpu_max_mhz = khz > 0 ? (int)(khz / 1000) : (int)mhz;
	khz = read_long("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_min_freq");
	hw.cpu_min_mhz = khz > 0 ? (int)(khz / 1000) : (int)mhz;
	hw.mhz = mhz > 0 ? mhz : (float)hw.cpu_max_mhz;
	hw.clock_mhz = (int)hw.mhz;
	if (hw.virtualized)
		snprintf(hw.virtual_vendor_string, sizeof hw.virtual_vendor_string,
			 "%s", "unknown hypervisor");
	caches();
}

const PAPI_hw_info_t *PAPI_get_hardware_info(void)
{
	pthread_once(&hw_once, hw_read);
	return &hw;
}

double papi__mhz(void)
{
	pthread_once(&hw_once, hw_read);
	return hw.mhz > 0 ? hw.mhz : 1000.0;
}

int papi__num_cntrs(void)
{
	const pmk_target *t = pmk_target_host();
	/* pmkit's public API does not give a counter count: 6 general
	 * counters is what AMD (since family 15h) and Intel (4 + fixed)
	 * cores offer; none without a core PMU */
	return pmk_target_core_pmu(t) ? 6 : 0;
}

/* The program and its libraries, from the dynamic loader's list. */
static PAPI_exe_info_t exe;
static PAPI_shlib_info_t shlib;
static pthread_mutex_t map_lock = PTHREAD_MUTEX_INITIALIZER;

static void fill_map(PAPI_address_map_t *m, struct dl_phdr_info *info)
{
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *p = &info->dlpi_phdr[i];
		if (p->p_type != PT_LOAD)
			continue;
		char *a = (char *)(info->dlpi_addr + p->p_vaddr);
		if (p->p_flags & PF_X) {
			if (!m->text_start || (void *)a < m->text_start)
				m->text_start = a;
			if ((void *)(a + p->p_memsz) > m->text_end)
				m->text_end = a + p->p_memsz;
		} else if (p->p_flags & PF_W) {
			m->data_start = a;
			m->data_end = a + p->p_filesz;
			m->bss_start = a + p->p_filesz;
			m->bss_end = a + p->p_memsz;
		}
	}
}

static int exe_cb(struct dl_phdr_info *info, size_t size, void *arg)
{
	(void)size, (void)arg;
	fill_map(&exe.address_info, info);
	return 1; /* the first entry is the program */
}

const PAPI_exe_info_t *PAPI_get_executable_info(void)
{
	pthread_mutex_lock(&map_lock);
	if (!exe.fullname[0]) {
		ssize_t n = readlink("/proc/self/exe", exe.fullname,
				     sizeof exe.fullname - 1);
		exe.fullname[n > 0 ? n : 0] = 0;
		const char *b = strrchr(exe.fullname, '/');
		snprintf(exe.address_info.name, sizeof exe.address_info.name,
			 "%s", b ? b + 1 : exe.fullname);
		dl_iterate_phdr(exe_cb, NULL);
	}
	pthread_mutex_unlock(&map_lock);
	return &exe;
}

static int lib_cb(struct dl_phdr_info *info, size_t size, void *arg)
{
	(void)size, (void)arg;
	if (!info->dlpi_name || !info->dlpi_name[0])
		return 0;
	PAPI_address_map_t *m =
	    realloc(shlib.map, (size_t)(shlib.count + 1) * sizeof *m);
	if (!m)
		return 1;
	shlib.map = m;
	m += shlib.count++;
	memset(m, 0, sizeof *m);
	snprintf(m->name, sizeof m->name, "%s", info->dlpi_name);
	fill_map(m, info);
	return 0;
}

const PAPI_shlib_info_t *PAPI_get_shared_lib_info(void)
{
	pthread_mutex_lock(&map_lock);
	free(shlib.map);
	shlib.map = NULL;
	shlib.count = 0;
	dl_iterate_phdr(lib_cb, NULL);
	pthread_mutex_unlock(&map_lock);
	return &shlib;
}

int PAPI_get_dmem_info(PAPI_dmem_info_t *d)
{
	static const struct { const char *key; size_t off; } keys[] = {
	    {"VmPeak:", offsetof(PAPI_dmem_info_t, peak)},
	    {"VmSize:", offsetof(PAPI_dmem_info_t, size)},
	    {"VmRSS:", offsetof(PAPI_dmem_info_t, resident)},
	    {"VmHWM:", offsetof(PAPI_dmem_info_t, high_water_mark)},
	    {"RssShmem:", offsetof(PAPI_dmem_info_t, shared)},
	    {"VmExe:", offsetof(PAPI_dmem_info_t, text)},
	    {"VmLib:", offsetof(PAPI_dmem_info_t, library)},
	    {"VmData:", offsetof(PAPI_dmem_info_t, heap)},
	    {"VmLck:", offsetof(PAPI_dmem_info_t, locked)},
	    {"VmStk:", offsetof(PAPI_dmem_info_t, stack)},
	    {"VmPTE:", offsetof(PAPI_dmem_info_t, pte)},
	};
	char line[256];
	if (!d)
		return papi__ret(PAPI_EINVAL);
	memset(d, 0, sizeof *d);
	FILE *f = fopen("/proc/self/status", "r");
	if (!f)
		return papi__ret(PAPI_ESYS);
	while (fgets(line, sizeof line, f))
		for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
			if (!strncmp(line, keys[i].key, strlen(keys[i].key)))
				*(long long *)((char *)d + keys[i].off) =
				    atoll(line + strlen(keys[i].key)); /* kB */
	fclose(f);
	d->pagesize = sysconf(_SC_PAGESIZE);
	return PAPI_OK;
}

/* The one component. */
static pthread_once_t cmp_once = PTHREAD_ONCE_INIT;
static PAPI_component_info_t cmp;
static char pmu_name[] = "perf";

static void cmp_fill(void)
{
	struct utsname u;
	snprintf(cmp.name, sizeof cmp.name, "perf_event");
	snprintf(cmp.short_name, sizeof cmp.short_name, "perf");
	snprintf(cmp.description, sizeof cmp.description,
		 "Linux perf_event counters through pmkit");
	snprintf(cmp.version, sizeof cmp.version, "pmkit %s", PMK_VERSION_STRING);
	if (uname(&u) == 0)
		snprintf(cmp.kernel_version, sizeof cmp.kernel_version, "%.63s",
			 u.release);
	cmp.initialized = 1;
	cmp.CmpIdx = 0;
	cmp.num_cntrs = papi__num_cntrs();
	cmp.num_mpx_cntrs = PAPI__SET_EVENTS;
	cmp.num_native_events = papi__native_count();
	int np = 0, code = PAPI_PRESET_MASK;
	if (PAPI_enum_event(&code, PAPI_ENUM_FIRST) == PAPI_OK)
		do
			np += papi__event_avail(code);
		while (PAPI_enum_event(&code, PAPI_ENUM_EVENTS) == PAPI_OK);
	cmp.num_preset_events = np;
	cmp.default_domain = PAPI_DOM_USER;
	cmp.available_domains = PAPI_DOM_USER | PAPI_DOM_KERNEL | PAPI_DOM_SUPERVISOR;
	cmp.default_granularity = PAPI_GRN_THR;
	cmp.available_granularities = PAPI_GRN_THR | PAPI_GRN_SYS;
	cmp.pmu_names[0] = pmu_name;
	cmp.kernel_multiplex = 1;
	cmp.fast_real_timer = 1;
	cmp.attach = 1;
	cmp.cpu = 1;
	cmp.inherit = 1;
}

int papi__disabled;

const PAPI_component_info_t *PAPI_get_component_info(int cidx)
{
	if (cidx != 0)
		return NULL;
	pthread_once(&cmp_once, cmp_fill);
	if (papi__disabled) {
		cmp.disabled = PAPI_ECMP_DISABLED;
		snprintf(cmp.disabled_reason, sizeof cmp.disabled_reason,
			 "disabled by PAPI_disable_component");
	}
	return &cmp;
}

int PAPI_num_components(void)
{
	return 1;
}

int PAPI_get_component_index(const char *name)
{
	if (name && (!strcmp(name, "perf_event") || !strcmp(name, "perf")))
		return 0;
	return papi__ret(PAPI_ENOCMP);
}

int PAPI_disable_component(int cidx)
{
	if (cidx != 0)
		return papi__ret(PAPI_ENOCMP);
	if (papi__inited)
		return papi__ret(PAPI_ENOINIT); /* only before init, as PAPI */
	papi__disabled = 1;
	return PAPI_OK;
}

int PAPI_disable_component_by_name(const char *name)
{
	if (!name)
		return papi__ret(PAPI_EINVAL);
	if (strcmp(name, "perf_event") && strcmp(name, "perf"))
		return papi__ret(PAPI_ENOCMP);
	return PAPI_disable_component(0);
}
