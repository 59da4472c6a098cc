#!/usr/bin/env bash
# faults.sh - what the relay client and the viewer say and do when the
# relay is not there, is on another port, dies mid-stream, or stops
# reading (a slow network): one clear message naming the URL, a bounded
# time, never a hang, and what did not leave is counted.
# SPDX-License-Identifier: GPL-2.0-only
set -eu
. "$(dirname "$0")/lib.sh"

T=$(record "$WORK/t" -t 2 -n 20000 -s)

# expect_exit STATUS MAX_SECONDS NAME CMD...: CMD exits with STATUS within
# MAX_SECONDS; its stdout and stderr are in $WORK/NAME.{out,err}.
expect_exit() {
	local want=$1 max=$2 name=$3 start rc=0

	shift 3
	start=$(date +%s%N)
	timeout 60 "$@" >"$WORK/$name.out" 2>"$WORK/$name.err" || rc=$?
	elapsed=$((($(date +%s%N) - start) / 1000000))
	[ "$rc" = "$want" ] || { cat "$WORK/$name.err"; fail "$name: exit $rc, not $want"; }
	[ "$elapsed" -le $((max * 1000)) ] || fail "$name: took $elapsed ms (at most $max s)"
}

same() {
	[ "$(cat "$1")" = "$2" ] || fail "$(basename "$1"): '$(cat "$1")', want '$2'"
}

# 1. Nobody there: connection refused, naming the URL and the port.
read -r P1 P2 P3 < <(free_ports 127.0.0.1)
expect_exit 1 2 refused "$REPLAY" --url "net://127.0.0.1:$P1:$P2" --session s --hostname h "$T"
same "$WORK/refused.err" "relay-replay: lttng-relayd at net://127.0.0.1:$P1:$P2: control port $P1: Connection refused"
expect_exit 1 2 live-refused "$LIVE" --list "net://127.0.0.1:$P3"
same "$WORK/live-refused.err" "relay-live: lttng-relayd live port at net://127.0.0.1:$P3: Connection refused"

# 2. Bad URLs are usage errors, with the column.
expect_exit 2 1 bad-port "$REPLAY" --url "net://127.0.0.1:99999" --session s --hostname h "$T"
same "$WORK/bad-port.err" "relay-replay: invalid URL 'net://127.0.0.1:99999': column 17: port 99999 out of range (1 to 65535)"
expect_exit 2 1 bad-live "$LIVE" --list "net://127.0.0.1:5344/host/x"
same "$WORK/bad-live.err" "relay-live: invalid URL 'net://127.0.0.1:5344/host/x': column 28: missing '/SESSION' after the HOSTNAME"

start_relayd 127.0.0.1 "$WORK/relay"
R1=$RELAYD_PID
URL="net://127.0.0.1:$CTRL:$DATA"

# 3. The data port alone missing.
expect_exit 1 2 no-data "$REPLAY" --url "net://127.0.0.1:$CTRL:$P2" --session s --hostname h "$T"
same "$WORK/no-data.err" "relay-replay: lttng-relayd at net://127.0.0.1:$CTRL:$P2: data port $P2: Connection refused"

# 4. A relay on another port: our control protocol sent to its live port.
expect_exit 1 6 wrong-port "$REPLAY" --url "net://127.0.0.1:$LIVE_PORT:$DATA" --session s --hostname h "$T"
same "$WORK/wrong-port.err" "relay-replay: lttng-relayd at net://127.0.0.1:$LIVE_PORT:$DATA: control connection closed by the relay (during the version handshake)"

# 5. The relay stops reading (SIGSTOP: a network that takes nothing): the
# sender never blocks.  Packets that find the queues full are dropped
# and counted; the end gives up after the timeout and says so.
big=$(record "$WORK/big" -t 2 -n 600000)
"$REPLAY" --url "$URL" --session slow --hostname h --drop-when-full --queue-bytes 65536 \
	--timeout 2000 --start-file "$WORK/go" "$big" >"$WORK/slow.out" 2>"$WORK/slow.err" &
ps=$!
wait_line "$WORK/slow.out" ready
kill -STOP "$R1"
start=$(date +%s)
touch "$WORK/go"
rc=0
wait "$ps" || rc=$?
kill -CONT "$R1"
[ $(($(date +%s) - start)) -le 10 ] || fail "the stopped relay held the sender $(($(date +%s) - start)) s"
[ "$rc" = 3 ] || { cat "$WORK/slow.err"; fail "slow: exit $rc, not 3"; }
same "$WORK/slow.err" "relay-replay: the relay did not confirm everything within 2000 ms"
total=$(count_packets "$big"/ust_*)
read -r sent full < <(sed -n 's/^sent=\([0-9]*\) full=\([0-9]*\) .*/\1 \2/p' "$WORK/slow.out")
[ "$full" -gt 0 ] || fail "slow: nothing was dropped ($(cat "$WORK/slow.out"))"
[ $((sent + full)) = "$total" ] || fail "slow: sent $sent + dropped $full != $total packets"

# 6. The relay killed mid-stream: an error naming the URL, within the
# timeout, and the count of what did not leave.
"$REPLAY" --url "$URL" --session killed --hostname h --pace-ms 5 --timeout 3000 \
	--start-file "$WORK/go" "$T" >"$WORK/killed.out" 2>"$WORK/killed.err" &
pk=$!
wait_line "$WORK/killed.out" ready
sleep 0.3
start=$(date +%s)
stop_relayd "$R1"
rc=0
wait "$pk" || rc=$?
[ $(($(date +%s) - start)) -le 5 ] || fail "the sender took $(($(date +%s) - start)) s to notice"
[ "$rc" = 1 ] || { cat "$WORK/killed.err"; fail "killed: exit $rc, not 1"; }
grep -Eqx "relay-replay: lttng-relayd at $URL: (control|data) connection closed by the relay \(during [a-z ]+\)" \
	"$WORK/killed.err" || fail "killed: $(cat "$WORK/killed.err")"
grep -Eqx "broken: sent=[1-9][0-9]* unsent=[0-9]+ cut=[01]" "$WORK/killed.out" || fail "killed: $(cat "$WORK/killed.out")"

# 7. The viewer when the relay dies under it: an error, not a hang.
start_relayd 127.0.0.1 "$WORK/relay2"
R2=$RELAYD_PID
"$REPLAY" --url "net://127.0.0.1:$CTRL:$DATA" --session lv --hostname h --live 100000 --pace-ms 20 \
	--timeout 3000 "$T" >"$WORK/lv.out" 2>"$WORK/lv.err" &
pl=$!
wait_line "$WORK/lv.out" ready
"$LIVE" --dump "$WORK/mirror" --timeout 3000 "net://127.0.0.1:$LIVE_PORT/host/h/lv" \
	>"$WORK/viewer.out" 2>"$WORK/viewer.err" &
pv=$!
sleep 0.5
stop_relayd "$R2"
start=$(date +%s)
rc=0
wait "$pv" || rc=$?
[ $(($(date +%s) - start)) -le 5 ] || fail "the viewer took $(($(date +%s) - start)) s to notice"
[ "$rc" = 1 ] || fail "viewer: exit $rc, not 1"
grep -Eqx "relay-live: lttng-relayd live port at net://127.0.0.1:$LIVE_PORT: connection closed by the relay \(during [A-Z_]+\)" \
	"$WORK/viewer.err" || fail "viewer: $(cat "$WORK/viewer.err")"
wait "$pl" || true	# the sender of that session fails too (not checked again)
echo "PASS: refused, bad URLs, wrong port, stopped relay ($full of $total packets dropped, none waited for), killed relay"
