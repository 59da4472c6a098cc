#!/bin/sh
# A flight-recorder program that dies by a signal leaves a snapshot, made
# by its consumer: killed by SIGSEGV after event 2 000 000, the snapshot
# ends exactly with that event; killed by SIGKILL at an unknown moment, it
# holds a contiguous tail.  A normal exit leaves no snapshot.
. "$top_srcdir/tests/flight/lib.sh"

status=0
"$UST" record --flight-recorder -o "$WORK/segv" --subbuf-size 256k -- \
	"$APP" -n 3000000 -s 2000000 >"$WORK/segv.out" 2>"$WORK/segv.err" || status=$?
[ $status -eq 139 ] || fail "ust record exited $status, want 139: $(cat "$WORK/segv.err")"
snap=$(one_dir "$WORK/segv/flight-app-*-snapshot-1-SIGSEGV")
grep -qx "ust record:     snapshot $snap" "$WORK/segv.err" ||
	fail "the summary does not list $snap: $(cat "$WORK/segv.err")"
$CHECK "$snap" --last-seq 2000000 --min-events 45000 --program flight-app

start_recorded kill
kill -KILL "$pid"
wait_recorded kill 137
snap=$(one_dir "$WORK/kill/flight-app-*-snapshot-1-SIGKILL")
$CHECK "$snap" --min-events 1000 --program flight-app

"$UST" record --flight-recorder -o "$WORK/exit" -- "$APP" -n 100000 >/dev/null 2>"$WORK/exit.err" ||
	fail "ust record: $(cat "$WORK/exit.err")"
[ "$(ls "$WORK/exit" | wc -l)" -eq 1 ] || fail "snapshot after a normal exit: $(ls "$WORK/exit")"
echo "crash: ok"
