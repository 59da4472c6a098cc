#!/bin/sh
# Without `ust record`: UST_TRACE alone traces; without UST_TRACE nothing
# is created at all; an unwritable UST_OUTPUT never breaks the program.
. "$top_srcdir/tests/integration/lib.sh"

wait_consumer() {	# the consumer of pid $1 has finished
	n=0
	while pgrep -f "ust-consumerd .*--pid $1 " >/dev/null; do
		n=$((n + 1))
		[ $n -lt 300 ] || fail "consumer of $1 still running"
		sleep 0.1
	done
}

# 1. Tracing from the environment, with an event pattern.
UST_TRACE='stress:text' UST_OUTPUT="$WORK/t" "$STRESS" -n 800 -s >"$WORK/out" &
pid=$!
wait $pid || fail "stress failed"
wait_consumer $pid
$CHECK "$WORK/t" --traces 1 >"$WORK/check" || fail "$(cat "$WORK/check")"
grep -q "100 events, 0 discarded.*{'stress:text': 100}" "$WORK/check" ||
	fail "pattern: $(cat "$WORK/check")"

# 2. No UST_TRACE: no directory, no consumer.
UST_OUTPUT="$WORK/none" "$STRESS" -n 100 >/dev/null &
pid=$!
wait $pid
[ ! -e "$WORK/none" ] || fail "a directory was created without UST_TRACE"
! pgrep -f "ust-consumerd .*--pid $pid " >/dev/null || fail "consumer started"

# 3. Unwritable output: the program runs to completion all the same.
UST_TRACE='*' UST_OUTPUT=/proc/ust-no-such-dir "$STRESS" -n 100000 \
	>"$WORK/out3" 2>"$WORK/err3" || fail "stress failed: $(cat "$WORK/err3")"
grep -q "attempted=100000" "$WORK/out3" || fail "program did not finish"
