/*
 * lex.h - the tokens of LTTng's filter language.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef UST_FILTER_LEX_H
#define UST_FILTER_LEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum tok_kind {
	TK_END,
	TK_INT, TK_FLOAT, TK_STRING,
	TK_IDENT,	/* name */
	TK_GLOBAL,	/* $name */
	TK_LPAREN, TK_RPAREN, TK_LBRACKET, TK_RBRACKET, TK_DOT, TK_ARROW,
	TK_PLUS, TK_MINUS, TK_STAR, TK_SLASH, TK_PERCENT,
	TK_SHL, TK_SHR, TK_LT, TK_LE, TK_GT, TK_GE, TK_EQ, TK_NE,
	TK_AMP, TK_CARET, TK_PIPE, TK_ANDAND, TK_OROR, TK_BANG, TK_TILDE,
	TK_OTHER,	/* a character of no token: an error where it is read */
};

struct token {
	enum tok_kind kind;
	int column;
	const char *text;	/* in the expression */
	size_t len;
	uint64_t ival;
	double fval;
	uint8_t *str;		/* TK_STRING: pattern bytes (malloc'd) */
	size_t str_len;
	bool glob;
};

struct filter_error;

struct lexer {
	const char *text;
	const char *p;
	struct filter_error *err;
};

/*
 * The next token into `t` (its str is owned by the caller): 0, or -1
 * with the lexer's error set.
 */
int lex_next(struct lexer *lx, struct token *t);

/* How a token is shown in messages: "')'", "end of expression". */
void lex_describe(const struct token *t, char *buf, size_t len);

#endif /* UST_FILTER_LEX_H */
