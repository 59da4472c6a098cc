/*
 * fuzz_control.c - libFuzzer target: the runtime control area of a
 * traced process's shared memory (abi/control.h), as `ust list PID`,
 * `ust ctl` and libust read it.  The area is written by whoever holds the
 * memfd (I1: untrusted); none of its readers may crash, loop or read
 * outside it, whatever it holds.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The input: byte 0 chooses whether bytes 1..16 replace the header's
 * ctl_offset and ctl_size (else they point at the area); the next 32
 * bytes are an event pattern (a `ust ctl enable PATTERN` selection); the
 * rest is the area itself (zero-filled beyond the input).  The memory is
 * a real memfd laid out as libust lays it out (tests/consumer/fakeshm.c),
 * mapped once with shm_map_open() as the commands map it; then, per
 * input, what the commands do with it: shm_ctl_area() (locate and bound
 * the area), ctl_event()/ctl_event_on() for every entry and the line
 * `ust list` prints, the pattern selection of `ust ctl`, and libust's
 * reading of the rules (ust__ctl_rules_apply) for every listed name.
 *
 * Built only by `make -C tests/control fuzz` (clang, -fsanitize=fuzzer,
 * address,undefined); run: ./fuzz_control fuzz-corpus/
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/pattern.h"
#include "common/shm-ctl.h"
#include "control.h"
#include "fakeshm.h"

#define CTL_OFFSET	(8 * UST_SHM_PAGE)	/* inside the data, page aligned */
#define PATTERN_LEN	32

static struct fake_shm fake;
static struct ctl_process proc;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The memfd, and the commands' mapping of it: once. */
static void setup(void)
{
	char err[256];

	if (fake_shm_create(&fake, 1, 65536, 16, UST_MODE_DISCARD, 4242, "fuzzed", 1, false) ||
	    CTL_OFFSET + sizeof(struct ust_ctl_area) > fake.size) {
		fprintf(stderr, "fuzz_control: cannot lay out the shared memory\n");
		abort();
	}
	if (shm_map_open(&proc.map, fake.fd, err, sizeof(err))) {
		fprintf(stderr, "fuzz_control: %s\n", err);
		abort();
	}
	proc.pid = 4242;
	proc.fd = -1;
}

/* What `ust list PID` reads and prints of each entry. */
static unsigned int list_events(char *out, size_t len)
{
	struct ust_ctl_event ev;
	bool stopped = proc.area->stopped != 0;
	unsigned int n = 0;
	uint32_t i;

	for (i = 0; i < ust__ctl_nr_events(proc.area); i++) {
		if (!ctl_event(&proc, i, &ev))
			continue;
		n++;
		snprintf(out, len, "  %s %s%s %d\n", ev.name,
			 ev.flags & UST_CTL_EV_WANTED ? "enabled" : "disabled",
			 ev.flags & UST_CTL_EV_DESCRIBED ? "" : " (not described)",
			 ctl_event_on(&ev, stopped));
	}
	return n;
}

/* `ust ctl enable PATTERN` selects; libust applies the rules to each name. */
static unsigned int select_events(const char *pattern)
{
	struct ust_ctl_event ev;
	unsigned int n = 0;
	uint32_t i;

	for (i = 0; i < ust__ctl_nr_events(proc.area); i++) {
		if (!ctl_event(&proc, i, &ev))
			continue;
		n += ust__glob_match(pattern, ev.name);
		n += ust__ctl_rules_apply(proc.area, proc.area->nr_rules, ev.name, false);
	}
	n += ust__ctl_rules_apply(proc.area, proc.area->nr_rules, "fuzz:event", true);
	return n + ust__ctl_nr_rules(proc.area);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ust_shm_header *h;
	char pattern[PATTERN_LEN + 1], err[256], line[512];
	uint64_t off = CTL_OFFSET, len = sizeof(struct ust_ctl_area);
	volatile unsigned int sink;
	size_t head = 1 + 16 + PATTERN_LEN;

	if (!fake.base)
		setup();
	h = fake.hdr;
	if (size >= 17 && (data[0] & 1)) {
		memcpy(&off, data + 1, 8);
		memcpy(&len, data + 9, 8);
	}
	h->ctl_offset = off;
	h->ctl_size = len;
	memset(pattern, 0, sizeof(pattern));
	if (size > 17)
		memcpy(pattern, data + 17, size - 17 < PATTERN_LEN ? size - 17 : PATTERN_LEN);
	memset(fake.base + CTL_OFFSET, 0, sizeof(struct ust_ctl_area));
	if (size > head)
		memcpy(fake.base + CTL_OFFSET, data + head,
		       size - head < sizeof(struct ust_ctl_area) ? size - head :
		       sizeof(struct ust_ctl_area));
	proc.area = shm_ctl_area(&proc.map, err, sizeof(err));
	if (!proc.area)
		return 0;
	sink = list_events(line, sizeof(line)) + select_events(pattern);
	(void)sink;
	return 0;
}
