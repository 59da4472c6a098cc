#!/bin/sh
# --buffers: its values and the combinations refused, with exit status 2;
# UST_BUFFERS read by libust, a bad value reported and per-CPU kept.
. "$top_srcdir/tests/threads/lib.sh"

expect_usage() {	# MESSAGE ARGS...
	msg=$1; shift
	st=0
	"$UST" record -o "$WORK/t" "$@" -- "$APP" -n 1 >"$WORK/out" 2>"$WORK/err" || st=$?
	[ "$st" = 2 ] || fail "ust record $*: exit $st, want 2"
	grep -qxF "$msg" "$WORK/err" || fail "ust record $*: $(cat "$WORK/err")"
}
expect_usage "ust record: invalid --buffers 'per-process': must be 'per-cpu' or 'per-thread'" \
	--buffers=per-process
expect_usage "ust record: --buffers=per-thread cannot be combined with --flight-recorder: it reads per-CPU buffers only" \
	--buffers=per-thread --flight-recorder

# libust alone: a bad UST_BUFFERS is reported, the trace is per-CPU.
UST_TRACE='*' UST_OUTPUT="$WORK/e" UST_SUMMARY_DIR= UST_BUFFERS=threads "$APP" -n 10 \
	>"$WORK/out" 2>"$WORK/err" || fail "tbuf-app: $(cat "$WORK/err")"
grep -qxF "ust: ignoring UST_BUFFERS='threads': must be 'per-cpu' or 'per-thread'" "$WORK/err" ||
	fail "bad UST_BUFFERS: $(cat "$WORK/err")"
wait_for 20 "no per-CPU stream" sh -c "ls $WORK/e/*/ | grep -q '^ust_[0-9]*\$'"
# --buffers=per-cpu: stream files per CPU, the thread id in each record.
"$UST" record -o "$WORK/c" --buffers=per-cpu -- "$APP" -t 2 -n 100 >"$WORK/out" 2>"$WORK/err" ||
	fail "per-cpu: $(cat "$WORK/err")"
ls "$WORK"/c/*/ | grep -q '^ust_[0-9]*$' || fail "per-cpu: no per-CPU stream file"
ls "$WORK"/c/*/ | grep -q 'tid' && fail "per-cpu: a per-thread stream file"
echo ok
