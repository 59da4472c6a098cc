# lib.sh - shared set-up of the consumer tests (sourced), on top of
# tests/lib/common.sh (WORK, fail, skip, CONSUMERD...).
# SPDX-License-Identifier: GPL-2.0-only
set -eu
. "$top_srcdir/tests/lib/common.sh"

FAKEAPP="$builddir/fake-app"
CHECK="$BT2_PYTHON $srcdir/check_trace.py"
# A fixed session clock: 2023-11-14 22:13:20 UTC at counter value 0.
CLOCK="mono:1000000000:1700000000:0:c3d2f6a4-93b1-4b5e-8d3f-0123456789ab"

need_babeltrace2
need_bt2
mkdir "$WORK/out" "$WORK/sum"

# run_fake ARGS...: run fake-app on $WORK/out; its stdout in $WORK/run,
# stderr (the consumer's too) in $WORK/err.  Sets STATUS and CHILD.
run_fake() {
	"$FAKEAPP" -c "$CONSUMERD" -S "$WORK/sum" -e "$WORK/expect" "$@" \
		>"$WORK/run" 2>"$WORK/err" || fail "fake-app failed: $(cat "$WORK/err")"
	STATUS=$(sed -n 's/^consumer_status=//p' "$WORK/run")
	CHILD=$(sed -n 's/^child_pid=//p' "$WORK/run")
	[ -n "$STATUS" ] || fail "fake-app printed no status"
}

# The only trace directory under $1 (default $WORK/out).
trace_dir() {
	set -- "${1:-$WORK/out}"
	n=$(find "$1" -mindepth 1 -maxdepth 1 -type d | wc -l)
	[ "$n" -eq 1 ] || fail "$n trace directories in $1"
	find "$1" -mindepth 1 -maxdepth 1 -type d
}

# summary KEY: the value of KEY in the consumer's summary file.
summary() {
	f="$WORK/sum/$CHILD.summary"
	[ -f "$f" ] || fail "no summary file $f"
	sed -n "s/^$1=//p" "$f"
}

expect_summary() {
	v=$(summary "$1")
	[ "$v" = "$2" ] || fail "summary $1=$v, expected $2"
}

no_consumer_errors() {
	! grep -q . "$WORK/err" || fail "consumer printed: $(cat "$WORK/err")"
}
