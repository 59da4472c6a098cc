#!/bin/sh
# 2 x 4 KiB buffers: events on disk + events counted lost (as babeltrace2
# reports them) = events attempted, exactly.
. "$top_srcdir/tests/integration/lib.sh"

"$UST" record -o "$WORK/t" --subbuf-size 4k --subbuf-count 2 -- \
	"$STRESS" -t 4 -n 50000 -s >"$WORK/out" 2>"$WORK/err" ||
	fail "ust record: $(cat "$WORK/err")"
attempted=$(field attempted "$WORK/out")
[ "$attempted" = 200000 ] || fail "attempted=$attempted"
$CHECK "$WORK/t" --traces 1 --accounting "$attempted"
