#!/bin/sh
# Lost kernel events are counted in the packets: a one-page ring read
# every 10 s overflows; babeltrace2 reports as many discarded events as
# the bridge counted, and reads as many events as it wrote.
. "$top_srcdir/tests/kernel/lib.sh"

mkdir "$WORK/t"
mkfifo "$WORK/ready"
"$UST_KERNELD" -o "$WORK/t" --events 'raw_syscalls:*' --buffer-size 4k \
	--read-timer 10000000 --control-fd 3 3>"$WORK/ready" 2>"$WORK/err" &
kd=$!
head -c 1 "$WORK/ready" >/dev/null
"$KWORK" 100000 0 >/dev/null
kill -TERM $kd
rc=0
wait $kd || rc=$?
[ "$rc" = 0 ] || fail "ust-kerneld exited $rc: $(cat "$WORK/err")"
[ ! -d "/sys/kernel/tracing/instances/ust-$kd" ] || fail "instance ust-$kd left"
line=$(grep 'kernel trace .*: [0-9]* events, [0-9]* lost' "$WORK/err") ||
	fail "no summary: $(cat "$WORK/err")"
written=$(echo "$line" | sed 's/.*: \([0-9]*\) events, \([0-9]*\) lost/\1/')
lost=$(echo "$line" | sed 's/.*: \([0-9]*\) events, \([0-9]*\) lost/\2/')
[ "$lost" -gt 0 ] || fail "nothing lost with a one-page ring: $line"

babeltrace2 "$WORK/t/kernel" -c sink.utils.counter >"$WORK/count" 2>"$WORK/bterr" ||
	fail "babeltrace2: $(cat "$WORK/bterr")"
read_events=$(awk '/ Event messages$/ {print $1}' "$WORK/count" | tr -d ,)
[ "$read_events" = "$written" ] ||
	fail "babeltrace2 reads $read_events events, the bridge wrote $written"
babeltrace2 "$WORK/t/kernel" >/dev/null 2>"$WORK/bterr" || fail "babeltrace2 failed"
reported=$(sed -n 's/^WARNING: Tracer discarded \([0-9]*\) events .*/\1/p' "$WORK/bterr" |
	awk '{s += $1} END {print s + 0}')
[ "$reported" = "$lost" ] ||
	fail "babeltrace2 reports $reported discarded events, the bridge counted $lost"
echo "written $written, lost $lost"
