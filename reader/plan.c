/*
 * plan.c - compiled walks of simple structs (plan.h): byte-aligned
 * base-10 integers and strings, skipped or printed in one loop.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include <endian.h>
#include <stdlib.h>
#include <string.h>

#include "plan.h"

static bool step_of(const struct rd_member *m, bool tid_role, struct plan_step *s)
{
	const struct rd_type *t = m->type;

	if (m->name_len > 255 || t->align % 8)
		return false;
	*s = (struct plan_step){ .align = (uint8_t)(t->align / 8),
		.name = m->name, .name_len = (uint8_t)m->name_len };
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
	s->be = t->u.i.be;
	s->tid = tid_role && (!strcmp(m->name, "vtid") || !strcmp(m->name, "tid"));
	return true;
}

struct rd_plan *rd_plan_build(const struct rd_type *t, bool tid_role)
{
	struct rd_plan *p;
	size_t i;

	if (t->kind != RD_STRUCT || t->align % 8 || t->align > 64)
		return NULL;
	p = malloc(sizeof(*p) + t->u.s.nr * sizeof(p->steps[0]));
	if (!p)
		return NULL;
	p->align = t->align / 8;
	p->nr = t->u.s.nr;
	for (i = 0; i < t->u.s.nr; i++) {
		if (!step_of(&t->u.s.members[i], tid_role, &p->steps[i])) {
			free(p);
			return NULL;
		}
	}
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
	if (o)
		rd_out_char(o, '{');
	for (i = 0; i < p->nr; i++) {
		const struct plan_step *s = &p->steps[i];
		const uint8_t *nul;
		uint64_t v;

		at = (at + s->align - 1) & ~(size_t)(s->align - 1);
		if (o)
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
