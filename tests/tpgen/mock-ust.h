/*
 * mock-ust.h - a stand-in for libust that records what generated code
 * passes to it, so that tests can run probes without the real library.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MOCK_UST_H
#define MOCK_UST_H

#include <stddef.h>
#include <ust/tracepoint.h>

#define MOCK_MAX_PROVIDERS	8
#define MOCK_MAX_SEGS		32
#define MOCK_MAX_PAYLOAD	4096

/* The last ust_event_write() call, payload concatenated. */
struct mock_write {
	struct ust_event_desc *event;
	unsigned int nr_segs;
	struct ust_seg segs[MOCK_MAX_SEGS];	/* as passed (first ones) */
	size_t payload_size;			/* as passed */
	size_t seg_total;			/* sum of the segment lengths */
	unsigned char payload[MOCK_MAX_PAYLOAD];
	int truncated;				/* payload did not fit */
	/* Through ust_event_write_gated_ip(): segs as passed, strings measured for the rest. */
	int gated;
	size_t known_size;			/* as passed to it */
	/* Through ust_event_write_small_ip(): one segment, the payload. */
	int small;
};

extern struct ust_provider *mock_providers[MOCK_MAX_PROVIDERS];
extern unsigned int mock_nr_providers;
extern unsigned int mock_nr_writes;
extern struct mock_write mock_last;

/*
 * When >= 0, ust_provider_unregister() writes "<facility>\n" to this file
 * descriptor: destructors run after main() returns, so a test observes
 * them from another process.
 */
extern int mock_unregister_fd;

/* The registered provider of a facility, or NULL. */
struct ust_provider *mock_find_provider(const char *facility);

/* Set `enabled` on every event of every registered provider. */
void mock_enable_all(int enabled);

void mock_reset_writes(void);

#endif /* MOCK_UST_H */
