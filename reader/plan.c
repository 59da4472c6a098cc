/*
 * plan.c - compiled walks of simple structs (plan.h): byte-aligned
 * base-10 integers and strings, skipped or printed in one loop.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include <endian.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decode.h"
#include "plan.h"

static uint8_t load_of(unsigned int bytes, bool is_signed, bool be)
{
	switch (bytes) {
	case 1:
		return is_signed ? LOAD_S8 : LOAD_U8;
	case 2:
		return be ? (is_signed ? LOAD_S16BE : LOAD_U16BE) : (is_signed ? LOAD_S16 : LOAD_U16);
	case 4:
		return be ? (is_signed ? LOAD_S32BE : LOAD_U32BE) : (is_signed ? LOAD_S32 : LOAD_U32);
	default:	/* 64 bits: the sign is in the printing */
		return be ? LOAD_U64BE : LOAD_U64;
	}
}

static bool step_of(const struct rd_member *m, bool tid_role, struct plan_step *s)
{
	const struct rd_type *t = m->type;

	if (m->name_len > 255 || t->align % 8)
		return false;
	*s = (struct plan_step){ .align = (uint8_t)(t->align / 8),
		.name = m->name, .name_len = (uint8_t)m->name_len,
		.memo = RD_FMT_MEMO_INIT };
	if (t->kind == RD_STRING) {
		s->kind = STEP_STRING;
		return true;
	}
	if (t->kind != RD_INT || t->u.i.base != 10 || t->u.i.clock ||
	    (t->u.i.size != 8 && t->u.i.size != 16 && t->u.i.size != 32 &&
	     t->u.i.size != 64) || t->align > 64)
		return false;
	s->kind = t->u.i.is_signed ? STEP_SIGNED : STEP_UNSIGNED;
	s->bytes = (uint8_t)(t->u.i.size / 8);
	s->be = t->be;
	s->load = load_of(s->bytes, s->kind == STEP_SIGNED, s->be);
	s->tid = tid_role && (!strcmp(m->name, "vtid") || !strcmp(m->name, "tid"));
	return true;
}

/* Step `i` joins the fixed layout of the steps before it, or ends it. */
static void fixed_layout(struct rd_plan *p, const struct plan_step *s, size_t i)
{
	if (!p->fixed || s->kind == STEP_STRING || s->align > p->align) {
		p->fixed = false;
		return;
	}
	p->size = (p->size + s->align - 1) & ~(size_t)(s->align - 1);
	if (s->tid) {
		p->tid_offset = (int)p->size;
		p->tid_step = (int)i;
	}
	p->size += s->bytes;
}

struct rd_plan *rd_plan_build(const struct rd_type *t, bool tid_role)
{
	struct rd_plan *p;
	size_t i;

	if (t->kind != RD_STRUCT || t->align % 8 || t->align > 64)
		return NULL;
	/* RD_OUT_PAD more: a step's text is copied that far (rd_out_padded()) */
	p = calloc(1, sizeof(*p) + t->u.s.nr * sizeof(p->steps[0]) + RD_OUT_PAD);
	if (!p)
		return NULL;
	p->align = t->align / 8;
	p->nr = t->u.s.nr;
	p->fixed = true;
	p->print_fixed = true;
	p->print_max = 1 + 2 + sizeof(p->steps[0].text);	/* "{", " }", a text's overrun */
	p->tid_offset = p->tid_step = -1;
	for (i = 0; i < t->u.s.nr; i++) {
		struct plan_step *s = &p->steps[i];

		if (!step_of(&t->u.s.members[i], tid_role, s)) {
			free(p);
			return NULL;
		}
		fixed_layout(p, s, i);
		if ((size_t)s->name_len + 5 < sizeof(s->text))
			s->text_len = (uint8_t)sprintf(s->text, "%s%.*s = ", i ? ", " : " ",
						       (int)s->name_len, s->name);
		p->print_fixed &= s->kind != STEP_STRING && s->text_len;
		p->print_max += s->text_len + 21;	/* and "-" and 20 digits */
	}
	p->print_fixed &= p->fixed;
	return p;
}

/* The integer of `bytes` bytes at `q`. */
static uint64_t load(const uint8_t *q, unsigned int bytes, bool be, bool is_signed)
{
	switch (bytes) {
	case 1:
		return is_signed ? (uint64_t)(int64_t)(int8_t)q[0] : q[0];
	case 2: {
		uint16_t x;

		memcpy(&x, q, 2);
		x = be ? be16toh(x) : le16toh(x);
		return is_signed ? (uint64_t)(int64_t)(int16_t)x : x;
	}
	case 4: {
		uint32_t x;

		memcpy(&x, q, 4);
		x = be ? be32toh(x) : le32toh(x);
		return is_signed ? (uint64_t)(int64_t)(int32_t)x : x;
	}
	default: {
		uint64_t x;

		memcpy(&x, q, 8);
		return be ? be64toh(x) : le64toh(x);
	}
	}
}

/* The integer of step `s` at `q`, sign-extended when signed. */
static inline uint64_t load_step(const struct plan_step *s, const uint8_t *q)
{
	uint16_t x16;
	uint32_t x32;
	uint64_t x64;

	switch (s->load) {
	case LOAD_U8: return q[0];
	case LOAD_S8: return (uint64_t)(int64_t)(int8_t)q[0];
	case LOAD_U16: memcpy(&x16, q, 2); return le16toh(x16);
	case LOAD_S16: memcpy(&x16, q, 2); return (uint64_t)(int64_t)(int16_t)le16toh(x16);
	case LOAD_U16BE: memcpy(&x16, q, 2); return be16toh(x16);
	case LOAD_S16BE: memcpy(&x16, q, 2); return (uint64_t)(int64_t)(int16_t)be16toh(x16);
	case LOAD_U32: memcpy(&x32, q, 4); return le32toh(x32);
	case LOAD_S32: memcpy(&x32, q, 4); return (uint64_t)(int64_t)(int32_t)le32toh(x32);
	case LOAD_U32BE: memcpy(&x32, q, 4); return be32toh(x32);
	case LOAD_S32BE: memcpy(&x32, q, 4); return (uint64_t)(int64_t)(int32_t)be32toh(x32);
	case LOAD_U64: memcpy(&x64, q, 8); return le64toh(x64);
	default: memcpy(&x64, q, 8); return be64toh(x64);
	}
}

char *rd_plan_print(struct rd_plan *p, const uint8_t *base, size_t *at,
		    size_t stop, char *q)
{
	size_t pos = (*at + p->align - 1) & ~(size_t)(p->align - 1), i;

	if (pos + p->size > stop)	/* p->fixed: every step within */
		return NULL;
	*q++ = '{';
	for (i = 0; i < p->nr; i++) {
		struct plan_step *s = &p->steps[i];
		uint64_t v;

		pos = (pos + s->align - 1) & ~(size_t)(s->align - 1);
		/* the whole array: a fixed-size copy, the text's length kept */
		memcpy(q, s->text, sizeof(s->text));
		q += s->text_len;
		v = load_step(s, base + pos);
		pos += s->bytes;
		if (s->kind == STEP_SIGNED && (int64_t)v < 0)
			q = rd_fmt_i64(q, (int64_t)v);
		else
			q = rd_fmt_u64_memo(q, v, &s->memo);
	}
	memcpy(q, " }", 2);
	*at = pos;
	return q + 2;
}

static void print_name(struct rd_out *o, const struct plan_step *s, bool first)
{
	char *q = rd_out_room(o, s->name_len + 5);
	size_t n = 0;

	if (!first)
		q[n++] = ',';
	q[n++] = ' ';
	memcpy(q + n, s->name, s->name_len);
	n += s->name_len;
	memcpy(q + n, " = ", 3);
	o->len += n + 3;
}

int rd_plan_walk(const struct rd_plan *p, const uint8_t *base, uint64_t *pos,
		 uint64_t end, int64_t *tid, struct rd_out *o)
{
	size_t at = (size_t)(*pos / 8), stop = (size_t)(end / 8), i;

	if (*pos % 8)
		return -1;
	at = (at + p->align - 1) & ~(size_t)(p->align - 1);
	if (!o && p->fixed) {	/* skipped in one step */
		if (at + p->size > stop)
			return -1;
		if (p->tid_offset >= 0)
			*tid = (int64_t)load(base + at + p->tid_offset,
					     p->steps[p->tid_step].bytes,
					     p->steps[p->tid_step].be,
					     p->steps[p->tid_step].kind == STEP_SIGNED);
		*pos = (uint64_t)(at + p->size) * 8;
		return 0;
	}
	if (o)
		rd_out_char(o, '{');
	for (i = 0; i < p->nr; i++) {
		const struct plan_step *s = &p->steps[i];
		const uint8_t *nul;
		uint64_t v;

		at = (at + s->align - 1) & ~(size_t)(s->align - 1);
		if (o && s->text_len)
			rd_out_padded(o, s->text, s->text_len);
		else if (o)
			print_name(o, s, i == 0);
		if (s->kind == STEP_STRING) {
			nul = at < stop ? memchr(base + at, '\0', stop - at) : NULL;
			if (!nul)
				return -1;
			if (o)
				rd_out_escaped(o, (const char *)base + at, nul - (base + at));
			at = (size_t)(nul - base) + 1;
			continue;
		}
		if (at + s->bytes > stop)
			return -1;
		v = load(base + at, s->bytes, s->be, s->kind == STEP_SIGNED);
		at += s->bytes;
		if (s->tid)
			*tid = (int64_t)v;
		if (!o)
			continue;
		if (s->kind == STEP_SIGNED)
			rd_out_i64(o, (int64_t)v);
		else
			rd_out_u64(o, v);
	}
	if (o)
		rd_out_mem(o, " }", 2);
	*pos = (uint64_t)at * 8;
	return 0;
}

/* ---- event headers ---- */

static bool is_uint(const struct rd_type *t, unsigned int size, bool clock)
{
	return t->kind == RD_INT && !t->u.i.is_signed && !t->be &&
	       t->u.i.clock == clock && (!size || t->u.i.size == size);
}

static const struct rd_type *option(const struct rd_type *v, const char *name)
{
	size_t i;

	for (i = 0; i < v->u.v.nr; i++) {
		if (!strcmp(v->u.v.options[i].name, name))
			return v->u.v.options[i].type;
	}
	return NULL;
}

/* The enum's range labelled `label` is exactly [lo, hi]. */
static bool has_range(const struct rd_type *e, const char *label, int64_t lo, int64_t hi)
{
	size_t i;

	for (i = 0; i < e->u.e.nr; i++) {
		const struct rd_enum_range *r = &e->u.e.ranges[i];

		if (!strcmp(r->label, label))
			return r->lo == lo && r->hi == hi;
	}
	return false;
}

static bool compact_header(const struct rd_type *t, struct rd_header_plan *h)
{
	const struct rd_member *m = t->u.s.members;
	const struct rd_type *e = m[0].type, *v = m[1].type, *c, *x;
	unsigned int n;

	if (strcmp(m[0].name, "id") || e->kind != RD_ENUM || v->kind != RD_VARIANT ||
	    v->u.v.tag_index != 0 || !is_uint(e->u.e.container, 0, false))
		return false;
	n = e->u.e.container->u.i.size;
	c = option(v, "compact");
	x = option(v, "extended");
	if (n >= 32 || e->u.e.container->align > 8 || !c || !x ||
	    !has_range(e, "extended", ((int64_t)1 << n) - 1, ((int64_t)1 << n) - 1) ||
	    !has_range(e, "compact", 0, ((int64_t)1 << n) - 2))
		return false;
	if (c->kind != RD_STRUCT || c->u.s.nr != 1 || c->align != 1 ||
	    strcmp(c->u.s.members[0].name, "timestamp") ||
	    !is_uint(c->u.s.members[0].type, 32 - n, true) ||
	    c->u.s.members[0].type->align != 1)
		return false;
	if (x->kind != RD_STRUCT || x->u.s.nr != 2 || x->align != 8 ||
	    strcmp(x->u.s.members[0].name, "id") ||
	    !is_uint(x->u.s.members[0].type, 32, false) ||
	    x->u.s.members[0].type->align != 8 ||
	    strcmp(x->u.s.members[1].name, "timestamp") ||
	    !is_uint(x->u.s.members[1].type, 64, true) ||
	    x->u.s.members[1].type->align != 8)
		return false;
	*h = (struct rd_header_plan){ .compact = true, .id_bits = n, .ts_bits = 32 - n,
				      .extended_id = (1u << n) - 1 };
	return true;
}

static bool plain_header(const struct rd_type *t, struct rd_header_plan *h)
{
	const struct rd_member *m = t->u.s.members;
	const struct rd_type *id = m[0].type, *ts = m[1].type;

	if (strcmp(m[0].name, "id") || strcmp(m[1].name, "timestamp") ||
	    !is_uint(id, 0, false) || id->align % 8 || id->u.i.size % 8 ||
	    id->align > 64 || !is_uint(ts, 64, true) || ts->align != 8)
		return false;
	*h = (struct rd_header_plan){ .id_bytes = id->u.i.size / 8,
				      .id_align = id->align / 8 };
	return h->id_bytes == 1 || h->id_bytes == 2 || h->id_bytes == 4 ||
	       h->id_bytes == 8;
}

struct rd_header_plan *rd_header_plan_build(const struct rd_type *t)
{
	struct rd_header_plan h, *p;

	if (!t || t->kind != RD_STRUCT || t->u.s.nr != 2 || t->align != 8)
		return NULL;
	if (!compact_header(t, &h) && !plain_header(t, &h))
		return NULL;
	p = malloc(sizeof(*p));
	if (p)
		*p = h;
	return p;
}

int rd_header_walk(const struct rd_header_plan *h, struct rd_stream *st,
		   uint64_t *pos, uint64_t end, uint64_t *id)
{
	const uint8_t *base = st->map + st->pkt_off;
	size_t at = (size_t)(*pos + 7) / 8, stop = (size_t)(end / 8);
	uint64_t word;

	if (h->compact) {
		if (at + 4 > stop)
			return -1;
		word = load(base + at, 4, false, false);
		*id = word & h->extended_id;
		if (*id != h->extended_id) {
			rd_update_clock(st, h->ts_bits, word >> h->id_bits);
			*pos = (uint64_t)(at + 4) * 8;
			return 0;
		}
		/* extended: the 32-bit id and the 64-bit time, a byte on */
		if (at + 13 > stop)
			return -1;
		*id = load(base + at + 1, 4, false, false);
		rd_update_clock(st, 64, load(base + at + 5, 8, false, false));
		*pos = (uint64_t)(at + 13) * 8;
		return 0;
	}
	at = (at + h->id_align - 1) & ~(size_t)(h->id_align - 1);
	if (at + h->id_bytes > stop)
		return -1;
	*id = load(base + at, h->id_bytes, false, false);
	at += h->id_bytes;
	if (at + 8 > stop)
		return -1;
	rd_update_clock(st, 64, load(base + at, 8, false, false));
	*pos = (uint64_t)(at + 8) * 8;
	return 0;
}
