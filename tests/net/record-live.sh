#!/usr/bin/env bash
# record-live.sh - `ust record --relayd --live`: while the program runs,
# babeltrace2's lttng-live source and `ust view --live net://...` print its
# events (within about a live period, although one CPU's stream stays
# quiet: the program is pinned to CPU 0, and CPU 1's stream only says
# "nothing yet"), and at the end both have printed exactly what the relay
# stored.  The relay's copy reads the same in babeltrace2 and ust view.
# As root, once more with --kernel: the kernel trace's relay session is
# listed first (ust-kerneld starts before the program), the program's
# comes later, and `ust view --live` follows both.
# SPDX-License-Identifier: GPL-2.0-only
set -eu
. "$(dirname "$0")/lib.sh"

command -v taskset >/dev/null || skip "no taskset"
[ "$(nproc)" -ge 2 ] || skip "needs 2 CPUs (a quiet one)"
start_relayd 127.0.0.1 "$WORK/relay"
URL="net://127.0.0.1:$CTRL:$DATA"
LIVE_URL="net://127.0.0.1:$LIVE_PORT"
host=$(hostname | sed 's/[^A-Za-z0-9._-]/_/g')

# record SESSION [OPTIONS]: 6000 events over about 6 s, in the background
record_live() {
	local s=$1

	shift
	"$UST" record -o "$WORK/local" --relayd "$URL" --live=500ms --session "$s" "$@" -- \
		taskset -c 0 "$STRESS" -t 1 -n 6000 -r 1 >"$WORK/$s.out" 2>"$WORK/$s.err" &
}

# Wait until the relay lists SESSION.
wait_listed() {
	local tries

	for tries in $(seq 200); do
		"$LIVE" --list "$LIVE_URL" 2>/dev/null | grep -q " host=$host name=$1 " && return 0
		sleep 0.05
	done
	fail "session $1 not listed"
}

# VIEWER_FILE printed events while the program still ran.
check_early() {
	sleep 3
	kill -0 "$1" 2>/dev/null || fail "the recording ended too soon to tell"
	[ "$(grep -c '^\[' "$2")" -ge 500 ] ||
		fail "$(grep -c '^\[' "$2") events printed after 3 s of 6 (a quiet stream holds the view back?)"
}

viewers="bt2 ust"
if [ "$(id -u)" = 0 ]; then
	export UST_KERNELD="$top_builddir/consumer/kernel/ust-kerneld"
	viewers="$viewers kernel"
fi
mkdir "$WORK/local"
for viewer in $viewers; do
	if [ $viewer = kernel ]; then
		record_live "$viewer" --kernel=sched:sched_switch
	else
		record_live "$viewer"
	fi
	rec=$!
	wait_listed "$viewer"
	if [ $viewer = bt2 ]; then
		timeout 90 "$BT2" --clock-gmt --input-format=lttng-live "$LIVE_URL/host/$host/$viewer" \
			>"$WORK/$viewer.txt" 2>"$WORK/$viewer-view.err" &
	else
		timeout 90 "$UST" view --clock-gmt --live "$LIVE_URL/host/$host/$viewer" \
			>"$WORK/$viewer.txt" 2>"$WORK/$viewer-view.err" &
	fi
	view=$!
	check_early "$rec" "$WORK/$viewer.txt"
	wait "$rec" || { cat "$WORK/$viewer.err"; fail "ust record ($viewer)"; }
	wait "$view" || { cat "$WORK/$viewer-view.err"; fail "$viewer viewer"; }
	[ -s "$WORK/$viewer-view.err" ] && { cat "$WORK/$viewer-view.err"; fail "$viewer viewer said something"; }
	grep -q "^ust record: follow it live: ust view --live net://127.0.0.1:5344/host/$host/$viewer\$" \
		"$WORK/$viewer.err" || { cat "$WORK/$viewer.err"; fail "no follow line"; }
	S=$(ls -d "$WORK/relay/$host/$viewer"-*)
	"$BT2" --clock-gmt "$S" >"$WORK/$viewer-stored.txt" 2>"$WORK/$viewer-stored.err"
	[ -s "$WORK/$viewer-stored.err" ] && { cat "$WORK/$viewer-stored.err"; fail "stored trace warnings"; }
	[ "$(grep -c ' stress:tick: ' "$WORK/$viewer-stored.txt")" = 6000 ] ||
		fail "$viewer: $(grep -c ' stress:tick: ' "$WORK/$viewer-stored.txt") program events stored"
	cmp "$WORK/$viewer.txt" "$WORK/$viewer-stored.txt" ||
		{ diff "$WORK/$viewer.txt" "$WORK/$viewer-stored.txt" | head; fail "$viewer printed other events live"; }
	"$UST" view --clock-gmt "$S" >"$WORK/$viewer-view-stored.txt"
	cmp "$WORK/$viewer-view-stored.txt" "$WORK/$viewer-stored.txt" || fail "ust view differs on the stored trace"
	# CPU 1 stayed quiet: its stream is there, with one empty packet
	[ -f "$S"/stress-*/ust_1 ] || fail "no stream for the quiet CPU"
	if [ $viewer = kernel ] && grep -q "^ust record: kernel trace on lttng-relayd" "$WORK/$viewer.err"; then
		grep -q ' sched_switch: ' "$WORK/$viewer.txt" || fail "no kernel event followed"
	fi
done
[ -z "$(ls "$WORK/local")" ] || fail "local files: $(ls -A "$WORK/local")"
echo "PASS: live recordings followed ($viewers), as stored"
