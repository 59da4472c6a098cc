#!/bin/sh
# valgrind.sh - lane 3: memcheck on tpgen and on ust-consumerd, in the
# normal (unsanitized) build tree.  See doc/reliability.md.
#
# SPDX-License-Identifier: GPL-2.0-only
#
#  a. tpgen on every valid description of the tree (tests/tpgen, examples)
#     and on every malformed one of tests/tpgen/bad/;
#  b. ust-consumerd --foreground under fake-app's scenarios;
#  c. ust-consumerd as libust starts it (daemonized) for the stress
#     workload traced from the environment: threads, signals, fork,
#     tiny buffers, overwrite mode, per-thread buffers in blocking mode
#     (the consumer woken by the writers); flight-recorder mode with a trigger
#     and with a crash (consumer/snapshot.c).
#  d. the filter language in one process (tests/filter/check_filter): the
#     compiler, the validator, the interpreter and the shapes run without
#     it, among them the one-load prefix, which validate.c turns off under
#     valgrind (a string at the end of a heap block is among the cases).
#  (the traced program itself under memcheck, per-thread buffers: tests/threads/valgrind.sh)
# A run fails on any memcheck error or definite leak: the ERROR SUMMARY
# of every log must say 0 errors.  The exit code for memcheck errors is
# 97, not 1, since tpgen itself exits 1 on malformed input.
. "$(dirname "$0")/lib.sh"

command -v valgrind >/dev/null ||
	fail "valgrind is not installed (apt-get install valgrind); this lane cannot run"
srcdir=$(cd "$(dirname "$0")" && pwd)
work=$abs_builddir/valgrind-work
rm -rf "$work" && mkdir -p "$work/logs"
VG_OPTS="--error-exitcode=97 --leak-check=full --errors-for-leak-kinds=definite --track-fds=no --num-callers=30"
VG_LOGS=$work/logs
export VG_OPTS VG_LOGS

say "building the normal tree and its test programs"
make -s -C "$abs_top_builddir" -j"$JOBS" >"$work/build.log" 2>&1 &&
make -s -C "$abs_top_builddir/tests/consumer" fake-app >>"$work/build.log" 2>&1 &&
make -s -C "$abs_top_builddir/tests/integration" stress >>"$work/build.log" 2>&1 &&
make -s -C "$abs_top_builddir/tests/flight" flight-app >>"$work/build.log" 2>&1 &&
make -s -C "$abs_top_builddir/tests/filter" check_filter >>"$work/build.log" 2>&1 ||
	{ tail -n 40 "$work/build.log"; fail "build failed"; }
LIBTOOL=$abs_top_builddir/libtool
TPGEN=$abs_top_builddir/tpgen/tpgen
CONSUMERD=$abs_top_builddir/consumer/ust-consumerd
for f in "$CONSUMERD" "$abs_top_builddir/tests/consumer/fake-app" \
	 "$abs_top_builddir/tests/integration/stress" "$abs_top_builddir/tests/flight/flight-app"; do
	head -c 4 "$f" | grep -q ELF || fail "$f is not an ELF program (libtool wrapper?)"
done

# The logs of finished processes; fails unless each reports 0 errors.
check_logs() {
	bad=0
	for f in "$VG_LOGS"/"$1".*; do
		[ -f "$f" ] || continue
		grep -q 'ERROR SUMMARY: 0 errors' "$f" && continue
		say "memcheck log $f:"; cat "$f"; bad=1
	done
	[ "$bad" = 0 ] || fail "memcheck errors (logs in $VG_LOGS)"
}

# a. tpgen
nt=0
for x in "$abs_top_srcdir"/tests/tpgen/*.xml "$abs_top_srcdir"/examples/*/*.xml \
	 "$abs_top_srcdir"/tests/integration/*.xml; do
	[ -f "$x" ] || continue
	rm -rf "$work/out" && mkdir "$work/out"
	"$LIBTOOL" --mode=execute valgrind $VG_OPTS \
		--log-file="$VG_LOGS/tpgen.$(basename "$x")" \
		"$TPGEN" -o "$work/out" "$x" >/dev/null 2>"$work/err" ||
		{ cat "$work/err"; fail "tpgen $x: exit $?"; }
	nt=$((nt + 1))
done
for x in "$abs_top_srcdir"/tests/tpgen/bad/*.xml; do
	rm -rf "$work/out" && mkdir "$work/out"
	st=0
	(cd "$(dirname "$x")" && "$LIBTOOL" --mode=execute valgrind $VG_OPTS \
		--log-file="$VG_LOGS/tpgen.bad-$(basename "$x")" \
		"$TPGEN" -o "$work/out" "$(basename "$x")") >/dev/null 2>&1 || st=$?
	[ "$st" = 1 ] || fail "tpgen bad/$(basename "$x"): exit $st, expected 1"
	nt=$((nt + 1))
done
check_logs tpgen
say "tpgen: $nt runs clean"

# b. the consumer in --foreground under fake-app (scenarios of tests/consumer).
CLOCK="mono:1000000000:1700000000:0:c3d2f6a4-93b1-4b5e-8d3f-0123456789ab"
VG_CONSUMERD=$CONSUMERD
export VG_CONSUMERD
nf=0
for s in basic corrupt lost overwrite overwrite-live shrink sigterm; do
	rm -rf "$work/out" "$work/sum" && mkdir "$work/out" "$work/sum"
	"$abs_top_builddir/tests/consumer/fake-app" -c "$srcdir/valgrind-consumerd.sh" \
		-s "$s" -o "$work/out" -S "$work/sum" -e "$work/expect" \
		-k "$CLOCK" -n 3000 >"$work/run" 2>"$work/err" ||
		{ cat "$work/err"; fail "fake-app -s $s failed"; }
	st=$(sed -n 's/^consumer_status=//p' "$work/run")
	[ "$st" != 97 ] || { check_logs consumerd; fail "fake-app -s $s: memcheck exit"; }
	nf=$((nf + 1))
done
check_logs consumerd
say "consumer --foreground: $nf fake-app scenarios clean"

# c. the consumer as libust spawns it.  `ust record` is not used: it
# waits for children whose comm is "ust-consumerd", and under valgrind
# the comm is "memcheck-amd64-"; so wait here for each memcheck log to
# be complete instead.
UST_CONSUMERD=$srcdir/valgrind-consumerd.sh
UST_TRACE='*'
export UST_CONSUMERD UST_TRACE
unset UST_MODE UST_SUBBUF_SIZE UST_SUBBUF_COUNT UST_READ_TIMER_US
STRESS=$abs_top_builddir/tests/integration/stress
ns=0
# The program does not wait for its consumer to start (libust starts it
# as a sibling), and memcheck starts slowly: wait until no consumer
# writes to $work/t any more (at most 120 s) before the next run.
wait_consumers() {
	n=0
	while pgrep -f -- "--output $work/t " >/dev/null; do
		n=$((n + 1))
		[ "$n" -lt 1200 ] || fail "consumer(s) of run $1 still running after 120 s"
		sleep 0.1
	done
}
run_stress() {	# NAME ENV... -- STRESS-ARGS...
	name=$1; shift
	rm -rf "$work/t"
	env UST_OUTPUT="$work/t" "$@" >"$work/run" 2>"$work/err" ||
		{ cat "$work/err"; fail "stress ($name) failed"; }
	wait_consumers "$name"
	ns=$((ns + 1))
}
run_stress threads "$STRESS" -t 2 -n 100000 -s
run_stress signals "$STRESS" -t 2 -n 100000 -g
run_stress fork "$STRESS" -t 2 -n 20000 -f
run_stress tiny UST_SUBBUF_SIZE=4096 UST_SUBBUF_COUNT=2 "$STRESS" -t 2 -n 50000 -s
run_stress overwrite UST_MODE=overwrite UST_SUBBUF_SIZE=8192 UST_SUBBUF_COUNT=4 \
	"$STRESS" -t 2 -n 100000 -s
run_stress per-thread UST_BUFFERS=per-thread UST_MODE=block UST_SUBBUF_SIZE=4096 \
	UST_SUBBUF_COUNT=2 "$STRESS" -t 2 -n 50000 -s -g
FLIGHT_APP=$abs_top_builddir/tests/flight/flight-app
run_stress flight UST_MODE=flight UST_SUBBUF_SIZE=8192 "$FLIGHT_APP" -n 200000 -t 150000
st=0
env UST_OUTPUT="$work/t" UST_MODE=flight UST_SUBBUF_SIZE=8192 \
	"$FLIGHT_APP" -n 200000 -s 150000 >"$work/run" 2>"$work/err" || st=$?
[ "$st" = 139 ] || { cat "$work/err"; fail "flight-app crash run: exit $st, expected 139"; }
wait_consumers crash
ns=$((ns + 1))
# Every consumer (one per traced process, run 'fork' has two) leaves a
# log, a fork child's two (the process libust spawned, which forks and
# exits, and the daemon).  Wait (at most 120 s) until each has its summary.
n=0
while :; do
	pending=0
	for f in "$VG_LOGS"/consumerd.*; do
		grep -q 'ERROR SUMMARY' "$f" || pending=$((pending + 1))
	done
	[ "$pending" = 0 ] && break
	n=$((n + 1))
	[ "$n" -lt 1200 ] || fail "$pending consumer(s) still running after 120 s"
	sleep 0.1
done
check_logs consumerd
nlogs=$(ls "$VG_LOGS" | grep -c '^consumerd\.')
say "consumer (spawned by libust): $ns stress runs clean ($nlogs memcheck logs in all)"

# d. the filter language, its checks in one process (CK_FORK=no).
CK_FORK=no "$LIBTOOL" --mode=execute valgrind $VG_OPTS \
	--log-file="$VG_LOGS/filter.%p" \
	"$abs_top_builddir/tests/filter/check_filter" >"$work/run" 2>"$work/err" ||
	{ cat "$work/run" "$work/err"; check_logs filter; fail "check_filter under memcheck failed"; }
check_logs filter
say "filter: check_filter clean ($(sed -n 's/^100%: Checks: \([0-9]*\).*/\1/p' "$work/run") checks)"
done_ok
