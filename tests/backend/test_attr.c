/*
 * test_attr.c: a pmk_attr reaches the kernel whole, by one function.
 *
 * Each row of `fields` sets one pmk_attr field alone and names the one
 * struct perf_event_attr field it must change. The row is run through
 * pmk__attr_to_perf itself, through the counting path's attr (perf_event.c,
 * on a group leader and on a member) and through the sampler's (sampler.c,
 * which adds its sampling setup on top): each time exactly that kernel field
 * must change and no other byte of the struct. A field added to pmk_attr
 * without a row fails `every_field_has_a_row`. Pure: nothing is opened.
 */
#include <linux/perf_event.h>
#include <stdint.h>
#include <string.h>

#include "lib/backend/backend.h"
#include "lib/backend/kernel.h"
#include "lib/sample/sampler.h"
#include "pmkit.h"
#include "tests/support/t.h"

/* ---- the kernel's fields, by name ---------------------------------- */

struct pfield {
	const char *name;
	uint64_t (*get)(const struct perf_event_attr *);
	void (*put)(struct perf_event_attr *, uint64_t);
};

#define PF(f)                                                                  \
	static uint64_t get_##f(const struct perf_event_attr *p)               \
	{                                                                      \
		return (uint64_t)p->f;                                         \
	}                                                                      \
	static void put_##f(struct perf_event_attr *p, uint64_t v)             \
	{                                                                      \
		p->f = v;                                                      \
	}
#define PF_LIST(X)                                                             \
	X(type) X(size) X(config) X(sample_period) X(sample_type)              \
	X(read_format) X(disabled) X(inherit) X(pinned) X(exclusive)           \
	X(exclude_user) X(exclude_kernel) X(exclude_hv) X(exclude_idle)        \
	X(mmap) X(comm) X(freq) X(inherit_stat) X(enable_on_exec) X(task)      \
	X(watermark) X(precise_ip) X(mmap_data) X(sample_id_all)               \
	X(exclude_host) X(exclude_guest) X(exclude_callchain_kernel)           \
	X(exclude_callchain_user) X(mmap2) X(comm_exec) X(use_clockid)         \
	X(context_switch) X(write_backward) X(namespaces) X(wakeup_events)     \
	X(bp_type) X(config1) X(config2) X(branch_sample_type)                 \
	X(sample_regs_user) X(sample_stack_user) X(clockid)                    \
	X(sample_regs_intr) X(aux_watermark) X(sample_max_stack)
PF_LIST(PF)
#define PF_ROW(f) {#f, get_##f, put_##f},
static const struct pfield pfields[] = {PF_LIST(PF_ROW)};
#define NPF ((int)(sizeof pfields / sizeof pfields[0]))

static const struct pfield *pfield(const char *name)
{
	for (int i = 0; i < NPF; i++)
		if (!strcmp(pfields[i].name, name))
			return &pfields[i];
	return NULL;
}

/* ---- the table --------------------------------------------------------- */

static void set_type(pmk_attr *a) { a->type = PMK_TYPE_RAW; }
static void set_config(pmk_attr *a) { a->config = 0x1234; }
static void set_config1(pmk_attr *a) { a->config1 = 0x5678; }
static void set_config2(pmk_attr *a) { a->config2 = 0x9abc; }
static void set_exclude_user(pmk_attr *a) { a->exclude_user = 1; }
static void set_exclude_kernel(pmk_attr *a) { a->exclude_kernel = 1; }
static void set_exclude_hv(pmk_attr *a) { a->exclude_hv = 1; }
static void set_exclude_idle(pmk_attr *a) { a->exclude_idle = 1; }
static void set_exclude_guest(pmk_attr *a) { a->exclude_guest = 1; }
static void set_exclude_host(pmk_attr *a) { a->exclude_host = 1; }
static void set_pinned(pmk_attr *a) { a->pinned = 1; }
static void set_exclusive(pmk_attr *a) { a->exclusive = 1; }
static void set_precise_ip(pmk_attr *a) { a->precise_ip = 2; }
static void set_freq(pmk_attr *a) { a->freq = 1; }
static void set_sample(pmk_attr *a) { a->sample = 2000; }
static void set_max_stack(pmk_attr *a) { a->max_stack = 3; }
static void set_name(pmk_attr *a) { strcpy(a->name, "cycles:u"); }
static void set_pmu(pmk_attr *a) { strcpy(a->pmu, "cpu"); }

/* Where a path adds its own rule, a row says so: the counting path reads
 * counters (no sampling field) and puts pinned and exclusive on leaders
 * only; the sampler keeps everything. */
enum { ANY = 0, NOT_COUNTING = 1, LEADER_ONLY = 2 };

static const struct row {
	const char *field;  /* the pmk_attr field */
	void (*set)(pmk_attr *);
	const char *kernel; /* the perf_event_attr field, NULL: none */
	uint64_t value;     /* its value then */
	int rule;
	int line;
} fields[] = {
	{"type", set_type, "type", PMK_TYPE_RAW, ANY, __LINE__},
	{"config", set_config, "config", 0x1234, ANY, __LINE__},
	{"config1", set_config1, "config1", 0x5678, ANY, __LINE__},
	{"config2", set_config2, "config2", 0x9abc, ANY, __LINE__},
	{"exclude_user", set_exclude_user, "exclude_user", 1, ANY, __LINE__},
	{"exclude_kernel", set_exclude_kernel, "exclude_kernel", 1, ANY,
	 __LINE__},
	{"exclude_hv", set_exclude_hv, "exclude_hv", 1, ANY, __LINE__},
	{"exclude_idle", set_exclude_idle, "exclude_idle", 1, ANY, __LINE__},
	{"exclude_guest", set_exclude_guest, "exclude_guest", 1, ANY, __LINE__},
	{"exclude_host", set_exclude_host, "exclude_host", 1, ANY, __LINE__},
	{"pinned", set_pinned, "pinned", 1, LEADER_ONLY, __LINE__},
	{"exclusive", set_exclusive, "exclusive", 1, LEADER_ONLY, __LINE__},
	{"precise_ip", set_precise_ip, "precise_ip", 2, ANY, __LINE__},
	{"freq", set_freq, "freq", 1, NOT_COUNTING, __LINE__},
	{"sample", set_sample, "sample_period", 2000, NOT_COUNTING, __LINE__},
	{"max_stack", set_max_stack, "sample_max_stack", 3, NOT_COUNTING,
	 __LINE__},
	{"name", set_name, NULL, 0, ANY, __LINE__},
	{"pmu", set_pmu, NULL, 0, ANY, __LINE__},
};
#define NROW ((int)(sizeof fields / sizeof fields[0]))

/* The paths under test: each builds a perf_event_attr from a pmk_attr. */
typedef void (*build_fn)(const pmk_attr *, struct perf_event_attr *);

static void build_plain(const pmk_attr *a, struct perf_event_attr *pa)
{
	pmk__attr_to_perf(a, pa);
}

static pmk_open_opts count_opts(void)
{
	pmk_open_opts o;
	memset(&o, 0, sizeof o);
	o.scope.pid = 0;
	o.scope.cpu = -1;
	o.leader = -1;
	o.start_disabled = 1;
	return o;
}

static void build_count_leader(const pmk_attr *a, struct perf_event_attr *pa)
{
	pmk_open_opts o = count_opts();
	pmk__perf_count_attr(a, &o, 1, pa);
}

static void build_count_member(const pmk_attr *a, struct perf_event_attr *pa)
{
	pmk_open_opts o = count_opts();
	pmk__perf_count_attr(a, &o, 0, pa);
}

static pmk_sample_opts sample_opts(void)
{
	pmk_sample_opts o;
	memset(&o, 0, sizeof o);
	o.pid = 1;
	o.inherit = 1;
	o.callchain = 1;
	return o;
}

static void build_sample(const pmk_attr *a, struct perf_event_attr *pa)
{
	pmk_sample_opts o = sample_opts();
	pmk__sampler_attr(pa, a, &o, 1, 128 * 4096);
}

/* The base every row starts from. The sampler's is a periodic event: with
 * no period it samples at 4000 Hz, which sets freq and sample_freq both
 * (checked in sampler_setup_on_top). */
static void base_attr(pmk_attr *a, int sampling)
{
	memset(a, 0, sizeof *a);
	if (sampling)
		a->sample = 1000;
}

/* Run every row through `build`; `counting` and `member` select the rules
 * that apply to that path. */
static void check_rows(build_fn build, int sampling, int counting, int member)
{
	for (int r = 0; r < NROW; r++) {
		const struct row *w = &fields[r];
		pmk_attr a0, a1;
		struct perf_event_attr p0, p1, back;
		const char *want = w->kernel;
		uint64_t value = w->value;
		base_attr(&a0, sampling);
		a1 = a0;
		w->set(&a1);
		build(&a0, &p0);
		build(&a1, &p1);
		if ((counting && w->rule == NOT_COUNTING) ||
		    (member && w->rule == LEADER_ONLY))
			want = NULL; /* this path leaves it out on purpose */
		for (int f = 0; f < NPF; f++) {
			const struct pfield *k = &pfields[f];
			int changed = k->get(&p0) != k->get(&p1);
			int expected = want && !strcmp(k->name, want);
			T_CHECKF(changed == expected,
				 "line %d: pmk_attr.%s %s perf_event_attr.%s",
				 w->line, w->field,
				 changed ? "changed" : "did not change",
				 k->name);
		}
		back = p1;
		if (want) {
			const struct pfield *k = pfield(want);
			T_CHECKF(k && k->get(&p1) == value,
				 "line %d: perf_event_attr.%s is 0x%llx, not "
				 "0x%llx",
				 w->line, want,
				 k ? (unsigned long long)k->get(&p1) : 0ull,
				 (unsigned long long)value);
			if (k)
				k->put(&back, k->get(&p0));
		}
		/* and no byte outside the listed fields moved either */
		T_CHECKF(memcmp(&back, &p0, sizeof p0) == 0,
			 "line %d: pmk_attr.%s changed bytes of perf_event_attr "
			 "beyond %s",
			 w->line, w->field, want ? want : "(none)");
	}
}

static void test_every_field_has_a_row(void)
{
	/* pmk_attr's layout when this table was written: pmu, name, type,
	 * config, config1, config2, the bit fields, sample. A field added
	 * changes the size: add its row above, and copy it in attr.c. */
	size_t known = PMK_PMU_NAME_MAX + PMK_EVENT_NAME_MAX + 4 + 4 /* pad */ +
		       3 * 8 + 8 /* bit fields, padded */ + 8;
	T_CHECKF(sizeof(pmk_attr) == known,
		 "sizeof(pmk_attr) is %zu, the table knows %zu: a new field "
		 "needs a row here and a line in lib/backend/attr.c",
		 sizeof(pmk_attr), known);
	T_EQ_INT(NROW, 18);
}

static void test_attr_to_perf_copies_each_field(void)
{
	struct perf_event_attr pa;
	pmk_attr a;
	memset(&a, 0, sizeof a);
	pmk__attr_to_perf(&a, &pa);
	T_EQ_INT(pa.size, sizeof pa);
	check_rows(build_plain, 0, 0, 0);
}

static void test_counting_path_copies_each_field(void)
{
	struct perf_event_attr pa;
	pmk_attr a;
	pmk_open_opts o = count_opts();
	check_rows(build_count_leader, 0, 1, 0);
	check_rows(build_count_member, 0, 1, 1);
	/* what the counting path adds on top */
	memset(&a, 0, sizeof a);
	pmk__perf_count_attr(&a, &o, 1, &pa);
	T_EQ_U64(pa.read_format, PERF_FORMAT_TOTAL_TIME_ENABLED |
				     PERF_FORMAT_TOTAL_TIME_RUNNING |
				     PERF_FORMAT_GROUP);
	T_EQ_INT(pa.disabled, 1);
	o.inherit = 1;
	o.enable_on_exec = 1;
	pmk__perf_count_attr(&a, &o, 1, &pa);
	T_EQ_INT(pa.inherit, 1);
	T_EQ_INT(pa.enable_on_exec, 1);
	T_EQ_U64(pa.read_format & PERF_FORMAT_GROUP, 0);
	pmk__perf_count_attr(&a, &o, 0, &pa); /* members follow the leader */
	T_EQ_INT(pa.enable_on_exec, 0);
	T_EQ_INT(pa.disabled, 0);
}

static void test_sampling_path_copies_each_field(void)
{
	check_rows(build_sample, 1, 0, 0);
}

static void test_sampler_setup_on_top(void)
{
	struct perf_event_attr pa;
	pmk_attr a;
	pmk_sample_opts o = sample_opts();
	memset(&a, 0, sizeof a);
	/* no period: 4000 Hz */
	pmk__sampler_attr(&pa, &a, &o, 1, 128 * 4096);
	T_EQ_INT(pa.freq, 1);
	T_EQ_U64(pa.sample_freq, 4000);
	T_CHECK(pa.sample_type & PERF_SAMPLE_IP);
	T_CHECK(pa.sample_type & PERF_SAMPLE_CALLCHAIN);
	T_EQ_INT(pa.disabled, 1);
	T_EQ_INT(pa.inherit, 1);
	T_EQ_INT(pa.wakeup_watermark, 128 * 4096 / 4);
	T_EQ_INT(pa.mmap2, 1); /* side-band records on the first event */
	/* a frequency */
	a.sample = 99;
	a.freq = 1;
	pmk__sampler_attr(&pa, &a, &o, 0, 128 * 4096);
	T_EQ_INT(pa.freq, 1);
	T_EQ_U64(pa.sample_freq, 99);
	T_EQ_INT(pa.mmap2, 0); /* and none on the others */
	/* a period */
	a.freq = 0;
	a.sample = 100003;
	pmk__sampler_attr(&pa, &a, &o, 0, 128 * 4096);
	T_EQ_INT(pa.freq, 0);
	T_EQ_U64(pa.sample_period, 100003);
}

/* record -e cycles:G: the guest only. The sampler used to drop
 * exclude_host and sample the host too. */
static void test_guest_event_excludes_host_when_sampled(void)
{
	pmk_event ev;
	pmk_diag d;
	struct perf_event_attr pa;
	pmk_sample_opts o = sample_opts();
	const char *names[] = {"cycles:G", "cpu-clock:G"};
	for (int i = 0; i < 2; i++) {
		int rc = pmk_event_parse(pmk_target_host(), names[i], &ev, &d);
		T_CHECKF(rc == 0, "'%s': %s", names[i], d.message);
		if (rc)
			continue;
		T_EQ_INT(ev.leaf[0].exclude_host, 1);
		pmk__sampler_attr(&pa, &ev.leaf[0], &o, 1, 128 * 4096);
		T_CHECKF(pa.exclude_host == 1 && pa.exclude_guest == 0,
			 "'%s': exclude_host %u exclude_guest %u", names[i],
			 pa.exclude_host, pa.exclude_guest);
	}
}

int main(void)
{
	T_RUN(test_every_field_has_a_row);
	T_RUN(test_attr_to_perf_copies_each_field);
	T_RUN(test_counting_path_copies_each_field);
	T_RUN(test_sampling_path_copies_each_field);
	T_RUN(test_sampler_setup_on_top);
	T_RUN(test_guest_event_excludes_host_when_sampled);
	return t_done();
}
