#!/bin/sh
# Signal storm: each of 4 threads arms a CLOCK_MONOTONIC timer of 50 us
# aimed at itself (SIGEV_THREAD_ID: 20 kHz per thread while it runs, 80 kHz
# in all; expirations while a thread waits for a CPU merge into one signal),
# whose handler records storm:handler, while the thread records storm:tick
# in spinning bursts; so handlers interrupt trace calls.  The buffers hold
# the whole run, so nothing may be lost: each thread's ticks and handler
# events are all on disk, exactly as many as the program made, in order.
# The signal rate reached, the merged expirations (timer overruns) and
# the handlers that interrupted a trace call are printed (timing is not
# asserted).
. "$top_srcdir/tests/storm/lib.sh"

mkdir "$WORK/ledger"
ms=$((300 * STORM_SCALE))
"$UST" record -o "$WORK/t" --subbuf-size 1M --subbuf-count 32 -- \
	"$STORM" signal -t 4 -d $ms -r 300 -y -L "$WORK/ledger" >"$WORK/out" 2>"$WORK/err" ||
	fail "ust record: $(cat "$WORK/err")"
cat "$WORK/out"
[ "$(field handlers "$WORK/out")" -gt 0 ] || fail "no signal handled"
grep -q "^ust record: 1 trace, [0-9]* events written, 0 lost" "$WORK/err" ||
	fail "summary: $(cat "$WORK/err")"
$CHECK ledger "$WORK/t" "$WORK/ledger" --summary "$WORK/err" || exit 1
echo "signal storm: $(field handlers "$WORK/out") handler events at $(field signal_rate_hz "$WORK/out") Hz" \
	"($(field timer_overruns "$WORK/out") expirations merged)" \
	"over 4 threads, $(field nested "$WORK/out") of them inside a trace call," \
	"$(field ticks "$WORK/out") ticks, 0 lost"
