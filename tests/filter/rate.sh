#!/bin/sh
# rate.sh - --rate-limit PATTERN=N/s: at most N records a second per event
# type and thread.  Three threads emit 500 fa:ints and 500 fa:floats in
# two rounds 1.1 s apart; fa:ints is limited to 50/s.  Each thread keeps
# 50 to 100 fa:ints a round (100 when its burst crosses a second), every
# fa:float, and the rest is counted: records kept + counted = emitted, in
# the summary of ust record and in ust report, for both readers.
. "$top_srcdir/tests/filter/lib.sh"

record "$WORK/t" -e 'fa:*' --rate-limit 'fa:ints=50/s' -- "$FLTAPP" threads 3 500 2
for reader in babeltrace2 view; do
	ints=$(numbers "$reader" "$WORK/t" fa:ints)
	floats=$(numbers "$reader" "$WORK/t" fa:floats)
	[ "$(echo $floats | wc -w)" = 3000 ] || fail "$reader: $(echo $floats | wc -w) fa:floats, expected 3000"
	kept=$(echo $ints | wc -w)
	for t in 1 2 3; do
		for r in 0 1; do
			n=$(echo $ints | tr ' ' '\n' | awk -v lo=$((t * 1000000 + r * 1000)) \
				'$1 >= lo && $1 < lo + 1000' | wc -l)
			[ "$n" -ge 50 ] && [ "$n" -le 100 ] ||
				fail "$reader: thread $t round $r kept $n fa:ints, expected 50 to 100"
		done
	done
	limited=$((3000 - kept))
	printf '%s\n' "$rec" | grep -qx "ust record:     not recorded: $limited events of fa:ints over its rate limit" ||
		fail "summary: [$rec], expected $limited over the limit"
	printf '%s\n' "$rec" | grep -q "^ust record:   .*(.* events, 0 lost, $limited rate-limited)$" ||
		fail "summary line: [$rec]"
done
report=$("$UST" report "$WORK/t" 2>&1) || fail "ust report: $report"
printf '%s\n' "$report" | grep -q "^not recorded: $limited events of fa:ints over its rate limit (" ||
	fail "ust report: [$report]"
echo "ok: $kept of 3000 fa:ints kept"
