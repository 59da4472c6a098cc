#!/bin/sh
# A signal handler traces while the interrupted threads are mid-event:
# no corruption, exact counts.
. "$top_srcdir/tests/integration/lib.sh"

"$UST" record -o "$WORK/t" --subbuf-size 1M --subbuf-count 16 -- \
	"$STRESS" -t 2 -n 300000 -g >"$WORK/out" 2>"$WORK/err" ||
	fail "ust record: $(cat "$WORK/err")"
handler=$(field handler "$WORK/out")
[ "$handler" -gt 0 ] || fail "no signal handled"
$CHECK "$WORK/t" --traces 1 --complete 2 300000 --handler "$handler"
