# lib.sh - shared set-up of the storm tests (sourced), on top of
# tests/lib/common.sh (WORK, fail, skip, UST, record_env...).
# SPDX-License-Identifier: GPL-2.0-only
set -eu
. "$top_srcdir/tests/lib/common.sh"

STORM="$top_builddir/tests/storm/storm"
CHECK="$BT2_PYTHON $top_srcdir/tests/storm/storm_check.py"
record_env
: "${STORM_RUNS:=5}" "${STORM_HOSTILE_RUNS:=10}" "${STORM_SCALE:=1}"
# The seed of every random choice; printed, and in every failure, so a
# failure can be replayed with STORM_SEED=N.
: "${STORM_SEED:=$(date +%s)}"
FAIL_SUFFIX=" (STORM_SEED=$STORM_SEED)"

# random I LO HI: the I-th random integer in [LO, HI] of this seed.
random() {
	awk -v seed="$STORM_SEED" -v i="$1" -v lo="$2" -v hi="$3" \
		'BEGIN { srand(seed + 7919 * i); print lo + int(rand() * (hi - lo + 1)) }'
}

# The value of KEY=N in the program's summary line.
field() { tr " " "\n" <"$2" | sed -n "s/^$1=//p" | head -n 1; }
