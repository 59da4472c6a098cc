#!/bin/sh
# Command-line errors: exit 2 and say what is wrong.
. "$srcdir/lib.sh"

expect_usage() {
	want=$1
	shift
	status=0
	"$CONSUMERD" "$@" >"$WORK/o" 2>&1 || status=$?
	[ $status = 2 ] || fail "'$*' exited $status"
	grep -q -e "$want" "$WORK/o" || fail "'$*' said: $(cat "$WORK/o")"
}

expect_usage "--shm-fd is required" --pid 1 --output /tmp
expect_usage "--pid is required" --shm-fd 0 --output /tmp
expect_usage "--output or --resume is required" --shm-fd 0 --pid 1
expect_usage "--read-timer must be 100..10000000 microseconds" --shm-fd 0 --pid 1 --output /tmp --read-timer 99
expect_usage "--read-timer must be" --shm-fd 0 --pid 1 --output /tmp --read-timer 10000001
expect_usage "invalid --clock 'tsc:1'" --shm-fd 0 --pid 1 --output /tmp --clock tsc:1
expect_usage "unexpected argument 'extra'" --shm-fd 0 --pid 1 --output /tmp extra
expect_usage "unknown option" --bogus

status=0
"$CONSUMERD" --foreground --shm-fd 0 --pid $$ --output "$WORK/out" \
	</dev/null >"$WORK/o" 2>&1 || status=$?
[ $status = 1 ] || fail "/dev/null as shm: exit $status"
grep -q "shared memory rejected: not a shared-memory file" "$WORK/o" ||
	fail "message: $(cat "$WORK/o")"
echo "ok"
