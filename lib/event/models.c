/*
 * models.c: which CPU model a machine is, from the facts /proc/cpuinfo
 * gives (x86: vendor, family, model, stepping; Arm: the MIDR's implementer
 * and part number), and what each core PMU of it is called in libpfm4's
 * naming ("skl", "spr", "amd64_fam19h_zen4", "arm_n1", ...). Hybrid parts
 * name one model per core PMU (cpu_core, cpu_atom).
 *
 * Pure: a table and a lookup. The reading of the files is in
 * lib/backend/discover.c; which source of native events serves a model is
 * decided in source.c.
 *
 * Facts: the family/model numbers are the ones the vendors publish (Intel
 * SDM volume 4's model table, AMD's family/model list, Arm's MIDR part
 * numbers in each core's Technical Reference Manual).
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "lib/event/models.h"

/* Intel family 6: model number -> libpfm4 PMU name(s). */
static const struct intel_model {
	int model;
	const char *name;  /* core PMU model ("cpu" or "cpu_core") */
	const char *atom;  /* the cpu_atom PMU's model on hybrids, or NULL */
	const char *desc;
} intel[] = {
    {0x1a, "nhm", NULL, "Intel Nehalem"},
    {0x1e, "nhm", NULL, "Intel Nehalem"},
    {0x1f, "nhm", NULL, "Intel Nehalem"},
    {0x2e, "nhm_ex", NULL, "Intel Nehalem-EX"},
    {0x25, "wsm", NULL, "Intel Westmere"},
    {0x2c, "wsm_dp", NULL, "Intel Westmere-EP"},
    {0x2f, "wsm_dp", NULL, "Intel Westmere-EX"},
    {0x2a, "snb", NULL, "Intel Sandy Bridge"},
    {0x2d, "snb_ep", NULL, "Intel Sandy Bridge-EP"},
    {0x3a, "ivb", NULL, "Intel Ivy Bridge"},
    {0x3e, "ivb_ep", NULL, "Intel Ivy Bridge-EP"},
    {0x3c, "hsw", NULL, "Intel Haswell"},
    {0x45, "hsw", NULL, "Intel Haswell"},
    {0x46, "hsw", NULL, "Intel Haswell"},
    {0x3f, "hsw_ep", NULL, "Intel Haswell-EP"},
    {0x3d, "bdw", NULL, "Intel Broadwell"},
    {0x47, "bdw", NULL, "Intel Broadwell"},
    {0x4f, "bdw_ep", NULL, "Intel Broadwell-EP"},
    {0x56, "bdw_ep", NULL, "Intel Broadwell-DE"},
    {0x4e, "skl", NULL, "Intel Skylake"},
    {0x5e, "skl", NULL, "Intel Skylake"},
    {0x8e, "skl", NULL, "Intel Kaby/Coffee/Whiskey Lake"},
    {0x9e, "skl", NULL, "Intel Kaby/Coffee Lake"},
    {0xa5, "skl", NULL, "Intel Comet Lake"},
    {0xa6, "skl", NULL, "Intel Comet Lake"},
    {0x55, "skx", NULL, "Intel Skylake-SP"}, /* stepping >= 5: clx */
    {0x7d, "icl", NULL, "Intel Ice Lake"},
    {0x7e, "icl", NULL, "Intel Ice Lake"},
    {0xa7, "icl", NULL, "Intel Rocket Lake"},
    {0x8c, "tgl", NULL, "Intel Tiger Lake"},
    {0x8d, "tgl", NULL, "Intel Tiger Lake"},
    {0x6a, "icx", NULL, "Intel Ice Lake-SP"},
    {0x6c, "icx", NULL, "Intel Ice Lake-D"},
    {0x8f, "spr", NULL, "Intel Sapphire Rapids"},
    {0xcf, "emr", NULL, "Intel Emerald Rapids"},
    {0xad, "gnr", NULL, "Intel Granite Rapids"},
    {0xae, "gnr", NULL, "Intel Granite Rapids-D"},
    {0x97, "adl_glc", "adl_grt", "Intel Alder Lake"},
    {0x9a, "adl_glc", "adl_grt", "Intel Alder Lake"},
    {0xb7, "adl_glc", "adl_grt", "Intel Raptor Lake"},
    {0xba, "adl_glc", "adl_grt", "Intel Raptor Lake"},
    {0xbf, "adl_glc", "adl_grt", "Intel Raptor Lake"},
    {0xaa, "mtl_rwc", "mtl_cmt", "Intel Meteor Lake"},
    {0xac, "mtl_rwc", "mtl_cmt", "Intel Meteor Lake"},
    {0x5c, "glm", NULL, "Intel Goldmont"},
    {0x5f, "glm", NULL, "Intel Goldmont"},
    {0x86, "tmt", NULL, "Intel Tremont (Snow Ridge)"},
    {0x96, "tmt", NULL, "Intel Tremont (Elkhart Lake)"},
    {0x9c, "tmt", NULL, "Intel Tremont (Jasper Lake)"},
    {0x57, "knl", NULL, "Intel Knights Landing"},
    {0x85, "knm", NULL, "Intel Knights Mill"},
};

/* Arm: MIDR implementer and part number -> libpfm4 PMU name. */
static const struct arm_model {
	unsigned implementer, part;
	const char *name, *desc;
} arm[] = {
    {0x41, 0xd03, "arm_ac53", "Arm Cortex-A53"},
    {0x41, 0xd05, "arm_ac55", "Arm Cortex-A55"},
    {0x41, 0xd07, "arm_ac57", "Arm Cortex-A57"},
    {0x41, 0xd08, "arm_ac72", "Arm Cortex-A72"},
    {0x41, 0xd0b, "arm_ac76", "Arm Cortex-A76"},
    {0x41, 0xd0c, "arm_n1", "Arm Neoverse N1"},
    {0x41, 0xd40, "arm_v1", "Arm Neoverse V1"},
    {0x41, 0xd49, "arm_n2", "Arm Neoverse N2"},
    {0x41, 0xd4f, "arm_v2", "Arm Neoverse V2"},
    {0x46, 0x001, "arm_a64fx", "Fujitsu A64FX"},
    {0x48, 0xd01, "arm_kunpeng", "HiSilicon Kunpeng 920"},
    {0x43, 0x0af, "arm_thunderx2", "Marvell ThunderX2"},
};

/* AMD (and Hygon): family and a model range -> libpfm4 PMU name; the
 * first row that matches wins. A table, so that pmk__model_name_known()
 * knows every name the detection returns. */
static const struct amd_model {
	int family, lo, hi;
	const char *name, *desc;
} amd[] = {
    {0x15, 0x00, 0xff, "amd64_fam15h_interlagos", "AMD family 15h"},
    {0x16, 0x00, 0xff, "amd64_fam16h", "AMD family 16h (Jaguar)"},
    {0x17, 0x00, 0x2f, "amd64_fam17h_zen1", "AMD Zen 1"},
    {0x17, 0x30, 0xff, "amd64_fam17h_zen2", "AMD Zen 2"},
    {0x18, 0x00, 0xff, "amd64_fam17h_zen1", "Hygon Dhyana (Zen 1)"},
    {0x19, 0x10, 0x1f, "amd64_fam19h_zen4", "AMD Zen 4"},
    {0x19, 0x60, 0x7f, "amd64_fam19h_zen4", "AMD Zen 4"},
    {0x19, 0xa0, 0xaf, "amd64_fam19h_zen4", "AMD Zen 4"},
    {0x19, 0x00, 0xff, "amd64_fam19h_zen3", "AMD Zen 3"},
    {0x1a, 0x00, 0xff, "amd64_fam1ah_zen5", "AMD Zen 5"},
};

static void set(struct pmk__cpu_model *out, const char *core,
		const char *atom, const char *desc)
{
	snprintf(out->core, sizeof out->core, "%s", core ? core : "");
	snprintf(out->atom, sizeof out->atom, "%s", atom ? atom : "");
	snprintf(out->desc, sizeof out->desc, "%s", desc ? desc : "");
}

int pmk__cpu_model(const struct pmk__cpu_id *id, struct pmk__cpu_model *out)
{
	memset(out, 0, sizeof *out);
	if (!strcmp(id->vendor, "GenuineIntel") && id->family == 6) {
		for (size_t i = 0; i < sizeof intel / sizeof *intel; i++) {
			if (intel[i].model != id->model)
				continue;
			if (id->model == 0x55 && id->stepping >= 5)
				set(out, "clx", NULL, "Intel Cascade Lake-SP");
			else
				set(out, intel[i].name, intel[i].atom,
				    intel[i].desc);
			return 0;
		}
		return PMK_ENOENT;
	}
	if (!strcmp(id->vendor, "AuthenticAMD") ||
	    !strcmp(id->vendor, "HygonGenuine")) {
		for (size_t i = 0; i < sizeof amd / sizeof *amd; i++)
			if (amd[i].family == id->family &&
			    id->model >= amd[i].lo && id->model <= amd[i].hi) {
				set(out, amd[i].name, NULL, amd[i].desc);
				return 0;
			}
		return PMK_ENOENT;
	}
	if (id->implementer) {
		for (size_t i = 0; i < sizeof arm / sizeof *arm; i++)
			if (arm[i].implementer == id->implementer &&
			    arm[i].part == id->part) {
				set(out, arm[i].name, NULL, arm[i].desc);
				return 0;
			}
		return PMK_ENOENT;
	}
	return PMK_ENOENT;
}

int pmk__model_name_known(const char *name)
{
	if (!name || !*name)
		return 0;
	for (size_t i = 0; i < sizeof intel / sizeof *intel; i++)
		if (!strcasecmp(name, intel[i].name) ||
		    (intel[i].atom && !strcasecmp(name, intel[i].atom)))
			return 1;
	for (size_t i = 0; i < sizeof amd / sizeof *amd; i++)
		if (!strcasecmp(name, amd[i].name))
			return 1;
	for (size_t i = 0; i < sizeof arm / sizeof *arm; i++)
		if (!strcasecmp(name, arm[i].name))
			return 1;
	return !strcasecmp(name, "clx");
}

void pmk__cpu_id_describe(const struct pmk__cpu_id *id, char *buf,
			  size_t size)
{
	/* implementer 0 is "reserved for software use" (QEMU's max) */
	if (id->implementer || id->part)
		snprintf(buf, size, "Arm implementer %#x part %#x",
			 id->implementer, id->part);
	else if (id->vendor[0])
		snprintf(buf, size, "%s family %d model %d (%#x)", id->vendor,
			 id->family, id->model, (unsigned)id->model);
	else
		snprintf(buf, size, "unknown CPU");
}

int pmk__cpuinfo_parse(const char *text, struct pmk__cpu_id *id)
{
	const char *line = text;
	memset(id, 0, sizeof *id);
	id->family = id->model = id->stepping = -1;
	while (line && *line) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		const char *colon = memchr(line, ':', len);
		char key[32], val[96];
		size_t kl;
		if (len == 0 && (id->family >= 0 || id->implementer))
			break; /* the first processor is enough */
		if (colon) {
			kl = (size_t)(colon - line);
			while (kl && (line[kl - 1] == ' ' || line[kl - 1] == '\t'))
				kl--;
			snprintf(key, sizeof key, "%.*s", (int)kl, line);
			snprintf(val, sizeof val, "%.*s",
				 (int)(len - (size_t)(colon + 1 - line)),
				 colon + 1);
			{
				char *v = val;
				long n;
				char *end;
				while (*v == ' ' || *v == '\t')
					v++;
				n = strtol(v, &end, 0);
				if (!strcmp(key, "vendor_id"))
					sscanf(v, "%15s", id->vendor);
				else if (!strcmp(key, "cpu family") && end != v)
					id->family = (int)n;
				else if (!strcmp(key, "model") && end != v)
					id->model = (int)n;
				else if (!strcmp(key, "stepping") && end != v)
					id->stepping = (int)n;
				else if (!strcmp(key, "CPU implementer") &&
					 end != v)
					id->implementer = (unsigned)n;
				else if (!strcmp(key, "CPU part") && end != v)
					id->part = (unsigned)n;
			}
		}
		line = nl ? nl + 1 : NULL;
	}
	return (id->vendor[0] && id->family >= 0) || id->implementer ? 0
								    : PMK_ENOENT;
}

void pmk__cpu_id_from_midr(struct pmk__cpu_id *id, unsigned long long midr)
{
	id->implementer = (unsigned)((midr >> 24) & 0xff);
	id->part = (unsigned)((midr >> 4) & 0xfff);
}
