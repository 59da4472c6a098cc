#!/bin/sh
# The hooks' filters (--time-filter, --depth, --filter-func,
# --exclude-func): exactly the calls each keeps, paired and nested, every
# event accounted for (written + filtered out = the program's), the
# counts in ust record's summary; the traces read cleanly by babeltrace2.
. "$top_srcdir/tests/functions/lib.sh"

# filtered ARGS -- CMD...: record with the filters, count the calls.
filtered() {
	rm -rf "$WORK/t"
	"$UST" record --functions -o "$WORK/t" "$@" >"$WORK/cmd.out" 2>"$WORK/rec.err" ||
		fail "ust record $*: $(cat "$WORK/rec.err")"
	dir=$(trace_dir "$WORK/t" calls)
	"$FUNCS" "$dir" >"$WORK/funcs" || fail "funcs: $(cat "$WORK/funcs")"
	babeltrace2 "$dir" >/dev/null 2>"$WORK/bt2.err" && [ ! -s "$WORK/bt2.err" ] ||
		fail "babeltrace2 $*: $(cat "$WORK/bt2.err")"
}
# summary LINE: ust record's summary has exactly LINE.
summary() {
	grep -qxF "ust record:     function events filtered out: $1" "$WORK/rec.err" ||
		fail "summary: $(cat "$WORK/rec.err")"
}

# --depth=2 of fib(20) and 1000 leaf calls: main and run_counts only.
filtered --depth=2 -- "$CALLS" counts 20 1000
expect "$WORK/funcs" "main 1 1"
expect "$WORK/funcs" "run_counts 1 1"
expect "$WORK/funcs" "total entries=2 exits=2 unmatched=0 threads=1"
summary "45782 by --depth"

# --filter-func=fib: fib and what it calls (itself), nothing else.
filtered --filter-func=fib -- "$CALLS" counts 20 1000
expect "$WORK/funcs" "total entries=21891 exits=21891 unmatched=0 threads=1"
summary "2004 by --filter-func/--exclude-func"

# --exclude-func=fib: everything but fib.
filtered --exclude-func=fib -- "$CALLS" counts 20 1000
expect "$WORK/funcs" "leaf 1000 1000"
expect "$WORK/funcs" "total entries=1002 exits=1002 unmatched=0 threads=1"
summary "43782 by --filter-func/--exclude-func"

# Together, with globs: under run_*, not leaf, 3 deep: run_counts, fib(5),
# fib(4) and fib(3); 12 deeper fib calls left to --depth; leaf and main to
# the function filters.
filtered --filter-func='run_*' --exclude-func=leaf --depth=3 -- "$CALLS" counts 5 10
expect "$WORK/funcs" "run_counts 1 1"
expect "$WORK/funcs" "fib 3 3"
expect "$WORK/funcs" "total entries=4 exits=4 unmatched=0 threads=1"
summary "24 by --depth, 22 by --filter-func/--exclude-func"

# --time-filter=200us: 50 slow() calls of 1 ms each between 104 quick
# leaf() calls; main and run_timed last longer.  A quick call may be
# preempted past 200us on a busy machine: then it is rightly kept.  So:
# the slow calls, main and run_timed all there; every call kept lasted at
# least 200us (its exit minus its entry, read with babeltrace2); written
# + filtered = the program's 2 x 5202 events.
filtered --time-filter=200us -- "$CALLS" timed 50 1000
expect "$WORK/funcs" "slow 50 50"
expect "$WORK/funcs" "main 1 1"
expect "$WORK/funcs" "run_timed 1 1"
grep -q "unmatched=0 threads=1" "$WORK/funcs" || fail "$(cat "$WORK/funcs")"
entries=$(sed -n 's/^total entries=\([0-9]*\) .*/\1/p' "$WORK/funcs")
out=$(sed -n 's/^ust record:     function events filtered out: \([0-9]*\) by --time-filter$/\1/p' "$WORK/rec.err")
[ -n "$out" ] && [ $((2 * entries + out)) = 10404 ] ||
	fail "$entries calls written, $out events filtered out, of 10404: $(cat "$WORK/rec.err")"
$BT2_PYTHON - "$dir" 200000 <<'PY' || fail "a call shorter than 200us was kept"
import sys, bt2
stack, short = [], 0
for m in bt2.TraceCollectionMessageIterator(sys.argv[1]):
    if type(m) is not bt2._EventMessageConst:
        continue
    ns = m.default_clock_snapshot.ns_from_origin
    if m.event.name == "ust_func:entry":
        stack.append(ns)
    elif m.event.name == "ust_func:exit":
        if ns - stack.pop() < int(sys.argv[2]):
            short += 1
sys.exit(1 if short or stack else 0)
PY
echo "time filter: $entries calls kept, $out events filtered out"
echo ok
