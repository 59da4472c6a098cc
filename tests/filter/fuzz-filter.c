/*
 * fuzz-filter.c - libFuzzer target for the filter compiler, validator and
 * interpreter.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The first byte of an input chooses what the rest is:
 *   even: an expression, compiled for every event of flt.xml; each
 *         program it gives runs on every captured payload;
 *   odd:  a program's bytes, validated; when accepted, run on every
 *         captured payload.
 * Errors are expected; crashes, leaks and sanitizer reports are not.
 * Built only by `make fuzz` (clang), never part of `make check`.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "flt_tp.h"
#include "harness.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct ust_event_desc *const events[] = {
	&__ust_event_flt_ints, &__ust_event_flt_floats, &__ust_event_flt_text,
	&__ust_event_flt_enums, &__ust_event_flt_arrays, &__ust_event_flt_seqs,
	&__ust_event_flt_structs, &__ust_event_flt_variants,
	&__ust_event_flt_empty,
};

static void run_all(void)
{
	unsigned int i;

	for (i = 0; i < harness_nr_payloads(); i++)
		if (harness_run_payload(i) > 1)
			abort();
}

static void fuzz_expression(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	struct filter_error err;
	struct filter_expr *e;
	size_t i;

	if (!text)
		return;
	memcpy(text, data, size);
	text[size] = '\0';
	e = filter_parse(text, &err);
	for (i = 0; e && i < sizeof(events) / sizeof(events[0]); i++) {
		struct filter_event ev;
		struct filter_program p;

		if (harness_event(events[i], &ev, &err))
			abort();	/* flt.xml's fields always read */
		if (filter_compile(e, &ev, &p, &err) == 0) {
			if (harness_use(p.bytes, p.size, NULL))
				abort();	/* the compiler's output validates */
			run_all();
			filter_program_free(&p);
		}
		filter_event_release(&ev);
	}
	filter_expr_free(e);
	free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size == 0 || size > 65536)
		return 0;
	harness_capture_samples();
	if (data[0] & 1) {
		if (harness_use(data + 1, size - 1, NULL) == 0)
			run_all();
	} else {
		fuzz_expression(data + 1, size - 1);
	}
	return 0;
}
