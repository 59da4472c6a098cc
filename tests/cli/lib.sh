# lib.sh - helpers for the `ust` command-line tests (sourced, POSIX sh),
# on top of tests/lib/common.sh (WORK, fail, skip, UST...).
#
# SPDX-License-Identifier: GPL-2.0-only
#
# These tests run the uninstalled ust on untraced commands.  No `set -e`:
# `run` keeps each command's exit status for the checks below.

set -u
. "$top_srcdir/tests/lib/common.sh"

# run CMD...: run it with stdin closed, keeping its exit status in $rc,
# its stdout in $out and its stderr in $err.
run() {
	"$@" >"$WORK/.out" 2>"$WORK/.err" </dev/null
	rc=$?
	out=$(cat "$WORK/.out")
	err=$(cat "$WORK/.err")
}

# expect_rc N: the last run exited with status N.
expect_rc() {
	[ "$rc" -eq "$1" ] ||
		fail "expected exit status $1, got $rc${err:+ (stderr: $err)}"
}

# expect_err TEXT: the last run's stderr is exactly TEXT.
expect_err() {
	[ "$err" = "$1" ] ||
		fail "stderr: expected [$1], got [$err]"
}

# expect_out TEXT: the last run's stdout is exactly TEXT.
expect_out() {
	[ "$out" = "$1" ] ||
		fail "stdout: expected [$1], got [$out]"
}

# expect_err_line TEXT: one line of the last run's stderr is TEXT.
expect_err_line() {
	printf '%s\n' "$err" | grep -qxF -- "$1" ||
		fail "stderr: no line [$1] in [$err]"
}

# expect_fail N MESSAGE -- CMD...: CMD exits N with MESSAGE as its only
# stderr line and writes nothing on stdout.
expect_fail() {
	_status=$1 _msg=$2
	shift 3
	run "$@"
	expect_rc "$_status"
	expect_err "$_msg"
	expect_out ""
}

# The message `ust record` ends with when CMD wrote no trace.
no_trace() {
	echo "ust record: no trace was written (is '$1' linked with libust?)"
}
