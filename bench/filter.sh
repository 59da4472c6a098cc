#!/bin/sh
# bench/filter.sh - what a filter costs in the traced thread: ust's
# (compiled by `ust record --filter`, run by libust before the write)
# against LTTng-UST 2.13's (`lttng enable-event --filter`), same events,
# same expressions, side by side in every repetition.  See README.md
# ("Filters").
#
#   bench/filter.sh [--reps N] [--baseline OTHER_BUILD] [BUILD_DIR]
#
# Per-event cost, ns of the traced thread's CPU time per call (loop.h's
# cpu_ns_per_call), 10 M calls after 1 M warm-up, flight-recorder mode
# on both sides (ust `record --overwrite --context=none`, LTTng a
# snapshot session, default channel), the thread pinned to CPU 0 and the
# rest on CPU 1:
#   tick, no filter          the enabled event, recorded
#   tick, value > 10^9       a simple comparison that keeps nothing:
#                            the whole cost of a filtered-out event
#   tick, value > -1         the same comparison keeping everything
#   tick, value < -5 || value > 10^9   two comparisons keeping nothing:
#                            run by ust's interpreter (not a shape it
#                            recognises)
#   text, no filter          a 32-byte string, recorded
#   text, msg == "xyz*"      a glob that fails at the first byte
#   text, msg == "*zz*"      a glob that reads the whole 32 bytes
#   text, msg == "0123*"     a glob that keeps everything
#   tick, rate limit 10^9/s  ust's --rate-limit, never reached (LTTng
#                            has none)
# With --baseline, the "no filter" line is also measured with the
# programs of another build (say the tree before filters existed): an
# event without filter must cost what it did.
#
# SPDX-License-Identifier: GPL-2.0-only
set -eu

REPS=7
N=10000000
WARMUP=1000000
LT_USER=ustbench
BASELINE=

. "$(dirname -- "$0")/lib.sh"

while [ $# -gt 0 ]; do
	case $1 in
	--reps) REPS=$2; shift 2 ;;
	--baseline) BASELINE=$(CDPATH='' cd -- "$2" && pwd) || die "no build '$2'"; shift 2 ;;
	-*) bench_other_option "[--reps N] [--baseline OTHER_BUILD] [BUILD_DIR]" "$1" ;;
	*) break ;;
	esac
done
bench_set_build "${1:-}"
unset UST_TRACE UST_OUTPUT UST_MODE UST_SUBBUF_SIZE UST_SUBBUF_COUNT \
	UST_READ_TIMER_US UST_CONTEXT UST_RATE_LIMIT
export BENCH_CPU=0
HELP_CPU=1
[ "$(nproc)" -ge 2 ] || HELP_CPU=0

for b in "$BUILD" $BASELINE; do
	make -s -C "$b/bench" bench-programs >/dev/null || die "make -C $b/bench bench-programs failed"
done

WORK=$(mktemp -d "${TMPDIR:-/tmp}/ust-filterbench.XXXXXX")
chmod 711 "$WORK"
SESSIOND_PID=
cleanup() {
	[ -z "$SESSIOND_PID" ] || kill "$SESSIOND_PID" 2>/dev/null || true
	rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

# ---- LTTng, as an unprivileged user with its own session daemon ----
. "$SRCDIR/lttng-user.sh"
lt_user_setup
LT_OK=no
if [ -x "$BUILD/bench/lttng-bench" ] && command -v lttng-sessiond >/dev/null &&
   lt taskset -c "$HELP_CPU" lttng-sessiond --daemonize >"$WORK/sessiond.log" 2>&1; then
	SESSIOND_PID=$(cat "$LTW/.lttng/lttng-sessiond.pid" 2>/dev/null || true)
	cp "$BUILD/bench/lttng-bench" "$LTW/"
	chmod 755 "$LTW/lttng-bench"
	LT_OK=yes
	LT_VERSION="LTTng-UST $(pkg-config --modversion lttng-ust 2>/dev/null || echo '?')"
else
	note "LTTng not measured: $(cat "$WORK/sessiond.log" 2>/dev/null) (needs lttng-tools, liblttng-ust-dev)"
fi

# ---- one run: appends the traced thread's ns per call to $WORK/NAME ----
cpu_ns() { sed -n 's/.* cpu_ns_per_call=\([0-9.]*\).*/\1/p' "$WORK/out" | head -n 1; }
keep() {
	v=$(cpu_ns)
	[ -n "$v" ] || { cat "$WORK/out" >&2; die "$1: no result"; }
	echo "$v" >>"$WORK/$1"
	printf ' %s %s' "$1" "$v"
}

# ust NAME BUILD KIND ARGS...: ust record ARGS -- ust-bench loop KIND.
# (The functions' variables are global: u_ and l_ keep them apart.)
ust() {
	u_name=$1 u_b=$2 u_kind=$3
	shift 3
	rm -rf "$WORK/t"
	UST_CONSUMERD=$u_b/consumer/ust-consumerd taskset -c "$HELP_CPU" \
		"$u_b/cli/ust" record --overwrite --context=none -o "$WORK/t" "$@" -- \
		"$u_b/bench/ust-bench" loop "$u_kind" "$N" "$WARMUP" >"$WORK/out" 2>&1 ||
		{ cat "$WORK/out" >&2; die "$u_name: ust record failed"; }
	keep "$u_name"
}

# lttng NAME EVENT KIND [FILTER]: a snapshot session enabling EVENT.
lttng() {
	l_name=$1 l_ev=$2 l_kind=$3 l_expr=${4:-}
	[ $LT_OK = yes ] || return 0
	lt lttng create fs --snapshot -o "$LTW/snap" >"$WORK/lt.log" 2>&1 &&
		lt lttng enable-event -u "$l_ev" ${l_expr:+--filter "$l_expr"} >>"$WORK/lt.log" 2>&1 &&
		lt lttng start >>"$WORK/lt.log" 2>&1 || { cat "$WORK/lt.log" >&2; die "$l_name: lttng set-up"; }
	lt taskset -c "$HELP_CPU" "$LTW/lttng-bench" loop "$l_kind" "$N" "$WARMUP" >"$WORK/out" 2>&1 ||
		{ cat "$WORK/out" >&2; die "$l_name: lttng-bench failed"; }
	lt lttng destroy fs >/dev/null 2>&1 || die "lttng destroy failed"
	rm -rf "$LTW/snap"
	keep "$l_name"
}

# The lines: NAME KIND UST-EVENT LTTNG-EVENT FILTER (- for none).
cat >"$WORK/lines" <<'EOF'
tick int benchust:tick benchlt:tick -
tick_reject int benchust:tick benchlt:tick value > 1000000000
tick_keep int benchust:tick benchlt:tick value > -1
tick_or int benchust:tick benchlt:tick value < -5 || value > 1000000000
text str32 benchust:text benchlt:text -
text_reject str32 benchust:text benchlt:text msg == "xyz*"
text_scan str32 benchust:text benchlt:text msg == "*zz*"
text_keep str32 benchust:text benchlt:text msg == "0123*"
EOF

rep=1
while [ $rep -le "$REPS" ]; do
	printf 'rep %d/%d:' "$rep" "$REPS"
	while read -r name kind uev lev expr; do
		if [ "$expr" = - ]; then
			ust "ust.$name" "$BUILD" "$kind" -e "$uev"
			[ -z "$BASELINE" ] || ust "base.$name" "$BASELINE" "$kind" -e "$uev"
			lttng "lttng.$name" "$lev" "$kind"
		else
			ust "ust.$name" "$BUILD" "$kind" -e "$uev" --filter "$expr"
			lttng "lttng.$name" "$lev" "$kind" "$expr"
		fi
	done <"$WORK/lines"
	ust ust.tick_rate "$BUILD" int -e benchust:tick --rate-limit 'benchust:tick=1000000000/s'
	echo
	rep=$((rep + 1))
done

# ---- the table ----
median() {
	[ -s "$WORK/$1" ] || { echo -; return; }
	sort -g "$WORK/$1" | awk '{ v[NR] = $1 } END {
		printf "%.2f\n", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
spread() {
	[ -s "$WORK/$1" ] || return 0
	sort -g "$WORK/$1" | awk 'NR == 1 { lo = $1 } { hi = $1 } END { printf " (%.2f-%.2f)", lo, hi }'
}
ratio() { echo "$1 $2" | awk '{ if ($1 + 0 > 0 && $2 + 0 > 0) printf "%.1f", $2 / $1; else print "-" }'; }
over() { echo "$1 $2" | awk '{ if ($1 == "-" || $2 == "-") print "-"; else printf "%.2f", $2 - $1 }'; }

echo
echo "Measured $(date -u +%Y-%m-%d) by \`bench/filter.sh\` (ust $(git -C "$SRCDIR" describe --always --dirty 2>/dev/null || echo '?'); ${LT_VERSION:-LTTng not run}),"
echo "$(nproc) CPUs, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1), load $(cut -d' ' -f1-3 /proc/loadavg) at the end."
echo "On-CPU ns per call of the traced thread, medians of $REPS alternating runs (min-max);"
echo "\"over\": minus the same event without filter.  Lower is better."
echo
echo "| event, filter | ust | over | LTTng-UST | over | LTTng/ust |"
echo "|---|---:|---:|---:|---:|---:|"
while read -r name kind uev lev expr; do
	u=$(median "ust.$name") l=$(median "lttng.$name")
	base=${name%%_*}
	uo=$(over "$(median "ust.$base")" "$u") lo=$(over "$(median "lttng.$base")" "$l")
	[ "$expr" != - ] || uo=- lo=-
	label="$kind, $(echo "$expr" | sed 's/^-$/no filter/; s/|/\\|/g')"
	echo "| $label | $u$(spread "ust.$name") | $uo | $l$(spread "lttng.$name") | $lo | $(ratio "$u" "$l") |"
done <"$WORK/lines"
u=$(median ust.tick_rate)
echo "| int, --rate-limit 10^9/s (never reached) | $u$(spread ust.tick_rate) | $(over "$(median ust.tick)" "$u") | - | - | - |"
if [ -n "$BASELINE" ]; then
	b=$(median base.tick) c=$(median base.text)
	echo
	echo "Events without filter, this build against $BASELINE (same runs):"
	echo "int: $(median ust.tick) against $b$(spread base.tick); str32: $(median ust.text) against $c$(spread base.text)."
fi
