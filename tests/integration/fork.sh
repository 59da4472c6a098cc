#!/bin/sh
# fork(): parent and child each get a complete trace of their own.
. "$top_srcdir/tests/integration/lib.sh"

"$UST" record -o "$WORK/t" --subbuf-size 256k --subbuf-count 16 -- \
	"$STRESS" -t 2 -n 50000 -f >"$WORK/out" 2>"$WORK/err" ||
	fail "ust record: $(cat "$WORK/err")"
grep -q "2 traces, 200000 events written, 0 lost" "$WORK/err" ||
	fail "summary: $(cat "$WORK/err")"
$CHECK "$WORK/t" --traces 2 --complete 2 50000
