#!/usr/bin/env bash
# record.sh - `ust record --relayd`: every traced process of one recording
# (here a program that forks: two processes, two consumers) streams into
# ONE relay session; the relay stores every event (each thread's sequence
# complete, nothing twice), babeltrace2 and `ust view` read it the same,
# nothing is written locally, and the summary says where it went.
# UST_OUTPUT=net://... does the same for a program started alone.
# SPDX-License-Identifier: GPL-2.0-only
set -eu
. "$(dirname "$0")/lib.sh"

start_relayd 127.0.0.1 "$WORK/relay"
URL="net://127.0.0.1:$CTRL:$DATA"
mkdir "$WORK/local"

"$UST" record -o "$WORK/local" --relayd "$URL" --session fleet --blocking --subbuf-size 8K -- \
	"$STRESS" -t 2 -n 30000 -s -f >"$WORK/rec.out" 2>"$WORK/rec.err" ||
	{ cat "$WORK/rec.err"; fail "ust record"; }
host=$(hostname | sed 's/[^A-Za-z0-9._-]/_/g')
grep -qx "ust record: streaming to lttng-relayd at $URL, session 'fleet' of host '$host'" "$WORK/rec.err" ||
	{ cat "$WORK/rec.err"; fail "no streaming line"; }
grep -qx "ust record: 2 traces, 120000 events written, 0 lost, .*" "$WORK/rec.err" ||
	{ cat "$WORK/rec.err"; fail "summary totals"; }
[ "$(grep -c "^ust record:   $host/fleet-[0-9-]*/stress-[0-9]*-[0-9-]*  (60000 events, 0 lost) on $URL\$" "$WORK/rec.err")" = 2 ] ||
	{ cat "$WORK/rec.err"; fail "summary trace lines"; }

# one session directory holding both processes' traces; nothing local
sessions=$(ls "$WORK/relay/$host")
[ "$(echo "$sessions" | wc -l)" = 1 ] || fail "sessions on the relay: $sessions"
S="$WORK/relay/$host/$sessions"
[ "$(ls "$S" | wc -l)" = 2 ] || fail "traces in the session: $(ls "$S")"
[ -z "$(ls "$WORK/local")" ] || fail "local files: $(ls -A "$WORK/local")"

# the env names the relay session as LTTng's does (doc/compatibility.md)
for m in "$S"/*/metadata; do
	grep -q 'trace_name = "fleet";' "$m" || fail "trace_name in $m"
done

bt2_text "$S" >"$WORK/stored.txt"
grep -q 'Tracer discarded' "$WORK/stored.txt" && fail "losses reported"
"$PY" - "$WORK/stored.txt" 2 2 30000 <<'PY' || fail "the stored events"
import re, sys
path, procs, threads, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
seen = {}
for line in open(path):
    m = re.search(r"\(([0-9]+)\) stress:\w+: .* thread = ([0-9]+), seq = ([0-9]+)", line)
    if m:
        key = (m.group(1), m.group(2))
        seen.setdefault(key, []).append(int(m.group(3)))
assert len(seen) == procs * threads, sorted(seen)
for key, seqs in seen.items():
    assert sorted(seqs) == list(range(n)), (key, len(seqs))
PY
"$BT2" --clock-gmt "$S" >"$WORK/bt2.txt" 2>/dev/null
"$UST" view --clock-gmt "$S" >"$WORK/view.txt"
cmp "$WORK/bt2.txt" "$WORK/view.txt" || fail "ust view and babeltrace2 differ on the relay's trace"

# UST_OUTPUT=net://... without ust record: a session of its own, "ust-DATE-TIME"
mkdir "$WORK/sum"
UST_TRACE='*' UST_OUTPUT="$URL" UST_SUMMARY_DIR="$WORK/sum" UST_RELAY_FALLBACK="$WORK/local" \
	"$STRESS" -n 1000 >/dev/null 2>"$WORK/env.err" </dev/null
wait_summary "$WORK/sum"
sum=$(ls "$WORK/sum"/*.summary)
grep -qx "relay=$URL" "$sum" || fail "summary: $(cat "$sum")"
grep -qx "relay_events=1000" "$sum" || fail "summary: $(cat "$sum")"
grep -qx "dir=" "$sum" || fail "summary: $(cat "$sum")"
path=$(value relay_path "$sum")
case $path in "$host"/ust-*/stress-*) ;; *) fail "relay path '$path'" ;; esac
[ "$("$BT2" "$WORK/relay/$path" | wc -l)" = 1000 ] || fail "env-only trace"
[ -z "$(ls "$WORK/local")" ] || fail "local files: $(ls -A "$WORK/local")"
echo "PASS: 2 processes in one relay session, 120000 events; UST_OUTPUT=net:// alone"
