#!/bin/sh
# The accounting identity at scale: with tiny buffers (2 x 4 KiB per CPU)
# most records are refused, yet for every process on disk + counted lost
# = the calls it made, exactly (storm_check.py ledger-lossy), for `ust
# record` and for babeltrace2:
#   - 1, 2, 8, 32 and 64 threads, 20 000 x STORM_SCALE calls each;
#   - the fork/exec storm (16 x STORM_SCALE children, every second one
#     exec'd), each process with its own trace.
. "$top_srcdir/tests/storm/lib.sh"

n=$((20000 * STORM_SCALE))
for t in 1 2 8 32 64; do
	mkdir -p "$WORK/l$t"
	"$UST" record -o "$WORK/t$t" --subbuf-size 4k --subbuf-count 2 -- \
		"$STORM" crash -t $t -n $n -L "$WORK/l$t" >/dev/null 2>"$WORK/t$t.err" ||
		fail "$t threads: ust record: $(cat "$WORK/t$t.err")"
	$CHECK ledger-lossy "$WORK/t$t" "$WORK/l$t" --summary "$WORK/t$t.err" >"$WORK/t$t.check" ||
		fail "$t threads: $(tail -n 1 "$WORK/t$t.check")"
	echo "$t threads: $(tail -n 2 "$WORK/t$t.check" | head -n 1)"
	rm -rf "$WORK/t$t"
done

c=$((16 * STORM_SCALE))
mkdir -p "$WORK/lf"
"$UST" record -o "$WORK/tf" --subbuf-size 4k --subbuf-count 2 -- \
	"$STORM" fork -t 2 -c $c -k 2000 -L "$WORK/lf" >/dev/null 2>"$WORK/tf.err" ||
	fail "fork/exec: ust record: $(cat "$WORK/tf.err")"
$CHECK ledger-lossy "$WORK/tf" "$WORK/lf" --summary "$WORK/tf.err" >"$WORK/tf.check" ||
	fail "fork/exec: $(tail -n 1 "$WORK/tf.check")"
echo "fork/exec, $c forks: $(tail -n 1 "$WORK/tf.check")"
echo "identity storm: 1 to 64 threads x $n calls and $c forks, 0 lost uncounted"
