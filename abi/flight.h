/*
 * abi/flight.h - flight-recorder snapshot requests: the block in the
 * shared-memory header (abi/shm.h) and the requester's side of the
 * protocol, shared by ust_trigger() (libust/flight.c) and `ust snapshot`
 * (cli/snapshot.c).  The consumer serves them (consumer/snapshot.c).
 *
 * SPDX-License-Identifier: LGPL-2.1-only
 *
 * One request at a time (invariants I10 and I11 of abi/shm.h):
 *
 *   requester                          consumer
 *   CAS state IDLE -> CLAIMED (acq)
 *   fill cut_ts, reason, out_dir
 *   frozen = 1
 *   state = PENDING (release)  ----->  CAS state PENDING -> SERVING (acq)
 *                                      copy the flight channels
 *                                      frozen = 0 (release: I11's partner)
 *                                      name it, its kernel part, the relay
 *                                      result, path
 *   load done (acquire)        <-----  done + 1 (release)
 *   read result, path                  state = IDLE (release: next claim)
 *
 * A requester that gives up waiting (`ust snapshot --timeout`) takes its
 * request back, PENDING -> IDLE with a compare-and-exchange, and
 * unfreezes: only while the consumer has not begun.  Once the consumer
 * made it SERVING, the request is the consumer's to finish, and nobody
 * else may touch the block before it stores IDLE; so a late consumer
 * never finishes a request that a newer one replaced.
 *
 * While `frozen`, writers of a flight channel refuse to switch
 * sub-buffers (the record is counted lost, I7) instead of overwriting what
 * the consumer is copying; they load `frozen` only on the switch path,
 * with acquire, pairing with the consumer's store-release of 0.
 */
#ifndef UST_ABI_FLIGHT_H
#define UST_ABI_FLIGHT_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

enum ust_flight_state {
	UST_FLIGHT_IDLE = 0,
	UST_FLIGHT_CLAIMED = 1,	/* a requester is filling the request */
	UST_FLIGHT_PENDING = 2,	/* for the consumer */
	UST_FLIGHT_SERVING = 3,	/* the consumer is writing it */
};

#define UST_FLIGHT_REASON_MAX	32u
#define UST_FLIGHT_PATH_MAX	512u

struct ust_flight {
	uint32_t state;		/* enum ust_flight_state */
	uint32_t frozen;	/* flight channels: no sub-buffer switch */
	uint32_t done;		/* requests completed, free-running */
	int32_t result;		/* of the last request: 0 or -errno */
	uint64_t cut_ts;	/* records after this timestamp are left out */
	char reason[UST_FLIGHT_REASON_MAX];	/* NUL-terminated */
	char out_dir[UST_FLIGHT_PATH_MAX];	/* absolute, or "" for the default */
	char path[UST_FLIGHT_PATH_MAX];		/* result: the snapshot directory */
};

/*
 * Claim the request block: IDLE -> CLAIMED.  I10, acquire on success:
 * pairs with the consumer's store-release of IDLE, so the previous
 * request is done with before we overwrite its fields.
 */
static inline bool ust__flight_claim(struct ust_flight *f)
{
	uint32_t idle = UST_FLIGHT_IDLE;

	return __atomic_compare_exchange_n(&f->state, &idle, UST_FLIGHT_CLAIMED, 0,
					   __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

/* Copy `src` into the fixed-size shared field `dst`, always terminated. */
static inline void ust__flight_field_set(char *dst, size_t size, const char *src)
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
static inline uint32_t ust__flight_publish(struct ust_flight *f, uint64_t cut_ts,
					  const char *reason, const char *out_dir)
{
	uint32_t done = __atomic_load_n(&f->done, __ATOMIC_RELAXED);

	f->cut_ts = cut_ts;
	ust__flight_field_set(f->reason, sizeof(f->reason), reason);
	ust__flight_field_set(f->out_dir, sizeof(f->out_dir), out_dir);
	/* I11: ordered before PENDING by the release below, as the fields. */
	__atomic_store_n(&f->frozen, 1, __ATOMIC_RELAXED);
	/* I10, release: the request's fields before the consumer reads them. */
	__atomic_store_n(&f->state, UST_FLIGHT_PENDING, __ATOMIC_RELEASE);
	return done;
}

/*
 * Let the writers of the flight channels switch sub-buffers again.  I11,
 * release: the copies made while frozen are done before a writer reuses
 * a slot (partner: the writers' acquire load of `frozen` in
 * buffer_switch).  The consumer unfreezes as soon as its copies are
 * done, before it names the snapshot and writes its kernel part and its
 * relay copy; ust__flight_serve_end() unfreezes anyway.
 */
static inline void ust__flight_unfreeze(struct ust_flight *f)
{
	__atomic_store_n(&f->frozen, 0, __ATOMIC_RELEASE);
}

/*
 * The requester gave up waiting: take the request back, PENDING -> IDLE,
 * and unfreeze.  False when the consumer already began serving it (it
 * finishes, unfreezes and stores IDLE itself).  I10, acq-rel on success,
 * partner: the consumer's acquiring PENDING -> SERVING; frozen = 0 with
 * release, I11's partner as the consumer's.
 */
static inline bool ust__flight_take_back(struct ust_flight *f)
{
	uint32_t pending = UST_FLIGHT_PENDING;

	if (!__atomic_compare_exchange_n(&f->state, &pending, UST_FLIGHT_IDLE, 0,
					 __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		return false;
	ust__flight_unfreeze(f);
	return true;
}

/*
 * The consumer's side.  Begin: PENDING -> SERVING, I10, acquire: pairs
 * with the requester's store-release of PENDING, so the request's fields
 * are visible; false when there is nothing to serve (or the requester
 * took it back first).
 */
static inline bool ust__flight_serve_begin(struct ust_flight *f)
{
	uint32_t pending = UST_FLIGHT_PENDING;

	return __atomic_compare_exchange_n(&f->state, &pending, UST_FLIGHT_SERVING, 0,
					   __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

/*
 * Finish the request begun: I10 and I11, release, in this order: the
 * copies are done before a writer reuses a slot (partner: the writers'
 * acquire load of `frozen` in buffer_switch); `result` and `path`
 * (written by the caller) before `done` (partner: the waiter's acquire
 * load of `done`); all of it before the next requester claims the block
 * (partner: its acquiring compare-and-exchange).
 */
static inline void ust__flight_serve_end(struct ust_flight *f)
{
	ust__flight_unfreeze(f);
	__atomic_fetch_add(&f->done, 1, __ATOMIC_RELEASE);
	__atomic_store_n(&f->state, UST_FLIGHT_IDLE, __ATOMIC_RELEASE);
}

#endif /* UST_ABI_FLIGHT_H */
