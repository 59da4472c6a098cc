/*
 * flight-request.h - the requester's side of a flight-recorder snapshot
 * request (the protocol is in shm-abi.h, struct ust_flight), shared by
 * ust_trigger() (libust/flight.c) and `ust snapshot` (cli/snapshot.c).
 *
 * SPDX-License-Identifier: LGPL-2.1-only
 */
#ifndef UST_FLIGHT_REQUEST_H
#define UST_FLIGHT_REQUEST_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "abi/shm.h"

/*
 * Claim the request block: IDLE -> CLAIMED.  Acquire on success: pairs
 * with the consumer's store-release of IDLE, so the previous request is
 * done with before we overwrite its fields.
 */
static inline bool ust_flight_claim(struct ust_flight *f)
{
	uint32_t idle = UST_FLIGHT_IDLE;

	return __atomic_compare_exchange_n(&f->state, &idle, UST_FLIGHT_CLAIMED, 0,
					   __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

/* Copy `src` into the fixed-size shared field `dst`, always terminated. */
static inline void ust_flight_field_set(char *dst, size_t size, const char *src)
{
	size_t n = strnlen(src, size - 1);

	memcpy(dst, src, n);
	memset(dst + n, 0, size - n);
}

/*
 * Fill the claimed block, freeze the flight channel and publish the
 * request.  Returns the `done` count the consumer will move past when it
 * has served it (stable while we hold the claim).
 */
static inline uint32_t ust_flight_publish(struct ust_flight *f, uint64_t cut_ts,
					  const char *reason, const char *out_dir)
{
	uint32_t done = __atomic_load_n(&f->done, __ATOMIC_RELAXED);

	f->cut_ts = cut_ts;
	ust_flight_field_set(f->reason, sizeof(f->reason), reason);
	ust_flight_field_set(f->out_dir, sizeof(f->out_dir), out_dir);
	/* Ordered before PENDING by the release below, as the fields. */
	__atomic_store_n(&f->frozen, 1, __ATOMIC_RELAXED);
	/* Release: the request's fields before the consumer may read them. */
	__atomic_store_n(&f->state, UST_FLIGHT_PENDING, __ATOMIC_RELEASE);
	return done;
}

#endif /* UST_FLIGHT_REQUEST_H */
