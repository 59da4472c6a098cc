#!/bin/sh
# babeltrace2 reads the kernel trace alone and merged with the user
# trace, without a warning; both share the clock block and the kernel
# trace says domain = "kernel".
. "$top_srcdir/tests/kernel/lib.sh"

record_kernel 200 --kernel	# 200 ms: alive when the bridge reads its exec (maps)
grep -q 'ust record: kernel trace .*/kernel: [0-9]* events, 0 lost' "$WORK/err" ||
	fail "no kernel summary: $(cat "$WORK/err")"
for dir in "$WORK/t/kernel" "$WORK/t"; do
	babeltrace2 "$dir" >"$WORK/text" 2>"$WORK/bterr" ||
		fail "babeltrace2 $dir: $(cat "$WORK/bterr")"
	[ ! -s "$WORK/bterr" ] || fail "babeltrace2 $dir warns: $(cat "$WORK/bterr")"
	[ -s "$WORK/text" ] || fail "babeltrace2 $dir: no events"
done
$CHECK "$WORK/t" --layout
$CHECK "$WORK/t" --statedump "$TID"
