#!/bin/sh
# samename.sh - a filter on a field that one of two same-named events
# lacks: dupapp links libdupa, whose dup:ev has x, and libdupb, whose
# dup:ev has y and s instead.  `--filter 'x > 5'` keeps libdupa's records
# with x > 5; libdupb's event has no x, so (as in LTTng) none of its
# records are kept: a note says so before the run, the summary counts
# them, and both readers agree on what the trace holds.  libdupa's event
# is small enough to go by value, through its own gated path.
. "$top_srcdir/tests/filter/lib.sh"

DUPAPP="$top_builddir/tests/filter/dupapp"

# payloads DIR WANT: the dup:ev payloads of the trace, ';'-terminated,
# are WANT for babeltrace2 and for ust view.
payloads() {
	for reader in babeltrace2 view; do
		case $reader in
		babeltrace2) out=$(babeltrace2 "$1") ;;
		view) out=$("$UST" view "$1") ;;
		esac || fail "$reader $1"
		got=$(printf '%s\n' "$out" | sed -n 's/.* dup:ev: .*{ \(.*\) }$/\1/p' | tr '\n' ';')
		[ "$got" = "$2" ] || fail "$reader $1: [$got], expected [$2]"
	done
}

record "$WORK/t" -e 'dup:ev' --filter 'x > 5' -- "$DUPAPP"
printf '%s\n' "$rec" | grep -qx "ust record: note: --filter does not apply to dup:ev: column 1: unknown field 'x' in dup:ev; fields are y, s (its events will not be recorded)" ||
	fail "no note: [$rec]"
printf '%s\n' "$rec" | grep -qx "ust record:     not recorded: 10 events of dup:ev under a filter with no program for its fields" ||
	fail "not counted: [$rec]"
payloads "$WORK/t" "x = 6;x = 7;x = 8;x = 9;"

# libdupa's payload (4 bytes) goes by value (ust_event_write_small): a
# filter the interpreter runs, and one ust__gate_pass() decides (a rate
# limit besides), select from it as from segments.
record "$WORK/t3" -e 'dup:ev' --filter 'x < 2 || x == 9' -- "$DUPAPP"
payloads "$WORK/t3" "x = 0;x = 1;x = 9;"
record "$WORK/t4" -e 'dup:ev' --filter 'x >= 7' --rate-limit 'dup:ev=1000/s' -- "$DUPAPP"
payloads "$WORK/t4" "x = 7;x = 8;x = 9;"

# The other way round: a field only libdupb's has.
record "$WORK/t2" -e 'dup:ev' --filter 's == "b" && y >= 80' -- "$DUPAPP"
payloads "$WORK/t2" 'y = 80, s = "b";y = 90, s = "b";'
echo ok
