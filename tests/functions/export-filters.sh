#!/bin/sh
# ust export --tid, --min-duration, --begin/--end and the size check:
# exactly the calls each keeps (chrome: complete events, nested; folded:
# counts), and a chrome file too large for trace viewers refused with
# what would narrow it, unless --force.
. "$top_srcdir/tests/functions/lib.sh"

PY=/usr/bin/python3
CHROME_CALLS="$PY $top_srcdir/tests/functions/chrome_calls.py"
calls() {	# FILE FUNC: calls of FUNC in chrome_calls.py's lines
	awk -v f="$2" '$3 == f { s += $4 } END { print s + 0 }' "$1"
}

# 50 slow() calls of 1 ms, each after 100 quick leaf() calls.  A leaf()
# preempted for 500 us would count as slow below: on a machine that busy,
# record again (up to 5 times).
long_leaves() {	# DIR: leaf() calls of 500 us or more
	"$UST" export --format=chrome -o "$WORK/all.json" "$1" || fail "chrome"
	$PY - "$WORK/all.json" <<'PY'
import json, sys
print(sum(1 for e in json.load(open(sys.argv[1]))["traceEvents"]
          if e.get("name") == "leaf" and e.get("dur", 0) >= 500))
PY
}
try=1
while :; do
	rm -rf "$WORK/t"
	record "$WORK/t" "$CALLS" timed 50 1000
	dir=$(trace_dir "$WORK/t" calls)
	[ "$(long_leaves "$dir")" = 0 ] && break
	[ $try -lt 5 ] || skip "a leaf() call lasted 500 us in 5 recordings: the machine is too busy"
	try=$((try + 1))
done
pid=${dir#"$WORK/t/calls-"}
pid=${pid%%-*}

# --tid: the one thread, or nothing at all.
"$UST" export --format=chrome --tid "$pid" -o "$WORK/tid.json" "$dir" || fail "--tid"
$CHROME_CALLS "$WORK/tid.json" >"$WORK/pairs" || fail "chrome: $(cat "$WORK/pairs")"
[ "$(calls "$WORK/pairs" slow)" = 50 ] && [ "$(calls "$WORK/pairs" leaf)" = 5150 ] ||
	fail "--tid $pid: $(cat "$WORK/pairs")"
"$UST" export --format=chrome --tid 1 -o "$WORK/none.json" "$dir" || fail "--tid 1"
$CHROME_CALLS "$WORK/none.json" >"$WORK/pairs" || fail "chrome: $(cat "$WORK/pairs")"
[ ! -s "$WORK/pairs" ] || fail "--tid 1: $(cat "$WORK/pairs")"

# --min-duration=500us: the slow calls and their callers, no leaf; the
# same in folded, where each stack counts the calls kept.
"$UST" export --format=chrome --min-duration=500us -o "$WORK/min.json" "$dir" ||
	fail "--min-duration"
$CHROME_CALLS "$WORK/min.json" >"$WORK/pairs" || fail "chrome: $(cat "$WORK/pairs")"
[ "$(tr '\n' , <"$WORK/pairs")" = \
  "$pid $pid main 1,$pid $pid run_timed 1,$pid $pid slow 50," ] ||
	fail "chrome --min-duration: $(cat "$WORK/pairs")"
grep -q '"ph":"i"' "$WORK/min.json" && fail "instant events with --min-duration"
"$UST" export --format=folded --min-duration=500us "$dir" >"$WORK/folded" || fail "folded"
expect "$WORK/folded" "calls-$pid;$pid;main;run_timed;slow 50"
[ "$(wc -l <"$WORK/folded")" = 3 ] || fail "folded --min-duration: $(cat "$WORK/folded")"

# --begin/--end: the slow calls overlapping a window from the start of
# the 10th to the end of the 20th (times from the csv export, in ns;
# all.json: the whole export, long_leaves()).
first=$("$UST" export --format=csv "$dir" | sed -n '2s/,.*//p')
win=$($PY - "$WORK/all.json" "$first" <<'PY'
import json, sys
ev = [e for e in json.load(open(sys.argv[1]))["traceEvents"] if e.get("name") == "slow"]
ev.sort(key=lambda e: e["ts"])
first = int(sys.argv[2])
b = first + round(ev[9]["ts"] * 1000)
e = first + round((ev[19]["ts"] + ev[19]["dur"]) * 1000)
print("%d.%09d %d.%09d" % (b // 10**9, b % 10**9, e // 10**9, e % 10**9))
PY
)
set -- $win
"$UST" export --format=chrome --begin "$1" --end "$2" -o "$WORK/win.json" "$dir" ||
	fail "--begin $1 --end $2"
$CHROME_CALLS "$WORK/win.json" >"$WORK/pairs" || fail "chrome: $(cat "$WORK/pairs")"
[ "$(calls "$WORK/pairs" slow)" = 11 ] && [ "$(calls "$WORK/pairs" main)" = 1 ] ||
	fail "window: $(cat "$WORK/pairs")"
# every slice inside the window (main's and run_timed's cut to it)
$PY - "$WORK/win.json" "$first" "$1" "$2" <<'PY' || fail "a slice outside the window"
import json, sys
first = int(sys.argv[2])
b, e = (int(x.replace(".", "")) for x in sys.argv[3:5])
for ev in json.load(open(sys.argv[1]))["traceEvents"]:
    if ev.get("ph") == "X":
        s = first + round(ev["ts"] * 1000)
        if s < b or s + round(ev["dur"] * 1000) > e:
            sys.exit(1)
PY

# Errors of the options.
"$UST" export --format=csv --min-duration=1us "$dir" >/dev/null 2>"$WORK/err" &&
	fail "--min-duration with csv accepted"
expect "$WORK/err" "ust export: --min-duration applies to chrome and folded, not csv"
"$UST" export --format=chrome --tid x "$dir" >/dev/null 2>"$WORK/err" && fail "--tid x"
expect "$WORK/err" "ust export: invalid --tid 'x': a thread id"
"$UST" export --format=chrome --begin noon "$dir" >/dev/null 2>"$WORK/err" && fail "--begin noon"
expect "$WORK/err" "ust export: bad time 'noon' (see 'ust export --help')"

# Too large for the viewers: fib(31), 4.3 M calls, about 390 MiB of JSON.
record "$WORK/big" "$CALLS" counts 31 1
big=$(trace_dir "$WORK/big" calls)
st=0
"$UST" export --format=chrome -o "$WORK/big.json" "$big" 2>"$WORK/err" || st=$?
[ "$st" = 1 ] || fail "a huge chrome export: exit $st: $(cat "$WORK/err")"
grep -qE '^ust export: the chrome output would be [0-9.]+ MiB, more than Perfetto and chrome://tracing open \(about 256 MiB\): narrow it with --begin/--end, --tid or --min-duration, or write it anyway with --force$' \
	"$WORK/err" || fail "huge: $(cat "$WORK/err")"
[ ! -e "$WORK/big.json" ] || fail "a huge chrome file written"
"$UST" export --format=chrome --force -o /dev/null "$big" 2>"$WORK/err" ||
	fail "--force: $(cat "$WORK/err")"
grep -qE '^ust export: writing [0-9.]+ MiB of chrome$' "$WORK/err" || fail "--force: $(cat "$WORK/err")"
# Narrowed by --min-duration, it is small enough to write at once.
"$UST" export --format=chrome --min-duration=1ms -o "$WORK/small.json" "$big" ||
	fail "narrowed export"
echo ok
