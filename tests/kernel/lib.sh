# lib.sh - shared set-up of the kernel bridge tests (sourced).
# SPDX-License-Identifier: GPL-2.0-only
#
# Kernel tracing needs root: as another user every test SKIPs (77),
# except no-permission.sh, which needs root to become another user.
set -eu

: "${top_builddir:?run from make check}"
: "${top_srcdir:?run from make check}"
UST="$top_builddir/cli/ust"
KWORK="$top_builddir/tests/kernel/kworkload"
CHECK="${BT2_PYTHON:-/usr/bin/python3} $top_srcdir/tests/kernel/check_kernel.py"
export UST_CONSUMERD="$top_builddir/consumer/ust-consumerd"
export UST_KERNELD="$top_builddir/consumer/kernel/ust-kerneld"
unset UST_TRACE UST_OUTPUT UST_MODE UST_SUBBUF_SIZE UST_SUBBUF_COUNT UST_READ_TIMER_US
unset UST_TRACEFS

fail() { echo "FAIL: $*"; exit 1; }
skip() { echo "SKIP: $*"; exit 77; }

# A test with a part that runs as any user sets KERNEL_LIB_ANY_USER=1
# and checks root itself before its kernel part.
[ -n "${KERNEL_LIB_ANY_USER:-}" ] || [ "$(id -u)" = 0 ] || skip "kernel events need root"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/ust-ktest.XXXXXX")
# A tracefs mounted under $WORK (mount.sh) is detached first: removing
# files under it would remove the ftrace instances of other sessions.
cleanup() {
	for m in $(awk -v w="$WORK/" 'index($2, w) == 1 { print $2 }' /proc/mounts); do
		umount -l "$m"
	done
	rm -rf "$WORK"
}
trap cleanup EXIT

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
