#!/bin/sh
# `ust export` of function calls: folded stacks whose counts add up to
# each function's exact calls, and chrome JSON with exactly one B/E pair
# per call, nested, per thread.
. "$top_srcdir/tests/functions/lib.sh"

PY=/usr/bin/python3
CHROME_CALLS="$PY $top_srcdir/tests/functions/chrome_calls.py"

# calls FILE FUNC: the folded counts of the stacks ending in FUNC, summed.
calls() {
	awk -v f="$2" '{ n = split($1, fr, ";") } fr[n] == f { s += $2 }
		END { print s + 0 }' "$1"
}

count_calls "$CALLS" counts 20 1000
pid=${dir#"$WORK/t/calls-"}
pid=${pid%%-*}
"$UST" export --format=folded "$dir" >"$WORK/folded" 2>"$WORK/err" ||
	fail "ust export folded: $(cat "$WORK/err")"
[ "$(calls "$WORK/folded" fib)" = 21891 ] || fail "folded fib: $(calls "$WORK/folded" fib)"
[ "$(calls "$WORK/folded" leaf)" = 1000 ] || fail "folded leaf"
expect "$WORK/folded" "calls-$pid;$pid;main 1"
expect "$WORK/folded" "calls-$pid;$pid;main;run_counts 1"
expect "$WORK/folded" "calls-$pid;$pid;main;run_counts;leaf 1000"
expect "$WORK/folded" "calls-$pid;$pid;main;run_counts;fib 1"
# fib(20)'s deepest calls are 20 levels down: fib(20) .. fib(1)
[ "$(awk '{ n = split($1, fr, ";"); if (n > m) m = n } END { print m }' \
	"$WORK/folded")" = $((4 + 19 + 1)) ] || fail "folded depth"
# the statedump events stay, as before, one line per event type
grep -q "^calls-$pid;$pid;lttng_ust_statedump:bin_info [0-9]*$" "$WORK/folded" ||
	fail "no statedump line: $(head "$WORK/folded")"

# --weight=time: self times in ns, only the calls; one thread whose calls
# all run under main, so they add up to main's total time in the report
"$UST" export --format=folded --weight=time "$dir" >"$WORK/ns" || fail "--weight=time"
! grep -q lttng_ust_statedump "$WORK/ns" || fail "events in --weight=time"
[ "$(wc -l <"$WORK/ns")" = "$(grep -vc 'lttng_ust_statedump\|ust_func:base' "$WORK/folded")" ] ||
	fail "--weight=time stacks differ: $(cat "$WORK/ns")"
"$UST" report --functions "$dir" >"$WORK/report" || fail "ust report"
main_ns=$(awk '$NF == "main" && NF == 5 { sub(/\./, "", $3); print $3 + 0 }' "$WORK/report")
[ "$(awk '{ s += $2 } END { print s }' "$WORK/ns")" = "$main_ns" ] ||
	fail "--weight=time sum != main's total $main_ns: $(cat "$WORK/ns")"
"$UST" export --format=folded --weight=bytes "$dir" >/dev/null 2>"$WORK/err" &&
	fail "--weight=bytes accepted"
expect "$WORK/err" "ust export: unknown weight 'bytes' (calls or time)"

"$UST" export --format=chrome -o "$WORK/chrome.json" "$dir" ||
	fail "ust export chrome"
$CHROME_CALLS "$WORK/chrome.json" >"$WORK/pairs" || fail "chrome: $(cat "$WORK/pairs")"
[ "$(tr '\n' , <"$WORK/pairs")" = \
  "$pid $pid fib 21891,$pid $pid leaf 1000,$pid $pid main 1,$pid $pid run_counts 1," ] ||
	fail "chrome pairs: $(cat "$WORK/pairs")"
# the function events are slices now, not instant events
! grep -q '"ust_func:e' "$WORK/chrome.json" || fail "func events as instants"

# calls still open at exit(): closed at the thread's last event
record "$WORK/e" "$CALLS" exit 10
edir=$(trace_dir "$WORK/e" calls)
"$UST" export --format=chrome -o "$WORK/exit.json" "$edir" || fail "chrome (exit)"
$CHROME_CALLS "$WORK/exit.json" | awk '{ print $3, $4 }' >"$WORK/pairs" ||
	fail "chrome (exit): $(cat "$WORK/pairs")"
[ "$(tr '\n' , <"$WORK/pairs")" = "fib 177,main 1,quit 1,run_exit 1," ] ||
	fail "chrome (exit) pairs: $(cat "$WORK/pairs")"
"$UST" export --format=folded "$edir" >"$WORK/folded" || fail "folded (exit)"
[ "$(calls "$WORK/folded" quit)" = 1 ] && [ "$(calls "$WORK/folded" main)" = 1 ] ||
	fail "folded (exit): $(grep -v ';fib;' "$WORK/folded")"

# 4 threads into libcallee.so: 2500 calls each, on each thread's own stack
record "$WORK/th" "$CALLS" threads 4 2500
tdir=$(trace_dir "$WORK/th" calls)
"$UST" export --format=folded "$tdir" >"$WORK/folded" || fail "folded (threads)"
[ "$(grep -c "^calls-[0-9]*;[0-9]*;thread_main;callee_work 2500$" "$WORK/folded")" = 4 ] ||
	fail "folded threads: $(cat "$WORK/folded")"
"$UST" export --format=chrome -o "$WORK/threads.json" "$tdir" || fail "chrome (threads)"
$CHROME_CALLS "$WORK/threads.json" >"$WORK/pairs" || fail "chrome: $(cat "$WORK/pairs")"
[ "$(awk '$3 == "callee_work" && $4 == 2500 && $1 != $2' "$WORK/pairs" | wc -l)" = 4 ] ||
	fail "chrome threads: $(cat "$WORK/pairs")"
[ "$(awk '$3 == "thread_main" && $4 == 1' "$WORK/pairs" | wc -l)" = 4 ] ||
	fail "chrome threads: $(cat "$WORK/pairs")"
exit 0
