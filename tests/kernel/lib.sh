# lib.sh - shared set-up of the kernel bridge tests (sourced), on top of
# tests/lib/common.sh (WORK, fail, skip, UST, KERNELD, record_env...).
# SPDX-License-Identifier: GPL-2.0-only
#
# Kernel tracing needs root: as another user every test SKIPs (77),
# except no-permission.sh, which needs root to become another user.
set -eu
. "$top_srcdir/tests/lib/common.sh"

KWORK="$top_builddir/tests/kernel/kworkload"
CHECK="$BT2_PYTHON $top_srcdir/tests/kernel/check_kernel.py"
record_env
export UST_KERNELD="$KERNELD"
unset UST_TRACEFS

# A test with a part that runs as any user sets KERNEL_LIB_ANY_USER=1
# and checks root itself before its kernel part.
[ -n "${KERNEL_LIB_ANY_USER:-}" ] || need_root "kernel events need root"

# A tracefs mounted under $WORK (mount.sh) is detached before $WORK is
# removed: removing files under it would remove the ftrace instances of
# other sessions.
detach_mounts() {
	for m in $(awk -v w="$WORK/" 'index($2, w) == 1 { print $2 }' /proc/mounts); do
		umount -l "$m"
	done
}
on_exit detach_mounts

# ftrace instances of bridges (ust-<pid>) whose bridge is gone: each
# must remove its instance, whatever the other tests run meanwhile.
stale_instances() {
	for i in $(ls "${UST_TRACEFS:-/sys/kernel/tracing}/instances" 2>/dev/null | grep '^ust-[0-9]*$'); do
		[ -d "/proc/${i#ust-}" ] || echo "$i"
	done
}

# ust record --kernel [ARGS] -- kworkload N into $WORK/t; stderr in $WORK/err.
record_kernel() {
	n=$1
	shift
	"$UST" record -o "$WORK/t" "$@" -- "$KWORK" "$n" >"$WORK/out" 2>"$WORK/err" ||
		fail "ust record: $(cat "$WORK/err")"
	[ -f "$WORK/t/kernel/metadata" ] || fail "no kernel trace: $(cat "$WORK/err")"
	[ -z "$(stale_instances)" ] ||
		fail "ftrace instance left behind: $(stale_instances)"
	TID=$(sed -n 's/^tid=//p' "$WORK/out")
}

# view_as_babeltrace2 DIR: `ust view DIR` prints exactly what babeltrace2
# prints (into $WORK/ust.txt and $WORK/bt.txt, their stderr beside).
view_as_babeltrace2() {
	"$UST" view "$1" >"$WORK/ust.txt" 2>"$WORK/ust.err" ||
		fail "ust view $1: $(cat "$WORK/ust.err")"
	babeltrace2 "$1" >"$WORK/bt.txt" 2>"$WORK/bt.err" ||
		fail "babeltrace2 $1: $(cat "$WORK/bt.err")"
	cmp -s "$WORK/ust.txt" "$WORK/bt.txt" ||
		fail "ust view $1 differs from babeltrace2: $(diff "$WORK/ust.txt" "$WORK/bt.txt" | head -5)"
}
