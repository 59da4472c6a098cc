#!/bin/sh
# storms.sh - the storm lane of `make check-extended`: tests/storm of this
# tree at full size (STORM_RUNS runs of each crash storm: the program, its
# consumer, both, a flight recorder; STORM_HOSTILE_RUNS hostile runs; the
# signal, churn, fork/exec and identity storms STORM_SCALE times longer
# than in `make check`).  The figures of each storm are printed; see
# doc/reliability.md.
#
# SPDX-License-Identifier: GPL-2.0-only
. "$(dirname "$0")/lib.sh"

dir=$abs_top_builddir/tests/storm
say "crash runs: $STORM_RUNS, hostile runs: $STORM_HOSTILE_RUNS, scale: $STORM_SCALE"
rm -f "$dir"/*.log "$dir"/*.trs
st=0
make -C "$dir" check STORM_RUNS="$STORM_RUNS" STORM_HOSTILE_RUNS="$STORM_HOSTILE_RUNS" \
	STORM_SCALE="$STORM_SCALE" >"$dir/extended-check.log" 2>&1 || st=$?
for t in crash signal churn forkexec hostile consumer-kill both-kill flight-crash identity; do
	grep -h -E '^(crash storm|signal storm|thread churn|fork/exec storm|hostile storm|consumer crash storm|double crash storm|flight crash storm|identity storm): |^FAIL' \
		"$dir/$t.log" 2>/dev/null | tail -n 1 | sed "s/^/$LANE: /"
done
[ $st = 0 ] || fail "storms failed (see $dir/test-suite.log)"
done_ok
