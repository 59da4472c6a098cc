#!/bin/sh
# `ust report --functions` on programs with known call counts: every
# function's exact calls, the call graph's exact edges, self <= total,
# and the identity sum of self times = the root's total time.
. "$top_srcdir/tests/functions/lib.sh"

# section FILE: the report's Functions section, whitespace squeezed.
section() {
	sed -n '/^== Functions ==$/,/^== /p' "$1" | awk '{ $1 = $1; print }'
}

# flat FILE: "NAME CALLS SELF_NS TOTAL_NS" per flat-profile row.
flat() {
	section "$1" | awk '/^flat profile/ { on = 1; getline; next }
		/^$/ || /^call graph/ { on = 0 }
		on { s = $2; t = $3; sub(/\./, "", s); sub(/\./, "", t);
		     print $5, $4, s + 0, t + 0 }'
}

# graph FILE FUNC: FUNC's call graph lines ("from N NAME", "calls N NAME").
graph() {
	section "$1" | awk -v f="$2:" '/^call graph/ { on = 1; next }
		on && $1 == f { mine = 1; next }
		on && /^[^ ]+: [0-9]+ calls$/ { mine = 0 }
		on && mine'
}

# expect_graph FILE FUNC LINES: FUNC's call graph is LINES (joined by ",").
expect_graph() {
	graph "$1" "$2" >"$WORK/g"
	[ "$(tr '\n' , <"$WORK/g")" = "$3," ] || fail "$2's call graph: $(cat "$WORK/g")"
}

# fib(20) from run_counts, then 1000 leaf() calls.
count_calls "$CALLS" counts 20 1000
"$UST" report --functions "$dir" >"$WORK/report" 2>"$WORK/err" ||
	fail "ust report: $(cat "$WORK/err")"
section "$WORK/report" >"$WORK/sec"
expect "$WORK/sec" "22893 calls of 4 functions in 1 thread"
expect "$WORK/sec" "unpaired: 0 calls not returned by the end (closed at their thread's last event), 0 exits without their entry"
flat "$WORK/report" >"$WORK/flat"
[ "$(awk '{ print $1, $2 }' "$WORK/flat" | sort | tr '\n' ,)" = \
  "fib 21891,leaf 1000,main 1,run_counts 1," ] ||
	fail "flat profile calls: $(cat "$WORK/flat")"
awk '$3 > $4 { exit 1 }' "$WORK/flat" || fail "self > total: $(cat "$WORK/flat")"
awk 'NR > 1 && $3 > prev { exit 1 } { prev = $3 }' "$WORK/flat" ||
	fail "not sorted by self time: $(cat "$WORK/flat")"
# one thread, every call under main: the self times add up to main's total
awk '{ self += $3 } $1 == "main" { total = $4 } END { exit self != total }' \
	"$WORK/flat" || fail "sum of self times != main's total: $(cat "$WORK/flat")"
# fib(n >= 2) calls fib twice: all fib calls but run_counts' one come from fib
expect_graph "$WORK/report" fib "from 21890 fib,from 1 run_counts,calls 21890 fib"
expect_graph "$WORK/report" run_counts "from 1 main,calls 1000 leaf,calls 1 fib"
expect_graph "$WORK/report" main "from 1 (thread start),calls 1 run_counts"

# the section is on by default, --top limits the rows
"$UST" report "$dir" >"$WORK/all" || fail "ust report"
[ "$(flat "$WORK/all")" = "$(cat "$WORK/flat")" ] || fail "default report differs"
"$UST" report --functions --top 2 "$dir" >"$WORK/top" || fail "ust report --top"
[ "$(flat "$WORK/top" | wc -l)" = 2 ] || fail "--top 2: $(flat "$WORK/top")"
[ "$(section "$WORK/top" | grep -c '^[^ ]*: [0-9]* calls$')" = 2 ] ||
	fail "--top 2 call graph: $(section "$WORK/top")"

# exit() two calls deep: main, run_exit and quit are closed at the end
record "$WORK/e" "$CALLS" exit 10
"$UST" report --functions "$(trace_dir "$WORK/e" calls)" >"$WORK/report" ||
	fail "ust report (exit)"
section "$WORK/report" >"$WORK/sec"
expect "$WORK/sec" "180 calls of 4 functions in 1 thread"
expect "$WORK/sec" "unpaired: 3 calls not returned by the end (closed at their thread's last event), 0 exits without their entry"
[ "$(flat "$WORK/report" | awk '{ print $1, $2 }' | sort | tr '\n' ,)" = \
  "fib 177,main 1,quit 1,run_exit 1," ] || fail "exit: $(cat "$WORK/sec")"

# 4 threads into libcallee.so: names resolved, each thread's first frame
record "$WORK/th" "$CALLS" threads 4 2500
"$UST" report --functions "$(trace_dir "$WORK/th" calls)" >"$WORK/report" ||
	fail "ust report (threads)"
section "$WORK/report" >"$WORK/sec"
expect "$WORK/sec" "10006 calls of 4 functions in 5 threads"
expect_graph "$WORK/report" thread_main "from 4 (thread start),calls 10000 callee_work"
expect_graph "$WORK/report" callee_work "from 10000 thread_main"

# no function events (a generated kernel trace): no section by default,
# one line when asked for
/usr/bin/python3 "$top_srcdir/tests/report/gen-kernel-trace.py" "$WORK/k" ||
	fail "gen-kernel-trace.py"
"$UST" report "$WORK/k" >"$WORK/report" || fail "ust report (kernel)"
! grep -q "== Functions ==" "$WORK/report" || fail "Functions section by default"
"$UST" report --functions "$WORK/k" >"$WORK/report" || fail "ust report --functions (kernel)"
[ "$(section "$WORK/report" | tr '\n' ,)" = \
  "== Functions ==,no function events (record with --functions)," ] ||
	fail "no function events: $(cat "$WORK/report")"
exit 0

# A lossy function trace (two 4 KiB sub-buffers, discard mode, through
# the environment): the profile says so first, and again above the
# tables; the events lost + recorded are those of a run without loss.
record "$WORK/full" "$CALLS" counts 20 1000
total=$(sed -n 's/^ust record: 1 trace, \([0-9]*\) events written, 0 lost.*/\1/p' "$WORK/rec.err")
mkdir "$WORK/lossy" "$WORK/sum"
UST_TRACE='*' UST_OUTPUT="$WORK/lossy" UST_SUMMARY_DIR="$WORK/sum" UST_BUFFERS=per-thread \
	UST_SUBBUF_SIZE=4096 UST_SUBBUF_COUNT=2 LD_PRELOAD="$UST_CYG_PROFILE_LIB" \
	"$CALLS" counts 20 1000 || fail "lossy run"
wait_for 30 "the lossy trace's consumer did not finish" \
	sh -c "ls $WORK/sum/*.summary >/dev/null 2>&1"
"$UST" report --functions "$WORK/lossy" >"$WORK/lossy.txt" || fail "report of a lossy trace"
sed -n '/^== Functions ==$/,$p' "$WORK/lossy.txt" | sed -n 2p >"$WORK/first"
grep -qE "^WARNING: INCOMPLETE PROFILE: the trace lost [0-9]+ events \([0-9.]+% of $total recorded \+ lost\)\.$" \
	"$WORK/first" || fail "no loss warning first: $(sed -n '/Functions/,+3p' "$WORK/lossy.txt")"
grep -qE "^[0-9]+ calls of [0-9]+ functions in 1 thread \(INCOMPLETE: events lost\)$" "$WORK/lossy.txt" ||
	fail "calls line: $(cat "$WORK/lossy.txt")"
expect "$WORK/lossy.txt" "WARNING: INCOMPLETE PROFILE (events lost, above): the counts and times below are wrong"
# A trace without loss has no warning.
"$UST" report --functions "$WORK/full" | grep -q WARNING && fail "a warning without loss"
echo ok
