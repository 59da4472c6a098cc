#!/bin/sh
# The disk fills up: one message, the stream file is cut back to whole
# packets, the consumer keeps releasing sub-buffers (the writer never
# blocks for good), and what is on disk is a readable prefix, closed by
# an empty packet that counts the records of the packets not written
# (consumer/reserve.c): written + lost = committed, for babeltrace2 too.
. "$srcdir/lib.sh"

mount_tmpfs "$WORK/disk" 256k
# Leave about 60 KiB free.
dd if=/dev/zero of="$WORK/disk/fill" bs=1k count=196 2>/dev/null || true
mkdir "$WORK/disk/out"

run_fake -s fulldisk -o "$WORK/disk/out" -k "$CLOCK" -n 60000
[ "$STATUS" = 0 ] || fail "consumer exited $STATUS: $(cat "$WORK/err")"
grep -q "^ust-consumerd: .*/ust_0: No space left on device; trace writing stopped$" "$WORK/err" ||
	fail "no disk-full message: $(cat "$WORK/err")"
[ "$(wc -l <"$WORK/err")" = 1 ] || fail "more than one message: $(cat "$WORK/err")"
t=$(trace_dir "$WORK/disk/out")
lost=$(summary lost)
[ "$lost" = "$(summary unwritten)" ] || fail "lost $lost, unwritten $(summary unwritten)"
[ $(($(summary events) + lost)) = "$(wc -l <"$WORK/expect")" ] ||
	fail "$(summary events) written + $lost lost != $(wc -l <"$WORK/expect") committed"
$CHECK "$t" "$WORK/expect" --prefix --closing --files "ust_0" \
	--allow "Tracer discarded [0-9]* (events|packets)" --discarded "$lost" || exit 1
grep -q '^error=.*/ust_0: No space left on device$' "$WORK/sum/$CHILD.summary" ||
	fail "summary: $(cat "$WORK/sum/$CHILD.summary")"
unwritten=$(summary packets_unwritten)
[ "$unwritten" -gt 10 ] || fail "only $unwritten packets unwritten"

# A disk already full: not even the metadata fits.  The consumer gives
# up at once and leaves no half-made trace directory behind.
dd if=/dev/zero of="$WORK/disk/fill2" bs=1k 2>/dev/null || true
mkdir -p "$WORK/disk/out2" 2>/dev/null || skip "no inode left for the second part"
run_fake -s basic -o "$WORK/disk/out2" -k "$CLOCK" -n 10
[ "$STATUS" = 1 ] || fail "consumer exited $STATUS on a full disk"
grep -q "/metadata: No space left on device; trace writing stopped$" "$WORK/err" ||
	fail "message: $(cat "$WORK/err")"
[ -z "$(ls -A "$WORK/disk/out2")" ] || fail "left behind: $(ls -A "$WORK/disk/out2")"
grep -q '^error=.*/metadata: No space left on device$' "$WORK/sum/$CHILD.summary" ||
	fail "summary: $(cat "$WORK/sum/$CHILD.summary")"
echo "ok"
