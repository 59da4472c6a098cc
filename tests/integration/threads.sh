#!/bin/sh
# 4 threads x 250 000 events with large buffers: every event arrives, in
# per-thread order, and babeltrace2 reads the trace cleanly.
. "$top_srcdir/tests/integration/lib.sh"

"$UST" record -o "$WORK/t" --subbuf-size 1M --subbuf-count 64 -- \
	"$STRESS" -t 4 -n 250000 -s >"$WORK/out" 2>"$WORK/err" ||
	fail "ust record: $(cat "$WORK/err")"
grep -q "1000000 events written, 0 lost" "$WORK/err" ||
	fail "summary: $(cat "$WORK/err")"
$CHECK "$WORK/t" --traces 1 --complete 4 250000
