# lib.sh - shared set-up of the integration tests (sourced).
# SPDX-License-Identifier: GPL-2.0-only
set -eu

: "${top_builddir:?run from make check}"
: "${top_srcdir:?run from make check}"
UST="$top_builddir/cli/ust"
STRESS="$top_builddir/tests/integration/stress"
CHECK="${BT2_PYTHON:-/usr/bin/python3} $top_srcdir/tests/integration/check_trace.py"
export UST_CONSUMERD="$top_builddir/consumer/ust-consumerd"
unset UST_TRACE UST_OUTPUT UST_MODE UST_SUBBUF_SIZE UST_SUBBUF_COUNT UST_READ_TIMER_US

WORK=$(mktemp -d "${TMPDIR:-/tmp}/ust-test.XXXXXX")
cleanup() { rm -rf "$WORK"; }
trap cleanup EXIT

fail() { echo "FAIL: $*"; exit 1; }
skip() { echo "SKIP: $*"; exit 77; }

# The value of KEY=N in a "attempted=N handler=M" line.
field() { sed -n "s/.*$1=\([0-9]*\).*/\1/p" "$2" | head -n 1; }
