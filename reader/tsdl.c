/*
 * tsdl.c - a recursive-descent parser for the TSDL that ust writes.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Grammar handled (CTF 1.8 subset; see tsdl.h for the type kinds):
 *
 *   top     := ( typealias TYPE ':=' IDENT ';'
 *              | typedef TYPE IDENT ';'
 *              | ( trace | env | clock | stream | event | callsite ) '{' entry* '}' ';'
 *              | TYPE ';' )*
 *   entry   := KEY ( '=' VALUE | ':=' TYPE ) ';'       KEY: IDENT ('.' IDENT)*
 *   TYPE    := integer '{' attr* '}' | string [ '{' attr* '}' ]
 *            | struct [IDENT] [ '{' field* '}' [align '(' N ')'] ]
 *            | enum [IDENT] ':' TYPE '{' label (',' label)* [','] '}'
 *            | variant [IDENT] '<' IDENT '>' '{' field* '}'
 *            | IDENT                                    (a typealias)
 *   field   := TYPE IDENT ( '[' ( N | IDENT ) ']' )* ';'
 *
 * The lexer works on the whole text in memory; every token keeps its
 * line for the error messages.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/parse.h"
#include "tsdl.h"

/* ---- arena: every node and string of one metadata ---- */

struct rd_arena {
	struct rd_arena *next;
	size_t used, size;
	char data[];
};

#define ARENA_BLOCK	(64 * 1024)

static void *arena_alloc(struct rd_arena **head, size_t n)
{
	struct rd_arena *a = *head;
	void *p;

	n = (n + 15) & ~(size_t)15;
	if (!a || a->size - a->used < n) {
		size_t size = n > ARENA_BLOCK ? n : ARENA_BLOCK;

		a = malloc(sizeof(*a) + size);
		if (!a)
			return NULL;
		a->next = *head;
		a->used = 0;
		a->size = size;
		*head = a;
	}
	p = a->data + a->used;
	a->used += n;
	memset(p, 0, n);
	return p;
}

static void arena_free(struct rd_arena *a)
{
	while (a) {
		struct rd_arena *next = a->next;

		free(a);
		a = next;
	}
}

/* ---- lexer ---- */

enum tok_kind { T_EOF, T_IDENT, T_NUM, T_STR, T_PUNCT };

struct token {
	enum tok_kind kind;
	const char *s;		/* T_IDENT, T_STR (unescaped), T_PUNCT */
	uint64_t num;		/* T_NUM */
	int line;
};

struct alias {
	const char *name;
	struct rd_type *type;
	bool is_struct;		/* `struct NAME`, else typealias */
	struct alias *next;
};

struct parser {
	const char *p, *end;
	int line;
	struct token tok;	/* current token */
	struct rd_metadata *md;
	struct alias *aliases;
	char *err;
	size_t errlen;
	bool failed;
	int depth;
};

#define MAX_DEPTH	32

static int fail(struct parser *ps, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int fail(struct parser *ps, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (ps->failed)
		return -1;
	ps->failed = true;
	n = snprintf(ps->err, ps->errlen, "line %d: ", ps->tok.line);
	if (n < 0 || (size_t)n >= ps->errlen)
		return -1;
	va_start(ap, fmt);
	vsnprintf(ps->err + n, ps->errlen - n, fmt, ap);
	va_end(ap);
	return -1;
}

static char *pstrndup(struct parser *ps, const char *s, size_t n)
{
	char *d = arena_alloc(&ps->md->arena, n + 1);

	if (d)
		memcpy(d, s, n);
	return d;
}

static int skip_space(struct parser *ps)
{
	for (;;) {
		while (ps->p < ps->end && strchr(" \t\r\n\f\v", *ps->p) && *ps->p) {
			if (*ps->p == '\n')
				ps->line++;
			ps->p++;
		}
		if (ps->end - ps->p >= 2 && ps->p[0] == '/' && ps->p[1] == '*') {
			const char *q = ps->p + 2;

			while (q + 1 < ps->end && !(q[0] == '*' && q[1] == '/')) {
				if (*q == '\n')
					ps->line++;
				q++;
			}
			if (q + 1 >= ps->end)
				return fail(ps, "unterminated comment");
			ps->p = q + 2;
		} else if (ps->end - ps->p >= 2 && ps->p[0] == '/' && ps->p[1] == '/') {
			while (ps->p < ps->end && *ps->p != '\n')
				ps->p++;
		} else {
			return 0;
		}
	}
}

static int lex_string(struct parser *ps)
{
	const char *q = ps->p + 1;
	char *out, *o;

	out = arena_alloc(&ps->md->arena, (size_t)(ps->end - q) < 4096 ?
			  (size_t)(ps->end - q) + 1 : 4097);
	if (!out)
		return fail(ps, "out of memory");
	o = out;
	while (q < ps->end && *q != '"') {
		if (o - out >= 4096)
			return fail(ps, "string literal too long");
		if (*q == '\n')
			return fail(ps, "newline in string literal");
		if (*q == '\\' && q + 1 < ps->end) {
			q++;
			switch (*q) {
			case 'n': *o++ = '\n'; break;
			case 't': *o++ = '\t'; break;
			default: *o++ = *q; break;
			}
			q++;
			continue;
		}
		if (*q == '\0')
			return fail(ps, "NUL byte in string literal");
		*o++ = *q++;
	}
	if (q >= ps->end)
		return fail(ps, "unterminated string literal");
	ps->tok.kind = T_STR;
	ps->tok.s = out;
	ps->p = q + 1;
	return 0;
}

static int lex_number(struct parser *ps)
{
	const char *q = ps->p;
	uint64_t v = 0;
	unsigned int base = 10;
	int d;

	if (q + 1 < ps->end && q[0] == '0' && (q[1] == 'x' || q[1] == 'X')) {
		base = 16;
		q += 2;
	} else if (q[0] == '0') {
		base = 8;
	}
	for (; q < ps->end; q++) {
		d = ust__hex_digit(*q);
		if (d < 0)
			break;
		if ((unsigned int)d >= base)
			return fail(ps, "bad digit '%c' in number", *q);
		if (v > (UINT64_MAX - (unsigned int)d) / base)
			return fail(ps, "number too large");
		v = v * base + (unsigned int)d;
	}
	/* Integer suffixes (U, L) are allowed by TSDL. */
	while (q < ps->end && strchr("uUlL", *q) && *q)
		q++;
	ps->tok.kind = T_NUM;
	ps->tok.num = v;
	ps->p = q;
	return 0;
}

static bool is_ident_char(char c, bool first)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
	       (!first && c >= '0' && c <= '9');
}

/* Advance to the next token. */
static int next(struct parser *ps)
{
	static const char *const puncts[] = {
		":=", "...", "{", "}", ";", "=", ",", "[", "]", "<", ">",
		"(", ")", ":", ".", "-", "+",
	};
	size_t i;

	if (ps->failed || skip_space(ps))
		return -1;
	ps->tok.line = ps->line;
	if (ps->p >= ps->end) {
		ps->tok.kind = T_EOF;
		ps->tok.s = "end of file";
		return 0;
	}
	if (*ps->p == '"')
		return lex_string(ps);
	if (*ps->p >= '0' && *ps->p <= '9')
		return lex_number(ps);
	if (is_ident_char(*ps->p, true)) {
		const char *q = ps->p;

		while (q < ps->end && is_ident_char(*q, false))
			q++;
		ps->tok.kind = T_IDENT;
		ps->tok.s = pstrndup(ps, ps->p, q - ps->p);
		ps->p = q;
		return ps->tok.s ? 0 : fail(ps, "out of memory");
	}
	for (i = 0; i < sizeof(puncts) / sizeof(puncts[0]); i++) {
		size_t n = strlen(puncts[i]);

		if ((size_t)(ps->end - ps->p) >= n && !memcmp(ps->p, puncts[i], n)) {
			ps->tok.kind = T_PUNCT;
			ps->tok.s = puncts[i];
			ps->p += n;
			return 0;
		}
	}
	if ((unsigned char)*ps->p < 0x20 || (unsigned char)*ps->p > 0x7e)
		return fail(ps, "unexpected byte 0x%02x", (unsigned char)*ps->p);
	return fail(ps, "unexpected character '%c'", *ps->p);
}

static bool is_punct(const struct parser *ps, const char *s)
{
	return ps->tok.kind == T_PUNCT && !strcmp(ps->tok.s, s);
}

static bool is_ident(const struct parser *ps, const char *s)
{
	return ps->tok.kind == T_IDENT && !strcmp(ps->tok.s, s);
}

static const char *tok_desc(const struct parser *ps)
{
	switch (ps->tok.kind) {
	case T_EOF: return "end of file";
	case T_NUM: return "a number";
	case T_STR: return "a string";
	default: return ps->tok.s;
	}
}

static int expect(struct parser *ps, const char *s)
{
	if (!is_punct(ps, s))
		return fail(ps, "expected '%s', got '%s'", s, tok_desc(ps));
	return next(ps);
}

static const char *expect_ident(struct parser *ps)
{
	const char *s;

	if (ps->tok.kind != T_IDENT) {
		fail(ps, "expected a name, got '%s'", tok_desc(ps));
		return NULL;
	}
	s = ps->tok.s;
	return next(ps) ? NULL : s;
}

/* A signed integer constant: ['-'|'+'] NUM. */
static int parse_int(struct parser *ps, int64_t *v)
{
	bool neg = false;

	if (is_punct(ps, "-") || is_punct(ps, "+")) {
		neg = is_punct(ps, "-");
		if (next(ps))
			return -1;
	}
	if (ps->tok.kind != T_NUM)
		return fail(ps, "expected a number, got '%s'", tok_desc(ps));
	if (ps->tok.num > (uint64_t)INT64_MAX + neg)
		return fail(ps, "number out of range");
	*v = neg ? (int64_t)(0 - ps->tok.num) : (int64_t)ps->tok.num;
	return next(ps);
}

static int parse_uint(struct parser *ps, uint64_t *v)
{
	if (ps->tok.kind != T_NUM)
		return fail(ps, "expected a number, got '%s'", tok_desc(ps));
	*v = ps->tok.num;
	return next(ps);
}

/* ---- types ---- */

static struct rd_type *new_type(struct parser *ps, enum rd_kind kind)
{
	struct rd_type *t = arena_alloc(&ps->md->arena, sizeof(*t));

	if (!t) {
		fail(ps, "out of memory");
		return NULL;
	}
	t->kind = kind;
	t->align = 1;
	return t;
}

static struct rd_type *find_alias(struct parser *ps, const char *name, bool is_struct)
{
	struct alias *a;

	for (a = ps->aliases; a; a = a->next) {
		if (a->is_struct == is_struct && !strcmp(a->name, name))
			return a->type;
	}
	return NULL;
}

static int add_alias(struct parser *ps, const char *name, struct rd_type *t,
		     bool is_struct)
{
	struct alias *a = arena_alloc(&ps->md->arena, sizeof(*a));

	if (!a)
		return fail(ps, "out of memory");
	a->name = name;
	a->type = t;
	a->is_struct = is_struct;
	a->next = ps->aliases;
	ps->aliases = a;
	return 0;
}

static bool parse_bool_word(const char *s, bool *v)
{
	if (!strcmp(s, "true") || !strcmp(s, "TRUE")) {
		*v = true;
		return true;
	}
	if (!strcmp(s, "false") || !strcmp(s, "FALSE")) {
		*v = false;
		return true;
	}
	return false;
}

/* `clock.NAME.value` after `map =`. */
static int parse_clock_map(struct parser *ps)
{
	if (!is_ident(ps, "clock"))
		return fail(ps, "expected 'clock.NAME.value' after 'map ='");
	if (next(ps) || expect(ps, ".") || !expect_ident(ps) || expect(ps, ".") ||
	    !expect_ident(ps))
		return -1;
	return 0;
}

/* An alignment in bits: a power of two up to 4096. */
static int check_align(struct parser *ps, uint64_t v)
{
	if (v < 1 || v > 4096 || (v & (v - 1)))
		return fail(ps, "bad align %llu", (unsigned long long)v);
	return 0;
}

static int byte_order_word(struct parser *ps, const char *w, bool *be)
{
	if (!strcmp(w, "le"))
		*be = false;
	else if (!strcmp(w, "be") || !strcmp(w, "network"))
		*be = true;
	else if (!strcmp(w, "native"))
		*be = ps->md->be;
	else
		return fail(ps, "bad byte_order '%s'", w);
	return 0;
}

/* "{ key = value; ... }" after a type's keyword: each attribute to `attr`. */
static int parse_attributes(struct parser *ps, struct rd_type *t,
			    int (*attr)(struct parser *, struct rd_type *,
					const char *))
{
	const char *key;

	if (next(ps) || expect(ps, "{"))
		return -1;
	while (!is_punct(ps, "}")) {
		key = expect_ident(ps);
		if (!key || expect(ps, "=") || attr(ps, t, key) || expect(ps, ";"))
			return -1;
	}
	return next(ps);
}

/* The value of `key` in a `key = value;` inside integer { }. */
static int integer_attr(struct parser *ps, struct rd_type *t, const char *key)
{
	const char *w;
	uint64_t v = 0;
	bool b;

	if (!strcmp(key, "size") || !strcmp(key, "align")) {
		if (parse_uint(ps, &v))
			return -1;
		if (!strcmp(key, "size")) {
			if (v < 1 || v > 64)
				return fail(ps, "integer size %llu not in 1..64",
					    (unsigned long long)v);
			t->u.i.size = v;
		} else {
			if (check_align(ps, v))
				return -1;
			t->align = v;
		}
	} else if (!strcmp(key, "map")) {
		if (parse_clock_map(ps))
			return -1;
		t->u.i.clock = true;
	} else if (!strcmp(key, "base")) {
		if (ps->tok.kind == T_NUM) {
			if (parse_uint(ps, &v))
				return -1;
		} else {
			if (!(w = expect_ident(ps)))
				return -1;
			v = !strcmp(w, "hex") || !strcmp(w, "x") || !strcmp(w, "X") || !strcmp(w, "p") ? 16 :
			    !strcmp(w, "decimal") || !strcmp(w, "d") || !strcmp(w, "i") || !strcmp(w, "u") ? 10 :
			    !strcmp(w, "octal") || !strcmp(w, "o") ? 8 :
			    !strcmp(w, "binary") || !strcmp(w, "b") ? 2 : 0;
		}
		if (v != 2 && v != 8 && v != 10 && v != 16)
			return fail(ps, "bad integer base");
		t->u.i.base = v;
	} else {
		if (ps->tok.kind == T_NUM) {
			if (parse_uint(ps, &v))
				return -1;
			w = v ? "true" : "false";
		} else if (!(w = expect_ident(ps))) {
			return -1;
		}
		if (!strcmp(key, "signed")) {
			if (!parse_bool_word(w, &b))
				return fail(ps, "bad value '%s' for signed", w);
			t->u.i.is_signed = b;
		} else if (!strcmp(key, "byte_order")) {
			if (byte_order_word(ps, w, &t->be))
				return -1;
		} else if (!strcmp(key, "encoding")) {
			t->u.i.utf8 = !strcmp(w, "UTF8") || !strcmp(w, "ASCII");
		} else {
			return fail(ps, "unknown integer attribute '%s'", key);
		}
	}
	return 0;
}

/*
 * An integer or floating_point block: the trace's byte order unless it
 * says otherwise, then its attributes by attr().
 */
static struct rd_type *parse_scalar(struct parser *ps, enum rd_kind kind,
				    int (*attr)(struct parser *, struct rd_type *,
						const char *))
{
	struct rd_type *t = new_type(ps, kind);

	if (!t)
		return NULL;
	t->be = ps->md->be;
	return parse_attributes(ps, t, attr) ? NULL : t;
}

static struct rd_type *parse_integer(struct parser *ps)
{
	struct rd_type *t = parse_scalar(ps, RD_INT, integer_attr);

	if (!t)
		return NULL;
	if (!t->u.i.base)
		t->u.i.base = 10;	/* none given (integer_attr() takes 2, 8, 10, 16) */
	if (!t->u.i.size) {
		fail(ps, "integer without a size");
		return NULL;
	}
	return t;
}

/* The value of `key` in a `key = value;` of a floating_point block. */
static int float_attr(struct parser *ps, struct rd_type *t, const char *key)
{
	const char *w;
	uint64_t v = 0;

	if (!strcmp(key, "byte_order")) {
		if (!(w = expect_ident(ps)))
			return -1;
		return byte_order_word(ps, w, &t->be);
	}
	if (parse_uint(ps, &v))
		return -1;
	if (!strcmp(key, "exp_dig"))
		t->u.f.exp_dig = (unsigned int)(v < 64 ? v : 64);
	else if (!strcmp(key, "mant_dig"))
		t->u.f.mant_dig = (unsigned int)(v < 64 ? v : 64);
	else if (!strcmp(key, "align")) {
		if (check_align(ps, v))
			return -1;
		t->align = (unsigned int)v;
	} else {
		return fail(ps, "unknown floating_point attribute '%s'", key);
	}
	return 0;
}

/* Only IEEE 754 binary32 (8 + 24) and binary64 (11 + 53). */
static struct rd_type *parse_float(struct parser *ps)
{
	struct rd_type *t = parse_scalar(ps, RD_FLOAT, float_attr);

	if (!t)
		return NULL;
	if (!(t->u.f.exp_dig == 8 && t->u.f.mant_dig == 24) &&
	    !(t->u.f.exp_dig == 11 && t->u.f.mant_dig == 53)) {
		fail(ps, "floating_point with exp_dig %u and mant_dig %u: only "
		     "IEEE 754 binary32 and binary64 are supported",
		     t->u.f.exp_dig, t->u.f.mant_dig);
		return NULL;
	}
	return t;
}

static struct rd_type *parse_string(struct parser *ps)
{
	struct rd_type *t = new_type(ps, RD_STRING);

	if (!t || next(ps))
		return NULL;
	t->align = 8;
	if (!is_punct(ps, "{"))
		return t;
	if (next(ps))
		return NULL;
	while (!is_punct(ps, "}")) {
		if (!expect_ident(ps) || expect(ps, "=") || !expect_ident(ps) ||
		    expect(ps, ";"))
			return NULL;
	}
	return next(ps) ? NULL : t;
}

static struct rd_type *parse_type(struct parser *ps);
static int parse_fields(struct parser *ps, struct rd_member **out, size_t *nr,
			bool is_variant);

static unsigned int members_align(const struct rd_member *m, size_t nr)
{
	unsigned int a = 1;
	size_t i;

	for (i = 0; i < nr; i++) {
		if (m[i].type->align > a)
			a = m[i].type->align;
	}
	return a;
}

/* `align(N)` after a struct body. */
static int parse_align_suffix(struct parser *ps, unsigned int *align)
{
	uint64_t v = 0;

	if (!is_ident(ps, "align"))
		return 0;
	if (next(ps) || expect(ps, "(") || parse_uint(ps, &v) || expect(ps, ")") ||
	    check_align(ps, v))
		return -1;
	if (v > *align)
		*align = v;
	return 0;
}

static struct rd_type *parse_struct(struct parser *ps)
{
	const char *name = NULL;
	struct rd_type *t;

	if (next(ps))
		return NULL;
	if (ps->tok.kind == T_IDENT && !is_ident(ps, "align")) {
		name = ps->tok.s;
		if (next(ps))
			return NULL;
	}
	if (!is_punct(ps, "{")) {
		if (!name) {
			fail(ps, "expected '{' after 'struct'");
			return NULL;
		}
		t = find_alias(ps, name, true);
		if (!t)
			fail(ps, "unknown struct '%s'", name);
		return t;
	}
	t = new_type(ps, RD_STRUCT);
	if (!t || next(ps) ||
	    parse_fields(ps, &t->u.s.members, &t->u.s.nr, false) || next(ps))
		return NULL;
	t->align = members_align(t->u.s.members, t->u.s.nr);
	if (parse_align_suffix(ps, &t->align))
		return NULL;
	if (name && add_alias(ps, name, t, true))
		return NULL;
	return t;
}

/* One `LABEL [= V [... V]]` of an enum; `*next_v` is the implicit value. */
static int enum_entry(struct parser *ps, struct rd_enum_range *r, int64_t *next_v)
{
	if (ps->tok.kind != T_IDENT && ps->tok.kind != T_STR)
		return fail(ps, "expected an enum label, got '%s'", tok_desc(ps));
	r->label = ps->tok.s;
	if (next(ps))
		return -1;
	r->lo = r->hi = *next_v;
	if (is_punct(ps, "=")) {
		if (next(ps) || parse_int(ps, &r->lo))
			return -1;
		r->hi = r->lo;
		if (is_punct(ps, "...") && (next(ps) || parse_int(ps, &r->hi)))
			return -1;
	}
	*next_v = r->hi + 1;
	return 0;
}

static struct rd_type *parse_enum(struct parser *ps)
{
	struct rd_type *t = new_type(ps, RD_ENUM), *c;
	struct rd_enum_range *grown;
	int64_t next_v = 0;
	size_t cap = 0;

	if (!t || next(ps))
		return NULL;
	if (ps->tok.kind == T_IDENT && next(ps))	/* enum name: unused */
		return NULL;
	if (expect(ps, ":") || !(c = parse_type(ps)))
		return NULL;
	if (c->kind != RD_INT) {
		fail(ps, "enum container is not an integer");
		return NULL;
	}
	t->u.e.container = c;
	t->align = c->align;
	if (expect(ps, "{"))
		return NULL;
	while (!is_punct(ps, "}")) {
		if (t->u.e.nr == cap) {
			cap = cap ? cap * 2 : 8;
			grown = arena_alloc(&ps->md->arena, cap * sizeof(*grown));
			if (!grown) {
				fail(ps, "out of memory");
				return NULL;
			}
			if (t->u.e.nr)
				memcpy(grown, t->u.e.ranges, t->u.e.nr * sizeof(*grown));
			t->u.e.ranges = grown;
		}
		if (enum_entry(ps, &t->u.e.ranges[t->u.e.nr++], &next_v))
			return NULL;
		if (!is_punct(ps, ",") && !is_punct(ps, "}")) {
			fail(ps, "expected ',' or '}' in enum, got '%s'", tok_desc(ps));
			return NULL;
		}
		if (is_punct(ps, ",") && next(ps))
			return NULL;
	}
	return next(ps) ? NULL : t;
}

static struct rd_type *parse_variant(struct parser *ps)
{
	struct rd_type *t = new_type(ps, RD_VARIANT);

	if (!t || next(ps))
		return NULL;
	if (ps->tok.kind == T_IDENT && next(ps))	/* variant name: unused */
		return NULL;
	if (expect(ps, "<") || !(t->u.v.tag = expect_ident(ps)) || expect(ps, ">"))
		return NULL;
	t->u.v.tag_index = -1;
	if (expect(ps, "{") ||
	    parse_fields(ps, &t->u.v.options, &t->u.v.nr, true) || next(ps))
		return NULL;
	return t;
}

/* A type specifier. */
static struct rd_type *parse_type(struct parser *ps)
{
	struct rd_type *t;

	if (ps->tok.kind != T_IDENT) {
		fail(ps, "expected a type, got '%s'", tok_desc(ps));
		return NULL;
	}
	if (++ps->depth > MAX_DEPTH) {
		fail(ps, "types nested too deeply");
		return NULL;
	}
	if (is_ident(ps, "integer"))
		t = parse_integer(ps);
	else if (is_ident(ps, "string"))
		t = parse_string(ps);
	else if (is_ident(ps, "struct"))
		t = parse_struct(ps);
	else if (is_ident(ps, "enum"))
		t = parse_enum(ps);
	else if (is_ident(ps, "variant"))
		t = parse_variant(ps);
	else if (is_ident(ps, "floating_point"))
		t = parse_float(ps);
	else if ((t = find_alias(ps, ps->tok.s, false)))
		t = next(ps) ? NULL : t;
	else
		fail(ps, "unknown type '%s'", ps->tok.s);
	ps->depth--;
	return t;
}

static const char *display_name(const char *name)
{
	return name[0] == '_' ? name + 1 : name;
}

static int sibling_index(const struct rd_member *m, size_t nr, const char *name)
{
	size_t i;

	for (i = nr; i-- > 0;) {
		if (!strcmp(m[i].name, display_name(name)))
			return i < 64 ? (int)i : -1;
	}
	return -1;
}

static struct rd_type *parse_dims(struct parser *ps, struct rd_type *elem,
				  const struct rd_member *sib, size_t nr,
				  unsigned int depth)
{
	struct rd_type *t, *inner;

	if (!is_punct(ps, "["))
		return elem;
	if (depth == 32) {
		fail(ps, "more than 32 array dimensions");
		return NULL;
	}
	if (next(ps))
		return NULL;
	if (ps->tok.kind == T_NUM) {
		t = new_type(ps, RD_ARRAY);
		if (!t || parse_uint(ps, &t->u.a.len))
			return NULL;
	} else {
		t = new_type(ps, RD_SEQUENCE);
		if (!t || !(t->u.a.len_name = expect_ident(ps)))
			return NULL;
		t->u.a.len_index = sibling_index(sib, nr, t->u.a.len_name);
		if (t->u.a.len_index < 0) {
			fail(ps, "sequence length '%s' is not an earlier field",
			     t->u.a.len_name);
			return NULL;
		}
	}
	if (expect(ps, "]"))
		return NULL;
	inner = parse_dims(ps, elem, sib, nr, depth + 1);
	if (!inner)
		return NULL;
	t->u.a.elem = inner;
	t->align = inner->align;
	return t;
}

/*
 * `[N]` or `[LEN_FIELD]` suffixes.  As in C, `T x[2][3]` is 2 arrays of
 * 3 T: the first suffix is the outermost dimension, so the rest of the
 * suffixes apply to its element.  At most 32 dimensions.
 */
static struct rd_type *parse_array_suffix(struct parser *ps, struct rd_type *elem,
					  const struct rd_member *sib, size_t nr)
{
	return parse_dims(ps, elem, sib, nr, 0);
}

/* Resolve the tag of a variant member against its earlier siblings. */
static int resolve_tag(struct parser *ps, struct rd_type *t,
		       const struct rd_member *sib, size_t nr)
{
	int i;

	if (t->kind != RD_VARIANT || t->u.v.tag_index >= 0)
		return 0;
	i = sibling_index(sib, nr, t->u.v.tag);
	if (i < 0 || sib[i].type->kind != RD_ENUM)
		return fail(ps, "variant tag '%s' is not an earlier enum field",
			    t->u.v.tag);
	t->u.v.tag_index = i;
	return 0;
}

/* Members up to (not past) the closing '}'. */
static int parse_fields(struct parser *ps, struct rd_member **out, size_t *nr,
			bool is_variant)
{
	struct rd_member *m = NULL, *grown;
	size_t cap = 0;

	*nr = 0;
	while (!is_punct(ps, "}")) {
		struct rd_type *t = parse_type(ps);
		const char *name;

		if (!t || !(name = expect_ident(ps)))
			return -1;
		if (*nr == cap) {
			cap = cap ? cap * 2 : 8;
			grown = arena_alloc(&ps->md->arena, cap * sizeof(*grown));
			if (!grown)
				return fail(ps, "out of memory");
			if (*nr)
				memcpy(grown, m, *nr * sizeof(*grown));
			m = grown;
		}
		t = parse_array_suffix(ps, t, m, *nr);
		if (!t || (!is_variant && resolve_tag(ps, t, m, *nr)))
			return -1;
		m[*nr].name = display_name(name);
		m[*nr].name_len = strlen(m[*nr].name);
		m[*nr].type = t;
		(*nr)++;
		if (expect(ps, ";"))
			return -1;
	}
	*out = m;
	return 0;
}

/* ---- blocks ---- */

/* KEY of an entry: IDENT ('.' IDENT)*, joined with '.'. */
static const char *parse_key(struct parser *ps)
{
	char buf[128];
	const char *w;
	size_t n = 0;

	for (;;) {
		if (!(w = expect_ident(ps)))
			return NULL;
		if (n + strlen(w) + 2 > sizeof(buf)) {
			fail(ps, "key too long");
			return NULL;
		}
		n += sprintf(buf + n, "%s%s", n ? "." : "", w);
		if (!is_punct(ps, "."))
			break;
		if (next(ps))
			return NULL;
	}
	return pstrndup(ps, buf, n);
}

struct value {
	enum tok_kind kind;	/* T_NUM (num), T_STR or T_IDENT (s) */
	const char *s;
	int64_t num;
};

static int parse_value(struct parser *ps, struct value *v)
{
	v->kind = ps->tok.kind;
	if (ps->tok.kind == T_NUM || is_punct(ps, "-") || is_punct(ps, "+")) {
		v->kind = T_NUM;
		return parse_int(ps, &v->num);
	}
	if (ps->tok.kind == T_STR || ps->tok.kind == T_IDENT) {
		v->s = ps->tok.s;
		if (next(ps))
			return -1;
		/* clock.NAME.value and the like: keep the first word */
		while (v->kind == T_IDENT && is_punct(ps, ".")) {
			if (next(ps) || !expect_ident(ps))
				return -1;
		}
		return 0;
	}
	return fail(ps, "expected a value, got '%s'", tok_desc(ps));
}

static int parse_uuid(struct parser *ps, const char *s, uint8_t out[16])
{
	unsigned int i, b;

	if (strlen(s) != 36)
		return fail(ps, "bad uuid \"%s\"", s);
	for (i = 0; i < 16; i++) {
		if (*s == '-')
			s++;
		if (sscanf(s, "%2x", &b) != 1 || !strchr("0123456789abcdefABCDEF", s[0]) ||
		    !strchr("0123456789abcdefABCDEF", s[1]) || !s[0] || !s[1])
			return fail(ps, "bad uuid");
		out[i] = b;
		s += 2;
	}
	return 0;
}

typedef int (*entry_fn)(struct parser *ps, void *obj, const char *key,
			const struct value *v, struct rd_type *t);

/* '{' entry* '}' ';' calling `fn` for each entry. */
static int parse_block(struct parser *ps, entry_fn fn, void *obj)
{
	if (expect(ps, "{"))
		return -1;
	while (!is_punct(ps, "}")) {
		const char *key = parse_key(ps);
		struct rd_type *t = NULL;
		struct value v = { 0 };

		if (!key)
			return -1;
		if (is_punct(ps, ":=")) {
			if (next(ps) || !(t = parse_type(ps)))
				return -1;
		} else if (expect(ps, "=") || parse_value(ps, &v)) {
			return -1;
		}
		if (fn(ps, obj, key, &v, t) || expect(ps, ";"))
			return -1;
	}
	return next(ps) || expect(ps, ";");
}

static int want_num(struct parser *ps, const char *key, const struct value *v)
{
	if (v->kind != T_NUM)
		return fail(ps, "'%s' needs a number", key);
	return 0;
}

static int trace_entry(struct parser *ps, void *obj, const char *key,
		       const struct value *v, struct rd_type *t)
{
	struct rd_metadata *md = obj;

	if (!strcmp(key, "packet.header")) {
		if (!t || t->kind != RD_STRUCT)
			return fail(ps, "packet.header must be a struct");
		md->packet_header = t;
	} else if (!strcmp(key, "uuid")) {
		if (v->kind != T_STR || parse_uuid(ps, v->s, md->uuid))
			return fail(ps, "bad trace uuid");
		md->has_uuid = true;
	} else if (!strcmp(key, "byte_order")) {
		if (v->kind != T_IDENT)
			return fail(ps, "bad byte_order");
		return byte_order_word(ps, v->s, &md->be);
	} else if (!strcmp(key, "major") || !strcmp(key, "minor")) {
		if (want_num(ps, key, v))
			return -1;
		if ((!strcmp(key, "major") && v->num != 1) ||
		    (!strcmp(key, "minor") && v->num != 8))
			return fail(ps, "unsupported CTF version");
	}
	return 0;
}

static int env_entry(struct parser *ps, void *obj, const char *key,
		     const struct value *v, struct rd_type *t)
{
	struct rd_metadata *md = obj;
	struct rd_env *grown;

	(void)obj;
	if (t || v->kind == T_IDENT)
		return fail(ps, "env '%s' must be a string or an integer", key);
	grown = arena_alloc(&md->arena, (md->nr_env + 1) * sizeof(*grown));
	if (!grown)
		return fail(ps, "out of memory");
	if (md->nr_env)
		memcpy(grown, md->env, md->nr_env * sizeof(*grown));
	md->env = grown;
	grown[md->nr_env].key = key;
	grown[md->nr_env].str = v->kind == T_STR ? v->s : NULL;
	grown[md->nr_env].num = v->num;
	md->nr_env++;
	return 0;
}

static int clock_entry(struct parser *ps, void *obj, const char *key,
		       const struct value *v, struct rd_type *t)
{
	struct rd_clock *c = obj;

	if (t)
		return fail(ps, "unexpected type in clock");
	if (!strcmp(key, "name")) {
		c->name = v->s;
	} else if (!strcmp(key, "uuid")) {
		if (v->kind != T_STR || parse_uuid(ps, v->s, c->uuid))
			return fail(ps, "bad clock uuid");
		c->has_uuid = true;
	} else if (!strcmp(key, "freq")) {
		if (want_num(ps, key, v))
			return -1;
		if (v->num <= 0)
			return fail(ps, "clock freq must be positive");
		c->freq = v->num;
	} else if (!strcmp(key, "offset_s")) {
		if (want_num(ps, key, v))
			return -1;
		c->offset_s = v->num;
	} else if (!strcmp(key, "offset")) {
		if (want_num(ps, key, v))
			return -1;
		c->offset = (uint64_t)v->num;
		if (v->num < 0)
			return fail(ps, "negative clock offset is not supported");
	} else if (!strcmp(key, "absolute")) {
		if (v->kind == T_NUM)
			c->absolute = v->num != 0;
		else if (v->kind != T_IDENT || !parse_bool_word(v->s, &c->absolute))
			return fail(ps, "bad clock absolute");
	}
	return 0;
}

/* A scope of a stream or event block (`NAME := struct {...};`) and where it goes. */
struct scope_slot {
	const char *name;
	struct rd_type **slot;
};

/* `key := t` in a `what` block: the slot of that scope, which takes a struct. */
static int set_scope(struct parser *ps, const char *what, const char *key,
		     struct rd_type *t, const struct scope_slot *scopes,
		     size_t nr)
{
	size_t i;

	if (t->kind != RD_STRUCT)
		return fail(ps, "%s must be a struct", key);
	for (i = 0; i < nr; i++) {
		if (!strcmp(key, scopes[i].name)) {
			*scopes[i].slot = t;
			return 0;
		}
	}
	return fail(ps, "unknown %s scope '%s'", what, key);
}

struct stream_tmp {
	struct rd_stream_class sc;
	bool has_id;
};

static int stream_entry(struct parser *ps, void *obj, const char *key,
			const struct value *v, struct rd_type *t)
{
	struct stream_tmp *s = obj;
	const struct scope_slot scopes[] = {
		{ "packet.context", &s->sc.packet_context },
		{ "event.header", &s->sc.event_header },
		{ "event.context", &s->sc.event_context },
	};

	if (!strcmp(key, "id")) {
		if (want_num(ps, key, v) || v->num < 0 || v->num > 0xffff)
			return fail(ps, "bad stream id");
		s->sc.id = v->num;
		s->has_id = true;
		return 0;
	}
	if (!t)
		return fail(ps, "unknown stream attribute '%s'", key);
	return set_scope(ps, "stream", key, t, scopes,
			 sizeof(scopes) / sizeof(scopes[0]));
}

struct event_tmp {
	struct rd_event_class ec;
	uint64_t stream_id;
	bool has_id;
};

static int event_entry(struct parser *ps, void *obj, const char *key,
		       const struct value *v, struct rd_type *t)
{
	struct event_tmp *e = obj;

	if (t) {
		const struct scope_slot scopes[] = {
			{ "fields", &e->ec.fields },
			{ "context", &e->ec.context },
		};

		return set_scope(ps, "event", key, t, scopes,
				 sizeof(scopes) / sizeof(scopes[0]));
	}
	if (!strcmp(key, "name")) {
		if (v->kind != T_STR && v->kind != T_IDENT)
			return fail(ps, "bad event name");
		e->ec.name = v->s;
	} else if (!strcmp(key, "id")) {
		if (want_num(ps, key, v) || v->num < 0 || v->num > 1000000)
			return fail(ps, "bad event id");
		e->ec.id = v->num;
		e->has_id = true;
	} else if (!strcmp(key, "stream_id")) {
		if (want_num(ps, key, v) || v->num < 0 || v->num > 0xffff)
			return fail(ps, "bad event stream_id");
		e->stream_id = v->num;
	} else if (!strcmp(key, "loglevel")) {
		if (want_num(ps, key, v))
			return -1;
		e->ec.loglevel = v->num;
	}
	return 0;
}

static struct rd_stream_class *stream_slot(struct parser *ps, uint64_t id)
{
	struct rd_metadata *md = ps->md;
	struct rd_stream_class *grown;

	if (id >= md->nr_streams) {
		grown = arena_alloc(&md->arena, (id + 1) * sizeof(*grown));
		if (!grown) {
			fail(ps, "out of memory");
			return NULL;
		}
		if (md->nr_streams)
			memcpy(grown, md->streams, md->nr_streams * sizeof(*grown));
		md->streams = grown;
		md->nr_streams = id + 1;
	}
	return &md->streams[id];
}

static int add_event(struct parser *ps, struct event_tmp *e)
{
	struct rd_stream_class *sc = stream_slot(ps, e->stream_id);
	struct rd_event_class **grown, *ec;

	if (!sc)
		return -1;
	if (!e->ec.name || !e->has_id)
		return fail(ps, "event without a name or an id");
	if (e->ec.id >= sc->nr_events) {
		size_t n = e->ec.id + 1;

		grown = arena_alloc(&ps->md->arena, n * sizeof(*grown));
		if (!grown)
			return fail(ps, "out of memory");
		if (sc->nr_events)
			memcpy(grown, sc->events, sc->nr_events * sizeof(*grown));
		sc->events = grown;
		sc->nr_events = n;
	}
	if (sc->events[e->ec.id])
		return fail(ps, "event id %llu declared twice in stream %llu",
			    (unsigned long long)e->ec.id,
			    (unsigned long long)e->stream_id);
	ec = arena_alloc(&ps->md->arena, sizeof(*ec));
	if (!ec)
		return fail(ps, "out of memory");
	*ec = e->ec;
	sc->events[e->ec.id] = ec;
	return 0;
}

static int add_stream(struct parser *ps, struct stream_tmp *s)
{
	struct rd_stream_class *sc = stream_slot(ps, s->sc.id);

	if (!sc)
		return -1;
	if (sc->defined)
		return fail(ps, "stream %llu declared twice", (unsigned long long)s->sc.id);
	sc->packet_context = s->sc.packet_context;
	sc->event_header = s->sc.event_header;
	sc->event_context = s->sc.event_context;
	sc->id = s->sc.id;
	sc->defined = true;
	return 0;
}

static void clock_normalize(struct rd_clock *c);

/*
 * The clock's origin, offset_s seconds plus offset cycles, must be a
 * time in ns that fits in 64 bits (babeltrace2 refuses such a trace
 * too, at its first packet).
 */
static int clock_check(struct parser *ps, struct rd_clock *c)
{
	int64_t s = c->offset_s, ns;

	if (c->offset >= c->freq &&
	    __builtin_add_overflow(s, (int64_t)(c->offset / c->freq), &s))
		goto range;
	if (__builtin_mul_overflow(s, 1000000000LL, &ns) ||
	    __builtin_add_overflow(ns, 1000000000LL, &ns))
		goto range;
	clock_normalize(c);
	return 0;
range:
	return fail(ps, "clock offset out of range (offset_s = %" PRId64 ", offset = %" PRIu64 ")",
		    c->offset_s, c->offset);
}

static int parse_top_block(struct parser *ps)
{
	const char *w = ps->tok.s;

	if (next(ps))
		return -1;
	if (!strcmp(w, "trace"))
		return parse_block(ps, trace_entry, ps->md);
	if (!strcmp(w, "env"))
		return parse_block(ps, env_entry, ps->md);
	if (!strcmp(w, "clock")) {
		if (ps->md->has_clock)
			return fail(ps, "more than one clock is not supported");
		ps->md->has_clock = true;
		ps->md->clock.freq = 1000000000;
		return parse_block(ps, clock_entry, &ps->md->clock) ||
		       clock_check(ps, &ps->md->clock);
	}
	if (!strcmp(w, "stream")) {
		struct stream_tmp s = { 0 };

		return parse_block(ps, stream_entry, &s) || add_stream(ps, &s);
	}
	if (!strcmp(w, "event")) {
		struct event_tmp e = { .ec.loglevel = -1 };

		return parse_block(ps, event_entry, &e) || add_event(ps, &e);
	}
	/* callsite and unknown blocks: skip, as babeltrace2 does callsite */
	return fail(ps, "unknown block '%s'", w);
}

static int parse_typealias(struct parser *ps, bool is_typedef)
{
	struct rd_type *t;
	const char *name;

	if (next(ps) || !(t = parse_type(ps)))
		return -1;
	if (!is_typedef && expect(ps, ":="))
		return -1;
	if (!(name = expect_ident(ps)))
		return -1;
	if (is_punct(ps, "["))
		return fail(ps, "arrays in typealias are not supported");
	return add_alias(ps, name, t, false) || expect(ps, ";");
}

static int parse_top(struct parser *ps)
{
	while (ps->tok.kind != T_EOF) {
		if (is_ident(ps, "typealias") || is_ident(ps, "typedef")) {
			if (parse_typealias(ps, is_ident(ps, "typedef")))
				return -1;
		} else if (is_ident(ps, "trace") || is_ident(ps, "env") ||
			   is_ident(ps, "clock") || is_ident(ps, "stream") ||
			   is_ident(ps, "event")) {
			if (parse_top_block(ps))
				return -1;
		} else if (is_ident(ps, "struct") || is_ident(ps, "enum") ||
			   is_ident(ps, "variant")) {
			if (!parse_type(ps) || expect(ps, ";"))
				return -1;
		} else {
			return fail(ps, "unexpected '%s' at top level", tok_desc(ps));
		}
	}
	return 0;
}

/* Stream classes declared by events but never defined are errors. */
static int check_streams(struct parser *ps)
{
	struct rd_metadata *md = ps->md;
	size_t i;

	if (!md->has_clock)
		return fail(ps, "no clock block");
	for (i = 0; i < md->nr_streams; i++) {
		if (!md->streams[i].defined && md->streams[i].nr_events)
			return fail(ps, "events of undeclared stream %zu", i);
	}
	return 0;
}

static void clock_normalize(struct rd_clock *c)
{
	if (c->offset >= c->freq) {
		c->offset_s += c->offset / c->freq;
		c->offset %= c->freq;
	}
}

/*
 * Cycles to ns the way babeltrace2 2.0 does it, so that the printed
 * times match to the nanosecond: the offset in seconds exactly, then the
 * offset cycles and the value each converted through a double and
 * truncated (exact when freq is 1 GHz).
 */
static uint64_t cycles_to_ns(uint64_t freq, uint64_t cycles)
{
	double ns;

	if (freq == 1000000000)
		return cycles;
	ns = (1e9 * (double)cycles) / (double)freq;
	return ns >= 18446744073709551615.0 ? UINT64_MAX : (uint64_t)ns;
}

int rd_metadata_parse(struct rd_metadata *md, const char *text, size_t len,
		      char *err, size_t errlen)
{
	static const char sig[] = "/* CTF 1.8";
	struct parser ps = {
		.p = text, .end = text + len, .line = 1, .md = md,
		.err = err, .errlen = errlen,
	};

	memset(md, 0, sizeof(*md));
	ps.tok.line = 1;
	if (len >= 4 && (!memcmp(text, "\x57\x1d\xd1\x75", 4) ||
			 !memcmp(text, "\x75\xd1\x1d\x57", 4))) {
		fail(&ps, "packetized metadata is not supported");
	} else if (len < sizeof(sig) - 1 || memcmp(text, sig, sizeof(sig) - 1)) {
		fail(&ps, "missing \"/* CTF 1.8\" signature");
	} else if (memchr(text, '\0', len)) {
		fail(&ps, "NUL byte in metadata");
	} else if (!next(&ps) && !parse_top(&ps) && !check_streams(&ps)) {
		rd_clock_set_origin(&md->clock);
		return 0;
	}
	rd_metadata_release(md);
	return -1;
}

void rd_metadata_release(struct rd_metadata *md)
{
	size_t i, j;

	for (i = 0; i < md->nr_streams; i++) {
		struct rd_stream_class *sc = &md->streams[i];

		free(sc->plan_context);
		free(sc->plan_header);
		for (j = 0; j < sc->nr_events; j++) {
			if (sc->events[j]) {
				free(sc->events[j]->plan_context);
				free(sc->events[j]->plan_fields);
				free(sc->events[j]->head);
			}
		}
	}
	arena_free(md->arena);
	memset(md, 0, sizeof(*md));
}

const struct rd_env *rd_metadata_env(const struct rd_metadata *md, const char *key)
{
	size_t i;

	for (i = md->nr_env; i-- > 0;) {
		if (!strcmp(md->env[i].key, key))
			return &md->env[i];
	}
	return NULL;
}

const struct rd_stream_class *rd_metadata_stream(const struct rd_metadata *md,
						 uint64_t id)
{
	if (id >= md->nr_streams || !md->streams[id].defined)
		return NULL;
	return &md->streams[id];
}


void rd_clock_set_origin(struct rd_clock *c)
{
	c->origin_ns = c->offset_s * 1000000000LL + (int64_t)cycles_to_ns(c->freq, c->offset);
}

/* Saturated at INT64_MAX: a corrupt timestamp cannot overflow. */
int64_t rd_clock_ns(const struct rd_clock *c, uint64_t cycles)
{
	uint64_t ns = cycles_to_ns(c->freq, cycles);
	int64_t t;

	if (ns > (uint64_t)INT64_MAX || __builtin_add_overflow(c->origin_ns, (int64_t)ns, &t))
		return INT64_MAX;
	return t;
}
