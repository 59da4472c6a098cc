#!/bin/sh
# A position-dependent program (ET_EXEC, is_pic = 0) resolves too: its
# addresses are used as they are, not relocated by its base address.
. "$top_srcdir/tests/functions/lib.sh"

record "$WORK/t" "$top_builddir/tests/functions/calls_nopie" counts 10 4
dir=$(trace_dir "$WORK/t" calls_nopie)
babeltrace2 "$dir" | grep ' lttng_ust_statedump:bin_info: ' | grep 'calls_nopie"' |
	grep -q 'is_pic = 0' || fail "calls_nopie not described as is_pic = 0"
"$FUNCS" "$dir" >"$WORK/funcs" || fail "funcs: $(cat "$WORK/funcs")"
expect "$WORK/funcs" "fib 177 177"
expect "$WORK/funcs" "leaf 4 4"
expect "$WORK/funcs" "total entries=183 exits=183 unmatched=0 threads=1"
