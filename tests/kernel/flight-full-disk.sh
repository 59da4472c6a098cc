#!/bin/sh
# A flight-recorder snapshot whose kernel part does not fit on the disk:
# the kernel part leaves nothing behind, as a user snapshot does
# (tests/faults/snapshot-full-disk.sh), and the user part, complete,
# stays readable.  ust-kerneld writes the kernel part under a hidden name
# next to the user part, once that one has its name, and renames it when
# complete, removing it on failure.  Before, the truncated kernel part
# stayed, and babeltrace2 refused the whole output directory.  `ust
# snapshot -o` to a 64 KiB tmpfs, the user part (2 x 4 KiB buffers)
# about 30 KiB, the kernel part (measured by a first snapshot) several
# times the room left.
. "$top_srcdir/tests/kernel/lib.sh"

KIO="$top_builddir/tests/kernel/kio"
need_babeltrace2
mount_tmpfs "$WORK/small" 64k
mkdir "$WORK/big"
"$UST" record -o "$WORK/t" --flight-recorder --kernel --subbuf-size 4k --subbuf-count 2 -- \
	"$KIO" "$WORK/out.bin" 1000 1000 8000 >"$WORK/out" 2>"$WORK/err" &
rec=$!
kio_traced() {
	pid=$(pgrep -P "$rec" -x kio) && consumer_of "$pid" >/dev/null
}
wait_for 20 "kio is not traced: $(cat "$WORK/err")" kio_traced

"$UST" snapshot -o "$WORK/big" "$pid" >/dev/null 2>"$WORK/snap.err" ||
	fail "ust snapshot: $(cat "$WORK/snap.err")"
kernel_kib=$(du -sk "$WORK"/big/*-snapshot-1-manual-kernel | cut -f 1)
[ "$kernel_kib" -ge 96 ] || skip "a kernel part of $kernel_kib KiB only: it would fit"

rc=0
"$UST" snapshot -o "$WORK/small" "$pid" >"$WORK/snap.out" 2>"$WORK/snap.err" || rc=$?
wait $rec || fail "ust record: $(cat "$WORK/err")"
[ $rc = 0 ] || fail "ust snapshot: exit status $rc: $(cat "$WORK/snap.err")"
snap=$(ls -d "$WORK"/small/kio-*-snapshot-2-manual) || fail "no user part: $(ls -A "$WORK/small")"
[ "$(cat "$WORK/snap.out")" = "$snap" ] || fail "ust snapshot said: $(cat "$WORK/snap.out")"
# Nothing else, under any name.
[ "$(ls -A "$WORK/small")" = "$(basename "$snap")" ] || fail "left behind: $(ls -A "$WORK/small")"
grep -qx "ust-consumerd: kernel snapshot $snap-kernel: error $snap-kernel: No space left on device" \
	"$WORK/err" || fail "no kernel part message: $(cat "$WORK/err")"
grep -qx "ust record:     snapshot $snap" "$WORK/err" || fail "summary: $(cat "$WORK/err")"
! grep -qx "ust record:     snapshot $snap-kernel" "$WORK/err" ||
	fail "the summary lists the missing kernel part"
# The directory reads: the user part alone, every event of it.
babeltrace2 "$WORK/small" >"$WORK/bt" 2>"$WORK/bterr" || fail "babeltrace2: $(cat "$WORK/bterr")"
[ ! -s "$WORK/bterr" ] || fail "babeltrace2 warns: $(cat "$WORK/bterr")"
n=$(wc -l <"$WORK/bt")
[ "$n" -gt 0 ] && [ "$n" = "$("$UST" view "$snap" | wc -l)" ] || fail "$n events read"
echo "ok: kernel part of $kernel_kib KiB on a full disk: nothing left; user part of $n events read"
