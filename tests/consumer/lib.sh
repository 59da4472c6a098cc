# lib.sh - shared set-up of the consumer tests (sourced).
# SPDX-License-Identifier: GPL-2.0-only
set -eu

: "${top_builddir:?run from make check}"
: "${builddir:?run from make check}"
: "${srcdir:?run from make check}"
CONSUMERD="$top_builddir/consumer/ust-consumerd"
FAKEAPP="$builddir/fake-app"
PY="${BT2_PYTHON:-/usr/bin/python3}"
CHECK="$PY $srcdir/check_trace.py"
# A fixed session clock: 2023-11-14 22:13:20 UTC at counter value 0.
CLOCK="mono:1000000000:1700000000:0:c3d2f6a4-93b1-4b5e-8d3f-0123456789ab"

[ -x "$(command -v "${BABELTRACE2:-babeltrace2}")" ] ||
	{ echo "SKIP: babeltrace2 is not installed"; exit 77; }
"$PY" -c 'import bt2' 2>/dev/null ||
	{ echo "SKIP: $PY cannot import bt2 (python3-bt2)"; exit 77; }

WORK=$(mktemp -d "${TMPDIR:-/tmp}/ust-consumer-test.XXXXXX")
cleanup() { rm -rf "$WORK"; }
trap 'cleanup' EXIT
mkdir "$WORK/out" "$WORK/sum"

fail() { echo "FAIL: $*"; exit 1; }
skip() { echo "SKIP: $*"; exit 77; }

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
