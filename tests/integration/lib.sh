# lib.sh - shared set-up of the integration tests (sourced), on top of
# tests/lib/common.sh (WORK, fail, skip, UST, record_env...).
# SPDX-License-Identifier: GPL-2.0-only
set -eu
. "$top_srcdir/tests/lib/common.sh"

STRESS="$top_builddir/tests/integration/stress"
CHECK="$BT2_PYTHON $top_srcdir/tests/integration/check_trace.py"
record_env

# The value of KEY=N in a "attempted=N handler=M" line.
field() { sed -n "s/.*$1=\([0-9]*\).*/\1/p" "$2" | head -n 1; }
