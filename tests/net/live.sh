#!/usr/bin/env bash
# live.sh - a live session followed while it is sent: babeltrace2's
# lttng-live source and our viewer client (relay-live, which mirrors the
# session into a directory) each get every event, identical to the local
# trace.  The metadata goes in increments (the fixed part, then each
# event class) between packets, streams that ended send beacons, and the
# session ends cleanly (the viewers exit by themselves).  Then the same
# with two consumers of one session, and the session list.
# SPDX-License-Identifier: GPL-2.0-only
set -eu
. "$(dirname "$0")/lib.sh"

start_relayd 127.0.0.1 "$WORK/relay"
A=$(record "$WORK/a" -t 2 -n 8000 -s)
B=$(record "$WORK/b" -t 1 -n 3000)
URL="net://127.0.0.1:$CTRL:$DATA"
LIVE_URL="net://127.0.0.1:$LIVE_PORT"

# replay NAME SESSION [ARGS...] TRACE...: a live session, in the
# background; its packets wait for a viewer to attach (so that it sees
# them all), and its connection lingers 1.5 s after the end: babeltrace2
# 2.0 drops what it has not read yet of a session it learns is closed.
replay() {
	local name=$1 session=$2

	shift 2
	timeout 60 "$REPLAY" --url "$URL" --session "$session" --hostname edge --live 100000 \
		--split-metadata --pace-ms 2 --hold-ms 1500 --uuid 0123456789abcdef0123456789abcdef \
		--wait-viewer "$LIVE_URL" "$@" >"$WORK/$name.out" 2>"$WORK/$name.err" &
}

check_replay() {
	wait "$1" || { cat "$WORK/$2.err"; fail "replay $2"; }
	grep -q "^sent=[0-9]* full=0 unsent=0 cut=0$" "$WORK/$2.out" || fail "$2: $(cat "$WORK/$2.out")"
}

same_text() {
	cmp "$1" "$2" || { diff "$1" "$2" | head; fail "$3"; }
}

bt2_text "$A" >"$WORK/a.txt"
bt2_text "$A" "$B" >"$WORK/ab.txt"

# 1. babeltrace2's lttng-live source
replay bt s1 "$A"; p=$!
wait_line "$WORK/bt.out" ready
timeout 60 "$BT2" --clock-gmt --input-format=lttng-live "$LIVE_URL/host/edge/s1" \
	>"$WORK/bt-live.txt" 2>"$WORK/bt-live.err" || { cat "$WORK/bt-live.err"; fail "babeltrace2 lttng-live"; }
check_replay "$p" bt
[ -s "$WORK/bt-live.err" ] && { cat "$WORK/bt-live.err"; fail "babeltrace2 lttng-live complained"; }
{ cat "$WORK/bt-live.txt"; echo "---- stderr"; } >"$WORK/bt-live.all"
same_text "$WORK/a.txt" "$WORK/bt-live.all" "babeltrace2 lttng-live printed other events"
# the increments reached the relay: one signature line per event class, and more
incs=$(grep -c '^/\* CTF 1.8 \*/$' "$WORK/relay/edge/"s1-*/"$(basename "$A")"/metadata)
classes=$(grep -c '^event {' "$A/metadata")
[ "$incs" -eq $((classes + 1)) ] || fail "$incs metadata increments for $classes event classes"

# 2. our viewer client, mirroring the session into a directory
replay own s2 "$A"; p=$!
wait_line "$WORK/own.out" ready
timeout 60 "$LIVE" --dump "$WORK/mirror" "$LIVE_URL/host/edge/s2" >"$WORK/dump.out" 2>"$WORK/dump.err" ||
	{ cat "$WORK/dump.err"; fail "relay-live --dump"; }
check_replay "$p" own
sent=$(sed -n 's/^sent=\([0-9]*\) .*/\1/p' "$WORK/own.out")
grep -qx "streams=[0-9]* packets=$sent bytes=[0-9]* ended=[0-9]*" "$WORK/dump.out" || fail "dump: $(cat "$WORK/dump.out"), sent $sent"
bt2_text "$WORK/mirror" >"$WORK/mirror.txt"
same_text "$WORK/a.txt" "$WORK/mirror.txt" "the mirror reads differently"
"$UST" view "$A" >"$WORK/view-a.txt"
"$UST" view "$WORK/mirror" >"$WORK/view-mirror.txt"
same_text "$WORK/view-a.txt" "$WORK/view-mirror.txt" "ust view reads the mirror differently"

# 3. two consumers, one session: listed twice under the same name, and
# both viewers get both processes' events
replay two-a s3 "$A" --id 7; pa=$!
replay two-b s3 "$B" --id 7; pb=$!
wait_line "$WORK/two-a.out" ready
wait_line "$WORK/two-b.out" ready
"$LIVE" --list "$LIVE_URL" >"$WORK/list.txt" || fail "relay-live --list"
[ "$(grep -c ' host=edge name=s3 clients=0 streams=[0-9]* live_timer=100000$' "$WORK/list.txt")" = 2 ] ||
	{ cat "$WORK/list.txt"; fail "s3 is not listed twice"; }
timeout 60 "$BT2" --clock-gmt --input-format=lttng-live "$LIVE_URL/host/edge/s3" \
	>"$WORK/bt-two.txt" 2>"$WORK/bt-two.err" || { cat "$WORK/bt-two.err"; fail "babeltrace2 on s3"; }
check_replay "$pa" two-a
check_replay "$pb" two-b
{ cat "$WORK/bt-two.txt"; echo "---- stderr"; cat "$WORK/bt-two.err"; } >"$WORK/bt-two.all"
same_text "$WORK/ab.txt" "$WORK/bt-two.all" "babeltrace2 lttng-live on two consumers"

replay own-a s4 "$A" --id 8; pa=$!
replay own-b s4 "$B" --id 8; pb=$!
wait_line "$WORK/own-a.out" ready
wait_line "$WORK/own-b.out" ready
timeout 60 "$LIVE" --dump "$WORK/mirror2" "$LIVE_URL/host/edge/s4" >/dev/null 2>"$WORK/dump2.err" ||
	{ cat "$WORK/dump2.err"; fail "relay-live on s4"; }
check_replay "$pa" own-a
check_replay "$pb" own-b
bt2_text "$WORK/mirror2" >"$WORK/mirror2.txt"
same_text "$WORK/ab.txt" "$WORK/mirror2.txt" "our viewer on two consumers"
echo "PASS: live sessions followed by babeltrace2 and by our viewer, as recorded"
