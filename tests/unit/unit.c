/*
 * unit.c - helpers of the unit tests of libust's internals (unit.h).
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "abi/env.h"
#include "unit.h"

static int saved_stderr = -1;
static FILE *captured;

void unit_stderr_begin(void)
{
	fflush(stderr);
	captured = tmpfile();
	ck_assert_ptr_nonnull(captured);
	saved_stderr = dup(STDERR_FILENO);
	ck_assert_int_ge(saved_stderr, 0);
	ck_assert_int_eq(dup2(fileno(captured), STDERR_FILENO), STDERR_FILENO);
}

char *unit_stderr_end(void)
{
	off_t size;
	char *text;

	fflush(stderr);
	ck_assert_int_eq(dup2(saved_stderr, STDERR_FILENO), STDERR_FILENO);
	close(saved_stderr);
	/* Written through fd 2, not through the FILE: ask the file. */
	size = lseek(fileno(captured), 0, SEEK_END);
	ck_assert_int_ge(size, 0);
	text = calloc(1, (size_t)size + 1);
	ck_assert_ptr_nonnull(text);
	ck_assert_int_eq(pread(fileno(captured), text, (size_t)size, 0), size);
	fclose(captured);
	return text;
}

void unit_env_clear(void)
{
	static const char *const vars[] = {
		UST_ENV_TRACE, UST_ENV_OUTPUT, UST_ENV_MODE, UST_ENV_SUBBUF_SIZE,
		UST_ENV_SUBBUF_COUNT, UST_ENV_READ_TIMER, UST_ENV_CONTEXT,
		UST_ENV_SESSION_CLOCK, UST_ENV_SUMMARY_DIR, UST_ENV_CONSUMERD,
		UST_ENV_RATE_LIMIT,
	};
	size_t i;

	for (i = 0; i < sizeof(vars) / sizeof(vars[0]); i++)
		unsetenv(vars[i]);
}

void unit_config(struct ust_config *cfg, const char *patterns, uint32_t mode,
		 uint32_t subbuf_size, uint32_t subbuf_count)
{
	unit_env_clear();
	setenv(UST_ENV_TRACE, patterns, 1);
	memset(cfg, 0, sizeof(*cfg));
	ck_assert_int_eq(ust__config_load(cfg), 0);
	unsetenv(UST_ENV_TRACE);
	cfg->mode = mode;
	cfg->subbuf_size = subbuf_size;
	cfg->subbuf_count = subbuf_count;
}

void unit_config_free(struct ust_config *cfg)
{
	unsigned int i;

	for (i = 0; i < cfg->nr_patterns; i++) {
		free(cfg->patterns[i]);
		free(cfg->entries[i].filter);
	}
	for (i = 0; i < cfg->nr_rates; i++)
		free(cfg->rates[i].pattern);
	free(cfg->output);
	free(cfg->session_clock);
	free(cfg->summary_dir);
	free(cfg->consumerd);
	memset(cfg, 0, sizeof(*cfg));
}

struct ust_session *unit_session_start(struct ust_config *cfg)
{
	struct ust_session *s;
	int fd = -1;

	ust__config = *cfg;
	s = ust__session_map(cfg, &fd);
	ck_assert_ptr_nonnull(s);
	s->shm_fd = fd;
	ust__session_publish(s);
	return s;
}

void unit_session_stop(struct ust_session *s)
{
	ust__session_publish(NULL);
	ust__session_destroy(s);
	memset(&ust__config, 0, sizeof(ust__config));
}
