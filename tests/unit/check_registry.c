/*
 * check_registry.c - unit tests of libust/registry.c: providers and their
 * events, the metadata log (abi/shm.h, struct ust_meta_event) and the
 * control area (abi/control.h) as libust fills them in a session mapped
 * as at start-up.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include <check.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <ust/tracepoint.h>

#include "check_run.h"
#include "unit.h"

#define TSDL_U32 "integer { size = 32; align = 8; signed = false; } _v;"
#define MAX_PROVIDERS 16

/* A provider built by a test, unregistered and freed by the teardown. */
struct prov {
	struct ust_provider p;
	struct ust_event_desc *ev;	/* [p.nr_events] */
	struct ust_event_desc **evp;
	char *names;			/* the event names, NUL-separated */
};

static struct prov *provs[MAX_PROVIDERS];
static unsigned int nr_provs;
static struct ust_config cfg;
static struct ust_session *session;

/*
 * A provider of `facility` whose events are named by the blank-separated
 * `names`: each {uint32 v}, layout "F4", no loglevel, no description.
 */
static struct prov *prov_new(const char *facility, const char *names)
{
	struct prov *pv = calloc(1, sizeof(*pv));
	uint32_t n = 0, i;
	char *tok, *save = NULL;

	ck_assert_ptr_nonnull(pv);
	ck_assert_uint_lt(nr_provs, MAX_PROVIDERS);
	provs[nr_provs++] = pv;
	pv->names = strdup(names);
	for (i = 0; names[i]; i++)
		n += names[i] != ' ' && (i == 0 || names[i - 1] == ' ');
	pv->ev = calloc(n + 1, sizeof(*pv->ev));
	pv->evp = calloc(n + 1, sizeof(*pv->evp));
	ck_assert(pv->names && pv->ev && pv->evp);
	i = 0;
	for (tok = strtok_r(pv->names, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save), i++) {
		pv->ev[i] = (struct ust_event_desc){
			.struct_size = sizeof(struct ust_event_desc),
			.name = tok, .loglevel = -1,
			.tsdl_fields = TSDL_U32, .layout = "F4",
		};
		pv->evp[i] = &pv->ev[i];
	}
	pv->p = (struct ust_provider){
		.struct_size = sizeof(struct ust_provider),
		.abi_version = UST_ABI_VERSION,
		.facility = facility,
		.events = pv->evp,
		.nr_events = n,
	};
	return pv;
}

static struct prov *prov_registered(const char *facility, const char *names)
{
	struct prov *pv = prov_new(facility, names);

	ck_assert_int_eq(ust_provider_register(&pv->p), 0);
	return pv;
}

/* Start a session in `mode` whose UST_TRACE is `patterns`. */
static void start(const char *patterns, uint32_t mode)
{
	unit_config(&cfg, patterns, mode, 4096, 4);
	session = unit_session_start(&cfg);
}

static void teardown(void)
{
	while (nr_provs) {
		struct prov *pv = provs[--nr_provs];

		ust_provider_unregister(&pv->p);
		free(pv->names);
		free(pv->ev);
		free(pv->evp);
		free(pv);
	}
	if (session)
		unit_session_stop(session);
	session = NULL;
	unit_config_free(&cfg);
}

/* One entry of the metadata log, its strings located. */
struct meta {
	const struct ust_meta_event *me;
	const char *name, *layout, *tsdl, *desc, *fac_desc;
};

static const uint8_t *meta_log(const struct ust_session *s)
{
	return (const uint8_t *)s->base + s->hdr->meta_offset;
}

/*
 * The entry at *off in the log, checked, its strings located; *off moves
 * past it.  False at the published end (I9), which must be an entry's.
 */
static bool meta_next(const struct ust_session *s, uint64_t *off,
		      struct meta *m)
{
	uint64_t used = s->hdr->meta_used;

	if (*off >= used) {
		ck_assert_uint_eq(*off, used);
		return false;
	}
	m->me = (const struct ust_meta_event *)(meta_log(s) + *off);
	ck_assert_uint_eq(m->me->size % 8, 0);
	ck_assert_uint_eq(m->me->size, (sizeof(*m->me) + m->me->name_len +
				       m->me->layout_len + m->me->tsdl_len +
				       m->me->desc_len + 7) & ~7ul);
	ck_assert_uint_le(*off + m->me->size, used);
	m->name = (const char *)(m->me + 1);
	m->layout = m->name + m->me->name_len;
	m->tsdl = m->layout + m->me->layout_len;
	m->desc = m->tsdl + m->me->tsdl_len;
	m->fac_desc = m->desc + strlen(m->desc) + 1;
	ck_assert_uint_eq(strlen(m->name) + 1, m->me->name_len);
	ck_assert_uint_eq(strlen(m->layout) + 1, m->me->layout_len);
	ck_assert_uint_eq(strlen(m->tsdl) + 1, m->me->tsdl_len);
	ck_assert_uint_eq(strlen(m->desc) + strlen(m->fac_desc) + 2,
			  m->me->desc_len);
	*off += m->me->size;
	return true;
}

/* Entry `index` of the log; false when there are not that many. */
static bool meta_entry(const struct ust_session *s, unsigned int index,
		       struct meta *m)
{
	uint64_t off = 0;
	unsigned int i;

	for (i = 0; meta_next(s, &off, m); i++) {
		if (i == index)
			return true;
	}
	return false;
}

static unsigned int meta_count(const struct ust_session *s)
{
	struct meta m;
	uint64_t off = 0;
	unsigned int n = 0;

	while (meta_next(s, &off, &m))
		n++;
	return n;
}

/* The entry of event class `name`; fails when it is not in the log. */
static struct meta meta_find(const struct ust_session *s, const char *name)
{
	struct meta m;
	uint64_t off = 0;

	while (meta_next(s, &off, &m)) {
		if (!strcmp(m.name, name))
			return m;
	}
	ck_abort_msg("no metadata entry for '%s'", name);
	return m;
}

/* The enabled word of each event of `pv`: one '0' or '1' each in `states`. */
static void expect_enabled(const struct prov *pv, const char *states)
{
	uint32_t i;

	ck_assert_uint_eq(strlen(states), pv->p.nr_events);
	for (i = 0; i < pv->p.nr_events; i++)
		ck_assert_msg(pv->ev[i].enabled == states[i] - '0',
			      "%s:%s: enabled %d, expected %c", pv->p.facility,
			      pv->ev[i].name, pv->ev[i].enabled, states[i]);
}

static const struct ust_ctl_event *ctl_event(const struct ust_event_desc *ev)
{
	return &session->ctl->events[ev->id];
}

START_TEST(test_ids)
{
	struct prov *a = prov_registered("t", "a b c"), *b;
	uint32_t i;

	for (i = 0; i < 3; i++) {
		ck_assert_uint_eq(a->ev[i].id, a->ev[0].id + i);
		ck_assert_ptr_eq(a->ev[i].priv, &a->p);
	}
	/* No session: nothing is enabled. */
	expect_enabled(a, "000");
	ck_assert_uint_eq(a->p.registered, 1);
	b = prov_registered("u", "x y");
	ck_assert_uint_eq(b->ev[0].id, a->ev[2].id + 1);
	ck_assert_uint_eq(b->ev[1].id, a->ev[2].id + 2);

	/* Twice: refused, nothing renumbered. */
	ck_assert_int_eq(ust_provider_register(&a->p), -EEXIST);
	ck_assert_uint_eq(a->ev[0].id, b->ev[0].id - 3);
	ck_assert_uint_eq(a->p.registered, 1);
}
END_TEST

/* A provider `break_it` spoils is refused and left untouched. */
static void expect_refused(void (*break_it)(struct prov *))
{
	struct prov *pv = prov_new("t", "a b");

	pv->ev[0].id = 77;
	break_it(pv);
	ck_assert_int_eq(ust_provider_register(&pv->p), -EINVAL);
	ck_assert_uint_eq(pv->p.registered, 0);
	ck_assert_uint_eq(pv->ev[0].id, 77);
}

static void small_provider(struct prov *pv) { pv->p.struct_size--; }
static void other_abi(struct prov *pv) { pv->p.abi_version = UST_ABI_VERSION + 1; }
static void no_facility(struct prov *pv) { pv->p.facility = NULL; }
static void no_event_array(struct prov *pv) { pv->p.events = NULL; }
static void null_event(struct prov *pv) { pv->evp[1] = NULL; }
static void no_name(struct prov *pv) { pv->ev[1].name = NULL; }
static void no_tsdl(struct prov *pv) { pv->ev[1].tsdl_fields = NULL; }
static void no_layout(struct prov *pv) { pv->ev[1].layout = NULL; }
static void small_event(struct prov *pv)
{
	pv->ev[1].struct_size = offsetof(struct ust_event_desc, description) - 1;
}

START_TEST(test_refused)
{
	struct prov *empty;

	ck_assert_int_eq(ust_provider_register(NULL), -EINVAL);
	expect_refused(small_provider);
	expect_refused(other_abi);
	expect_refused(no_facility);
	expect_refused(no_event_array);
	expect_refused(null_event);
	expect_refused(no_name);
	expect_refused(no_tsdl);
	expect_refused(no_layout);
	expect_refused(small_event);
	/* No events and no array is a valid provider. */
	empty = prov_new("e", "");
	ck_assert_uint_eq(empty->p.nr_events, 0);
	ck_assert_ptr_nonnull(empty->p.events);
	empty->p.events = NULL;
	ck_assert_int_eq(ust_provider_register(&empty->p), 0);
}
END_TEST

/* UST_TRACE decides, for providers registered before and after the start. */
START_TEST(test_enabled_by_patterns)
{
	struct prov *early = prov_registered("u", "x y"), *t;

	start("t:a*,-t:ab,u:x", UST_MODE_DISCARD);
	expect_enabled(early, "10");
	t = prov_registered("t", "a ab abc b");
	expect_enabled(t, "1010");
	/* Every event is described, enabled or not (ust ctl may enable it). */
	ck_assert_uint_eq(meta_count(session), 6);
}
END_TEST

START_TEST(test_metadata_entries)
{
	struct prov *pv = prov_new("fac", "first second old");
	const uint8_t *log;
	struct meta m;
	uint64_t end;

	start("*", UST_MODE_DISCARD);
	ck_assert_uint_eq(session->hdr->meta_used, 0);
	pv->p.description = "the facility";
	pv->ev[0].loglevel = 4;
	pv->ev[0].description = "the first event";
	pv->ev[1].tsdl_fields = "string _s;";
	pv->ev[1].layout = "S";
	/* A provider of the first ABI: its struct ends before `description`. */
	pv->ev[2].struct_size = offsetof(struct ust_event_desc, description);
	pv->ev[2].description = "beyond struct_size: never read";
	ck_assert_int_eq(ust_provider_register(&pv->p), 0);

	ck_assert_uint_eq(meta_count(session), 3);
	ck_assert(meta_entry(session, 0, &m));
	ck_assert_uint_eq(m.me->id, pv->ev[0].id);
	ck_assert_uint_eq(m.me->channel, 0);
	ck_assert_int_eq(m.me->loglevel, 4);
	ck_assert_str_eq(m.name, "fac:first");
	ck_assert_str_eq(m.layout, "F4");
	ck_assert_str_eq(m.tsdl, TSDL_U32);
	ck_assert_str_eq(m.desc, "the first event");
	ck_assert_str_eq(m.fac_desc, "the facility");
	/* 32 + 10 + 3 + 54 + 16 + 13 = 128, a multiple of 8 */
	ck_assert_uint_eq(m.me->size, 128);

	ck_assert(meta_entry(session, 1, &m));
	ck_assert_uint_eq(m.me->id, pv->ev[1].id);
	ck_assert_int_eq(m.me->loglevel, -1);
	ck_assert_str_eq(m.name, "fac:second");
	ck_assert_str_eq(m.layout, "S");
	ck_assert_str_eq(m.tsdl, "string _s;");
	ck_assert_str_eq(m.desc, "");
	ck_assert_str_eq(m.fac_desc, "the facility");

	ck_assert(meta_entry(session, 2, &m));
	ck_assert_str_eq(m.name, "fac:old");
	ck_assert_str_eq(m.desc, "");

	/* Nothing is written past the published length. */
	log = meta_log(session);
	for (end = session->hdr->meta_used; end < session->hdr->meta_used + 256; end++)
		ck_assert_uint_eq(log[end], 0);
	ck_assert_uint_eq(session->hdr->meta_dropped, 0);
}
END_TEST

START_TEST(test_control_entries)
{
	struct prov *pv;
	const struct ust_ctl_event *e;
	char zeros[UST_CTL_NAME_MAX] = { 0 };

	start("t:a", UST_MODE_DISCARD);
	pv = prov_registered("t", "a b");
	e = ctl_event(&pv->ev[0]);
	ck_assert_uint_eq(e->flags, UST_CTL_EV_LIVE | UST_CTL_EV_WANTED |
			  UST_CTL_EV_DESCRIBED);
	ck_assert_uint_eq(e->enabled_addr, (uint64_t)(uintptr_t)&pv->ev[0].enabled);
	ck_assert_uint_eq(e->id, pv->ev[0].id);
	ck_assert_str_eq(e->name, "t:a");
	ck_assert_mem_eq(e->name + 4, zeros, sizeof(e->name) - 4);
	e = ctl_event(&pv->ev[1]);
	ck_assert_uint_eq(e->flags, UST_CTL_EV_LIVE | UST_CTL_EV_DESCRIBED);
	ck_assert_uint_eq(e->enabled_addr, (uint64_t)(uintptr_t)&pv->ev[1].enabled);
	ck_assert_str_eq(e->name, "t:b");
	ck_assert_uint_eq(session->ctl->nr_events, pv->ev[1].id + 1);
}
END_TEST

static void add_rule(struct ust_ctl_area *a, const char *pattern, uint32_t enable)
{
	struct ust_ctl_rule *r = &a->rules[a->nr_rules++];

	snprintf(r->pattern, sizeof(r->pattern), "%s", pattern);
	r->enable = enable;
}

/* `ust ctl` rules apply after UST_TRACE, in order; stop keeps the choice. */
START_TEST(test_rules_and_stop)
{
	struct prov *pv, *late;

	start("t:a,t:c", UST_MODE_DISCARD);
	add_rule(session->ctl, "t:a", 0);
	add_rule(session->ctl, "t:[bc]", 1);
	add_rule(session->ctl, "t:c", 0);
	add_rule(session->ctl, "t:c", 1);
	pv = prov_registered("t", "a b c d");
	expect_enabled(pv, "0110");
	ck_assert_uint_eq(ctl_event(&pv->ev[0])->flags,
			  UST_CTL_EV_LIVE | UST_CTL_EV_DESCRIBED);

	session->ctl->stopped = 1;
	late = prov_registered("t", "c");
	expect_enabled(late, "0");
	ck_assert_uint_eq(ctl_event(&late->ev[0])->flags, UST_CTL_EV_LIVE |
			  UST_CTL_EV_WANTED | UST_CTL_EV_DESCRIBED);
}
END_TEST

START_TEST(test_unregister)
{
	struct prov *pv;
	uint32_t old_id;

	start("*", UST_MODE_DISCARD);
	pv = prov_registered("t", "a b");
	old_id = pv->ev[1].id;
	ust_provider_unregister(&pv->p);
	ck_assert_uint_eq(pv->p.registered, 0);
	expect_enabled(pv, "00");
	ck_assert_uint_eq(ctl_event(&pv->ev[0])->flags, 0);
	ck_assert_uint_eq(ctl_event(&pv->ev[0])->enabled_addr, 0);
	ck_assert_uint_eq(ctl_event(&pv->ev[1])->enabled_addr, 0);
	/* Again, or NULL: nothing happens. */
	ust_provider_unregister(&pv->p);
	ust_provider_unregister(NULL);

	/* Registered again (a library loaded again): new ids, described again. */
	ck_assert_int_eq(ust_provider_register(&pv->p), 0);
	ck_assert_uint_eq(pv->ev[0].id, old_id + 1);
	ck_assert_int_eq(pv->ev[0].enabled, 1);
	ck_assert_uint_eq(meta_count(session), 4);
	ck_assert_uint_eq(meta_find(session, "t:a").me->id, old_id - 1);
}
END_TEST

/* Size of the log entry of an event "NAME" {uint32 v} without descriptions. */
static uint32_t entry_size(const char *name)
{
	return (uint32_t)(sizeof(struct ust_meta_event) + strlen(name) + 1 + 3 +
			  sizeof(TSDL_U32) + 2 + 7) & ~7u;
}

START_TEST(test_metadata_full)
{
	struct prov *pv;
	char *err;

	start("*", UST_MODE_DISCARD);
	/* Room for exactly one entry. */
	session->hdr->meta_size = entry_size("t:a");
	unit_stderr_begin();
	pv = prov_registered("t", "a b c");
	err = unit_stderr_end();
	ck_assert_str_eq(err, "ust: metadata area full, event 't:b' not recorded\n"
			 "ust: metadata area full, event 't:c' not recorded\n");
	free(err);
	ck_assert_uint_eq(session->hdr->meta_used, entry_size("t:a"));
	ck_assert_uint_eq(session->hdr->meta_dropped, 2);
	/* Not described: cannot be read, so never enabled, even by ust ctl. */
	expect_enabled(pv, "100");
	ck_assert_uint_eq(ctl_event(&pv->ev[1])->flags,
			  UST_CTL_EV_LIVE | UST_CTL_EV_WANTED);
}
END_TEST

/*
 * Events beyond the control area's capacity (ids from UST_CTL_MAX_EVENTS,
 * names of UST_CTL_NAME_MAX bytes and more) follow UST_TRACE but are not
 * listed.
 */
START_TEST(test_beyond_control_area)
{
	static char names[UST_CTL_MAX_EVENTS * 8];
	char long_name[UST_CTL_NAME_MAX];
	struct prov *pv, *lp;
	size_t used = 0;
	uint32_t i, n = UST_CTL_MAX_EVENTS + 6;

	start("*,-big:e1027", UST_MODE_DISCARD);
	/* "l:" and 110 characters: 113 bytes with the NUL, one too many. */
	memset(long_name, 'x', sizeof(long_name));
	long_name[UST_CTL_NAME_MAX - 2] = '\0';
	lp = prov_registered("l", long_name);
	ck_assert_uint_lt(lp->ev[0].id, UST_CTL_MAX_EVENTS);
	ck_assert_int_eq(lp->ev[0].enabled, 1);
	ck_assert_uint_eq(ctl_event(&lp->ev[0])->flags, 0);
	ck_assert_str_eq(ctl_event(&lp->ev[0])->name, "");
	long_name[UST_CTL_NAME_MAX - 3] = '\0';	/* 112 bytes: listed */
	lp = prov_registered("l", long_name);
	ck_assert_uint_eq(strlen(ctl_event(&lp->ev[0])->name), UST_CTL_NAME_MAX - 1);

	/* Ids from UST_CTL_MAX_EVENTS on. */
	for (i = 0; i < n; i++)
		used += (size_t)snprintf(names + used, sizeof(names) - used, "e%u ", i);
	pv = prov_registered("big", names);
	ck_assert_uint_eq(pv->ev[n - 1].id, n - 1 + pv->ev[0].id);
	ck_assert_uint_ge(pv->ev[n - 1].id, UST_CTL_MAX_EVENTS);
	ck_assert_uint_eq(session->ctl->nr_events, UST_CTL_MAX_EVENTS);
	ck_assert_int_eq(pv->ev[n - 1].enabled, 1);
	ck_assert_int_eq(pv->ev[UST_CTL_MAX_EVENTS + 3].enabled, 0);
	ck_assert_uint_eq(meta_count(session), n + 2);
	ck_assert_uint_eq(meta_find(session, "big:e1029").me->id, pv->ev[n - 1].id);
}
END_TEST

/*
 * The session of a fork child of `session`, as atfork_child() makes it:
 * mapped, with the parent's `ust ctl` state; not published.
 */
static struct ust_session *child_session(void)
{
	struct ust_session *child;
	int fd = -1;

	child = ust__session_map(&cfg, &fd);
	ck_assert_ptr_nonnull(child);
	child->shm_fd = fd;
	ust__registry_inherit_control(child, session);
	return child;
}

/* A fork child takes over its parent's `ust ctl` rules and stop flag. */
START_TEST(test_inherit_control)
{
	struct ust_session *child;
	struct prov *pv = prov_registered("t", "a b");

	start("*", UST_MODE_DISCARD);
	add_rule(session->ctl, "t:a", 0);
	add_rule(session->ctl, "t:*", 1);
	add_rule(session->ctl, "t:b", 0);
	session->ctl->stopped = 1;
	child = child_session();
	ck_assert_uint_eq(child->ctl->nr_rules, 3);
	ck_assert_mem_eq(child->ctl->rules, session->ctl->rules,
			 3 * sizeof(struct ust_ctl_rule));
	ck_assert_uint_eq(child->ctl->stopped, 1);

	/* The child's session describes the events with those rules. */
	child->ctl->stopped = 0;
	unit_session_stop(session);
	session = child;
	ust__config = cfg;
	ust__session_publish(child);
	expect_enabled(pv, "10");
	ck_assert_uint_eq(ctl_event(&pv->ev[1])->flags,
			  UST_CTL_EV_LIVE | UST_CTL_EV_DESCRIBED);
}
END_TEST

/* A garbage rule count in the parent's area is clamped: no overrun. */
START_TEST(test_inherit_garbage_count)
{
	struct ust_session *child;

	start("*", UST_MODE_DISCARD);
	memset(session->ctl->rules, 'r', sizeof(session->ctl->rules));
	session->ctl->nr_rules = 0xffffffffu;
	session->ctl->stopped = 7;
	child = child_session();
	ck_assert_uint_eq(child->ctl->nr_rules, UST_CTL_MAX_RULES);
	ck_assert_mem_eq(child->ctl->rules, session->ctl->rules,
			 sizeof(child->ctl->rules));
	ck_assert_uint_eq(child->ctl->nr_events, 0);
	ck_assert_uint_eq(child->ctl->stopped, 7);
	ust__session_destroy(child);
}
END_TEST

/*
 * Flight mode: the statedump's events are described in the state channel
 * (chan[1]), the trigger and the program's events in chan[0].
 */
START_TEST(test_flight_channels)
{
	struct prov *pv;

	start("*", UST_MODE_FLIGHT);
	pv = prov_registered("t", "a");
	ck_assert_uint_eq(meta_find(session, "t:a").me->channel, 0);
	ck_assert_uint_eq(meta_find(session, "ust:trigger").me->channel, 0);
	ck_assert_uint_eq(meta_find(session, "lttng_ust_statedump:bin_info").me->channel, 1);
	ck_assert_uint_eq(meta_find(session, "lttng_ust_dl:dlopen").me->channel, 1);
	ck_assert_str_eq(meta_find(session, "ust:trigger").desc,
			 "ust_trigger() was called: a flight-recorder snapshot ends here");
	ck_assert_int_eq(pv->ev[0].enabled, 1);
}
END_TEST

int main(void)
{
	const struct check_case cases[] = {
		{ "providers", NULL, teardown, 0, {
			test_ids, test_refused, NULL } },
		{ "session", NULL, teardown, 30, {
			test_enabled_by_patterns, test_metadata_entries,
			test_control_entries, test_rules_and_stop,
			test_unregister, test_metadata_full,
			test_beyond_control_area, test_inherit_control,
			test_inherit_garbage_count, test_flight_channels,
			NULL } },
	};

	return CHECK_RUN_CASES("registry", cases);
}
