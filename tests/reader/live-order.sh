#!/bin/sh
# `ust view --live` prints in time order across its passes: following a
# 2-thread recording on 2 CPUs (one stream file each, 4 KiB packets, so
# packets reach the disk all along), it prints while the recording runs,
# timestamps never go back, and its output is byte for byte the view of
# the finished trace (same order, same deltas).
. "$top_srcdir/tests/reader/lib.sh"

[ -x "$STRESS" ] || skip "stress not built"
need_cmd timeout taskset
taskset -c 0,1 true 2>/dev/null || skip "CPUs 0 and 1 are not both available"

# about 3 s of tracing: 2 threads x 6000 events at 2 events per ms
"$UST" record -o "$WORK/s" --subbuf-size 4K --subbuf-count 64 -- \
	taskset -c 0,1 "$STRESS" -t 2 -n 6000 -r 2 >"$WORK/rec" 2>&1 &
live_follow "$WORK/s" $! 12000
grep -q '^ust record: 1 trace, 12000 events written, 0 lost' "$WORK/rec" ||
	fail "ust record: $(cat "$WORK/rec")"
# the time part, [HH:MM:SS.NNNNNNNNN], never goes back
back=$(awk '{ t = substr($1, 2, 18); if (NR > 1 && t < last) { print NR; exit } last = t }' \
	"$WORK/live.out")
[ -z "$back" ] || fail "live view: time goes back at line $back"
