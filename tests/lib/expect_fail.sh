# expect_fail.sh - expect_fail of the tests of control/ and filter/
# (sourced after common.sh; tests/cli/lib.sh has its own, on its `run`).
# SPDX-License-Identifier: GPL-2.0-only

# expect_fail STATUS MESSAGE CMD...: CMD exits STATUS, prints nothing on
# stdout and exactly MESSAGE on stderr.
expect_fail() {
	want_rc=$1 want_err=$2
	shift 2
	rc=0
	"$@" >"$WORK/f.out" 2>"$WORK/f.err" </dev/null || rc=$?
	[ "$rc" = "$want_rc" ] || fail "$*: exit $rc, expected $want_rc ($(cat "$WORK/f.err"))"
	[ "$(cat "$WORK/f.err")" = "$want_err" ] ||
		fail "$*: stderr [$(cat "$WORK/f.err")], expected [$want_err]"
	[ ! -s "$WORK/f.out" ] || fail "$*: stdout [$(cat "$WORK/f.out")]"
}
