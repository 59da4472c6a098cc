#!/bin/sh
# A full disk stops the writing cleanly, with a message; the program runs
# on, and what was written stays a readable trace of whole packets.
. "$top_srcdir/tests/integration/lib.sh"

mount_tmpfs "$WORK/disk" 96k

status=0
"$UST" record -o "$WORK/disk" --subbuf-size 64k --subbuf-count 4 -- \
	"$STRESS" -t 1 -n 400000 -r 2000 >"$WORK/out" 2>"$WORK/err" || status=$?
# CMD succeeded, its tracing did not: exit status 1 (doc/ust-record.md).
[ $status -eq 1 ] || fail "exit status $status: $(cat "$WORK/err")"
grep -q "attempted=400000" "$WORK/out" || fail "program did not finish"
grep -q "No space left on device" "$WORK/err" ||
	fail "no disk-full message: $(cat "$WORK/err")"
# Whole packets only: babeltrace2 reads what was written, with no error.
babeltrace2 "$WORK/disk" >/dev/null 2>"$WORK/bt" ||
	fail "trace unreadable after a full disk: $(cat "$WORK/bt")"
