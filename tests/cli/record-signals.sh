#!/bin/sh
# ust record passes termination signals on to CMD and does not die of
# them itself; once CMD is gone, a signal stops the wait for consumers.
. "$srcdir/lib.sh"

out_dir=$tmp/out

# A CMD loop that ends by itself after 10 s, so that a failing test ends.
loop='i=0; while [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done; exit 99'

# wait_for FILE: until FILE exists (10 s at most).
wait_for() {
	_n=0
	while [ ! -e "$1" ]; do
		_n=$((_n + 1))
		[ "$_n" -le 200 ] || fail "timed out waiting for $1"
		sleep 0.05
	done
}

# signal_case SIG STATUS: CMD exits STATUS when it gets SIG from ust record.
signal_case() {
	rm -f "$tmp/ready"
	"$UST" record -o "$out_dir" -- sh -c \
		"trap 'exit $2' $1; touch '$tmp/ready'; $loop" \
		2>"$tmp/err" &
	pid=$!
	wait_for "$tmp/ready"
	kill -s "$1" "$pid"
	wait "$pid"
	rc=$?
	[ "$rc" -eq "$2" ] || fail "$1: exit status $rc, expected $2"
	[ "$(cat "$tmp/err")" = "$(no_trace sh)" ] || fail "$1: stderr $(cat "$tmp/err")"
}

signal_case TERM 7
signal_case HUP 8
# `cmd &` ignores SIGINT and SIGQUIT in a script; env can undo that.
if env --default-signal=INT,QUIT true 2>/dev/null; then
	rm -f "$tmp/ready"
	env --default-signal=INT,QUIT "$UST" record -o "$out_dir" -- sh -c \
		"trap 'exit 9' INT; touch '$tmp/ready'; $loop" \
		2>/dev/null &
	pid=$!
	wait_for "$tmp/ready"
	kill -s INT "$pid"
	wait "$pid"
	rc=$?
	[ "$rc" -eq 9 ] || fail "INT: exit status $rc, expected 9"
fi

# CMD that dies of the signal: 128 + N.
rm -f "$tmp/ready"
"$UST" record -o "$out_dir" -- sh -c "touch '$tmp/ready'; $loop" \
	2>/dev/null &
pid=$!
wait_for "$tmp/ready"
kill -s TERM "$pid"
wait "$pid"
rc=$?
[ "$rc" -eq 143 ] || fail "exit status $rc, expected 143"

# A consumer that takes long: a signal stops the wait, after a grace.
mkdir "$tmp/bin"
# Not `exec sleep`: the process must keep the name ust-consumerd.
# It says when it runs under its name: until exec, a child is "sh".
cat >"$tmp/bin/ust-consumerd" <<SCRIPT
#!/bin/sh
trap 'kill \$!; exit 0' TERM
sleep 30 &
echo \$\$ >'$tmp/consumer.tmp'
mv '$tmp/consumer.tmp' '$tmp/consumer'
wait
SCRIPT
chmod +x "$tmp/bin/ust-consumerd"
rm -f "$tmp/ready"
PATH=$tmp/bin:$PATH "$UST" record -o "$out_dir" -- sh -c \
	"ust-consumerd </dev/null >/dev/null 2>&1 & i=0; while [ ! -e '$tmp/consumer' ] && [ \$i -lt 1000 ]; do sleep 0.01; i=\$((i + 1)); done; touch '$tmp/ready'; exit 5" \
	2>"$tmp/err" &
pid=$!
wait_for "$tmp/ready"
consumer=$(cat "$tmp/consumer")
# ust record has reaped CMD when the consumer is its child.
n=0
until [ "$(cut -d' ' -f4 "/proc/$consumer/stat")" = "$pid" ]; do
	n=$((n + 1))
	[ "$n" -le 200 ] || fail "consumer not reparented to ust record"
	sleep 0.05
done
kill -s TERM "$pid"
wait "$pid"
rc=$?
kill "$consumer" 2>/dev/null
[ "$rc" -eq 5 ] || fail "exit status $rc, expected CMD's 5"
[ "$(cat "$tmp/err")" = "ust record: interrupted: stopped waiting for 1 consumer; traces may be incomplete" ] ||
	fail "stderr: $(cat "$tmp/err")"
exit 0
