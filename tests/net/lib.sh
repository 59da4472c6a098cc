# lib.sh - shared set-up of the relay tests (sourced, bash), on top of
# tests/lib/common.sh (WORK, fail, skip, UST, record_env...): a real
# lttng-relayd on free loopback ports, local traces recorded by `ust
# record`, and the comparisons.
# SPDX-License-Identifier: GPL-2.0-only
set -eu
. "$top_srcdir/tests/lib/common.sh"

STRESS="$top_builddir/tests/integration/stress"
REPLAY="$top_builddir/tests/net/relay-replay"
LIVE="$top_builddir/tests/net/relay-live"
BT2="${BABELTRACE2:-babeltrace2}"
PY=$BT2_PYTHON
record_env

RELAYD_PIDS=
WATCHDOG_PIDS=
stop_all_relayds() {
	local p

	for p in $RELAYD_PIDS; do
		kill -CONT "$p" 2>/dev/null || true
		kill -KILL "$p" 2>/dev/null || true
		wait "$p" 2>/dev/null || true
	done
	for p in $WATCHDOG_PIDS; do
		pkill -P "$p" sleep 2>/dev/null || true	# its sleep, then itself
		kill "$p" 2>/dev/null || true
	done
}
on_exit stop_all_relayds

command -v lttng-relayd >/dev/null || skip "lttng-relayd is not installed (Debian: lttng-tools)"
command -v "$BT2" >/dev/null || skip "babeltrace2 is not installed"
[ -x "$STRESS" ] || make -C "$top_builddir/tests/integration" stress >/dev/null

# Three free TCP ports on ADDR ("127.0.0.1" or "::1"), printed on one line.
free_ports() {
	"$PY" - "$1" <<'PY'
import socket, sys
fam = socket.AF_INET6 if ":" in sys.argv[1] else socket.AF_INET
socks = []
for _ in range(3):
    s = socket.socket(fam, socket.SOCK_STREAM)
    s.bind((sys.argv[1], 0))
    socks.append(s)
print(" ".join(str(s.getsockname()[1]) for s in socks))
PY
}

# Is something listening on ADDR PORT?
listening() {
	"$PY" - "$1" "$2" <<'PY'
import socket, sys
fam = socket.AF_INET6 if ":" in sys.argv[1] else socket.AF_INET
s = socket.socket(fam, socket.SOCK_STREAM)
s.settimeout(0.5)
sys.exit(0 if s.connect_ex((sys.argv[1], int(sys.argv[2]))) == 0 else 1)
PY
}

# start_relayd ADDR OUTDIR [EXTRA_ARGS...]: lttng-relayd on three free ports
# of ADDR, in the background, killed after 300 s by a watchdog if the test
# has not stopped it.  Sets RELAYD_PID (lttng-relayd itself, so that
# signals reach it), CTRL, DATA, LIVE_PORT.  Its messages go to OUTDIR.log.
# A port found free may be taken before lttng-relayd binds it (by another
# test run on the machine that was handed the same free port): then it
# exits saying "Address already in use", and new ports are tried (5 times
# at most).
start_relayd() {
	local addr=$1 out=$2 attempt
	shift 2

	for attempt in 1 2 3 4 5; do
		relayd_try "$addr" "$out" "$@" && return 0
		grep -q 'Address already in use' "$out.log" || break
	done
	cat "$out.log"
	fail "lttng-relayd did not start on $addr ports $CTRL $DATA $LIVE_PORT"
}

# relayd_try ADDR OUTDIR [EXTRA_ARGS...]: one start of start_relayd; fails
# when lttng-relayd exits or does not listen within 5 s.
relayd_try() {
	local addr=$1 out=$2 scheme=tcp host=$1 tries
	shift 2

	case $addr in *:*) scheme=tcp6; host="[$addr]" ;; esac
	read -r CTRL DATA LIVE_PORT < <(free_ports "$addr")
	mkdir -p "$out"
	lttng-relayd -C "$scheme://$host:$CTRL" -D "$scheme://$host:$DATA" \
		-L "$scheme://$host:$LIVE_PORT" -o "$out" "$@" >"$out.log" 2>&1 &
	RELAYD_PID=$!
	RELAYD_PIDS="$RELAYD_PIDS $RELAYD_PID"
	(sleep 300; kill -KILL "$RELAYD_PID") >/dev/null 2>&1 &
	WATCHDOG_PIDS="$WATCHDOG_PIDS $!"
	for tries in $(seq 100); do
		if listening "$addr" "$CTRL" && listening "$addr" "$DATA" &&
		   listening "$addr" "$LIVE_PORT"; then
			return 0
		fi
		kill -0 "$RELAYD_PID" 2>/dev/null || break
		sleep 0.05
	done
	stop_relayd "$RELAYD_PID"
	return 1
}

stop_relayd() {
	kill -KILL "$1" 2>/dev/null || true
	wait "$1" 2>/dev/null || true
}

# record DIR ARGS...: a local trace of `stress ARGS` under DIR (4 KiB
# packets, so that there are many); prints the trace directory.
record() {
	local dir=$1
	shift
	"$UST" record -o "$dir" --blocking --subbuf-size 4K -- "$STRESS" "$@" \
		>"$dir.out" 2>"$dir.err" || { cat "$dir.err"; fail "ust record $*"; }
	ls -d "$dir"/*/ | tail -n 1 | sed 's#/$##'
}

# Packets in a stream file (our packets: 84-byte header, packet_size at 68).
count_packets() {
	"$PY" - "$@" <<'PY'
import struct, sys
n = 0
for path in sys.argv[1:]:
    data = open(path, "rb").read()
    at = 0
    while at < len(data):
        size = struct.unpack_from("<Q", data, at + 68)[0] // 8
        at += size
        n += 1
print(n)
PY
}

# babeltrace2's text for TRACES..., with the paths of the stream names and
# the trace names (which name where the trace lies) taken out of the
# warnings: what must be identical between a local trace and its copy.
bt2_text() {
	local err=$WORK/.bt2.err

	"$BT2" --clock-gmt "$@" 2>"$err" || echo "babeltrace2 failed: $?"
	echo "---- stderr"
	sed -E 's/in trace "[^"]*"/in trace "T"/; s/within stream "[^"]*"/within stream "S"/' "$err"
}

# The value of KEY in "KEY=VALUE" lines of FILE.
value() { sed -n "s/^$1=//p" "$2" | head -n 1; }

# Wait until FILE holds a line LINE (up to 10 s).
wait_line() {
	local tries

	for tries in $(seq 200); do
		grep -qx "$2" "$1" 2>/dev/null && return 0
		sleep 0.05
	done
	cat "$1"
	fail "no line '$2' in $1"
}

# Wait (up to 10 s) for a consumer's summary in DIR: its trace is finished.
wait_summary() {
	local tries

	for tries in $(seq 100); do
		ls "$1"/*.summary >/dev/null 2>&1 && return 0
		sleep 0.1
	done
	fail "no summary in $1 within 10 s"
}
