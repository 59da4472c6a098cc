# test-lib.sh - shared by tpgen's shell tests; sourced, not run.
#
# SPDX-License-Identifier: GPL-2.0-only
#
# The Makefile exports TPGEN (absolute path of the tool), CC, CXX,
# UST_INCLUDE (the public headers) and srcdir.  Each test gets a scratch
# directory in the build tree, removed when it ends.

set -u

: "${srcdir:=.}"
: "${TPGEN:=../../tpgen/tpgen}"
: "${CC:=cc}"
: "${CXX:=c++}"
: "${UST_INCLUDE:=$srcdir/../../include}"

# srcdir and TPGEN absolute, since tests change directory.
srcdir=$(cd "$srcdir" && pwd)
case $TPGEN in /*) ;; *) TPGEN=$(pwd)/$TPGEN ;; esac

test_name=$(basename "$0" .sh)
scratch=$(mktemp -d "./$test_name.tmp.XXXXXX") || exit 99
scratch=$(cd "$scratch" && pwd)
trap 'rm -rf "$scratch"' EXIT

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
