#!/bin/sh
# --functions blocks rather than loses: with two 4 KiB sub-buffers per
# CPU (45800 events, ~900 KiB), every event still reaches the disk.
. "$top_srcdir/tests/functions/lib.sh"

"$UST" record --functions --subbuf-size 4k --subbuf-count 2 -o "$WORK/t" -- \
	"$CALLS" counts 20 1000 >/dev/null 2>"$WORK/rec.err" ||
	fail "ust record: $(cat "$WORK/rec.err")"
grep -q "events written, 0 lost" "$WORK/rec.err" || fail "lost: $(cat "$WORK/rec.err")"
"$FUNCS" "$(trace_dir "$WORK/t" calls)" >"$WORK/funcs" || fail "funcs: $(cat "$WORK/funcs")"
expect "$WORK/funcs" "fib 21891 21891"
expect "$WORK/funcs" "total entries=22893 exits=22893 unmatched=0 threads=1"
