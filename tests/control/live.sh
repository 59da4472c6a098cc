#!/bin/sh
# live.sh - `ust ctl` on a running program: each change is in force as
# soon as the command returns (before the next consumer period), and the
# trace read back by our reader and by babeltrace2 holds exactly the
# events each phase should have.  Also `ust list PID` along the way, and
# a provider loaded with dlopen() after the changes, which follows them,
# unloaded (it leaves the list) and loaded again; and fork children,
# which start with their parent's state.
. "$top_srcdir/tests/control/lib.sh"

start_app '*'
pid=$app_pid

app emit 1 5				# everything, as UST_TRACE says

ctl "$pid" disable 'app:b'
[ "$out" = "process $pid: disabled 1 event matching 'app:b'" ] || fail "disable: [$out]"
app emit 2 5				# app:a only
app fork 21 3				# a fork child inherits that: app:a only

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
app fork 41 3				# nor in a fork child
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

# Unloaded, the provider leaves the list and no ust ctl can write into
# its memory; loaded again, it registers anew (a new event id) and
# follows the rules given so far: 'late:*' enables it.
app unload
list=$("$UST" list "$pid") || fail "ust list $pid"
[ "$list" = "process $pid (ctlapp): 2 events, tracing running
  app:a enabled
  app:b enabled" ] || fail "ust list after dlclose: [$list]"
rc=0
"$UST" ctl "$pid" disable 'late:*' 2>"$WORK/gone.err" || rc=$?
[ "$rc" = 1 ] && [ "$(cat "$WORK/gone.err")" = "ust ctl: process $pid has no event matching 'late:*' (see 'ust list $pid')" ] ||
	fail "ust ctl on an unloaded provider: exit $rc, [$(cat "$WORK/gone.err")]"
app load "$LATE_SO"
list=$("$UST" list "$pid") || fail "ust list $pid"
[ "$list" = "process $pid (ctlapp): 3 events, tracing running
  app:a enabled
  app:b enabled
  late:b enabled" ] || fail "ust list after a second dlopen: [$list]"
app emit 10 5				# all three

stop_app

expect_trace app:a 1 5 app:b 1 5  app:a 2 5  app:a 21 3  app:a 3 5 app:b 3 5 \
	 app:a 5 5 app:b 5 5  app:a 6 5  app:a 7 5 late:b 7 5 \
	 app:a 9 5 app:b 9 5 late:b 9 5  app:a 10 5 app:b 10 5 late:b 10 5
echo "PASS: $(wc -l <"$WORK/want") events, as expected per phase"
