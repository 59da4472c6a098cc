/*
 * check_request.c - the snapshot request protocol of abi/flight.h
 * (invariant I10), step by step, each interleaving forced: a requester
 * that times out while the consumer serves its request must not take it
 * back, and a late consumer must not finish a request that a newer one
 * replaced.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include <check.h>
#include <string.h>

#include "../check_run.h"
#include "abi/flight.h"

static struct ust_flight f;

static void setup(void)
{
	memset(&f, 0, sizeof(f));
}

/* A requester's claim and publish, as ust_trigger() and ust snapshot do. */
static uint32_t request(const char *reason)
{
	ck_assert(ust__flight_claim(&f));
	return ust__flight_publish(&f, 42, reason, "");
}

/* The race of cli/snapshot.c: the consumer began, then the requester timed out. */
START_TEST(test_timeout_while_serving)
{
	uint32_t done = request("first");

	ck_assert(ust__flight_serve_begin(&f));
	ck_assert_uint_eq(f.state, UST_FLIGHT_SERVING);
	/* The requester gives up: it may not take the request back... */
	ck_assert(!ust__flight_take_back(&f));
	ck_assert_uint_eq(f.state, UST_FLIGHT_SERVING);
	ck_assert_uint_eq(f.frozen, 1);	/* still the consumer's copy */
	/* ...nor may a new requester claim the block meanwhile. */
	ck_assert(!ust__flight_claim(&f));
	ck_assert_str_eq(f.reason, "first");
	/* The consumer finishes what it began. */
	f.result = 0;
	ust__flight_serve_end(&f);
	ck_assert_uint_eq(f.done, done + 1);
	ck_assert_uint_eq(f.frozen, 0);
	ck_assert_uint_eq(f.state, UST_FLIGHT_IDLE);
	/* And only then is the block free again. */
	done = request("second");
	ck_assert_uint_eq(f.state, UST_FLIGHT_PENDING);
	ck_assert_uint_eq(done, 1);
}
END_TEST

/* The requester timed out before the consumer looked: taken back. */
START_TEST(test_timeout_before_serving)
{
	request("first");
	ck_assert(ust__flight_take_back(&f));
	ck_assert_uint_eq(f.state, UST_FLIGHT_IDLE);
	ck_assert_uint_eq(f.frozen, 0);
	/* A consumer that comes late finds nothing to serve... */
	ck_assert(!ust__flight_serve_begin(&f));
	/* ...and a newer request is served as such, counted once. */
	request("second");
	ck_assert(ust__flight_serve_begin(&f));
	ck_assert_str_eq(f.reason, "second");
	ust__flight_serve_end(&f);
	ck_assert_uint_eq(f.done, 1);
	ck_assert_uint_eq(f.state, UST_FLIGHT_IDLE);
}
END_TEST

/* Only a published request is served; a claimed one is being filled. */
START_TEST(test_claimed_not_served)
{
	ck_assert(ust__flight_claim(&f));
	ck_assert(!ust__flight_serve_begin(&f));
	ck_assert(!ust__flight_take_back(&f));
	ck_assert_uint_eq(f.state, UST_FLIGHT_CLAIMED);
}
END_TEST

int main(void)
{
	const struct check_case cases[] = {
		{ "I10", setup, NULL, 0, {
			test_timeout_while_serving, test_timeout_before_serving,
			test_claimed_not_served, NULL } },
	};

	return CHECK_RUN_CASES("flight request", cases);
}
