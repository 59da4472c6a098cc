#!/bin/sh
# Threads starting and exiting under load: 4 long-lived threads trace
# while 400 x STORM_SCALE short-lived threads (8 alive at a time) each
# record 50 events and exit.  Every thread's events are on disk, exactly
# as many as it made, in order; nothing is lost.
. "$top_srcdir/tests/storm/lib.sh"

mkdir "$WORK/ledger"
n=$((400 * STORM_SCALE))
"$UST" record -o "$WORK/t" --subbuf-size 1M --subbuf-count 16 -- \
	"$STORM" churn -t 4 -r 50 -c $n -k 50 -L "$WORK/ledger" >"$WORK/out" 2>"$WORK/err" ||
	fail "ust record: $(cat "$WORK/err")"
grep -q "^ust record: 1 trace, [0-9]* events written, 0 lost" "$WORK/err" ||
	fail "summary: $(cat "$WORK/err")"
[ "$(grep -c '^churn ' "$WORK"/ledger/*)" = $n ] || fail "ledger: $(head "$WORK"/ledger/*)"
$CHECK ledger "$WORK/t" "$WORK/ledger" --summary "$WORK/err" || exit 1
echo "thread churn: $n short-lived threads x 50 events, $(field ticks "$WORK/out") events of 4 long-lived ones, 0 lost"
