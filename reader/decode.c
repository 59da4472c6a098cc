/*
 * decode.c - the field walker: decodes a scope of a packet by its type
 * tree, bounds-checked against the packet's content, and prints it the
 * way babeltrace2's text sink does when asked to.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include <endian.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "decode.h"

#define MAX_TAGS	64	/* members whose values a variant or sequence can use */

static int walk_fail(struct rd_walk *w, const char *what)
{
	snprintf(w->err, sizeof(w->err), "%s", what);
	return -1;
}

static int walk_align(struct rd_walk *w, unsigned int align)
{
	uint64_t p = (w->pos + align - 1) & ~(uint64_t)(align - 1);

	if (p > w->end)
		return walk_fail(w, "field alignment runs past the packet content");
	w->pos = p;
	return 0;
}

/* `size` bits at w->pos, the byte order of `t`; w->pos advances. */
static uint64_t read_bits(struct rd_walk *w, unsigned int size, bool be)
{
	const uint8_t *p = w->base + (w->pos >> 3);
	unsigned int shift = w->pos & 7, nbytes = (shift + size + 7) / 8, i;
	unsigned __int128 acc = 0;
	uint64_t v;

	w->pos += size;
	if (!be && !shift) {
		switch (size) {
		case 8: return p[0];
		case 16: { uint16_t x; memcpy(&x, p, 2); return le16toh(x); }
		case 32: { uint32_t x; memcpy(&x, p, 4); return le32toh(x); }
		case 64: { uint64_t x; memcpy(&x, p, 8); return le64toh(x); }
		}
	}
	if (!be) {
		for (i = nbytes; i-- > 0;)
			acc = (acc << 8) | p[i];
		v = (uint64_t)(acc >> shift);
	} else {
		for (i = 0; i < nbytes; i++)
			acc = (acc << 8) | p[i];
		v = (uint64_t)(acc >> (nbytes * 8 - shift - size));
	}
	return size == 64 ? v : v & ((1ull << size) - 1);
}

static int read_int(struct rd_walk *w, const struct rd_type *t, uint64_t *v)
{
	unsigned int size = t->u.i.size;

	if (walk_align(w, t->align))
		return -1;
	if (w->end - w->pos < size)
		return walk_fail(w, "integer runs past the packet content");
	*v = read_bits(w, size, t->be);
	if (t->u.i.is_signed && size < 64 && (*v >> (size - 1)) & 1)
		*v |= ~0ull << size;
	return 0;
}

/* A binary32 or binary64, printed as babeltrace2 prints reals ("%g"). */
static int walk_float(struct rd_walk *w, const struct rd_type *t)
{
	unsigned int size = t->u.f.exp_dig + t->u.f.mant_dig;
	char tmp[40];
	uint64_t bits;

	if (walk_align(w, t->align))
		return -1;
	if (w->end - w->pos < size)
		return walk_fail(w, "float runs past the packet content");
	bits = read_bits(w, size, t->be);
	if (!w->o)
		return 0;
	if (size == 32) {
		uint32_t b32 = (uint32_t)bits;
		float f;

		memcpy(&f, &b32, sizeof(f));
		snprintf(tmp, sizeof(tmp), "%g", (double)f);
	} else {
		double d;

		memcpy(&d, &bits, sizeof(d));
		snprintf(tmp, sizeof(tmp), "%g", d);
	}
	rd_out_str(w->o, tmp);
	return 0;
}

/* babeltrace2's integer formats, by display base. */
static void print_int(struct rd_out *o, const struct rd_type *t, uint64_t v)
{
	unsigned int len = t->u.i.size, i;
	char tmp[32];

	switch (t->u.i.base) {
	case 2:
		rd_out_str(o, "0b");
		for (i = len; i-- > 0;)
			rd_out_char(o, (v >> i) & 1 ? '1' : '0');
		break;
	case 8:
		if (t->u.i.is_signed && len < 64) {
			unsigned int r = ((len - 1) / 3 + 1) * 3;

			if (r < 64)
				v &= (1ull << r) - 1;
		}
		snprintf(tmp, sizeof(tmp), "0%" PRIo64, v);
		rd_out_str(o, tmp);
		break;
	case 16:
		if (len < 64) {
			unsigned int r = (len + 3) & ~3u;

			if (r < 64)
				v &= (1ull << r) - 1;
		}
		snprintf(tmp, sizeof(tmp), "0x%" PRIX64, v);
		rd_out_str(o, tmp);
		break;
	default:
		if (t->u.i.is_signed)
			rd_out_i64(o, (int64_t)v);
		else
			rd_out_u64(o, v);
	}
}

/* A clock-mapped field of `size` bits updates the stream's clock. */
void rd_update_clock(struct rd_stream *st, unsigned int size, uint64_t v)
{
	uint64_t mask;

	if (size == 64) {
		st->clock = v;
		return;
	}
	mask = (1ull << size) - 1;
	if (v < (st->clock & mask))
		st->clock += 1ull << size;	/* one wrap */
	st->clock = (st->clock & ~mask) | v;
}

static bool is_name(const char *name, const char *s)
{
	return name && name[0] == s[0] && !strcmp(name, s);
}

/* The meaning of integer `name` in the current scope. */
static void int_role(struct rd_walk *w, const struct rd_type *t,
		     const char *name, uint64_t v)
{
	struct rd_stream *st = w->st;

	switch (w->scope) {
	case SCOPE_PACKET_HEADER:
		if (is_name(name, "magic"))
			w->magic = v, w->has_magic = true;
		else if (is_name(name, "stream_id"))
			w->stream_id = v, w->has_stream_id = true;
		else if (is_name(name, "stream_instance_id"))
			w->instance_id = v, w->has_instance_id = true;
		return;
	case SCOPE_PACKET_CONTEXT:
		if (is_name(name, "timestamp_begin")) {
			st->ts_begin = v;
			st->has_ts_begin = true;
		} else if (is_name(name, "timestamp_end")) {
			st->ts_end = v;
			st->has_ts_end = true;
			return;		/* does not move the clock */
		} else if (is_name(name, "content_size")) {
			st->content_bits = v;
		} else if (is_name(name, "packet_size")) {
			st->pkt_bits = v;
		} else if (is_name(name, "packet_seq_num")) {
			st->seq = v;
			st->has_seq = true;
		} else if (is_name(name, "events_discarded")) {
			st->discarded = v;
			st->has_discarded = true;
		} else if (is_name(name, "cpu_id")) {
			st->cpu = (int64_t)v;
		} else if (is_name(name, "tid")) {
			/* a per-thread stream's thread (ust 0.2), an int32 */
			st->tid = (int64_t)(int32_t)v;
		}
		break;
	case SCOPE_EVENT_HEADER:
		if (is_name(name, "id"))
			w->id = v, w->has_id = true;
		break;
	case SCOPE_STREAM_EVENT_CONTEXT:
		if ((is_name(name, "vtid") || is_name(name, "tid")) && w->depth == 1)
			w->vtid = (int64_t)v;
		break;
	default:
		break;
	}
	if (t->u.i.clock)
		rd_update_clock(st, t->u.i.size, v);
}

static bool packet_special(const char *name)
{
	static const char *const names[] = {
		"timestamp_begin", "timestamp_end", "content_size",
		"packet_size", "packet_seq_num", "events_discarded",
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!strcmp(name, names[i]))
			return true;
	}
	return false;
}

static int walk_field(struct rd_walk *w, const struct rd_type *t,
		      const char *name, const uint64_t *sib, uint64_t *val);

static bool enum_match(const struct rd_type *e, const struct rd_enum_range *r,
		       uint64_t v)
{
	if (e->u.e.container->u.i.is_signed)
		return (int64_t)v >= r->lo && (int64_t)v <= r->hi;
	return v >= (uint64_t)r->lo && v <= (uint64_t)r->hi;
}

static int walk_enum(struct rd_walk *w, const struct rd_type *t,
		     const char *name, uint64_t *val)
{
	const struct rd_type *c = t->u.e.container;
	bool any = false;
	size_t i;

	if (read_int(w, c, val))
		return -1;
	if (w->roles)
		int_role(w, c, name, *val);
	if (!w->o)
		return 0;
	rd_out_str(w->o, "( ");
	for (i = 0; i < t->u.e.nr; i++) {
		const struct rd_enum_range *r = &t->u.e.ranges[i];

		if (!enum_match(t, r, *val))
			continue;
		if (any)
			rd_out_str(w->o, ", ");
		rd_out_escaped(w->o, r->label, strlen(r->label));
		any = true;
	}
	if (!any)
		rd_out_str(w->o, "<unknown>");
	rd_out_str(w->o, " : container = ");
	print_int(w->o, c, *val);
	rd_out_str(w->o, " )");
	return 0;
}

static int walk_string(struct rd_walk *w)
{
	const uint8_t *s, *nul;
	uint64_t avail;

	if (walk_align(w, 8))
		return -1;
	avail = (w->end - w->pos) / 8;
	s = w->base + w->pos / 8;
	nul = memchr(s, '\0', avail);
	if (!nul)
		return walk_fail(w, "string runs past the packet content");
	if (w->o)
		rd_out_escaped(w->o, (const char *)s, nul - s);
	w->pos += (uint64_t)(nul - s + 1) * 8;
	return 0;
}

/* The option of variant `t` whose name is the tag's label. */
static const struct rd_member *variant_option(const struct rd_type *t,
					      uint64_t tag_val,
					      const struct rd_type *tag_type)
{
	size_t i, j;

	for (i = 0; i < tag_type->u.e.nr; i++) {
		const struct rd_enum_range *r = &tag_type->u.e.ranges[i];
		const char *label = r->label[0] == '_' ? r->label + 1 : r->label;

		if (!enum_match(tag_type, r, tag_val))
			continue;
		for (j = 0; j < t->u.v.nr; j++) {
			if (!strcmp(t->u.v.options[j].name, label))
				return &t->u.v.options[j];
		}
	}
	return NULL;
}

static int walk_variant(struct rd_walk *w, const struct rd_type *t,
			const uint64_t *sib, const struct rd_type *tag_type)
{
	const struct rd_member *opt;
	uint64_t dummy;

	if (!sib || !tag_type)
		return walk_fail(w, "variant without its tag");
	opt = variant_option(t, sib[t->u.v.tag_index], tag_type);
	if (!opt)
		return walk_fail(w, "variant tag value selects no option");
	if (w->o)
		rd_out_str(w->o, "{ ");
	if (walk_field(w, opt->type, opt->name, NULL, &dummy))
		return -1;
	if (w->o)
		rd_out_str(w->o, " }");
	return 0;
}

/* A text array: 8-bit UTF-8 integers, printed as a NUL-trimmed string. */
static int walk_text_array(struct rd_walk *w, const struct rd_type *t,
			   uint64_t n)
{
	const uint8_t *s, *nul;

	if (walk_align(w, t->align))
		return -1;
	if (w->pos & 7)
		return walk_fail(w, "text array not byte aligned");
	if ((w->end - w->pos) / 8 < n)
		return walk_fail(w, "array runs past the packet content");
	s = w->base + w->pos / 8;
	if (w->o) {
		nul = memchr(s, '\0', n);
		rd_out_escaped(w->o, (const char *)s, nul ? (size_t)(nul - s) : n);
	}
	w->pos += n * 8;
	return 0;
}

/* An array, or a sequence of `len` elements ("[ ]" when empty). */
static int walk_array(struct rd_walk *w, const struct rd_type *t, uint64_t len)
{
	const struct rd_type *e = t->u.a.elem;
	uint64_t i, dummy;

	if (e->kind == RD_INT && e->u.i.utf8 && e->u.i.size == 8)
		return walk_text_array(w, t, len);
	if (len > (w->end - w->pos))	/* every element takes >= 1 bit */
		return walk_fail(w, "array runs past the packet content");
	if (w->o)
		rd_out_char(w->o, '[');
	for (i = 0; i < len; i++) {
		if (w->o) {
			rd_out_str(w->o, i ? ", [" : " [");
			rd_out_u64(w->o, i);
			rd_out_str(w->o, "] = ");
		}
		if (walk_field(w, e, NULL, NULL, &dummy))
			return -1;
	}
	if (w->o)
		rd_out_str(w->o, " ]");
	return 0;
}

/* What rd_reader_event_fields() gives of a member that began at `start`. */
static void capture_value(const struct rd_walk *w, struct rd_value *c,
			  const struct rd_type *t, uint64_t v, uint64_t start)
{
	c->str = NULL;
	c->u = v;
	if (t->kind == RD_INT || t->kind == RD_ENUM) {
		c->kind = RD_VAL_INT;
	} else if (t->kind == RD_STRING) {
		c->kind = RD_VAL_STRING;	/* byte aligned, NUL checked */
		c->str = (const char *)w->base + (start + 7) / 8;
		c->len = (size_t)(w->pos / 8 - 1 - (start + 7) / 8);
	} else if (t->kind == RD_ARRAY && t->u.a.elem->kind == RD_INT &&
		   t->u.a.elem->u.i.utf8 && t->u.a.elem->u.i.size == 8) {
		const char *s = (const char *)w->base + w->pos / 8 - t->u.a.len;
		const char *nul = memchr(s, '\0', t->u.a.len);

		c->kind = RD_VAL_STRING;	/* a text array ends at w->pos */
		c->str = s;
		c->len = nul ? (size_t)(nul - s) : t->u.a.len;
	} else {
		c->kind = RD_VAL_OTHER;
	}
}

int rd_walk_struct(struct rd_walk *w, const struct rd_type *t, bool top)
{
	uint64_t vals[MAX_TAGS];
	bool printed = false;
	size_t i;

	if (++w->depth > 32)
		return walk_fail(w, "fields nested too deeply");
	if (walk_align(w, t->align))
		return -1;
	if (w->o)
		rd_out_char(w->o, '{');
	for (i = 0; i < t->u.s.nr; i++) {
		const struct rd_member *m = &t->u.s.members[i];
		struct rd_out *o = w->o;
		uint64_t v = 0, start = w->pos;
		int ret;

		if (top && w->scope == SCOPE_PACKET_CONTEXT && packet_special(m->name))
			w->o = NULL;
		if (w->o) {
			if (printed)
				rd_out_char(w->o, ',');
			rd_out_char(w->o, ' ');
			rd_out_mem(w->o, m->name, m->name_len);
			rd_out_mem(w->o, " = ", 3);
			printed = true;
		}
		if (m->type->kind == RD_VARIANT)
			ret = walk_variant(w, m->type, vals,
					   t->u.s.members[m->type->u.v.tag_index].type);
		else
			ret = walk_field(w, m->type, m->name, vals, &v);
		w->o = o;
		if (ret)
			return -1;
		if (i < MAX_TAGS)
			vals[i] = v;
		if (w->capture && w->depth == 1 && i < w->nr_capture)
			capture_value(w, &w->capture[i], m->type, v, start);
	}
	if (w->o)
		rd_out_str(w->o, " }");
	w->depth--;
	return 0;
}

static int walk_field(struct rd_walk *w, const struct rd_type *t,
		      const char *name, const uint64_t *sib, uint64_t *val)
{
	switch (t->kind) {
	case RD_INT:
		if (read_int(w, t, val))
			return -1;
		if (w->roles)
			int_role(w, t, name, *val);
		if (w->o)
			print_int(w->o, t, *val);
		return 0;
	case RD_FLOAT:
		return walk_float(w, t);
	case RD_ENUM:
		return walk_enum(w, t, name, val);
	case RD_STRING:
		return walk_string(w);
	case RD_STRUCT:
		return rd_walk_struct(w, t, false);
	case RD_VARIANT:
		return walk_fail(w, "variant outside a struct");
	case RD_ARRAY:
		return walk_array(w, t, t->u.a.len);
	case RD_SEQUENCE:
		/* Its length is an earlier member of the same struct. */
		if (!sib || t->u.a.len_index < 0 || t->u.a.len_index >= MAX_TAGS)
			return walk_fail(w, "sequence without its length");
		return walk_array(w, t, sib[t->u.a.len_index]);
	default:
		return walk_fail(w, "field type not supported yet");
	}
}
