#!/bin/sh
# `ust report` on a trace without a single event (the program traced
# nothing that -e selected): every section says so, exit status 0.  The
# UBSan lane (tests/extended/asan.sh) runs this, where a sort of the
# empty event list (qsort on NULL) and the span of an empty trace
# (INT64_MIN - INT64_MAX) were undefined behaviour.
. "$top_srcdir/tests/reader/lib.sh"

[ -x "$STRESS" ] || skip "stress not built"
record empty -e 'nothing:*' -- "$STRESS" -t 2 -n 100
grep -q '^ust record: 1 trace, 0 events written, 0 lost' "$WORK/empty.rec" ||
	fail "record: $(cat "$WORK/empty.rec")"
cd "$WORK"
"$UST" report empty >got 2>err || fail "ust report: exit status $?: $(cat err)"
[ ! -s err ] || fail "stderr: $(cat err)"
name=$(cd empty && ls -d stress-*)
cat >want <<EOS
ust report: 1 trace, 0 streams, 0 events
  trace $(hostname)/$name (ust)

== Events per type ==
       count  event

== Losses per stream ==
      events    discarded packets lost  stream
total: 0 events discarded, 0 packets lost (no streams)

== Events per thread ==
       count      pid      tid  command

== CPU usage per process (sched_switch) ==
no sched_switch events (record with --kernel)

== System call latency ==
no syscall events (record with --kernel)
EOS
cmp -s want got || fail "report: $(diff want got)"
echo ok
