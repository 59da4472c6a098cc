#!/bin/sh
# hostile.sh - `ust ctl` and `ust list PID` read a control area that the
# traced process wrote: a bad enabled address, an absurd count or an area
# outside the mapping is refused with one line, changes nothing, and
# crashes nothing.
. "$top_srcdir/tests/control/lib.sh"
POKE="$top_builddir/tests/control/ctlpoke"

start_app 'app:*'
pid=$app_pid
listed="process $pid (ctlapp): 2 events, tracing running
  app:a enabled
  app:b enabled"

"$POKE" "$pid" addr 0 10 || fail "ctlpoke"
expect_fail 1 "ust ctl: process $pid: event 'app:a': enabled word at 0x10 is not in its writable memory; left alone" \
	"$UST" ctl "$pid" disable 'app:*'
[ "$("$UST" list "$pid")" = "$listed" ] || fail "changed after a bad address"
expect_fail 1 "ust ctl: process $pid: event 'app:a': enabled word at 0x10 is not in its writable memory; left alone" \
	"$UST" ctl "$pid" stop

# Readable and writable, but not an enabled word: the descriptor's
# struct_size, 4 bytes before it (struct ust_event_desc).
"$POKE" "$pid" addr 0 0 && "$POKE" "$pid" shift 1 -4 || fail "ctlpoke"
rc=0
"$UST" ctl "$pid" disable 'app:b' >"$WORK/out" 2>"$WORK/err" || rc=$?
[ "$rc" = 1 ] || fail "wrong address accepted: exit $rc"
grep -qx "ust ctl: process $pid: event 'app:b': enabled word at 0x[0-9a-f]* holds [0-9]*, not 0 or 1; left alone" "$WORK/err" ||
	fail "wrong address: [$(cat "$WORK/err")]"
"$POKE" "$pid" shift 1 4 || fail "ctlpoke"

# A huge count reads as the area's capacity.
"$POKE" "$pid" nr_events 0xffffffff || fail "ctlpoke"
[ "$("$UST" list "$pid")" = "$listed" ] || fail "ust list with a huge count"

"$POKE" "$pid" ctl_offset 0x7fffffffffffffff || fail "ctlpoke"
rc=0
"$UST" list "$pid" >"$WORK/out" 2>"$WORK/err" || rc=$?
[ "$rc" = 1 ] && grep -qx "ust list: process $pid: bad runtime control area (offset 9223372036854775807, size [0-9]*)" "$WORK/err" ||
	fail "area outside the mapping: exit $rc, [$(cat "$WORK/err")]"

# The program and its trace are intact: every event was recorded.
app emit 1 3
stop_app
expect_trace app:a 1 3 app:b 1 3
echo "PASS: hostile control areas refused"
