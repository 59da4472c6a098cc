#!/bin/sh
# babeltrace2's debug-info filter (flt.lttng-utils.debug-info) resolves
# the function entries of `ust record --functions=lttng-fast` (its
# records carry the vpid and the function entered as ip): every
# func_entry gets a debug_info naming the function (func = NAME+0) and
# its source line (src = calls.c:LINE), exactly what addr2line finds in
# the program's file at the function's offset (bin = calls+0xOFFSET).
. "$top_srcdir/tests/functions/lib.sh"

need_cmd addr2line
"$UST" record --functions=lttng-fast -o "$WORK/t" -- "$CALLS" counts 5 3 \
	>"$WORK/cmd.out" 2>"$WORK/rec.err" || fail "ust record: $(cat "$WORK/rec.err")"
dir=$(trace_dir "$WORK/t" calls)
"$FUNCS" "$dir" >"$WORK/funcs" || fail "funcs: $(cat "$WORK/funcs")"
entries=$(sed -n 's/^total entries=\([0-9]*\) .*/\1/p' "$WORK/funcs")
[ "$entries" -gt 10 ] || fail "funcs: $(cat "$WORK/funcs")"
babeltrace2 --debug-info "$dir" >"$WORK/di" 2>"$WORK/di.err" ||
	fail "babeltrace2 --debug-info: $(head -c 600 "$WORK/di.err")"
[ ! -s "$WORK/di.err" ] || fail "babeltrace2 --debug-info: $(head -c 600 "$WORK/di.err")"
grep ' lttng_ust_cyg_profile_fast:func_entry: ' "$WORK/di" >"$WORK/entries"
[ "$(wc -l <"$WORK/entries")" = "$entries" ] || fail "$(wc -l <"$WORK/entries") entries, want $entries"
# babeltrace2 2.0 names no function whose code gcc split into hot and
# cold parts (its DWARF has DW_AT_ranges, no low_pc/high_pc): the ASan
# build splits main (main.cold).  Such an entry must still give its
# source line, and addr2line must name the function as split ("-" below).
split=$(readelf -Ws "$CALLS" | awk '$8 ~ /\.cold$/ { sub(/\.cold$/, "", $8); print $8 }')
sed -n 's/.*debug_info = { bin = "calls+\(0x[0-9a-f]*\)", func = "\([a-z_]*\)+0", src = "\(calls\.c:[0-9]*\)" }.*/\1 \2 \3/p
	s/.*debug_info = { bin = "calls+\(0x[0-9a-f]*\)", func = "", src = "\(calls\.c:[0-9]*\)" }.*/\1 - \2/p' \
	"$WORK/entries" >"$WORK/all"
[ "$(wc -l <"$WORK/all")" = "$entries" ] ||
	fail "entries not resolved to calls.c: $(grep -v 'src = "calls.c' "$WORK/entries" | head -n 2)"
sort -u "$WORK/all" >"$WORK/resolved"
n=0
while read -r off func src; do
	addr2line -f -e "$CALLS" "$off" >"$WORK/a2l"
	want_func=$(sed -n 1p "$WORK/a2l")
	want_src=$(sed -n '2s|.*/||p' "$WORK/a2l" | sed 's/ .*//')
	if [ "$func" = - ]; then
		echo "$split" | grep -qx "$want_func" ||
			fail "at $off: babeltrace2 names no function, addr2line $want_func (not split)"
		func=$want_func
	fi
	[ "$func" = "$want_func" ] && [ "$src" = "$want_src" ] ||
		fail "at $off: babeltrace2 says $func $src, addr2line $want_func $want_src"
	echo "$off $func $src" >>"$WORK/checked"
	n=$((n + 1))
done <"$WORK/resolved"
for f in main run_counts fib leaf; do
	grep -q " $f calls.c:" "$WORK/checked" || fail "$f not resolved: $(cat "$WORK/checked")"
done
echo "$entries entries resolved, $n functions checked against addr2line"
echo ok
