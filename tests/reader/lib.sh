# lib.sh - shared set-up of the reader tests (sourced).
# SPDX-License-Identifier: GPL-2.0-only
set -eu

: "${top_builddir:?run from make check}"
: "${top_srcdir:?run from make check}"
top_builddir=$(cd "$top_builddir" && pwd)	# the tests cd elsewhere
top_srcdir=$(cd "$top_srcdir" && pwd)
UST="$top_builddir/cli/ust"
STRESS="$top_builddir/tests/integration/stress"
export UST_CONSUMERD="$top_builddir/consumer/ust-consumerd"
unset UST_TRACE UST_OUTPUT UST_MODE UST_SUBBUF_SIZE UST_SUBBUF_COUNT UST_READ_TIMER_US

WORK=$(mktemp -d "${TMPDIR:-/tmp}/ust-reader-test.XXXXXX")
cleanup() { rm -rf "$WORK"; }
trap cleanup EXIT

fail() { echo "FAIL: $*"; exit 1; }
skip() { echo "SKIP: $*"; exit 77; }

# record NAME [record options] -- stress options
record() {
	name=$1
	shift
	"$UST" record -o "$WORK/$name" "$@" >"$WORK/$name.rec" 2>&1 ||
		fail "ust record $*: $(cat "$WORK/$name.rec")"
}
