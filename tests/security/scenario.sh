# scenario.sh - helpers of the security scenarios, sourced inside their
# mount namespace (lib.sh, run_scenario), where /tmp is private and
# /tmp/stage holds the programs.
# SPDX-License-Identifier: GPL-2.0-only
set -eu

S=/tmp/stage
UST=$S/bin/ust
APP=$S/bin/faultapp
export UST_CONSUMERD="$S/bin/ust-consumerd" LD_LIBRARY_PATH="$S/lib"
unset UST_TRACE UST_OUTPUT UST_MODE UST_SUBBUF_SIZE UST_SUBBUF_COUNT
unset UST_READ_TIMER_US UST_SESSION_CLOCK UST_SUMMARY_DIR
DEF=/tmp/ltt-usertrace

fail() { echo "FAIL: $*"; exit 1; }

uid_of() { id -u "$1"; }

# as WHO CMD...: run CMD as WHO (a user name, or root), stdin closed;
# its exit status in $rc, its stdout in $out and stderr in $err.
as() {
	who=$1
	shift
	if [ "$who" != root ]; then
		set -- setpriv --reuid="$who" --regid="$(id -g "$who")" --clear-groups -- "$@"
	fi
	rc=0
	"$@" >$S/out 2>$S/err </dev/null || rc=$?
	out=$(cat $S/out)
	err=$(cat $S/err)
}

# record_as WHO [ust record options]: `ust record ... -- faultapp -n 10`.
record_as() {
	who=$1
	shift
	as "$who" "$UST" record "$@" -- "$APP" -n 10
}

# expect_recorded IN: the last record_as wrote its 10 events in one
# trace under the directory IN, exit status 0.
expect_recorded() {
	[ "$rc" = 0 ] || fail "exit status $rc: $err"
	printf '%s\n' "$err" | grep -qx 'ust record: 1 trace, 10 events written, 0 lost, .*' ||
		fail "summary: $err"
	printf '%s\n' "$err" | grep -q "^ust record:   $1/faultapp-[0-9]*-[0-9-]*  (10 events, 0 lost)$" ||
		fail "trace not in $1: $err"
}

# expect_line TEXT: one line of the last run's stderr is TEXT.
expect_line() {
	printf '%s\n' "$err" | grep -qxF -- "$1" || fail "no line [$1] in [$err]"
}

# wait_err_line TEXT: until a line of the last run's stderr file is TEXT
# (a consumer started by libust alone writes there after CMD exited).
wait_err_line() {
	i=0
	until grep -qxF -- "$1" $S/err; do
		i=$((i + 1))
		[ $i -lt 100 ] || fail "no line [$1] in [$(cat $S/err)] after 10 s"
		sleep 0.1
	done
}

# empty DIR: nothing was written in DIR.
empty() {
	[ -z "$(ls -A "$1")" ] || fail "written in $1: $(ls -A "$1")"
}
