#!/usr/bin/env bash
# ipv6.sh - the same over IPv6 loopback: net6://[::1]:CTRL:DATA to a relay
# listening on tcp6://[::1], stored as recorded, and followed live by our
# viewer (net6://[::1]:LIVE/host/H/S).  babeltrace2 2.0's lttng-live URL
# parser takes no bracketed IPv6 address, so it is not run here.
# SPDX-License-Identifier: GPL-2.0-only
set -eu
. "$(dirname "$0")/lib.sh"

"$PY" -c 'import socket; socket.socket(socket.AF_INET6).bind(("::1", 0))' 2>/dev/null ||
	skip "no IPv6 loopback (::1) on this machine"

start_relayd ::1 "$WORK/relay"
T=$(record "$WORK/t" -t 2 -n 5000 -s)
timeout 60 "$REPLAY" --url "net6://[::1]:$CTRL:$DATA" --session v6 --hostname h6 --live 100000 \
	--hold-ms 1500 --wait-viewer "net6://[::1]:$LIVE_PORT" "$T" >"$WORK/replay.out" 2>"$WORK/replay.err" &
pr=$!
wait_line "$WORK/replay.out" ready
timeout 60 "$LIVE" --dump "$WORK/mirror" "net6://[::1]:$LIVE_PORT/host/h6/v6" >/dev/null 2>"$WORK/live.err" ||
	{ cat "$WORK/live.err"; fail "relay-live over IPv6"; }
wait "$pr" || { cat "$WORK/replay.err"; fail "replay over IPv6"; }
out=$(value output_path "$WORK/replay.out")
bt2_text "$T" >"$WORK/local.txt"
bt2_text "$WORK/relay/$out" >"$WORK/relay.txt"
cmp "$WORK/local.txt" "$WORK/relay.txt" || fail "the relay's copy reads differently"
bt2_text "$WORK/mirror" >"$WORK/mirror.txt"
cmp "$WORK/local.txt" "$WORK/mirror.txt" || fail "the live mirror reads differently"

# refused over IPv6 names the URL as given
read -r P1 P2 P3 < <(free_ports ::1)
rc=0
timeout 10 "$REPLAY" --url "net6://[::1]:$P1:$P2" --session s --hostname h "$T" >/dev/null 2>"$WORK/refused.err" || rc=$?
[ "$rc" = 1 ] || fail "refused: exit $rc"
[ "$(cat "$WORK/refused.err")" = "relay-replay: lttng-relayd at net6://[::1]:$P1:$P2: control port $P1: Connection refused" ] ||
	fail "refused: $(cat "$WORK/refused.err")"
echo "PASS: IPv6 loopback, stored and followed live as recorded"
