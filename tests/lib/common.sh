# common.sh - what every shell test of ust shares (sourced, POSIX sh).
# SPDX-License-Identifier: GPL-2.0-only
#
# Each folder's lib.sh sets its shell options, sources this file first
# and keeps only what is its own.  `make check` exports top_builddir and
# top_srcdir (tests/lib/common.am); they are made absolute here, since
# tests change directory.
#
#   fail MESSAGE         "FAIL: MESSAGE" on stderr, exit 1; FAIL_PREFIX and
#                        FAIL_SUFFIX (empty by default) frame the message
#   skip REASON          "SKIP: REASON" on stderr, exit 77 (automake's skip)
#   WORK                 a private temporary directory, removed at exit
#   on_exit COMMAND      run COMMAND at exit, before WORK is removed; the
#                        last added runs first; never replace the trap
#   need_cmd NAME...     skip unless every NAME is a command
#   need_root [REASON]   skip unless running as root
#   need_babeltrace2     skip unless babeltrace2 is installed
#   need_bt2             skip unless $BT2_PYTHON can import bt2
#   wait_for SECONDS MESSAGE COMMAND...
#                        run COMMAND every 10 ms until it succeeds; after
#                        SECONDS, fail with MESSAGE
#   mount_tmpfs DIR SIZE a tmpfs of SIZE at DIR, unmounted at exit (skip
#                        when not root or when mounting is refused)
#   UST, TPGEN, CONSUMERD, KERNELD   the programs of the build tree
#   BT2_PYTHON           the python3 that has bt2 (/usr/bin/python3)
#   record_env           the environment of the tests that trace: this
#                        tree's consumer, none of the caller's UST_* settings
#   field KEY FILE       the value of the first KEY=VALUE word of FILE
#                        ("attempted=5 b1_ms=3")
#   consumer_of PID [NOT]
#                        the ust-consumerd serving process PID, other than NOT
#   stage DIR FILE...    copies of programs of the build tree, and libust,
#                        that another user can run (below)
#   use_default_location PREFIX
#                        DEF=/tmp/ltt-usertrace and MINE=$DEF/<uid>, for a
#                        test that traces there: at exit, the trace named by
#                        $t (when it is MINE/PREFIX*) and the folders the
#                        test created are removed; existed and mine_existed
#                        say which were there before

: "${top_builddir:?run from make check}"
: "${top_srcdir:?run from make check}"
top_builddir=$(cd "$top_builddir" && pwd)
top_srcdir=$(cd "$top_srcdir" && pwd)

UST=$top_builddir/cli/ust
TPGEN=$top_builddir/tpgen/tpgen
CONSUMERD=$top_builddir/consumer/ust-consumerd
KERNELD=$top_builddir/consumer/kernel/ust-kerneld
: "${BT2_PYTHON:=/usr/bin/python3}"

fail() {
	printf '%sFAIL: %s%s\n' "${FAIL_PREFIX:-}" "$*" "${FAIL_SUFFIX:-}" >&2
	exit 1
}

skip() {
	echo "SKIP: $*" >&2
	exit 77
}

# The commands run at exit, last added first, separated by newlines.
ust_at_exit=

on_exit() {
	ust_at_exit="$1${ust_at_exit:+
$ust_at_exit}"
}

# The EXIT trap: each on_exit command (one failing does not stop the
# others), then WORK, made writable first (tests make read-only
# directories in it).  The test's exit status is kept.
ust_exit() {
	ust_status=$?
	set +eu
	eval "$ust_at_exit"
	chmod -R u+rwx "$WORK" 2>/dev/null
	rm -rf "$WORK"
	exit $ust_status
}

WORK=$(mktemp -d "${TMPDIR:-/tmp}/ust-test-$(basename "$0" .sh).XXXXXX") ||
	exit 99
trap ust_exit EXIT

# $1 quoted for the shell, so that it can be part of an on_exit command.
shell_quote() {
	printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"
}

need_cmd() {
	for ust_cmd in "$@"; do
		command -v "$ust_cmd" >/dev/null || skip "'$ust_cmd' is not installed"
	done
}

need_root() {
	[ "$(id -u)" = 0 ] || skip "${1:-needs root}"
}

need_babeltrace2() {
	command -v "${BABELTRACE2:-babeltrace2}" >/dev/null ||
		skip "babeltrace2 is not installed"
}

need_bt2() {
	"$BT2_PYTHON" -c 'import bt2' 2>/dev/null ||
		skip "$BT2_PYTHON cannot import bt2 (python3-bt2)"
}

wait_for() {
	ust_polls=$(($1 * 100))
	ust_msg=$2
	shift 2
	until "$@"; do
		ust_polls=$((ust_polls - 1))
		[ "$ust_polls" -gt 0 ] || fail "$ust_msg"
		sleep 0.01
	done
}

mount_tmpfs() {
	need_root "needs root to mount a small tmpfs"
	mkdir "$1"
	mount -t tmpfs -o size="$2" tmpfs "$1" 2>/dev/null ||
		skip "cannot mount a tmpfs here"
	on_exit "umount $(shell_quote "$1") 2>/dev/null"
}

record_env() {
	export UST_CONSUMERD="$CONSUMERD"
	unset UST_TRACE UST_OUTPUT UST_MODE UST_SUBBUF_SIZE UST_SUBBUF_COUNT \
		UST_READ_TIMER_US UST_RATE_LIMIT UST_BUFFERS UST_FUNCTIONS \
		UST_FUNC_TIME_FILTER UST_FUNC_DEPTH UST_FUNC_FILTER UST_FUNC_EXCLUDE
}

field() { tr " " "\n" <"$2" | sed -n "s/^$1=//p" | head -n 1; }

# By its --pid, pgrep being fast enough to kill it in time; NOT is one
# just killed, still listed as it dies.
consumer_of() {
	ust_c=$(pgrep -a -x ust-consumerd | awk -v p="$1" -v not="${2:-}" '{
		for (i = 2; i < NF; i++)
			if ($i == "--pid" && $(i + 1) == p && $1 != not) { print $1; exit }
	}')
	[ -n "$ust_c" ] && echo "$ust_c"
}

# Tests that become nobody or a user made for the test run copies: a
# build tree inside a private (0700) directory, say a clone in `mktemp
# -d`, is out of that user's reach, the programs and libust (found
# through a RUNPATH into the build tree) alike.  stage copies each FILE
# (an ELF program of the build tree) to DIR/bin/ and libust to DIR/lib/,
# readable by everybody; DIR is meant to be in WORK, which the test makes
# searchable (chmod 0755).  The copies run with LD_LIBRARY_PATH=DIR/lib,
# which comes before their RUNPATH.
stage() {
	ust_dir=$1
	shift
	mkdir -p "$ust_dir/bin" "$ust_dir/lib" || return 1
	cp "$@" "$ust_dir/bin/" || return 1
	cp -L "$top_builddir/libust/.libs/libust.so.0" "$ust_dir/lib/" || return 1
	chmod -R a+rX "$ust_dir"
}

use_default_location() {
	DEF=/tmp/ltt-usertrace
	MINE=$DEF/$(id -u)
	ust_prefix=$1
	t=
	existed=0 mine_existed=0
	[ -e "$DEF" ] && existed=1
	[ -e "$MINE" ] && mine_existed=1
	on_exit ust_remove_default_location
}

ust_remove_default_location() {
	case "$t" in "$MINE/$ust_prefix"*) rm -rf "$t" ;; esac
	[ $mine_existed = 1 ] || rmdir "$MINE" 2>/dev/null || true
	[ $existed = 1 ] || rmdir "$DEF" 2>/dev/null || true
}

# A program driven through FIFOs under `ust record` (tests/filter's
# fltapp, tests/control's ctlapp): it writes "pid N" then one answer per
# command to $WORK/answer, and reads its commands from $WORK/cmd.
# driven_start NAME ARGS...: `ust record -o $WORK/trace ARGS` (ARGS end
# with the program and its arguments), fds 3 (commands) and 4 (answers)
# open; sets record_pid and app_pid.
driven_start() {
	ust_app=$1
	shift
	mkfifo "$WORK/cmd" "$WORK/answer"
	"$UST" record -o "$WORK/trace" "$@" \
		<"$WORK/cmd" >"$WORK/record.out" 2>&1 &
	record_pid=$!
	exec 3>"$WORK/cmd" 4<"$WORK/answer"
	read -r ust_word app_pid <&4 || fail "$ust_app did not start: $(cat "$WORK/record.out")"
	[ "$ust_word" = pid ] || fail "$ust_app said [$ust_word $app_pid]"
}

# driven_do COMMAND...: send it to the driven program, wait until it
# answers ok.
driven_do() {
	echo "$*" >&3
	read -r ust_answer <&4 || ust_answer=
	[ "$ust_answer" = ok ] ||
		fail "$ust_app: '$*' answered [$ust_answer] ($(cat "$WORK/record.out"))"
}
