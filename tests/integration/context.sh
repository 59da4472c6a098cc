#!/bin/sh
# `ust record --context=none`: records carry no thread id.  babeltrace2
# and `ust view` read the same events with the same values, every
# stress:tick record is exactly 4 bytes smaller than with the default
# (--context=tid), and a bad value is refused.
. "$top_srcdir/tests/integration/lib.sh"
SIZES="$BT2_PYTHON $top_srcdir/tests/integration/record_sizes.py"
unset UST_CONTEXT

# record CONTEXT: 2 threads x 50 000 stress:tick (payload: uint32 thread,
# uint64 seq = 12 bytes), buffers large enough to lose nothing.
record() {
	"$UST" record --context="$1" -o "$WORK/$1" --subbuf-size 1M --subbuf-count 16 -- \
		"$STRESS" -t 2 -n 50000 >"$WORK/$1.out" 2>"$WORK/$1.err" ||
		fail "ust record --context=$1: $(cat "$WORK/$1.err")"
	grep -q "100000 events written, 0 lost" "$WORK/$1.err" ||
		fail "summary: $(cat "$WORK/$1.err")"
	$CHECK "$WORK/$1" --traces 1 --complete 2 50000 >/dev/null ||
		fail "--context=$1: trace incomplete"
}

# sizes CONTEXT CONTEXT_BYTES RECORD_BYTES
sizes() {
	$SIZES "$WORK/$1" "$2" 12 >"$WORK/$1.sizes" || fail "$(cat "$WORK/$1.sizes")"
	grep -q "^records=100000 .* bytes_per_compact_record=$3\$" "$WORK/$1.sizes" ||
		fail "--context=$1: $(cat "$WORK/$1.sizes")"
}

record none
record tid
sizes none 0 16
sizes tid 4 20

# The stream class has no event context: no vtid anywhere.
grep -q "_vtid" "$WORK"/none/*/metadata && fail "--context=none: metadata declares _vtid"
grep -q "_vtid" "$WORK"/tid/*/metadata || fail "--context=tid: metadata lacks _vtid"

# babeltrace2 and `ust view` agree, line for line.
babeltrace2 "$WORK/none" >"$WORK/bt.txt" 2>"$WORK/bt.err" || fail "babeltrace2: $(cat "$WORK/bt.err")"
[ ! -s "$WORK/bt.err" ] || fail "babeltrace2 warned: $(head -n 3 "$WORK/bt.err")"
"$UST" view "$WORK/none" >"$WORK/view.txt" 2>"$WORK/view.err" || fail "ust view: $(cat "$WORK/view.err")"
[ "$(wc -l <"$WORK/bt.txt")" -eq 100000 ] || fail "babeltrace2 read $(wc -l <"$WORK/bt.txt") events"
cmp -s "$WORK/bt.txt" "$WORK/view.txt" ||
	fail "babeltrace2 and ust view differ: $(diff "$WORK/bt.txt" "$WORK/view.txt" | head -n 4)"
grep -q 'stress:tick: { cpu_id = [0-9]* }, { thread = 1, seq = 49999 }$' "$WORK/bt.txt" ||
	fail "no context-less last event of thread 1: $(tail -n 1 "$WORK/bt.txt")"

# Bad values: ust record refuses; libust warns and keeps the default.
"$UST" record --context=pid -o "$WORK/bad" -- true >"$WORK/bad.out" 2>"$WORK/bad.err" &&
	fail "--context=pid accepted"
[ "$(cat "$WORK/bad.err")" = "ust record: invalid --context 'pid': unknown context 'pid' (contexts: vtid (or tid), vpid, procname, ip, pthread_id, or none)" ] ||
	fail "--context=pid: $(cat "$WORK/bad.err")"
UST_CONTEXT=pid "$UST" record -o "$WORK/env" -- "$STRESS" -n 10 >/dev/null 2>"$WORK/env.err" ||
	fail "UST_CONTEXT=pid: $(cat "$WORK/env.err")"
grep -qxF "ust: ignoring UST_CONTEXT='pid': unknown context 'pid'" "$WORK/env.err" ||
	fail "UST_CONTEXT=pid: $(cat "$WORK/env.err")"
grep -q "_vtid" "$WORK"/env/*/metadata || fail "UST_CONTEXT=pid: not the tid default"
exit 0
