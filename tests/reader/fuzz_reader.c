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
	if (rd_reader_open(&r, paths, 1, err, sizeof(err)))
		return 0;
	rd_out_init(&o, NULL);
	while (rd_reader_next(r, &m) > 0) {
		o.len = 0;
		if (m.kind == RD_MSG_EVENT && rd_reader_print_event(r, &m, &o))
			break;
	}
	rd_out_release(&o);
	rd_reader_close(r);
	return 0;
}
