/*
 * harness.c - a stand-in for libust that filters what probes write.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>

#include "flt_tp.h"
#include "harness.h"
#include "fast.h"

int harness_result = -1;
struct ust_filter_ctx harness_ctx = { 1234, 1200, 1, "harness" };

struct ust_provider *harness_providers[HARNESS_MAX_PROVIDERS];
unsigned int harness_nr_providers;

static struct ust_filter filter;
static void *program;	/* the bytes `filter` points into */
static void *program_map;
static size_t program_map_len;

#define MAX_PAYLOADS 64
#define MAX_SEGS 16

struct payload {
	struct ust_seg segs[MAX_SEGS];
	/*
	 * The same payload as ust_event_write_gated_ip() receives it: its
	 * strings not measured (UST_SEG_CSTR), each copied with its NUL as
	 * the last byte before the inaccessible page, or first after one.
	 */
	struct ust_seg cstr[MAX_SEGS];
	unsigned int nr_segs;
};

static struct payload payloads[MAX_PAYLOADS];
static unsigned int nr_payloads;
static int capturing;

/*
 * `len` bytes of `data` in fresh pages between two inaccessible ones,
 * against the one after (at_end) or the one before.  *map and *map_len
 * get the whole mapping.
 */
static void *guarded(const void *data, size_t len, int at_end, void **map,
		     size_t *map_len)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t pages = len ? (len + page - 1) / page : 1;
	uint8_t *m = mmap(NULL, (pages + 2) * page, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint8_t *p;

	if (m == MAP_FAILED)
		abort();
	if (mprotect(m, page, PROT_NONE) ||
	    mprotect(m + (pages + 1) * page, page, PROT_NONE))
		abort();
	p = at_end ? m + (pages + 1) * page - len : m + page;
	if (len)
		memcpy(p, data, len);
	if (map) {
		*map = m;
		*map_len = (pages + 2) * page;
	}
	return p;
}

/* Segment `seg` of a payload the probe gave, in both forms of struct payload. */
static void capture_seg(struct payload *pl, unsigned int i,
			const struct ust_seg *seg, int at_end)
{
	size_t len = seg->len;

	if (len == UST_SEG_CSTR) {
		len = strlen(seg->ptr);
		pl->cstr[i].ptr = guarded(seg->ptr, len + 1, at_end, NULL, NULL);
	}
	pl->segs[i].ptr = guarded(seg->ptr, len, at_end, NULL, NULL);
	pl->segs[i].len = len;
	if (seg->len != UST_SEG_CSTR)
		pl->cstr[i] = pl->segs[i];
	else
		pl->cstr[i].len = UST_SEG_CSTR;
}

static void capture(const struct ust_seg *segs, unsigned int nr_segs)
{
	int at_end;
	unsigned int i;

	for (at_end = 1; at_end >= 0; at_end--) {
		struct payload *pl = &payloads[nr_payloads];

		if (nr_payloads == MAX_PAYLOADS || nr_segs > MAX_SEGS)
			abort();
		for (i = 0; i < nr_segs; i++)
			capture_seg(pl, i, &segs[i], at_end);
		pl->nr_segs = nr_segs;
		nr_payloads++;
	}
}

void harness_capture(int on)
{
	capturing = on;
}

unsigned int harness_nr_payloads(void)
{
	return nr_payloads;
}

unsigned int harness_cstr_decided;

/*
 * A string against a pattern, on strings not measured, as libust's
 * ust_event_write_gated_ip() runs it: when it decides, it must decide as
 * the program does on the measured payload, `r`.
 */
static void check_cstr(const struct ust_seg *cstr, unsigned int nr_segs, int r)
{
	int lazy;

	if (filter.fast.shape != UST_FILTER_SHAPE_STR_MATCH)
		return;
	lazy = ust_filter_str_cstr_keeps(&filter.fast, cstr, nr_segs);
	if (lazy >= 0 && lazy != r)
		abort();
	harness_cstr_decided += lazy >= 0;
}

int harness_run_payload(unsigned int i)
{
	struct ust_filter slow = filter;
	int r = ust_filter_run(&filter, payloads[i].segs, payloads[i].nr_segs,
			       &harness_ctx);

	/* The shapes run without the interpreter: it must agree. */
	slow.fast.shape = UST_FILTER_SHAPE_NONE;
	if (ust_filter_run(&slow, payloads[i].segs, payloads[i].nr_segs,
			   &harness_ctx) != r)
		abort();
	check_cstr(payloads[i].cstr, payloads[i].nr_segs, r);
	return r;
}

int ust_provider_register(struct ust_provider *provider)
{
	uint32_t i;

	/* Gated: the probes with strings call ust_event_write_gated_ip(). */
	for (i = 0; i < provider->nr_events; i++) {
		provider->events[i]->enabled = 1;
		provider->events[i]->reserved = 1;
	}
	if (harness_nr_providers < HARNESS_MAX_PROVIDERS)
		harness_providers[harness_nr_providers++] = provider;
	return 0;
}

void ust_provider_unregister(struct ust_provider *provider)
{
	(void)provider;
}

/* What the probes call (<ust/tracepoint.h>'s ust_event_write() macro). */
void ust_event_write_ip(struct ust_event_desc *event, const struct ust_seg *segs,
			unsigned int nr_segs, size_t payload_size, const void *ip)
{
	(void)event;
	(void)payload_size;
	(void)ip;
	if (capturing) {
		capture(segs, nr_segs);
		return;
	}
	if (program) {
		struct ust_filter slow = filter;

		harness_result = ust_filter_run(&filter, segs, nr_segs, &harness_ctx);
		/* The shapes run without the interpreter: it must agree. */
		slow.fast.shape = UST_FILTER_SHAPE_NONE;
		if (ust_filter_run(&slow, segs, nr_segs, &harness_ctx) != harness_result)
			abort();
	} else {
		harness_result = 1;
	}
}

unsigned int harness_word_decided;

/*
 * What the probes of a payload of 8 bytes at most call: one segment.  An
 * INT_K shape on the payload by value, as libust's gated path for it
 * runs it (ust__gate_quick_small()), must decide as the program does.
 */
void ust_event_write_small_ip(struct ust_event_desc *event, uint64_t payload,
			      size_t size, const void *ip)
{
	struct ust_seg seg = { &payload, size };

	ust_event_write_ip(event, &seg, 1, size, ip);
	if (!capturing && program && filter.fast.shape == UST_FILTER_SHAPE_INT_K &&
	    filter.fast.end <= size) {
		if (ust_filter_int_k_keeps_word(&filter.fast, payload) != harness_result)
			abort();
		harness_word_decided++;
	}
}

/*
 * What the probes with strings call, their event gated: the program's
 * shape on the strings not measured when it can decide there, then, as
 * ust_event_write_ip(), the program on the measured payload.
 */
void ust_event_write_gated_ip(struct ust_event_desc *event,
			      struct ust_seg *segs, unsigned int nr_segs,
			      size_t known_size, const void *ip)
{
	struct ust_seg cstr[MAX_SEGS];
	unsigned int i;

	if (nr_segs > MAX_SEGS)
		abort();
	memcpy(cstr, segs, nr_segs * sizeof(*segs));
	for (i = 0; i < nr_segs; i++) {
		if (segs[i].len == UST_SEG_CSTR) {
			segs[i].len = strlen(segs[i].ptr);
			known_size += segs[i].len;
		}
	}
	if (capturing) {
		capture(cstr, nr_segs);
		return;
	}
	ust_event_write_ip(event, segs, nr_segs, known_size, ip);
	if (program)
		check_cstr(cstr, nr_segs, harness_result);
}

int harness_event(const struct ust_event_desc *desc, struct filter_event *ev,
		  struct filter_error *err)
{
	char name[128];

	snprintf(name, sizeof(name), "flt:%s", desc->name);
	return filter_event_init(ev, name, desc->layout, desc->tsdl_fields, err);
}

int harness_use(const void *bytes, size_t size, struct ust_filter_error *verr)
{
	struct ust_filter_error err;

	if (program_map)
		munmap(program_map, program_map_len);
	program = guarded(bytes, size, 1, &program_map, &program_map_len);
	if (ust_filter_validate(&filter, program, size, verr ? verr : &err)) {
		munmap(program_map, program_map_len);
		program = program_map = NULL;
		return -1;
	}
	return 0;
}

int harness_set(const char *expr, const struct ust_event_desc *desc,
		char *err, size_t len)
{
	struct filter_event ev;
	struct filter_error ferr;
	struct filter_program prog;
	struct filter_expr *e;
	int ret = -1;

	harness_result = -1;
	e = filter_parse(expr, &ferr);
	if (!e) {
		filter_error_format(&ferr, err, len);
		return -1;
	}
	if (harness_event(desc, &ev, &ferr) == 0) {
		if (filter_compile(e, &ev, &prog, &ferr) == 0) {
			ret = harness_use(prog.bytes, prog.size, NULL);
			filter_program_free(&prog);
		}
		filter_event_release(&ev);
	}
	if (ret)
		filter_error_format(&ferr, err, len);
	filter_expr_free(e);
	return ret;
}

/* One payload of each event of flt.xml, and some edge cases, captured once. */
void harness_capture_samples(void)
{
	static const uint8_t mac[6] = { 1, 2, 3, 4, 5, 6 };
	static const int16_t matrix[2][3] = { { 1, 2, 3 }, { 4, 5, 6 } };
	static const char *const names[3] = { "", "b", "long name here" };
	static const int32_t vals[3] = { 1, 2, 3 };
	static const char *const words[2] = { "w", "" };
	static const struct flt_point origin = { 1, 2 };
	static const struct flt_structs_box box = { "", { { 1, 2 }, { 3, 4 } }, 5 };
	union flt_variants_value v;

	if (harness_nr_payloads())
		return;
	harness_capture(1);
	trace_flt_ints(-1, 2, -3, 4, -5, 6, -7, 8, -9, 10);
	trace_flt_floats(1.5f, -2.5);
	trace_flt_text(1, "some text", 2, "");
	trace_flt_text(1, "", 2, NULL);
	trace_flt_enums(FLT_STATE_DEAD, FLT_DELTA_UP);
	trace_flt_arrays(mac, matrix, names, 7);
	trace_flt_seqs(3, vals, 2, words, 8);
	trace_flt_seqs(0, vals, 0, words, 8);
	trace_flt_structs(&origin, &box, 9);
	v.NUM = 1;
	trace_flt_variants(1, FLT_KIND_NUM, &v, 2);
	v.TEXT = "t";
	trace_flt_variants(1, FLT_KIND_TEXT, &v, 2);
	v.PAIR = origin;
	trace_flt_variants(1, FLT_KIND_PAIR, &v, 2);
	trace_flt_empty();
	harness_capture(0);
}
