/*
 * session.c - the relay session identity as text (net/session.h).
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "abi/env.h"
#include "net/session.h"

void ust_relay_name_sanitize(char *s)
{
	char *p;

	for (p = s; *p; p++) {
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '.' || *p == '_' || *p == '-'))
			*p = '_';
	}
	if (s[0] == '.')
		s[0] = '_';
}

static bool name_ok(const char *s)
{
	return s[0] && s[0] != '.' && strspn(s, "abcdefghijklmnopqrstuvwxyz"
					    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") == strlen(s);
}

static int hex_uuid(const char *v, uint8_t uuid[16])
{
	static const uint8_t nil[16];
	unsigned int i, byte;

	if (strlen(v) != 32 || strspn(v, "0123456789abcdefABCDEF") != 32)
		return -1;
	for (i = 0; i < 16; i++) {
		sscanf(v + 2 * i, "%2x", &byte);
		uuid[i] = (uint8_t)byte;
	}
	return memcmp(uuid, nil, sizeof(nil)) ? 0 : -1;
}

static int number(const char *v, uint64_t max, uint64_t *out)
{
	char *end;

	if (*v < '0' || *v > '9')
		return -1;
	errno = 0;
	*out = strtoull(v, &end, 10);
	return errno || *end || *out > max ? -1 : 0;
}

/* One "key=value" item; `seen` collects the keys met. */
static int session_item(char *item, struct ust_relay_session *s, unsigned int *seen,
			char *err, size_t errlen)
{
	char *v = strchr(item, '=');
	uint64_t n;

	if (!v) {
		snprintf(err, errlen, "'%s': expected KEY=VALUE", item);
		return -1;
	}
	*v++ = '\0';
	if (!strcmp(item, "name") && name_ok(v) && strlen(v) < sizeof(s->name)) {
		strcpy(s->name, v);
		*seen |= 1;
	} else if (!strcmp(item, "host") && name_ok(v) && strlen(v) < sizeof(s->hostname)) {
		strcpy(s->hostname, v);
	} else if (!strcmp(item, "uuid") && !hex_uuid(v, s->uuid)) {
		*seen |= 2;
	} else if (!strcmp(item, "id") && !number(v, UINT64_MAX, &n)) {
		s->id = n;
		*seen |= 4;
	} else if (!strcmp(item, "time") && !number(v, UINT64_MAX, &n)) {
		s->creation_time = n;
		*seen |= 8;
	} else if (!strcmp(item, "live") && !number(v, UINT32_MAX, &n)) {
		s->live_timer_us = (uint32_t)n;
	} else {
		snprintf(err, errlen, "bad %s '%s'", item, v);
		return -1;
	}
	return 0;
}

int ust_relay_session_parse(const char *text, struct ust_relay_session *s,
			    char *err, size_t errlen)
{
	unsigned int seen = 0;
	char *copy, *item, *save;
	int ret = 0;

	memset(s, 0, sizeof(*s));
	copy = strdup(text);
	if (!copy) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (item = strtok_r(copy, ",", &save); item && !ret; item = strtok_r(NULL, ",", &save))
		ret = session_item(item, s, &seen, err, errlen);
	free(copy);
	if (!ret && seen != 15) {
		snprintf(err, errlen, "name, uuid, id and time are required");
		ret = -1;
	}
	if (!ret && !s->hostname[0] && gethostname(s->hostname, sizeof(s->hostname) - 1))
		snprintf(s->hostname, sizeof(s->hostname), "unknown");
	ust_relay_name_sanitize(s->hostname);
	return ret;
}

int ust_relay_session_format(const struct ust_relay_session *s, char *buf, size_t len)
{
	char uuid[33];
	unsigned int i;
	int n;

	for (i = 0; i < 16; i++)
		snprintf(uuid + 2 * i, 3, "%02x", s->uuid[i]);
	n = snprintf(buf, len, "name=%s,uuid=%s,id=%" PRIu64 ",time=%" PRIu64 ",live=%u,host=%s",
		     s->name, uuid, s->id, s->creation_time, s->live_timer_us, s->hostname);
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

int ust_relay_session_new(struct ust_relay_session *s, const char *name, uint64_t id)
{
	static const uint8_t nil[16];

	memset(s, 0, sizeof(*s));
	snprintf(s->name, sizeof(s->name), "%s", name);
	ust_relay_name_sanitize(s->name);
	if (getrandom(s->uuid, sizeof(s->uuid), 0) != (ssize_t)sizeof(s->uuid) ||
	    !memcmp(s->uuid, nil, sizeof(nil)))
		return -1;
	s->id = id;
	s->creation_time = (uint64_t)time(NULL);
	if (gethostname(s->hostname, sizeof(s->hostname) - 1))
		snprintf(s->hostname, sizeof(s->hostname), "unknown");
	ust_relay_name_sanitize(s->hostname);
	return 0;
}

int ust_relay_session_from_env(struct ust_relay_session *s, const char *name, uint64_t id,
			       const char *who)
{
	const char *spec = getenv(UST_ENV_RELAY_SESSION);
	char err[256];

	if (spec && *spec) {
		if (!ust_relay_session_parse(spec, s, err, sizeof(err)))
			return 0;
		fprintf(stderr, "%s: " UST_ENV_RELAY_SESSION ": %s; using a session of our own\n",
			who, err);
	}
	return ust_relay_session_new(s, name, id);
}
