/*
 * check_url.c - the relay and live URL forms (net/url.c), accepted and
 * refused, with the exact messages users read.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include <check.h>
#include <string.h>
#include <sys/socket.h>

#include "../check_run.h"
#include "net/url.h"

static char err[512];

static struct ust_relay_url relay_ok(const char *text)
{
	struct ust_relay_url r;

	err[0] = '\0';
	ck_assert_msg(!ust_relay_url_parse(text, &r, err, sizeof(err)), "%s: %s", text, err);
	return r;
}

static void relay_bad(const char *text, const char *want)
{
	struct ust_relay_url r;

	ck_assert_msg(ust_relay_url_parse(text, &r, err, sizeof(err)) == -1, "%s accepted", text);
	ck_assert_str_eq(err, want);
}

START_TEST(relay_defaults)
{
	struct ust_relay_url r = relay_ok("net://relay.example.com");

	ck_assert_str_eq(r.ctrl.host, "relay.example.com");
	ck_assert_int_eq(r.ctrl.family, AF_INET);
	ck_assert_uint_eq(r.ctrl_port, 5342);
	ck_assert_uint_eq(r.data_port, 5343);
	ck_assert_str_eq(r.ctrl.path, "");
}
END_TEST

START_TEST(relay_ports)
{
	struct ust_relay_url r = relay_ok("net://127.0.0.1:6000:6001");

	ck_assert_uint_eq(r.ctrl_port, 6000);
	ck_assert_uint_eq(r.data_port, 6001);
	r = relay_ok("net://127.0.0.1:6000");
	ck_assert_uint_eq(r.ctrl_port, 6000);
	ck_assert_uint_eq(r.data_port, 5343);
	/* an empty port keeps its default, as in lttng */
	r = relay_ok("net://127.0.0.1::6001");
	ck_assert_uint_eq(r.ctrl_port, 5342);
	ck_assert_uint_eq(r.data_port, 6001);
	r = relay_ok("NET4://10.0.0.1:1:65535/fleet/web");
	ck_assert_str_eq(r.ctrl.scheme, "net4");
	ck_assert_uint_eq(r.ctrl_port, 1);
	ck_assert_uint_eq(r.data_port, 65535);
	ck_assert_str_eq(r.ctrl.path, "fleet/web");
}
END_TEST

START_TEST(relay_ipv6)
{
	struct ust_relay_url r = relay_ok("net6://[::1]:7000:7001");

	ck_assert_int_eq(r.ctrl.family, AF_INET6);
	ck_assert_str_eq(r.ctrl.host, "::1");
	ck_assert_uint_eq(r.ctrl_port, 7000);
	ck_assert_uint_eq(r.data_port, 7001);
	r = relay_ok("net6://[fe80::1:2]");
	ck_assert_str_eq(r.ctrl.host, "fe80::1:2");
	r = relay_ok("net6://ip6-localhost");
	ck_assert_str_eq(r.ctrl.host, "ip6-localhost");
}
END_TEST

START_TEST(relay_errors)
{
	relay_bad("relay:5342", "column 1: missing scheme: expected net://, net6://, tcp:// or tcp6://");
	relay_bad("http://relay", "column 1: unknown scheme 'http://': expected net://, net6://, tcp:// or tcp6://");
	relay_bad("file:///tmp/x", "column 1: file:// is a local directory: give the directory itself");
	relay_bad("net://", "column 7: missing host");
	relay_bad("net://:5342", "column 7: missing host");
	relay_bad("net6://::1", "column 8: missing host (an IPv6 address goes in brackets: net6://[::1])");
	relay_bad("net://[::1]", "column 7: an IPv6 address needs net6:// or tcp6:// (this is net://)");
	relay_bad("net6://[::1", "column 8: '[' without its ']'");
	relay_bad("net6://[]", "column 9: empty IPv6 address");
	relay_bad("net6://[::g]", "column 9: '::g' is not an IPv6 address");
	relay_bad("net6://[::1]x", "column 13: unexpected 'x' after the IPv6 address");
	relay_bad("net://127.0.0.300", "column 7: '127.0.0.300' is not an IPv4 address");
	relay_bad("net://re lay", "column 9: invalid character ' ' in host name");
	relay_bad("net://relay:http", "column 13: invalid port 'http': expected a number from 1 to 65535");
	relay_bad("net://relay:0", "column 13: port 0 out of range (1 to 65535)");
	relay_bad("net://relay:5342:65536", "column 18: port 65536 out of range (1 to 65535)");
	relay_bad("net://relay:1:2:3", "column 16: net:// takes at most two ports (control and data)");
	relay_bad("tcp://relay:1:2", "column 14: tcp:// takes one port (net:// takes two: control and data)");
	relay_bad("tcp://relay:5342", "column 1: tcp:// names one port: give net://HOST[:CTRL_PORT[:DATA_PORT]], or a control URL and a data URL");
	relay_bad("net://relay/a/../b", "column 15: the session path may not contain '..'");
	relay_bad("net://relay/.hidden", "column 13: the session path may not have a hidden ('.') part");
}
END_TEST

START_TEST(relay_pair)
{
	struct ust_relay_url r;

	ck_assert(!ust_relay_url_pair("tcp://127.0.0.1:7000/x", "tcp://127.0.0.1:7001", &r,
				      err, sizeof(err)));
	ck_assert_uint_eq(r.ctrl_port, 7000);
	ck_assert_uint_eq(r.data_port, 7001);
	ck_assert_str_eq(r.ctrl.path, "x");
	ck_assert(!ust_relay_url_pair("tcp6://[::1]", "tcp6://[::1]", &r, err, sizeof(err)));
	ck_assert_uint_eq(r.ctrl_port, 5342);
	ck_assert_uint_eq(r.data_port, 5343);
	ck_assert(!ust_relay_url_pair("net://h:1:2", NULL, &r, err, sizeof(err)));
	ck_assert_uint_eq(r.data_port, 2);
	ck_assert_int_eq(ust_relay_url_pair("tcp://a:1", "tcp://b:2", &r, err, sizeof(err)), -1);
	ck_assert_str_eq(err, "the control URL and the data URL name different hosts ('a' and 'b')");
	ck_assert_int_eq(ust_relay_url_pair("net://a", "tcp://a:2", &r, err, sizeof(err)), -1);
	ck_assert_str_eq(err, "control URL: column 1: with a data URL, the control URL is tcp://HOST[:PORT]");
	ck_assert_int_eq(ust_relay_url_pair("tcp://a", "tcp://a:x", &r, err, sizeof(err)), -1);
	ck_assert_str_eq(err, "data URL: column 9: invalid port 'x': expected a number from 1 to 65535");
	ck_assert_int_eq(ust_relay_url_pair("tcp://a", "tcp6://[::1]", &r, err, sizeof(err)), -1);
	ck_assert_str_eq(err, "the control URL and the data URL name different hosts ('a' and '::1')");
}
END_TEST

static struct ust_live_url live_ok(const char *text)
{
	struct ust_live_url l;

	ck_assert_msg(!ust_live_url_parse(text, &l, err, sizeof(err)), "%s: %s", text, err);
	return l;
}

static void live_bad(const char *text, const char *want)
{
	struct ust_live_url l;

	ck_assert_msg(ust_live_url_parse(text, &l, err, sizeof(err)) == -1, "%s accepted", text);
	ck_assert_str_eq(err, want);
}

START_TEST(live_forms)
{
	struct ust_live_url l = live_ok("net://127.0.0.1:6004/host/web-3/ust-record-42");

	ck_assert_uint_eq(l.port, 6004);
	ck_assert_str_eq(l.hostname, "web-3");
	ck_assert_str_eq(l.session, "ust-record-42");
	l = live_ok("net://relay");
	ck_assert_uint_eq(l.port, 5344);
	ck_assert_str_eq(l.hostname, "");
	l = live_ok("net6://[::1]/host/h/s");
	ck_assert_int_eq(l.relay.family, AF_INET6);
	ck_assert_str_eq(l.session, "s");
	live_bad("tcp://relay:5344", "column 1: a live URL is net://, net4:// or net6:// (not tcp://)");
	live_bad("net://relay:5344:5345", "column 17: a live URL has one port, the relay's live port");
	live_bad("net://relay/", "column 13: expected 'host/HOSTNAME/SESSION' after '/'");
	live_bad("net://relay/hosts/h/s", "column 13: expected 'host/HOSTNAME/SESSION' after '/'");
	live_bad("net://relay/host//s", "column 18: missing HOSTNAME in 'host/HOSTNAME/SESSION'");
	live_bad("net://relay/host/h", "column 19: missing '/SESSION' after the HOSTNAME");
	live_bad("net://relay/host/h/", "column 20: missing SESSION in 'host/HOSTNAME/SESSION'");
	live_bad("net://relay/host/h/s/x", "column 21: unexpected '/' after the SESSION name");
}
END_TEST

START_TEST(endpoint_text)
{
	struct ust_relay_url r = relay_ok("net6://[::1]:7000");
	char buf[128];

	ust_url_format_endpoint(&r.ctrl, r.data_port, buf, sizeof(buf));
	ck_assert_str_eq(buf, "net6://[::1]:5343");
	r = relay_ok("net://localhost");
	ust_url_format_endpoint(&r.ctrl, r.ctrl_port, buf, sizeof(buf));
	ck_assert_str_eq(buf, "net://localhost:5342");
}
END_TEST

static Suite *url_suite(void)
{
	Suite *s = suite_create("url");
	TCase *tc = tcase_create("url");

	tcase_add_test(tc, relay_defaults);
	tcase_add_test(tc, relay_ports);
	tcase_add_test(tc, relay_ipv6);
	tcase_add_test(tc, relay_errors);
	tcase_add_test(tc, relay_pair);
	tcase_add_test(tc, live_forms);
	tcase_add_test(tc, endpoint_text);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run(url_suite());
}
