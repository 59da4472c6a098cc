#!/bin/sh
# A flight-recorder snapshot that does not fit on the disk (issue 21,
# item 6) leaves nothing behind: it is written under a hidden name and
# renamed only once complete, removed on failure.  Before, the truncated
# packet it left made babeltrace2 and `ust view` refuse the whole output
# directory.  A 256 KiB tmpfs; 2 x 8 x 64 KiB flight buffers, full (one
# buffer alone is more than the disk: a snapshot holds at least that).
. "$top_srcdir/tests/faults/lib.sh"

need_babeltrace2
mount_tmpfs "$WORK/disk" 256k

"$UST" record --flight-recorder --subbuf-size 64k --subbuf-count 8 -o "$WORK/disk" -- \
	"$APP" -t 2 -P -n 100000 -g "$WORK/go" >"$WORK/out" 2>"$WORK/err" &
rec=$!
wait_for_line "$WORK/out" ready
pid=$(field pid "$WORK/out")
status=0
"$UST" snapshot "$pid" >"$WORK/snap.out" 2>"$WORK/snap.err" || status=$?
touch "$WORK/go"
wait $rec || true
# The output directory is readable: the trace (its state channel) alone.
babeltrace2 "$WORK/disk" >/dev/null 2>"$WORK/bt" || fail "babeltrace2: $(cat "$WORK/bt")"
"$UST" view "$WORK/disk" >/dev/null 2>"$WORK/view" || fail "ust view: $(cat "$WORK/view")"
# Nothing left of it, under any name.
left=$(ls -A "$WORK/disk" | grep -v "^faultapp-$pid-[0-9-]*\$" || true)
[ -z "$left" ] || fail "left behind: $left"
[ $status = 1 ] || fail "ust snapshot: exit status $status: $(cat "$WORK/snap.err")"
[ "$(cat "$WORK/snap.err")" = "ust snapshot: process $pid: the snapshot failed: No space left on device" ] ||
	fail "ust snapshot said: $(cat "$WORK/snap.err")"
grep -q "^ust-consumerd: snapshot $WORK/disk/faultapp-$pid-[0-9-]*-snapshot-1-manual: No space left on device; nothing written$" "$WORK/err" ||
	fail "no consumer message: $(cat "$WORK/err")"
echo ok
