#!/bin/sh
# Round trip of every fixed-size type tpgen generates (tests/tpgen/types.xml):
# recorded by a real program, read back by babeltrace2, values exact.
. "$top_srcdir/tests/integration/lib.sh"

"$UST" record -o "$WORK/t" -- "$top_builddir/tests/integration/roundtrip" \
	>"$WORK/out" 2>"$WORK/err" || fail "ust record: $(cat "$WORK/err")"
grep -q "12 events written, 0 lost" "$WORK/err" || fail "summary: $(cat "$WORK/err")"
babeltrace2 "$WORK/t" >/dev/null 2>"$WORK/bt" || fail "babeltrace2: $(cat "$WORK/bt")"
[ ! -s "$WORK/bt" ] || fail "babeltrace2 printed: $(cat "$WORK/bt")"
"${BT2_PYTHON:-/usr/bin/python3}" "$top_srcdir/tests/integration/check_roundtrip.py" "$WORK/t"
