# lib.sh - shared set-up of the storm tests (sourced).
# SPDX-License-Identifier: GPL-2.0-only
set -eu

: "${top_builddir:?run from make check}"
: "${top_srcdir:?run from make check}"
UST="$top_builddir/cli/ust"
STORM="$top_builddir/tests/storm/storm"
CHECK="${BT2_PYTHON:-/usr/bin/python3} $top_srcdir/tests/storm/storm_check.py"
export UST_CONSUMERD="$top_builddir/consumer/ust-consumerd"
unset UST_TRACE UST_OUTPUT UST_MODE UST_SUBBUF_SIZE UST_SUBBUF_COUNT UST_READ_TIMER_US
: "${STORM_RUNS:=5}" "${STORM_HOSTILE_RUNS:=10}" "${STORM_SCALE:=1}"
# The seed of every random choice; printed, so a failure can be replayed
# with STORM_SEED=N.
: "${STORM_SEED:=$(date +%s)}"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/ust-storm.XXXXXX")
cleanup() { rm -rf "$WORK"; }
trap cleanup EXIT

fail() { echo "FAIL: $* (STORM_SEED=$STORM_SEED)"; exit 1; }

# random I LO HI: the I-th random integer in [LO, HI] of this seed.
random() {
	awk -v seed="$STORM_SEED" -v i="$1" -v lo="$2" -v hi="$3" \
		'BEGIN { srand(seed + 7919 * i); print lo + int(rand() * (hi - lo + 1)) }'
}

# The value of KEY=N in the program's summary line.
field() { tr " " "\n" <"$2" | sed -n "s/^$1=//p" | head -n 1; }
