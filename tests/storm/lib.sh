# lib.sh - shared set-up of the storm tests (sourced), on top of
# tests/lib/common.sh (WORK, fail, skip, UST, record_env, field,
# consumer_of...).
# SPDX-License-Identifier: GPL-2.0-only
set -eu
. "$top_srcdir/tests/lib/common.sh"

STORM="$top_builddir/tests/storm/storm"
CHECK="$BT2_PYTHON $top_srcdir/tests/storm/storm_check.py"
record_env
: "${STORM_RUNS:=5}" "${STORM_HOSTILE_RUNS:=10}" "${STORM_SCALE:=1}"
# The seed of every random choice; printed, and in every failure, so a
# failure can be replayed with STORM_SEED=N.
: "${STORM_SEED:=$(date +%s)}"
FAIL_SUFFIX=" (STORM_SEED=$STORM_SEED)"

# random I LO HI: the I-th random integer in [LO, HI] of this seed.
random() {
	awk -v seed="$STORM_SEED" -v i="$1" -v lo="$2" -v hi="$3" \
		'BEGIN { srand(seed + 7919 * i); print lo + int(rand() * (hi - lo + 1)) }'
}

# storm_kind I FULL_MS PACED_MS: run I runs at full speed (1 run in 3)
# or paced; sets $kind, and $delay_ms, a kill delay of at most FULL_MS or
# PACED_MS.
storm_kind() {
	if [ $(($1 % 3)) -eq 0 ]; then
		kind=full delay_ms=$(random "$1" 0 "$2")
	else
		kind=paced delay_ms=$(random "$1" 0 "$3")
	fi
}

# storm_started I REC PROGRESS ERR: until the program of run I, that ust
# record REC runs, made its first call; sets $pid.
storm_started() {
	wait_started "$3" || fail "run $1: storm did not start: $(cat "$4")"
	pid=$(storm_pid "$2")
	[ -n "$pid" ] || fail "run $1: storm is gone: $(cat "$4")"
}

# start_crash_run I: run I of a crash storm, in the background: ust
# record of a 4-thread `storm crash` writing its progress, at full speed
# (8 x 64 KiB per CPU, drained every 2 s and at the end) or paced (4 x
# 100 000 events/s, 16 MiB per CPU) by storm_kind (kill delays of 40 and
# 250 ms at most); once its first call returned, sets $run, $rec, $pid,
# and $extra (--no-loss for paced runs).
start_crash_run() {
	storm_kind "$1" 40 250
	run="$WORK/run$1"
	if [ $kind = full ]; then
		extra=
		"$UST" record -o "$run" --subbuf-size 64k --subbuf-count 8 --read-timer 2000000 -- \
			"$STORM" crash -t 4 -p "$run.progress" >/dev/null 2>"$run.err" &
	else
		extra=--no-loss
		"$UST" record -o "$run" --subbuf-size 512k --subbuf-count 32 -- \
			"$STORM" crash -t 4 -r 100 -s -p "$run.progress" >/dev/null 2>"$run.err" &
	fi
	rec=$!
	storm_started "$1" $rec "$run.progress" "$run.err"
}

# wait_killed I: ust record of run I ends with the status of a program
# SIGKILLed, 137.
wait_killed() {
	_st=0
	wait $rec || _st=$?
	[ $_st -eq 137 ] || fail "run $1: ust record exited $_st, want 137: $(cat "$run.err")"
}

# check_crash_run I WHAT: storm_check.py crash on run I (WHAT says how it
# was killed); adds its figures to $total_returned, $total_disk and
# $total_discarded, and removes the run.
check_crash_run() {
	$CHECK crash "$run" "$run.progress" 4 $extra --summary "$run.err" >"$run.check" ||
		fail "run $1 ($kind, $2): $(cat "$run.check")"
	set -- "$1" "$2" $(sed -n 's/^returned \([0-9]*\), on disk \([0-9]*\), discarded \([0-9]*\),.*/\1 \2 \3/p' "$run.check")
	echo "run $1: $kind, $2: returned $3, on disk $4, discarded $5"
	total_returned=$((total_returned + $3))
	total_disk=$((total_disk + $4))
	total_discarded=$((total_discarded + $5))
	rm -rf "$run" "$run.progress"
}

# storm_pid REC: the storm program that ust record REC runs.
storm_pid() { pgrep -P "$1" -x storm || true; }

# wait_started PROGRESS: until the program's first call returned (10 s).
wait_started() {
	n=0
	until [ -s "$1" ] && [ "$(od -An -t u8 -N 8 "$1" | tr -d ' ')" -gt 0 ]; do
		n=$((n + 1))
		[ $n -lt 1000 ] || return 1
		sleep 0.01
	done
}

# wait_begun DIR CPID: until consumer CPID began its summary in the
# summary directory of the session writing under DIR, so that `ust
# record` has seen it (and kept its memfd) before we kill it (10 s).
wait_begun() {
	n=0
	until ls "$1"/.ust-record-*/".$2.summary.tmp" >/dev/null 2>&1; do
		n=$((n + 1))
		[ $n -lt 1000 ] || return 1
		sleep 0.01
	done
	sleep 0.02
}

# sleep_ms MS
sleep_ms() { sleep "$(awk -v ms="$1" 'BEGIN { printf "%.3f", ms / 1000 }')"; }
