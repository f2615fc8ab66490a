/*
 * pmkit/derive.h: user-defined events, definition files and metrics.
 */
#ifndef PMKIT_DERIVE_H
#define PMKIT_DERIVE_H

#include "pmkit/error.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif
#endif
