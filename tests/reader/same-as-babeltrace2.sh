#!/bin/sh
# `ust view DIR` prints exactly what `babeltrace2 DIR` prints, stdout and
# stderr (the discarded-events warnings), on traces of the real toolchain.
# Nothing is normalized: both run in the same directory, with the same TZ.
. "$top_srcdir/tests/reader/lib.sh"

need_babeltrace2
[ -x "$STRESS" ] || skip "stress not built"

record values -- "$STRESS" -v
record strings -- "$STRESS" -n 2000 -s
record threads -- "$STRESS" -t 4 -n 20000 -s
record forked -- "$STRESS" -f -n 500 -s
record tiny --subbuf-size 4k --subbuf-count 2 -- "$STRESS" -t 4 -n 50000 -s
# every type: floats, enums, byte orders, nested arrays, structs, sequences
# (empty ones too), variants, strings in compound types, a dropped event
record types -- "$top_builddir/tests/integration/roundtrip"

compare() {
	"$UST" view "$@" >"$WORK/ust.out" 2>"$WORK/ust.err" ||
		fail "ust view $*: $(cat "$WORK/ust.err")"
	babeltrace2 "$@" >"$WORK/bt.out" 2>"$WORK/bt.err" ||
		fail "babeltrace2 $*: $(cat "$WORK/bt.err")"
	[ -s "$WORK/bt.out" ] || fail "babeltrace2 $* printed nothing"
	cmp -s "$WORK/ust.out" "$WORK/bt.out" ||
		fail "stdout of ust view $* differs: $(diff "$WORK/bt.out" "$WORK/ust.out" | head -5)"
	cmp -s "$WORK/ust.err" "$WORK/bt.err" ||
		fail "stderr of ust view $* differs: $(diff "$WORK/bt.err" "$WORK/ust.err" | head -5)"
}

cd "$WORK"
for d in values strings threads forked types tiny; do
	compare "$d"
	compare --clock-gmt "$d"
done
# the tiny buffers must have lost events, or the warnings went untested
grep -q '^WARNING: Tracer discarded' "$WORK/bt.err" || fail "no discarded events to compare"
# trace directories given directly, several at once, and the whole session
compare forked/* values/*
compare .
compare "$WORK/threads/"
