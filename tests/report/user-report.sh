#!/bin/sh
# `ust report` on user traces of real programs, against what the
# workload did (stress: each thread records N events, every 8th a
# stress:text) and what `ust record` and babeltrace2 say about losses.
. "$top_srcdir/tests/reader/lib.sh"

[ -x "$STRESS" ] || skip "stress not built"

# 4 threads x 20000 events: 2500 texts each (i % 8 == 0, i < 20000)
record threads -- "$STRESS" -t 4 -n 20000 -s
cd "$WORK"
"$UST" report threads >got 2>err || fail "ust report: $(cat err)"
[ ! -s err ] || fail "stderr: $(cat err)"
grep -q '^ust report: 1 trace, [0-9]* streams\?, 80000 events$' got || fail "summary: $(head -n 1 got)"
sed -n '/^== Events per type/,/^$/p' got >events
cat >want <<'EOS'
== Events per type ==
       count  event
       70000  stress:tick
       10000  stress:text

EOS
cmp -s want events || fail "events per type: $(diff want events)"
# every thread 20000 events, under the pid of the trace and its name
pid=$(sed -n 's/^[[:space:]]*vpid = \([0-9]*\);/\1/p' threads/*/metadata)
tids=$("$UST" view threads | sed 's/.*vtid = \([0-9]*\) .*/\1/' | sort -u)
[ "$(echo "$tids" | wc -l)" = 4 ] || fail "not 4 threads in the trace: $tids"
for tid in $tids; do
	grep -Eq "^ +20000 +$pid +$tid  stress$" got || fail "thread $tid: $(cat got)"
done
grep -q '^total: 0 events discarded, 0 packets lost$' got || fail "losses: $(cat got)"
# user traces have no kernel sections to show
grep -q '^no sched_switch events (record with --kernel)$' got || fail "cpu section: $(cat got)"
grep -q '^no syscall events (record with --kernel)$' got || fail "syscall section: $(cat got)"

# Tiny buffers lose events: the report's count of discarded events is
# what `ust record` counted lost, and what babeltrace2 reports.
record tiny --subbuf-size 4k --subbuf-count 2 -- "$STRESS" -t 4 -n 50000 -s
written=$(sed -n 's/^ust record: 1 trace, \([0-9]*\) events written, \([0-9]*\) lost.*/\1/p' tiny.rec)
lost=$(sed -n 's/^ust record: 1 trace, \([0-9]*\) events written, \([0-9]*\) lost.*/\2/p' tiny.rec)
[ -n "$lost" ] && [ "$lost" -gt 0 ] || skip "no events lost with tiny buffers: $(cat tiny.rec)"
[ $((written + lost)) = 200000 ] || fail "written $written + lost $lost != attempted 200000"
"$UST" report --losses --events tiny >got 2>err || fail "ust report: $(cat err)"
grep -q "^ust report: 1 trace, [0-9]* streams\\?, $written events\$" got || fail "summary: $(head -n 1 got)"
grep -q "^total: $lost events discarded, 0 packets lost\$" got || fail "losses: $(cat got)"
# the per-stream rows add up, to the written and discarded totals
sum=$(awk '/^== Losses/{on=1; next} on && $NF ~ /ust_/ {e += $1; d += $2} END {print e, d}' got)
[ "$sum" = "$written $lost" ] || fail "rows add up to $sum, not $written $lost"
if command -v babeltrace2 >/dev/null; then
	bt=$(babeltrace2 tiny 2>&1 >/dev/null |
		sed -n 's/^WARNING: Tracer discarded \([0-9]*\) event.*/\1/p' |
		awk '{s += $1} END {print s + 0}')
	[ "$bt" = "$lost" ] || fail "babeltrace2 reports $bt discarded, not $lost"
fi

# bad command lines and bad traces
set +e
"$UST" report --top 0 threads >/dev/null 2>err; rc=$?
set -e
[ $rc = 2 ] && [ "$(cat err)" = "ust report: bad --top '0'" ] || fail "--top 0: $rc $(cat err)"
set +e
"$UST" report --interval -1 threads >/dev/null 2>err; rc=$?
set -e
[ $rc = 2 ] && [ "$(cat err)" = "ust report: bad --interval '-1'" ] || fail "--interval -1: $rc $(cat err)"
set +e
"$UST" report "$WORK/nothing" >/dev/null 2>err; rc=$?
set -e
[ $rc = 1 ] && grep -q "^ust report: $WORK/nothing: " err || fail "missing dir: $rc $(cat err)"
"$UST" report --help | grep -q -- '--syscalls' || fail "--help"
