#!/bin/sh
# The LTTng analyses of Debian's python3-lttnganalyses run on a `ust record
# --kernel` trace without error, and agree with `ust report` on the same
# trace: CPU time and system calls per thread, bytes per file and per
# interface (check_lttng_analyses.py).
. "$top_srcdir/tests/kernel/lib.sh"

[ -x /usr/bin/lttng-cputop-mi ] || skip "python3-lttnganalyses is not installed"
/usr/bin/python3 -c 'import babeltrace' 2>/dev/null ||
	skip "python3-babeltrace (babeltrace 1) is not installed"

KIO="$top_builddir/tests/kernel/kio"
check=$(cd "$top_srcdir/tests/kernel" && pwd)/check_lttng_analyses.py
ust=$(cd "$(dirname "$UST")" && pwd)/ust
# A recording where every sched_switch of the two threads is there (see
# check_lttng_analyses.py: some kernels drop a few, more under load): up
# to 10 recordings, none started after 5 minutes, each within 2.
TRIES=10
deadline=$(($(date +%s) + 300))
for try in $(seq $TRIES); do
	rm -rf "$WORK/t"
	timeout 120 "$UST" record -o "$WORK/t" --kernel -- "$KIO" "$WORK/out.bin" 100000 200000 20 \
		>"$WORK/out" 2>"$WORK/err" || fail "ust record: $(cat "$WORK/err")"
	grep -q 'ust record: kernel trace .*: [0-9]* events, 0 lost' "$WORK/err" ||
		fail "kernel events lost: $(cat "$WORK/err")"
	T=$(sed -n 's/^tid=//p' "$WORK/out") R=$(sed -n 's/^receiver=//p' "$WORK/out")
	/usr/bin/python3 "$check" --gaps "$WORK/t" "$T" "$R" >"$WORK/gaps" && break
	echo "recording $try: $(cat "$WORK/gaps")"
	[ $try = $TRIES ] || [ "$(date +%s)" -ge $deadline ] &&
		skip "the kernel dropped sched_switch events of the traced threads in $try recordings: $(cat "$WORK/gaps")"
done
# The tools run in $WORK: whatever they leave behind goes with it.
cd "$WORK"
/usr/bin/python3 "$check" "$ust" "$WORK/t" "$T" "$R" "$WORK/out.bin"
