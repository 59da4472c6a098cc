#!/bin/sh
# bench/run.sh - per-event cost of ust against LTTng-UST, side by side.
# SPDX-License-Identifier: GPL-2.0-only
#
#   bench/run.sh [--reps N] [--update-readme] [BUILD_DIR]
#
# BUILD_DIR is a configured and built tree (default: ../_build next to
# this directory).  The script builds bench/ust-bench and, when
# `pkg-config lttng-ust` succeeds, bench/lttng-bench there, then measures
# in one run, alternating a ust run and an LTTng run in each repetition:
#
#  1. disabled: the cost of one tracepoint call while nothing traces it
#     (ns per call, N_DISABLED calls);
#  2. enabled: one event with one 4-byte int field, flight-recorder mode
#     on both sides so that disk speed does not count: ust in overwrite
#     mode with its consumer running (`ust record --overwrite`), LTTng in
#     a snapshot session (ns per event, N_ENABLED events);
#  3. bytes on disk per event: a discard-mode trace of N_BYTES events with
#     buffers big enough to lose none (checked by counting the events with
#     babeltrace2), size of the whole trace directory / events.
#
# The traced thread is pinned to CPU 0 (the program does it itself); the
# program is started on CPU 1, so the helpers it starts (ust's consumer,
# LTTng's listener threads) and the LTTng session and consumer daemons
# stay on CPU 1.  It prints medians, min-max, and LTTng/ust.
#
# LTTng runs as the unprivileged user `ustbench` (created with useradd
# when the script runs as root) with its own session daemon and
# LTTNG_HOME in a temporary directory; the daemon is killed at the end.
# When LTTng cannot run, the script says why and measures ust alone.
#
# Nothing is written into the source tree, except with --update-readme,
# which replaces the table between the markers in bench/README.md.

# "a && b || die ...": die exits, whichever of a and b failed.
# shellcheck disable=SC2015
set -eu

REPS=11
N_DISABLED=200000000
N_ENABLED=20000000
N_BYTES=2000000
WARMUP=1000000
MEAS_CPU=0
HELP_CPU=1
LT_USER=ustbench
UPDATE_README=no

usage() {
	echo "usage: $0 [--reps N] [--update-readme] [BUILD_DIR]"
}

die() {
	echo "run.sh: $*" >&2
	exit 1
}

note() {
	echo "run.sh: $*" >&2
}

while [ $# -gt 0 ]; do
	case $1 in
	--reps)
		[ $# -ge 2 ] || { usage >&2; exit 2; }
		REPS=$2
		shift 2 ;;
	--reps=*)
		REPS=${1#--reps=}
		shift ;;
	--update-readme)
		UPDATE_README=yes
		shift ;;
	-h | --help)
		usage
		exit 0 ;;
	--)
		shift
		break ;;
	-*)
		usage >&2
		exit 2 ;;
	*)
		break ;;
	esac
done
[ $# -le 1 ] || { usage >&2; exit 2; }
case $REPS in
'' | *[!0-9]* | 0) die "--reps must be a positive integer" ;;
esac

SRCDIR=$(CDPATH='' cd -- "$(dirname -- "$0")" && pwd)
BUILD=${1:-$SRCDIR/../_build}
[ -d "$BUILD" ] || die "no build directory '$BUILD' (configure and make first, or pass it as an argument)"
BUILD=$(CDPATH='' cd -- "$BUILD" && pwd)

UST=$BUILD/cli/ust
UST_BENCH=$BUILD/bench/ust-bench
LT_BENCH_BUILT=$BUILD/bench/lttng-bench
export UST_CONSUMERD="$BUILD/consumer/ust-consumerd"
unset UST_TRACE UST_OUTPUT UST_MODE UST_SUBBUF_SIZE UST_SUBBUF_COUNT \
	UST_READ_TIMER_US
for f in "$UST" "$UST_CONSUMERD" "$BUILD/tpgen/tpgen"; do
	[ -x "$f" ] || die "$f is missing: run make in $BUILD first"
done
[ -f "$BUILD/libust/libust.la" ] || die "$BUILD/libust/libust.la is missing: run make in $BUILD first"
command -v babeltrace2 >/dev/null || die "babeltrace2 is needed (apt-get install babeltrace2)"

# Two CPUs: one for the traced thread, one for everything else.
NCPU=$(nproc)
if [ "$NCPU" -lt 2 ]; then
	note "only $NCPU CPU: the consumers share the traced thread's CPU"
	HELP_CPU=$MEAS_CPU
fi
export BENCH_CPU=$MEAS_CPU

echo "building the benchmark programs in $BUILD/bench"
make -s -C "$BUILD/bench" bench-programs || die "make bench-programs failed"
[ -x "$UST_BENCH" ] || die "$UST_BENCH was not built"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/ust-bench.XXXXXX")
chmod 711 "$WORK"		# the LTTng user reaches its own subdirectory
SESSIOND_PID=

# alive PID: the process exists and is not a zombie.
alive() {
	[ -r "/proc/$1/stat" ] &&
		[ "$(sed 's/.*) \(.\).*/\1/' "/proc/$1/stat" 2>/dev/null)" != Z ]
}

cleanup() {
	if [ -n "$SESSIOND_PID" ] && kill "$SESSIOND_PID" 2>/dev/null; then
		i=0
		while alive "$SESSIOND_PID" && [ $i -lt 50 ]; do
			sleep 0.1
			i=$((i + 1))
		done
		kill -9 "$SESSIOND_PID" 2>/dev/null || true
	fi
	rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

# ---------------------------------------------------------------------------
# LTTng set-up: LT_WHY says why a part cannot run (empty: it can).

LT_WHY=			# why LTTng cannot run at all
LTD_WHY=		# why LTTng tracing (session daemon) cannot run
LT_BENCH=
AS_LT=
LTW=$WORK/lttng		# LTTNG_HOME and LTTng trace output
LT_VERSION=

if ! pkg-config --exists lttng-ust 2>/dev/null; then
	LT_WHY="pkg-config finds no lttng-ust (apt-get install liblttng-ust-dev)"
elif [ ! -x "$LT_BENCH_BUILT" ]; then
	LT_WHY="$LT_BENCH_BUILT did not build"
fi
if [ -z "$LT_WHY" ]; then
	LT_VERSION="LTTng-UST $(pkg-config --modversion lttng-ust)"
	mkdir "$LTW"
	if [ "$(id -u)" -eq 0 ]; then
		# LTTng is meant to run unprivileged: use a system user.
		if ! id "$LT_USER" >/dev/null 2>&1; then
			useradd --system --no-create-home \
				--shell /usr/sbin/nologin "$LT_USER" \
				>/dev/null 2>&1 || true
		fi
		if id "$LT_USER" >/dev/null 2>&1 && command -v runuser >/dev/null; then
			AS_LT="runuser -u $LT_USER --"
			chown "$LT_USER" "$LTW"
		else
			note "could not create user $LT_USER: LTTng runs as root"
		fi
	fi
	chmod 700 "$LTW"
	LT_BENCH=$LTW/lttng-bench
	cp "$LT_BENCH_BUILT" "$LT_BENCH"
	chmod 755 "$LT_BENCH"
	if ! command -v lttng >/dev/null || ! command -v lttng-sessiond >/dev/null; then
		LTD_WHY="lttng or lttng-sessiond is missing (apt-get install lttng-tools)"
	fi
fi

# Run a command as the LTTng user, with the private LTTNG_HOME.
lt() {
	# shellcheck disable=SC2086
	$AS_LT env LTTNG_HOME="$LTW" HOME="$LTW" "$@"
}

if [ -z "$LT_WHY" ] && [ -z "$LTD_WHY" ]; then
	if lt taskset -c "$HELP_CPU" lttng-sessiond --daemonize >"$WORK/sessiond.log" 2>&1 &&
	   [ -s "$LTW/.lttng/lttng-sessiond.pid" ]; then
		SESSIOND_PID=$(cat "$LTW/.lttng/lttng-sessiond.pid")
		LT_VERSION="$LT_VERSION, $(lttng --version | sed -n '1s/ - .*//p')"
	else
		LTD_WHY="lttng-sessiond did not start: $(tr '\n' ' ' <"$WORK/sessiond.log")"
	fi
fi
[ -z "$LT_WHY" ] || note "LTTng side skipped: $LT_WHY"
[ -z "$LTD_WHY" ] || [ -n "$LT_WHY" ] || note "LTTng tracing skipped: $LTD_WHY"

# Run an lttng command quietly; show its output when it fails.
lttng_q() {
	if ! lt lttng "$@" >"$WORK/lttng.log" 2>&1; then
		cat "$WORK/lttng.log" >&2
		return 1
	fi
}

# ---------------------------------------------------------------------------
# One measurement each.  The program prints one line of key=value pairs
# (see loop.h); the figure kept is ns_per_call.

RES=$WORK/results
mkdir "$RES"

# measure NAME FUNCTION [ARG]: run FUNCTION (it leaves the program's
# output in $WORK/out) and keep its ns_per_call under NAME.  A run whose
# thread got less than 95% of the wall time on its CPU was preempted (by
# anything else running on the machine): it is run again, up to
# MAX_TRIES times in all; if it is still preempted it is kept, marked '*'
# and counted in $RES/preempted.
MAX_TRIES=3
measure() {
	name=$1
	shift
	try=1
	while :; do
		"$@"
		v=$(sed -n 's/^bench=.* ns_per_call=\([0-9.]*\) .*/\1/p' "$WORK/out")
		c=$(sed -n 's/^bench=.* cpu_ns_per_call=\([0-9.]*\).*/\1/p' "$WORK/out")
		if [ -z "$v" ] || [ -z "$c" ]; then
			cat "$WORK/out" >&2
			die "$name: no result"
		fi
		mark=$(echo "$v $c" | awk '{ if ($2 < 0.95 * $1) print "*" }')
		[ -n "$mark" ] && [ $try -lt $MAX_TRIES ] || break
		try=$((try + 1))
	done
	echo "$v" >>"$RES/$name"
	[ -z "$mark" ] || echo "$name" >>"$RES/preempted"
	tries=
	[ $try -eq 1 ] || tries=" ($try tries)"
	printf ' %s %s%s%s' "$name" "$v" "$mark" "$tries"
}

# Disabled: libust linked, no UST_TRACE, no `ust record`.
ust_disabled() {
	taskset -c "$HELP_CPU" "$UST_BENCH" "$N_DISABLED" "$WARMUP" >"$WORK/out" 2>&1 ||
		{ cat "$WORK/out" >&2; die "ust-bench failed"; }
}

# Disabled: the session daemon is up but no session enables the event.
lttng_disabled() {
	lt taskset -c "$HELP_CPU" "$LT_BENCH" "$N_DISABLED" "$WARMUP" >"$WORK/out" 2>&1 ||
		{ cat "$WORK/out" >&2; die "lttng-bench failed"; }
}

# Enabled, overwrite mode, the consumer draining on the other CPU.
ust_enabled() {
	rm -rf "$WORK/ust-ow"
	taskset -c "$HELP_CPU" "$UST" record --overwrite -o "$WORK/ust-ow" -- \
		"$UST_BENCH" "$N_ENABLED" "$WARMUP" >"$WORK/out" 2>&1 ||
		{ cat "$WORK/out" >&2; die "ust record --overwrite failed"; }
	rm -rf "$WORK/ust-ow"
}

# lttng_context NAME SESSION [CHANNEL]: when NAME ends in "vtid", record
# the thread id in every event as ust does (ust's records always carry it).
lttng_context() {
	case $1 in
	*vtid) lttng_q add-context -u -s "$2" -t vtid ${3:+-c "$3"} ;;
	esac
}

# Enabled, snapshot (flight-recorder) session, default channel; with
# the vtid context when the argument is "vtid".
lttng_enabled() {
	s=ustbench-snap-$$
	lttng_q create "$s" --snapshot -o "$LTW/snap" &&
	lttng_q enable-event -u -s "$s" 'benchlt:*' &&
	lttng_context "$1" "$s" &&
	lttng_q start "$s" ||
		die "could not set up the LTTng snapshot session"
	lt taskset -c "$HELP_CPU" "$LT_BENCH" "$N_ENABLED" "$WARMUP" >"$WORK/out" 2>&1 ||
		{ cat "$WORK/out" >&2; die "lttng-bench failed"; }
	lttng_q destroy "$s" || die "lttng destroy failed"
	rm -rf "$LTW/snap"
}

# bytes_result NAME DIR: bytes per event of the trace in DIR, checking
# with babeltrace2 that every one of the N_BYTES events is in it.
bytes_result() {
	events=$(babeltrace2 "$2" 2>"$WORK/bt.log" | wc -l)
	bytes=$(du -sb "$2" | cut -f1)
	if [ "$events" -ne "$N_BYTES" ]; then
		note "$1: babeltrace2 reads $events events, expected $N_BYTES (lost or unreadable)"
		head -n 5 "$WORK/bt.log" >&2
		echo "$events" >"$RES/$1.lost"
	fi
	[ "$events" -gt 0 ] || die "$1: no event in the trace"
	echo "$bytes $events" | awk '{ printf "%.2f\n", $1 / $2 }' >"$RES/$1"
	echo "  $1: $bytes bytes / $events events = $(cat "$RES/$1") bytes/event"
}

ust_bytes() {
	taskset -c "$HELP_CPU" "$UST" record --subbuf-size 4M --subbuf-count 8 \
		-o "$WORK/ust-bytes" -- "$UST_BENCH" "$N_BYTES" 0 \
		>"$WORK/out" 2>&1 ||
		{ cat "$WORK/out" >&2; die "ust record failed"; }
	bytes_result ust.bytes "$WORK/ust-bytes"
	rm -rf "$WORK/ust-bytes"
}

# NAME is lttng.bytes, or lttng.bytes_vtid with the vtid context.
lttng_bytes() {
	s=ustbench-bytes-$$
	lttng_q create "$s" -o "$LTW/bytes" &&
	lttng_q enable-channel -u -s "$s" --subbuf-size 4M --num-subbuf 8 benchch &&
	lttng_q enable-event -u -s "$s" -c benchch 'benchlt:*' &&
	lttng_context "$1" "$s" benchch &&
	lttng_q start "$s" ||
		die "could not set up the LTTng session"
	lt taskset -c "$HELP_CPU" "$LT_BENCH" "$N_BYTES" 0 >"$WORK/out" 2>&1 ||
		{ cat "$WORK/out" >&2; die "lttng-bench failed"; }
	lttng_q stop "$s" && lttng_q destroy "$s" || die "lttng stop/destroy failed"
	bytes_result "$1" "$LTW/bytes"
	rm -rf "$LTW/bytes"
}

# ---------------------------------------------------------------------------

START=$(date +%s)
LT_RUN=no
[ -n "$LT_WHY" ] || LT_RUN=yes
LTD_RUN=no
[ -n "$LT_WHY" ] || [ -n "$LTD_WHY" ] || LTD_RUN=yes

echo "$REPS repetitions; disabled: $N_DISABLED calls, enabled: $N_ENABLED events (after $WARMUP untimed)"
rep=1
while [ $rep -le "$REPS" ]; do
	printf 'rep %d/%d:' "$rep" "$REPS"
	measure ust.disabled ust_disabled
	[ $LT_RUN = no ] || measure lttng.disabled lttng_disabled
	measure ust.enabled ust_enabled
	[ $LTD_RUN = no ] || measure lttng.enabled lttng_enabled plain
	[ $LTD_RUN = no ] || measure lttng.enabled_vtid lttng_enabled vtid
	echo
	rep=$((rep + 1))
done
echo "bytes on disk: $N_BYTES events, 8 sub-buffers of 4 MiB, discard mode"
ust_bytes
[ $LTD_RUN = no ] || lttng_bytes lttng.bytes
[ $LTD_RUN = no ] || lttng_bytes lttng.bytes_vtid

# ---------------------------------------------------------------------------
# The table.

# median NAME: median of the values under NAME ("-" when there are none).
median() {
	[ -s "$RES/$1" ] || { echo -; return; }
	sort -g "$RES/$1" | awk '{ v[NR] = $1 }
		END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		      printf "%.2f\n", m }'
}

# range NAME: "min-max" of the values under NAME.
range() {
	[ -s "$RES/$1" ] || return 0
	sort -g "$RES/$1" | awk 'NR == 1 { lo = $1 } { hi = $1 }
		END { if (NR > 1) printf " (%.2f-%.2f)", lo, hi }'
}

ratio() {
	if [ "$1" = - ] || [ "$2" = - ]; then
		echo -
	else
		echo "$1 $2" | awk '{ if ($1 > 0) printf "%.2f\n", $2 / $1; else print "-" }'
	fi
}

# row LABEL NAME [LTTNG-NAME]: one table row, the medians of ust.NAME and
# lttng.NAME (or lttng.LTTNG-NAME) and their ratio.
row() {
	u=$(median "ust.$2")
	l=$(median "lttng.${3:-$2}")
	ul=
	[ ! -f "$RES/ust.$2.lost" ] || ul=" (events lost!)"
	ll=
	[ ! -f "$RES/lttng.${3:-$2}.lost" ] || ll=" (events lost!)"
	echo "| $1 | $u$(range "ust.$2")$ul | $l$(range "lttng.${3:-$2}")$ll | $(ratio "$u" "$l") |"
}

cpu_model=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
clocksource=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null || echo unknown)
tsc=no
if grep -q '^flags.* constant_tsc' /proc/cpuinfo && grep -q '^flags.* nonstop_tsc' /proc/cpuinfo; then
	tsc=yes
fi
ust_rev=$(git -C "$SRCDIR" describe --always --dirty 2>/dev/null || echo unknown)

TABLE=$WORK/table.md
{
	echo "Measured $(date -u +%Y-%m-%d) by \`bench/run.sh\` (ust $ust_rev; ${LT_VERSION:-LTTng not run})"
	echo "on $NCPU CPUs, $cpu_model, Linux $(uname -r), clocksource $clocksource, invariant TSC: $tsc."
	echo "Medians of $REPS alternating runs, (min-max) in brackets; lower is better."
	echo
	echo "| measurement | ust | LTTng-UST | LTTng/ust |"
	echo "|---|---:|---:|---:|"
	row "1. disabled call (tracing off), ns/call" disabled
	row "2. enabled event, one 4-byte int, flight recorder, ns/event" enabled
	row "2b. the same, LTTng with the vtid context (ust always records the thread id)" enabled enabled_vtid
	row "3. bytes on disk per 4-byte event (discard mode, none lost)" bytes
	row "3b. the same, LTTng with the vtid context" bytes bytes_vtid
} >"$TABLE"
[ ! -s "$RES/preempted" ] && [ -z "$LT_WHY$LTD_WHY" ] || echo >>"$TABLE"
if [ -s "$RES/preempted" ]; then
	echo "Noisy machine: $(wc -l <"$RES/preempted") timed runs were preempted (CPU time under 95% of wall time)." >>"$TABLE"
fi
[ -z "$LT_WHY" ] || echo "LTTng not run: $LT_WHY" >>"$TABLE"
[ -n "$LT_WHY" ] || [ -z "$LTD_WHY" ] || echo "LTTng tracing not run: $LTD_WHY" >>"$TABLE"

echo
cat "$TABLE"
echo
echo "total time: $(( $(date +%s) - START )) s"

if [ $UPDATE_README = yes ]; then
	README=$SRCDIR/README.md
	grep -q '^<!-- bench-table-begin -->$' "$README" &&
	grep -q '^<!-- bench-table-end -->$' "$README" ||
		die "$README has no bench-table markers"
	awk -v table="$TABLE" '
		/^<!-- bench-table-begin -->$/ {
			print
			while ((getline line < table) > 0)
				print line
			skip = 1
			next
		}
		/^<!-- bench-table-end -->$/ { skip = 0 }
		!skip' "$README" >"$WORK/README.md"
	cat "$WORK/README.md" >"$README"
	echo "updated $README"
fi
