#!/bin/sh
# Root, tracefs not mounted where we look (UST_TRACEFS): ust record
# mounts it and records kernel events.
. "$top_srcdir/tests/kernel/lib.sh"

mkdir "$WORK/mnt"
on_exit 'umount "$WORK/mnt" 2>/dev/null'
export UST_TRACEFS="$WORK/mnt"
record_kernel 10 --kernel
grep -qx "ust record: mounted tracefs at $WORK/mnt" "$WORK/err" ||
	fail "no mount message: $(cat "$WORK/err")"
[ -z "$(stale_instances)" ] || fail "instance left: $(stale_instances)"
$CHECK "$WORK/t" --between 10 10

# Two bridges finding tracefs missing at once: the one whose mount comes
# second is refused EBUSY, finds tracefs mounted and records all the same.
umount "$WORK/mnt"
rm -rf "$WORK/t"
# (Preloaded ahead of libasan in the ASan lane: its order check is off.)
saved_asan=${ASAN_OPTIONS-}
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
export LD_PRELOAD="$top_builddir/tests/kernel/.libs/mountrace.so"
record_kernel 10 --kernel
unset LD_PRELOAD
ASAN_OPTIONS=$saved_asan
grep -q "cannot mount" "$WORK/err" && fail "lost the mount race: $(cat "$WORK/err")"
[ -z "$(stale_instances)" ] || fail "instance left: $(stale_instances)"
$CHECK "$WORK/t" --between 10 10
