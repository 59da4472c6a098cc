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

#include <ust/loglevel.h>

#include "abi/consumerd.h"
#include "abi/env.h"
#include "common/base64.h"
#include "common/context.h"
#include "common/parse.h"
#include "common/pattern.h"
#include "session.h"

struct ust_config ust__config;

static void warn_bad(const char *var, const char *value, const char *why)
{
	fprintf(stderr, "ust: ignoring %s='%s': %s\n", var, value, why);
}


/* The filter= option: base64 of a struct ust_filter_blob, checked. */
static int parse_filter(struct ust_trace_entry *e, const char *text)
{
	size_t len = strlen(text);
	struct ust_filter_blob h;
	uint8_t *blob = malloc(len / 4 * 3 + 1);
	long n;

	if (!blob)
		return -1;
	n = ust__base64_decode(text, len, blob);
	if (n < (long)sizeof(h)) {
		free(blob);
		return -1;
	}
	memcpy(&h, blob, sizeof(h));
	if (h.magic != UST_FILTER_BLOB_MAGIC || h.expr_size == 0 ||
	    h.expr_size % 8 || h.programs_size % 8 ||
	    (uint64_t)sizeof(h) + h.expr_size + h.programs_size != (uint64_t)n ||
	    blob[sizeof(h) + h.expr_size - 1] != '\0') {
		free(blob);
		return -1;
	}
	e->filter = blob;
	e->filter_len = (size_t)n;
	return 0;
}

/* One ";option" of an UST_TRACE entry: 0, or -1 when it is not valid. */
static int parse_option(struct ust_trace_entry *e, const char *opt)
{
	size_t n_upto = strlen(UST_TRACE_OPT_LOGLEVEL);
	size_t n_only = strlen(UST_TRACE_OPT_LOGLEVEL_ONLY);
	size_t n_filter = strlen(UST_TRACE_OPT_FILTER);

	if (!strncmp(opt, UST_TRACE_OPT_LOGLEVEL, n_upto) ||
	    !strncmp(opt, UST_TRACE_OPT_LOGLEVEL_ONLY, n_only)) {
		bool only = !strncmp(opt, UST_TRACE_OPT_LOGLEVEL_ONLY, n_only);

		e->loglevel = ust_loglevel_parse(opt + (only ? n_only : n_upto));
		e->loglevel_op = only ? UST_CTL_LOGLEVEL_ONLY : UST_CTL_LOGLEVEL_UPTO;
		return e->loglevel < 0 ? -1 : 0;
	}
	if (!strncmp(opt, UST_TRACE_OPT_FILTER, n_filter) && !e->filter)
		return parse_filter(e, opt + n_filter);
	return -1;
}

/*
 * One entry: PATTERN{;option}.  A bad option makes the entry select
 * nothing (a warning says so), rather than more than it asked for.
 */
static void load_entry(struct ust_config *cfg, char *tok)
{
	struct ust_trace_entry *e = &cfg->entries[cfg->nr_patterns];
	char *save = NULL, *opt, *pattern = strtok_r(tok, ";", &save);

	memset(e, 0, sizeof(*e));
	if (!pattern)
		return;
	while (!e->broken && (opt = strtok_r(NULL, ";", &save))) {
		if (parse_option(e, opt)) {
			warn_bad(UST_ENV_TRACE, pattern, opt[0] == 'f' ?
				 "its filter is not one ust record wrote; it selects nothing" :
				 "unknown option or log level; it selects nothing");
			free(e->filter);
			e->filter = NULL;
			e->broken = true;
		}
	}
	cfg->patterns[cfg->nr_patterns++] = strdup(pattern);
	cfg->have_filters |= e->filter != NULL;
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
		load_entry(cfg, tok);
	}
	free(copy);
}

/* UST_RATE_LIMIT: PATTERN=N[,...], N records a second per event and thread. */
static void load_rate_limits(struct ust_config *cfg)
{
	const char *v = getenv(UST_ENV_RATE_LIMIT);
	char *copy = v && *v ? strdup(v) : NULL, *save = NULL, *tok;

	for (tok = copy ? strtok_r(copy, ",", &save) : NULL; tok;
	     tok = strtok_r(NULL, ",", &save)) {
		char *eq = strrchr(tok, '=');
		uint64_t n;

		if (!eq || eq == tok || ust__parse_u64(eq + 1, &n) || n == 0 ||
		    n > UINT32_MAX) {
			warn_bad(UST_ENV_RATE_LIMIT, tok,
				 "must be PATTERN=N, N records a second from 1");
			continue;
		}
		if (cfg->nr_rates == UST_MAX_RATE_LIMITS) {
			warn_bad(UST_ENV_RATE_LIMIT, tok, "too many rate limits");
			break;
		}
		*eq = '\0';
		cfg->rates[cfg->nr_rates].pattern = strdup(tok);
		cfg->rates[cfg->nr_rates++].max = (uint32_t)n;
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

/*
 * UST_BUFFERS: one buffer per CPU or per thread.  Per-thread buffers
 * stream to disk (not in flight mode, nor to a relay: those read per-CPU
 * buffers), with at most UST_TBUF_MAX_SLOTS sub-buffers each.
 */
static void load_buffers(struct ust_config *cfg)
{
	const char *v = getenv(UST_ENV_BUFFERS);

	if (!v || !*v || !strcmp(v, UST_BUFFERS_NAME_PER_CPU))
		return;
	if (strcmp(v, UST_BUFFERS_NAME_PER_THREAD)) {
		warn_bad(UST_ENV_BUFFERS, v, "must be 'per-cpu' or 'per-thread'");
		return;
	}
	if (cfg->mode == UST_MODE_FLIGHT) {
		warn_bad(UST_ENV_BUFFERS, v, "flight mode has per-CPU buffers only");
		return;
	}
	if (!strncmp(cfg->output, "net://", 6) || !strncmp(cfg->output, "net6://", 7)) {
		warn_bad(UST_ENV_BUFFERS, v, "a relay gets per-CPU buffers only");
		return;
	}
	cfg->per_thread = true;
	if (cfg->subbuf_count > UST_TBUF_MAX_SLOTS) {
		fprintf(stderr, "ust: %s=%u: per-thread buffers have at most %u "
			"sub-buffers; using %u\n", UST_ENV_SUBBUF_COUNT,
			cfg->subbuf_count, UST_TBUF_MAX_SLOTS, UST_TBUF_MAX_SLOTS);
		cfg->subbuf_count = UST_TBUF_MAX_SLOTS;
	}
}

/* UST_FUNCTIONS: the layout of function tracing's events. */
static uint32_t load_func_layout(void)
{
	static const char *const names[] = {
		[UST_FUNC_COMPACT] = UST_FUNCTIONS_NAME_COMPACT,
		[UST_FUNC_FULL] = UST_FUNCTIONS_NAME_FULL,
		[UST_FUNC_LTTNG_FAST] = UST_FUNCTIONS_NAME_LTTNG_FAST,
		[UST_FUNC_LTTNG] = UST_FUNCTIONS_NAME_LTTNG,
	};
	const char *v = getenv(UST_ENV_FUNCTIONS);
	uint32_t i;

	for (i = 0; v && *v && i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(v, names[i]))
			return i;
	if (v && *v)
		warn_bad(UST_ENV_FUNCTIONS, v,
			 "must be 'compact', 'full', 'lttng-fast' or 'lttng'");
	return UST_FUNC_COMPACT;
}

/*
 * A filter of the function hooks (funcfilter.c) set in `var`.  They keep
 * state per thread and write held entries back in time, so they need
 * per-thread buffers: without them they are reported and left out.
 */
static bool func_filter_set(const struct ust_config *cfg, const char *var,
			    const char **v)
{
	*v = getenv(var);
	if (!*v || !**v)
		return false;
	if (cfg->per_thread)
		return true;
	warn_bad(var, *v, "function filters need per-thread buffers ("
		 UST_ENV_BUFFERS "=" UST_BUFFERS_NAME_PER_THREAD ")");
	return false;
}

static void load_func_filters(struct ust_config *cfg)
{
	const char *v;
	uint64_t n;

	if (func_filter_set(cfg, UST_ENV_FUNC_TIME, &v)) {
		if (ust__parse_u64(v, &n) || n == 0)
			warn_bad(UST_ENV_FUNC_TIME, v, "must be a number of nanoseconds from 1");
		else
			cfg->func_time_ns = n;
	}
	if (func_filter_set(cfg, UST_ENV_FUNC_DEPTH, &v)) {
		if (ust__parse_u64(v, &n) || n == 0 || n > UINT32_MAX)
			warn_bad(UST_ENV_FUNC_DEPTH, v, "must be a depth from 1");
		else
			cfg->func_depth = (uint32_t)n;
	}
	if (func_filter_set(cfg, UST_ENV_FUNC_FILTER, &v))
		cfg->func_filter = strdup(v);
	if (func_filter_set(cfg, UST_ENV_FUNC_EXCLUDE, &v))
		cfg->func_exclude = strdup(v);
}

/*
 * UST_CONTEXT: what each record carries before its payload.  By default
 * the thread id, which per-thread buffers carry in each packet instead;
 * with LTTng's layouts of function tracing, what LTTng's tools need.
 */
static uint32_t load_event_context(const struct ust_config *cfg)
{
	const char *v = getenv(UST_ENV_CONTEXT);
	char why[96];
	uint32_t set;

	if ((!v || !*v) && cfg->func_layout >= UST_FUNC_LTTNG_FAST)
		v = UST_FUNCTIONS_LTTNG_CONTEXT;
	if (!v || !*v)
		return cfg->per_thread ? 0 : UST_CTX_DEFAULT;
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
	load_rate_limits(cfg);
	cfg->output = dup_env(UST_ENV_OUTPUT, UST_DEFAULT_OUTPUT);
	cfg->mode = load_mode(cfg);
	cfg->subbuf_size = load_pow2(UST_ENV_SUBBUF_SIZE, UST_SUBBUF_MIN,
				     UST_SUBBUF_MAX, UST_DEFAULT_SUBBUF_SIZE, 1);
	cfg->subbuf_count = load_pow2(UST_ENV_SUBBUF_COUNT, UST_SUBBUF_COUNT_MIN,
				      UST_SUBBUF_COUNT_MAX,
				      UST_DEFAULT_SUBBUF_COUNT, 0);
	load_buffers(cfg);
	cfg->func_layout = load_func_layout();
	load_func_filters(cfg);
	cfg->event_context = load_event_context(cfg);
	cfg->read_timer_us = load_read_timer();
	cfg->clock_kind = load_clock(cfg);
	cfg->summary_dir = dup_env(UST_ENV_SUMMARY_DIR, NULL);
	cfg->consumerd = dup_env(UST_ENV_CONSUMERD,
				 PKGLIBEXECDIR "/" UST_CONSUMERD_NAME);
	return 0;
}

bool ust__entry_loglevel_ok(uint32_t op, int32_t level, int32_t loglevel)
{
	if (loglevel < 0)
		loglevel = UST_LOGLEVEL_NONE_AS;
	if (op == UST_CTL_LOGLEVEL_UPTO)
		return loglevel <= level;
	if (op == UST_CTL_LOGLEVEL_ONLY)
		return loglevel == level;
	return true;
}

struct level_arg {
	const struct ust_config *cfg;
	int32_t loglevel;
};

static bool entry_counts(unsigned int i, const void *arg)
{
	const struct level_arg *a = arg;
	const struct ust_trace_entry *e = &a->cfg->entries[i];

	return !e->broken &&
	       ust__entry_loglevel_ok(e->loglevel_op, e->loglevel, a->loglevel);
}

/* "facility:event" is enabled by UST_TRACE (rules in common/pattern.h). */
int ust__pattern_match(const struct ust_config *cfg, const char *name,
		       int32_t loglevel)
{
	struct level_arg a = { cfg, loglevel };

	return ust__patterns_match_when((const char *const *)cfg->patterns,
				       cfg->nr_patterns, name, entry_counts, &a);
}

uint32_t ust__rate_limit(const struct ust_config *cfg, const char *name)
{
	uint32_t max = 0;
	unsigned int i;

	for (i = 0; i < cfg->nr_rates; i++)
		if (cfg->rates[i].pattern &&
		    ust__glob_match(cfg->rates[i].pattern, name))
			max = cfg->rates[i].max;
	return max;
}
