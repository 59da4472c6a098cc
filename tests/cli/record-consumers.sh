#!/bin/sh
# ust record waits for the consumers that CMD leaves behind and prints
# their summaries; it does not wait for other leftover processes.
#
# The consumers here are stand-ins: a script named ust-consumerd (the
# kernel names a script's process after the script) that writes a
# summary file as the real one does, after a delay.  start-consumer runs
# one in the background and returns once it runs under that name, as
# posix_spawn does for libust (a forked child is still named "sh" until
# it has called exec).
. "$srcdir/lib.sh"

mkdir "$WORK/bin"
cat >"$WORK/bin/ust-consumerd" <<'SCRIPT'
#!/bin/sh
# ust-consumerd NAME EVENTS LOST BYTES [DROPPED [ERROR...]]
name=$1 events=$2 lost=$3 bytes=$4 dropped=${5:-0}
shift 4; [ $# -gt 0 ] && shift
: >"$STARTED/$$"
sleep "${FAKE_DELAY:-0.5}"
{
	echo "dir=$UST_OUTPUT/$name"
	echo "events=$events"
	echo "lost=$lost"
	echo "packets=1"
	echo "packets_dropped=$dropped"
	echo "bytes=$bytes"
	echo "future_key=ignored"
	for e in "$@"; do echo "error=$e"; done
} >"$UST_SUMMARY_DIR/.$name.tmp"
mv "$UST_SUMMARY_DIR/.$name.tmp" "$UST_SUMMARY_DIR/$name.summary"
SCRIPT
cat >"$WORK/bin/start-consumer" <<'SCRIPT'
#!/bin/sh
ust-consumerd "$@" &
i=0
while [ ! -e "$STARTED/$!" ] && [ $i -lt 1000 ]; do
	sleep 0.01
	i=$((i + 1))
done
SCRIPT
chmod +x "$WORK/bin/ust-consumerd" "$WORK/bin/start-consumer"
mkdir "$WORK/started"
STARTED=$WORK/started
PATH=$WORK/bin:$PATH
export PATH STARTED

out_dir=$WORK/out
mkdir "$out_dir"
abs=$(cd "$out_dir" && pwd -P)

# Two consumers, reparented to ust record when CMD exits; CMD's status.
run "$UST" record -o "$out_dir" -- sh -c \
	'start-consumer app-2 1000 0 12476416; start-consumer app-1 1 0 512; exit 4'
expect_rc 4
expect_err "ust record: 2 traces, 1001 events written, 0 lost, 11.9 MiB
ust record:   $abs/app-1  (1 event, 0 lost)
ust record:   $abs/app-2  (1000 events, 0 lost)"

# A consumer two generations down (its parent exits first).
run "$UST" record -o "$out_dir" -- sh -c '(start-consumer app 5 0 2048); exit 0'
expect_rc 0
expect_err "ust record: 1 trace, 5 events written, 0 lost, 2.0 KiB
ust record:   $abs/app  (5 events, 0 lost)"

# Losses, dropped packets and errors; the hint in discard mode only.
run "$UST" record -o "$out_dir" -- sh -c \
	'start-consumer app 10 7 100 2 "disk full" "cannot write metadata"'
expect_rc 1	# CMD exited 0, but its tracing failed
expect_err "ust record: 1 trace, 10 events written, 7 lost, 100 B, 2 packets dropped
ust record:   $abs/app  (10 events, 7 lost, 2 packets dropped)
ust record: error: $abs/app: disk full; cannot write metadata
ust record: 7 events were lost: the buffers filled up; raise --subbuf-size or --subbuf-count"
run "$UST" record -o "$out_dir" --overwrite -- sh -c \
	'start-consumer app 10 7 100'
expect_err "ust record: 1 trace, 10 events written, 7 lost, 100 B
ust record:   $abs/app  (10 events, 7 lost)"

# A leftover process that is not a consumer is not waited for.
run "$UST" record -o "$out_dir" -- sh -c \
	"sleep 30 </dev/null >/dev/null 2>&1 & echo \$! >'$WORK/sleeper'"
expect_rc 0
expect_err "$(no_trace sh)"
sleeper=$(cat "$WORK/sleeper")
kill -0 "$sleeper" 2>/dev/null || fail "ust record waited for a non-consumer"
kill "$sleeper"

# Nothing left in the output directory but what consumers would write.
left=$(ls -A "$out_dir")
[ -z "$left" ] || fail "left in the output directory: $left"
exit 0
