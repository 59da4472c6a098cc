#!/bin/sh
# Nobody can deny another user a place to trace (issue 21, item 2).  The
# default location gives each user a folder of its own,
# /tmp/ltt-usertrace/<uid> (0700), in /tmp/ltt-usertrace, which is
# trusted only when root or the user itself owns it (and it is sticky);
# else the user's traces go to /tmp/ltt-usertrace-<uid>, and when even
# that name was taken, to a fresh /tmp/ltt-usertrace-<uid>.XXXXXX.  A
# trace that cannot be written at all makes `ust record` fail with the
# reason, never exit 0.  As the real users, in a private /tmp.
. "$top_srcdir/tests/security/lib.sh"

run_scenario <<'EOS'
a=$(uid_of "$USER_A")
b=$(uid_of "$USER_B")

# 1. A records first: A creates the shared folder (1777) and its own.
record_as "$USER_A"
expect_recorded "$DEF/$a"
[ "$(stat -c '%a %U' $DEF)" = "1777 $USER_A" ] || fail "$DEF: $(stat -c '%a %U' $DEF)"
[ "$(stat -c '%a %U' $DEF/$a)" = "700 $USER_A" ] || fail "$DEF/$a: $(stat -c '%a %U' $DEF/$a)"
# B and root do not trust A's folder: their own fallback, exit 0.
for who in "$USER_B" root; do
	u=$(uid_of "$who")
	record_as "$who"
	expect_recorded "$DEF-$u"
	expect_line "ust record: cannot use $DEF/$u ('$DEF' belongs to uid $a, not to us or root, in the world-writable directory '/tmp'); traces go to $DEF-$u"
	[ "$(stat -c '%a %U' $DEF-$u)" = "700 $who" ] || fail "$DEF-$u: $(stat -c '%a %U' $DEF-$u)"
done
echo "ok: a folder of user A denies nobody"

# 2. Root's shared folder: every user in its own folder, private.
rm -rf $DEF $DEF-*
mkdir -m 1777 $DEF
for who in "$USER_A" "$USER_B" root; do
	u=$(uid_of "$who")
	record_as "$who"
	expect_recorded "$DEF/$u"
	[ -z "$(printf '%s\n' "$err" | grep 'cannot use')" ] || fail "fallback: $err"
	[ "$(stat -c '%a %U' $DEF/$u)" = "700 $who" ] || fail "$DEF/$u: $(stat -c '%a %U' $DEF/$u)"
done
as "$USER_B" ls $DEF/$a
[ "$rc" != 0 ] || fail "user B can list user A's traces: $out"
echo "ok: each user in its own folder"

# 3. A takes B's names first: B's folder in the shared one, and the
# fallback (a link, here).  B still records, in a name nobody could take.
rm -rf $DEF/$b
as "$USER_A" mkdir -m 0777 $DEF/$b
as "$USER_A" ln -s /tmp $DEF-$b
record_as "$USER_B"
[ "$rc" = 0 ] || fail "exit status $rc: $err"
dir=$(printf '%s\n' "$err" | sed -n "s|^ust record:   \\($DEF-$b\\.[A-Za-z0-9]\\{6\\}\\)/faultapp-.*(10 events, 0 lost)\$|\\1|p")
[ -n "$dir" ] || fail "no trace in a fresh $DEF-$b.XXXXXX: $err"
expect_line "ust record: cannot use $DEF/$b ('$DEF/$b' belongs to uid $a, not to us or root, in the world-writable directory '$DEF'); traces go to $dir"
[ "$(stat -c '%a %U' "$dir")" = "700 $USER_B" ] || fail "$dir: $(stat -c '%a %U' "$dir")"
echo "ok: squatted names deny nothing"

# 4. When the trace cannot be written after all (CMD takes the write
# right off its folder before its consumer starts), ust record says why
# and exits 1, not CMD's 0.
as "$USER_A" mkdir /tmp/out
as "$USER_A" "$UST" record -o /tmp/out -- sh -c 'chmod 0500 /tmp/out && exec "$0" -n 10' "$APP"
[ "$rc" = 1 ] || fail "exit status $rc, want 1: $err"
printf '%s\n' "$err" | grep -qx "ust record: error: process [0-9]*: cannot create a trace directory in '/tmp/out': Permission denied" ||
	fail "no error line: $err"
printf '%s\n' "$err" | grep -q "no trace was written" && fail "no reason given: $err"
echo "ok: a trace that cannot be written is a failure"
EOS
