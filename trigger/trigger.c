/*
 * trigger.c - parsing, evaluating and translating `--trigger` specs
 * (trigger.h): a recursive-descent parser over the comparison subset of
 * LTTng's filter language.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trigger.h"

enum node_kind { N_OR, N_AND, N_NOT, N_CMP };
enum cmp_op { OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE };

struct trig_expr {
	enum node_kind kind;
	struct trig_expr *a, *b;	/* N_OR, N_AND; N_NOT: a */
	/* N_CMP */
	char *field;
	int column;
	enum cmp_op op;
	bool is_str;
	int64_t i;
	char *s;		/* a glob (unescaped '*', escaped "\*") */
};

struct parser {
	const char *text;	/* the whole spec, for columns */
	const char *p;
	char *err;
	size_t errlen;
	bool failed;
};

static const char *const op_text[] = { "==", "!=", "<", "<=", ">", ">=" };

static void fail(struct parser *ps, const char *at, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (ps->failed)
		return;
	ps->failed = true;
	n = snprintf(ps->err, ps->errlen, "column %d: ", (int)(at - ps->text) + 1);
	va_start(ap, fmt);
	if (n > 0 && (size_t)n < ps->errlen)
		vsnprintf(ps->err + n, ps->errlen - (size_t)n, fmt, ap);
	va_end(ap);
}

static void skip_blanks(struct parser *ps)
{
	while (isspace((unsigned char)*ps->p))
		ps->p++;
}

static bool take(struct parser *ps, const char *tok)
{
	skip_blanks(ps);
	if (strncmp(ps->p, tok, strlen(tok)))
		return false;
	ps->p += strlen(tok);
	return true;
}

static struct trig_expr *node(enum node_kind kind, struct trig_expr *a, struct trig_expr *b)
{
	struct trig_expr *e = calloc(1, sizeof(*e));

	if (!e)
		abort();
	e->kind = kind;
	e->a = a;
	e->b = b;
	return e;
}

static void expr_free(struct trig_expr *e)
{
	if (!e)
		return;
	expr_free(e->a);
	expr_free(e->b);
	free(e->field);
	free(e->s);
	free(e);
}

static char *identifier(struct parser *ps)
{
	const char *start;
	char *id;

	skip_blanks(ps);
	start = ps->p;
	if (!isalpha((unsigned char)*ps->p) && *ps->p != '_') {
		fail(ps, ps->p, "a field name was expected%s",
		     *ps->p == '$' ? " ($ctx and $app fields are not supported here)" : "");
		return NULL;
	}
	while (isalnum((unsigned char)*ps->p) || *ps->p == '_')
		ps->p++;
	id = strndup(start, (size_t)(ps->p - start));
	if (!id)
		abort();
	return id;
}

static bool comparison(struct parser *ps, enum cmp_op *op)
{
	static const enum cmp_op order[] = { OP_EQ, OP_NE, OP_LE, OP_GE, OP_LT, OP_GT };
	size_t i;

	for (i = 0; i < sizeof(order) / sizeof(*order); i++) {
		if (take(ps, op_text[order[i]])) {
			*op = order[i];
			return true;
		}
	}
	return false;
}

/* "..." with \" and \\ unescaped; "\*" kept as is (a literal star). */
static char *string_literal(struct parser *ps)
{
	const char *start = ps->p;
	size_t n = 0;
	char *s = malloc(strlen(ps->p) + 1);

	if (!s)
		abort();
	for (ps->p++; *ps->p && *ps->p != '"'; ps->p++) {
		if (*ps->p == '\\' && (ps->p[1] == '"' || ps->p[1] == '\\'))
			ps->p++;
		else if (*ps->p == '\\' && ps->p[1] == '*')
			s[n++] = *ps->p++;
		s[n++] = *ps->p;
	}
	if (*ps->p != '"') {
		fail(ps, start, "string not terminated");
		free(s);
		return NULL;
	}
	ps->p++;
	s[n] = '\0';
	return s;
}

static bool int_literal(struct parser *ps, int64_t *v)
{
	const char *start = ps->p;
	char *end;

	errno = 0;
	*v = strtoll(ps->p, &end, 0);
	if (end == ps->p || errno || isalnum((unsigned char)*end) || *end == '.') {
		fail(ps, start, "an integer or a \"string\" was expected");
		return false;
	}
	ps->p = end;
	return true;
}

static struct trig_expr *cmp(struct parser *ps)
{
	struct trig_expr *e = node(N_CMP, NULL, NULL);

	skip_blanks(ps);
	e->column = (int)(ps->p - ps->text) + 1;
	e->field = identifier(ps);
	if (!e->field)
		goto bad;
	if (!comparison(ps, &e->op)) {
		fail(ps, ps->p, "a comparison (== != < <= > >=) was expected after '%s'", e->field);
		goto bad;
	}
	skip_blanks(ps);
	if (*ps->p == '"') {
		e->is_str = true;
		e->s = string_literal(ps);
		if (!e->s)
			goto bad;
		if (e->op != OP_EQ && e->op != OP_NE) {
			fail(ps, ps->p - 1, "strings compare with == and != only");
			goto bad;
		}
	} else if (!int_literal(ps, &e->i)) {
		goto bad;
	}
	return e;
bad:
	expr_free(e);
	return NULL;
}

static struct trig_expr *or_expr(struct parser *ps);

static struct trig_expr *unary(struct parser *ps)
{
	struct trig_expr *e;

	if (take(ps, "!") && !(*ps->p == '=')) {
		e = unary(ps);
		return e ? node(N_NOT, e, NULL) : NULL;
	}
	if (take(ps, "(")) {
		e = or_expr(ps);
		if (e && !take(ps, ")")) {
			fail(ps, ps->p, "')' was expected");
			expr_free(e);
			return NULL;
		}
		return e;
	}
	return cmp(ps);
}

/* operand (op operand)*, left-associative: `kind` nodes. */
static struct trig_expr *chain(struct parser *ps, const char *op,
			       enum node_kind kind,
			       struct trig_expr *(*operand)(struct parser *))
{
	struct trig_expr *e = operand(ps), *r;

	while (e && take(ps, op)) {
		r = operand(ps);
		if (!r) {
			expr_free(e);
			return NULL;
		}
		e = node(kind, e, r);
	}
	return e;
}

static struct trig_expr *and_expr(struct parser *ps)
{
	return chain(ps, "&&", N_AND, unary);
}

static struct trig_expr *or_expr(struct parser *ps)
{
	return chain(ps, "||", N_OR, and_expr);
}

static bool event_char_ok(char c)
{
	return isalnum((unsigned char)c) || strchr("_:.-*?[]", c);
}

int trig_parse(const char *text, struct trigger *t, char *err, size_t errlen)
{
	struct parser ps = { .text = text, .p = text, .err = err, .errlen = errlen };
	const char *start;

	memset(t, 0, sizeof(*t));
	skip_blanks(&ps);
	start = ps.p;
	while (*ps.p && event_char_ok(*ps.p))
		ps.p++;
	if (ps.p == start) {
		fail(&ps, ps.p, "an event name was expected");
		return -1;
	}
	t->event = strndup(start, (size_t)(ps.p - start));
	if (!t->event)
		abort();
	skip_blanks(&ps);
	if (*ps.p && (strncmp(ps.p, "if", 2) || (ps.p[2] && !isspace((unsigned char)ps.p[2])))) {
		fail(&ps, ps.p, "'if FILTER' or the end was expected after the event name");
		trig_free(t);
		return -1;
	}
	if (*ps.p) {
		ps.p += 2;
		t->filter = or_expr(&ps);
		skip_blanks(&ps);
		if (t->filter && *ps.p)
			fail(&ps, ps.p, "unexpected '%.10s'", ps.p);
		if (ps.failed) {
			trig_free(t);
			return -1;
		}
	}
	return 0;
}

void trig_free(struct trigger *t)
{
	free(t->event);
	expr_free(t->filter);
	memset(t, 0, sizeof(*t));
}

bool trig_is_user(const struct trigger *t)
{
	return strchr(t->event, ':') != NULL;
}

bool trig_event_matches(const struct trigger *t, const char *name)
{
	return !fnmatch(t->event, name, 0);
}

/* LTTng's string match: '*' any run, "\*" a star, everything else itself. */
static bool glob_match(const char *pat, const char *s, size_t len)
{
	const char *star = NULL, *back = NULL, *end = s + len;

	while (s < end) {
		if (*pat == '*') {
			star = ++pat;
			back = s;
			continue;
		}
		if (*pat == '\\' && pat[1] == '*' && *s == '*') {
			pat += 2;
			s++;
			continue;
		}
		if (*pat && *pat != '\\' && *pat == *s) {
			pat++;
			s++;
			continue;
		}
		if (!star)
			return false;
		pat = star;	/* the last star takes one more character */
		s = ++back;
	}
	while (*pat == '*')
		pat++;
	return !*pat;
}

static bool str_equal(const struct trig_expr *e, const struct trig_value *v)
{
	return glob_match(e->s, v->s, v->len);
}

static int eval(const struct trig_expr *e, trig_field_fn get, void *arg)
{
	struct trig_value v;
	int a;

	switch (e->kind) {
	case N_OR:
		a = eval(e->a, get, arg);
		return a ? a : eval(e->b, get, arg);
	case N_AND:
		a = eval(e->a, get, arg);
		return a != 1 ? a : eval(e->b, get, arg);
	case N_NOT:
		a = eval(e->a, get, arg);
		return a < 0 ? a : !a;
	default:
		break;
	}
	if (get(arg, e->field, &v) || v.is_str != e->is_str)
		return -1;
	if (e->is_str)
		return (e->op == OP_EQ) == str_equal(e, &v);
	switch (e->op) {
	case OP_EQ: return v.i == e->i;
	case OP_NE: return v.i != e->i;
	case OP_LT: return v.i < e->i;
	case OP_LE: return v.i <= e->i;
	case OP_GT: return v.i > e->i;
	default: return v.i >= e->i;
	}
}

int trig_eval(const struct trigger *t, trig_field_fn get, void *arg)
{
	return t->filter ? eval(t->filter, get, arg) : 1;
}

static int fields(const struct trig_expr *e, int (*cb)(void *, const char *, int), void *arg)
{
	int ret;

	if (!e)
		return 0;
	if (e->kind == N_CMP)
		return cb(arg, e->field, e->column);
	ret = fields(e->a, cb, arg);
	return ret ? ret : fields(e->b, cb, arg);
}

int trig_fields(const struct trigger *t, int (*cb)(void *arg, const char *name, int column),
		void *arg)
{
	return fields(t->filter, cb, arg);
}

/* Append to the output; false when it is full. */
static bool out_add(char *out, size_t len, size_t *n, const char *fmt, ...)
{
	va_list ap;
	int k;

	va_start(ap, fmt);
	k = vsnprintf(out + *n, len - *n, fmt, ap);
	va_end(ap);
	if (k < 0 || (size_t)k >= len - *n)
		return false;
	*n += (size_t)k;
	return true;
}

static int to_ftrace(const struct trig_expr *e, trig_map_fn map, void *arg, char *out,
		     size_t len, size_t *n, char *err, size_t errlen)
{
	static const char *const join[] = { [N_OR] = " || ", [N_AND] = " && " };
	char name[128];
	int64_t bias = 0;
	bool is_str = false;
	int ret;

	if (e->kind == N_NOT) {
		if (!out_add(out, len, n, "!("))
			return -ENOSPC;
		ret = to_ftrace(e->a, map, arg, out, len, n, err, errlen);
		return ret ? ret : out_add(out, len, n, ")") ? 0 : -ENOSPC;
	}
	if (e->kind != N_CMP) {
		if (!out_add(out, len, n, "("))
			return -ENOSPC;
		ret = to_ftrace(e->a, map, arg, out, len, n, err, errlen);
		if (!ret && !out_add(out, len, n, "%s", join[e->kind]))
			ret = -ENOSPC;
		if (!ret)
			ret = to_ftrace(e->b, map, arg, out, len, n, err, errlen);
		return ret ? ret : out_add(out, len, n, ")") ? 0 : -ENOSPC;
	}
	if (map(arg, e->field, name, sizeof(name), &bias, &is_str)) {
		snprintf(err, errlen, "column %d: no field '%s' the kernel can filter on",
			 e->column, e->field);
		return -EINVAL;
	}
	if (is_str != e->is_str) {
		snprintf(err, errlen, "column %d: '%s' is %s", e->column, e->field,
			 is_str ? "a string" : "an integer");
		return -EINVAL;
	}
	if (!e->is_str)
		return out_add(out, len, n, "%s %s %" PRId64, name, op_text[e->op], e->i + bias) ?
		       0 : -ENOSPC;
	/* ftrace globs with '~'; a literal star cannot be said there. */
	if (strstr(e->s, "\\*")) {
		snprintf(err, errlen, "column %d: the kernel's filters have no literal '*'",
			 e->column);
		return -EINVAL;
	}
	if (!strchr(e->s, '*'))
		return out_add(out, len, n, "%s %s \"%s\"", name, op_text[e->op], e->s) ?
		       0 : -ENOSPC;
	return out_add(out, len, n, e->op == OP_EQ ? "%s ~ \"%s\"" : "!(%s ~ \"%s\")", name,
		       e->s) ? 0 : -ENOSPC;
}

int trig_to_ftrace(const struct trigger *t, trig_map_fn map, void *arg, char *out,
		   size_t len, char *err, size_t errlen)
{
	size_t n = 0;
	int ret;

	out[0] = '\0';
	if (!t->filter)
		return 0;
	ret = to_ftrace(t->filter, map, arg, out, len, &n, err, errlen);
	if (ret == -ENOSPC)
		snprintf(err, errlen, "the filter is too long for the kernel");
	return ret ? -1 : 0;
}
