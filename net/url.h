/*
 * url.h - the relay URLs users type, in the forms LTTng's tools accept.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 *   net://HOST[:CTRL_PORT[:DATA_PORT]][/PATH]    IPv4 (net4:// too)
 *   net6://HOST[:CTRL_PORT[:DATA_PORT]][/PATH]   IPv6
 *   tcp://HOST[:PORT][/PATH]                     one port (tcp4://, tcp6://)
 *
 * HOST is a name or an address; an IPv6 address goes in brackets
 * (net6://[::1]:5342).  The scheme is case-insensitive.  An empty port
 * (net://host::6000) keeps its default.  Nothing is resolved here: names
 * are looked up when connecting (net/sock.c), in the scheme's family.
 *
 * Errors say where: "column N: ..." counts characters of the URL from 1.
 */
#ifndef UST_NET_URL_H
#define UST_NET_URL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define UST_RELAY_CTRL_PORT	5342	/* lttng-relayd's defaults */
#define UST_RELAY_DATA_PORT	5343
#define UST_RELAY_LIVE_PORT	5344

#define UST_URL_MAX		4096
#define UST_URL_HOST_MAX	256
#define UST_URL_NAME_MAX	256	/* live URL's hostname and session */

struct ust_url {
	char text[UST_URL_MAX];		/* as given, for messages */
	char scheme[8];			/* lower case: "net", "tcp6", ... */
	int family;			/* AF_INET or AF_INET6 */
	bool two_ports;			/* net*: control and data ports */
	char host[UST_URL_HOST_MAX];	/* without the brackets */
	uint16_t port[2];		/* as given; 0 = not given */
	size_t port_at[2];		/* index of each port's ':' */
	char path[UST_URL_MAX];		/* after the first '/'; "" if none */
};

/*
 * Parse any of the forms above into `u`.  Returns 0, or -1 with "column
 * N: reason" in err.
 */
int ust_url_parse(const char *text, struct ust_url *u, char *err, size_t errlen);

/* Where a relay session streams to: its control and data ports. */
struct ust_relay_url {
	struct ust_url ctrl;		/* host, family, base path */
	uint16_t ctrl_port;		/* defaults applied */
	uint16_t data_port;
};

/*
 * The relay destination of `ust record --relayd URL` and UST_OUTPUT:
 * net://, net4:// or net6:// (a tcp:// URL names one port only, so it
 * needs a data URL: ust_relay_url_pair()).  The path, if any, is the
 * session's directory under HOST in the relay's output (lttng's "base
 * path"); it may not climb with "..".
 */
int ust_relay_url_parse(const char *text, struct ust_relay_url *r,
			char *err, size_t errlen);

/*
 * A control URL and a data URL given apart (lttng's -C/-D): either both
 * tcp* naming the same host, or `data` NULL and `ctrl` a net* URL.
 */
int ust_relay_url_pair(const char *ctrl, const char *data, struct ust_relay_url *r,
		       char *err, size_t errlen);

/*
 * A live viewer URL, as babeltrace2's lttng-live source takes it:
 * net://HOST[:LIVE_PORT][/host/HOSTNAME/SESSION] (net4://, net6:// too).
 * Without the path it names the relay only (to list its sessions).
 */
struct ust_live_url {
	struct ust_url relay;
	uint16_t port;			/* default 5344 applied */
	char hostname[UST_URL_NAME_MAX];	/* "" when not given */
	char session[UST_URL_NAME_MAX];
};

int ust_live_url_parse(const char *text, struct ust_live_url *l,
		       char *err, size_t errlen);

/* "net://127.0.0.1:5342" style text of a host and port, for messages. */
void ust_url_format_endpoint(const struct ust_url *u, uint16_t port,
			     char *buf, size_t len);

#endif /* UST_NET_URL_H */
