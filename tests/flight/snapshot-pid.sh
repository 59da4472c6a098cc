#!/bin/sh
# `ust snapshot PID` on a running flight-recorder program: each request
# makes a new snapshot (next to the trace, or in -o DIR) and prints its
# path; each holds a tail and the statedump, and babeltrace2 reads it
# cleanly.  (The first is contiguous; a later one may contain the records
# the writer had to refuse while an earlier snapshot was copied.)  Bad requests get a one-line error and a non-zero
# exit.  SIGTERM then ends the program with a last snapshot.
. "$top_srcdir/tests/flight/lib.sh"

expect_error() {	# status, message, ust snapshot arguments...
	want=$1 msg=$2
	shift 2
	status=0
	"$UST" snapshot "$@" >"$WORK/e.out" 2>"$WORK/e.err" || status=$?
	[ $status -eq "$want" ] || fail "ust snapshot $*: exit $status, want $want"
	[ "$(cat "$WORK/e.err")" = "ust snapshot: $msg" ] ||
		fail "ust snapshot $*: said '$(cat "$WORK/e.err")', want 'ust snapshot: $msg'"
	[ ! -s "$WORK/e.out" ] || fail "ust snapshot $*: printed $(cat "$WORK/e.out")"
}

start_recorded s

path=$("$UST" snapshot "$pid") || fail "ust snapshot $pid failed"
case $path in "$WORK"/s/flight-app-$pid-*-snapshot-1-manual) ;; *) fail "path '$path'" ;; esac
$CHECK "$path" --min-events 1000 --program flight-app

path=$("$UST" snapshot -o "$WORK/out" --reason again "$pid") || fail "ust snapshot -o failed"
case $path in "$WORK"/out/flight-app-$pid-*-snapshot-2-again) ;; *) fail "path '$path'" ;; esac
$CHECK "$path" --min-events 1000 --program flight-app --freeze-losses

expect_error 2 "PID is missing (see 'ust snapshot --help')"
expect_error 2 "'12ab' is not a process id" 12ab
expect_error 1 "process $$ is not traced by libust (start it with UST_TRACE set, or under \`ust record\`)" $$

UST_TRACE='*' UST_OUTPUT="$WORK/d" "$APP" -f -r "$WORK/d.ready" >/dev/null &
plain=$!
wait_file "$WORK/d.ready"
expect_error 1 "process $plain does not trace in flight-recorder mode (start it under \`ust record --flight-recorder\`, or with UST_MODE=flight)" $plain
kill -TERM $plain
wait $plain || true

kill -TERM "$pid"
wait_recorded s 143
snap=$(one_dir "$WORK/s/flight-app-$pid-*-snapshot-3-SIGTERM")
$CHECK "$snap" --min-events 1000 --program flight-app --freeze-losses
echo "snapshot-pid: ok"
