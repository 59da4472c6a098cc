#!/bin/sh
# ust report's kernel sections on a workload whose activity is known
# (kio: N bytes written to a file in W write()s, M bytes sent over a
# loopback TCP connection in S send()s and received in V recv()s by a
# second thread, one K ms sleep, each phase between two user events):
# the figures equal what it did, exactly where the kernel says exactly.
. "$top_srcdir/tests/kernel/lib.sh"

N=100000 M=200000 K=50
KIO="$top_builddir/tests/kernel/kio"
"$UST" record -o "$WORK/t" --kernel -- "$KIO" "$WORK/out.bin" $N $M $K \
	>"$WORK/out" 2>"$WORK/err" || fail "ust record: $(cat "$WORK/err")"
[ -z "$(stale_instances)" ] || fail "ftrace instance left behind: $(stale_instances)"
grep -q 'ust record: kernel trace .*: [0-9]* events, 0 lost' "$WORK/err" ||
	fail "kernel events lost: $(cat "$WORK/err")"
val() { sed -n "s/^$1=//p" "$WORK/out"; }
T=$(val tid) R=$(val receiver) W=$(val writes) S=$(val sends) V=$(val recvs)
[ "$(val received)" = $M ] || fail "kio received $(val received) bytes, not $M"

report() {
	"$UST" report "$@" "$WORK/t" >"$WORK/rep" 2>"$WORK/rep.err" ||
		fail "ust report $*: $(cat "$WORK/rep.err")"
}
# row TABLE KEY: the CSV row of TABLE whose second column is KEY.
row() { awk -F, -v t="$1" -v k="$2" '$1 == t && $2 == k' "$WORK/rep"; }
col() { echo "$1" | cut -d, -f"$2"; }

# --io: the file, per file and for the process.
report --io --csv
f=$(row io-file "$WORK/out.bin")
[ -n "$f" ] || fail "no io-file row for $WORK/out.bin: $(cat "$WORK/rep")"
[ "$(col "$f" 3),$(col "$f" 4),$(col "$f" 5),$(col "$f" 6),$(col "$f" 7)" = "file,0,$N,0,$W" ] ||
	fail "io-file $f, not: file, 0 read, $N written, 0 reads, $W writes"
p=$(row io-process "$T")
[ -n "$p" ] && [ "$(col "$p" 5)" -ge $N ] || fail "io-process of $T: $p"

# --net: socket bytes of the process; the loopback carried at least M.
report --net --csv
p=$(row net-process "$T")
[ "$(col "$p" 4),$(col "$p" 5),$(col "$p" 6),$(col "$p" 7)" = "$M,$M,$S,$V" ] ||
	fail "net-process $p, not: $M sent, $M received, $S sends, $V receives"
lo=$(row net-interface lo)
[ -n "$lo" ] && [ "$(col "$lo" 3)" -ge $M ] || fail "loopback sent less than $M: $lo"

# --thread: the sleep, the sends; the receiver only received.
report --thread "$T" --csv
c=$(row thread-call clock_nanosleep)
[ "$(col "$c" 3)" = 1 ] || fail "thread $T: clock_nanosleep $c, not once"
[ "$(col "$c" 4)" -ge $((K * 1000000)) ] && [ "$(col "$c" 5)" -ge $((K * 1000000)) ] ||
	fail "thread $T: a $K ms sleep took $c"
[ "$(col "$(row thread-call sendto)" 3)" = $S ] || fail "thread $T: $(row thread-call sendto)"
st=$(awk -F, '$1 == "thread-state"' "$WORK/rep")
[ "$(col "$st" 4)" -ge $((K * 1000000)) ] || fail "thread $T blocked less than $K ms: $st"
report --thread "$R" --csv
[ "$(col "$(row thread-call recvfrom)" 3)" = $V ] || fail "thread $R: $(row thread-call recvfrom)"

# --between: one interval per phase, with the phase's bytes and sleep.
report --between kio:phase_begin kio:phase_end --csv
n=$(awk -F, '$1 == "between-interval"' "$WORK/rep" | wc -l)
[ "$n" = 3 ] || fail "$n intervals, not 3: $(cat "$WORK/rep")"
awk -F, -v n=$N -v m=$M -v k=$((K * 1000000)) -v t="$T" '
	$1 == "between-interval" && $4 == t {
		if ($11 == n && $10 == 0) w++
		if ($11 == m) s++
		if ($7 >= k) z++
	}
	END { exit !(w == 1 && s == 1 && z == 1) }' "$WORK/rep" ||
	fail "intervals do not show the write, send and sleep phases: $(cat "$WORK/rep")"

# Sections together give the rows each gives alone (one model for all).
report --io --csv
grep -v '^$' "$WORK/rep" >"$WORK/io-alone"
report --thread "$T" --csv
grep -v '^$' "$WORK/rep" >"$WORK/thread-alone"
report --io --net --thread "$T" --csv
for part in io-alone thread-alone; do
	grep -v -x -F -f "$WORK/rep" "$WORK/$part" >"$WORK/missing" || true
	[ ! -s "$WORK/missing" ] ||
		fail "--io --net --thread lacks rows of the section alone: $(cat "$WORK/missing")"
done

# The nanosleep ended by a timer: its waker is the timer's interrupt
# (tid 0, "hard irq": the wakeup's ust_in_interrupt), not the thread the
# interrupt happened to stop.
w=$(awk -F, '$1 == "thread-waker" && $2 == 0 && $6 == "hard irq"' "$WORK/rep")
[ -n "$w" ] || fail "no wakeup of thread $T by an interrupt: $(grep thread-waker "$WORK/rep")"

# --sched: the process's wakeups; --block and --irq print without error.
report --sched --csv
p=$(row sched-process "$T")
[ -n "$p" ] && [ "$(col "$p" 4)" -ge 1 ] || fail "no wakeup of kio: $(cat "$WORK/rep")"
report --block --irq --memory
grep -q '^== Block I/O ==$' "$WORK/rep" && grep -q '^== Interrupts ==$' "$WORK/rep" &&
	grep -q '^== Memory ==$' "$WORK/rep" || fail "sections missing: $(cat "$WORK/rep")"

# --begin/--end: a window after the last event counts nothing.
report --io --csv --begin 1000
[ -z "$(row io-file "$WORK/out.bin")" ] || fail "--begin 1000 still counts the file"
report --io --begin 0 --end 1000
grep -q "^ust report: 2 traces, [0-9]* streams, [1-9][0-9]* events" "$WORK/rep" ||
	fail "--begin 0 --end 1000: $(head -3 "$WORK/rep")"

# Bad command lines: exit 2 and one line.
for args in "--thread x" "--between kio:phase_begin" "--csv --cpu" "--begin 25:00:00"; do
	rc=0
	"$UST" report $args "$WORK/t" >/dev/null 2>"$WORK/bad" || rc=$?
	[ "$rc" = 2 ] || fail "ust report $args: exit $rc, not 2"
	[ "$(wc -l <"$WORK/bad")" = 1 ] || fail "ust report $args: $(cat "$WORK/bad")"
done
echo "kio: $N bytes in $W writes, $M bytes in $S sends and $V recvs: all counted"
