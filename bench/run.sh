#!/bin/sh
# bench/run.sh - the benchmark suite: ust against LTTng-UST, side by side.
# SPDX-License-Identifier: GPL-2.0-only
#
#   bench/run.sh [--reps N] [--quick] [--only=LIST] [--update-readme] [BUILD_DIR]
#
# BUILD_DIR is a configured and built tree (default: ../_build next to
# this directory).  The script builds the benchmark programs there (make
# -C BUILD/bench bench-programs: ust-bench, plain-bench, bench-start and,
# when `pkg-config lttng-ust` succeeds, lttng-bench), then measures, ust
# and LTTng alternating in each repetition:
#
#  1. per-event cost (ns per call of the traced thread): the disabled
#     call; an enabled event with one 4-byte int, four 4-byte ints, a
#     32-character string, in flight-recorder mode on both sides (ust
#     `record --overwrite`, LTTng a snapshot session);
#  2. bytes on disk per 4-byte event, discard mode, none lost (checked
#     with babeltrace2);
#  3. npt: the loop latency histogram (min, p50, p99, p99.9, p99.99, max)
#     of a loop that reads the TSC and records one event per iteration;
#  4. the most events/s sustained without loss, 1 and 2 producer
#     threads: binary search on a rate-limited producer (1 s per try);
#  5. start-up: exec to main, exec to exit of a trivial program, untraced
#     and traced;
#  6. the contexts: an enabled 4-byte event with each context that
#     `ust record --context` and `lttng add-context` share (none, vtid,
#     vpid, procname, pthread_id, ip) and with all five;
#  7. printf-style events: ust_tracef() against lttng_ust_tracef(),
#     disabled and enabled, and the formatting alone (snprintf).
# --only=LIST runs only the tables of LIST (numbers, comma-separated);
# the others print "-".
# Each figure is compared like for like: ust with --context=none against
# LTTng's default channel (no context), and ust's default (the thread
# id) against LTTng with the vtid context.  See bench/README.md.
#
# The traced thread is pinned to CPU 0 (the program does it itself); the
# program is started on CPU 1, so the helpers it starts (ust's consumer,
# LTTng's listener threads) and the LTTng session and consumer daemons
# stay on CPU 1.
#
# LTTng runs as the unprivileged user `ustbench` (created with useradd
# when the script runs as root) with its own session daemon and
# LTTNG_HOME in a temporary directory; the daemon is killed at the end,
# also on error or Ctrl-C.  When LTTng cannot run, the script says why
# and measures ust alone.
#
# Nothing is written into the source tree, except with --update-readme,
# which replaces the table between the markers in bench/README.md.

# "a && b || die ...": die exits, whichever of a and b failed.
# shellcheck disable=SC2015
set -eu

REPS=7
N_DISABLED=200000000	# 1. disabled calls
N_ENABLED=20000000	# 1. enabled events per run
N_TRACEF=2000000	# 7. printf-style events per run
ALL_CONTEXTS=vtid,vpid,procname,ip,pthread_id
CONTEXT_ROWS="none vtid vpid procname pthread_id ip all"	# 6.
N_BYTES=2000000		# 2. events per bytes-on-disk trace
N_NPT=10000000		# 3. npt iterations per run
NPT_REPS=3
RATE_SECONDS=1		# 4. length of one try at a rate
START_RUNS=41		# 5. start-ups per configuration
WARMUP=1000000
MEAS_CPU=0
HELP_CPU=1
LT_USER=ustbench
UPDATE_README=no
ONLY=1,2,3,4,5,6,7

usage() {
	echo "usage: $0 [--reps N] [--quick] [--only=LIST] [--update-readme] [BUILD_DIR]"
	echo "  --reps N     repetitions of the per-event costs (default $REPS)"
	echo "  --quick      3 repetitions, 1 npt run, 11 start-ups: a quick look"
	echo "  --only=LIST  only the tables of LIST, e.g. 6,7 (default all: 1-7)"
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
	--quick)
		REPS=3 NPT_REPS=1 START_RUNS=11
		shift ;;
	--update-readme)
		UPDATE_README=yes
		shift ;;
	--only=*)
		ONLY=${1#--only=}
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
case ,$ONLY, in
,, | *[!0-9,]* | *,[!1-7],* | *,[0-9][0-9]*,*) die "--only must list tables from 1 to 7, e.g. 6,7" ;;
esac

# want N: table N is to be measured.
want() {
	case ,$ONLY, in
	*,$1,*) return 0 ;;
	esac
	return 1
}

SRCDIR=$(CDPATH='' cd -- "$(dirname -- "$0")" && pwd)
BUILD=${1:-$SRCDIR/../_build}
[ -d "$BUILD" ] || die "no build directory '$BUILD' (configure and make first, or pass it as an argument)"
BUILD=$(CDPATH='' cd -- "$BUILD" && pwd)

UST=$BUILD/cli/ust
UST_BENCH=$BUILD/bench/ust-bench
PLAIN_BENCH=$BUILD/bench/plain-bench
START_BUILT=$BUILD/bench/bench-start
LT_BENCH_BUILT=$BUILD/bench/lttng-bench
export UST_CONSUMERD="$BUILD/consumer/ust-consumerd"
unset UST_TRACE UST_OUTPUT UST_MODE UST_SUBBUF_SIZE UST_SUBBUF_COUNT \
	UST_READ_TIMER_US UST_CONTEXT
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
for f in "$UST_BENCH" "$PLAIN_BENCH" "$START_BUILT"; do
	[ -x "$f" ] || die "$f was not built"
done

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
	# Copies the LTTng user can run, wherever BUILD is.
	LT_BENCH=$LTW/lttng-bench
	LT_START=$LTW/bench-start
	cp "$LT_BENCH_BUILT" "$LT_BENCH"
	cp "$START_BUILT" "$LT_START"
	chmod 755 "$LT_BENCH" "$LT_START"
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


# Run an lttng command; its output in $WORK/lttng.log, shown on failure.
lttng_out() {
	lt lttng "$@" >"$WORK/lttng.log" 2>&1 || { cat "$WORK/lttng.log" >&2; return 1; }
}

# lttng_session NAME CONTEXTS CHANNEL_OPTIONS [CREATE_OPTIONS...]: create
# and start session NAME enabling $LT_EVENTS (default benchlt:*) in
# channel benchch (made with CHANNEL_OPTIONS, a word list, when not
# empty; else the default channel), with the contexts of CONTEXTS, a
# comma-separated list of `add-context -t` types, or "none".
lttng_session() {
	_s=$1 _ctx=$2 _chan=$3
	shift 3
	_c=
	lttng_q create "$_s" "$@" || return 1
	if [ -n "$_chan" ]; then
		# shellcheck disable=SC2086
		lttng_q enable-channel -u -s "$_s" $_chan benchch || return 1
		_c=benchch
	fi
	lttng_q enable-event -u -s "$_s" ${_c:+-c "$_c"} "${LT_EVENTS:-benchlt:*}" || return 1
	if [ "$_ctx" != none ]; then
		# shellcheck disable=SC2046
		lttng_q add-context -u -s "$_s" $(echo "$_ctx" | sed 's/^/-t /; s/,/ -t /g') \
			${_c:+-c "$_c"} || return 1
	fi
	lttng_q start "$_s"
}

RES=$WORK/results
mkdir "$RES"

# value KEY FILE: the value of KEY=... in the program's result line.
value() {
	sed -n "s/^bench=.* $1=\([0-9.]*\).*/\1/p" "$2" | head -n 1
}

# ---------------------------------------------------------------------------
# 1. Per-event cost.  The figure kept is cpu_ns_per_call (loop.h): the
# traced thread's CPU time per call, alone on its CPU.

# measure NAME FUNCTION [ARGS...]: run FUNCTION (it leaves the program's
# output in $WORK/out) and keep its cpu_ns_per_call under NAME.  A run
# whose thread got less than 95% of the wall time on its CPU was
# preempted (by anything else running on the machine): it is run again,
# up to MAX_TRIES times in all; if it is still preempted it is kept,
# marked '*' and counted in $RES/preempted.
MAX_TRIES=2
measure() {
	name=$1
	shift
	try=1
	while :; do
		"$@"
		v=$(value ns_per_call "$WORK/out")
		c=$(value cpu_ns_per_call "$WORK/out")
		if [ -z "$v" ] || [ -z "$c" ]; then
			cat "$WORK/out" >&2
			die "$name: no result"
		fi
		mark=$(echo "$v $c" | awk '{ if ($2 < 0.95 * $1) print "*" }')
		[ -n "$mark" ] && [ $try -lt $MAX_TRIES ] || break
		try=$((try + 1))
	done
	echo "$c" >>"$RES/$name"
	[ -z "$mark" ] || echo "$name" >>"$RES/preempted"
	tries=
	[ $try -eq 1 ] || tries=" ($try tries)"
	printf ' %s %s%s%s' "$name" "$c" "$mark" "$tries"
}

# events KIND: how many calls an enabled run of KIND makes.
events() {
	if [ "$1" = tracef ]; then echo "$N_TRACEF"; else echo "$N_ENABLED"; fi
}

# Disabled: libust linked, no UST_TRACE, no `ust record`; KIND (default
# int).
ust_disabled() {
	taskset -c "$HELP_CPU" "$UST_BENCH" loop "${1:-int}" "$N_DISABLED" "$WARMUP" >"$WORK/out" 2>&1 ||
		{ cat "$WORK/out" >&2; die "ust-bench failed"; }
}

# Disabled: the session daemon is up but no session enables the event.
lttng_disabled() {
	lt taskset -c "$HELP_CPU" "$LT_BENCH" loop "${1:-int}" "$N_DISABLED" "$WARMUP" >"$WORK/out" 2>&1 ||
		{ cat "$WORK/out" >&2; die "lttng-bench failed"; }
}

# ust_enabled CONTEXT KIND [BUFFERS]: overwrite mode, the consumer
# draining on the other CPU; BUFFERS per-cpu (the default) or per-thread.
ust_enabled() {
	rm -rf "$WORK/ust-ow"
	taskset -c "$HELP_CPU" "$UST" record --context="$1" --overwrite \
		--buffers="${3:-per-cpu}" -o "$WORK/ust-ow" -- \
		"$UST_BENCH" loop "$2" "$(events "$2")" "$WARMUP" >"$WORK/out" 2>&1 ||
		{ cat "$WORK/out" >&2; die "ust record --overwrite failed"; }
	rm -rf "$WORK/ust-ow"
}

# lttng_enabled CONTEXT KIND: a snapshot (flight-recorder) session,
# default channel, with the vtid context when CONTEXT is "vtid".
lttng_enabled() {
	s=ustbench-snap-$$
	lttng_session "$s" "$1" "" --snapshot -o "$LTW/snap" ||
		die "could not set up the LTTng snapshot session"
	lt taskset -c "$HELP_CPU" "$LT_BENCH" loop "$2" "$(events "$2")" "$WARMUP" >"$WORK/out" 2>&1 ||
		{ cat "$WORK/out" >&2; die "lttng-bench failed"; }
	lttng_q destroy "$s" || die "lttng destroy failed"
	rm -rf "$LTW/snap"
}

# The formatting of a printf-style event alone, no tracer.
plain_tracef() {
	taskset -c "$HELP_CPU" "$PLAIN_BENCH" loop tracef "$N_TRACEF" "$WARMUP" >"$WORK/out" 2>&1 ||
		{ cat "$WORK/out" >&2; die "plain-bench failed"; }
}

# lttng_tracef: lttng_ust_tracef:* enabled, default channel, no context.
lttng_tracef() {
	LT_EVENTS='lttng_ust_tracef:*'
	lttng_enabled none tracef
	LT_EVENTS=
}

# ---------------------------------------------------------------------------
# 2. Bytes on disk per event.

# bytes_result NAME DIR: bytes per event of the trace in DIR, checking
# with babeltrace2 that every one of the N_BYTES events is in it.
bytes_result() {
	# The 4-byte events only: with the ip context, ust also describes
	# the loaded objects (lttng_ust_statedump:*, a few kB in all).
	events=$(babeltrace2 "$2" 2>"$WORK/bt.log" | grep -c ':tick: ')
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

# ust_bytes CONTEXT NAME
ust_bytes() {
	taskset -c "$HELP_CPU" "$UST" record --context="$1" --subbuf-size 4M --subbuf-count 8 \
		-o "$WORK/ust-bytes" -- "$UST_BENCH" loop int "$N_BYTES" 0 \
		>"$WORK/out" 2>&1 ||
		{ cat "$WORK/out" >&2; die "ust record failed"; }
	bytes_result "$2" "$WORK/ust-bytes"
	rm -rf "$WORK/ust-bytes"
}

# lttng_bytes CONTEXT NAME
lttng_bytes() {
	s=ustbench-bytes-$$
	lttng_session "$s" "$1" "--subbuf-size 4M --num-subbuf 8" -o "$LTW/bytes" ||
		die "could not set up the LTTng session"
	lt taskset -c "$HELP_CPU" "$LT_BENCH" loop int "$N_BYTES" 0 >"$WORK/out" 2>&1 ||
		{ cat "$WORK/out" >&2; die "lttng-bench failed"; }
	lttng_q stop "$s" && lttng_q destroy "$s" || die "lttng stop/destroy failed"
	bytes_result "$2" "$LTW/bytes"
	rm -rf "$LTW/bytes"
}

# ---------------------------------------------------------------------------
# 3. npt: loop latency quantiles, each kept under npt.TRACER.QUANTILE.

NPT_KEYS="min p50 p99 p999 p9999 max"

npt_keep() {
	for q in $NPT_KEYS; do
		v=$(value "${q}_ns" "$WORK/out")
		[ -n "$v" ] || { cat "$WORK/out" >&2; die "npt $1: no result"; }
		echo "$v" >>"$RES/npt.$1.$q"
	done
	printf ' %s p50 %s p99.99 %s max %s' "$1" "$(value p50_ns "$WORK/out")" \
		"$(value p9999_ns "$WORK/out")" "$(value max_ns "$WORK/out")"
}

npt_plain() {
	taskset -c "$HELP_CPU" "$PLAIN_BENCH" npt "$N_NPT" "$WARMUP" >"$WORK/out" 2>&1 ||
		{ cat "$WORK/out" >&2; die "plain-bench npt failed"; }
	npt_keep plain
}

npt_ust() {
	rm -rf "$WORK/ust-npt"
	taskset -c "$HELP_CPU" "$UST" record --context=none --overwrite -o "$WORK/ust-npt" -- \
		"$UST_BENCH" npt "$N_NPT" "$WARMUP" >"$WORK/out" 2>&1 ||
		{ cat "$WORK/out" >&2; die "ust record (npt) failed"; }
	rm -rf "$WORK/ust-npt"
	npt_keep ust
}

npt_lttng() {
	s=ustbench-npt-$$
	lttng_session "$s" none "" --snapshot -o "$LTW/snap" ||
		die "could not set up the LTTng snapshot session"
	lt taskset -c "$HELP_CPU" "$LT_BENCH" npt "$N_NPT" "$WARMUP" >"$WORK/out" 2>&1 ||
		{ cat "$WORK/out" >&2; die "lttng-bench npt failed"; }
	lttng_q destroy "$s" || die "lttng destroy failed"
	rm -rf "$LTW/snap"
	npt_keep lttng
}

# ---------------------------------------------------------------------------
# 4. The most events/s without loss.  A try at RATE passes when the
# producers reached 95% of RATE and the tracer lost no event.  Both
# tracers use 4 sub-buffers of 1 MiB per CPU (ust's default) in discard
# mode, writing to disk; ust records no context, LTTng its default.

RATE_LO=500000
RATE_HI=64000000

# rate_reached RATE: the producers of the last try reached 95% of RATE.
rate_reached() {
	a=$(value achieved_eps "$WORK/out")
	[ -n "$a" ] || { cat "$WORK/out" >&2; die "rate: no result"; }
	awk -v a="$a" -v r="$1" 'BEGIN { exit !(a >= 0.95 * r) }'
}

# ust_rate THREADS RATE [BUFFERS]: sets LOST.
ust_rate() {
	rm -rf "$WORK/ust-rate"
	taskset -c "$HELP_CPU" "$UST" record --context=none --buffers="${3:-per-cpu}" \
		-o "$WORK/ust-rate" -- \
		"$UST_BENCH" rate "$1" "$2" "$RATE_SECONDS" >"$WORK/out" 2>&1 ||
		{ cat "$WORK/out" >&2; die "ust record (rate) failed"; }
	LOST=$(sed -n 's/^ust record: .* events written, \([0-9]*\) lost.*/\1/p' "$WORK/out" | head -n 1)
	[ -n "$LOST" ] || { cat "$WORK/out" >&2; die "ust record printed no summary"; }
	rm -rf "$WORK/ust-rate"
}

# lttng_rate THREADS RATE: sets LOST, from what `lttng stop` reports
# ("Warning: N events were discarded").
lttng_rate() {
	s=ustbench-rate-$$
	lttng_session "$s" none "--subbuf-size 1M --num-subbuf 4" -o "$LTW/rate" ||
		die "could not set up the LTTng session"
	lt taskset -c "$HELP_CPU" "$LT_BENCH" rate "$1" "$2" "$RATE_SECONDS" >"$WORK/out" 2>&1 ||
		{ cat "$WORK/out" >&2; die "lttng-bench rate failed"; }
	lttng_out stop "$s" || die "lttng stop failed"
	LOST=$(sed -n 's/.* \([0-9][0-9]*\) events were discarded.*/\1/p' "$WORK/lttng.log" | head -n 1)
	LOST=${LOST:-0}
	lttng_q destroy "$s" || die "lttng destroy failed"
	rm -rf "$LTW/rate"
}

# ust_pt_rate THREADS RATE: the same with per-thread buffers.
ust_pt_rate() {
	ust_rate "$1" "$2" per-thread
}

# rate_try TRACER THREADS RATE: 0 when it passes.
rate_try() {
	"$1_rate" "$2" "$3"
	if ! rate_reached "$3"; then
		printf ' %s:slow' "$3"
		return 1
	fi
	[ "$LOST" = 0 ] || { printf ' %s:lost%s' "$3" "$LOST"; return 1; }
	printf ' %s:ok' "$3"
}

# max_rate TRACER THREADS: binary search (on a log scale, to 10%) of the
# highest passing rate in [RATE_LO, RATE_HI]; kept under rate.TRACER.THREADS
# ("<RATE_LO" when even that fails).
max_rate() {
	printf 'max rate, %s, %s thread(s):' "$1" "$2"
	lo=$RATE_LO hi=$RATE_HI
	if ! rate_try "$1" "$2" "$lo"; then
		echo "<$RATE_LO" >"$RES/rate.$1.$2"
		echo
		return 0
	fi
	while awk -v l="$lo" -v h="$hi" 'BEGIN { exit !(h > 1.1 * l) }'; do
		mid=$(awk -v l="$lo" -v h="$hi" 'BEGIN { printf "%d\n", int(sqrt(l * h) / 100000 + 0.5) * 100000 }')
		if rate_try "$1" "$2" "$mid"; then lo=$mid; else hi=$mid; fi
	done
	echo "$lo" >"$RES/rate.$1.$2"
	echo " => $lo"
}

# ---------------------------------------------------------------------------
# 5. Start-up: bench-start's medians, kept under start.NAME.

start_keep() {
	line=$(grep '^runs=' "$WORK/out") || { cat "$WORK/out" >&2; die "start $1: no result"; }
	echo "$line" | sed 's/.* main_us=\([0-9.]*\) .*/\1/' >"$RES/start.$1.main"
	echo "$line" | sed 's/.* exit_us=\([0-9.]*\) .*/\1/' >"$RES/start.$1.exit"
	echo "  $1: $line"
}

start_plain() {
	"$START_BUILT" "$START_RUNS" 20 "$PLAIN_BENCH" start >"$WORK/out" 2>&1 ||
		{ cat "$WORK/out" >&2; die "bench-start failed"; }
	start_keep plain
}

start_ust_off() {
	"$START_BUILT" "$START_RUNS" 20 "$UST_BENCH" start >"$WORK/out" 2>&1 ||
		{ cat "$WORK/out" >&2; die "bench-start failed"; }
	start_keep ust_off
}

# Tracing on: session, shared memory, consumer spawned, trace written.
start_ust_on() {
	mkdir "$WORK/ust-start"
	UST_TRACE='benchust:*' UST_OUTPUT="$WORK/ust-start" \
		"$START_BUILT" "$START_RUNS" 20 "$UST_BENCH" start >"$WORK/out" 2>&1 ||
		{ cat "$WORK/out" >&2; die "bench-start failed"; }
	n=$(find "$WORK/ust-start" -name metadata | wc -l)
	[ "$n" -eq "$START_RUNS" ] || die "start: $n traces written, expected $START_RUNS"
	rm -rf "$WORK/ust-start"
	start_keep ust_on
}

# LTTng: the session daemon runs; with a session enabling benchlt:* when
# the argument is "on".
start_lttng() {
	s=ustbench-start-$$
	if [ "$1" = on ]; then
		lttng_session "$s" none "" -o "$LTW/start" || die "could not set up the LTTng session"
	fi
	lt "$LT_START" "$START_RUNS" 20 "$LT_BENCH" start >"$WORK/out" 2>&1 ||
		{ cat "$WORK/out" >&2; die "bench-start (LTTng) failed"; }
	if [ "$1" = on ]; then
		lttng_q destroy "$s" || die "lttng destroy failed"
		rm -rf "$LTW/start"
	fi
	start_keep "lttng_$1"
}

# ---------------------------------------------------------------------------

START=$(date +%s)
LT_RUN=no
[ -n "$LT_WHY" ] || LT_RUN=yes
LTD_RUN=no
[ -n "$LT_WHY" ] || [ -n "$LTD_WHY" ] || LTD_RUN=yes

# lt_measure NAME FUNCTION [ARGS...]: measure, when LTTng tracing runs.
lt_measure() {
	[ $LTD_RUN = no ] || measure "$@"
}

want 1 && echo "1. per-event cost: $REPS repetitions; disabled: $N_DISABLED calls, enabled: $N_ENABLED events (after $WARMUP untimed)"
rep=1
while want 1 && [ $rep -le "$REPS" ]; do
	printf 'rep %d/%d:' "$rep" "$REPS"
	measure ust.disabled ust_disabled
	[ $LT_RUN = no ] || measure lttng.disabled lttng_disabled
	measure ust.int ust_enabled none int
	lt_measure lttng.int lttng_enabled none int
	measure ust.int_tid ust_enabled tid int
	lt_measure lttng.int_tid lttng_enabled vtid int
	measure ust.int_pt ust_enabled none int per-thread
	measure ust.str32_pt ust_enabled none str32 per-thread
	measure ust.int4 ust_enabled none int4
	lt_measure lttng.int4 lttng_enabled none int4
	measure ust.str32 ust_enabled none str32
	lt_measure lttng.str32 lttng_enabled none str32
	echo
	rep=$((rep + 1))
done

if want 2; then
	echo "2. bytes on disk: $N_BYTES events, 8 sub-buffers of 4 MiB, discard mode"
	ust_bytes none ust.bytes
	[ $LTD_RUN = no ] || lttng_bytes none lttng.bytes
	ust_bytes tid ust.bytes_tid
	[ $LTD_RUN = no ] || lttng_bytes vtid lttng.bytes_tid
	ust_bytes $ALL_CONTEXTS ust.bytes_all
	[ $LTD_RUN = no ] || lttng_bytes $ALL_CONTEXTS lttng.bytes_all
fi

want 3 && echo "3. npt: $NPT_REPS x $N_NPT iterations"
rep=1
while want 3 && [ $rep -le "$NPT_REPS" ]; do
	printf 'rep %d/%d:' "$rep" "$NPT_REPS"
	npt_plain
	npt_ust
	[ $LTD_RUN = no ] || npt_lttng
	echo
	rep=$((rep + 1))
done

if want 4; then
	echo "4. most events/s without loss, $RATE_SECONDS s per try"
	for threads in 1 2; do
		max_rate ust $threads
		max_rate ust_pt $threads
		[ $LTD_RUN = no ] || max_rate lttng $threads
	done
fi

if want 5; then
	echo "5. start-up: $START_RUNS runs each"
	start_plain
	start_ust_off
	start_ust_on
	[ $LTD_RUN = no ] || start_lttng off
	[ $LTD_RUN = no ] || start_lttng on
fi

want 6 && echo "6. contexts: $REPS repetitions, $N_ENABLED events each"
rep=1
while want 6 && [ $rep -le "$REPS" ]; do
	printf 'rep %d/%d:' "$rep" "$REPS"
	for ctx in $CONTEXT_ROWS; do
		list=$ctx
		[ "$ctx" != all ] || list=$ALL_CONTEXTS
		measure "ust.ctx_$ctx" ust_enabled "$list" int
		lt_measure "lttng.ctx_$ctx" lttng_enabled "$list" int
	done
	echo
	rep=$((rep + 1))
done

want 7 && echo "7. printf-style events: $REPS repetitions, $N_TRACEF events each"
rep=1
while want 7 && [ $rep -le "$REPS" ]; do
	printf 'rep %d/%d:' "$rep" "$REPS"
	measure ust.tracef_off ust_disabled tracef
	[ $LT_RUN = no ] || measure lttng.tracef_off lttng_disabled tracef
	measure plain.tracef plain_tracef
	measure ust.tracef ust_enabled none tracef
	lt_measure lttng.tracef lttng_tracef
	echo
	rep=$((rep + 1))
done

# ---------------------------------------------------------------------------
# The tables.

# median NAME [FORMAT]: median of the values under NAME, printed with
# FORMAT (default %.2f); "-" when there are none.
median() {
	[ -s "$RES/$1" ] || { echo -; return; }
	sort -g "$RES/$1" | awk -v f="${2:-%.2f}" '{ v[NR] = $1 }
		END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		      printf f "\n", m }'
}

# range NAME: " (min-max)" of the values under NAME.
range() {
	[ -s "$RES/$1" ] || return 0
	sort -g "$RES/$1" | awk 'NR == 1 { lo = $1 } { hi = $1 }
		END { if (NR > 1) printf " (%.2f-%.2f)", lo, hi }'
}

# ratio A B: B / A, or "-".
ratio() {
	echo "$1 $2" | awk '{ if ($1 + 0 > 0 && $2 + 0 > 0) printf "%.2f\n", $2 / $1; else print "-" }'
}

# row_head: the head of a table of row lines.
row_head() {
	echo "| measurement | ust | LTTng-UST | LTTng/ust |"
	echo "|---|---:|---:|---:|"
}

# row LABEL UST-NAME LTTNG-NAME: medians, ranges and LTTng/ust.
row() {
	u=$(median "$2")
	l=$(median "$3")
	ul=
	[ ! -f "$RES/$2.lost" ] || ul=" (events lost!)"
	ll=
	[ ! -f "$RES/$3.lost" ] || ll=" (events lost!)"
	echo "| $1 | $u$(range "$2")$ul | $l$(range "$3")$ll | $(ratio "$u" "$l") |"
}

# fig NAME: the single value under NAME, or "-".
fig() {
	if [ -s "$RES/$1" ]; then cat "$RES/$1"; else echo -; fi
}

# mega N: N events/s in M events/s ("<0.5" and "-" as they are).
mega() {
	case $1 in
	-) echo - ;;
	'<'*) echo "< $(awk -v r="${1#<}" 'BEGIN { printf "%.1f", r / 1e6 }')" ;;
	*) awk -v r="$1" 'BEGIN { printf "%.1f\n", r / 1e6 }' ;;
	esac
}

# goal LABEL TARGET UST LTTNG MET: one row of the goals table.
goal() {
	echo "| $1 | $2 | $3 | $4 | $5 |"
}

# met EXPR A B: "yes" when awk finds EXPR true of a and b, else "no".
met() {
	echo "$2 $3" | awk "{ a = \$1; b = \$2; if (a == \"-\" || b == \"-\") print \"-\"; else if ($1) print \"yes\"; else print \"no\" }"
}

cpu_model=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
clocksource=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null || echo unknown)
tsc=no
if grep -q '^flags.* constant_tsc' /proc/cpuinfo && grep -q '^flags.* nonstop_tsc' /proc/cpuinfo; then
	tsc=yes
fi
ust_rev=$(git -C "$SRCDIR" describe --always --dirty 2>/dev/null || echo unknown)
load=$(cut -d' ' -f1-3 /proc/loadavg)

TABLE=$WORK/table.md
{
	echo "Measured $(date -u +%Y-%m-%d) by \`bench/run.sh\` (ust $ust_rev; ${LT_VERSION:-LTTng not run})"
	echo "on $NCPU CPUs, $cpu_model, Linux $(uname -r), clocksource $clocksource, invariant TSC: $tsc;"
	echo "load average at the end: $load. Lower is better except in table 4."
	echo
	echo "**1. Per-event cost**, on-CPU ns per call of the traced thread, medians of $REPS"
	echo "alternating runs (min-max). \"none\": \`ust record --context=none\` against LTTng's"
	echo "default channel (no context); \"tid\": ust's default (the thread id) against LTTng"
	echo "with \`add-context -t vtid\`. Flight-recorder mode on both sides."
	echo
	row_head
	row "1. disabled call (tracing off)" ust.disabled lttng.disabled
	row "2. enabled, one 4-byte int, none" ust.int lttng.int
	row "2b. enabled, one 4-byte int, tid / vtid" ust.int_tid lttng.int_tid
	row "2c. enabled, four 4-byte ints, none" ust.int4 lttng.int4
	row "2d. enabled, one 32-character string, none" ust.str32 lttng.str32
	row "2e. per-thread buffers, one 4-byte int (the thread id in the packet) / vtid" ust.int_pt lttng.int_tid
	row "2f. per-thread buffers, one 32-character string / none" ust.str32_pt lttng.str32
	echo
	echo "**2. Bytes on disk per 4-byte event** ($N_BYTES events, discard mode, none lost;"
	echo "trace directory size / events read by babeltrace2)."
	echo
	row_head
	row "3. none (LTTng default channel)" ust.bytes lttng.bytes
	row "3b. tid / vtid" ust.bytes_tid lttng.bytes_tid
	row "3c. all five contexts (table 6)" ust.bytes_all lttng.bytes_all
	echo
	echo "**3. npt loop latency**, ns per iteration (read the TSC, record one 4-byte event),"
	echo "$N_NPT iterations pinned to CPU $MEAS_CPU, consumers on CPU $HELP_CPU, medians of $NPT_REPS runs;"
	echo "ust --context=none in overwrite mode, LTTng default channel in a snapshot session."
	echo
	echo "| quantile | no tracer | ust | LTTng-UST |"
	echo "|---|---:|---:|---:|"
	for q in $NPT_KEYS; do
		case $q in
		p999) label=p99.9 ;;
		p9999) label=p99.99 ;;
		*) label=$q ;;
		esac
		echo "| $label | $(median "npt.plain.$q" %.0f) | $(median "npt.ust.$q" %.0f) | $(median "npt.lttng.$q" %.0f) |"
	done
	echo
	echo "**4. Most events/s without loss** (M events/s, 4-byte events, $RATE_SECONDS s per try, binary"
	echo "search to 10%; 4 x 1 MiB sub-buffers per CPU on both sides, discard mode, to disk;"
	echo "ust --context=none, LTTng default context). Higher is better."
	echo
	echo "| producer threads | ust per-CPU | ust per-thread | LTTng-UST | ust/LTTng (best) |"
	echo "|---|---:|---:|---:|---:|"
	for threads in 1 2; do
		u=$(fig "rate.ust.$threads")
		p=$(fig "rate.ust_pt.$threads")
		l=$(fig "rate.lttng.$threads")
		b=$(echo "$u $p" | awk '{ a = $1 + 0; b = $2 + 0; print (b > a ? b : a) }')
		echo "| $threads | $(mega "$u") | $(mega "$p") | $(mega "$l") | $(ratio "$l" "$b") |"
	done
	echo
	echo "**5. Start-up** of a trivial program (main returns at once), medians of $START_RUNS"
	echo "runs, µs from just before execv() to main's first line and to exit."
	echo
	echo "| program | exec to main | exec to exit | overhead (exit - no tracer's) |"
	echo "|---|---:|---:|---:|"
	pe=$(fig start.plain.exit)
	for c in "plain:no tracer" "ust_off:ust, libust linked, tracing off" \
		 "ust_on:ust, tracing on (UST_TRACE: session, shm, consumer)" \
		 "lttng_off:LTTng-UST linked, session daemon, no session" \
		 "lttng_on:LTTng-UST, a session enabling the events"; do
		n=${c%%:*}
		e=$(fig "start.$n.exit")
		echo "| ${c#*:} | $(fig "start.$n.main") | $e | $(echo "$pe $e" | awk '{ if ($1 == "-" || $2 == "-") print "-"; else printf "%.0f\n", $2 - $1 }') |"
	done
	echo
	echo "**6. Contexts**: on-CPU ns per enabled 4-byte event with each context of"
	echo "\`ust record --context\` and \`lttng add-context -t\` (\"all\": $ALL_CONTEXTS),"
	echo "medians of $REPS alternating runs, flight-recorder mode on both sides as in table 1"
	echo "(none and vtid are its rows 2 and 2b, measured again here for the differences)."
	echo
	echo "| context | ust | LTTng-UST | LTTng/ust |"
	echo "|---|---:|---:|---:|"
	for ctx in $CONTEXT_ROWS; do
		row "$ctx" "ust.ctx_$ctx" "lttng.ctx_$ctx"
	done
	echo
	echo "**7. Printf-style events**: on-CPU ns per call of \`ust_tracef(\"tick %d\", i)\` and"
	echo "\`lttng_ust_tracef(\"tick %d\", i)\`, medians of $REPS runs: disabled ($N_DISABLED calls,"
	echo "tracing off / no session), enabled ($N_TRACEF events, flight-recorder mode, no"
	echo "context), and the formatting alone (snprintf into a stack buffer, no tracer): $(median plain.tracef)$(range plain.tracef) ns."
	echo
	row_head
	row "disabled" ust.tracef_off lttng.tracef_off
	row "enabled" ust.tracef lttng.tracef
	echo
	echo "**Goals** (issue 8)"
	echo
	echo "| goal | target | ust | LTTng-UST | met |"
	echo "|---|---|---:|---:|---|"
	ui=$(median ust.int) li=$(median lttng.int)
	goal "enabled 4-byte event, on-CPU ns (2)" "<= 20 ns, >= 4x cheaper" "$ui" "$li" \
		"$(met 'a <= 20 && b >= 4 * a' "$ui" "$li")"
	ub=$(median ust.bytes) lb=$(median lttng.bytes)
	goal "bytes per 4-byte event (3)" "<= 8" "$ub" "$lb" "$(met 'a <= 8.05' "$ub" "$lb")"
	un=$(median npt.ust.p9999) ln=$(median npt.lttng.p9999)
	goal "npt p99.99, ns" "<= 1000" "$un" "$ln" "$(met 'a <= 1000' "$un" "$ln")"
	ur=$(fig rate.ust.1) lr=$(fig rate.lttng.1)
	goal "events/s without loss, 1 producer, M/s" ">= 20" "$(mega "$ur")" "$(mega "$lr")" \
		"$(met 'a >= 20000000' "$(echo "$ur" | tr -d '<')" "$(echo "$lr" | tr -d '<')")"
	up=$(median ust.int_pt)
	goal "per-thread buffers, enabled 4-byte event, on-CPU ns (2e; issue 20)" "<= 10 ns" "$up" "$(median lttng.int_tid)" \
		"$(met 'a <= 10' "$up" 0)"
	ur2=$(fig rate.ust.2) up2=$(fig rate.ust_pt.2) lr2=$(fig rate.lttng.2)
	best2=$(echo "$ur2 $up2" | tr -d '<' | awk '{ a = $1 + 0; b = $2 + 0; print (b > a ? b : a) }')
	goal "events/s without loss, 2 producers, M/s (issue 20)" ">= 40" "$(mega "$best2")" "$(mega "$lr2")" \
		"$(met 'a >= 40000000' "$best2" 0)"
	us=$(fig start.ust_on.exit) ls=$(fig start.lttng_on.exit)
	goal "start-up overhead, µs (exit, over no tracer)" "<= 1000" \
		"$(echo "$pe $us" | awk '{ if ($1 == "-" || $2 == "-") print "-"; else printf "%.0f\n", $2 - $1 }')" \
		"$(echo "$pe $ls" | awk '{ if ($1 == "-" || $2 == "-") print "-"; else printf "%.0f\n", $2 - $1 }')" \
		"$(met 'a - b <= 1000' "$us" "$pe")"
} >"$TABLE"
[ ! -s "$RES/preempted" ] && [ -z "$LT_WHY$LTD_WHY" ] || echo >>"$TABLE"
if [ -s "$RES/preempted" ]; then
	echo "Noisy machine: $(wc -l <"$RES/preempted") timed runs of tables 1, 6 and 7 were preempted (CPU time under 95% of wall time)." >>"$TABLE"
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
