#!/bin/sh
# SIGKILL under 4-thread load: no event whose trace call had returned is
# lost, and the trace opens cleanly.
. "$top_srcdir/tests/integration/lib.sh"

i=0
while [ $i -lt 5 ]; do
	i=$((i + 1))
	"$UST" record -o "$WORK/t$i" --subbuf-size 1M --subbuf-count 64 -- \
		"$STRESS" -t 4 -k -p "$WORK/progress$i" >/dev/null 2>"$WORK/err$i" &
	rec=$!
	# Let it run, then kill the traced program (not ust record).
	sleep 0.$((2 + i))
	pid=$(pgrep -f -n "stress -t 4 -k -p $WORK/progress$i\$" || true)
	[ -n "$pid" ] || fail "stress did not start: $(cat "$WORK/err$i")"
	kill -KILL "$pid"
	status=0
	wait $rec || status=$?
	[ $status -eq 137 ] || fail "ust record exited $status, want 137"
	$CHECK "$WORK/t$i" --traces 1 --progress "$WORK/progress$i" 4
done
