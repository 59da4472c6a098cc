#!/bin/sh
# 1000 short-lived threads, 10 at a time, each with its own buffer: every
# record is accounted for (on disk + counted lost = attempted, exactly),
# with 4 KiB sub-buffers in discard mode; in blocking mode none is lost
# and each thread's records are all there, in order.  Buffers of threads
# that exited are reused: the memfd grows by fewer regions than threads,
# and by 10 at least, since the threads of a wave all hold a buffer at
# once (tbuf-app -b: a thread may otherwise end before the last of its
# wave starts, when threads start slowly, as under ASan).
. "$top_srcdir/tests/threads/lib.sh"

region=$((4096 + 4096 * 2))	# control page + 2 x 4 KiB
for mode in discard block; do
	rm -rf "$WORK/t"
	blocking=
	[ $mode = block ] && blocking=--blocking
	timeout 120 "$UST" record -o "$WORK/t" --buffers=per-thread $blocking \
		--subbuf-size 4k --subbuf-count 2 -- \
		"$APP" -t 10 -w 100 -n 300 -s -b >"$WORK/out" 2>"$WORK/err" ||
		fail "$mode: ust record: $(cat "$WORK/err")"
	attempted=$(field attempted "$WORK/out")
	[ "$attempted" = 300000 ] || fail "$mode: attempted=$attempted"
	grown=$(field grown "$WORK/out")
	regions=$((grown / region))
	[ $((regions * region)) = "$grown" ] ||
		fail "$mode: the memfd grew by $grown bytes, not a number of regions"
	[ "$regions" -ge 10 ] && [ "$regions" -lt 1000 ] ||
		fail "$mode: $regions thread buffers for 1000 threads, 10 at a time"
	echo "$mode: $regions thread buffers for 1000 threads"
	written=$(sed -n 's/^ust record: 1 trace, \([0-9]*\) events written, \([0-9]*\) lost.*/\1 \2/p' "$WORK/err")
	[ -n "$written" ] || fail "$mode: summary: $(cat "$WORK/err")"
	set -- $written
	[ $(($1 + $2)) = 300000 ] || fail "$mode: $1 written + $2 lost != 300000"
	if [ $mode = block ]; then
		[ "$2" = 0 ] || fail "blocking: $2 lost"
		$CHECK "$WORK/t" --traces 1 --complete 1000 300 --streams 1000
	else
		$CHECK "$WORK/t" --traces 1 --accounting 300000
	fi
	# One stream file per thread (none for the main thread: it records nothing).
	n=$(ls "$WORK"/t/*/ | grep -c '^ust_tid[0-9]*\(-[0-9]*\)\?$')
	[ "$n" = 1000 ] || fail "$mode: $n stream files for 1000 threads"
done
echo ok
