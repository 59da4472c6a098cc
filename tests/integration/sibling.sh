#!/bin/sh
# libust starts the consumer as a sibling of the traced program: a child
# of the program's parent, never of the program (which could wait() for
# it), and nothing to wait for on the program's start-up.  Killing the
# program still leaves a whole trace.  (A fork child's consumer detaches
# with a double fork instead: fork.sh.)
. "$top_srcdir/tests/integration/lib.sh"

ppid_of() { awk '/^PPid:/ { print $2 }' "/proc/$1/status"; }

UST_TRACE='*' UST_OUTPUT="$WORK/t" sh -c '"$1" -k -r 5 >"$2.out" & echo $! >"$2"; wait' \
	sh "$STRESS" "$WORK/prog.pid" &
parent=$!
n=0
while [ ! -s "$WORK/prog.pid" ] || ! cpid=$(pgrep -f "ust-consumerd .*--pid $(cat "$WORK/prog.pid") "); do
	n=$((n + 1))
	[ $n -lt 300 ] || fail "no consumer started"
	sleep 0.05
done
prog=$(cat "$WORK/prog.pid")
[ "$(ppid_of "$cpid")" = "$parent" ] ||
	fail "consumer $cpid: parent $(ppid_of "$cpid"), expected the program's parent $parent"
! pgrep -P "$prog" >/dev/null || fail "the program $prog has a child: $(pgrep -P "$prog")"

sleep 0.2
kill -TERM "$prog"
wait "$parent" || true
n=0
while kill -0 "$cpid" 2>/dev/null; do
	n=$((n + 1))
	[ $n -lt 300 ] || fail "consumer $cpid still running"
	sleep 0.05
done
$CHECK "$WORK/t" --traces 1 >"$WORK/check" || fail "$(cat "$WORK/check")"
grep -q " 0 discarded" "$WORK/check" || fail "trace: $(cat "$WORK/check")"
echo "sibling: ok ($(head -n 1 "$WORK/check"))"
