# lib.sh - shared set-up of the fault tests (sourced), on top of
# tests/lib/common.sh (WORK, fail, skip, UST, record_env, field,
# consumer_of...).
# SPDX-License-Identifier: GPL-2.0-only
set -eu
. "$top_srcdir/tests/lib/common.sh"

APP="$top_builddir/tests/faults/faultapp"
CHECK="$BT2_PYTHON $top_srcdir/tests/integration/check_trace.py"
record_env
unset UST_SESSION_CLOCK UST_SUMMARY_DIR

# wait_for_line FILE TEXT: until a line of FILE is TEXT (60 s at most).
has_line() { grep -qx "$2" "$1" 2>/dev/null; }
wait_for_line() {
	wait_for 60 "no line '$2' in $1 after 60 s" has_line "$1" "$2"
}

# summary_counts FILE: $written and $lost from ust record's totals line
# in FILE (one trace).
summary_counts() {
	ust_line=$(grep '^ust record: 1 trace, ' "$1") || fail "no summary line in $1: $(cat "$1")"
	written=$(echo "$ust_line" | sed -n 's/^ust record: 1 trace, \([0-9]*\) events written, .*/\1/p')
	lost=$(echo "$ust_line" | sed -n 's/^ust record: 1 trace, [0-9]* events written, \([0-9]*\) lost.*/\1/p')
}
