# test-lib.sh - shared by tpgen's shell tests; sourced, not run.
#
# SPDX-License-Identifier: GPL-2.0-only
#
# On top of tests/lib/common.sh (WORK, TPGEN, skip...); the Makefile
# also exports CC, CXX and PACKAGE_VERSION.  Unlike the other folders'
# fail, this one counts a failure and the test goes on: `finish` ends it.

set -u

: "${top_srcdir:=${srcdir:-.}/../..}" "${top_builddir:=../..}"
. "$top_srcdir/tests/lib/common.sh"

: "${CC:=cc}"
: "${CXX:=c++}"
UST_INCLUDE=$top_srcdir/include
srcdir=$top_srcdir/tests/tpgen

failures=0

# fail MESSAGE...: report one failure; the test goes on.
fail() {
	echo "FAIL: $*"
	failures=$((failures + 1))
}

pass() {
	echo "ok: $*"
}

# finish: exit status of the test (automake: 0 pass, 1 fail).
finish() {
	if [ "$failures" -ne 0 ]; then
		echo "$failures failure(s)"
		exit 1
	fi
	exit 0
}

# entries DIR: every name in DIR, hidden ones included, one per line.
entries() {
	ls -A "$1"
}
