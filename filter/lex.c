/*
 * lex.c - tokens of LTTng's filter language, with their columns.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * What LTTng's lexer accepts (lttng-tools src/common/filter): decimal,
 * octal (leading 0) and hexadecimal integers with C's u/l suffixes,
 * decimal and hexadecimal floats, "double" and 'single' quoted strings,
 * identifiers (letters, digits, '_' and ':'), $identifiers, C comments.
 * In strings, an unescaped '*' is a wildcard and `\*` a star; LTTng
 * accepts no other escape, ust also takes `\\`, `\"` and `\'`.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler.h"
#include "lex.h"

static int column(const struct lexer *lx, const char *at)
{
	return (int)(at - lx->text) + 1;
}

/* An error about the text at `at`: -1. */
#define fail(lx, at, ...) \
	filter_fail((lx)->err, column((lx), (at)), __VA_ARGS__)

/* Skip white space and comments. */
static int skip_blank(struct lexer *lx)
{
	for (;;) {
		const char *p = lx->p;

		while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
			p++;
		if (p[0] == '/' && p[1] == '*') {
			const char *end = strstr(p + 2, "*/");

			if (!end)
				return fail(lx, p, "unterminated comment");
			p = end + 2;
		} else if (p[0] == '/' && p[1] == '/') {
			p += strcspn(p, "\n");
		} else {
			lx->p = p;
			return 0;
		}
		lx->p = p;
	}
}

static const struct {
	const char *text;
	enum tok_kind kind;
} puncts[] = {
	{ "<<", TK_SHL }, { ">>", TK_SHR }, { "<=", TK_LE }, { ">=", TK_GE },
	{ "==", TK_EQ }, { "!=", TK_NE }, { "&&", TK_ANDAND }, { "||", TK_OROR },
	{ "->", TK_ARROW },
	{ "(", TK_LPAREN }, { ")", TK_RPAREN }, { "[", TK_LBRACKET },
	{ "]", TK_RBRACKET }, { ".", TK_DOT }, { "+", TK_PLUS },
	{ "-", TK_MINUS }, { "*", TK_STAR }, { "/", TK_SLASH },
	{ "%", TK_PERCENT }, { "<", TK_LT }, { ">", TK_GT }, { "&", TK_AMP },
	{ "^", TK_CARET }, { "|", TK_PIPE }, { "!", TK_BANG }, { "~", TK_TILDE },
};

static bool is_ident_char(char c, bool first)
{
	return isalpha((unsigned char)c) || c == '_' ||
	       (!first && (isdigit((unsigned char)c) || c == ':'));
}

/* The end of a number's text: digits, letters, '.', an exponent's sign. */
static const char *number_end(const char *s, bool hex)
{
	const char *q = s;

	while (isalnum((unsigned char)*q) || *q == '.' || *q == '_' ||
	       ((*q == '+' || *q == '-') && q > s &&
		strchr(hex ? "pP" : "eE", q[-1])))
		q++;
	return q;
}

static bool has_any(const char *s, size_t n, const char *set)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strchr(set, s[i]))
			return true;
	return false;
}

static int lex_float(struct lexer *lx, struct token *t, size_t n, bool hex)
{
	char buf[128];
	char *end;
	char last = n ? t->text[n - 1] : '\0';

	/* A suffix, unless an 'f' that is a hexadecimal digit (no exponent). */
	if (last && strchr("fFlL", last) &&
	    (!hex || has_any(t->text, n, "pP") || last == 'l' || last == 'L'))
		n--;
	if (n >= sizeof(buf))
		return fail(lx, t->text, "floating-point constant too long");
	memcpy(buf, t->text, n);
	buf[n] = '\0';
	errno = 0;
	t->fval = strtod(buf, &end);
	if (end != buf + n || n == 0)
		return fail(lx, t->text, "invalid floating-point constant '%.*s'",
			    (int)t->len, t->text);
	t->kind = TK_FLOAT;
	return 0;
}

/* C's integer suffixes: at most one u and one l or ll, in any order. */
static size_t int_suffix(const char *s, size_t n)
{
	size_t k = 0, us = 0, ls = 0;

	while (k < n && strchr("uUlL", s[n - 1 - k])) {
		if (strchr("uU", s[n - 1 - k]))
			us++;
		else
			ls++;
		k++;
	}
	return us <= 1 && ls <= 2 ? k : (size_t)-1;
}

/* The value of a digit in base 16 or less; 99 for anything else. */
static unsigned int digit_value(char c)
{
	static const char digits[] = "0123456789abcdef";
	const char *at = c ? strchr(digits, tolower((unsigned char)c)) : NULL;

	return at ? (unsigned int)(at - digits) : 99;
}

static int lex_int(struct lexer *lx, struct token *t, size_t n)
{
	size_t suffix = int_suffix(t->text, n), i = 0;
	unsigned int base = 10;
	uint64_t v = 0;

	if (suffix == (size_t)-1)
		return fail(lx, t->text, "invalid integer suffix in '%.*s'",
			    (int)t->len, t->text);
	n -= suffix;
	if (n > 1 && t->text[0] == '0' && (t->text[1] == 'x' || t->text[1] == 'X')) {
		base = 16;
		i = 2;
	} else if (n > 1 && t->text[0] == '0') {
		base = 8;
		i = 1;
	}
	if (i == n && base == 16)
		return fail(lx, t->text, "invalid number '%.*s'", (int)t->len,
			    t->text);
	for (; i < n; i++) {
		unsigned int d = digit_value(t->text[i]);

		if (d >= base)
			return fail(lx, t->text, "invalid %s constant '%.*s'",
				    base == 8 ? "octal" : base == 16 ?
				    "hexadecimal" : "decimal",
				    (int)t->len, t->text);
		if (v > (UINT64_MAX - d) / base)
			return fail(lx, t->text,
				    "integer constant '%.*s' is too large (more than 64 bits)",
				    (int)t->len, t->text);
		v = v * base + d;
	}
	t->ival = v;
	t->kind = TK_INT;
	return 0;
}

static int lex_number(struct lexer *lx, struct token *t)
{
	const char *s = lx->p;
	bool hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
	const char *end = number_end(s, hex);
	size_t n = (size_t)(end - s);

	t->text = s;
	t->len = n;
	lx->p = end;
	if (has_any(s, n, hex ? ".pP" : ".eE"))
		return lex_float(lx, t, n, hex);
	return lex_int(lx, t, n);
}

/* A string literal, into pattern bytes: NUL for each run of '*'. */
static int lex_string(struct lexer *lx, struct token *t)
{
	const char *open = lx->p, *p = open + 1;
	char quote = *open;
	size_t n = 0;
	bool last_star = false;
	uint8_t *out = malloc(strlen(p) + 1);

	if (!out)
		return fail(lx, open, "out of memory");
	for (; *p != quote; p++) {
		char c = *p;
		bool star = false;

		if (c == '\0') {
			free(out);
			return fail(lx, open, "unterminated string");
		}
		if (c == '\\') {
			c = *++p;
			if (c != '*' && c != '\\' && c != '"' && c != '\'') {
				free(out);
				return fail(lx, p - 1,
					    "unsupported escape '\\%c' in a string (\\* is a star, \\\\ a backslash)",
					    c ? c : ' ');
			}
		} else if (c == '*') {
			star = true;
		}
		if (star && last_star)
			continue;
		out[n++] = star ? '\0' : (uint8_t)c;
		t->glob |= star;
		last_star = star;
	}
	t->kind = TK_STRING;
	t->text = open;
	t->len = (size_t)(p + 1 - open);
	t->str = out;
	t->str_len = n;
	lx->p = p + 1;
	return 0;
}

static void lex_word(struct lexer *lx, struct token *t, enum tok_kind kind)
{
	const char *s = lx->p, *q = s + (kind == TK_GLOBAL);

	while (is_ident_char(*q, q == s + (kind == TK_GLOBAL)))
		q++;
	t->kind = kind;
	t->text = s;
	t->len = (size_t)(q - s);
	lx->p = q;
}

int lex_next(struct lexer *lx, struct token *t)
{
	const char *p;
	size_t i;

	memset(t, 0, sizeof(*t));
	if (skip_blank(lx))
		return -1;
	p = lx->p;
	t->column = column(lx, p);
	t->text = p;
	if (*p == '\0') {
		t->kind = TK_END;
		return 0;
	}
	if (isdigit((unsigned char)*p) || (*p == '.' && isdigit((unsigned char)p[1])))
		return lex_number(lx, t);
	if (*p == '"' || *p == '\'')
		return lex_string(lx, t);
	if (is_ident_char(*p, true)) {
		lex_word(lx, t, TK_IDENT);
		return 0;
	}
	if (*p == '$' && is_ident_char(p[1], true)) {
		lex_word(lx, t, TK_GLOBAL);
		return 0;
	}
	for (i = 0; i < sizeof(puncts) / sizeof(puncts[0]); i++) {
		size_t n = strlen(puncts[i].text);

		if (!strncmp(p, puncts[i].text, n)) {
			t->kind = puncts[i].kind;
			t->len = n;
			lx->p = p + n;
			return 0;
		}
	}
	t->kind = TK_OTHER;
	t->len = 1;
	lx->p = p + 1;
	return 0;
}

void lex_describe(const struct token *t, char *buf, size_t len)
{
	switch (t->kind) {
	case TK_END:
		snprintf(buf, len, "the end of the expression");
		break;
	case TK_OTHER:
		if (isprint((unsigned char)*t->text))
			snprintf(buf, len, "'%c'", *t->text);
		else
			snprintf(buf, len, "byte 0x%02x", (unsigned char)*t->text);
		break;
	default:
		snprintf(buf, len, "'%.*s'", t->len > 40 ? 40 : (int)t->len,
			 t->text);
		break;
	}
}
