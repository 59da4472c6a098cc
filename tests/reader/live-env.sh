#!/bin/sh
# `ust view --live DIR` follows a program traced through UST_TRACE (no
# `ust record`): it prints while the program runs and exits by itself
# once the program's consumer has written the end, having printed
# exactly the view of the finished trace.
. "$top_srcdir/tests/reader/lib.sh"

[ -x "$STRESS" ] || skip "stress not built"
need_cmd timeout taskset
taskset -c 0,1 true 2>/dev/null || skip "CPUs 0 and 1 are not both available"

# about 3 s of tracing: 2 threads x 6000 events at 2 events per ms
UST_TRACE='*' UST_OUTPUT="$WORK/o" UST_SUBBUF_SIZE=4096 UST_SUBBUF_COUNT=64 \
	taskset -c 0,1 "$STRESS" -t 2 -n 6000 -r 2 >"$WORK/prog" 2>&1 &
live_follow "$WORK/o" $! 12000

# started after the end: one pass, the same, at once
timeout 60 "$UST" view --live "$WORK/o" >"$WORK/again.out" || fail "--live on a finished trace"
cmp -s "$WORK/again.out" "$WORK/all.out" || fail "--live on a finished trace differs"
