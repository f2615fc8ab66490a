/*
 * papi/thread.c: PAPI's thread registry, its two user locks and its
 * per-thread data. A thread is known once it registers or stores data;
 * its id is the caller's PAPI_thread_init function, or the kernel's
 * thread id when none was given. Event sets need no registration: each
 * one counts the thread that opened it (pmkit's default scope).
 * A thread's entry is made once and then only marked active or not, so
 * that programs registering and unregistering on every parallel region
 * (PAPI's omptough: 100,000 times) take no lock after the first time.
 */
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "papi/papi_int.h"

struct thr {
	unsigned long id;
	int active;	/* registered (or holding data), not unregistered */
	void *data[PAPI_NUM_TLS];
	struct thr *next;
};

static unsigned long (*id_fn)(void);
static struct thr *threads;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t user_locks[PAPI_NUM_LOCK] = {
    PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER};

unsigned long papi__thread_id(void)
{
	return id_fn ? id_fn() : (unsigned long)syscall(SYS_gettid);
}

int PAPI_thread_init(unsigned long (*fn)(void))
{
	PAPI__CHECK_INIT();
	if (!fn)
		return papi__ret(PAPI_EINVAL);
	id_fn = fn;
	papi__inited |= PAPI_THREAD_LEVEL_INITED;
	return PAPI_OK;
}

unsigned long PAPI_thread_id(void)
{
	if (!papi__inited)
		return (unsigned long)PAPI_ENOINIT;
	return papi__thread_id();
}

static __thread struct thr *self;

/* under lock */
static struct thr *thr_find(unsigned long id, int create)
{
	for (struct thr *t = threads; t; t = t->next)
		if (t->id == id)
			return t;
	if (!create)
		return NULL;
	struct thr *t = calloc(1, sizeof *t);
	if (t) {
		t->id = id;
		t->next = threads;
		threads = t;
	}
	return t;
}

/* The calling thread's entry, made on first use. */
static struct thr *thr_self(void)
{
	unsigned long id = papi__thread_id();
	if (self && self->id == id)
		return self;
	pthread_mutex_lock(&lock);
	self = thr_find(id, 1);
	pthread_mutex_unlock(&lock);
	return self;
}

int PAPI_register_thread(void)
{
	PAPI__CHECK_INIT();
	struct thr *t = thr_self();
	if (!t)
		return papi__ret(PAPI_ENOMEM);
	__atomic_store_n(&t->active, 1, __ATOMIC_RELEASE);
	return PAPI_OK;
}

int PAPI_unregister_thread(void)
{
	PAPI__CHECK_INIT();
	struct thr *t = thr_self();
	if (t)
		__atomic_store_n(&t->active, 0, __ATOMIC_RELEASE);
	return PAPI_OK;
}

int PAPI_list_threads(unsigned long *tids, int *number)
{
	PAPI__CHECK_INIT();
	if (!number || *number < 0)
		return papi__ret(PAPI_EINVAL);
	int n = 0;
	pthread_mutex_lock(&lock);
	for (struct thr *t = threads; t; t = t->next) {
		if (!__atomic_load_n(&t->active, __ATOMIC_ACQUIRE))
			continue;
		if (tids && n < *number)
			tids[n] = t->id;
		n++;
	}
	pthread_mutex_unlock(&lock);
	*number = n;
	return PAPI_OK;
}

int PAPI_lock(int l)
{
	if (l < 0 || l >= PAPI_NUM_LOCK)
		return papi__ret(PAPI_EINVAL);
	pthread_mutex_lock(&user_locks[l]);
	return PAPI_OK;
}

int PAPI_unlock(int l)
{
	if (l < 0 || l >= PAPI_NUM_LOCK)
		return papi__ret(PAPI_EINVAL);
	pthread_mutex_unlock(&user_locks[l]);
	return PAPI_OK;
}

int PAPI_set_thr_specific(int tag, void *ptr)
{
	PAPI__CHECK_INIT();
	if (tag < 0 || tag >= PAPI_NUM_TLS)
		return papi__ret(PAPI_EINVAL);
	struct thr *t = thr_self();
	if (!t)
		return papi__ret(PAPI_ENOMEM);
	pthread_mutex_lock(&lock);
	t->data[tag] = ptr;
	t->active = 1;
	pthread_mutex_unlock(&lock);
	return PAPI_OK;
}

int PAPI_get_thr_specific(int tag, void **ptr)
{
	PAPI__CHECK_INIT();
	int all = tag & PAPI_TLS_ALL_THREADS;
	tag &= ~PAPI_TLS_ALL_THREADS;
	if (tag < 0 || tag >= PAPI_NUM_TLS || !ptr)
		return papi__ret(PAPI_EINVAL);
	pthread_mutex_lock(&lock);
	if (all) {
		PAPI_all_thr_spec_t *a = (PAPI_all_thr_spec_t *)ptr;
		int n = 0;
		for (struct thr *t = threads; t && n < a->num; t = t->next) {
			if (!t->active)
				continue;
			if (a->id)
				a->id[n] = t->id;
			if (a->data)
				a->data[n] = t->data[tag];
			n++;
		}
		a->num = n;
	} else {
		struct thr *t = thr_find(papi__thread_id(), 0);
		*ptr = t ? t->data[tag] : NULL;
	}
	pthread_mutex_unlock(&lock);
	return PAPI_OK;
}
