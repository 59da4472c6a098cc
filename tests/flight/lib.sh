# lib.sh - shared set-up of the flight-recorder tests (sourced): the
# integration tests' set-up, plus what the flight tests share.
# SPDX-License-Identifier: GPL-2.0-only
. "$top_srcdir/tests/integration/lib.sh"

APP="$top_builddir/tests/flight/flight-app"
CHECK="$BT2_PYTHON $top_srcdir/tests/flight/check_snapshot.py"

# The one directory matching GLOB, else fail.
one_dir() {
	set -- $1
	[ $# -eq 1 ] && [ -d "$1" ] || fail "expected one directory, got: $*" >&2
	echo "$1"
}

# Wait (at most 10 s) until FILE exists.
wait_file() {
	wait_for 10 "$1 did not appear" test -e "$1"
}

# Start `ust record --flight-recorder -o $WORK/NAME` of flight-app running
# until killed, and wait until it recorded 1000 events.  Sets $rec (ust
# record) and $pid (flight-app).
start_recorded() {	# name
	"$UST" record --flight-recorder -o "$WORK/$1" -- \
		"$APP" -f -r "$WORK/$1.ready" >"$WORK/$1.out" 2>"$WORK/$1.err" &
	rec=$!
	wait_file "$WORK/$1.ready"
	pid=$(pgrep -n -f "flight-app -f -r $WORK/$1.ready") || fail "flight-app is gone"
}

# Wait for ust record ($rec), which must exit with STATUS.
wait_recorded() {	# name, status
	status=0
	wait $rec || status=$?
	[ $status -eq "$2" ] || fail "ust record exited $status, want $2: $(cat "$WORK/$1.err")"
}
