#!/usr/bin/env bash
# store.sh - what lttng-relayd stores from our client is the local trace:
# the session directory the protocol asks for, every stream file byte for
# byte, one index entry per packet that describes it, and babeltrace2 and
# `ust view` print the relay's copy exactly as the local trace (events,
# and the lost-event warnings of a trace that lost some).
# SPDX-License-Identifier: GPL-2.0-only
set -eu
. "$(dirname "$0")/lib.sh"

TZ=UTC start_relayd 127.0.0.1 "$WORK/relay"
CLEAN=$(record "$WORK/clean" -t 2 -n 20000 -s)
# 2 x 4 KiB sub-buffers and no --blocking: events are lost, and counted
LOSSY_DIR="$WORK/lossy"
"$UST" record -o "$LOSSY_DIR" --subbuf-size 4K --subbuf-count 2 -- "$STRESS" -t 2 -n 20000 \
	>/dev/null 2>"$WORK/lossy.err" || fail "ust record (lossy)"
LOSSY=$(ls -d "$LOSSY_DIR"/*/ | sed 's#/$##')
grep -q ' lost' "$WORK/lossy.err" || fail "the lossy recording lost nothing"

timeout 60 "$REPLAY" --url "net://127.0.0.1:$CTRL:$DATA" --session store \
	--hostname fleet-1 --time 1700000000 "$CLEAN" "$LOSSY" \
	>"$WORK/replay.out" 2>"$WORK/replay.err" || { cat "$WORK/replay.err"; fail "replay"; }
[ -s "$WORK/replay.err" ] && { cat "$WORK/replay.err"; fail "replay said something"; }

# The relay names the session HOST/NAME-DATE-TIME (creation time, UTC here).
out=$(value output_path "$WORK/replay.out")
[ "$out" = "fleet-1/store-20231114-221320" ] || fail "session directory '$out'"
[ "$(ls "$WORK/relay")" = "fleet-1" ] || fail "relay output: $(ls "$WORK/relay")"
[ "$(ls "$WORK/relay/fleet-1")" = "store-20231114-221320" ] || fail "sessions: $(ls "$WORK/relay/fleet-1")"

packets=0
for T in "$CLEAN" "$LOSSY"; do
	R="$WORK/relay/$out/$(basename "$T")"
	[ -d "$R" ] || fail "no $R"
	for f in "$T"/*; do
		cmp "$f" "$R/$(basename "$f")" || fail "$(basename "$T")/$(basename "$f") differs"
	done
	# nothing but the trace's files and the relay's index directory
	extra=$(cd "$R" && ls | grep -v -x -F "$(cd "$T" && ls)" | grep -v -x index || true)
	[ -z "$extra" ] || fail "unexpected files in $R: $extra"
	n=$(count_packets "$T"/ust_*)
	packets=$((packets + n))
	# one index entry per packet, saying where it is and what it holds
	"$PY" - "$T" "$R" <<'PY' || fail "index of $(basename "$T")"
import os, struct, sys
local, relay = sys.argv[1], sys.argv[2]
for name in sorted(os.listdir(local)):
    if name == "metadata":
        continue
    data = open(os.path.join(local, name), "rb").read()
    idx = open(os.path.join(relay, "index", name + ".idx"), "rb").read()
    magic, major, minor, entry = struct.unpack_from(">IIII", idx, 0)
    assert (magic, major, minor, entry) == (0xC1F1DCC1, 1, 1, 72), (magic, major, minor, entry)
    at, k = 0, 0
    while at < len(data):
        # ust packet header (little endian): see struct ust_packet_header
        sid, inst, tb, seq, cpu, te, content, size, disc = struct.unpack_from(
            "<IQQQIQQQQ", data, at + 20)
        e = struct.unpack_from(">9Q", idx, 16 + 72 * k)
        want = (at, size, content, tb, te, disc, sid, inst, seq)
        assert e == want, (name, k, e, want)
        at += size // 8
        k += 1
    assert 16 + 72 * k == len(idx), (name, k, len(idx))
PY
done
sent=$(sed -n 's/^sent=\([0-9]*\) .*/\1/p' "$WORK/replay.out")
[ "$sent" = "$packets" ] || fail "sent $sent packets, the traces hold $packets"
grep -qx "sent=$packets full=0 unsent=0 cut=0" "$WORK/replay.out" || fail "$(cat "$WORK/replay.out")"

# Readers see the same trace, event by event.
bt2_text "$CLEAN" "$LOSSY" >"$WORK/local.txt"
bt2_text "$WORK/relay/$out" >"$WORK/relay.txt"
grep -q "Tracer discarded" "$WORK/local.txt" || fail "no loss warning in the local text"
cmp "$WORK/local.txt" "$WORK/relay.txt" || {
	diff "$WORK/local.txt" "$WORK/relay.txt" | head
	fail "babeltrace2 prints the relay's trace differently"
}
events=$(grep -c '^\[' "$WORK/local.txt")
[ "$events" -gt 20000 ] || fail "only $events events"
"$UST" view "$CLEAN" "$LOSSY" >"$WORK/view-local.txt" 2>/dev/null
"$UST" view "$WORK/relay/$out" >"$WORK/view-relay.txt" 2>/dev/null
cmp "$WORK/view-local.txt" "$WORK/view-relay.txt" || fail "ust view prints the relay's trace differently"
[ "$(wc -l <"$WORK/view-relay.txt")" -eq "$events" ] || fail "ust view: $(wc -l <"$WORK/view-relay.txt") events, not $events"
echo "PASS: $packets packets, $events events stored by lttng-relayd as recorded"
