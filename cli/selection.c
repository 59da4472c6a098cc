/*
 * selection.c - `ust record`'s -e, --filter, --loglevel, --loglevel-only
 * and --rate-limit, turned into UST_TRACE and UST_RATE_LIMIT
 * (selection.h).
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Filters are compiled here, before anything runs: for the events that
 * CMD and the libraries it loads hold (tpgen's "ust_fields" sections),
 * one program per kind of fields, encoded in base64 in the entry's
 * ";filter=" option.  A bad expression stops `ust record` with its
 * column, exit status 2.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ust/loglevel.h>

#include "abi/control.h"
#include "abi/env.h"
#include "cli.h"
#include "command.h"
#include "common/base64.h"
#include "common/parse.h"
#include "elfscan.h"
#include "filters.h"
#include "selection.h"

int cli_sel_event(struct cli_selection *s, const char *pattern)
{
	if (!*pattern) {
		cli_error("invalid --event '': empty pattern");
		return -1;
	}
	if (strpbrk(pattern, ",;")) {
		cli_error("invalid --event '%s': one pattern per -e, without ',' or ';'",
			  pattern);
		return -1;
	}
	if (strlen(pattern) >= UST_CTL_PATTERN_MAX) {
		cli_error("invalid --event '%s': longer than %u characters",
			  pattern, UST_CTL_PATTERN_MAX - 1);
		return -1;
	}
	if (s->nr == UST_MAX_PATTERNS) {
		cli_error("too many --event patterns: at most %u", UST_MAX_PATTERNS);
		return -1;
	}
	s->ev[s->nr].pattern = strdup(pattern);
	if (!s->ev[s->nr].pattern) {
		cli_error("out of memory");
		return -1;
	}
	s->nr++;
	return 0;
}

/* The -e that an option after it applies to, or NULL (printed). */
static struct cli_sel_event *last_event(struct cli_selection *s,
					const char *option)
{
	struct cli_sel_event *e = s->nr ? &s->ev[s->nr - 1] : NULL;

	if (!e) {
		cli_error("%s applies to the -e PATTERN before it, and there is none",
			  option);
		return NULL;
	}
	if (e->pattern[0] == '-') {
		cli_error("%s cannot apply to '-e %s', which excludes events",
			  option, e->pattern);
		return NULL;
	}
	return e;
}

int cli_sel_filter(struct cli_selection *s, const char *expr)
{
	struct cli_sel_event *e = last_event(s, "--filter");

	if (!e)
		return -1;
	if (e->filter) {
		cli_error("--filter given twice for '-e %s' (combine them with && or ||)",
			  e->pattern);
		return -1;
	}
	return cli_keep_copy(&e->filter, expr);
}

int cli_sel_loglevel(struct cli_selection *s, const char *level, bool only)
{
	const char *option = only ? "--loglevel-only" : "--loglevel";
	struct cli_sel_event *e = last_event(s, option);
	int n = ust_loglevel_parse(level);

	if (!e)
		return -1;
	if (n < 0) {
		cli_error("invalid %s '%s': a level is TRACE_EMERG ... TRACE_DEBUG, "
			  "or 0 to 14", option, level);
		return -1;
	}
	if (e->loglevel_op) {
		cli_error("%s: '-e %s' has a log level already", option, e->pattern);
		return -1;
	}
	e->loglevel_op = only ? UST_CTL_LOGLEVEL_ONLY : UST_CTL_LOGLEVEL_UPTO;
	e->loglevel = n;
	return 0;
}

/* --rate-limit PATTERN=N/s (or N): "PATTERN=N" into UST_RATE_LIMIT. */
int cli_sel_rate_limit(struct cli_selection *s, const char *arg)
{
	const char *eq = strrchr(arg, '=');
	char *num, *list;
	uint64_t n = 0;
	size_t len;
	int bad;

	if (!eq || eq == arg || strpbrk(arg, ",;")) {
		cli_error("invalid --rate-limit '%s': must be PATTERN=N/s", arg);
		return -1;
	}
	len = strlen(eq + 1);
	if (len > 2 && !strcmp(eq + 1 + len - 2, "/s"))
		len -= 2;
	num = strndup(eq + 1, len);
	bad = !num || ust__parse_u64(num, &n) || n == 0 || n > UINT32_MAX;
	free(num);
	if (bad) {
		cli_error("invalid --rate-limit '%s': N must be from 1 to %u records a second",
			  arg, UINT32_MAX);
		return -1;
	}
	if (asprintf(&list, "%s%s%.*s=%llu", s->rates ? s->rates : "",
		     s->rates ? "," : "", (int)(eq - arg), arg,
		     (unsigned long long)n) < 0) {
		cli_error("out of memory");
		return -1;
	}
	free(s->rates);
	s->rates = list;
	return 0;
}

/* One -e's filter, compiled into base64. */
static int compile_one(struct cli_sel_event *e, const struct cli_fields *f,
		       const char *where)
{
	uint8_t *blob;
	size_t len;

	if (cli_filter_compile(f, e->pattern, e->filter, NULL, NULL, "--filter",
			       where, &blob, &len))
		return -1;
	e->compiled = malloc(ust__base64_len(len) + 1);
	if (e->compiled)
		ust__base64_encode(blob, len, e->compiled);
	free(blob);
	if (!e->compiled)
		cli_error("out of memory");
	return e->compiled ? 0 : -1;
}

int cli_sel_compile(struct cli_selection *s, const char *cmd)
{
	struct cli_fields f = { 0 };
	char *path, *where = NULL;
	unsigned int i;
	long n;
	int ret = 0;

	for (i = 0; i < s->nr && !s->ev[i].filter; i++)
		;
	if (i == s->nr)
		return 0;	/* no filter */
	path = cli_find_in_path(cmd);
	if (!path)
		return 0;	/* not found: running it fails with 127 */
	n = cli_elf_scan_program(path, CLI_FIELDS_SECTION, cli_fields_section, &f);
	cli_fields_sort(&f);
	if (n < 0 || asprintf(&where, "'%s' or the libraries it loads", cmd) < 0) {
		cli_error("--filter: ust record compiles filters for the events of "
			  "CMD and its libraries, and cannot read '%s'", cmd);
		ret = -1;
	}
	for (i = 0; ret == 0 && i < s->nr; i++)
		if (s->ev[i].filter)
			ret = compile_one(&s->ev[i], &f, where);
	free(where);
	free(path);
	cli_fields_release(&f);
	return ret;
}

/* Append one entry of UST_TRACE to the memstream. */
static void trace_entry(FILE *out, const struct cli_sel_event *e, bool first)
{
	fprintf(out, "%s%s", first ? "" : ",", e->pattern);
	if (e->loglevel_op)
		fprintf(out, ";%s%d", e->loglevel_op == UST_CTL_LOGLEVEL_ONLY ?
			UST_TRACE_OPT_LOGLEVEL_ONLY : UST_TRACE_OPT_LOGLEVEL,
			e->loglevel);
	if (e->compiled)
		fprintf(out, ";%s%s", UST_TRACE_OPT_FILTER, e->compiled);
}

char *cli_sel_trace(const struct cli_selection *s)
{
	char *text = NULL;
	size_t len;
	unsigned int i;
	FILE *out;

	if (!s->nr)
		return strdup("*");
	out = open_memstream(&text, &len);
	if (!out)
		return NULL;
	for (i = 0; i < s->nr; i++)
		trace_entry(out, &s->ev[i], i == 0);
	if (fclose(out)) {
		free(text);
		return NULL;
	}
	return text;
}

void cli_sel_release(struct cli_selection *s)
{
	unsigned int i;

	for (i = 0; i < s->nr; i++) {
		free(s->ev[i].pattern);
		free(s->ev[i].filter);
		free(s->ev[i].compiled);
	}
	free(s->rates);
	memset(s, 0, sizeof(*s));
}
