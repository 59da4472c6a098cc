#!/bin/sh
# The quick path of per-thread buffers (libust/threadbuf.h) read back:
# 4-byte, 8-byte and empty payloads, and the records after a pause of
# 150 ms, whose time a compact header cannot hold (the extended header
# of ust__tb_quick_late()).  Every record there with its values, in
# order, time never going back and each pause seen in the timestamps;
# `ust view` prints what babeltrace2 prints.
. "$top_srcdir/tests/threads/lib.sh"

UST_BUFFERS=per-thread "$UST" record -o "$WORK/t" -- "$APP" -q -n 5000 \
	>"$WORK/out" 2>"$WORK/err" || fail "ust record: $(cat "$WORK/err")"
grep -q "attempted=15000" "$WORK/out" || fail "tbuf-app: $(cat "$WORK/out")"
grep -q "15000 events written, 0 lost" "$WORK/err" || fail "summary: $(cat "$WORK/err")"
trace=$(ls -d "$WORK"/t/*)
$BT2_PYTHON "$top_srcdir/tests/threads/check_quick.py" "$trace" 5000
same_as_babeltrace "$trace"
echo ok
