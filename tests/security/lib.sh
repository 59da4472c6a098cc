# lib.sh - the security tests: real programs run as unprivileged users,
# each test in a private /tmp (sourced, POSIX sh), on top of
# tests/lib/common.sh (WORK, fail, skip, need_*, stage...).  The scenario
# itself runs where the build tree may be hidden: it has its own few
# helpers (scenario.sh).
# SPDX-License-Identifier: GPL-2.0-only
#
# The default output location (/tmp/ltt-usertrace) is one path shared by
# the whole machine, so each test runs its scenario in a mount namespace
# of its own whose /tmp is a fresh tmpfs (mode 1777, as /tmp): what the
# scenario plants there or creates is seen by nobody else and vanishes
# with it.  The programs it runs (ust, ust-consumerd, faultapp, libust)
# are copied to /tmp/stage in that tmpfs, readable by everybody: the
# build tree may sit in a private (0700) directory, or under the /tmp
# that the new one hides.  Two users are created for the test (useradd)
# and removed at exit.  Without root, unshare, setpriv or useradd, the
# tests SKIP with the reason.
set -eu
. "$top_srcdir/tests/lib/common.sh"

need_root "needs root (to create users and a private /tmp)"
need_cmd unshare setpriv useradd userdel
unshare -m true 2>/dev/null || skip "cannot create a mount namespace here"
[ -x "$top_builddir/tests/faults/faultapp" ] ||
	skip "tests/faults/faultapp is not built (make -C tests/faults faultapp)"

USER_A=ust$$a
USER_B=ust$$b
remove_users() {
	userdel "$USER_A" 2>/dev/null || true
	userdel "$USER_B" 2>/dev/null || true
}
on_exit remove_users
for u in "$USER_A" "$USER_B"; do
	useradd --system --no-create-home --shell /bin/sh "$u" ||
		skip "useradd $u failed"
done

# The programs the scenario runs, libust and the helpers, in $WORK/stage.
stage "$WORK/stage" "$UST" "$CONSUMERD" "$top_builddir/tests/faults/faultapp" ||
	fail "cannot copy the programs"
cp "$top_srcdir/tests/security/scenario.sh" "$WORK/stage/"

# run_scenario: the test's stdin, a shell script, run as root after
# scenario.sh (the helpers) in a mount namespace whose /tmp is a new
# tmpfs holding the stage (/tmp/stage), 5 minutes at most.  Its exit
# status is returned.
run_scenario() {
	cat >"$WORK/stage/test.sh"
	chmod -R a+rX "$WORK/stage"
	mkdir "$WORK/newtmp"
	timeout 300 unshare -m sh -c '
		set -e
		mount --make-rprivate /
		mount -t tmpfs -o mode=1777,size=64m ust-test-tmp "$1/newtmp"
		cp -a "$1/stage" "$1/newtmp/stage"
		mount --move "$1/newtmp" /tmp
		cd /
		exec env USER_A="$2" USER_B="$3" \
			sh -c ". /tmp/stage/scenario.sh && . /tmp/stage/test.sh"
	' sh "$WORK" "$USER_A" "$USER_B"
}
