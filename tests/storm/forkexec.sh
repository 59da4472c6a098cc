#!/bin/sh
# Fork/exec storm: while 2 threads trace, the program forks 16 x
# STORM_SCALE children (4 alive at a time); each records 2000 events from
# its one thread, and every second one then execs itself (comm "exe"),
# which records 2 x 2000 from 2 threads.  Every process (parent, children, exec'd
# images) has a trace of its own with exactly its events, and
# babeltrace2 reads each.
. "$top_srcdir/tests/storm/lib.sh"

mkdir "$WORK/ledger"
n=$((16 * STORM_SCALE))
procs=$((1 + n + n / 2))
"$UST" record -o "$WORK/t" --subbuf-size 256k --subbuf-count 16 -- \
	"$STORM" fork -t 2 -r 20 -c $n -k 2000 -L "$WORK/ledger" >"$WORK/out" 2>"$WORK/err" ||
	fail "ust record: $(cat "$WORK/err")"
grep -q "^ust record: $procs traces, [0-9]* events written, 0 lost" "$WORK/err" ||
	fail "summary (want $procs traces): $(head -n 3 "$WORK/err")"
[ "$(ls "$WORK/ledger" | wc -l)" = $procs ] || fail "ledgers: $(ls "$WORK/ledger")"
$CHECK ledger "$WORK/t" "$WORK/ledger" --summary "$WORK/err" >"$WORK/check" ||
	fail "$(tail -n 1 "$WORK/check")"
tail -n 1 "$WORK/check"
echo "fork/exec storm: $n forks, $((n / 2)) execs, $procs traces, each exact"
