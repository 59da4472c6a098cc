/*
 * mock-ust.c - a stand-in for libust that records what generated code
 * passes to it.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Written in the subset of C that compiles as C99 with -Wall -Wextra
 * -Werror, since compile.sh builds it outside the project's flags.
 */
#include <string.h>
#include <unistd.h>

#include "mock-ust.h"

struct ust_provider *mock_providers[MOCK_MAX_PROVIDERS];
unsigned int mock_nr_providers;
unsigned int mock_nr_writes;
struct mock_write mock_last;
int mock_unregister_fd = -1;

int ust_provider_register(struct ust_provider *provider)
{
	if (mock_nr_providers == MOCK_MAX_PROVIDERS)
		return -1;
	mock_providers[mock_nr_providers++] = provider;
	return 0;
}

void ust_provider_unregister(struct ust_provider *provider)
{
	size_t len = strlen(provider->facility);

	if (mock_unregister_fd < 0)
		return;
	if (write(mock_unregister_fd, provider->facility, len) != (ssize_t)len ||
	    write(mock_unregister_fd, "\n", 1) != 1)
		return;
}

/* What the probes call (<ust/tracepoint.h>'s ust_event_write() macro). */
void ust_event_write_ip(struct ust_event_desc *event,
			const struct ust_seg *segs, unsigned int nr_segs,
			size_t payload_size, const void *ip)
{
	struct mock_write *w = &mock_last;
	unsigned int i;

	(void)ip;
	memset(w, 0, sizeof(*w));
	w->event = event;
	w->nr_segs = nr_segs;
	w->payload_size = payload_size;
	for (i = 0; i < nr_segs; i++) {
		if (i < MOCK_MAX_SEGS)
			w->segs[i] = segs[i];
		if (w->seg_total + segs[i].len > MOCK_MAX_PAYLOAD)
			w->truncated = 1;
		else if (segs[i].len)	/* an empty sequence's may be NULL */
			memcpy(w->payload + w->seg_total, segs[i].ptr, segs[i].len);
		w->seg_total += segs[i].len;
	}
	mock_nr_writes++;
}

/*
 * What probes with strings call when the gate word is set: measure the
 * strings (UST_SEG_CSTR) as libust does for a record it keeps, and
 * record the write, keeping the segments as they were passed.
 */
void ust_event_write_gated_ip(struct ust_event_desc *event,
			      struct ust_seg *segs, unsigned int nr_segs,
			      size_t known_size, const void *ip)
{
	struct ust_seg measured[MOCK_MAX_SEGS] = { { NULL, 0 } };
	size_t size = known_size;
	unsigned int i, n = nr_segs < MOCK_MAX_SEGS ? nr_segs : MOCK_MAX_SEGS;

	for (i = 0; i < n; i++) {
		measured[i] = segs[i];
		if (segs[i].len == UST_SEG_CSTR) {
			measured[i].len = strlen((const char *)segs[i].ptr);
			size += measured[i].len;
		}
	}
	ust_event_write_ip(event, measured, n, size, ip);
	mock_last.nr_segs = nr_segs;
	for (i = 0; i < n; i++)
		mock_last.segs[i] = segs[i];
	mock_last.gated = 1;
	mock_last.known_size = known_size;
}

/* What probes of a payload of 8 bytes at most call: recorded as one segment. */
void ust_event_write_small_ip(struct ust_event_desc *event, uint64_t payload,
			      size_t size, const void *ip)
{
	static uint64_t copy;
	struct ust_seg seg = { &copy, size };

	copy = payload;
	ust_event_write_ip(event, &seg, 1, size, ip);
	mock_last.small = 1;
}

struct ust_provider *mock_find_provider(const char *facility)
{
	unsigned int i;

	for (i = 0; i < mock_nr_providers; i++)
		if (strcmp(mock_providers[i]->facility, facility) == 0)
			return mock_providers[i];
	return NULL;
}

void mock_enable_all(int enabled)
{
	unsigned int i, j;

	for (i = 0; i < mock_nr_providers; i++)
		for (j = 0; j < mock_providers[i]->nr_events; j++)
			mock_providers[i]->events[j]->enabled = enabled;
}

void mock_reset_writes(void)
{
	memset(&mock_last, 0, sizeof(mock_last));
	mock_nr_writes = 0;
}
