#!/bin/sh
# Round trip of every type tpgen generates (tests/tpgen/types.xml and
# compound.xml): recorded by a real program, read back by babeltrace2,
# values exact.  One event has a variant tag that selects no option: the
# probe drops it, and it is counted lost.
. "$top_srcdir/tests/integration/lib.sh"

"$UST" record -o "$WORK/t" -- "$top_builddir/tests/integration/roundtrip" \
	>"$WORK/out" 2>"$WORK/err" || fail "ust record: $(cat "$WORK/err")"
grep -q "27 events written, 1 lost" "$WORK/err" || fail "summary: $(cat "$WORK/err")"
babeltrace2 "$WORK/t" >/dev/null 2>"$WORK/bt" || fail "babeltrace2: $(cat "$WORK/bt")"
# The dropped event: babeltrace2 warns of it, and of nothing else.
grep -q "WARNING: Tracer may have discarded events" "$WORK/bt" ||
	fail "babeltrace2 did not report the dropped event"
! grep -v "WARNING: Tracer may have discarded events" "$WORK/bt" |
	grep -q . || fail "babeltrace2 printed: $(cat "$WORK/bt")"
"$BT2_PYTHON" "$top_srcdir/tests/integration/check_roundtrip.py" "$WORK/t"
# Descriptions are comments of the event blocks, comment ends broken.
meta=$(find "$WORK/t" -name metadata)
grep -qxF '	/* description: Sequences of integers and floats, every length size. */' "$meta" ||
	fail "no description of compound:flat in the metadata"
grep -qxF '	/* facility: Sequences, variants and strings inside compound types. */' "$meta" ||
	fail "no facility description in the metadata"
grep -qxF '	/* description: A variant after fixed fields; a * / in a description stays inside its comment. */' "$meta" ||
	fail "comment end of a description not broken in the metadata"
