/*
 * config.c - libust's configuration, read once from the environment.
 *
 * SPDX-License-Identifier: LGPL-2.1-only
 *
 * Values are copied at start-up: the program may change its environment
 * later, and a fork child must start its session with the same settings.
 * A bad value is reported on stderr and replaced by the default; it never
 * stops the program.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "abi/consumerd.h"
#include "abi/env.h"
#include "common/context.h"
#include "common/parse.h"
#include "common/pattern.h"
#include "session.h"

struct ust_config ust__config;

static void warn_bad(const char *var, const char *value, const char *why)
{
	fprintf(stderr, "ust: ignoring %s='%s': %s\n", var, value, why);
}

static void load_patterns(struct ust_config *cfg, const char *list)
{
	char *copy = strdup(list), *save = NULL, *tok;

	if (!copy)
		return;
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		while (*tok == ' ')
			tok++;
		if (!*tok)
			continue;
		if (cfg->nr_patterns == UST_MAX_PATTERNS) {
			warn_bad(UST_ENV_TRACE, tok, "too many patterns");
			break;
		}
		cfg->patterns[cfg->nr_patterns++] = strdup(tok);
	}
	free(copy);
}

static uint32_t load_pow2(const char *var, uint64_t min, uint64_t max,
			  uint32_t def, int with_suffix)
{
	const char *v = getenv(var);
	uint64_t n;
	int ret;

	if (!v || !*v)
		return def;
	ret = with_suffix ? ust__parse_size(v, &n) : ust__parse_u64(v, &n);
	if (ret || !ust__is_pow2(n) || n < min || n > max) {
		char why[96];

		snprintf(why, sizeof(why),
			 "must be a power of two from %llu to %llu",
			 (unsigned long long)min, (unsigned long long)max);
		warn_bad(var, v, why);
		return def;
	}
	return (uint32_t)n;
}

static uint32_t load_read_timer(void)
{
	const char *v = getenv(UST_ENV_READ_TIMER);
	uint64_t n;

	if (!v || !*v)
		return UST_DEFAULT_READ_TIMER_US;
	if (ust__parse_u64(v, &n) || n < UST_READ_TIMER_MIN_US ||
	    n > UST_READ_TIMER_MAX_US) {
		warn_bad(UST_ENV_READ_TIMER, v,
			 "must be from 100 to 10000000 microseconds");
		return UST_DEFAULT_READ_TIMER_US;
	}
	return (uint32_t)n;
}

/* "block" is discard mode whose writers wait for room (ringbuf.c). */
static uint32_t load_mode(struct ust_config *cfg)
{
	const char *v = getenv(UST_ENV_MODE);

	if (!v || !*v || !strcmp(v, UST_MODE_NAME_DISCARD))
		return UST_MODE_DISCARD;
	if (!strcmp(v, UST_MODE_NAME_OVERWRITE))
		return UST_MODE_OVERWRITE;
	if (!strcmp(v, UST_MODE_NAME_FLIGHT))
		return UST_MODE_FLIGHT;
	if (!strcmp(v, UST_MODE_NAME_BLOCK)) {
		cfg->blocking = 1;
		return UST_MODE_DISCARD;
	}
	warn_bad(UST_ENV_MODE, v, "must be 'discard', 'overwrite', 'block' or 'flight'");
	return UST_MODE_DISCARD;
}

/* UST_CONTEXT: what each record carries before its payload. */
static uint32_t load_event_context(void)
{
	const char *v = getenv(UST_ENV_CONTEXT);
	char why[96];
	uint32_t set;

	if (!v || !*v)
		return UST_CTX_DEFAULT;
	if (ust__context_parse(v, &set, why, sizeof(why))) {
		warn_bad(UST_ENV_CONTEXT, v, why);
		return UST_CTX_DEFAULT;
	}
	return set;
}

static uint32_t load_clock(struct ust_config *cfg)
{
	const char *v = getenv(UST_ENV_SESSION_CLOCK);
	struct ust_clock clk;

	if (v && *v) {
		if (ust__clock_parse(v, &clk) == 0) {
			cfg->session_clock = strdup(v);
			return clk.kind;
		}
		warn_bad(UST_ENV_SESSION_CLOCK, v, "not a session clock");
	}
	return ust__clock_detect_kind();
}

static char *dup_env(const char *var, const char *def)
{
	const char *v = getenv(var);

	if (!v || !*v)
		return def ? strdup(def) : NULL;
	return strdup(v);
}

/* Returns 0, or -ENOENT when UST_TRACE is unset (tracing off). */
int ust__config_load(struct ust_config *cfg)
{
	const char *trace = getenv(UST_ENV_TRACE);

	if (!trace || !*trace)
		return -ENOENT;
	load_patterns(cfg, trace);
	cfg->output = dup_env(UST_ENV_OUTPUT, UST_DEFAULT_OUTPUT);
	cfg->mode = load_mode(cfg);
	cfg->event_context = load_event_context();
	cfg->subbuf_size = load_pow2(UST_ENV_SUBBUF_SIZE, UST_SUBBUF_MIN,
				     UST_SUBBUF_MAX, UST_DEFAULT_SUBBUF_SIZE, 1);
	cfg->subbuf_count = load_pow2(UST_ENV_SUBBUF_COUNT, UST_SUBBUF_COUNT_MIN,
				      UST_SUBBUF_COUNT_MAX,
				      UST_DEFAULT_SUBBUF_COUNT, 0);
	cfg->read_timer_us = load_read_timer();
	cfg->clock_kind = load_clock(cfg);
	cfg->summary_dir = dup_env(UST_ENV_SUMMARY_DIR, NULL);
	cfg->consumerd = dup_env(UST_ENV_CONSUMERD,
				 PKGLIBEXECDIR "/" UST_CONSUMERD_NAME);
	return 0;
}

/* "facility:event" is enabled by UST_TRACE (rules in common/pattern.h). */
int ust__pattern_match(const struct ust_config *cfg, const char *name)
{
	return ust__patterns_match((const char *const *)cfg->patterns,
				  cfg->nr_patterns, name);
}
