/*
 * registry.c - providers and their events.
 *
 * SPDX-License-Identifier: LGPL-2.1-only
 *
 * Providers register from their constructors and unregister from their
 * destructors, under one mutex; nothing here runs on the tracing hot
 * path, which only reads an event's `enabled` word.  Each event gets a
 * process-wide id.  When a session is running, an event is described in
 * the metadata log of the shared memory before it is enabled, so the
 * consumer always knows an id before it meets a record that carries it.
 */
#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <urcu/list.h>

#include <ust/tracepoint.h>

#include "gate.h"
#include "session.h"
#include "common/shm-ctl.h"

static pthread_mutex_t registry_mutex = PTHREAD_MUTEX_INITIALIZER;
static CDS_LIST_HEAD(providers);
static uint32_t next_event_id;

_Static_assert(sizeof(((struct ust_provider *)0)->priv) >=
	       sizeof(struct cds_list_head), "provider list node");

static struct cds_list_head *provider_node(struct ust_provider *p)
{
	return (struct cds_list_head *)p->priv;
}

void ust__registry_lock(void)
{
	pthread_mutex_lock(&registry_mutex);
}

void ust__registry_unlock(void)
{
	pthread_mutex_unlock(&registry_mutex);
}

static struct ust_provider *node_provider(struct cds_list_head *node)
{
	return (struct ust_provider *)((char *)node -
				       offsetof(struct ust_provider, priv));
}

/* struct ust_event_desc of the first version, before `description`. */
#define UST_EVENT_DESC_SIZE_V1 offsetof(struct ust_event_desc, description)

/* The description of an event, "" when it has none or predates them. */
static const char *event_description(const struct ust_event_desc *ev)
{
	if (ev->struct_size < offsetof(struct ust_event_desc, description) +
			      sizeof(ev->description) || !ev->description)
		return "";
	return ev->description;
}

static void full_name(char *buf, size_t len, const struct ust_provider *p,
		      const struct ust_event_desc *ev)
{
	snprintf(buf, len, "%s:%s", p->facility, ev->name);
}

/*
 * Append event class `name` ("facility:event") to the metadata log.
 * Returns 0, or -ENOSPC when
 * the log is full (the event then stays disabled: it could not be read).
 */
static int meta_append(struct ust_session *s, const char *name,
		       const struct ust_event_desc *ev, const char *fac_desc)
{
	struct ust_shm_header *h = s->hdr;
	struct ust_meta_event me = { 0 };
	const char *desc = event_description(ev);
	uint8_t *dst;
	uint64_t used = h->meta_used, size;
	size_t desc_len = strlen(desc) + 1;

	me.id = ev->id;
	me.channel = ust__event_channel(s, name);
	me.loglevel = ev->loglevel;
	me.name_len = (uint32_t)strlen(name) + 1;
	me.layout_len = (uint32_t)strlen(ev->layout) + 1;
	me.tsdl_len = (uint32_t)strlen(ev->tsdl_fields) + 1;
	fac_desc = fac_desc ? fac_desc : "";
	me.desc_len = (uint32_t)(desc_len + strlen(fac_desc) + 1);
	size = (sizeof(me) + me.name_len + me.layout_len + me.tsdl_len +
		me.desc_len + 7) & ~7ull;
	if (used + size > h->meta_size) {
		h->meta_dropped++;
		return -ENOSPC;
	}
	me.size = (uint32_t)size;
	dst = (uint8_t *)s->base + h->meta_offset + used;
	memcpy(dst, &me, sizeof(me));
	dst += sizeof(me);
	memcpy(dst, name, me.name_len);
	memcpy(dst + me.name_len, ev->layout, me.layout_len);
	memcpy(dst + me.name_len + me.layout_len, ev->tsdl_fields,
	       me.tsdl_len);
	dst += me.name_len + me.layout_len + me.tsdl_len;
	memcpy(dst, desc, desc_len);
	memcpy(dst + desc_len, fac_desc, me.desc_len - desc_len);
	/*
	 * I9, release: the entry's bytes before the new length.  Pairs with the
	 * consumer's acquire load of meta_used before it reads entries.
	 */
	__atomic_store_n(&h->meta_used, used + size, __ATOMIC_RELEASE);
	return 0;
}

/*
 * Publish `ev` in the runtime control area (abi/control.h) and return whether
 * it is wanted: UST_TRACE's choice, then every `ust ctl` rule that
 * matches, so a provider registered late follows what ust ctl set.  An
 * event whose id or name does not fit the area follows UST_TRACE and the
 * rules but cannot be listed or changed.  Called with the control lock.
 */
static bool ctl_publish(struct ust_session *s, const char *name,
			struct ust_event_desc *ev, bool described)
{
	struct ust_ctl_area *a = s->ctl;
	bool wanted = ust__pattern_match(&ust__config, name, ev->loglevel);
	struct ust_ctl_event *e;

	wanted = ust__ctl_rules_apply(a, a->nr_rules, name, wanted);
	if (ev->id >= UST_CTL_MAX_EVENTS || strlen(name) >= UST_CTL_NAME_MAX)
		return wanted;
	e = &a->events[ev->id];
	e->enabled_addr = (uint64_t)(uintptr_t)&ev->enabled;
	e->id = ev->id;
	memset(e->name, 0, sizeof(e->name));
	memcpy(e->name, name, strlen(name));
	e->flags = UST_CTL_EV_LIVE | (wanted ? UST_CTL_EV_WANTED : 0) |
		   (described ? UST_CTL_EV_DESCRIBED : 0);
	if (a->nr_events <= ev->id)
		a->nr_events = ev->id + 1;
	return wanted;
}

/*
 * Describe one event in session `s`, whether or not it is wanted now (so
 * `ust ctl` can enable it later), and set its enabled word.  Called with
 * the control lock.
 */
static void event_attach(struct ust_session *s, const struct ust_provider *p,
			 struct ust_event_desc *ev)
{
	char name[256];
	bool described, on;

	full_name(name, sizeof(name), p, ev);
	described = meta_append(s, name, ev, p->description) == 0;
	if (!described)
		fprintf(stderr, "ust: metadata area full, event '%s' "
			"not recorded\n", name);
	on = ctl_publish(s, name, ev, described) && described &&
	     !s->ctl->stopped;
	/* The gate (filter, rate limit) is in place before the event is on. */
	on = ust__gate_attach(s, ev, name) && on;
	/*
	 * After the metadata entry is published (I9, release in
	 * meta_append), so the consumer can decode the event's first record.
	 * Relaxed: partner of the call sites' UST_EVENT_ENABLED; under the
	 * control lock (I12), as ust ctl's writes of the same word.
	 */
	__atomic_store_n(&ev->enabled, on ? 1 : 0, __ATOMIC_RELAXED);
}

/* Attach the provider's events, under the control lock (I12, abi/control.h). */
static void provider_attach(struct ust_session *s, struct ust_provider *p)
{
	uint32_t i;

	/* Without the lock (the program closed our fd) we still go on. */
	(void)ust__ctl_lock(s->shm_fd, LOCK_EX);
	for (i = 0; i < p->nr_events; i++)
		event_attach(s, p, p->events[i]);
	ust__ctl_unlock(s->shm_fd);
}

/*
 * Disable the provider's events and withdraw them from the control area,
 * under the control lock: once it is released, `ust ctl` can no longer
 * write an enabled word of this provider, whose memory may go away.
 */
static void provider_detach(struct ust_session *s, struct ust_provider *p)
{
	uint32_t i;

	if (s)
		(void)ust__ctl_lock(s->shm_fd, LOCK_EX);
	for (i = 0; i < p->nr_events; i++) {
		struct ust_event_desc *ev = p->events[i];

		/* I12: under the lock, relaxed as in provider_attach(). */
		__atomic_store_n(&ev->enabled, 0, __ATOMIC_RELAXED);
		if (s && ev->id < UST_CTL_MAX_EVENTS) {
			s->ctl->events[ev->id].flags = 0;
			s->ctl->events[ev->id].enabled_addr = 0;
		}
	}
	if (s)
		ust__ctl_unlock(s->shm_fd);
}

static int provider_valid(const struct ust_provider *p)
{
	uint32_t i;

	if (!p || p->struct_size < sizeof(*p) ||
	    p->abi_version != UST_ABI_VERSION || !p->facility ||
	    (p->nr_events && !p->events))
		return 0;
	for (i = 0; i < p->nr_events; i++) {
		const struct ust_event_desc *ev = p->events[i];

		if (!ev || ev->struct_size < UST_EVENT_DESC_SIZE_V1 || !ev->name ||
		    !ev->tsdl_fields || !ev->layout)
			return 0;
	}
	return 1;
}

UST_EXPORT int ust_provider_register(struct ust_provider *p)
{
	struct ust_session *s;
	uint32_t i;
	int ret = 0;

	if (!provider_valid(p))
		return -EINVAL;
	ust__registry_lock();
	if (p->registered) {
		ret = -EEXIST;
		goto out;
	}
	for (i = 0; i < p->nr_events; i++) {
		p->events[i]->id = next_event_id++;
		p->events[i]->priv = p;
	}
	cds_list_add_tail(provider_node(p), &providers);
	p->registered = 1;
	/* Acquire: pairs with the store-release in ust__session_publish(). */
	s = __atomic_load_n(&ust__session_current, __ATOMIC_ACQUIRE);
	if (s)
		provider_attach(s, p);
out:
	ust__registry_unlock();
	return ret;
}

/*
 * Disable the provider's events and forget it.  Like other tracers, ust
 * leaves it to the program not to unload a provider while one of its own
 * threads is still inside one of its probes.
 */
UST_EXPORT void ust_provider_unregister(struct ust_provider *p)
{
	if (!p)
		return;
	ust__registry_lock();
	if (p->registered) {
		/* Acquire: as in ust_provider_register(). */
		provider_detach(__atomic_load_n(&ust__session_current,
						__ATOMIC_ACQUIRE), p);
		cds_list_del(provider_node(p));
		p->registered = 0;
	}
	ust__registry_unlock();
}

/*
 * In a fork child, before its new session `s` is published: take over
 * the `ust ctl` state of the parent's session `old` (its rules and stop
 * flag), so the child records what its parent does.  Without the control
 * lock: the child's copy of the parent's memfd shares the parent's open
 * file, so its flock would not exclude the parent.  None is needed: the
 * rules are append-only and `ust ctl` publishes their count with a
 * store-release after a rule's bytes (cli/ctl.c), which the acquire load
 * below pairs with, so the copy is a consistent prefix.
 */
void ust__registry_inherit_control(struct ust_session *s,
				  const struct ust_session *old)
{
	/* I12, acquire: pairs with ust ctl's store-release of nr_rules. */
	uint32_t n = __atomic_load_n(&old->ctl->nr_rules, __ATOMIC_ACQUIRE);

	n = n < UST_CTL_MAX_RULES ? n : UST_CTL_MAX_RULES;
	memcpy(s->ctl->rules, old->ctl->rules, n * sizeof(s->ctl->rules[0]));
	s->ctl->nr_rules = n;
	/* I12, relaxed: a flag, as ust ctl stores it. */
	s->ctl->stopped = __atomic_load_n(&old->ctl->stopped, __ATOMIC_RELAXED);
	ust__gate_inherit(s, old);	/* the filters too (I13) */
}

/*
 * A session just started (at start-up, or in a fork child): describe the
 * events of every provider registered so far.
 */
void ust__registry_session_started(struct ust_session *s)
{
	struct cds_list_head *node;

	ust__registry_lock();
	/* UST_TRACE's filters, under the control lock (I12, I13). */
	(void)ust__ctl_lock(s->shm_fd, LOCK_EX);
	ust__gate_session_started(s);
	ust__ctl_unlock(s->shm_fd);
	cds_list_for_each(node, &providers)
		provider_attach(s, node_provider(node));
	ust__registry_unlock();
}
