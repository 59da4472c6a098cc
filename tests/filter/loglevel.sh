#!/bin/sh
# loglevel.sh - --loglevel (this level and more severe) and
# --loglevel-only, alone and with --filter, and the same options written
# by hand in UST_TRACE.  fa's levels: ints TRACE_INFO (6), floats
# TRACE_WARNING (4), text TRACE_ERR (3), enums TRACE_DEBUG (14), the
# others none (counted as TRACE_DEBUG_LINE, 13, as in LTTng).
. "$top_srcdir/tests/filter/lib.sh"

all="0 1 2 3 4 5 6 7 8 9"
events="ints floats text enums arrays seqs structs variants"

# only DIR EVENTS...: the listed fa: events all recorded, the others none.
only() {
	dir=$1
	shift
	for ev in $events; do
		want=
		for keep in "$@"; do
			[ "$keep" != "$ev" ] || want=$all
		done
		same_numbers "$dir" "fa:$ev" "$want"
	done
}

ctx="--loglevel TRACE_WARNING"
record "$WORK/t1" -e 'fa:*' --loglevel TRACE_WARNING -- "$FLTAPP" once
only "$WORK/t1" floats text

ctx="--loglevel-only TRACE_INFO"
record "$WORK/t2" -e 'fa:*' --loglevel-only TRACE_INFO -- "$FLTAPP" once
only "$WORK/t2" ints

ctx="--loglevel 13: events without a level are in"
record "$WORK/t3" -e 'fa:*' --loglevel 13 -- "$FLTAPP" once
only "$WORK/t3" ints floats text arrays seqs structs variants

ctx="--loglevel TRACE_DEBUG: everything"
record "$WORK/t4" -e 'fa:*' --loglevel TRACE_DEBUG -- "$FLTAPP" once
only "$WORK/t4" $events

# Two -e: a level for one, a filter for the other; an event either selects
# is recorded (LTTng's enablers: one with no filter keeps all).
ctx="--loglevel TRACE_ERR and a filter"
record "$WORK/t5" -e 'fa:*' --loglevel TRACE_ERR -e fa:ints --filter 'n < 3' \
	-e fa:floats --filter 'n > 7' -e fa:floats -- "$FLTAPP" once
same_numbers "$WORK/t5" fa:text "$all"
same_numbers "$WORK/t5" fa:ints "0 1 2"
same_numbers "$WORK/t5" fa:floats "$all"
same_numbers "$WORK/t5" fa:enums ""
same_numbers "$WORK/t5" fa:seqs ""

# A filter on an -e with a level: only events of that level are filtered in.
ctx="--loglevel-only with --filter"
record "$WORK/t6" -e 'fa:*' --loglevel-only TRACE_WARNING --filter 'n == 4' \
	-- "$FLTAPP" once
same_numbers "$WORK/t6" fa:floats 4
same_numbers "$WORK/t6" fa:ints ""
same_numbers "$WORK/t6" fa:text ""

# UST_TRACE by hand, without ust record.
ctx="UST_TRACE by hand"
mkdir "$WORK/hand"
UST_OUTPUT="$WORK/hand" UST_TRACE='fa:*;loglevel=TRACE_WARNING,-fa:text' \
	"$FLTAPP" once 2>"$WORK/hand.err" || fail "fltapp: $(cat "$WORK/hand.err")"
n=0
while [ -z "$(ls "$WORK/hand")" ] && [ $n -lt 100 ]; do sleep 0.05; n=$((n + 1)); done
sleep 0.5	# its consumer finishes after the program
only "$WORK/hand" floats

# A bad option makes its entry select nothing, with a warning.
ctx="bad options in UST_TRACE"
mkdir "$WORK/bad"
UST_OUTPUT="$WORK/bad" \
	UST_TRACE='fa:*;loglevel=LOUD,fa:ints;filter=AAAA,fa:floats;loglevel-only=4' \
	"$FLTAPP" once 2>"$WORK/bad.err" || fail "fltapp: $(cat "$WORK/bad.err")"
[ "$(cat "$WORK/bad.err")" = "ust: ignoring UST_TRACE='fa:*': unknown option or log level; it selects nothing
ust: ignoring UST_TRACE='fa:ints': its filter is not one ust record wrote; it selects nothing" ] ||
	fail "warnings: [$(cat "$WORK/bad.err")]"
n=0
while [ -z "$(ls "$WORK/bad")" ] && [ $n -lt 100 ]; do sleep 0.05; n=$((n + 1)); done
sleep 0.5
only "$WORK/bad" floats
echo ok
