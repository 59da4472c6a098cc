#!/bin/sh
# The default output directory, /tmp/ltt-usertrace, is shared like /tmp:
# created with mode 1777 (when it does not exist yet), the trace
# directory inside it 0700.  Only our own trace directory is removed.
. "$srcdir/lib.sh"

DEF=/tmp/ltt-usertrace
existed=0
[ -e "$DEF" ] && existed=1
run_fake -s basic -o "$DEF" -k "$CLOCK" -n 100
t=$(sed -n 's/^dir=//p' "$WORK/sum/$CHILD.summary")
# Remove our trace, and the default directory if we created it.
remove_default_output() {
	case "$t" in "$DEF"/fakeapp-*) rm -rf "$t" ;; esac
	[ $existed = 1 ] || rmdir "$DEF" 2>/dev/null || true
}
on_exit remove_default_output
[ "$STATUS" = 0 ] || fail "consumer exited $STATUS: $(cat "$WORK/err")"
no_consumer_errors
case "$t" in "$DEF"/fakeapp-$CHILD-*) ;; *) fail "trace directory '$t'" ;; esac
[ "$(stat -c %a "$t")" = 700 ] || fail "trace directory mode $(stat -c %a "$t")"
$CHECK "$t" "$WORK/expect" --all || exit 1
if [ $existed = 0 ]; then
	[ "$(stat -c %a "$DEF")" = 1777 ] || fail "$DEF mode $(stat -c %a "$DEF")"
else
	echo "$DEF existed: its creation mode is not tested"
fi
echo "ok"
