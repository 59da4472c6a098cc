#!/bin/sh
# ust_trigger() in flight-recorder mode: 3M events in overwrite mode, the
# trigger after event 2 500 000.  The snapshot is the tail of the flight
# channel, contiguous, ending exactly with event 2 500 000 and then the
# ust:trigger event; it has the state channel's statedump, with the
# thread's name at the dump and after pthread_setname_np(); babeltrace2
# reads it, and the whole output directory, without a warning.  The
# flight channel is never streamed.  Outside flight mode ust_trigger()
# does nothing and says so.
. "$top_srcdir/tests/flight/lib.sh"

"$UST" record --flight-recorder -o "$WORK/t" --subbuf-size 256k -- \
	"$APP" -N flight-main -n 3000000 -t 2500000 >"$WORK/t.out" 2>"$WORK/t.err" ||
	fail "ust record: $(cat "$WORK/t.err")"
grep -qx 'trigger=0' "$WORK/t.out" || fail "ust_trigger: $(cat "$WORK/t.out")"
grep -qx 'recorded=3000000' "$WORK/t.out" || fail "workload: $(cat "$WORK/t.out")"
snap=$(one_dir "$WORK/t/flight-app-*-snapshot-1-at-2500000")
trace=${snap%-snapshot-1-at-2500000}
[ "$(ls "$WORK/t" | wc -l)" -eq 2 ] || fail "output holds: $(ls "$WORK/t")"
grep -qx "ust record:     snapshot $snap" "$WORK/t.err" ||
	fail "the summary does not list $snap: $(cat "$WORK/t.err")"
ls "$trace" | grep -q '^state_[0-9]*$' || fail "no state stream in $trace: $(ls "$trace")"
! ls "$trace" | grep -q '^ust_' || fail "the flight channel was streamed: $(ls "$trace")"
ls "$snap" | grep -q '^ust_[0-9]*$' || fail "no flight stream in $snap: $(ls "$snap")"

# 256 KiB sub-buffers hold over 16 000 flight events: at least 3 full ones
# of the buffer whose history starts last.
$CHECK "$snap" --last-seq 2500000 --trigger at-2500000 --min-events 45000 \
	--program flight-app --thread-name flight-main
babeltrace2 "$WORK/t" >/dev/null 2>"$WORK/all.err" || fail "babeltrace2 on the output: $(cat "$WORK/all.err")"
[ ! -s "$WORK/all.err" ] || fail "babeltrace2 on the output warned: $(cat "$WORK/all.err")"

# Our own reader agrees on the end of the tail.
"$UST" view "$snap" >"$WORK/view.txt" 2>"$WORK/view.err" || fail "ust view: $(cat "$WORK/view.err")"
tail -n 2 "$WORK/view.txt" | head -n 1 | grep -q 'flight:tick.*seq = 2500000' ||
	fail "ust view: $(tail -n 2 "$WORK/view.txt")"
tail -n 1 "$WORK/view.txt" | grep -q 'ust:trigger.*at-2500000' ||
	fail "ust view: $(tail -n 1 "$WORK/view.txt")"

# Streaming overwrite mode: no snapshot, no ust:trigger event.
UST_TRACE='*' UST_OUTPUT="$WORK/o" UST_MODE=overwrite "$APP" -n 1000 -t 10 >"$WORK/o.out"
grep -qx 'trigger=-95' "$WORK/o.out" || fail "ust_trigger outside flight mode: $(cat "$WORK/o.out")"
for i in $(seq 500); do
	! ls "$WORK/o"/*/ust_* >/dev/null 2>&1 || break
	sleep 0.01
done
[ "$(ls "$WORK/o" | wc -l)" -eq 1 ] || fail "snapshot outside flight mode: $(ls "$WORK/o")"
! babeltrace2 "$WORK/o" | grep -q 'ust:trigger' || fail "ust:trigger outside flight mode"
# A bad combination is refused with one line.
status=0
"$UST" record --flight-recorder --blocking -- true >/dev/null 2>"$WORK/b.err" || status=$?
[ $status -eq 2 ] || fail "--flight-recorder --blocking: exit $status, want 2"
[ "$(cat "$WORK/b.err")" = "ust record: --blocking and --flight-recorder cannot be combined: an overwriting buffer is never full" ] ||
	fail "--flight-recorder --blocking said: $(cat "$WORK/b.err")"
echo "trigger: ok"
