#!/bin/sh
# Per-thread buffers, read back: 4 threads x 20 000 records, one stream
# file per thread named after it, the thread id in every packet, each
# record's payload tid equal to its packet's; `ust view` prints exactly
# what babeltrace2 prints, and reads the packet's tid as the records'
# (ust view --tid).
. "$top_srcdir/tests/threads/lib.sh"

UST_BUFFERS=per-thread "$UST" record -o "$WORK/t" -- "$APP" -t 4 -n 20000 -s \
	>"$WORK/out" 2>"$WORK/err" || fail "ust record: $(cat "$WORK/err")"
grep -q "80000 events written, 0 lost" "$WORK/err" || fail "summary: $(cat "$WORK/err")"
$CHECK "$WORK/t" --traces 1 --complete 4 20000 --streams 4
trace=$(ls -d "$WORK"/t/*)
# The metadata declares the thread's id in the packet context, no vtid in records.
grep -q 'packet.context := struct packet_context_thread;' "$trace/metadata" ||
	fail "no per-thread packet context in the metadata"
grep -q '_vtid' "$trace/metadata" && fail "records carry a _vtid by default"
same_as_babeltrace "$trace"
# ust view --tid keeps one thread's records: 20000 of the 80000.
tid=$(ls "$trace" | sed -n 's/^ust_tid\([0-9]*\)$/\1/p' | head -n 1)
n=$("$UST" view --tid "$tid" "$trace" | wc -l)
[ "$n" = 20000 ] || fail "ust view --tid $tid: $n records, want 20000"
# Records are 4 (header) + 12 (payload) bytes, or + the string: no context.
# A record after a pause of 2^27 ns or more (a thread descheduled on a
# loaded machine, or slowed by a sanitizer) has the 13-byte extended
# header instead (ctf/format.h): 9 bytes more.  Packets: 84-byte headers.
ticks=$((4 * 20000 * 7 / 8))
texts=$((4 * 20000 / 8))
bytes=$(cat "$trace"/ust_tid* | wc -c)
packets=$("$BT2_PYTHON" - "$trace"/ust_tid* <<'PY'
import struct, sys
n = 0
for path in sys.argv[1:]:
    data = open(path, "rb").read()
    off = 0
    while off < len(data):
        size = struct.unpack_from("<Q", data, off + 68)[0] // 8  # packet_size, bits
        if size < 84:
            sys.exit("%s: packet of %d bytes at %d" % (path, size, off))
        off += size
        n += 1
print(n)
PY
) || fail "stream files: $packets"
extra=$((bytes - packets * 84 - ticks * 16 - texts * 31))
[ "$extra" -ge 0 ] && [ $((extra % 9)) = 0 ] ||
	fail "stream bytes $bytes are not $packets packets of 16-byte ticks and 31-byte texts (and extended headers)"
echo "$packets packets, $((extra / 9)) extended headers"
echo ok
