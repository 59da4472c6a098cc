/*
 * tsdl.h - the metadata of a CTF 1.8 trace as the reader sees it: a tree
 * of field types, and the trace, clock, stream and event classes.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * tsdl.c parses the subset of TSDL that ust's consumer writes
 * (consumer/metadata.c): integers, IEEE 754 floats, strings, structs,
 * enums, variants and static arrays.  Sequences have their kind and
 * fields here so the decoder can grow into them; today it refuses them.
 *
 * Every type node lives in the metadata's arena and is freed with it;
 * typealiases and named structs share nodes, so nothing is freed alone.
 */
#ifndef UST_READER_TSDL_H
#define UST_READER_TSDL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum rd_kind {
	RD_INT,
	RD_FLOAT,	/* IEEE 754 binary32 or binary64 */
	RD_ENUM,
	RD_STRING,
	RD_STRUCT,
	RD_VARIANT,
	RD_ARRAY,
	RD_SEQUENCE,	/* length: an earlier member of the same struct */
};

struct rd_type;
struct rd_plan;		/* plan.h: the reader's fast paths */
struct rd_header_plan;

/* A struct member or a variant option. */
struct rd_member {
	const char *name;	/* as printed: one leading '_' stripped */
	size_t name_len;
	struct rd_type *type;
};

struct rd_enum_range {
	const char *label;
	int64_t lo, hi;		/* unsigned containers compare as uint64 */
};

struct rd_type {
	enum rd_kind kind;
	unsigned int align;	/* bits, >= 1 */
	bool be;		/* RD_INT, RD_FLOAT: big-endian */
	union {
		struct {
			unsigned int size;	/* bits, 1..64 */
			unsigned int base;	/* 2, 8, 10, 16 */
			bool is_signed;
			bool utf8;		/* encoding = UTF8/ASCII */
			bool clock;		/* map = clock.X.value */
		} i;
		struct {
			unsigned int exp_dig, mant_dig;
		} f;
		struct {
			struct rd_type *container;	/* RD_INT */
			struct rd_enum_range *ranges;
			size_t nr;
		} e;
		struct {
			struct rd_member *members;
			size_t nr;
		} s;
		struct {
			const char *tag;	/* field name, as written */
			int tag_index;		/* sibling member index */
			struct rd_member *options;
			size_t nr;
		} v;
		struct {
			struct rd_type *elem;
			uint64_t len;		/* RD_ARRAY */
			const char *len_name;	/* RD_SEQUENCE */
			int len_index;		/* sibling member index */
		} a;
	} u;
};

struct rd_env {
	const char *key;
	const char *str;	/* NULL for an integer */
	int64_t num;
};

struct rd_event_class {
	const char *name;
	uint64_t id;
	int64_t loglevel;	/* -1 when none */
	struct rd_type *context;	/* may be NULL */
	struct rd_type *fields;		/* may be NULL */
	/* fast path (reader): both set, or `fast` false */
	struct rd_plan *plan_context, *plan_fields;
	bool fast;
	char *head;		/* "host:proc:(vpid) name: " */
	size_t head_len;
	/*
	 * The whole line by rd_plan_print() (every plan of the event and of
	 * its stream class is print_fixed), at most print_max bytes plus
	 * the packet context.
	 */
	bool print_fixed;
	size_t print_max;
};

struct rd_stream_class {
	uint64_t id;
	struct rd_type *packet_context;	/* may be NULL */
	struct rd_type *event_header;
	struct rd_type *event_context;
	struct rd_event_class **events;	/* indexed by id, NULL holes */
	size_t nr_events;
	bool defined;
	struct rd_plan *plan_context;	/* fast path of event_context */
	bool fast;
	struct rd_header_plan *plan_header;	/* fast path of event_header */
};

struct rd_clock {
	const char *name;
	uint64_t freq;
	int64_t offset_s;	/* normalized: offset < freq */
	uint64_t offset;
	int64_t origin_ns;	/* offset_s and offset in ns (rd_clock_ns()) */
	bool absolute;
	bool has_uuid;
	uint8_t uuid[16];
};

struct rd_metadata {
	bool has_uuid;
	uint8_t uuid[16];
	bool be;			/* trace byte_order */
	struct rd_type *packet_header;	/* may be NULL */
	struct rd_env *env;
	size_t nr_env;
	struct rd_clock clock;
	bool has_clock;
	struct rd_stream_class *streams;	/* indexed by id */
	size_t nr_streams;
	struct rd_arena *arena;
};

/*
 * Parse `len` bytes of metadata text.  On error returns -1 with a
 * message "line N: ..." in `err`.  `md` is then released already.
 */
int rd_metadata_parse(struct rd_metadata *md, const char *text, size_t len,
		      char *err, size_t errlen);
void rd_metadata_release(struct rd_metadata *md);

const struct rd_env *rd_metadata_env(const struct rd_metadata *md,
				     const char *key);
const struct rd_stream_class *rd_metadata_stream(const struct rd_metadata *md,
						 uint64_t id);

/* Set c->origin_ns from the offsets (the parser does it for its clocks). */
void rd_clock_set_origin(struct rd_clock *c);
/* ns from origin of clock value `cycles`, exactly as babeltrace2 2.0 does. */
int64_t rd_clock_ns(const struct rd_clock *c, uint64_t cycles);

#endif /* UST_READER_TSDL_H */
