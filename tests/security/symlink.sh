#!/bin/sh
# A link planted where traces go does not redirect anybody's traces
# (issue 21, item 1).  User A makes /tmp/ltt-usertrace a link to a
# directory of root's (as it could to /etc); root and user B then record
# with the default location however it is spelled (nothing, -o with a
# trailing slash, UST_OUTPUT with a double slash), and through libust
# alone: nothing lands in the link's target; the traces go to the
# fallback /tmp/ltt-usertrace-<uid>, and the reason is said.  A path
# through the link, or into another user's directory in /tmp, is
# refused before anything runs.  As the real users, in a private /tmp.
. "$top_srcdir/tests/security/lib.sh"

run_scenario <<'EOS'
mkdir -m 0755 /tmp/victim
as "$USER_A" ln -s /tmp/victim $DEF
[ "$rc" = 0 ] || fail "user A cannot plant the link: $err"
link_msg="'$DEF' is a symbolic link in the world-writable directory '/tmp'; links there are not followed"
for who in root "$USER_B"; do
	u=$(uid_of "$who")
	for how in none slash double; do
		case $how in
		none) record_as "$who" ;;
		slash) record_as "$who" -o $DEF/ ;;
		double) as "$who" env UST_OUTPUT=/tmp//ltt-usertrace "$UST" record -- "$APP" -n 10 ;;
		esac
		expect_recorded "$DEF-$u"
		expect_line "ust record: cannot use $DEF/$u ($link_msg); traces go to $DEF-$u"
		empty /tmp/victim
	done
	echo "ok: $who, default location: not followed"

	# Through the link to a named directory: refused, CMD not run.
	as "$who" "$UST" record -o $DEF/sub -- touch /tmp/ran
	[ "$rc" = 1 ] || fail "-o $DEF/sub: exit status $rc: $err"
	[ "$err" = "ust record: cannot write to output directory '$DEF/sub': $link_msg" ] ||
		fail "-o $DEF/sub: $err"
	[ ! -e /tmp/ran ] || fail "CMD ran"
	empty /tmp/victim

	# libust alone: the consumer falls back the same way, and says so.
	as "$who" env UST_TRACE='*' "$APP" -n 10
	[ "$rc" = 0 ] || fail "faultapp: $err"
	wait_err_line "ust-consumerd: cannot use $DEF/$u ($link_msg); traces go to $DEF-$u"
	empty /tmp/victim
	echo "ok: $who, -o through the link refused, libust alone not followed"
done

# Another user's directory in /tmp is refused, even when we could write it.
as "$USER_A" mkdir -m 0777 /tmp/shared
as root "$UST" record -o /tmp/shared/traces -- touch /tmp/ran
[ "$rc" = 1 ] || fail "-o /tmp/shared/traces: exit status $rc: $err"
[ "$err" = "ust record: cannot write to output directory '/tmp/shared/traces': '/tmp/shared' belongs to uid $(uid_of "$USER_A"), not to us or root, in the world-writable directory '/tmp'" ] ||
	fail "-o /tmp/shared/traces: $err"
[ ! -e /tmp/ran ] && [ ! -e /tmp/shared/traces ] || fail "CMD ran, or the directory was made"
echo "ok: another user's directory refused"

# ".." is walked, not resolved by realpath first: still refused.
as root "$UST" record -o /tmp/victim/../ltt-usertrace/x -- touch /tmp/ran
[ "$rc" = 1 ] || fail "..: exit status $rc: $err"
empty /tmp/victim
echo "ok: .. does not get around the check"
EOS
