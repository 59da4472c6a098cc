#!/bin/sh
# Without permission (another user; or no tracefs and not root) ust
# record says exactly what is missing and how to allow it, and still
# records the user-space trace; its exit status is CMD's.
. "$top_srcdir/tests/kernel/lib.sh"

need_cmd setpriv
chmod 0755 "$WORK"
mkdir "$WORK/t" "$WORK/empty"
chmod 1777 "$WORK/t"
# nobody runs copies: the build tree may be out of its reach (a clone in
# a private directory), libust with it.
stage "$WORK/stage" "$UST" "$KWORK" "$UST_CONSUMERD" "$UST_KERNELD" ||
	fail "cannot copy the programs for nobody"
UST=$WORK/stage/bin/ust
KWORK=$WORK/stage/bin/kworkload
export UST_CONSUMERD="$WORK/stage/bin/ust-consumerd" UST_KERNELD="$WORK/stage/bin/ust-kerneld"
as_nobody() {
	setpriv --reuid=nobody --regid=nogroup --clear-groups -- \
		env LD_LIBRARY_PATH="$WORK/stage/lib" "$@"
}
as_nobody test -x "$UST" || skip "nobody cannot run $UST (is $WORK reachable?)"

check_user_trace() {
	[ "$1" = 0 ] || fail "exit status $1: $(cat "$WORK/err")"
	grep -qx 'ust record: recording the user-space trace only' "$WORK/err" ||
		fail "no fallback line: $(cat "$WORK/err")"
	grep -q 'ust record: 1 trace, 40 events written, 0 lost' "$WORK/err" ||
		fail "no user-space trace: $(cat "$WORK/err")"
	[ ! -e "$WORK/t/kernel" ] || fail "a kernel trace without permission"
}

# 1. tracefs is there but root's only (perf_event_paranoid does not matter).
rc=0
as_nobody "$UST" record --kernel -o "$WORK/t" -- "$KWORK" 20 >/dev/null 2>"$WORK/err" || rc=$?
grep -qx "ust record: no kernel events: /sys/kernel/tracing/instances is not writable by uid 65534 (Permission denied); kernel tracing needs root (or CAP_DAC_OVERRIDE): run 'sudo ust record --kernel ...'" "$WORK/err" ||
	fail "message: $(cat "$WORK/err")"
check_user_trace $rc

# 2. No tracefs where we look, and not root: how to mount it.
rm -rf "$WORK/t"/*
rc=0
as_nobody env UST_TRACEFS="$WORK/empty" "$UST" record --kernel -o "$WORK/t" -- "$KWORK" 20 >/dev/null 2>"$WORK/err" || rc=$?
grep -qx "ust record: no kernel events: tracefs is not mounted at $WORK/empty; mount it as root ('mount -t tracefs nodev $WORK/empty') or run ust record as root, which mounts it" "$WORK/err" ||
	fail "message: $(cat "$WORK/err")"
check_user_trace $rc
