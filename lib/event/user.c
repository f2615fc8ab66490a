/*
 * user.c: the registry of user-defined events (see user.h). A growable
 * array under a read-write lock; lookups are linear, which is fine for the
 * hundreds of definitions a metric library holds (they are resolved once,
 * when an event set is built, not when it is read).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "lib/event/user.h"

struct entry {
	pmk_event ev;
	char *def;
};

static pthread_rwlock_t lock = PTHREAD_RWLOCK_INITIALIZER;
static struct entry *entries;
static int nentries, cap;

static int find_locked(const char *name)
{
	for (int i = 0; i < nentries; i++)
		if (strcmp(entries[i].ev.name, name) == 0)
			return i;
	return -1;
}

int pmk__user_register(const pmk_event *evs, const char *const *defs, int n)
{
	int rc = 0;
	if (n < 0 || (n > 0 && !evs))
		return PMK_EINVAL;
	pthread_rwlock_wrlock(&lock);
	for (int i = 0; i < n && rc == 0; i++) {
		if (find_locked(evs[i].name) >= 0)
			rc = PMK_EEXIST;
		for (int j = 0; j < i; j++)
			if (!strcmp(evs[i].name, evs[j].name))
				rc = PMK_EEXIST;
	}
	if (rc == 0 && nentries + n > cap) {
		int ncap = (nentries + n) * 2 + 16;
		struct entry *ne = realloc(entries, sizeof *ne * (size_t)ncap);
		if (!ne)
			rc = PMK_ENOMEM;
		else {
			entries = ne;
			cap = ncap;
		}
	}
	for (int i = 0; i < n && rc == 0; i++) {
		entries[nentries + i].ev = evs[i];
		entries[nentries + i].def =
			strdup(defs && defs[i] ? defs[i] : "");
	}
	if (rc == 0)
		nentries += n;
	pthread_rwlock_unlock(&lock);
	return rc;
}

int pmk__user_find(const char *name, pmk_event *ev)
{
	int i, rc = PMK_ENOENT;
	pthread_rwlock_rdlock(&lock);
	i = find_locked(name);
	if (i >= 0) {
		*ev = entries[i].ev;
		rc = 0;
	}
	pthread_rwlock_unlock(&lock);
	return rc;
}

int pmk__user_foreach(int (*fn)(const pmk_event *ev, const char *def,
				void *arg),
		      void *arg)
{
	int rc = 0;
	pthread_rwlock_rdlock(&lock);
	for (int i = 0; i < nentries && rc == 0; i++)
		rc = fn(&entries[i].ev, entries[i].def ? entries[i].def : "",
			arg);
	pthread_rwlock_unlock(&lock);
	return rc;
}

void pmk__user_clear(void)
{
	pthread_rwlock_wrlock(&lock);
	for (int i = 0; i < nentries; i++)
		free(entries[i].def);
	free(entries);
	entries = NULL;
	nentries = cap = 0;
	pthread_rwlock_unlock(&lock);
}
