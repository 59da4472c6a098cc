#!/bin/sh
# errors.sh - every refusal of `ust ctl` and `ust list PID`: one line
# that says what is wrong, a non-zero exit, and nothing changed in the
# traced process.
. "$top_srcdir/tests/control/lib.sh"

# The command line.
expect_fail 2 "ust ctl: expected PID and an action (see 'ust ctl --help')" "$UST" ctl
expect_fail 2 "ust ctl: expected PID and an action (see 'ust ctl --help')" "$UST" ctl 1
expect_fail 2 "ust ctl: 'abc' is not a process id" "$UST" ctl abc stop
expect_fail 2 "ust ctl: '0' is not a process id" "$UST" ctl 0 stop
expect_fail 2 "ust ctl: unknown action 'frob' (enable, disable, stop, start, filter or unfilter)" \
	"$UST" ctl 1 frob
expect_fail 2 "ust ctl: enable needs a PATTERN (e.g. 'app:*')" "$UST" ctl 1 enable
expect_fail 2 "ust ctl: unexpected argument 'x'" "$UST" ctl 1 stop x
expect_fail 2 "ust ctl: --bogus: unknown option" "$UST" ctl --bogus 1 stop
long=$(printf '%0124d' 0)
expect_fail 2 "ust ctl: a PATTERN has 1 to 123 characters" "$UST" ctl 1 enable "$long"
out=$("$UST" ctl --help) || fail "ust ctl --help"
printf '%s\n' "$out" | grep -q '^Usage: ust ctl PID enable|disable|unfilter PATTERN | PID filter PATTERN EXPR | PID stop|start$' ||
	fail "ust ctl --help: [$out]"

# No such process: one that has exited (and been reaped).
sh -c 'echo $$ >"$1"' sh "$WORK/gone"
gone=$(cat "$WORK/gone")
if ! kill -0 "$gone" 2>/dev/null; then
	expect_fail 1 "ust ctl: no process $gone" "$UST" ctl "$gone" stop
	expect_fail 1 "ust list: no process $gone" "$UST" list "$gone"
fi

# A process that libust does not trace.
sleep 60 &
sleeper=$!
expect_fail 1 "ust ctl: process $sleeper is not traced by libust (start it with UST_TRACE set, or under \`ust record\`)" \
	"$UST" ctl "$sleeper" disable 'app:*'
expect_fail 1 "ust list: process $sleeper is not traced by libust (start it with UST_TRACE set, or under \`ust record\`)" \
	"$UST" list "$sleeper"
kill "$sleeper"

start_app 'app:*'
pid=$app_pid
listed="process $pid (ctlapp): 2 events, tracing running
  app:a enabled
  app:b enabled"

# A pattern that matches nothing changes nothing, and says so.
expect_fail 1 "ust ctl: process $pid has no event matching 'nope:*' (see 'ust list $pid')" \
	"$UST" ctl "$pid" disable 'nope:*'
[ "$("$UST" list "$pid")" = "$listed" ] || fail "changed by a failed ust ctl"

# Another user may not change the process (root only: needs setpriv).
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	expect_fail 1 "ust ctl: /proc/$pid/fd: Permission denied (tracing another user's process needs root)" \
		setpriv --reuid=65534 --regid=65534 --clear-groups "$UST" ctl "$pid" stop
	[ "$("$UST" list "$pid")" = "$listed" ] || fail "changed by another user"
fi

# The rules that later providers follow are bounded: the 65th is refused.
i=0
while [ $i -lt 64 ]; do
	ctl "$pid" enable 'app:a'
	i=$((i + 1))
done
expect_fail 1 "ust ctl: process $pid: too many enable/disable commands (64); restart it with the patterns in UST_TRACE" \
	"$UST" ctl "$pid" disable 'app:a'
[ "$("$UST" list "$pid")" = "$listed" ] || fail "changed by a refused ust ctl"
# stop and start need no rule.
ctl "$pid" stop
app emit 1 3
ctl "$pid" start
app emit 2 3

stop_app
expect_trace app:a 2 3 app:b 2 3
echo "PASS: ust ctl errors"
