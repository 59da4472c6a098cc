#!/bin/bash
# bench/relayd.sh - streaming to lttng-relayd, ust against LTTng 2.13, to
# the same relay on loopback, in the same run (bench/README.md, "Streaming
# to lttng-relayd"):
#
#  A. the traced thread's per-event cost (CPU ns per call, one 4-byte
#     int, no context, overwrite mode so that neither disk nor network
#     sets the pace), writing to disk and streaming to the relay: the
#     network sink must not move it;
#  B. the most events/s sustained without loss, 1 and 2 producer
#     threads, discard mode, 4 sub-buffers of 1 MiB per CPU on both
#     sides, to disk and to the relay (binary search, 1 s per try, as
#     run.sh's table 4).
#
#   bench/relayd.sh [--reps N] [BUILD_DIR]
#
# lttng-relayd runs as root on free loopback ports, LTTng as the user
# `ustbench` with its own session daemon (as run.sh).  Everything is
# killed at the end.  SPDX-License-Identifier: GPL-2.0-only
set -eu

REPS=5
N_ENABLED=20000000
WARMUP=1000000
RATE_SECONDS=1
RATE_LO=500000
RATE_HI=64000000
MEAS_CPU=0
HELP_CPU=1
LT_USER=ustbench

. "$(dirname -- "$0")/lib.sh"

while [ $# -gt 0 ]; do
	case $1 in
	--reps) REPS=$2; shift 2 ;;
	-*) bench_other_option "[--reps N] [BUILD_DIR]" "$1" ;;
	*) break ;;
	esac
done
bench_set_build "${1:-}"
UST=$BUILD/cli/ust
UST_BENCH=$BUILD/bench/ust-bench
LT_BENCH_BUILT=$BUILD/bench/lttng-bench
export UST_CONSUMERD=$BUILD/consumer/ust-consumerd BENCH_CPU=$MEAS_CPU
unset UST_TRACE UST_OUTPUT UST_MODE UST_SUBBUF_SIZE UST_SUBBUF_COUNT UST_READ_TIMER_US UST_CONTEXT
command -v lttng-relayd >/dev/null || die "lttng-relayd is needed (apt-get install lttng-tools)"
make -s -C "$BUILD/bench" bench-programs || die "make bench-programs failed"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/ust-rbench.XXXXXX")
chmod 711 "$WORK"
RELAYD_PID= SESSIOND_PID=
cleanup() {
	[ -n "$SESSIOND_PID" ] && kill "$SESSIOND_PID" 2>/dev/null || true
	[ -n "$RELAYD_PID" ] && kill "$RELAYD_PID" 2>/dev/null || true
	rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

# ---- the relay, on three free loopback ports ----
read -r CTRL DATA LIVE < <(/usr/bin/python3 -c '
import socket
s = [socket.socket() for _ in range(3)]
for x in s: x.bind(("127.0.0.1", 0))
print(" ".join(str(x.getsockname()[1]) for x in s))')
mkdir "$WORK/relay"
chmod 777 "$WORK/relay"
taskset -c "$HELP_CPU" lttng-relayd -C "tcp://127.0.0.1:$CTRL" -D "tcp://127.0.0.1:$DATA" \
	-L "tcp://127.0.0.1:$LIVE" -o "$WORK/relay" >"$WORK/relayd.log" 2>&1 &
RELAYD_PID=$!
URL=net://127.0.0.1:$CTRL:$DATA
for _ in $(seq 100); do
	(exec 3<>"/dev/tcp/127.0.0.1/$CTRL") 2>/dev/null && break
	sleep 0.05
done

# ---- LTTng, as the unprivileged user ----
LTW=$WORK/lttng
mkdir "$LTW"
AS_LT=
if [ "$(id -u)" -eq 0 ]; then
	id "$LT_USER" >/dev/null 2>&1 ||
		useradd --system --no-create-home --shell /usr/sbin/nologin "$LT_USER" 2>/dev/null || true
	id "$LT_USER" >/dev/null 2>&1 && AS_LT="runuser -u $LT_USER --" && chown "$LT_USER" "$LTW"
fi
lt() { $AS_LT env LTTNG_HOME="$LTW" HOME="$LTW" "$@"; }
LT_BENCH=
if [ -x "$LT_BENCH_BUILT" ] && command -v lttng-sessiond >/dev/null &&
   lt taskset -c "$HELP_CPU" lttng-sessiond --daemonize >"$WORK/sessiond.log" 2>&1; then
	SESSIOND_PID=$(cat "$LTW/.lttng/lttng-sessiond.pid")
	LT_BENCH=$LTW/lttng-bench
	cp "$LT_BENCH_BUILT" "$LT_BENCH"
	chmod 755 "$LT_BENCH"
else
	note "LTTng not measured: $(cat "$WORK/sessiond.log" 2>/dev/null) (needs lttng-tools, liblttng-ust-dev)"
fi

lttng_q() { lt lttng "$@" >"$WORK/lttng.log" 2>&1 || { cat "$WORK/lttng.log" >&2; return 1; }; }

# lt_session NAME SINK MODE: SINK "disk" or "relay", MODE "--overwrite" or
# "--discard"; 4 x 1 MiB per CPU, per-user buffers, no context.
lt_session() {
	if [ "$2" = relay ]; then
		lttng_q create "$1" --set-url="$URL"
	else
		lttng_q create "$1" -o "$LTW/out-$1"
	fi
	lttng_q enable-channel -u -s "$1" "$3" --subbuf-size 1M --num-subbuf 4 ch
	lttng_q enable-event -u -s "$1" -c ch 'benchlt:*'
	lttng_q start "$1"
}

value() { sed -n "s/^bench=.* $1=\([0-9.]*\).*/\1/p" "$2" | head -n 1; }
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# ust_run SINK MODE ARGS...: ust record to "disk" or to the "relay"
# (MODE: --overwrite, or "" for discard).
ust_run() {
	local relay= mode=$2

	[ "$1" = relay ] && relay=--relayd=$URL
	shift 2
	rm -rf "$WORK/ust-out"
	taskset -c "$HELP_CPU" "$UST" record --context=none $mode -o "$WORK/ust-out" $relay -- \
		"$UST_BENCH" "$@" >"$WORK/out" 2>&1 || { cat "$WORK/out" >&2; die "ust record failed"; }
}

# lt_run SINK MODE ARGS...: LTTng to disk or to the relay; sets LOST.
lt_run() {
	local s=rb$$ sink=$1 mode=$2

	shift 2
	lt_session "$s" "$sink" "$mode" || die "LTTng session set-up failed"
	lt taskset -c "$HELP_CPU" "$LT_BENCH" "$@" >"$WORK/out" 2>&1 || { cat "$WORK/out" >&2; die "lttng-bench failed"; }
	lt lttng stop "$s" >"$WORK/lttng.log" 2>&1 || { cat "$WORK/lttng.log" >&2; die "lttng stop"; }
	LOST=$(sed -n 's/.* \([0-9][0-9]*\) events were discarded.*/\1/p' "$WORK/lttng.log" | head -n 1)
	LOST=${LOST:-0}
	lttng_q destroy "$s"
	rm -rf "$LTW/out-$s"
}

# ---- A. per-event cost ----
echo "A. per-event cost, $N_ENABLED events after $WARMUP, overwrite mode, $REPS repetitions"
for r in $(seq "$REPS"); do
	printf ' %s:' "$r"
	for sink in disk relay; do
		ust_run "$sink" --overwrite loop int "$N_ENABLED" "$WARMUP"
		c=$(value cpu_ns_per_call "$WORK/out")
		echo "$c" >>"$WORK/A.ust.$sink"
		printf ' ust-%s %s' "$sink" "$c"
		if [ -n "$LT_BENCH" ]; then
			lt_run "$sink" --overwrite loop int "$N_ENABLED" "$WARMUP"
			c=$(value cpu_ns_per_call "$WORK/out")
			echo "$c" >>"$WORK/A.lttng.$sink"
			printf ' lttng-%s %s' "$sink" "$c"
		fi
	done
	echo
done

# ---- B. the most events/s without loss ----
# ust_rate_try SINK THREADS RATE: LOST from the summary (ring buffers, and
# what the network dropped); a trace not confirmed stored counts as lost.
ust_rate_try() {
	ust_run "$1" "" rate "$2" "$3" "$RATE_SECONDS"
	LOST=$(sed -n 's/^ust record: .* events written, \([0-9]*\) lost.*/\1/p' "$WORK/out" | head -n 1)
	[ -n "$LOST" ] || { cat "$WORK/out" >&2; die "ust record printed no summary"; }
	! grep -q "not confirmed stored" "$WORK/out" || LOST=unconfirmed
}

lttng_rate_try() { lt_run "$1" --discard rate "$2" "$3" "$RATE_SECONDS"; }

# try TRACER SINK THREADS RATE: 0 when the producers reached 95% of RATE
# and nothing was lost.
try() {
	"$1_rate_try" "$2" "$3" "$4"
	a=$(value achieved_eps "$WORK/out")
	if ! awk -v a="$a" -v r="$4" 'BEGIN { exit !(a >= 0.95 * r) }'; then
		printf ' %s:slow' "$4"
		return 1
	fi
	[ "$LOST" = 0 ] || { printf ' %s:lost%s' "$4" "$LOST"; return 1; }
	printf ' %s:ok' "$4"
}

max_rate() {
	printf 'B. max rate, %s to %s, %s thread(s):' "$1" "$2" "$3"
	lo=$RATE_LO hi=$RATE_HI
	if ! try "$1" "$2" "$3" "$lo"; then
		echo "<$RATE_LO" >"$WORK/B.$1.$2.$3"
		echo
		return 0
	fi
	while awk -v l="$lo" -v h="$hi" 'BEGIN { exit !(h > 1.1 * l) }'; do
		mid=$(awk -v l="$lo" -v h="$hi" 'BEGIN { printf "%d\n", int(sqrt(l * h) / 100000 + 0.5) * 100000 }')
		if try "$1" "$2" "$3" "$mid"; then lo=$mid; else hi=$mid; fi
	done
	echo "$lo" >"$WORK/B.$1.$2.$3"
	echo " => $lo"
}

for threads in 1 2; do
	for sink in disk relay; do
		max_rate ust "$sink" "$threads"
		[ -z "$LT_BENCH" ] || max_rate lttng "$sink" "$threads"
	done
done

# ---- the tables ----
med() { [ -s "$1" ] && median <"$1" || echo "-"; }
echo
echo "| per-event cost, ns (median of $REPS) | ust | LTTng-UST 2.13 | ratio |"
echo "|---|---:|---:|---:|"
for sink in disk relay; do
	u=$(med "$WORK/A.ust.$sink")
	l=$(med "$WORK/A.lttng.$sink")
	echo "| to $sink | $u | $l | $(awk -v u="$u" -v l="$l" 'BEGIN { if (l + 0 > 0) printf "%.2f", u / l; else print "-" }') |"
done
echo
echo "| events/s without loss | ust | LTTng-UST 2.13 | ratio |"
echo "|---|---:|---:|---:|"
for threads in 1 2; do
	for sink in disk relay; do
		u=$(cat "$WORK/B.ust.$sink.$threads" 2>/dev/null || echo -)
		l=$(cat "$WORK/B.lttng.$sink.$threads" 2>/dev/null || echo -)
		echo "| $threads thread(s), to $sink | $u | $l | $(awk -v u="$u" -v l="$l" 'BEGIN { if (l + 0 > 0 && u + 0 > 0) printf "%.2f", u / l; else print "-" }') |"
	done
done
echo
echo "$(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), lttng-relayd $(lttng-relayd --version 2>&1 | head -n 1)"
