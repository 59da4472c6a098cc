#!/bin/sh
# A 20 kHz timer signal records from its handler while the threads are
# in the middle of their own records: with per-thread buffers a handler
# nested in a record writes into its thread's second buffer
# (ust_tid<TID>_sig), so nothing is torn and nothing is lost; the
# handler's records carry their thread's tid like the others.
. "$top_srcdir/tests/threads/lib.sh"

"$UST" record -o "$WORK/t" --buffers=per-thread --subbuf-size 1M --subbuf-count 8 -- \
	"$APP" -t 2 -n 300000 -g >"$WORK/out" 2>"$WORK/err" ||
	fail "ust record: $(cat "$WORK/err")"
handler=$(field handler "$WORK/out")
[ "$handler" -gt 0 ] || fail "no signal handled"
grep -q "$((600000 + handler)) events written, 0 lost" "$WORK/err" ||
	fail "summary: $(cat "$WORK/err")"
$CHECK "$WORK/t" --traces 1 --complete 2 300000 --handler "$handler"
sig=$(ls "$WORK"/t/*/ | grep -c '_sig' || true)
echo "$handler handler records, $sig signal buffer streams"
echo ok
