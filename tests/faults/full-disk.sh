#!/bin/sh
# Records lost to a full disk are counted (issue 21, item 5): the packets
# that could not be written are lost events in `ust record`'s summary,
# in `ust report`, and in the trace itself (events_discarded of a
# closing packet written in room kept for it), so that attempted =
# written + lost, exactly, for every reader; and the summary, whose room
# was kept at the start, still comes out (no "no trace was written").
# A 2 MiB tmpfs; 4 threads x 100 000 events (about 11 MiB).
. "$top_srcdir/tests/faults/lib.sh"

mount_tmpfs "$WORK/disk2" 1m

# With per-CPU buffers, then per-thread buffers (their streams are
# closed as their threads end: consumer/threads.c keeps those that lack
# records for their closing packets).
for buffers in per-cpu per-thread; do
umount "$WORK/disk" 2>/dev/null || true
rm -rf "$WORK/disk"
mount_tmpfs "$WORK/disk" 2m
status=0
"$UST" record -o "$WORK/disk" --buffers=$buffers --subbuf-size 16k --subbuf-count 8 -- \
	"$APP" -t 4 -n 100000 -r 200000 >"$WORK/out" 2>"$WORK/err" || status=$?
cat "$WORK/err"
attempted=$(field attempted "$WORK/out")
[ "$attempted" = 400000 ] || fail "faultapp: $(cat "$WORK/out")"
summary_counts "$WORK/err"
[ $((written + lost)) = "$attempted" ] ||
	fail "$written written + $lost lost != $attempted attempted"
unwritten=$(sed -n 's/.* lost, of which \([0-9]*\) not written).*/\1/p' "$WORK/err")
[ -n "$unwritten" ] && [ "$unwritten" -gt 0 ] || fail "no unwritten count: $(cat "$WORK/err")"
grep -q "^ust record: error: $WORK/disk/faultapp-[0-9-]*: $WORK/disk/faultapp-[0-9-]*/[a-z_0-9]*: No space left on device$" "$WORK/err" ||
	fail "no disk-full error line"
echo "attempted $attempted = written $written + lost $lost ($unwritten not written)"
# CMD exited 0, its tracing did not all reach the disk: 1.
[ $status = 1 ] || fail "exit status $status"
# babeltrace2: the same counts, from the trace alone.
$CHECK "$WORK/disk" --traces 1 --accounting "$attempted" || fail "babeltrace2's count"
# ust report: the same losses.
"$UST" report "$WORK/disk" >"$WORK/report" 2>"$WORK/report.err" ||
	fail "ust report: $(cat "$WORK/report.err")"
grep -q "^ust report: 1 trace, [0-9]* streams\\?, $written events\$" "$WORK/report" ||
	fail "ust report events: $(head -n 1 "$WORK/report")"
grep -q "^total: $lost events discarded, [0-9]* packets lost\$" "$WORK/report" ||
	fail "ust report losses: $(grep '^total' "$WORK/report")"
echo "ok: disk full while tracing ($buffers buffers)"
done

# The disk fills up completely (another file takes the rest) while the
# program waits: nothing more can be written, yet the summary comes out
# (its room was kept at the start) and the trace still says what it lacks.
"$UST" record -o "$WORK/disk2" --subbuf-size 16k --subbuf-count 8 -- \
	"$APP" -t 2 -n 30000 -g "$WORK/go" >"$WORK/out2" 2>"$WORK/err2" &
rec=$!
wait_for_line "$WORK/out2" ready
dd if=/dev/zero of="$WORK/disk2/filler" bs=4k 2>/dev/null || true
touch "$WORK/go"
status=0
wait $rec || status=$?
cat "$WORK/err2"
grep -q "no trace was written" "$WORK/err2" && fail "the summary was lost"
summary_counts "$WORK/err2"
[ $((written + lost)) = 60000 ] || fail "$written written + $lost lost != 60000 attempted"
[ "$lost" -gt 0 ] || fail "nothing lost on a full disk?"
[ $status = 1 ] || fail "exit status $status"
$CHECK "$(ls -d "$WORK"/disk2/faultapp-*)" --traces 1 --accounting 60000 || fail "babeltrace2's count"
echo ok
