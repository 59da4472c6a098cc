#!/bin/sh
# bench/reader.sh - reading speed: `ust view` and `ust report` against
# babeltrace2, on one trace of N events (default 10,000,000).
# SPDX-License-Identifier: GPL-2.0-only
#
#   bench/reader.sh [--events N] [--reps R] [BUILD_DIR]
#
# BUILD_DIR is a configured and built tree (default: ../_build next to
# this directory).  The script builds tests/integration/stress there,
# records N stress:tick events from 2 threads with `ust record` (1 MiB
# sub-buffers, 64 of them: nothing lost, checked), then times, R times
# each (default 3), alternating the programs in each repetition:
#
#   ust view DIR > /dev/null      babeltrace2 DIR > /dev/null
#   ust report DIR > /dev/null
#
# and prints the medians of the elapsed and of the CPU (user + system)
# seconds, events per second, and babeltrace2 / ust.  CPU time is the
# steadier figure on a shared machine; elapsed time is what a user
# waits.  The trace is written in a temporary directory, removed at the
# end; nothing is written into the source tree.
set -eu

EVENTS=10000000
REPS=3
while [ $# -gt 0 ]; do
	case $1 in
	--events) EVENTS=$2; shift 2 ;;
	--reps) REPS=$2; shift 2 ;;
	-h|--help) sed -n '2,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) break ;;
	esac
done
HERE=$(cd "$(dirname "$0")" && pwd)
BUILD=$(cd "${1:-$HERE/../_build}" && pwd)
UST="$BUILD/cli/ust"
STRESS="$BUILD/tests/integration/stress"
export UST_CONSUMERD="$BUILD/consumer/ust-consumerd"
command -v babeltrace2 >/dev/null || { echo "bench/reader.sh: babeltrace2 not installed" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "bench/reader.sh: /usr/bin/time missing (apt-get install time)" >&2; exit 1; }
make -C "$BUILD/tests/integration" stress >/dev/null

WORK=$(mktemp -d "${TMPDIR:-/tmp}/ust-bench-reader.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
"$UST" record -o "$WORK/t" --blocking --subbuf-size 1M --subbuf-count 64 -- \
	"$STRESS" -t 2 -n $((EVENTS / 2)) >/dev/null 2>"$WORK/rec"
grep -q "^ust record: 1 trace, $EVENTS events written, 0 lost" "$WORK/rec" ||
	{ echo "bench/reader.sh: the recording lost events: $(cat "$WORK/rec")" >&2; exit 1; }
SIZE=$(du -sm "$WORK/t" | cut -f1)

# run NAME CMD...: one timed run, "elapsed cpu" appended to $WORK/NAME
run() {
	name=$1
	shift
	/usr/bin/time -f "%e %U %S" -o "$WORK/time" "$@" >/dev/null 2>"$WORK/err" ||
		{ echo "bench/reader.sh: $*: $(cat "$WORK/err")" >&2; exit 1; }
	awk '{printf "%s %.2f\n", $1, $2 + $3}' "$WORK/time" >>"$WORK/$name"
}

i=0
while [ $i -lt "$REPS" ]; do
	run view "$UST" view "$WORK/t"
	run bt2 babeltrace2 "$WORK/t"
	run report "$UST" report "$WORK/t"
	i=$((i + 1))
done

# median COLUMN FILE
median() { cut -d' ' -f"$1" "$2" | sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
rate() { awk -v n="$EVENTS" -v s="$1" 'BEGIN {printf("%.1f", (s > 0) ? n / s / 1e6 : 0)}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf("%.1f", (b > 0) ? a / b : 0)}'; }

echo "reader speed: $EVENTS events, $SIZE MiB, medians of $REPS runs"
printf '%-28s %10s %10s %14s %14s\n' "" "elapsed s" "CPU s" "Mevents/s el." "Mevents/s CPU"
for n in view bt2 report; do
	e=$(median 1 "$WORK/$n")
	c=$(median 2 "$WORK/$n")
	case $n in
	view) label="ust view > /dev/null" ;;
	bt2) label="babeltrace2 > /dev/null" ;;
	report) label="ust report > /dev/null" ;;
	esac
	printf '%-28s %10s %10s %14s %14s\n' "$label" "$e" "$c" "$(rate "$e")" "$(rate "$c")"
done
echo "babeltrace2 / ust view: $(ratio "$(median 1 "$WORK/bt2")" "$(median 1 "$WORK/view")")x elapsed," \
	"$(ratio "$(median 2 "$WORK/bt2")" "$(median 2 "$WORK/view")")x CPU"
