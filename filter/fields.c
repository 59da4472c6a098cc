/*
 * fields.c - an event's fields for the compiler: the type tree from its
 * TSDL, the layout text of any run of members, and field paths.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The TSDL is parsed by the trace reader (reader/tsdl.c), wrapped into
 * the smallest metadata it accepts.  The layout of a run of members is
 * written in tpgen's grammar (doc/tpgen.md, "Layout string"), fixed runs
 * merged as tpgen merges them; filter_event_init() checks that the whole
 * list of fields gives exactly the event's own layout string, so a
 * position the compiler computes is the one the probe writes.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ast.h"
#include "fields.h"
#include "runtime.h"

/* ---- types ---- */

const char *fields_kind_name(const struct rd_type *t)
{
	static const char *const names[] = {
		[RD_INT] = "an integer", [RD_FLOAT] = "a float",
		[RD_ENUM] = "an enum", [RD_STRING] = "a string",
		[RD_STRUCT] = "a struct", [RD_VARIANT] = "a variant",
		[RD_ARRAY] = "an array", [RD_SEQUENCE] = "a sequence",
	};

	return names[t->kind];
}

/* Byte-aligned integers of 1, 2, 4 or 8 bytes: what tpgen writes. */
static bool int_supported(const struct rd_type *t)
{
	unsigned int size = t->u.i.size;

	return t->align == 8 && (size == 8 || size == 16 || size == 32 ||
				 size == 64);
}

static bool float_supported(const struct rd_type *t)
{
	return t->align == 8 &&
	       ((t->u.f.exp_dig == 8 && t->u.f.mant_dig == 24) ||
		(t->u.f.exp_dig == 11 && t->u.f.mant_dig == 53));
}

static bool scalar_supported(const struct rd_type *t)
{
	switch (t->kind) {
	case RD_INT:
		return int_supported(t);
	case RD_ENUM:
		return int_supported(t->u.e.container);
	case RD_FLOAT:
		return float_supported(t);
	default:
		return t->kind == RD_STRING;
	}
}

unsigned int fields_scalar_size(const struct rd_type *t)
{
	switch (t->kind) {
	case RD_INT:
		return t->u.i.size / 8;
	case RD_ENUM:
		return t->u.e.container->u.i.size / 8;
	default:	/* RD_FLOAT */
		return (t->u.f.exp_dig + t->u.f.mant_dig) / 8;
	}
}

bool fields_fixed_size(const struct rd_type *t, uint64_t *size)
{
	uint64_t elem, sum = 0;
	size_t i;

	switch (t->kind) {
	case RD_INT:
	case RD_ENUM:
	case RD_FLOAT:
		if (!scalar_supported(t))
			return false;
		*size = fields_scalar_size(t);
		return true;
	case RD_ARRAY:
		if (!fields_fixed_size(t->u.a.elem, &elem) ||
		    (elem && t->u.a.len > UINT32_MAX / elem))
			return false;
		*size = elem * t->u.a.len;
		return true;
	case RD_STRUCT:
		for (i = 0; i < t->u.s.nr; i++) {
			if (!fields_fixed_size(t->u.s.members[i].type, &elem) ||
			    sum + elem > UINT32_MAX)
				return false;
			sum += elem;
		}
		*size = sum;
		return true;
	default:
		return false;
	}
}

/* ---- layout text ---- */

void layout_text_init(struct layout_text *b)
{
	memset(b, 0, sizeof(*b));
	b->last_f = -1;
	b->at_start = true;
}

void layout_text_release(struct layout_text *b)
{
	free(b->s);
	b->s = NULL;
}

static void lt_append(struct layout_text *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void lt_append(struct layout_text *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (b->oom)
		return;
	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (b->len + (size_t)n + 1 > b->cap) {
		size_t cap = (b->len + (size_t)n + 1) * 2;
		char *grown = realloc(b->s, cap);

		if (!grown) {
			b->oom = true;
			return;
		}
		b->s = grown;
		b->cap = cap;
	}
	va_start(ap, fmt);
	vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

/* An item other than F: a separator first, unless first at its level. */
static void lt_item(struct layout_text *b, const char *text)
{
	lt_append(b, "%s%s", b->at_start ? "" : " ", text);
	b->at_start = false;
	b->last_f = -1;
}

/* n fixed bytes, merged into the F item just before at this level. */
static void lt_fixed(struct layout_text *b, uint64_t n)
{
	if (b->last_f >= 0) {
		b->len = (size_t)b->last_f;
		n += b->last_f_bytes;
	} else if (!b->at_start) {
		lt_append(b, " ");
	}
	b->last_f = (long)b->len;
	b->last_f_bytes = n;
	lt_append(b, "F%llu", (unsigned long long)n);
	b->at_start = false;
}

/* "A3[", "Q2[", "V0[": a new level begins. */
static void lt_open(struct layout_text *b, char kind, uint64_t n)
{
	char head[32];

	snprintf(head, sizeof(head), "%c%llu[", kind, (unsigned long long)n);
	lt_item(b, head);
	b->at_start = true;
}

static void lt_close(struct layout_text *b)
{
	lt_append(b, "]");
	b->at_start = false;
	b->last_f = -1;
}

static int unsupported(struct filter_error *err, const char *what)
{
	return filter_fail(err, 0, "ust cannot filter on these fields: %s", what);
}

int type_layout(const struct rd_type *t, struct layout_text *b,
		struct filter_error *err)
{
	uint64_t size;

	switch (t->kind) {
	case RD_STRING:
		lt_item(b, "S");
		return 0;
	case RD_STRUCT:
		return fields_layout(t, t->u.s.nr, b, err);
	case RD_ARRAY:
		if (fields_fixed_size(t, &size)) {
			lt_fixed(b, size);
			return 0;
		}
		if (t->u.a.len == 0 || t->u.a.len > 65535)
			return unsupported(err, "an array of more than 65535 elements");
		lt_open(b, 'A', t->u.a.len);
		if (type_layout(t->u.a.elem, b, err))
			return -1;
		lt_close(b);
		return 0;
	case RD_SEQUENCE:
	case RD_VARIANT:
		return unsupported(err, "a sequence or variant that is not a field of its own");
	default:
		if (!scalar_supported(t))
			return unsupported(err, "an integer or float that is not byte-aligned, or of an odd size");
		lt_fixed(b, fields_scalar_size(t));
		return 0;
	}
}

/*
 * Is member m what a later member of kind `kind` (before `to`) refers to:
 * the length of an RD_SEQUENCE, the tag of an RD_VARIANT?
 */
static bool referenced_by(const struct rd_type *st, size_t m, size_t to,
			  enum rd_kind kind)
{
	size_t i;

	for (i = m + 1; i < to; i++) {
		const struct rd_type *t = st->u.s.members[i].type;
		int ref;

		if (t->kind != kind)
			continue;
		ref = kind == RD_SEQUENCE ? t->u.a.len_index : t->u.v.tag_index;
		if (ref == (int)m)
			return true;
	}
	return false;
}

/* The value of label `label` in enum `e`, as tpgen's layout writes it. */
static int label_value(const struct rd_type *e, const char *label,
		       uint64_t *value)
{
	unsigned int bits = e->u.e.container->u.i.size;
	size_t i;

	for (i = 0; i < e->u.e.nr; i++) {
		const struct rd_enum_range *r = &e->u.e.ranges[i];

		if (!strcmp(r->label, label) && r->lo == r->hi) {
			*value = (uint64_t)r->lo;
			if (bits < 64)
				*value &= (1ull << bits) - 1;
			return 0;
		}
	}
	return -1;
}

static int sequence_layout(const struct rd_type *st, size_t m,
			   struct layout_text *b, struct filter_error *err)
{
	const struct rd_type *t = st->u.s.members[m].type;
	const struct rd_type *len;

	if (t->u.a.len_index != (int)m - 1)
		return unsupported(err, "a sequence whose length is not the field just before it");
	len = st->u.s.members[m - 1].type;
	if (len->kind != RD_INT || !int_supported(len) || len->u.i.is_signed)
		return unsupported(err, "a sequence length that is not an unsigned integer");
	lt_open(b, 'Q', len->u.i.size / 8);
	if (type_layout(t->u.a.elem, b, err))
		return -1;
	lt_close(b);
	return 0;
}

static int variant_layout(const struct rd_type *st, size_t m,
			  const unsigned int *slots, struct layout_text *b,
			  struct filter_error *err)
{
	const struct rd_type *t = st->u.s.members[m].type;
	const struct rd_type *tag = st->u.s.members[t->u.v.tag_index].type;
	size_t i;

	lt_open(b, 'V', slots[t->u.v.tag_index]);
	for (i = 0; i < t->u.v.nr; i++) {
		uint64_t value;

		if (label_value(tag, t->u.v.options[i].name, &value))
			return unsupported(err, "a variant option that is no single value of its tag");
		lt_append(b, "%s%llu:", i ? "|" : "", (unsigned long long)value);
		b->at_start = true;
		b->last_f = -1;
		if (type_layout(t->u.v.options[i].type, b, err))
			return -1;
	}
	lt_close(b);
	return 0;
}

int fields_layout(const struct rd_type *st, size_t to, struct layout_text *b,
		  struct filter_error *err)
{
	unsigned int *slots = calloc(to ? to : 1, sizeof(*slots));
	int ret = 0;
	size_t m;

	if (!slots)
		return filter_fail(err, 0, "out of memory");
	for (m = 0; m < to && ret == 0; m++) {
		const struct rd_type *t = st->u.s.members[m].type;
		char item[8];

		if (referenced_by(st, m, to, RD_SEQUENCE))
			continue;	/* with its sequence, as Q */
		if (referenced_by(st, m, to, RD_VARIANT)) {
			if (!scalar_supported(t))
				ret = unsupported(err, "a variant tag that is not a byte-aligned integer");
			else if (b->next_tag >= UST_FILTER_LAYOUT_TAGS)
				ret = unsupported(err, "more than 16 variant tags");
			slots[m] = b->next_tag++;
			snprintf(item, sizeof(item), "T%u", fields_scalar_size(t));
			lt_item(b, item);
		} else if (t->kind == RD_SEQUENCE) {
			ret = sequence_layout(st, m, b, err);
		} else if (t->kind == RD_VARIANT) {
			ret = variant_layout(st, m, slots, b, err);
		} else {
			ret = type_layout(t, b, err);
		}
	}
	free(slots);
	if (ret == 0 && b->oom)
		return filter_fail(err, 0, "out of memory");
	return ret;
}

/* ---- events ---- */

int filter_event_init(struct filter_event *ev, const char *name,
		      const char *layout, const char *tsdl,
		      struct filter_error *err)
{
	static const char wrap[] =
		"/* CTF 1.8 */\nclock { name = \"c\"; };\nstream { id = 0; };\n"
		"event { name = \"e\"; id = 0; stream_id = 0; "
		"fields := struct { %s }; };\n";
	struct layout_text b;
	char *text = NULL, msg[256];

	memset(ev, 0, sizeof(*ev));
	memset(err, 0, sizeof(*err));
	ev->name = strdup(name);
	ev->layout = strdup(layout ? layout : "");
	ev->tsdl = strdup(tsdl ? tsdl : "");
	if (!ev->name || !ev->layout || !ev->tsdl ||
	    asprintf(&text, wrap, ev->tsdl) < 0) {
		filter_event_release(ev);
		return filter_fail(err, 0, "out of memory");
	}
	if (rd_metadata_parse(&ev->md, text, strlen(text), msg, sizeof(msg))) {
		memset(&ev->md, 0, sizeof(ev->md));	/* released by the parser */
		free(text);
		filter_event_release(ev);
		return filter_fail(err, 0, "cannot read the fields of %s: %s", name, msg);
	}
	free(text);
	ev->fields = ev->md.streams[0].events[0]->fields;
	ev->signature = ust_filter_signature(ev->tsdl, ev->layout);
	layout_text_init(&b);
	if (fields_layout(ev->fields, ev->fields->u.s.nr, &b, err) ||
	    strcmp(b.s ? b.s : "", ev->layout)) {
		if (!err->msg[0])
			filter_fail(err, 0, "the fields of %s do not give its layout '%s' (they give '%s')",
				    name, ev->layout, b.s ? b.s : "");
		layout_text_release(&b);
		filter_event_release(ev);
		return -1;
	}
	layout_text_release(&b);
	return 0;
}

void filter_event_release(struct filter_event *ev)
{
	if (ev->fields || ev->md.arena)
		rd_metadata_release(&ev->md);
	free(ev->name);
	free(ev->layout);
	free(ev->tsdl);
	memset(ev, 0, sizeof(*ev));
}

/* ---- field paths ---- */

/* "count, text": the members, without the lengths of sequences. */
static void member_list(const struct rd_type *st, char *buf, size_t len)
{
	size_t i, at = 0;

	buf[0] = '\0';
	for (i = 0; i < st->u.s.nr && at < len; i++) {
		if (referenced_by(st, i, st->u.s.nr, RD_SEQUENCE))
			continue;
		at += (size_t)snprintf(buf + at, len - at, "%s%s", at ? ", " : "",
				       st->u.s.members[i].name);
	}
}

static int find_member(const struct rd_type *st, const char *name, size_t *m)
{
	for (*m = 0; *m < st->u.s.nr; (*m)++)
		if (!strcmp(st->u.s.members[*m].name, name))
			return 0;
	return -1;
}

static int unknown_member(const struct filter_event *ev, const struct rd_type *st,
			  const struct access *a, const struct path_step *s,
			  struct filter_error *err)
{
	char list[256];

	member_list(st, list, sizeof(list));
	if (a->nr_steps == 0 && !list[0])
		return filter_fail(err, s->column, "unknown field '%s' in %s, which has no fields",
				   s->name, ev->name);
	if (a->nr_steps == 0)
		return filter_fail(err, s->column, "unknown field '%s' in %s; fields are %s",
				   s->name, ev->name, list);
	return filter_fail(err, s->column, "unknown member '%s' of '%s' in %s; members are %s",
			   s->name, a->display, ev->name, list);
}

static int unknown_option(const struct filter_event *ev, const struct rd_type *v,
			  const struct access *a, const struct path_step *s,
			  struct filter_error *err)
{
	char list[256];
	size_t i, at = 0;

	list[0] = '\0';
	for (i = 0; i < v->u.v.nr && at < sizeof(list); i++)
		at += (size_t)snprintf(list + at, sizeof(list) - at, "%s%s",
				       at ? ", " : "", v->u.v.options[i].name);
	return filter_fail(err, s->column, "unknown option '%s' of variant '%s' in %s; options are %s",
			   s->name, a->display, ev->name, list);
}

static int add(struct access *a, enum step_kind kind, const struct rd_type *parent,
	       size_t member, uint64_t index, struct filter_error *err)
{
	struct access_step *grown = realloc(a->steps,
					    (a->nr_steps + 1) * sizeof(*grown));

	if (!grown)
		return filter_fail(err, 0, "out of memory");
	a->steps = grown;
	grown[a->nr_steps].kind = kind;
	grown[a->nr_steps].parent = parent;
	grown[a->nr_steps].member = member;
	grown[a->nr_steps].index = index;
	a->nr_steps++;
	return 0;
}

static void display_append(struct access *a, const struct path_step *s)
{
	size_t at = strlen(a->display);

	if (s->is_index)
		snprintf(a->display + at, sizeof(a->display) - at, "[%llu]",
			 (unsigned long long)s->index);
	else
		snprintf(a->display + at, sizeof(a->display) - at, "%s%s",
			 at ? "." : "", s->name);
}

/* `[N]` after a path whose type is `t`. */
static int index_step(struct access *a, const struct rd_type **t,
		      const struct path_step *s, struct filter_error *err)
{
	const struct rd_type *arr = *t;

	if (arr->kind != RD_ARRAY && arr->kind != RD_SEQUENCE)
		return filter_fail(err, s->column, "'%s' is %s, not an array or a sequence: it has no elements",
				   a->display, fields_kind_name(arr));
	if (arr->kind == RD_ARRAY && s->index >= arr->u.a.len)
		return filter_fail(err, s->column, "index %llu is out of the bounds of '%s' (%llu elements)",
				   (unsigned long long)s->index, a->display,
				   (unsigned long long)arr->u.a.len);
	if (arr->kind == RD_SEQUENCE &&
	    (a->nr_steps == 0 || a->steps[a->nr_steps - 1].kind != ST_MEMBER))
		return unsupported(err, "a sequence that is not a field of its own");
	if (s->index > UINT32_MAX)
		return filter_fail(err, s->column, "index %llu is too large",
				   (unsigned long long)s->index);
	*t = arr->u.a.elem;
	return add(a, ST_INDEX, arr, 0, s->index, err);
}

/* `.name` (or the first name) after a path whose type is `t`. */
static int name_step(const struct filter_event *ev, struct access *a,
		     const struct rd_type **t, const struct path_step *s,
		     struct filter_error *err)
{
	const struct rd_type *parent = *t;
	size_t m;

	if (parent->kind == RD_STRUCT) {
		if (find_member(parent, s->name, &m))
			return unknown_member(ev, parent, a, s, err);
		*t = parent->u.s.members[m].type;
		return add(a, ST_MEMBER, parent, m, 0, err);
	}
	if (parent->kind == RD_VARIANT) {
		for (m = 0; m < parent->u.v.nr; m++)
			if (!strcmp(parent->u.v.options[m].name, s->name))
				break;
		if (m == parent->u.v.nr)
			return unknown_option(ev, parent, a, s, err);
		*t = parent->u.v.options[m].type;
		return add(a, ST_OPTION, parent, m, 0, err);
	}
	return filter_fail(err, s->column, "'%s' is %s: it has no member '%s'",
			   a->display, fields_kind_name(parent), s->name);
}

/* The path must end on a value that compares. */
static int check_scalar(const struct access *a, const struct rd_type *t,
			int col, struct filter_error *err)
{
	switch (t->kind) {
	case RD_STRUCT:
		return filter_fail(err, col, "'%s' is a struct: compare one of its members, as %s.%s",
				   a->display, a->display,
				   t->u.s.nr ? t->u.s.members[0].name : "x");
	case RD_ARRAY:
	case RD_SEQUENCE:
		return filter_fail(err, col, "'%s' is %s: compare one of its elements, as %s[0]",
				   a->display, fields_kind_name(t), a->display);
	case RD_VARIANT:
		return filter_fail(err, col, "'%s' is a variant: compare one of its options, as %s.%s",
				   a->display, a->display,
				   t->u.v.nr ? t->u.v.options[0].name : "X");
	default:
		if (!scalar_supported(t))
			return unsupported(err, "an integer or float that is not byte-aligned, or of an odd size");
		return 0;
	}
}

int fields_resolve(const struct filter_event *ev, const struct node *n,
		   struct access *a, struct filter_error *err)
{
	const struct rd_type *t = ev->fields;
	size_t i;

	memset(a, 0, sizeof(*a));
	for (i = 0; i < n->path_len; i++) {
		const struct path_step *s = &n->path[i];
		int ret = s->is_index ? index_step(a, &t, s, err)
				      : name_step(ev, a, &t, s, err);

		if (ret) {
			fields_access_release(a);
			return -1;
		}
		display_append(a, s);
	}
	if (check_scalar(a, t, n->column, err)) {
		fields_access_release(a);
		return -1;
	}
	a->type = t;
	return 0;
}

void fields_access_release(struct access *a)
{
	free(a->steps);
	a->steps = NULL;
	a->nr_steps = 0;
}
