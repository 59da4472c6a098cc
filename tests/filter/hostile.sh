#!/bin/sh
# hostile.sh - bad filters written straight into a running program's
# control area (fltpoke, as a buggy or hostile process could): programs
# with an unknown instruction, with sizes that do not add up, placed
# outside the pool, rules of no known operation, 40 randomly mutated
# programs, an absurd rule count.  libust copies and validates every
# program before running it: the program keeps running, an event whose
# filter has no valid program records nothing (and is counted), the
# others are unaffected, and `ust ctl` refuses to add to a full table.
. "$top_srcdir/tests/filter/lib.sh"

FLTPOKE="$top_builddir/tests/filter/fltpoke"

ctl() {
	out=$("$UST" ctl "$@" 2>"$WORK/ctl.err") ||
		fail "ust ctl $*: $(cat "$WORK/ctl.err")"
}
poke() {
	"$FLTPOKE" "$@" || fail "fltpoke $*"
}

start_app -e 'fa:*'
pid=$app_pid
emit 0					# everything
ctl "$pid" filter 'fa:ints' 'n % 2 == 0'
for ev in floats text; do
	ctl "$pid" filter "fa:$ev" 'n >= 0'
done
emit 100				# fa:ints even, the rest all

poke "$pid" badop 'fa:ints'		# unknown instruction: refused
poke "$pid" outside 'fa:floats'		# programs past the pool
poke "$pid" badheader 'fa:text'		# sizes that do not add up
poke "$pid" junkop 'fa:enums'		# an operation that does not exist: ignored
emit 200

ctl "$pid" filter 'fa:*' 'n % 10 == 5'
emit 300				# 305 of every event

poke "$pid" mutate 'fa:*' 40 7		# the rule's first program (fa:arrays'), mutated
emit 400
poke "$pid" huge			# 2^32 - 1 rules claimed: 128 read
emit 500
expect_fail 1 "ust ctl: process $pid: too many filter commands (128); restart it with ust record --filter" \
	"$UST" ctl "$pid" filter 'fa:ints' 'n > 0'
emit 600				# still as at 400
stop_app

ctx=hostile
trace=$(ls -d "$WORK"/trace/fltapp-*)
all() { seq_from "$1" 0 1 2 3 4 5 6 7 8 9; }
for ev in ints floats text enums seqs structs variants; do
	case $ev in
	ints) want="$(all 0) $(seq_from 100 0 2 4 6 8)" ;;
	*) want="$(all 0) $(all 100)" ;;
	esac
	case $ev in
	ints|floats|text) ;;
	*) want="$want $(all 200)" ;;
	esac
	same_numbers "$trace" "fa:$ev" "$want 305"
done
# fa:arrays ran whichever mutated programs validated: only its own records.
for reader in babeltrace2 view; do
	got=$(numbers "$reader" "$trace" fa:arrays)
	case " $got " in
	" $(all 0) $(all 100) $(all 200) 305 "*) ;;
	*) fail "fa:arrays by $reader: [$got]" ;;
	esac
	for n in $got; do
		[ "$n" -lt 1000 ] || fail "fa:arrays record $n"
	done
done
for ev in ints floats text; do
	grep -qx "ust record:     not recorded: 40 events of fa:$ev under a filter with no program for its fields" \
		"$WORK/record.out" || fail "fa:$ev: [$(cat "$WORK/record.out")]"
done
for ev in enums seqs structs variants; do
	grep -qx "ust record:     not recorded: 30 events of fa:$ev under a filter with no program for its fields" \
		"$WORK/record.out" || fail "fa:$ev: [$(cat "$WORK/record.out")]"
done
echo ok
