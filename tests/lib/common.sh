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
