#!/bin/sh
# A trace of the ust before LTTng compatibility (tracer_name "ust",
# tracer_major 0, the vtid as `int32_t _vtid`) still reads: `ust view`
# prints what babeltrace2 prints and what it printed then, `ust report`
# and `ust export` what they printed then (golden files kept with it).
. "$top_srcdir/tests/compat/lib.sh"
OLD="$top_srcdir/tests/compat/old-trace"
grep -q '^	tracer_name = "ust";$' "$OLD"/*/metadata || fail "the fixture is not an old trace"

"$UST" view --clock-gmt "$OLD" >"$WORK/view" 2>"$WORK/err" || fail "ust view: $(cat "$WORK/err")"
babeltrace2 --clock-gmt "$OLD" >"$WORK/bt" 2>"$WORK/bt.err" || fail "babeltrace2: $(cat "$WORK/bt.err")"
[ ! -s "$WORK/bt.err" ] || fail "babeltrace2 warned: $(cat "$WORK/bt.err")"
cmp -s "$WORK/bt" "$WORK/view" || fail "ust view differs from babeltrace2: $(diff "$WORK/bt" "$WORK/view" | head -n 4)"
cmp -s "$top_srcdir/tests/compat/old-trace.view" "$WORK/view" ||
	fail "ust view changed: $(diff "$top_srcdir/tests/compat/old-trace.view" "$WORK/view" | head -n 4)"

"$UST" report --clock-gmt "$OLD" >"$WORK/report" 2>"$WORK/err" || fail "ust report: $(cat "$WORK/err")"
cmp -s "$top_srcdir/tests/compat/old-trace.report" "$WORK/report" ||
	fail "ust report changed: $(diff "$top_srcdir/tests/compat/old-trace.report" "$WORK/report" | head -n 6)"

"$UST" export --format=csv "$OLD" >"$WORK/csv" 2>"$WORK/err" || fail "ust export: $(cat "$WORK/err")"
cmp -s "$top_srcdir/tests/compat/old-trace.csv" "$WORK/csv" ||
	fail "ust export changed: $(diff "$top_srcdir/tests/compat/old-trace.csv" "$WORK/csv" | head -n 4)"

# A new trace next to it: one report over both, each process by its name.
record new --context=vtid,procname -- "$APP" contexts
mkdir "$WORK/both"
cp -r "$OLD"/* "$(trace_dir "$WORK/new")" "$WORK/both/"
"$UST" report --threads "$WORK/both" >"$WORK/both.report" 2>"$WORK/err" ||
	fail "ust report of old and new: $(cat "$WORK/err")"
pid=$(sed -n 's/^pid=//p' "$WORK/new.out")
grep -qE "^ +3 +19697 +19699 +stress$" "$WORK/both.report" || fail "old thread: $(cat "$WORK/both.report")"
grep -qE "^ +2 +$pid +$pid +ctxapp$" "$WORK/both.report" || fail "new thread: $(cat "$WORK/both.report")"
echo "ok"
