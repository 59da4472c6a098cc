#!/bin/sh
# Blocking mode wakes the consumer when it must wait (abi/shm.h, I16):
# with a 10 s read timer and two 4 KiB sub-buffers per thread, 2 MiB of
# records need ~500 buffer refills; polled every 10 s that is more than
# an hour, woken by the writers a second or two.  Every record arrives.
. "$top_srcdir/tests/threads/lib.sh"

for buffers in per-thread per-cpu; do
	rm -rf "$WORK/t"
	start=$(date +%s)
	timeout 100 "$UST" record -o "$WORK/t" --buffers=$buffers --blocking \
		--read-timer 10000000 --subbuf-size 4k --subbuf-count 2 -- \
		"$APP" -t 2 -n 64000 >"$WORK/out" 2>"$WORK/err" ||
		fail "$buffers: ust record (timeout 100 s): $(cat "$WORK/err")"
	took=$(($(date +%s) - start))
	grep -q "128000 events written, 0 lost" "$WORK/err" ||
		fail "$buffers: summary: $(cat "$WORK/err")"
	echo "$buffers: 128000 records through 4 KiB buffers in ${took} s"
	[ "$took" -lt 60 ] || fail "$buffers: took $took s: the consumer was not woken"
	[ $buffers = per-cpu ] || $CHECK "$WORK/t" --traces 1 --complete 2 64000
done
echo ok
