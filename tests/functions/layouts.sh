#!/bin/sh
# The four layouts of function tracing (--functions=LAYOUT, doc/functions.md):
# each read back with exact calls by ust's reader and analyses, with its
# event names and fields by babeltrace2, printed by `ust view` exactly as
# babeltrace2 prints it; the compact layout's records are 8 (entry) and
# 4 (exit) bytes, 6.5 bytes per event or less on disk, packets, statedump
# and metadata included; LTTng's layouts carry vtid, vpid, procname and
# the function's address as ip.
. "$top_srcdir/tests/functions/lib.sh"

for layout in compact full lttng-fast lttng; do
	rm -rf "$WORK/t"
	"$UST" record --functions=$layout -o "$WORK/t" -- "$CALLS" counts 20 1000 \
		>"$WORK/cmd.out" 2>"$WORK/rec.err" || fail "$layout: $(cat "$WORK/rec.err")"
	grep -q " 0 lost" "$WORK/rec.err" || fail "$layout: $(cat "$WORK/rec.err")"
	dir=$(trace_dir "$WORK/t" calls)
	"$FUNCS" "$dir" >"$WORK/funcs" || fail "$layout: funcs: $(cat "$WORK/funcs")"
	expect "$WORK/funcs" "fib 21891 21891"
	expect "$WORK/funcs" "total entries=22893 exits=22893 unmatched=0 threads=1"
	babeltrace2 "$dir" >"$WORK/bt2" 2>"$WORK/bt2.err" || fail "$layout: babeltrace2"
	[ ! -s "$WORK/bt2.err" ] || fail "$layout: babeltrace2: $(cat "$WORK/bt2.err")"
	"$UST" view "$dir" >"$WORK/view" || fail "$layout: ust view"
	cmp -s "$WORK/view" "$WORK/bt2" ||
		fail "$layout: ust view differs: $(diff "$WORK/view" "$WORK/bt2" | head -n 4)"
	case $layout in
	compact)	entry=' ust_func:entry: .*{ offset = 0x[0-9A-F]* }$'
			exit=' ust_func:exit: { tid = [0-9]* }, { }$';;
	full)		entry=' ust_cyg_profile:func_entry: .*{ addr = 0x[0-9A-F]*, call_site = 0x[0-9A-F]* }$'
			exit=' ust_cyg_profile:func_exit: { tid = [0-9]* }, { }$';;
	lttng-fast)	entry=' lttng_ust_cyg_profile_fast:func_entry: .*{ addr = \(0x[0-9A-F]*\) }$'
			exit=' lttng_ust_cyg_profile_fast:func_exit: .*}, { }$';;
	lttng)		entry=' lttng_ust_cyg_profile:func_entry: .*{ addr = \(0x[0-9A-F]*\), call_site = 0x[0-9A-F]* }$'
			exit=' lttng_ust_cyg_profile:func_exit: .*{ addr = 0x[0-9A-F]*, call_site = 0x[0-9A-F]* }$';;
	esac
	[ "$(grep -c "$entry" "$WORK/bt2")" = 22893 ] || fail "$layout: entries: $(grep -m 2 func "$WORK/bt2")"
	[ "$(grep -c "$exit" "$WORK/bt2")" = 22893 ] || fail "$layout: exits: $(grep -m 2 exit "$WORK/bt2")"
	case $layout in
	lttng*)
		# Trace Compass's contexts; the ip is the function entered.
		grep "$entry" "$WORK/bt2" | head -n 100 | while read -r line; do
			addr=$(echo "$line" | sed -n "s/.*addr = \(0x[0-9A-F]*\).*/\1/p")
			echo "$line" | grep -q "{ vtid = [0-9]*, vpid = [0-9]*, procname = \"calls\", ip = $((addr)) }" ||
				fail "$layout: contexts: $line"
		done
		grep -q "loglevel = 12;" "$dir/metadata" || fail "$layout: no TRACE_DEBUG_FUNCTION level";;
	compact)
		# 8-byte entries, 4-byte exits: the stream is those records, the
		# statedump's and 84-byte packet headers.
		bytes=$(du -sb "$dir" | cut -f1)
		events=$(grep -c . "$WORK/bt2")
		echo "compact: $bytes bytes for $events events"
		[ $((bytes * 10)) -le $((events * 65)) ] ||
			fail "compact: $bytes bytes for $events events: more than 6.5 bytes each";;
	esac
done
echo ok
