/*
 * fuzz-tpgen.c - libFuzzer target for tpgen's front end.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Each input is a facility description in memory.  It goes through every
 * stage that reads input (XML syntax, the walk, validation, the schema,
 * support and naming) and, when all of them accept it, the emitters,
 * which write into memory.  Errors are expected; crashes, leaks and
 * sanitizer reports are not.  Built only by `make fuzz` (clang).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <libxml/parser.h>

#include "emit.h"
#include "parse.h"
#include "validate.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Run the emitters into a memory stream, which is then dropped. */
static void emit(const struct tp_facility *fac)
{
	char *buf = NULL;
	size_t len;
	FILE *out = open_memstream(&buf, &len);
	const struct tp_emit_options opts = { .sdt = true };

	if (!out)
		return;
	if (tp_emit_header(out, fac, "fuzz.xml", &opts) == 0)
		tp_emit_source(out, fac, "fuzz.xml", &opts);
	fclose(out);
	free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *sink;
	struct tp_facility *fac = NULL;
	struct tp_diag diag;
	xmlDocPtr doc;

	if (!sink)
		sink = fopen("/dev/null", "w");
	if (!sink || size > (1u << 20))
		return 0;
	tp_diag_init(&diag, "fuzz.xml", sink);
	doc = tp_xml_read_memory((const char *)data, size, &diag);
	if (!doc)
		return 0;
	fac = tp_parse_doc(doc, &diag);
	if (fac && tp_validate(fac, &diag) == 0 &&
	    tp_schema_validate(doc, &diag) == 0 && tp_prepare(fac, &diag) == 0)
		emit(fac);
	tp_facility_free(fac);
	xmlFreeDoc(doc);
	return 0;
}
