/*
 * pmkit/addie.h: the Addie stochastic monitor and the DRAM interface buffer model.
 */
#ifndef PMKIT_ADDIE_H
#define PMKIT_ADDIE_H

#include "pmkit/error.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif
#endif
