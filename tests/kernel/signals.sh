#!/bin/sh
# SIGTERM to ust record goes to CMD; the bridge then drains and removes
# its instance.  SIGKILL to ust record: the bridge (PR_SET_PDEATHSIG)
# still removes its instance.
. "$top_srcdir/tests/kernel/lib.sh"

# The pid of the child of $1 named $2, once there is one (10 s at most).
child_named() {
	for _ in $(seq 100); do
		p=$(pgrep -P "$1" -x "$2" || true)
		[ -n "$p" ] && { echo "$p"; return 0; }
		sleep 0.1
	done
	return 1
}

# CMD runs only once kernel tracing is on: then SIGTERM.
"$UST" record --kernel -o "$WORK/t" -- sleep 30 >/dev/null 2>"$WORK/err" &
rec=$!
child_named $rec sleep >/dev/null || fail "CMD never started: $(cat "$WORK/err")"
kill -TERM $rec
rc=0
wait $rec || rc=$?
[ "$rc" = 143 ] || fail "exit status $rc, not 143 (CMD killed by SIGTERM)"
grep -q 'ust record: kernel trace .*/kernel: [0-9]* events' "$WORK/err" ||
	fail "no kernel summary: $(cat "$WORK/err")"
[ -z "$(stale_instances)" ] || fail "instance left: $(stale_instances)"
babeltrace2 "$WORK/t/kernel" >/dev/null 2>"$WORK/bterr" && [ ! -s "$WORK/bterr" ] ||
	fail "babeltrace2: $(cat "$WORK/bterr")"

# SIGKILL: nobody tells the bridge, the kernel does.
rm -rf "$WORK/t"
"$UST" record --kernel -o "$WORK/t" -- sleep 30 >/dev/null 2>"$WORK/err" &
rec=$!
cmd=$(child_named $rec sleep) || fail "CMD never started: $(cat "$WORK/err")"
kd=$(child_named $rec ust-kerneld) || fail "no ust-kerneld"
kill -KILL $rec
wait $rec || true
kill -TERM "$cmd"
for _ in $(seq 100); do
	[ -d "/proc/$kd" ] || break
	sleep 0.1
done
[ ! -d "/proc/$kd" ] || fail "ust-kerneld $kd still runs"
[ ! -d "/sys/kernel/tracing/instances/ust-$kd" ] || fail "instance ust-$kd left"
babeltrace2 "$WORK/t/kernel" >/dev/null 2>"$WORK/bterr" && [ ! -s "$WORK/bterr" ] ||
	fail "babeltrace2 after SIGKILL: $(cat "$WORK/bterr")"
