# lib.sh - shared set-up of the runtime control tests (sourced), on top
# of tests/lib/common.sh (WORK, fail, skip, UST, record_env...).
# SPDX-License-Identifier: GPL-2.0-only
set -eu
. "$top_srcdir/tests/lib/common.sh"

CTLAPP="$top_builddir/tests/control/ctlapp"
LATE_SO="$top_builddir/tests/control/.libs/libctllate.so"
record_env

# ctlapp, killed at exit if a test ends before stop_app.
app_pid=
on_exit '[ -z "$app_pid" ] || kill -9 "$app_pid" 2>/dev/null'

# start_app PATTERNS: ctlapp under `ust record -e PATTERNS -o $WORK/trace`
# (driven_start); sets app_pid.
start_app() { driven_start ctlapp -e "$1" -- "$CTLAPP" "$WORK/answer"; }

# app COMMAND: send it to ctlapp and wait until it is done.
app() { driven_do "$@"; }

# stop_app: end ctlapp's input; ust record waits for the trace to be
# complete.
stop_app() {
	exec 3>&- 4<&-
	wait "$record_pid" || fail "ust record failed: $(cat "$WORK/record.out")"
	app_pid=
}

# ctl ARGS...: `ust ctl ARGS` must succeed; its output is in $out.
ctl() {
	out=$("$UST" ctl "$@" 2>"$WORK/ctl.err") ||
		fail "ust ctl $*: $(cat "$WORK/ctl.err")"
	[ ! -s "$WORK/ctl.err" ] || fail "ust ctl $*: stderr [$(cat "$WORK/ctl.err")]"
}

. "$top_srcdir/tests/lib/expect_fail.sh"

# The app:/late: events of a text trace on stdin, one "name phase seq"
# line each, sorted: the same for `ust view` and babeltrace2.
events() {
	sed -n 's/.* \(app:[ab]\|late:b\): .* { phase = \([0-9]*\), seq = \([0-9]*\) }$/\1 \2 \3/p' |
		sort -k2,2n -k1,1 -k3,3n
}

# expected NAME PHASE N...: "NAME PHASE 0" .. "NAME PHASE N-1" lines for
# each triple given.
expected() {
	while [ $# -ge 3 ]; do
		i=0
		while [ "$i" -lt "$3" ]; do
			echo "$1 $2 $i"
			i=$((i + 1))
		done
		shift 3
	done
}

# expect_trace NAME PHASE N...: the trace in $WORK/trace holds exactly
# these events (expected()'s arguments), read by `ust view` and by
# babeltrace2 (which must not warn).
expect_trace() {
	expected "$@" | sort -k2,2n -k1,1 -k3,3n >"$WORK/want"
	"$UST" view "$WORK/trace" >"$WORK/view" 2>"$WORK/view.err" ||
		fail "ust view: $(cat "$WORK/view.err")"
	events <"$WORK/view" >"$WORK/got.view"
	cmp -s "$WORK/want" "$WORK/got.view" ||
		fail "ust view: $(diff "$WORK/want" "$WORK/got.view" | head -20)"
	babeltrace2 "$WORK/trace" >"$WORK/bt" 2>"$WORK/bt.err" ||
		fail "babeltrace2: $(cat "$WORK/bt.err")"
	[ ! -s "$WORK/bt.err" ] || fail "babeltrace2 warned: $(cat "$WORK/bt.err")"
	events <"$WORK/bt" >"$WORK/got.bt"
	cmp -s "$WORK/want" "$WORK/got.bt" ||
		fail "babeltrace2: $(diff "$WORK/want" "$WORK/got.bt" | head -20)"
}
