/*
 * url.c - parsing of relay URLs (net/url.h).
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The grammar is lttng's (its uri_parse()): SCHEME "://" HOST then up to
 * two ":PORT" for net*, one for tcp*, then an optional "/" and a path.
 * Where lttng is lax (atoi() ports, any host text until a resolver
 * refuses it) we are strict and say which column is wrong.
 */
#include <arpa/inet.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>

#include "net/url.h"

struct scheme {
	const char *name;
	int family;
	bool two_ports;
};

static const struct scheme schemes[] = {
	{ "net",  AF_INET,  true },
	{ "net4", AF_INET,  true },
	{ "net6", AF_INET6, true },
	{ "tcp",  AF_INET,  false },
	{ "tcp4", AF_INET,  false },
	{ "tcp6", AF_INET6, false },
};

#define SCHEMES_EXPECTED "net://, net6://, tcp:// or tcp6://"

/* What is being parsed, and where the error text goes. */
struct cursor {
	const char *s;
	size_t i;		/* index of the next character */
	char *err;
	size_t errlen;
};

/* "column N: ..." for the character at index `at` (columns count from 1). */
__attribute__((format(printf, 3, 4)))
static int fail_at(struct cursor *c, size_t at, const char *fmt, ...)
{
	int n = snprintf(c->err, c->errlen, "column %zu: ", at + 1);
	va_list ap;

	if (n < 0 || (size_t)n >= c->errlen)
		return -1;
	va_start(ap, fmt);
	vsnprintf(c->err + n, c->errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

static char peek(const struct cursor *c)
{
	return c->s[c->i];
}

static bool at_separator(const struct cursor *c)
{
	return peek(c) == ':' || peek(c) == '/' || peek(c) == '\0';
}

static int parse_scheme(struct cursor *c, struct ust_url *u)
{
	const char *sep = strstr(c->s, "://");
	size_t len = sep ? (size_t)(sep - c->s) : 0;
	size_t k;

	if (!sep || len == 0 || memchr(c->s, '/', len))
		return fail_at(c, 0, "missing scheme: expected " SCHEMES_EXPECTED);
	for (k = 0; k < sizeof(schemes) / sizeof(schemes[0]); k++) {
		if (strlen(schemes[k].name) == len &&
		    !strncasecmp(c->s, schemes[k].name, len)) {
			strcpy(u->scheme, schemes[k].name);
			u->family = schemes[k].family;
			u->two_ports = schemes[k].two_ports;
			c->i = len + 3;
			return 0;
		}
	}
	if (len == 4 && !strncasecmp(c->s, "file", 4))
		return fail_at(c, 0, "file:// is a local directory: give the directory itself");
	return fail_at(c, 0, "unknown scheme '%.*s://': expected " SCHEMES_EXPECTED,
		       (int)(len > 16 ? 16 : len), c->s);
}

/* "[ADDR]": an IPv6 literal, for net6:// and tcp6:// only. */
static int parse_bracketed_host(struct cursor *c, struct ust_url *u)
{
	size_t open = c->i;
	const char *close = strchr(c->s + open, ']');
	size_t len;
	struct in6_addr a6;

	if (!close)
		return fail_at(c, open, "'[' without its ']'");
	len = (size_t)(close - (c->s + open + 1));
	if (len == 0)
		return fail_at(c, open + 1, "empty IPv6 address");
	if (len >= sizeof(u->host))
		return fail_at(c, open + 1, "IPv6 address too long");
	memcpy(u->host, c->s + open + 1, len);
	u->host[len] = '\0';
	if (inet_pton(AF_INET6, u->host, &a6) != 1)
		return fail_at(c, open + 1, "'%s' is not an IPv6 address", u->host);
	if (u->family != AF_INET6)
		return fail_at(c, open, "an IPv6 address needs net6:// or tcp6:// (this is %s://)",
			       u->scheme);
	c->i = (size_t)(close - c->s) + 1;
	if (!at_separator(c))
		return fail_at(c, c->i, "unexpected '%c' after the IPv6 address", peek(c));
	return 0;
}

static bool host_char(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
	       (ch >= '0' && ch <= '9') || ch == '.' || ch == '-' || ch == '_';
}

/* Digits and dots only: meant as an IPv4 address, so it must be one. */
static bool looks_ipv4(const char *h)
{
	return strspn(h, "0123456789.") == strlen(h);
}

/* A host name or an unbracketed address, up to ':', '/' or the end. */
static int parse_plain_host(struct cursor *c, struct ust_url *u)
{
	size_t start = c->i, len;
	struct in_addr a4;

	while (!at_separator(c)) {
		if (!host_char(peek(c)))
			return fail_at(c, c->i, "invalid character '%c' in host name", peek(c));
		c->i++;
	}
	len = c->i - start;
	if (len == 0) {
		if (u->family == AF_INET6 && peek(c) == ':')
			return fail_at(c, start, "missing host (an IPv6 address goes in brackets: %s://[::1])",
				       u->scheme);
		return fail_at(c, start, "missing host");
	}
	if (len >= sizeof(u->host))
		return fail_at(c, start, "host name too long (%zu characters, at most %zu)",
			       len, sizeof(u->host) - 1);
	memcpy(u->host, c->s + start, len);
	u->host[len] = '\0';
	if (looks_ipv4(u->host) && (u->family != AF_INET ||
				    inet_pton(AF_INET, u->host, &a4) != 1))
		return fail_at(c, start, "'%s' is not an %s address", u->host,
			       u->family == AF_INET ? "IPv4" : "IPv6 (brackets: [::1])");
	return 0;
}

/* One ":PORT" (the ':' is at c->i); empty means "the default". */
static int parse_port(struct cursor *c, uint16_t *port)
{
	size_t start = ++c->i;
	unsigned long v = 0;

	while (!at_separator(c)) {
		if (peek(c) < '0' || peek(c) > '9') {
			size_t end = start + strcspn(c->s + start, ":/");

			return fail_at(c, start, "invalid port '%.*s': expected a number from 1 to 65535",
				       (int)(end - start > 16 ? 16 : end - start), c->s + start);
		}
		if (v <= 65535)
			v = v * 10 + (unsigned long)(peek(c) - '0');
		c->i++;
	}
	if (c->i > start && (v == 0 || v > 65535))
		return fail_at(c, start, "port %.*s out of range (1 to 65535)",
			       (int)(c->i - start > 16 ? 16 : c->i - start), c->s + start);
	*port = (uint16_t)v;
	return 0;
}

static int parse_ports(struct cursor *c, struct ust_url *u)
{
	unsigned int n = 0;

	while (peek(c) == ':') {
		if (n == (u->two_ports ? 2u : 1u))
			return fail_at(c, c->i, u->two_ports ?
				       "%s:// takes at most two ports (control and data)" :
				       "%s:// takes one port (net:// takes two: control and data)",
				       u->scheme);
		u->port_at[n] = c->i;
		if (parse_port(c, &u->port[n++]))
			return -1;
	}
	return 0;
}

int ust_url_parse(const char *text, struct ust_url *u, char *err, size_t errlen)
{
	struct cursor c = { .s = text, .i = 0, .err = err, .errlen = errlen };

	memset(u, 0, sizeof(*u));
	if (strlen(text) >= sizeof(u->text))
		return fail_at(&c, sizeof(u->text) - 1, "URL too long (at most %zu characters)",
			       sizeof(u->text) - 1);
	strcpy(u->text, text);
	if (parse_scheme(&c, u))
		return -1;
	if (peek(&c) == '[' ? parse_bracketed_host(&c, u) : parse_plain_host(&c, u))
		return -1;
	if (parse_ports(&c, u))
		return -1;
	if (peek(&c) == '/')
		strcpy(u->path, c.s + c.i + 1);
	return 0;
}

/* The path may not climb out of the relay's output directory. */
static int check_base_path(const struct ust_url *u, char *err, size_t errlen)
{
	struct cursor c = { .s = u->text, .err = err, .errlen = errlen };
	size_t base = strlen(u->text) - strlen(u->path);
	const char *p = u->path;

	while (*p) {
		size_t len = strcspn(p, "/");

		if (len == 2 && p[0] == '.' && p[1] == '.')
			return fail_at(&c, base + (size_t)(p - u->path),
				       "the session path may not contain '..'");
		if (len > 0 && p[0] == '.')
			return fail_at(&c, base + (size_t)(p - u->path),
				       "the session path may not have a hidden ('.') part");
		p += len + (p[len] == '/');
	}
	return 0;
}

/* What a relay's URL is for: a session's traces, or a live viewer. */
enum relay_use { RELAY_USE_SESSION, RELAY_USE_LIVE };

/*
 * `text` as a relay's URL, which names two ports by its scheme (net://,
 * net4://, net6://); else -1, saying what `use` expects instead.
 */
static int parse_relay(const char *text, struct ust_url *u, enum relay_use use,
		       char *err, size_t errlen)
{
	struct cursor c = { .s = text, .err = err, .errlen = errlen };

	if (ust_url_parse(text, u, err, errlen))
		return -1;
	if (u->two_ports)
		return 0;
	if (use == RELAY_USE_LIVE)
		return fail_at(&c, 0, "a live URL is net://, net4:// or net6:// (not %s://)",
			       u->scheme);
	return fail_at(&c, 0, "%s:// names one port: give net://HOST[:CTRL_PORT[:DATA_PORT]], or a control URL and a data URL",
		       u->scheme);
}

int ust_relay_url_parse(const char *text, struct ust_relay_url *r,
			char *err, size_t errlen)
{
	memset(r, 0, sizeof(*r));
	if (parse_relay(text, &r->ctrl, RELAY_USE_SESSION, err, errlen) ||
	    check_base_path(&r->ctrl, err, errlen))
		return -1;
	r->ctrl_port = r->ctrl.port[0] ? r->ctrl.port[0] : UST_RELAY_CTRL_PORT;
	r->data_port = r->ctrl.port[1] ? r->ctrl.port[1] : UST_RELAY_DATA_PORT;
	return 0;
}

/* Prefix "control URL: " or "data URL: " to what the parser said. */
static int fail_which(const char *which, const char *why, char *err, size_t errlen)
{
	char copy[512];

	snprintf(copy, sizeof(copy), "%s", why);
	snprintf(err, errlen, "%s URL: %s", which, copy);
	return -1;
}

int ust_relay_url_pair(const char *ctrl, const char *data, struct ust_relay_url *r,
		       char *err, size_t errlen)
{
	struct ust_url d;

	if (!data)
		return ust_relay_url_parse(ctrl, r, err, errlen);
	memset(r, 0, sizeof(*r));
	if (ust_url_parse(ctrl, &r->ctrl, err, errlen))
		return fail_which("control", err, err, errlen);
	if (ust_url_parse(data, &d, err, errlen))
		return fail_which("data", err, err, errlen);
	if (r->ctrl.two_ports)
		return fail_which("control", "column 1: with a data URL, the control URL is tcp://HOST[:PORT]",
				  err, errlen);
	if (d.two_ports)
		return fail_which("data", "column 1: a data URL is tcp://HOST[:PORT]", err, errlen);
	if (d.path[0])
		return fail_which("data", "a data URL has no path (the control URL gives it)",
				  err, errlen);
	if (d.family != r->ctrl.family || strcmp(d.host, r->ctrl.host)) {
		snprintf(err, errlen, "the control URL and the data URL name different hosts ('%s' and '%s')",
			 r->ctrl.host, d.host);
		return -1;
	}
	if (check_base_path(&r->ctrl, err, errlen))
		return fail_which("control", err, err, errlen);
	r->ctrl_port = r->ctrl.port[0] ? r->ctrl.port[0] : UST_RELAY_CTRL_PORT;
	r->data_port = d.port[0] ? d.port[0] : UST_RELAY_DATA_PORT;
	return 0;
}

/* One part of "host/HOSTNAME/SESSION", up to the next '/' or the end. */
static int take_part(struct cursor *c, char *dst, size_t dstlen, const char *what)
{
	size_t len = strcspn(c->s + c->i, "/");

	if (len == 0)
		return fail_at(c, c->i, "missing %s in 'host/HOSTNAME/SESSION'", what);
	if (len >= dstlen)
		return fail_at(c, c->i, "%s too long", what);
	memcpy(dst, c->s + c->i, len);
	c->i += len;
	return 0;
}

/* "host/HOSTNAME/SESSION", the path of a live URL. */
static int parse_live_path(struct cursor *c, struct ust_live_url *l)
{
	if (strncmp(c->s + c->i, "host/", 5))
		return fail_at(c, c->i, "expected 'host/HOSTNAME/SESSION' after '/'");
	c->i += 5;
	if (take_part(c, l->hostname, sizeof(l->hostname), "HOSTNAME"))
		return -1;
	if (peek(c) != '/')
		return fail_at(c, c->i, "missing '/SESSION' after the HOSTNAME");
	c->i++;
	if (take_part(c, l->session, sizeof(l->session), "SESSION"))
		return -1;
	if (peek(c) == '/')
		return fail_at(c, c->i, "unexpected '/' after the SESSION name");
	return 0;
}

int ust_live_url_parse(const char *text, struct ust_live_url *l,
		       char *err, size_t errlen)
{
	struct cursor c = { .s = text, .err = err, .errlen = errlen };
	size_t path_at;

	memset(l, 0, sizeof(*l));
	if (parse_relay(text, &l->relay, RELAY_USE_LIVE, err, errlen))
		return -1;
	path_at = strlen(text) - strlen(l->relay.path);
	if (l->relay.port[1])
		return fail_at(&c, l->relay.port_at[1],
			       "a live URL has one port, the relay's live port");
	l->port = l->relay.port[0] ? l->relay.port[0] : UST_RELAY_LIVE_PORT;
	if (!l->relay.path[0]) {
		if (text[strlen(text) - 1] == '/')
			return fail_at(&c, path_at, "expected 'host/HOSTNAME/SESSION' after '/'");
		return 0;
	}
	c.i = path_at;
	return parse_live_path(&c, l);
}

void ust_url_format_endpoint(const struct ust_url *u, uint16_t port,
			     char *buf, size_t len)
{
	bool v6 = u->family == AF_INET6 && strchr(u->host, ':');

	snprintf(buf, len, "%s://%s%s%s:%u", u->scheme, v6 ? "[" : "", u->host,
		 v6 ? "]" : "", port);
}
