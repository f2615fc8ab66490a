/*
 * user.h: the registry of user-defined events. Internal.
 *
 * The derive layer (lib/derive) parses definition files and registers each
 * definition here as a compiled pmk_event (leaves + reverse-Polish program,
 * with earlier user events already inlined). The event parser looks names
 * up here first, so a loaded user event works wherever an event name does.
 * Thread-safe; a whole file is registered with one call so that a file is
 * never half-loaded.
 */
#ifndef PMK_EVENT_USER_H
#define PMK_EVENT_USER_H

#include "pmkit/event.h"

/* Register `n` events at once (all or none): PMK_EEXIST if a name is
 * taken. `defs[i]` is the definition's text, shown by `pmkit list`. */
int pmk__user_register(const pmk_event *evs, const char *const *defs, int n);
/* Copy the event named `name` into `ev`; 0, or PMK_ENOENT. */
int pmk__user_find(const char *name, pmk_event *ev);
/* Each registered event with its definition text, in registration order. */
int pmk__user_foreach(int (*fn)(const pmk_event *ev, const char *def,
				void *arg),
		      void *arg);
/* Forget every user event (tests). */
void pmk__user_clear(void);

#endif
