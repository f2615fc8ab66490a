/*
 * srclist.h: a source's listing of a model's native events (source.h's
 * foreach), made once and kept for the process. Internal.
 *
 * libpfm4 builds an event's whole attribute table again for each attribute
 * it is asked about, so listing Sapphire Rapids' 583 names took about 10 ms
 * every time; the parser lists them for the "did you mean" hint of every
 * unknown name, and a fuzzer or a PAPI program with many bad names paid
 * that each time. The listing (names, PMU, descriptions; about 80 KB for a
 * large model) is kept for up to SRCLIST_MAX models; past that, listings
 * are made afresh. Thread-safe: a kept listing is never changed or freed
 * while the process runs.
 */
#ifndef PMK_EVENT_SRCLIST_H
#define PMK_EVENT_SRCLIST_H

#include "lib/event/source.h"

/* src->foreach(model, fn, arg), from the kept listing when there is one:
 * the same events in the same order, stopping at the first non-zero
 * return of `fn` (returned). */
int pmk__srclist_foreach(const pmk__source *src, const char *model,
			 pmk__info_fn fn, void *arg);

#endif
