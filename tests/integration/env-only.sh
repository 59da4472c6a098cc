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

# 2. No UST_TRACE: no directory, no consumer, no mapping.
UST_OUTPUT="$WORK/none" "$STRESS" -n 100 >"$WORK/out2" &
pid=$!
wait $pid
[ ! -e "$WORK/none" ] || fail "a directory was created without UST_TRACE"
grep -q "mapped=0" "$WORK/out2" || fail "shared memory mapped without UST_TRACE"
grep -q "mapped=1" "$WORK/out" || fail "no shared memory with UST_TRACE"
! pgrep -f "ust-consumerd .*--pid $pid " >/dev/null || fail "consumer started"

# 3. Unwritable output: the program runs to completion all the same.
UST_TRACE='*' UST_OUTPUT=/proc/ust-no-such-dir "$STRESS" -n 100000 \
	>"$WORK/out3" 2>"$WORK/err3" || fail "stress failed: $(cat "$WORK/err3")"
grep -q "attempted=100000" "$WORK/out3" || fail "program did not finish"

# 4. No consumer to start: one clear line, and the program runs untraced.
UST_TRACE='*' UST_OUTPUT="$WORK/t4" UST_CONSUMERD=/nonexistent/ust-consumerd \
	"$STRESS" -n 1000 >"$WORK/out4" 2>"$WORK/err4" ||
	fail "stress failed: $(cat "$WORK/err4")"
grep -q "attempted=1000" "$WORK/out4" || fail "program did not finish"
[ "$(cat "$WORK/err4")" = "ust: cannot start '/nonexistent/ust-consumerd': No such file or directory; tracing disabled" ] ||
	fail "message: $(cat "$WORK/err4")"

# 5. A bad setting is reported and replaced by the default.
UST_TRACE='*' UST_OUTPUT="$WORK/t5" UST_SUBBUF_SIZE=3000 "$STRESS" -n 10 \
	>"$WORK/out5" 2>"$WORK/err5" &
pid=$!
wait $pid || fail "stress failed"
wait_consumer $pid
grep -qx "ust: ignoring UST_SUBBUF_SIZE='3000': must be a power of two from 4096 to 1073741824" "$WORK/err5" ||
	fail "message: $(cat "$WORK/err5")"
$CHECK "$WORK/t5" --traces 1 --complete 1 10 >/dev/null || fail "trace with default size"
