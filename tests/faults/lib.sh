# lib.sh - shared set-up of the fault tests (sourced).
# SPDX-License-Identifier: GPL-2.0-only
set -eu

: "${top_builddir:?run from make check}"
: "${top_srcdir:?run from make check}"
UST="$top_builddir/cli/ust"
APP="$top_builddir/tests/faults/faultapp"
export UST_CONSUMERD="$top_builddir/consumer/ust-consumerd"
unset UST_TRACE UST_OUTPUT UST_MODE UST_SUBBUF_SIZE UST_SUBBUF_COUNT UST_READ_TIMER_US
unset UST_SESSION_CLOCK UST_SUMMARY_DIR

WORK=$(mktemp -d "${TMPDIR:-/tmp}/ust-faults.XXXXXX")
cleanup() { rm -rf "$WORK"; }
trap cleanup EXIT

fail() { echo "FAIL: $*"; exit 1; }
skip() { echo "SKIP: $*"; exit 77; }

# The value of KEY=N in a line of FILE ("attempted=5 b1_ms=3").
field() { tr " " "\n" <"$2" | sed -n "s/^$1=//p" | head -n 1; }

# wait_for_line FILE TEXT: until a line of FILE is TEXT (60 s at most).
wait_for_line() {
	i=0
	until grep -qx "$2" "$1" 2>/dev/null; do
		i=$((i + 1))
		[ $i -lt 600 ] || fail "no line '$2' in $1 after 60 s: $(cat "$1")"
		sleep 0.1
	done
}

. "$top_srcdir/tests/procs.sh"
