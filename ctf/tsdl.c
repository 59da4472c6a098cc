/*
 * ctf/tsdl.c - TSDL text shared by every trace of a session.
 *
 * SPDX-License-Identifier: LGPL-2.1-only
 *
 * Every integer is byte aligned, as the writers store them; only the
 * compact event header packs a 5-bit id and a 27-bit timestamp into one
 * little-endian word.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "common/parse.h"
#include "ctf/tsdl.h"

static const char tsdl_prelude[] =
	"/* CTF 1.8 */\n"
	"\n"
	"typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
	"typealias integer { size = 16; align = 8; signed = false; } := uint16_t;\n"
	"typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
	"typealias integer { size = 64; align = 8; signed = false; } := uint64_t;\n"
	"typealias integer { size = 8; align = 8; signed = true; } := int8_t;\n"
	"typealias integer { size = 16; align = 8; signed = true; } := int16_t;\n"
	"typealias integer { size = 32; align = 8; signed = true; } := int32_t;\n"
	"typealias integer { size = 64; align = 8; signed = true; } := int64_t;\n"
	"typealias integer { size = 5; align = 1; signed = false; } := uint5_t;\n"
	"\n"
	"trace {\n"
	"\tmajor = 1;\n"
	"\tminor = 8;\n"
	"\tuuid = \"%s\";\n"
	"\tbyte_order = le;\n"
	"\tpacket.header := struct {\n"
	"\t\tuint32_t magic;\n"
	"\t\tuint8_t uuid[16];\n"
	"\t\tuint32_t stream_id;\n"
	"\t\tuint64_t stream_instance_id;\n"
	"\t} align(8);\n"
	"};\n"
	"\n";

static const char tsdl_clock[] =
	"clock {\n"
	"\tname = \"ust_clock\";\n"
	"%s"				/* uuid line, when the boot id is known */
	"\tdescription = \"%s\";\n"
	"\tfreq = %" PRIu64 ";\n"
	"\tprecision = 1;\n"
	"\toffset_s = %" PRId64 ";\n"
	"\toffset = %" PRId64 ";\n"
	"\tabsolute = TRUE;\n"
	"};\n"
	"\n"
	"typealias integer { size = 27; align = 1; signed = false; map = clock.ust_clock.value; } := uint27_clock_ust_t;\n"
	"typealias integer { size = 32; align = 8; signed = false; map = clock.ust_clock.value; } := uint32_clock_ust_t;\n"
	"typealias integer { size = 64; align = 8; signed = false; map = clock.ust_clock.value; } := uint64_clock_ust_t;\n"
	"\n";

/*
 * The packet context: of a per-CPU stream (cpu_id), and of a per-thread
 * one (abi/shm.h, I14), the same bytes with the thread's id in the slot
 * of cpu_id, named `tid` as the readers look for it.
 */
static const char tsdl_packet_context[] =
	"struct packet_context%s {\n"
	"\tuint64_clock_ust_t timestamp_begin;\n"
	"\tuint64_t packet_seq_num;\n"
	"\t%s;\n"
	"\tuint64_clock_ust_t timestamp_end;\n"
	"\tuint64_t content_size;\n"
	"\tuint64_t packet_size;\n"
	"\tuint64_t events_discarded;\n"
	"} align(8);\n"
	"\n";

void ctf_tsdl_prelude(FILE *f, const char *trace_uuid)
{
	fprintf(f, tsdl_prelude, trace_uuid);
}

FILE *ctf_tsdl_open(const uint8_t trace_uuid[16], char **text, size_t *len)
{
	FILE *f = open_memstream(text, len);
	char uuid[37];

	if (!f)
		return NULL;
	ctf_uuid_format(trace_uuid, uuid);
	ctf_tsdl_prelude(f, uuid);
	return f;
}

void ctf_tsdl_clock(FILE *f, const struct ust_clock *clk)
{
	char uuid_line[64] = "";

	if (clk->uuid[0])
		snprintf(uuid_line, sizeof(uuid_line), "\tuuid = \"%s\";\n", clk->uuid);
	fprintf(f, tsdl_clock, uuid_line,
		clk->kind == UST_CLOCK_TSC ? "TSC" : "CLOCK_MONOTONIC",
		clk->freq, clk->offset_s, clk->offset);
}

void ctf_tsdl_packet_context(FILE *f)
{
	fprintf(f, tsdl_packet_context, "", "uint32_t cpu_id");
}

void ctf_tsdl_packet_context_thread(FILE *f)
{
	fprintf(f, tsdl_packet_context, "_thread", "int32_t tid");
}

void ctf_tsdl_literal_sanitize(char *s)
{
	for (; *s; s++) {
		if (*s < 0x20 || *s > 0x7e || *s == '"' || *s == '\\')
			*s = '_';
	}
}

void ctf_uuid_format(const uint8_t u[16], char out[37])
{
	snprintf(out, 37,
		 "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
		 u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9],
		 u[10], u[11], u[12], u[13], u[14], u[15]);
}

int ctf_uuid_parse(const char *text, uint8_t u[16])
{
	int i, n = 0;

	for (i = 0; i < 36; i++) {
		int hi, lo;

		if (i == 8 || i == 13 || i == 18 || i == 23) {
			if (text[i] != '-')
				return -EINVAL;
			continue;
		}
		hi = ust__hex_digit(text[i]);
		lo = hi < 0 ? -1 : ust__hex_digit(text[++i]);
		if (lo < 0)
			return -EINVAL;
		u[n++] = (uint8_t)(hi << 4 | lo);
	}
	return text[36] == '\0' || text[36] == '\n' ? 0 : -EINVAL;
}
