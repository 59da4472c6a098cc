#!/bin/sh
# The default output directory, /tmp/ltt-usertrace, is shared like /tmp:
# created with mode 1777 (when it does not exist yet), and each user
# writes in a folder of its own inside, /tmp/ltt-usertrace/<uid> (0700);
# the trace directory in it is 0700 too.  Only what this test created is
# removed.  (tests/security/ tests the hostile cases, as other users.)
. "$srcdir/lib.sh"

use_default_location fakeapp-
run_fake -s basic -o "$DEF" -k "$CLOCK" -n 100
t=$(sed -n 's/^dir=//p' "$WORK/sum/$CHILD.summary")
[ "$STATUS" = 0 ] || fail "consumer exited $STATUS: $(cat "$WORK/err")"
no_consumer_errors
case "$t" in "$MINE"/fakeapp-$CHILD-*) ;; *) fail "trace directory '$t'" ;; esac
[ "$(stat -c %a "$t")" = 700 ] || fail "trace directory mode $(stat -c %a "$t")"
$CHECK "$t" "$WORK/expect" --all || exit 1
if [ $existed = 0 ]; then
	[ "$(stat -c %a "$DEF")" = 1777 ] || fail "$DEF mode $(stat -c %a "$DEF")"
else
	echo "$DEF existed: its creation mode is not tested"
fi
if [ $mine_existed = 0 ]; then
	[ "$(stat -c %a "$MINE")" = 700 ] || fail "$MINE mode $(stat -c %a "$MINE")"
fi
echo "ok"
