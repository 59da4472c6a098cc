#!/usr/bin/env bash
# snapshot.sh - flight recorder with --relayd: the trace (its streamed
# state channel, which snapshots read back) stays in DIR, and each
# snapshot, written there, also goes to the relay session, where it reads
# exactly as the local one; the summary lists both places.  And
# `ust record --kernel --relayd` (as root) puts the kernel trace in the
# same relay session.
# SPDX-License-Identifier: GPL-2.0-only
set -eu
. "$(dirname "$0")/lib.sh"

APP="$top_builddir/tests/flight/flight-app"
[ -x "$APP" ] || make -C "$top_builddir/tests/flight" flight-app >/dev/null
start_relayd 127.0.0.1 "$WORK/relay"
URL="net://127.0.0.1:$CTRL:$DATA"
host=$(hostname | sed 's/[^A-Za-z0-9._-]/_/g')
mkdir "$WORK/f"

"$UST" record --flight-recorder -o "$WORK/f" --subbuf-size 64k --relayd "$URL" -- \
	"$APP" -N fm -n 200000 -t 150000 >"$WORK/f.out" 2>"$WORK/f.err" ||
	{ cat "$WORK/f.err"; fail "ust record"; }
snap=$(ls -d "$WORK/f"/flight-app-*-snapshot-1-at-150000)
name=$(basename "$snap")
grep -qx "ust record:     snapshot $snap" "$WORK/f.err" || fail "summary: $(cat "$WORK/f.err")"
rsnap=$(sed -n "s#^ust record:     snapshot on lttng-relayd: \(.*/$name\)\$#\1#p" "$WORK/f.err")
[ -n "$rsnap" ] || { cat "$WORK/f.err"; fail "no relay snapshot line"; }
[ -d "$WORK/relay/$rsnap" ] || fail "no $rsnap on the relay"
case $rsnap in "$host"/flight-app-*/"$name") ;; *) fail "relay place $rsnap" ;; esac
bt2_text "$snap" >"$WORK/local.txt"
bt2_text "$WORK/relay/$rsnap" >"$WORK/relay.txt"
cmp "$WORK/local.txt" "$WORK/relay.txt" || fail "the relay's snapshot reads differently"
grep -q 'ust:trigger' "$WORK/relay.txt" || fail "no trigger event in the relay's snapshot"
"$UST" view "$WORK/relay/$rsnap" >/dev/null || fail "ust view on the relay's snapshot"

# the kernel trace joins the session
if [ "$(id -u)" = 0 ] && [ -x "$top_builddir/consumer/kernel/ust-kerneld" ]; then
	export UST_KERNELD="$top_builddir/consumer/kernel/ust-kerneld"
	mkdir "$WORK/k"
	"$UST" record -o "$WORK/k" --kernel --relayd "$URL" --session kern -- "$STRESS" -t 2 -n 5000 \
		>/dev/null 2>"$WORK/k.err" || { cat "$WORK/k.err"; fail "ust record --kernel"; }
	if grep -q "^ust record: kernel trace on lttng-relayd at $URL: $host/kern-[0-9-]*/kernel: [0-9]* events, 0 lost\$" "$WORK/k.err"; then
		S=$(ls -d "$WORK/relay/$host"/kern-*)
		[ -d "$S/kernel" ] && ls "$S/kernel" | grep -q '^kernel_0$' || fail "no kernel trace in $S"
		n=$(sed -n 's/.*kernel: \([0-9]*\) events, 0 lost$/\1/p' "$WORK/k.err")
		[ "$("$BT2" "$S/kernel" | wc -l)" = "$n" ] || fail "kernel events: $n said"
		[ "$("$UST" view "$S/kernel" | wc -l)" = "$n" ] || fail "ust view: kernel events"
		"$BT2" "$S" >/dev/null 2>"$WORK/k-all.err" || fail "babeltrace2 on the session"
		[ -z "$(ls "$WORK/k")" ] || fail "local files: $(ls -A "$WORK/k")"
	else
		grep -q "kernel events" "$WORK/k.err" || { cat "$WORK/k.err"; fail "kernel: no line"; }
		echo "note: kernel events unavailable here: $(grep 'kernel' "$WORK/k.err" | head -n 1)"
	fi
else
	echo "note: not root: the kernel part is not run"
fi
echo "PASS: snapshot on the relay as written locally; kernel trace in the session"
