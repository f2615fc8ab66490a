/*
 * models.h: CPU identification -> native-event model names. Internal, pure.
 */
#ifndef PMK_EVENT_MODELS_H
#define PMK_EVENT_MODELS_H

#include <stddef.h>
#include <stdlib.h>

#include "pmkit/error.h"

struct pmk__cpu_id {
	char vendor[16];	  /* "GenuineIntel", "AuthenticAMD"; "" on Arm */
	int family, model, stepping; /* -1 when absent */
	unsigned implementer, part;  /* Arm MIDR fields; 0 elsewhere */
};

struct pmk__cpu_model {
	char core[32]; /* model of "cpu" / "cpu_core" / the Arm core PMU */
	char atom[32]; /* model of "cpu_atom" on hybrids, else "" */
	char desc[64]; /* "Intel Sapphire Rapids" */
};

/* Parse /proc/cpuinfo text (first processor). 0 or PMK_ENOENT. */
int pmk__cpuinfo_parse(const char *text, struct pmk__cpu_id *id);
/* Fill the Arm fields from a MIDR_EL1 value. */
void pmk__cpu_id_from_midr(struct pmk__cpu_id *id, unsigned long long midr);
/* The model for a CPU; PMK_ENOENT when this table does not know it. */
int pmk__cpu_model(const struct pmk__cpu_id *id, struct pmk__cpu_model *out);
/* Whether `name` is a model name of the detection table. */
int pmk__model_name_known(const char *name);
/* "GenuineIntel family 6 model 143 (0x8f)" for messages. */
void pmk__cpu_id_describe(const struct pmk__cpu_id *id, char *buf,
			  size_t size);

#endif
