#!/bin/bash
# bench/functions.sh - function-tracing slowdown on two programs built with
# -finstrument-functions: SQLite from source (the amalgamation that the
# npm package better-sqlite3 ships) running a CPU-bound in-memory workload
# (functions-sqlite.c), and a call-dense loop (functions-loop.c).  Side by
# side in every round:
#
#   plain       built without -finstrument-functions
#   empty       instrumented, empty hooks preloaded (functions-empty.c)
#   ust         ust record --functions (libust-cyg-profile.so)
#   uftrace     uftrace record
#   lttng       LTTng-UST liblttng-ust-cyg-profile-fast.so, default channel
#   ust-tf      ust record --functions --time-filter=1us   (loop only)
#   uftrace-tf  uftrace record --time-filter=1us           (loop only)
#
# Rounds alternate the order (reversed on even rounds); the tables give
# medians, slowdowns are per-round ratios against the plain run of the
# same round, then their median.  See README.md ("Function tracing").
#
#   bench/functions.sh [--rounds N] [--rows N] [--loops N]
#                      [--only=sqlite|loop] [BUILD_DIR]
#
# SPDX-License-Identifier: GPL-2.0-only
set -eu

ROUNDS=5
ROWS=60000
LOOPS=10000000
ONLY=
LT_USER=ustbench
SQLITE_NPM=better-sqlite3@13.2.0

die() { echo "functions.sh: $*" >&2; exit 1; }
note() { echo "functions.sh: $*" >&2; }

while [ $# -gt 0 ]; do
	case $1 in
	--rounds) ROUNDS=$2; shift 2 ;;
	--rows) ROWS=$2; shift 2 ;;
	--loops) LOOPS=$2; shift 2 ;;
	--only=sqlite | --only=loop) ONLY=${1#--only=}; shift ;;
	-h | --help) echo "usage: $0 [--rounds N] [--rows N] [--loops N] [--only=sqlite|loop] [BUILD_DIR]"; exit 0 ;;
	-*) die "unknown option $1" ;;
	*) break ;;
	esac
done
SRCDIR=$(CDPATH='' cd -- "$(dirname -- "$0")" && pwd)
BUILD=$(CDPATH='' cd -- "${1:-$SRCDIR/../_build}" && pwd) || die "no build directory"
UST=$BUILD/cli/ust
export UST_CONSUMERD=$BUILD/consumer/ust-consumerd
export UST_CYG_PROFILE_LIB=$BUILD/libust/.libs/libust-cyg-profile.so
[ -x "$UST" ] && [ -r "$UST_CYG_PROFILE_LIB" ] || die "build ust in $BUILD first"
unset UST_TRACE UST_OUTPUT UST_MODE UST_SUBBUF_SIZE UST_SUBBUF_COUNT UST_READ_TIMER_US

CACHE=${UST_BENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ust-bench}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/ust-fbench.XXXXXX")
chmod 711 "$WORK"
SESSIOND_PID=
cleanup() {
	[ -n "$SESSIOND_PID" ] && kill "$SESSIOND_PID" 2>/dev/null || true
	rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

# ---- the program, from source ----
SQ=$CACHE/sqlite
if [ ! -r "$SQ/sqlite3.c" ]; then
	note "fetching the SQLite amalgamation ($SQLITE_NPM from npm)"
	mkdir -p "$SQ"
	(cd "$WORK" && npm pack --silent "$SQLITE_NPM" >/dev/null) || die "npm pack $SQLITE_NPM failed"
	tar -xzf "$WORK"/better-sqlite3-*.tgz -C "$WORK" package/deps/sqlite3
	cp "$WORK"/package/deps/sqlite3/sqlite3.[ch] "$SQ"/
fi
DEFS="-DSQLITE_THREADSAFE=0 -DSQLITE_OMIT_LOAD_EXTENSION -DSQLITE_DQS=0"
for v in plain cyg; do
	flags="-O2 -g $DEFS"
	[ $v = cyg ] && flags="$flags -finstrument-functions"
	if [ ! -f "$SQ/sqlite3-$v.o" ]; then
		note "compiling SQLite ($v: $flags), about a minute"
		gcc $flags -c "$SQ/sqlite3.c" -o "$SQ/sqlite3-$v.o"
	fi
	gcc $flags -I"$SQ" "$SRCDIR/functions-sqlite.c" "$SQ/sqlite3-$v.o" -lm -o "$SQ/sq-$v"
done
gcc -O2 -shared -fPIC "$SRCDIR/functions-empty.c" -o "$WORK/libempty.so"
gcc -O2 -g "$SRCDIR/functions-loop.c" -o "$WORK/loop-plain"
gcc -O2 -g -finstrument-functions "$SRCDIR/functions-loop.c" -o "$WORK/loop-cyg"
# Run copies from $WORK: the LTTng user may not reach the cache directory.
cp "$SQ/sq-plain" "$SQ/sq-cyg" "$WORK"/
chmod 755 "$WORK/sq-plain" "$WORK/sq-cyg" "$WORK/loop-plain" "$WORK/loop-cyg"
SQV=$(sed -n 's/^#define SQLITE_VERSION *"\(.*\)"/\1/p' "$SQ/sqlite3.h")

# ---- LTTng, as an unprivileged user with its own session daemon ----
LT_FAST=$(ls /usr/lib/*/liblttng-ust-cyg-profile-fast.so 2>/dev/null | head -n 1 || true)
. "$SRCDIR/lttng-user.sh"
lt_user_setup
LT_OK=no
if [ -n "$LT_FAST" ] && command -v lttng-sessiond >/dev/null &&
   lt lttng-sessiond --daemonize >"$WORK/sessiond.log" 2>&1; then
	SESSIOND_PID=$(cat "$LTW/.lttng/lttng-sessiond.pid" 2>/dev/null || true)
	LT_OK=yes
else
	note "LTTng not measured: $(cat "$WORK/sessiond.log" 2>/dev/null) (needs lttng-tools, liblttng-ust-dev)"
fi
UFT_OK=no
command -v uftrace >/dev/null && UFT_OK=yes || note "uftrace not measured (apt-get install uftrace)"

# ---- one measured run: prints "wall_s cpu_s size_bytes events lost" ----
# wall: the whole command, the tracer's start-up and final flush included;
# cpu: user + system time of the traced program itself (its own report).
# PROG (sq or loop) and ARG name the program of the current table.
now() { date +%s.%N; }
run_ust() {
	t0=$(now)
	"$UST" record --functions "$@" -o "$WORK/out" -- "$WORK/$PROG-cyg" "$ARG" >/dev/null 2>"$WORK/prog.err"
	t1=$(now)
	ev=$(sed -n 's/.* \([0-9]*\) events written, \([0-9]*\) lost.*/\1/p' "$WORK/prog.err" | head -n 1)
	lost=$(sed -n 's/.* \([0-9]*\) events written, \([0-9]*\) lost.*/\2/p' "$WORK/prog.err" | head -n 1)
}
run_uftrace() {
	t0=$(now); uftrace record "$@" -d "$WORK/out/uft" "$WORK/$PROG-cyg" "$ARG" >/dev/null 2>"$WORK/prog.err"; t1=$(now)
	lost=$(uftrace info -d "$WORK/out/uft" 2>/dev/null | sed -n 's/.*lost.*: *\([0-9]*\).*/\1/p' | head -n 1)
	lost=${lost:-0}
}
run() {
	local cfg=$1 t0 t1 size=0 ev=- lost=-
	rm -rf "$WORK/out"
	mkdir -p "$WORK/out"
	case $cfg in
	plain)
		t0=$(now); "$WORK/$PROG-plain" "$ARG" >/dev/null 2>"$WORK/prog.err"; t1=$(now) ;;
	empty)
		t0=$(now); LD_PRELOAD=$WORK/libempty.so "$WORK/$PROG-cyg" "$ARG" >/dev/null 2>"$WORK/prog.err"; t1=$(now) ;;
	ust) run_ust ;;
	ust-tf) run_ust --time-filter=1us ;;
	uftrace) run_uftrace ;;
	uftrace-tf) run_uftrace --time-filter=1us ;;
	lttng)
		chown "$LT_USER" "$WORK/out" 2>/dev/null || true
		lt lttng create fb --output="$WORK/out/lt" >/dev/null 2>>"$WORK/lttng.err"
		lt lttng enable-event -u 'lttng_ust_cyg_profile_fast:*' >/dev/null 2>>"$WORK/lttng.err"
		lt lttng start >/dev/null 2>>"$WORK/lttng.err"
		t0=$(now)
		lt env LD_PRELOAD="$LT_FAST" "$WORK/$PROG-cyg" "$ARG" >/dev/null 2>"$WORK/prog.err"
		t1=$(now)
		lt lttng stop >/dev/null
		lost=$(lt lttng list fb | sed -n 's/.*Discarded events: *\([0-9]*\).*/\1/p' | awk '{s += $1} END {print s + 0}')
		lt lttng destroy fb >/dev/null 2>>"$WORK/lttng.err"
		[ "$(awk '$1 == "cpu"' "$WORK/prog.err")" ] || note "lttng run failed: $(cat "$WORK/prog.err" "$WORK/lttng.err")" ;;
	esac
	size=$(du -sb "$WORK/out" | cut -f1)
	cpu=$(awk '$1 == "cpu" {print $2 + $3; exit}' "$WORK/prog.err")
	echo "$(awk "BEGIN {print $t1 - $t0}") ${cpu:-0} $size $ev $lost"
}

# ---- one table: measure CONFIGS over ROUNDS rounds, then print ----
measure() {
	local r cfg order
	: >"$RES"
	for r in $(seq 1 "$ROUNDS"); do
		order=$CONFIGS
		[ $((r % 2)) = 0 ] && order=$(echo $CONFIGS | tr ' ' '\n' | tac | tr '\n' ' ')
		for cfg in $order; do
			echo "$r $cfg $(run "$cfg")" >>"$RES"
			note "$PROG round $r $cfg: $(tail -n 1 "$RES")"
		done
	done
}

# table TITLE: the hook events are those of ust's full run (written + lost).
table() {
	local events
	events=$(awk '$2 == "ust" && $6 != "-" {print $6 + $7; exit}' "$RES")
	python3 - "$RES" "${events:-0}" "$1" "$ROUNDS" <<'EOF'
import statistics as st, sys
res, events, title, rounds = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
runs = {}
for line in open(res):
    r, cfg, wall, cpu, size, ev, lost = line.split()
    runs.setdefault(cfg, {})[int(r)] = (float(wall), float(cpu), int(size), lost)
plain = runs["plain"]
names = {"plain": "plain -O2 (not instrumented)",
         "empty": "-finstrument-functions, empty hooks preloaded (floor)",
         "ust": "**ust record --functions**",
         "uftrace": "uftrace record",
         "lttng": "LTTng-UST cyg-profile-fast, default channel",
         "ust-tf": "**ust record --functions --time-filter=1us**",
         "uftrace-tf": "uftrace record --time-filter=1us"}
print(f"{title}: {events/1e6:.1f} M hook events per run "
      f"(entries + exits, counted by ust); {rounds} rounds, medians.\n")
print("| config | wall median (min-max) | slowdown (wall) | uftrace / ust (wall) | program CPU median | slowdown (CPU) | extra ns per hook event (CPU) | trace size | bytes per hook event | trace MiB/s | events lost per run |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
for cfg in names:
    if cfg not in runs:
        continue
    rr = runs[cfg]
    walls = [v[0] for v in rr.values()]
    cpus = [v[1] for v in rr.values()]
    ratios = [rr[r][0] / plain[r][0] for r in rr if r in plain]
    cratios = [rr[r][1] / plain[r][1] for r in rr if r in plain]
    # ust's rows against uftrace's row of the same kind, round by round
    peer = runs.get("uftrace-tf" if cfg == "ust-tf" else "uftrace", {})
    vsuft = [peer[r][0] / rr[r][0] for r in rr if r in peer]
    extra = [(rr[r][1] - plain[r][1]) * 1e9 / events for r in rr if r in plain] if events else [0]
    size = st.median([v[2] for v in rr.values()])
    mibs = st.median([v[2] / v[0] / 2**20 for v in rr.values()])
    lost = [v[3] for v in rr.values()]
    traced = size >= 8192
    row = [names[cfg], f"{st.median(walls):.3f} s ({min(walls):.3f}-{max(walls):.3f})",
           "1" if cfg == "plain" else f"{st.median(ratios):.2f}x",
           f"{st.median(vsuft):.2f}x" if cfg.startswith("ust") and vsuft else "-",
           f"{st.median(cpus):.3f} s",
           "1" if cfg == "plain" else f"{st.median(cratios):.2f}x",
           "-" if cfg == "plain" else f"{st.median(extra):.1f}",
           "-" if not traced else (f"{size/2**20:.0f} MiB" if size >= 2**20 else f"{size/2**10:.0f} KiB"),
           "-" if not traced or not events else f"{size/events:.2f}",
           "-" if not traced else f"{mibs:.0f}",
           "-" if lost[0] == "-" else ", ".join(lost)]
    print("| " + " | ".join(row) + " |")
EOF
}

RES=$WORK/results
BASE="plain empty ust"
[ $UFT_OK = yes ] && BASE="$BASE uftrace"
[ $LT_OK = yes ] && BASE="$BASE lttng"
if [ "$ONLY" != loop ]; then
	PROG=sq ARG=$ROWS CONFIGS=$BASE
	measure
	table "SQLite $SQV, functions-sqlite $ROWS"
	echo
fi
if [ "$ONLY" != sqlite ]; then
	PROG=loop ARG=$LOOPS CONFIGS="$BASE ust-tf"
	[ $UFT_OK = yes ] && CONFIGS="$CONFIGS uftrace-tf"
	measure
	table "functions-loop $LOOPS (call-dense loop)"
fi
