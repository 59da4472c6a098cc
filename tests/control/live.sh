#!/bin/sh
# live.sh - `ust ctl` on a running program: each change is in force as
# soon as the command returns (before the next consumer period), and the
# trace read back by our reader and by babeltrace2 holds exactly the
# events each phase should have.  Also `ust list PID` along the way, and
# a provider loaded with dlopen() after the changes, which follows them.
. "$top_srcdir/tests/control/lib.sh"

start_app '*'
pid=$app_pid

app emit 1 5				# everything, as UST_TRACE says

ctl "$pid" disable 'app:b'
[ "$out" = "process $pid: disabled 1 event matching 'app:b'" ] || fail "disable: [$out]"
app emit 2 5				# app:a only

list=$("$UST" list "$pid") || fail "ust list $pid"
[ "$list" = "process $pid (ctlapp): 2 events, tracing running
  app:a enabled
  app:b disabled" ] || fail "ust list after disable: [$list]"

ctl "$pid" enable 'app:*'
[ "$out" = "process $pid: enabled 2 events matching 'app:*'" ] || fail "enable: [$out]"
app emit 3 5				# both again

ctl "$pid" stop
[ "$out" = "process $pid: tracing stopped" ] || fail "stop: [$out]"
app emit 4 5				# nothing
list=$("$UST" list "$pid") || fail "ust list $pid"
[ "$list" = "process $pid (ctlapp): 2 events, tracing stopped
  app:a enabled
  app:b enabled" ] || fail "ust list when stopped: [$list]"

ctl "$pid" start
[ "$out" = "process $pid: tracing started, 2 of 2 events on" ] || fail "start: [$out]"
app emit 5 5				# both

# A rule for every "b" event, then a provider with one registers: it
# follows the rule rather than UST_TRACE ('*').
ctl "$pid" disable '*:b'
app load "$LATE_SO"
list=$("$UST" list "$pid") || fail "ust list $pid"
[ "$list" = "process $pid (ctlapp): 3 events, tracing running
  app:a enabled
  app:b disabled
  late:b disabled" ] || fail "ust list after dlopen: [$list]"
app emit 6 5				# app:a only

ctl "$pid" enable 'late:*'
[ "$out" = "process $pid: enabled 1 event matching 'late:*'" ] || fail "enable late: [$out]"
app emit 7 5				# app:a and late:b

# Enabling while stopped takes effect at start.
ctl "$pid" stop
ctl "$pid" enable 'app:b'
[ "$out" = "process $pid: enabled 1 event matching 'app:b' (tracing is stopped: 'ust ctl PID start' resumes it)" ] ||
	fail "enable when stopped: [$out]"
app emit 8 5				# nothing
ctl "$pid" start
[ "$out" = "process $pid: tracing started, 3 of 3 events on" ] || fail "start: [$out]"
app emit 9 5				# all three

stop_app

expected app:a 1 5 app:b 1 5  app:a 2 5  app:a 3 5 app:b 3 5 \
	 app:a 5 5 app:b 5 5  app:a 6 5  app:a 7 5 late:b 7 5 \
	 app:a 9 5 app:b 9 5 late:b 9 5 | sort -k2,2n -k1,1 -k3,3n >"$WORK/want"

"$UST" view "$WORK/trace" >"$WORK/view" 2>"$WORK/view.err" ||
	fail "ust view: $(cat "$WORK/view.err")"
events <"$WORK/view" >"$WORK/got.view"
cmp -s "$WORK/want" "$WORK/got.view" ||
	fail "ust view: $(diff "$WORK/want" "$WORK/got.view" | head -20)"

babeltrace2 "$WORK/trace" >"$WORK/bt" 2>"$WORK/bt.err" ||
	fail "babeltrace2: $(cat "$WORK/bt.err")"
[ ! -s "$WORK/bt.err" ] || fail "babeltrace2 warned: $(cat "$WORK/bt.err")"
events <"$WORK/bt" >"$WORK/got.bt"
cmp -s "$WORK/want" "$WORK/got.bt" ||
	fail "babeltrace2: $(diff "$WORK/want" "$WORK/got.bt" | head -20)"
echo "PASS: $(wc -l <"$WORK/want") events, as expected per phase"
