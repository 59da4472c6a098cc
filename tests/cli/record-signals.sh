#!/bin/sh
# ust record passes termination signals on to CMD and does not die of
# them itself; once CMD is gone, a signal stops the wait for consumers.
. "$srcdir/lib.sh"

out_dir=$WORK/out

# A CMD loop that ends by itself after 10 s, so that a failing test ends.
loop='i=0; while [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done; exit 99'

# wait_ready: until CMD has created $WORK/ready (10 s at most).
wait_ready() {
	wait_for 10 "timed out waiting for $WORK/ready" test -e "$WORK/ready"
}

# signal_case SIG STATUS: CMD exits STATUS when it gets SIG from ust record.
signal_case() {
	rm -f "$WORK/ready"
	"$UST" record -o "$out_dir" -- sh -c \
		"trap 'exit $2' $1; touch '$WORK/ready'; $loop" \
		2>"$WORK/err" &
	pid=$!
	wait_ready
	kill -s "$1" "$pid"
	wait "$pid"
	rc=$?
	[ "$rc" -eq "$2" ] || fail "$1: exit status $rc, expected $2"
	[ "$(cat "$WORK/err")" = "$(no_trace sh)" ] || fail "$1: stderr $(cat "$WORK/err")"
}

signal_case TERM 7
signal_case HUP 8
# `cmd &` ignores SIGINT and SIGQUIT in a script; env can undo that.
if env --default-signal=INT,QUIT true 2>/dev/null; then
	rm -f "$WORK/ready"
	env --default-signal=INT,QUIT "$UST" record -o "$out_dir" -- sh -c \
		"trap 'exit 9' INT; touch '$WORK/ready'; $loop" \
		2>/dev/null &
	pid=$!
	wait_ready
	kill -s INT "$pid"
	wait "$pid"
	rc=$?
	[ "$rc" -eq 9 ] || fail "INT: exit status $rc, expected 9"
fi

# CMD that dies of the signal: 128 + N.
rm -f "$WORK/ready"
"$UST" record -o "$out_dir" -- sh -c "touch '$WORK/ready'; $loop" \
	2>/dev/null &
pid=$!
wait_ready
kill -s TERM "$pid"
wait "$pid"
rc=$?
[ "$rc" -eq 143 ] || fail "exit status $rc, expected 143"

# A consumer that takes long: a signal stops the wait, after a grace.
mkdir "$WORK/bin"
# Not `exec sleep`: the process must keep the name ust-consumerd.
# It says when it runs under its name: until exec, a child is "sh".
cat >"$WORK/bin/ust-consumerd" <<SCRIPT
#!/bin/sh
trap 'kill \$!; exit 0' TERM
sleep 30 &
echo \$\$ >'$WORK/consumer.tmp'
mv '$WORK/consumer.tmp' '$WORK/consumer'
wait
SCRIPT
chmod +x "$WORK/bin/ust-consumerd"
rm -f "$WORK/ready"
PATH=$WORK/bin:$PATH "$UST" record -o "$out_dir" -- sh -c \
	"ust-consumerd </dev/null >/dev/null 2>&1 & i=0; while [ ! -e '$WORK/consumer' ] && [ \$i -lt 1000 ]; do sleep 0.01; i=\$((i + 1)); done; touch '$WORK/ready'; exit 5" \
	2>"$WORK/err" &
pid=$!
wait_ready
consumer=$(cat "$WORK/consumer")
# ust record has reaped CMD when the consumer is its child.
reparented() {
	[ "$(cut -d' ' -f4 "/proc/$consumer/stat")" = "$pid" ]
}
wait_for 10 "consumer not reparented to ust record" reparented
kill -s TERM "$pid"
wait "$pid"
rc=$?
kill "$consumer" 2>/dev/null
[ "$rc" -eq 5 ] || fail "exit status $rc, expected CMD's 5"
[ "$(cat "$WORK/err")" = "ust record: interrupted: stopped waiting for 1 consumer; traces may be incomplete" ] ||
	fail "stderr: $(cat "$WORK/err")"
exit 0
