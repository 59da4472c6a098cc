/*
 * fuzz_reader.c - libFuzzer target: the input is a metadata text and a
 * stream file, split at the first "\n--\n"; both go to a trace
 * directory which the reader opens and prints entirely.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Built only by `make -C tests/reader fuzz` (clang, -fsanitize=fuzzer,
 * address); run: ./fuzz_reader fuzz-corpus/
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "reader.h"

static char dir[4096];
static struct rd_stream_pos resume;

static const struct rd_stream_pos *resume_at(void *arg, const char *path)
{
	(void)arg;
	(void)path;
	return &resume;
}

static const struct rd_live live = { resume_at, NULL };

static void put(const char *name, const uint8_t *p, size_t n)
{
	char path[4200];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f)
		abort();
	fwrite(p, 1, n, f);
	fclose(f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Every message: printed, its payload alone, and its field values. */
static void read_all(struct rd_reader *r)
{
	struct rd_value v[8];
	struct rd_msg m;
	struct rd_out o;

	rd_out_init(&o, NULL);
	while (rd_reader_next(r, &m) > 0) {
		o.len = 0;
		if (m.kind == RD_MSG_EVENT &&
		    (rd_reader_print_event(r, &m, &o) || rd_reader_print_payload(r, &m, &o) ||
		     rd_reader_event_fields(r, &m, v, 8) < 0))
			break;
	}
	if (rd_reader_nr_streams(r))
		rd_reader_stream_pos(r, 0, &resume);
	resume.offset /= 2;	/* maybe not a packet boundary: must not crash */
	rd_out_release(&o);
	rd_reader_close(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *sep = memmem(data, size, "\n--\n", 4);
	const char *paths[1] = { dir };
	struct rd_reader *r;
	struct rd_msg m;
	struct rd_out o;
	char err[512];

	if (!dir[0]) {
		const char *tmp = getenv("TMPDIR");

		snprintf(dir, sizeof(dir), "%s/fuzz_reader.%d",
			 tmp && *tmp ? tmp : "/tmp", (int)getpid());
		mkdir(dir, 0700);
	}
	if (!sep)
		sep = data + size;
	put("metadata", data, sep - data);
	put("ust_0", sep + (sep < data + size ? 4 : 0),
	    size - (sep - data) - (sep < data + size ? 4 : 0));
	if (!rd_reader_open(&r, paths, 1, err, sizeof(err)))
		read_all(r);
	/* following it live, from a packet boundary the first pass saw */
	if (!rd_reader_open_live(&r, paths, 1, &live, err, sizeof(err)))
		read_all(r);
	return 0;
}
