/*
 * harness.h - run compiled filters on what real tpgen probes record.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * harness.c stands in for libust: ust_event_write_ip() (and
 * ust_event_write_gated_ip(), the probes' events being gated) runs the filter set
 * by harness_set() on the probe's own segments and keeps the result, so
 * a test compiles an expression against an event's descriptor (its TSDL
 * fields and layout, as libust and the ELF section have them), calls the
 * generated trace_*() function, and checks what the filter decided.
 */
#ifndef UST_TESTS_FILTER_HARNESS_H
#define UST_TESTS_FILTER_HARNESS_H

#include <stddef.h>

#include <ust/tracepoint.h>

#include "compiler.h"
#include "runtime.h"

/* The last decision: 1 record, 0 discard, -1 no event written since. */
extern int harness_result;
/* The providers registered (every facility linked in). */
#define HARNESS_MAX_PROVIDERS 8
extern struct ust_provider *harness_providers[HARNESS_MAX_PROVIDERS];
extern unsigned int harness_nr_providers;

/* The $ctx values the filters see. */
extern struct ust_filter_ctx harness_ctx;

/*
 * Compile `expr` for event `desc` (facility "flt") and make it the
 * filter: 0, or -1 with the error ("column N: ...") in `err`.
 */
int harness_set(const char *expr, const struct ust_event_desc *desc,
		char *err, size_t len);

/* The event of `desc` as the compiler sees it (filter_event_release it). */
int harness_event(const struct ust_event_desc *desc, struct filter_event *ev,
		  struct filter_error *err);

/*
 * Use an already built program: copied to the very end of a mapping
 * followed by an inaccessible page, then validated there.  0, or -1
 * with the validator's error in `verr` (when not NULL).
 */
int harness_use(const void *bytes, size_t size, struct ust_filter_error *verr);

/*
 * Capture: while on, the events written are kept (not filtered), each
 * segment copied twice into guarded memory, once against an inaccessible
 * page after it and once against one before it, so a read outside the
 * payload faults.  harness_run_payload() runs the current program on
 * copy `i` (0 .. 2 * captured - 1): its decision (it aborts when the
 * program's shape, run without the interpreter, decides otherwise than
 * the interpreter).
 */
void harness_capture(int on);
/*
 * How many times a string against a pattern was decided on strings not
 * measured (UST_SEG_CSTR), as libust's gated path for probes with
 * strings does; each time checked against the program's decision on
 * the measured payload (abort when they differ).
 */
extern unsigned int harness_cstr_decided;
/* Records of a small payload an INT_K shape decided on by value (harness.c). */
extern unsigned int harness_word_decided;
unsigned int harness_nr_payloads(void);
int harness_run_payload(unsigned int i);
/* Capture one payload of each event of flt.xml (once), and edge cases. */
void harness_capture_samples(void);

#endif /* UST_TESTS_FILTER_HARNESS_H */
