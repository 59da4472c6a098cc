#!/bin/sh
# Overwrite mode, consumer started after the writer lapped it: it resumes
# at the oldest sub-buffer that can be intact and counts the others.
. "$srcdir/lib.sh"

run_fake -s overwrite -o "$WORK/out" -k "$CLOCK" -n 6000 -b 4
[ "$STATUS" = 0 ] || fail "consumer exited $STATUS: $(cat "$WORK/err")"
no_consumer_errors
t=$(trace_dir)
$CHECK "$t" "$WORK/expect" --files "ust_0 ust_1" || exit 1
# cpu 0's last sub-buffer is the highest seq in the expectation.
last=$(awk '$1 == 0 { s = $2 } END { print s }' "$WORK/expect")
[ "$last" -ge 8 ] || fail "cpu 0 reached only sub-buffer $last"
expect_summary packets_dropped $((last - 3))
expect_summary packets $((4 + $(awk '$1 == 1 { s = $2 } END { print s + 1 }' "$WORK/expect")))
echo "ok"
