#!/bin/sh
# bench/kernel-run.sh - kernel event capture: `ust record --kernel`
# against `perf record` and `trace-cmd record` on the same workload.
# SPDX-License-Identifier: GPL-2.0-only
#
#   bench/kernel-run.sh [--reps N] [BUILD_DIR]
#
# Needs root (kernel tracing).  BUILD_DIR is a configured and built tree
# (default: ../_build next to this directory); the script builds
# bench/kernel-load there.  Two measurements, each repeated N times
# (default 5), the capture tools interleaved within each repetition:
#
#  1. overhead per system call: one thread (pinned to CPU 0) makes
#     1,000,000 getppid() calls; ns per call with capture minus ns per
#     call without, for each tool;
#  2. events per second: one thread per CPU, 2,000,000 getppid() calls
#     each; kernel events captured (the whole machine's, as every tool
#     records all CPUs) / the workload's wall time, and events lost.
#
# The capture configurations:
#   ust-default   ust record --kernel (the default set: per-syscall
#                 events, sched, irq), 8 MiB ring per CPU
#   ust-raw       ust record --kernel='raw_syscalls:*' (the same two
#                 tracepoints perf records)
#   perf          perf record -a -k CLOCK_MONOTONIC -e raw_syscalls:*
#                 (default mmap, 516 KiB per CPU)
#   perf-8M       the same with -m 8M (the ring ust uses)
#   trace-cmd     trace-cmd record -C x86-tsc -B ustbench -e raw_syscalls
#                 (tried once; under kernel lockdown it cannot start)
# It prints medians and min-max of each figure.
set -eu

reps=5
while [ $# -gt 0 ]; do
	case $1 in
	--reps) reps=$2; shift 2 ;;
	-h|--help) sed -n '2,/^set -eu/p' "$0" | sed 's/^# \{0,1\}//;/^set -eu/d'; exit 0 ;;
	*) break ;;
	esac
done
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../_build}" && pwd)
[ "$(id -u)" = 0 ] || { echo "kernel-run.sh: kernel tracing needs root" >&2; exit 1; }

make -s -C "$build/bench" kernel-load >/dev/null
LOAD="$build/bench/kernel-load"
UST="$build/cli/ust"
export UST_CONSUMERD="$build/consumer/ust-consumerd"
export UST_KERNELD="$build/consumer/kernel/ust-kerneld"
tmp=$(mktemp -d /tmp/kbench.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

field() { sed -n "s/.*$1=\([0-9.]*\).*/\1/p" "$2" | head -n 1; }

# run CONFIG THREADS CALLS: the workload under CONFIG; writes
# "ns_per_call seconds captured lost bytes" to stdout.
run() {
	cfg=$1 thr=$2 calls=$3
	rm -rf "$tmp/out" "$tmp/perf.data"
	captured=0 lost=0 bytes=0
	case $cfg in
	none)
		"$LOAD" "$thr" "$calls" >"$tmp/load" ;;
	ust-default|ust-raw)
		list=; [ "$cfg" = ust-raw ] && list='=raw_syscalls:*'
		"$UST" record -o "$tmp/out" --kernel$list -- "$LOAD" "$thr" "$calls" \
			>"$tmp/load" 2>"$tmp/err"
		captured=$(sed -n 's/.*kernel trace .*: \([0-9]*\) events, \([0-9]*\) lost/\1/p' "$tmp/err")
		lost=$(sed -n 's/.*kernel trace .*: \([0-9]*\) events, \([0-9]*\) lost/\2/p' "$tmp/err")
		bytes=$(du -sb "$tmp/out/kernel" | cut -f1) ;;
	perf|perf-8M)
		mm=; [ "$cfg" = perf-8M ] && mm='-m 8M'
		# shellcheck disable=SC2086
		perf record -q -a $mm -k CLOCK_MONOTONIC -e raw_syscalls:sys_enter \
			-e raw_syscalls:sys_exit -o "$tmp/perf.data" -- "$LOAD" "$thr" "$calls" \
			>"$tmp/load" 2>"$tmp/err"
		perf report -i "$tmp/perf.data" --stats >"$tmp/stats" 2>/dev/null
		captured=$(awk '/^ *SAMPLE events:/ {print $3}' "$tmp/stats" | head -n 1)
		lost=$(awk '/LOST_SAMPLES events:/ {print $3}' "$tmp/stats" | head -n 1)
		[ -n "$lost" ] || lost=0
		bytes=$(stat -c %s "$tmp/perf.data") ;;
	esac
	echo "$(field ns_per_call "$tmp/load") $(field seconds "$tmp/load") ${captured:-0} ${lost:-0} $bytes"
}

median() { sort -n | awk '{v[NR]=$1} END {if (NR) printf "%s (%s-%s)", v[int((NR+1)/2)], v[1], v[NR]}'; }

configs="none ust-default ust-raw perf perf-8M"
echo "kernel-run.sh: $reps repetitions; $(nproc) CPUs; $(uname -r)"
for r in $(seq "$reps"); do
	for c in $configs; do
		run "$c" 1 1000000 >>"$tmp/ovh.$c"
		run "$c" "$(nproc)" 2000000 >>"$tmp/rate.$c"
	done
done

base=$(cut -d' ' -f1 "$tmp/ovh.none" | median | cut -d' ' -f1)
printf '\n1. overhead per getppid() (1 thread, 1e6 calls): ns per call, median (min-max)\n'
printf '%-12s %-26s %-10s %s\n' config ns/call extra/call "events captured (lost)"
for c in $configs; do
	ns=$(cut -d' ' -f1 "$tmp/ovh.$c" | median)
	extra=$(echo "$ns $base" | awk '{printf "%.0f", $1 - $3}')
	cap=$(cut -d' ' -f3 "$tmp/ovh.$c" | median | cut -d' ' -f1)
	lost=$(cut -d' ' -f4 "$tmp/ovh.$c" | sort -n | tail -n 1)
	printf '%-12s %-26s %-10s %s (max %s)\n' "$c" "$ns" "$extra" "$cap" "$lost"
done

printf '\n2. events per second (%s threads x 2e6 calls): captured / workload wall time\n' "$(nproc)"
printf '%-12s %-30s %-22s %s\n' config "Mevents/s" "lost (median; max)" "bytes/event"
for c in $configs; do
	[ "$c" = none ] && continue
	awk '{ if ($2 > 0) printf "%.2f %s %s\n", $3 / $2 / 1e6, $4, ($3 ? $5 / $3 : 0) }' \
		"$tmp/rate.$c" >"$tmp/r.$c"
	rate=$(cut -d' ' -f1 "$tmp/r.$c" | median)
	lostm=$(cut -d' ' -f2 "$tmp/r.$c" | median | cut -d' ' -f1)
	lostx=$(cut -d' ' -f2 "$tmp/r.$c" | sort -n | tail -n 1)
	bpe=$(cut -d' ' -f3 "$tmp/r.$c" | awk '{printf "%.0f\n", $1}' | median | cut -d' ' -f1)
	printf '%-12s %-30s %-22s %s\n' "$c" "$rate" "$lostm; $lostx" "$bpe"
done

printf '\n3. trace-cmd record\n'
if command -v trace-cmd >/dev/null; then
	if (cd "$tmp" && trace-cmd record -C x86-tsc -B ustbench -e raw_syscalls \
		-o "$tmp/trace.dat" -- "$LOAD" 1 1000000) >"$tmp/tc.out" 2>&1; then
		echo "works: $(grep -c . "$tmp/tc.out") lines of output"
	else
		echo "fails: $(grep -v '^ *$' "$tmp/tc.out" | tail -n 2 | tr '\n' ' ')"
	fi
	rmdir /sys/kernel/tracing/instances/ustbench 2>/dev/null || true
else
	echo "trace-cmd is not installed"
fi
