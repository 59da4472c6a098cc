/*
 * ctf/tsdl.h - the TSDL text that every trace of a session shares: the
 * integer types and trace block (packet header), the clock block and
 * the packet context.  The consumer (user-space traces) and ust-kerneld
 * (the kernel trace) both write them from here, so the clock block of
 * one session is the same text in every trace and babeltrace2 merges
 * them on one time base.
 *
 * SPDX-License-Identifier: LGPL-2.1-only
 *
 * The packet header and context describe struct ust_packet_header
 * (ctf/format.h) byte for byte.
 */
#ifndef UST_CTF_TSDL_H
#define UST_CTF_TSDL_H

#include <stdint.h>
#include <stdio.h>

#include "common/clock.h"

/* The CTF 1.8 signature, the integer typealiases and the trace block. */
void ctf_tsdl_prelude(FILE *f, const char *trace_uuid);
/*
 * A memory stream (open_memstream() on *text, *len) for the metadata of
 * the trace `trace_uuid`, its prelude written; NULL when out of memory.
 */
FILE *ctf_tsdl_open(const uint8_t trace_uuid[16], char **text, size_t *len);

/*
 * The clock block `ust_clock` for `clk`, and the clock-mapped types
 * uint27_clock_ust_t, uint32_clock_ust_t and uint64_clock_ust_t.
 */
void ctf_tsdl_clock(FILE *f, const struct ust_clock *clk);

/* `struct packet_context`, the context of every packet (ctf/format.h). */
void ctf_tsdl_packet_context(FILE *f);
/* `struct packet_context_thread`: the same with the thread id for cpu_id. */
void ctf_tsdl_packet_context_thread(FILE *f);

/* Make `s` safe inside a TSDL string literal: printable, no '"' or '\'. */
void ctf_tsdl_literal_sanitize(char *s);

/* 16 bytes as "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx". */
void ctf_uuid_format(const uint8_t u[16], char out[37]);

/* 36-character UUID text back to 16 bytes; 0 or -EINVAL. */
int ctf_uuid_parse(const char *text, uint8_t u[16]);

#endif /* UST_CTF_TSDL_H */
