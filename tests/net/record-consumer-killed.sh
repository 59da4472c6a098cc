#!/usr/bin/env bash
# record-consumer-killed.sh - `ust record --relayd` when a consumer is
# SIGKILLed (doc/relayd.md, "When a consumer dies"): `ust record` starts
# another on the buffers it kept, and that one writes locally, as the
# relay's fallback does:
#  1. killed while streaming: a new trace in the output directory takes
#     what follows; the summary lists the relay's part as not counted
#     and says the death; no event is in both places, and each thread's
#     last event is in the local trace;
#  2. killed after the relay failed and the trace fell back to a
#     directory: the new consumer resumes that trace (--resume), the one
#     whose env names the relay session, and says so.
# SPDX-License-Identifier: GPL-2.0-only
set -eu
. "$(dirname "$0")/lib.sh"

# Events of each (pid, thread) in babeltrace2's text FILE...: "PID:THREAD:SEQ" lines.
seqs() {
	cat "$@" | sed -n 's/.*(\([0-9]*\)) stress:[a-z]*: .* thread = \([0-9]*\), seq = \([0-9]*\).*/\1:\2:\3/p'
}

# The begun summary of consumer $cpid of the session in $1 has a line $2.
begun_has() {
	grep -Eqx "$2" "$1"/.ust-record-*/".$cpid.summary.tmp" 2>/dev/null
}

# start N DIR: ust record --relayd of 2 threads x N events (30 a ms)
# into DIR; sets $rec, $pid and $cpid once the consumer streams.
start() {
	mkdir "$WORK/$2"
	"$UST" record -o "$WORK/$2" --relayd "net://127.0.0.1:$CTRL:$DATA" --subbuf-size 16K -- \
		"$STRESS" -t 2 -n "$1" -r 30 >"$WORK/$2.out" 2>"$WORK/$2.err" &
	rec=$!
	wait_for 10 "no traced process: $(cat "$WORK/$2.err")" eval 'pid=$(pgrep -P $rec -x stress)'
	wait_for 10 "no consumer of $pid" eval 'cpid=$(consumer_of $pid)'
	wait_for 10 "consumer $cpid does not stream" begun_has "$WORK/$2" 'relay_path=.+'
}

# check DIR RELAY N: no event in both places, the last one of each
# thread (N - 1) in the local trace, which babeltrace2 reads whole.
check() {
	"$BT2" "$WORK/$2" >"$WORK/$1-relay.txt" 2>/dev/null || true
	"$BT2" "$WORK/$1" >"$WORK/$1-local.txt" 2>"$WORK/$1-bt.err" ||
		fail "$1: babeltrace2: $(cat "$WORK/$1-bt.err")"
	[ "$(ls -d "$WORK/$1"/stress-* | wc -l)" = 1 ] || fail "$1: traces: $(ls "$WORK/$1")"
	seqs "$WORK/$1-relay.txt" "$WORK/$1-local.txt" | sort >"$WORK/$1.seqs"
	[ -z "$(uniq -d "$WORK/$1.seqs")" ] || fail "$1: events in both places"
	for th in 0 1; do
		grep -q ":$th:$(($3 - 1))\$" <(seqs "$WORK/$1-local.txt") ||
			fail "$1: thread $th's last event is not in the local trace"
	done
	[ "$(wc -l <"$WORK/$1-relay.txt")" -gt 0 ] || fail "$1: nothing on the relay"
}

# 1. killed while streaming
start_relayd 127.0.0.1 "$WORK/relay1"
start 90000 l1
sleep 0.5
kill -KILL "$cpid"
wait "$rec" || { cat "$WORK/l1.err"; fail "1: ust record exit status $?"; }
cat "$WORK/l1.err"
grep -Eqx "ust record:   [^ ]*/stress-$pid-[0-9-]*  \(not counted\) on net://127.0.0.1:$CTRL:$DATA" \
	"$WORK/l1.err" || fail "1: the relay's part is not listed"
grep -Eqx "ust record:     consumer $cpid killed by SIGKILL while streaming; consumer [0-9]+ went on with the trace in a new directory" \
	"$WORK/l1.err" || fail "1: the death is not said"
grep -Eqx "ust record:   $WORK/l1/stress-$pid-[0-9-]*  \([0-9]+ events, [0-9]+ lost\)" \
	"$WORK/l1.err" || fail "1: no local trace line"
check l1 relay1 90000
stop_relayd "$RELAYD_PID"

# 2. killed after the relay failed: the fallback trace goes on
start_relayd 127.0.0.1 "$WORK/relay2"
start 150000 l2
sleep 0.5
stop_relayd "$RELAYD_PID"
wait_for 10 "consumer $cpid did not fall back" begun_has "$WORK/l2" "dir=$WORK/l2/stress-.*"
sleep 0.3
kill -KILL "$cpid"
wait "$rec" || { cat "$WORK/l2.err"; fail "2: ust record exit status $?"; }
cat "$WORK/l2.err"
grep -Eq "^ust-consumerd: resumed $WORK/l2/stress-$pid-[0-9-]*: [0-9]+ events in [0-9]+ packets already written\$" \
	"$WORK/l2.err" || fail "2: the fallback trace was not resumed"
grep -Eqx "ust record:     consumer $cpid killed by SIGKILL; consumer [0-9]+ went on with the trace \(it had streamed to lttng-relayd, [^ ]*/stress-$pid-[0-9-]*, before\)" \
	"$WORK/l2.err" || fail "2: the death is not said"
check l2 relay2 150000
echo "PASS: a consumer killed while streaming, and after its fallback"
