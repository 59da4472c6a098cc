#!/bin/sh
# Integer extremes, strings, an empty string and NULL read back exactly.
. "$top_srcdir/tests/integration/lib.sh"

"$UST" record -o "$WORK/t" -- "$STRESS" -v >/dev/null 2>"$WORK/err" ||
	fail "ust record: $(cat "$WORK/err")"
$CHECK "$WORK/t" --traces 1 --values
babeltrace2 "$WORK/t" | sed 's/^.*stress:values: //' >"$WORK/text"
grep -qx '{ cpu_id = [0-9]* }, { vtid = [0-9]* }, { s8 = -128, u8 = 255, s16 = -32768, u16 = 65535, s32 = -2147483648, u32 = 0xDEADBEEF, s64 = -9223372036854775808, u64 = 18446744073709551615, str = "quote \\" and backslash \\\\", nullstr = "(null)" }' "$WORK/text" ||
	fail "babeltrace2 text: $(cat "$WORK/text")"
