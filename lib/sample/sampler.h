/*
 * sampler.h: the sampler's internals shared inside libpmkit (and with its
 * tests). The public calls are in pmkit/sample.h.
 */
#ifndef PMK_SAMPLE_SAMPLER_H
#define PMK_SAMPLE_SAMPLER_H

#include <linux/perf_event.h>
#include <stddef.h>

#include "pmkit/sample.h"

/* The attr pmk_sampler_open opens for `a`: pmk__attr_to_perf's, with the
 * default frequency (4000 Hz) when `a` has no period, the sample type the
 * options ask for, disabled, inherit and enable_on_exec as in `o`, a
 * wakeup at a quarter of `ring_bytes`, and on the `first` event the
 * side-band records (mmap, comm, fork and exit). */
void pmk__sampler_attr(struct perf_event_attr *pa, const pmk_attr *a,
		       const pmk_sample_opts *o, int first, size_t ring_bytes);

#endif
