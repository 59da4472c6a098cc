#!/bin/sh
# What LTTng's tools key on, in a trace with every context and the
# printf-style events: the event classes LTTng-UST 2.13 declares
# (statedump, lib, dl, tracef, tracelog: names, log levels, fields and
# types, against a golden list taken from a real LTTng trace), the keys
# Trace Compass reads (doc/compatibility.md), and babeltrace2's
# debug-info filter resolving the ip context to the program, function
# and source file of each call site.
. "$top_srcdir/tests/compat/lib.sh"

record all --context=vtid,vpid,procname,ip,pthread_id -- "$APP" tracef
t=$(trace_dir "$WORK/all")
same_view "$t"
$CHECK lttng-events "$t" "$top_srcdir/tests/compat/lttng-2.13-events.txt" ||
	fail "LTTng's event classes"
$CHECK tracecompass "$t" || fail "Trace Compass's keys"

# The statedump described the program: its bin_info names it.
grep -q "lttng_ust_statedump:bin_info: .* path = \"$(cd "$(dirname "$APP")" && pwd -P)/ctxapp\"" "$t.bt" ||
	fail "no bin_info for the program"

# babeltrace2 --debug-info: bin = "ctxapp+OFFSET" with OFFSET = ip -
# base, in the function that made the call; its source line when DWARF
# has one for that exact address (it looks up the return address, not
# the call: the same happens with LTTng's traces).
babeltrace2 --debug-info "$t" >"$WORK/dbg" 2>"$WORK/dbg.err" ||
	fail "babeltrace2 --debug-info: $(head -n 3 "$WORK/dbg.err")"
[ ! -s "$WORK/dbg.err" ] || fail "babeltrace2 --debug-info warned: $(head -n 3 "$WORK/dbg.err")"
base=$(sed -n 's/^base=//p' "$WORK/all.out")
line=$(grep 'lttng_ust_tracef:event: .*msg = "hello 42 world"' "$WORK/dbg") ||
	fail "no tracef event in the debug-info output"
ip=$(echo "$line" | sed -n 's/.* ip = \([0-9]*\), .*/\1/p')
bin=$(printf 'ctxapp+0x%x' $((ip - base)))
case $line in
*"debug_info = { bin = \"$bin\", func = \"tracef+0x"*) ;;
*) fail "debug_info of the tracef call (expected bin $bin in tracef): $line" ;;
esac
n=$(grep -Ec 'debug_info = \{ bin = "ctxapp\+0x[0-9a-f]+", func = "(tracef|vlog)\+0x[0-9a-f]+", src = "(ctxapp.c:[0-9]+)?" \}' "$WORK/dbg")
[ "$n" -eq 22 ] || fail "$n of the 22 events of ctxapp resolved"
grep -q 'src = "ctxapp.c:[0-9]*"' "$WORK/dbg" || fail "no source line resolved at all"
echo "ok"
