#!/bin/sh
# Exact call counts of a -O0 program: fib(20) recursively (21891 calls)
# and 1000 leaf calls, every entry and exit paired, read back by our
# reader + symbolizer and by babeltrace2 + nm.
. "$top_srcdir/tests/functions/lib.sh"

count_calls "$CALLS" counts 20 1000
expect "$WORK/funcs" "fib 21891 21891"
expect "$WORK/funcs" "leaf 1000 1000"
expect "$WORK/funcs" "run_counts 1 1"
expect "$WORK/funcs" "main 1 1"
expect "$WORK/funcs" "total entries=22893 exits=22893 unmatched=0 threads=1"

# babeltrace2: the same totals (the compact layout: ust_func:entry with
# the function's offset from the program's load address, ust_func:base,
# which is its bin_info's baddr), and fib's offset from nm entered 21891
# times.
babeltrace2 "$dir" >"$WORK/bt2" || fail "babeltrace2 failed"
[ "$(grep -c ' ust_func:entry: ' "$WORK/bt2")" = 22893 ] || fail "bt2 entries"
[ "$(grep -c ' ust_func:exit: ' "$WORK/bt2")" = 22893 ] || fail "bt2 exits"
calls_path=$(readlink -f "$CALLS")
base=$(sed -n "s/.*lttng_ust_statedump:bin_info: .*baddr = \(0x[0-9A-Fa-f]*\), .*path = \"$(echo "$calls_path" | sed 's/[\/.]/\\&/g')\".*/\1/p" "$WORK/bt2")
[ -n "$base" ] || fail "no bin_info for $calls_path"
[ "$(sed -n 's/.* ust_func:base: .*baddr = \(0x[0-9A-F]*\) }$/\1/p' "$WORK/bt2")" = "$base" ] ||
	fail "ust_func:base is not the program's baddr $base"
off=$(nm "$CALLS" | sed -n 's/^\([0-9a-f]*\) t fib$/\1/p')
[ -n "$off" ] || fail "no fib in nm"
fib=$(printf '0x%X' $((0x$off)))
n=$(grep ' ust_func:entry: ' "$WORK/bt2" | grep -c "offset = $fib }")
[ "$n" = 21891 ] || fail "babeltrace2: fib at offset $fib entered $n times"

# debug_link: for every object described with has_debug_link = 1 (Debian's
# libc has one), the file name and CRC that objcopy finds in the file (the
# CRC in decimal, as LTTng-UST declares it).
n=0
for path in $(sed -n 's/.*lttng_ust_statedump:bin_info: .*path = "\([^"]*\)".*has_debug_link = 1 .*/\1/p' "$WORK/bt2"); do
	objcopy --dump-section .gnu_debuglink="$WORK/dl" "$path" "$WORK/junk" ||
		fail "objcopy $path"
	size=$(wc -c <"$WORK/dl")
	crc=$(od -An -tu4 -j $((size - 4)) "$WORK/dl" | tr -d ' ')
	name=$(tr '\0' '\n' <"$WORK/dl" | head -n 1)
	base=$(grep ' lttng_ust_statedump:bin_info: ' "$WORK/bt2" | grep -F "path = \"$path\"" |
		sed -n 's/.*baddr = \(0x[0-9A-F]*\),.*/\1/p')
	grep ' lttng_ust_statedump:debug_link: ' "$WORK/bt2" |
		grep -qF "baddr = $base, crc = $crc, filename = \"$name\"" ||
		fail "no debug_link {$base, $crc, $name} for $path"
	n=$((n + 1))
done
[ "$(grep -c ' lttng_ust_statedump:debug_link: ' "$WORK/bt2")" = $n ] ||
	fail "debug_link events without has_debug_link"
