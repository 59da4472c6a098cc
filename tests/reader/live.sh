#!/bin/sh
# `ust view --live` follows a session while `ust record` runs, and exits
# by itself when the recording ends, having printed every event once.
# Without a running `ust record`, it prints the traces once and exits.
. "$top_srcdir/tests/reader/lib.sh"

[ -x "$STRESS" ] || skip "stress not built"
command -v timeout >/dev/null || skip "no timeout command"

# about 1 s of tracing: 2 threads x 4000 events at 4 events per ms
"$UST" record -o "$WORK/s" -- "$STRESS" -t 2 -n 4000 -r 4 >"$WORK/rec" 2>&1 &
rec=$!
i=0
until ls -a "$WORK/s" 2>/dev/null | grep -q '^\.ust-record-'; do
	i=$((i + 1))
	[ $i -lt 200 ] || fail "ust record made no session directory in 20 s"
	sleep 0.1
done
set +e
timeout 120 "$UST" view --live "$WORK/s" >"$WORK/live.out" 2>"$WORK/live.err"
rc=$?
set -e
wait $rec || fail "ust record: $(cat "$WORK/rec")"
[ $rc = 0 ] || fail "ust view --live: exit status $rc: $(cat "$WORK/live.err")"
[ ! -s "$WORK/live.err" ] || fail "ust view --live stderr: $(cat "$WORK/live.err")"
grep -q '^ust record: 1 trace, 8000 events written, 0 lost' "$WORK/rec" ||
	fail "ust record: $(cat "$WORK/rec")"
# every event once: the same lines as the view of the finished trace
# (the deltas depend on what came before, and passes may interleave)
"$UST" view "$WORK/s" >"$WORK/all.out" || fail "ust view"
nodelta() { sed 's/ (+[?.0-9]*) / /' "$1" | LC_ALL=C sort; }
nodelta "$WORK/live.out" >"$WORK/live.sorted"
nodelta "$WORK/all.out" >"$WORK/all.sorted"
cmp -s "$WORK/live.sorted" "$WORK/all.sorted" ||
	fail "live view differs: $(diff "$WORK/all.sorted" "$WORK/live.sorted" | head -4)"
[ "$(wc -l <"$WORK/live.out")" = 8000 ] || fail "$(wc -l <"$WORK/live.out") events, not 8000"

# no recording running: one pass, exactly the plain view
timeout 60 "$UST" view --live "$WORK/s" >"$WORK/again.out" || fail "--live on a finished session"
cmp -s "$WORK/again.out" "$WORK/all.out" || fail "--live on a finished session differs"
# a directory that never appears: an error after a bounded wait
set +e
timeout 60 "$UST" view --live "$WORK/never" >/dev/null 2>"$WORK/err"
rc=$?
set -e
[ $rc = 1 ] || fail "--live on a missing directory: exit status $rc"
[ "$(cat "$WORK/err")" = "ust view: $WORK/never: No such file or directory" ] ||
	fail "--live on a missing directory: $(cat "$WORK/err")"
