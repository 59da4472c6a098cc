#!/bin/sh
# The kernel bridge's thread table in time order (doc/reliability.md,
# finding T5): threads created on one CPU, run and gone on another, keep
# their process in every event, whichever CPU's ring the bridge reads
# first.  kthreads runs on its last CPU and binds its 50 short-lived
# threads to its first: their creation records are in the last CPU's
# ring, their own events in the first's, read before it.
. "$top_srcdir/tests/kernel/lib.sh"

need_babeltrace2
need_bt2
N=50
"$UST" record -o "$WORK/t" --kernel -- timeout 60 "$top_builddir/tests/kernel/kthreads" $N \
	>"$WORK/out" 2>"$WORK/err" || fail "ust record: $(cat "$WORK/err")"
grep -q '^cpus=1$' "$WORK/out" && skip "kthreads may run on one CPU only"
grep -q 'ust record: kernel trace .*: [0-9]* events, 0 lost' "$WORK/err" ||
	fail "kernel events lost: $(cat "$WORK/err")"
PID=$(sed -n 's/^pid=//p' "$WORK/out")
CPU=$(sed -n 's/^child_cpu=//p' "$WORK/out")
TIDS=$(sed -n 's/^tids=//p' "$WORK/out")
[ "$(echo "$TIDS" | tr , '\n' | grep -c .)" = $N ] || fail "kthreads: $(cat "$WORK/out")"

# babeltrace2 (python3-bt2): each event of the threads says process PID.
$CHECK "$WORK/t" --threads "$PID" "$TIDS" "$CPU"

# Our reader prints what babeltrace2 prints, and so the same processes.
view_as_babeltrace2 "$WORK/t/kernel"
for tid in $(echo "$TIDS" | tr , ' '); do
	grep -q "{ tid = $tid, pid = $PID }" "$WORK/ust.txt" ||
		fail "ust view: no event of thread $tid in process $PID"
done
other=$(grep -E "\{ tid = ($(echo "$TIDS" | tr , '|')), pid = [0-9]+ \}" "$WORK/ust.txt" |
	grep -v "pid = $PID }" | head -n 1)
[ -z "$other" ] || fail "ust view: a thread of process $PID in another: $other"
exit 0
