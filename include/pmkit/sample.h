/*
 * pmkit/sample.h: sampling, record files and reports (Profiles).
 */
#ifndef PMKIT_SAMPLE_H
#define PMKIT_SAMPLE_H

#include "pmkit/error.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif
#endif
