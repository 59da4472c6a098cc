#!/bin/sh
# `ust view --live` follows a session while `ust record` runs, and exits
# by itself when the recording ends, having printed every event once, in
# time order.  On a finished session it prints the traces once and exits.
. "$top_srcdir/tests/reader/lib.sh"

[ -x "$STRESS" ] || skip "stress not built"
need_cmd timeout

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
# every event once, in time order: the view of the finished trace, byte
# for byte (deltas included)
"$UST" view "$WORK/s" >"$WORK/all.out" || fail "ust view"
cmp -s "$WORK/live.out" "$WORK/all.out" ||
	fail "live view differs: $(diff "$WORK/all.out" "$WORK/live.out" | head -4)"
[ "$(wc -l <"$WORK/live.out")" = 8000 ] || fail "$(wc -l <"$WORK/live.out") events, not 8000"

# no recording running: one pass, exactly the plain view
timeout 60 "$UST" view --live "$WORK/s" >"$WORK/again.out" || fail "--live on a finished session"
cmp -s "$WORK/again.out" "$WORK/all.out" || fail "--live on a finished session differs"
# live_error WHAT DIR MESSAGE: `ust view --live DIR` fails after a
# bounded wait, exit status 1, with MESSAGE alone on stderr
live_error() {
	set +e
	timeout 60 "$UST" view --live "$2" >/dev/null 2>"$WORK/err"
	rc=$?
	set -e
	[ $rc = 1 ] || fail "--live on $1: exit status $rc"
	[ "$(cat "$WORK/err")" = "$3" ] || fail "--live on $1: $(cat "$WORK/err")"
}
live_error "a directory that never appears" "$WORK/never" \
	"ust view: $WORK/never: No such file or directory"
mkdir "$WORK/empty"
live_error "a directory where no trace appears" "$WORK/empty" \
	"ust view: $WORK/empty: no trace found (no 'metadata' file) in 10 s"
