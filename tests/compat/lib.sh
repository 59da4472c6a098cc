# lib.sh - shared set-up of the LTTng-compatibility tests (sourced), on
# top of tests/lib/common.sh (WORK, fail, skip, UST, record_env...).
# SPDX-License-Identifier: GPL-2.0-only
set -eu
. "$top_srcdir/tests/lib/common.sh"

APP="$top_builddir/tests/compat/ctxapp"
CHECK="$BT2_PYTHON $top_srcdir/tests/compat/check_compat.py"
SIZES="$BT2_PYTHON $top_srcdir/tests/integration/record_sizes.py"
record_env
unset UST_CONTEXT
need_babeltrace2
need_bt2

# record NAME ARGS...: `ust record ARGS` into $WORK/NAME (its stdout in
# $WORK/NAME.out, stderr in $WORK/NAME.err); fails unless nothing was lost.
record() {
	_name=$1
	shift
	timeout 60 "$UST" record -o "$WORK/$_name" "$@" >"$WORK/$_name.out" \
		2>"$WORK/$_name.err" ||
		fail "ust record $*: $(cat "$WORK/$_name.err")"
	grep -q "written, 0 lost" "$WORK/$_name.err" ||
		fail "ust record $*: $(cat "$WORK/$_name.err")"
}

# same_view DIR: babeltrace2 reads DIR with an empty stderr, and `ust
# view` prints exactly what it prints; the text is left in DIR.bt.
same_view() {
	babeltrace2 "$1" >"$1.bt" 2>"$1.bt.err" ||
		fail "babeltrace2 $1: $(head -n 3 "$1.bt.err")"
	[ ! -s "$1.bt.err" ] || fail "babeltrace2 $1 warned: $(head -n 3 "$1.bt.err")"
	"$UST" view "$1" >"$1.view" 2>"$1.view.err" ||
		fail "ust view $1: $(cat "$1.view.err")"
	cmp -s "$1.bt" "$1.view" ||
		fail "ust view and babeltrace2 differ on $1: $(diff "$1.bt" "$1.view" | head -n 4)"
}

# The one trace directory under DIR.
trace_dir() {
	set -- "$1"/*/metadata
	[ $# -eq 1 ] && [ -f "$1" ] || fail "expected one trace, found: $*"
	dirname "$1"
}

# consumer_gone PID: no consumer of process PID runs any more.
consumer_gone() {
	! pgrep -f "ust-consumerd .*--pid $1 " >/dev/null
}

# traced_directly DIR ARGS...: run ctxapp ARGS traced by UST_TRACE and
# friends alone (no `ust record`: no statedump pattern is added), output
# to DIR, and wait for its consumer to finish; stderr in DIR.err.
traced_directly() {
	_dir=$1
	shift
	mkdir -p "$_dir"
	UST_OUTPUT="$_dir" timeout 60 "$APP" "$@" >"$_dir.out" 2>"$_dir.err" ||
		fail "ctxapp $*: $(cat "$_dir.err")"
	_pid=$(sed -n 's/^pid=//p' "$_dir.out")
	wait_for 30 "the consumer of $_pid is still running" consumer_gone "$_pid"
}
