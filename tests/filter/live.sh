#!/bin/sh
# live.sh - `ust ctl PID filter PATTERN EXPR` and `unfilter PATTERN` on a
# running program: each change is in force when the command returns, the
# program never restarts; `ust list PID` shows the filters; a bad
# expression changes nothing; a fork child starts with its parent's
# filters.  Every phase's records, read back by babeltrace2 and ust view.
. "$top_srcdir/tests/filter/lib.sh"

# ctl ARGS...: `ust ctl ARGS` must succeed; its output in $out.
ctl() {
	out=$("$UST" ctl "$@" 2>"$WORK/ctl.err") ||
		fail "ust ctl $*: $(cat "$WORK/ctl.err")"
}

start_app -e 'fa:*'
pid=$app_pid
scalars="ints floats text enums"
compounds="arrays seqs structs variants"

emit 0					# everything

ctl "$pid" filter 'fa:ints' 'n % 2 == 0'
[ "$out" = "process $pid: filter 'n % 2 == 0' on 1 event matching 'fa:ints'" ] ||
	fail "filter: [$out]"
emit 100				# fa:ints even, the rest all

list=$("$UST" list "$pid") || fail "ust list $pid"
printf '%s\n' "$list" | grep -qx "  filter 'fa:ints' 'n % 2 == 0'" || fail "ust list: [$list]"

ctl "$pid" filter 'fa:*' 'n % 10 >= 5'
[ "$out" = "process $pid: filter 'n % 10 >= 5' on 8 events matching 'fa:*'" ] ||
	fail "filter fa:*: [$out]"
emit 200				# 205..209 of every event
app_fork_base=250
echo "fork $app_fork_base" >&3		# a fork child: the same filter
read -r answer <&4 && [ "$answer" = ok ] || fail "fork: [$answer]"

ctl "$pid" unfilter 'fa:text'
[ "$out" = "process $pid: no filter on 1 event matching 'fa:text'" ] || fail "unfilter: [$out]"
emit 300				# fa:text all, the others 305..309

expect_fail 2 "ust ctl: filter: column 1: unknown field 'cnt' in fa:ints; fields are n, i8, u8, i16, u16, i32, u32, i64, u64, be32, be64" \
	"$UST" ctl "$pid" filter 'fa:ints' 'cnt > 1'
expect_fail 2 "ust ctl: filter: column 5: expected a value, found the end of the expression" \
	"$UST" ctl "$pid" filter 'fa:*' 'n >='
expect_fail 1 "ust ctl: process $pid has no event matching 'zz:*' (see 'ust list $pid')" \
	"$UST" ctl "$pid" filter 'zz:*' 'n > 1'
emit 400				# unchanged: as 300

# A field only the compound events have: the scalar ones record nothing.
out=$("$UST" ctl "$pid" filter 'fa:*' 'tail == 3' 2>"$WORK/ctl.err") ||
	fail "ust ctl filter tail: $(cat "$WORK/ctl.err")"
for ev in $scalars; do
	grep -q "^ust ctl: note: filter does not apply to fa:$ev: column 1: unknown field 'tail'" "$WORK/ctl.err" ||
		fail "no note for fa:$ev: [$(cat "$WORK/ctl.err")]"
done
emit 500				# 503 of the compound events only

ctl "$pid" unfilter 'fa:*'
emit 600				# everything
stop_app

ctx=live
all() { seq_from "$1" 0 1 2 3 4 5 6 7 8 9; }
for ev in $scalars $compounds; do
	want="$(all 0)"
	if [ "$ev" = ints ]; then
		want="$want $(seq_from 100 0 2 4 6 8)"
	else
		want="$want $(all 100)"
	fi
	want="$want $(seq_from 200 5 6 7 8 9)"
	if [ "$ev" = text ]; then
		want="$want $(all 300) $(all 400)"
	else
		want="$want $(seq_from 300 5 6 7 8 9) $(seq_from 400 5 6 7 8 9)"
	fi
	case " $compounds " in *" $ev "*) want="$want 503" ;; esac
	want="$want $(all 600)"
	trace=$(ls -d "$WORK"/trace/fltapp-"$pid"-*)
	same_numbers "$trace" "fa:$ev" "$want"
done
# The fork child's own trace: its parent's filter then.
child=$(ls -d "$WORK"/trace/fltapp-* | grep -v "fltapp-$pid-")
for ev in $scalars $compounds; do
	same_numbers "$child" "fa:$ev" "$(seq_from 250 5 6 7 8 9)"
done
grep -qx "ust record:     not recorded: 10 events of fa:ints under a filter with no program for its fields" \
	"$WORK/record.out" || fail "summary: [$(cat "$WORK/record.out")]"
echo ok
