#!/bin/sh
# An output directory that cannot be created or written: a clear message,
# a non-zero exit, and the reason in the summary.
. "$srcdir/lib.sh"

: >"$WORK/file"
run_fake -s basic -o "$WORK/file/traces" -k "$CLOCK" -n 10
[ "$STATUS" = 1 ] || fail "consumer exited $STATUS under a file"
grep -q "^ust-consumerd: cannot use output directory '$WORK/file/traces': Not a directory$" "$WORK/err" ||
	fail "message: $(cat "$WORK/err")"
grep -q "^error=cannot use output directory '$WORK/file/traces': Not a directory$" "$WORK/sum/$CHILD.summary" ||
	fail "summary: $(cat "$WORK/sum/$CHILD.summary")"

mkdir "$WORK/ro"
if [ "$(id -u)" = 0 ]; then
	mount -t tmpfs -o ro,size=64k tmpfs "$WORK/ro" 2>/dev/null ||
		{ echo "cannot mount a read-only tmpfs: that case is not tested"; exit 0; }
	on_exit 'umount "$WORK/ro" 2>/dev/null'
	reason="Read-only file system"
else
	chmod 555 "$WORK/ro"
	reason="Permission denied"
fi
run_fake -s basic -o "$WORK/ro" -k "$CLOCK" -n 10
[ "$STATUS" = 1 ] || fail "consumer exited $STATUS on a read-only directory"
grep -q "^ust-consumerd: cannot create a trace directory in '$WORK/ro': $reason$" "$WORK/err" ||
	fail "message: $(cat "$WORK/err")"
echo "ok"
