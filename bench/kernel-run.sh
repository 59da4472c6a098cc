#!/bin/sh
# bench/kernel-run.sh - kernel event capture: `ust record --kernel`
# against `perf record` and `trace-cmd record` on the same workload, and
# `ust report` over a large kernel trace.
# SPDX-License-Identifier: GPL-2.0-only
#
#   bench/kernel-run.sh [--reps N] [--events N] [--capture|--report]
#                       [--bridge-b KERNELD] [BUILD_DIR]
#
# Needs root (kernel tracing).  BUILD_DIR is a configured and built tree
# (default: ../_build next to this directory); the script builds
# bench/kernel-load there.  Measurements 1-3 (--capture alone: only
# them) are repeated N times (default 5), the capture tools interleaved
# within each repetition:
#
#  1. overhead per system call: one thread (pinned to CPU 0) makes
#     1,000,000 getppid() calls; ns per call with capture minus ns per
#     call without, for each tool;
#  2. events per second at full speed: one thread per CPU, 2,000,000
#     getppid() calls each; kernel events captured / the workload's wall
#     time, and events lost;
#  3. events per second without loss: the same threads paced at a
#     rising rate (bench/kernel-load's RATE), 2 s per step, ust's default
#     capture only; the highest total rate at which no step of any
#     repetition lost an event;
#  4. whether trace-cmd record runs;
#  5. (--report alone: only it) `ust report` over a kernel trace of at
#     least --events events (default 10,000,000: `ust record --kernel-all`
#     of one thread making half as many getppid() calls, recorded again,
#     3 times at most, while events were lost or fewer were kept), output
#     to /dev/null, alternating, N times each: the default sections;
#     --io --net --block --sched --irq --memory; --thread TID (the
#     workload's thread); --csv --io --sched; --begin 0.5 --end 1.5 --io
#     --sched.  Elapsed and CPU (user + system) seconds and peak memory
#     (/usr/bin/time).  Issue 19's goal: under 3 s for 10 M events.
#
# The capture configurations:
#   ust-pid       ust record --kernel (the default set: per-syscall
#                 events, sched, irq, block, net; the default scope: the
#                 command's process tree, with its scheduling context),
#                 8 MiB ring per CPU, the bridge at nice -10 (its default)
#   ust-pid-b     with --bridge-b KERNELD only: ust-pid with that
#                 ust-kerneld (another build of the bridge: an A/B of
#                 the conversion in the same run)
#   ust-pid-n0    the same with the bridge at nice 0 (UST_KERNELD_NICE=0)
#   ust-all       ust record --kernel-all (the same set, every process)
#   ust-raw       ust record --kernel-all --kernel='raw_syscalls:*' (the
#                 same two tracepoints perf records, every process)
#   perf          perf record -a -k CLOCK_MONOTONIC -e raw_syscalls:*
#                 (default mmap, 516 KiB per CPU)
#   perf-8M       the same with -m 8M (the ring ust uses)
#   trace-cmd     trace-cmd record -C x86-tsc -B ustbench -e raw_syscalls
#                 (tried once; under kernel lockdown it cannot start)
# It prints medians and min-max of each figure; measurement 2 also the
# CPU seconds (user + system) of `ust record` and its bridge.
set -eu

reps=5 events=10000000 capture=1 report=1 bridge_b=
while [ $# -gt 0 ]; do
	case $1 in
	--reps) reps=$2; shift 2 ;;
	--events) events=$2; shift 2 ;;
	--capture) report= ; shift ;;
	--report) capture= ; shift ;;
	--bridge-b) bridge_b=$2; shift 2 ;;
	-h|--help) sed -n '2,/^set -eu/p' "$0" | sed 's/^# \{0,1\}//;/^set -eu/d'; exit 0 ;;
	*) break ;;
	esac
done
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../_build}" && pwd)
[ "$(id -u)" = 0 ] || { echo "kernel-run.sh: kernel tracing needs root" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "kernel-run.sh: needs /usr/bin/time" >&2; exit 1; }
[ -z "$bridge_b" ] || [ -x "$bridge_b" ] ||
	{ echo "kernel-run.sh: --bridge-b $bridge_b: not an executable" >&2; exit 1; }

make -s -C "$build/bench" kernel-load >/dev/null
LOAD="$build/bench/kernel-load"
UST="$build/cli/ust"
export UST_CONSUMERD="$build/consumer/ust-consumerd"
export UST_KERNELD="$build/consumer/kernel/ust-kerneld"
tmp=$(mktemp -d /tmp/kbench.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

field() { sed -n "s/.*$1=\([0-9.]*\).*/\1/p" "$2" | head -n 1; }

# run CONFIG THREADS CALLS [RATE]: the workload under CONFIG; writes
# "ns_per_call seconds captured lost bytes cpu" to stdout (cpu: seconds
# of `ust record` and its bridge, 0 for the others).
run() {
	cfg=$1 thr=$2 calls=$3 rate=${4:-}
	rm -rf "$tmp/out" "$tmp/perf.data"
	captured=0 lost=0 bytes=0 cpu=0
	case $cfg in
	none)
		"$LOAD" "$thr" "$calls" $rate >"$tmp/load" ;;
	ust-*)
		nice= kd=$UST_KERNELD
		case $cfg in
		ust-pid) opt=--kernel ;;
		ust-pid-b) opt=--kernel kd=$bridge_b ;;
		ust-pid-n0) opt=--kernel nice=0 ;;
		ust-all) opt=--kernel-all ;;
		ust-raw) opt='--kernel-all --kernel=raw_syscalls:*' ;;
		esac
		# shellcheck disable=SC2086
		UST_KERNELD=$kd UST_KERNELD_NICE=$nice /usr/bin/time -f '%U %S' -o "$tmp/cpu" \
			"$UST" record -o "$tmp/out" $opt -- "$LOAD" "$thr" "$calls" $rate \
			>"$tmp/load" 2>"$tmp/err"
		cpu=$(tail -n 1 "$tmp/cpu" | awk '{printf "%.2f", $1 + $2}')
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
	echo "$(field ns_per_call "$tmp/load") $(field seconds "$tmp/load") ${captured:-0} ${lost:-0} $bytes $cpu"
}

median() { sort -n | awk '{v[NR]=$1} END {if (NR) printf "%s (%s-%s)", v[int((NR+1)/2)], v[1], v[NR]}'; }

configs="none ust-pid${bridge_b:+ ust-pid-b} ust-pid-n0 ust-all ust-raw perf perf-8M"
# per-thread calls per second of measurement 3
rates="250000 500000 750000 1000000 1250000 1500000 2000000"

capture_runs() {
	for r in $(seq "$reps"); do
		for c in $configs; do
			run "$c" 1 1000000 >>"$tmp/ovh.$c"
			run "$c" "$(nproc)" 2000000 >>"$tmp/rate.$c"
		done
		for rt in $rates; do
			run ust-pid "$(nproc)" $((rt * 2)) "$rt" >>"$tmp/paced.$rt"
		done
	done
}

capture_figures() {
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
	printf '%-12s %-30s %-22s %-12s %s\n' config "Mevents/s" "lost (median; max)" "bytes/event" \
		"ust CPU s"
	for c in $configs; do
		[ "$c" = none ] && continue
		awk '{ if ($2 > 0) printf "%.2f %s %s\n", $3 / $2 / 1e6, $4, ($3 ? $5 / $3 : 0) }' \
			"$tmp/rate.$c" >"$tmp/r.$c"
		rate=$(cut -d' ' -f1 "$tmp/r.$c" | median)
		lostm=$(cut -d' ' -f2 "$tmp/r.$c" | median | cut -d' ' -f1)
		lostx=$(cut -d' ' -f2 "$tmp/r.$c" | sort -n | tail -n 1)
		bpe=$(cut -d' ' -f3 "$tmp/r.$c" | awk '{printf "%.0f\n", $1}' | median | cut -d' ' -f1)
		cpu=$(cut -d' ' -f6 "$tmp/rate.$c" | median)
		printf '%-12s %-30s %-22s %-12s %s\n' "$c" "$rate" "$lostm; $lostx" "$bpe" "$cpu"
	done

	printf '\n3. paced, ust-pid (%s threads, 2 s per step): events captured per second, lost\n' "$(nproc)"
	printf '%-16s %-26s %s\n' "calls/s/thread" "Mevents/s (median)" "lost (max)"
	best=0 lossy=
	for rt in $rates; do
		awk '{ if ($2 > 0) printf "%.2f %s\n", $3 / $2 / 1e6, $4 }' "$tmp/paced.$rt" >"$tmp/p.$rt"
		mev=$(cut -d' ' -f1 "$tmp/p.$rt" | median)
		lostx=$(cut -d' ' -f2 "$tmp/p.$rt" | sort -n | tail -n 1)
		printf '%-16s %-26s %s\n' "$rt" "$mev" "$lostx"
		if [ "$lostx" != 0 ]; then lossy=1
		elif [ -z "$lossy" ]; then best=$(echo "$mev" | cut -d' ' -f1)
		fi
	done
	echo "highest rate below the first step that lost events: $best M events/s"
}

trace_cmd() {
	printf '\n4. trace-cmd record\n'
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
}

# Measurement 5: a kernel trace of at least $events events, then ust report.
report_trace() {
	calls=$((events / 2 + 1000))
	for try in 1 2 3; do
		rm -rf "$tmp/trace"
		"$UST" record -o "$tmp/trace" --kernel-all -- "$LOAD" 1 "$calls" \
			>/dev/null 2>"$tmp/err" || true
		got=$(sed -n 's/.*kernel trace .*: \([0-9]*\) events, \([0-9]*\) lost/\1 \2/p' "$tmp/err")
		[ -n "$got" ] || { cat "$tmp/err" >&2; exit 1; }
		kept=${got% *} klost=${got#* }
		[ "$klost" = 0 ] && [ "$kept" -ge "$events" ] && break
	done
	tid=$("$UST" report "$tmp/trace" | awk '$4 == "kernel-load" {print $3; exit}')
	printf '\n5. ust report over a kernel trace: %s events kept, %s lost, %s MiB (%s recording(s))\n' \
		"$kept" "$klost" "$(du -sm "$tmp/trace/kernel" | cut -f1)" "$try"
}

report_args() {
	case $1 in
	default) echo "" ;;
	kernel) echo "--io --net --block --sched --irq --memory" ;;
	thread) echo "--thread $tid" ;;
	csv) echo "--csv --io --sched" ;;
	range) echo "--begin 0.5 --end 1.5 --io --sched" ;;
	esac
}

report_figures() {
	variants="default kernel thread csv range"
	for r in $(seq "$reps"); do
		for v in $variants; do
			# shellcheck disable=SC2046
			/usr/bin/time -f '%e %U %S %M' -o "$tmp/t" "$UST" report $(report_args "$v") \
				"$tmp/trace" >/dev/null
			awk '{printf "%s %.2f %d\n", $1, $2 + $3, $4 / 1024}' "$tmp/t" >>"$tmp/time.$v"
		done
	done
	printf '%-8s %-20s %-20s %-10s %s\n' variant "elapsed s" "CPU s" "MiB peak" "M events/s (CPU)"
	for v in $variants; do
		el=$(cut -d' ' -f1 "$tmp/time.$v" | median)
		cpu=$(cut -d' ' -f2 "$tmp/time.$v" | median)
		mem=$(cut -d' ' -f3 "$tmp/time.$v" | median | cut -d' ' -f1)
		rate=$(echo "$kept ${cpu%% *}" | awk '{ if ($2 > 0) printf "%.1f", $1 / $2 / 1e6 }')
		printf '%-8s %-20s %-20s %-10s %s\n' "$v" "$el" "$cpu" "$mem" "$rate"
	done
	for v in $variants; do
		printf '  %s: ust report %s DIR\n' "$v" "$(report_args "$v")"
	done
}

echo "kernel-run.sh: $reps repetitions; $(nproc) CPUs; $(uname -r); load $(cut -d' ' -f1-3 /proc/loadavg)"
if [ -n "$capture" ]; then
	capture_runs
	capture_figures
	trace_cmd
fi
if [ -n "$report" ]; then
	report_trace
	report_figures
fi
