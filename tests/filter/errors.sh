#!/bin/sh
# errors.sh - bad filter expressions and options of ust record: one exact
# line each, exit status 2, and nothing started (fltapp would create
# FLTAPP_MARKER, the output directory would hold a trace).
. "$top_srcdir/tests/filter/lib.sh"

export FLTAPP_MARKER="$WORK/started"
out="$WORK/out"

# refused MESSAGE ARGS...: `ust record -o $out ARGS -- fltapp once`.
refused() {
	msg=$1
	shift
	expect_fail 2 "$msg" "$UST" record -o "$out" "$@" -- "$FLTAPP" once
	[ ! -e "$FLTAPP_MARKER" ] || fail "fltapp ran for: $*"
	[ -z "$(ls -A "$out" 2>/dev/null)" ] || fail "$out not empty after: $*"
}

fields="n, i8, u8, i16, u16, i32, u32, i64, u64, be32, be64"
refused "ust record: --filter: column 1: unknown field 'cnt' in fa:ints; fields are $fields" \
	-e fa:ints --filter 'cnt > 10'
refused "ust record: --filter: column 14: unknown field 'cnt' in fa:text; fields are n, count, text, after, other" \
	-e fa:text --filter 'count > 1 && cnt < 2'
refused "ust record: --filter: column 4: expected a value, found the end of the expression" \
	-e fa:ints --filter 'n >'
refused "ust record: --filter: column 10: expected a value, found the end of the expression" \
	-e fa:ints --filter '(n > 1 ||'
refused "ust record: --filter: column 7: expected ')' to close the '(' of column 1, found the end of the expression" \
	-e fa:ints --filter '(n > 1'
refused "ust record: --filter: column 6: '<' cannot compare strings: only == and != do" \
	-e fa:text --filter 'text < "a"'
refused "ust record: --filter: column 3: '==' cannot compare an integer with a string" \
	-e fa:ints --filter 'n == "1"'
refused "ust record: --filter: column 6: unknown label 'RUNNING' of enum field 's' in fa:enums; labels are IDLE, BUSY, BLOCKED, DEAD" \
	-e fa:enums --filter 's == "RUNNING"'
refused "ust record: --filter: column 4: index 6 is out of the bounds of 'mac' (6 elements)" \
	-e fa:arrays --filter 'mac[6] == 1'
refused "ust record: --filter: column 7: unknown option 'FOO' of variant 'value' in fa:variants; options are NUM, TEXT, PAIR" \
	-e fa:variants --filter 'value.FOO == 1'
refused "ust record: --filter: column 10: unsupported escape '\\n' in a string (\\* is a star, \\\\ a backslash)" \
	-e fa:text --filter 'text == "\n"'
refused "ust record: --filter: column 1: the filter is a string, not a condition: compare it (as name == \"abc*\")" \
	-e fa:text --filter 'text'
refused "ust record: --filter: column 1: unknown context field '\$ctx.pid'; ust has \$ctx.cpu_id, \$ctx.procname, \$ctx.vpid, \$ctx.vtid" \
	-e fa:ints --filter '$ctx.pid == 1'
refused "ust record: --filter: empty expression" -e fa:ints --filter ''
# No event of the pattern applies: the first one's error.
refused "ust record: --filter: column 1: unknown field 'nope' in fa:arrays; fields are n, mac, matrix, names, tail" \
	-e 'fa:*' --filter 'nope == 1'
refused "ust record: --filter: no event matching 'zz:*' in '$FLTAPP' or the libraries it loads (filters are compiled for the events ust can see there)" \
	-e 'zz:*' --filter 'n > 1'
# The command line around --filter.
refused "ust record: --filter applies to the -e PATTERN before it, and there is none" \
	--filter 'n > 1' -e fa:ints
refused "ust record: --filter cannot apply to '-e -fa:ints', which excludes events" \
	-e -fa:ints --filter 'n > 1'
refused "ust record: --filter given twice for '-e fa:ints' (combine them with && or ||)" \
	-e fa:ints --filter 'n > 1' --filter 'n < 5'
refused "ust record: invalid --loglevel 'TRACE_LOUD': a level is TRACE_EMERG ... TRACE_DEBUG, or 0 to 14" \
	-e fa:ints --loglevel TRACE_LOUD
refused "ust record: invalid --loglevel-only '15': a level is TRACE_EMERG ... TRACE_DEBUG, or 0 to 14" \
	-e fa:ints --loglevel-only 15
refused "ust record: --loglevel: '-e fa:ints' has a log level already" \
	-e fa:ints --loglevel-only TRACE_INFO --loglevel TRACE_ERR
refused "ust record: --loglevel applies to the -e PATTERN before it, and there is none" \
	--loglevel TRACE_ERR
refused "ust record: invalid --rate-limit 'fa:ints': must be PATTERN=N/s" \
	--rate-limit fa:ints
refused "ust record: invalid --rate-limit 'fa:ints=0/s': N must be from 1 to 4294967295 records a second" \
	--rate-limit 'fa:ints=0/s'
refused "ust record: invalid --rate-limit 'fa:ints=10/m': N must be from 1 to 4294967295 records a second" \
	--rate-limit 'fa:ints=10/m'
refused "ust record: invalid --event 'a;b': one pattern per -e, without ',' or ';'" \
	-e 'a;b'

# A filter that applies to some events of its pattern only: a note for
# the others (they record nothing, and are counted), the run goes on.
record "$WORK/t" -e 'fa:*' --filter 'tail == 3' -- "$FLTAPP" once
for ev in ints floats text enums; do
	printf '%s\n' "$rec" | grep -qx "ust record: note: --filter does not apply to fa:$ev: column 1: unknown field 'tail' in fa:$ev; fields are .* (its events will not be recorded)" ||
		fail "no note for fa:$ev: [$rec]"
done
printf '%s\n' "$rec" | grep -qx "ust record:     not recorded: 10 events of fa:ints under a filter with no program for its fields" ||
	fail "fa:ints not counted: [$rec]"
ctx="-e 'fa:*' --filter 'tail == 3'"
for ev in arrays seqs structs variants; do
	same_numbers "$WORK/t" "fa:$ev" 3
done
same_numbers "$WORK/t" fa:ints ""
echo ok
