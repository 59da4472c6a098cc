#!/bin/sh
# `ust export` in each format, checked by parsing the output (python3's
# json and csv) against the workload and against `ust view`: the
# generated kernel trace (gen-kernel-trace.py) and a real user trace.
. "$top_srcdir/tests/reader/lib.sh"

GEN="$top_srcdir/tests/report/gen-kernel-trace.py"
PY=/usr/bin/python3
[ -x "$STRESS" ] || skip "stress not built"
[ -x $PY ] || skip "no /usr/bin/python3"
$PY "$GEN" "$WORK/k/kernel" || fail "gen-kernel-trace.py"
# 2 threads x 300 events, every 8th a stress:text (38 per thread)
record u -- "$STRESS" -t 2 -n 300 -s
cd "$WORK"

# chrome: valid JSON; syscalls and scheduling as complete events with
# the workload's times (us); the other events as instants with args
"$UST" export --format=chrome -o k.json k || fail "export chrome"
$PY - k.json <<'EOS' || fail "chrome export of the kernel trace"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["displayTimeUnit"] == "ns", d.keys()
ev = d["traceEvents"]
sc = [e for e in ev if e.get("cat") == "syscall"]
assert all(e["ph"] == "X" for e in sc)
names = sorted(set(e["name"] for e in sc))
assert names == ["openat", "read", "write"], names
assert len([e for e in sc if e["name"] == "write"]) == 100
assert sorted(e["dur"] for e in sc if e["name"] == "write") == list(range(1, 101))
assert sorted(e["dur"] for e in sc if e["name"] == "read") == [10, 20, 30, 40, 50]
op = [e for e in sc if e["name"] == "openat"][0]
assert (op["ts"], op["dur"], op["pid"], op["tid"]) == (610000, 5000, 200, 200), op
run = sorted((e["tid"], e["ts"], e["dur"]) for e in ev if e.get("cat") == "sched")
assert run == [(100, 0, 600000), (101, 0, 500000), (200, 600000, 100000),
               (300, 800000, 100000)], run
assert all(e["pid"] == 100 for e in ev if e.get("tid") == 101 and e.get("ph") != "M")
inst = [e for e in ev if e["ph"] == "i"]
assert len(inst) == 234 - 8 - 214, len(inst)	# not switches, not syscalls
irq = [e for e in inst if e["name"] == "irq_handler_entry"][0]
assert irq["args"] == {"irq": 19, "name": "eth0"} and irq["ts"] == 300000, irq
fork = [e for e in inst if e["name"] == "sched_process_fork"][0]
assert fork["args"]["child_comm"] == "sleepy" and fork["args"]["child_tid"] == 300
meta = {(e["tid"], e["args"]["name"]) for e in ev if e["name"] == "thread_name"}
assert (300, "worker") in meta and (101, "busy") in meta, meta
EOS
"$UST" view u >u.view || fail "ust view"
"$UST" export --format=chrome u >u.json || fail "export chrome (stdout)"
$PY - u.json u.view <<'EOS' || fail "chrome export of the user trace"
import json, re, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
view = open(sys.argv[2]).read().splitlines()
inst = [e for e in ev if e["ph"] == "i"]
assert len(inst) == 600, len(inst)
for e, line in zip(inst, view):	# same events, same order, same values
    name, tid = re.search(r"\) (stress:\w+): .*vtid = (\d+) ", line).groups()
    assert (e["name"], e["tid"]) == (name, int(tid)), (e, line)
    assert e["args"]["seq"] == int(re.search(r"seq = (\d+)", line).group(1))
assert len([e for e in inst if e["name"] == "stress:text"]) == 76
assert all(e["args"].get("msg", "a text payload") == "a text payload" for e in inst)
assert sum(1 for e in ev if e["name"] == "process_name") == 1
EOS

# folded: one line per thread and event, the counts of the workload
"$UST" export --format=folded k u >f.out || fail "export folded"
pid=$(sed -n 's/^[[:space:]]*vpid = \([0-9]*\);/\1/p' u/*/metadata)
for tid in $(sed 's/.*vtid = \([0-9]*\) .*/\1/' u.view | sort -u); do
	grep -qx "stress-$pid;$tid;stress:tick 262" f.out || fail "folded tick of $tid: $(cat f.out)"
	grep -qx "stress-$pid;$tid;stress:text 38" f.out || fail "folded text of $tid: $(cat f.out)"
done
grep -qx "busy-100;101;syscall_entry_write 100" f.out || fail "folded write: $(cat f.out)"
grep -qx "worker-300;300;syscall_exit_read 1" f.out || fail "folded exec'd name: $(cat f.out)"
[ "$(awk '{s += $NF} END {print s}' f.out)" = $((600 + 234)) ] || fail "folded counts"

# csv: a header, one row per event in view's order, the payload column
# as view prints it
"$UST" export --format=csv u >u.csv || fail "export csv"
$PY - u.csv u.view <<'EOS' || fail "csv export"
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
view = open(sys.argv[2]).read().splitlines()
assert rows[0] == ["time_ns", "event", "trace", "cpu", "pid", "tid", "fields"], rows[0]
rows = rows[1:]
assert len(rows) == len(view) == 600
times = [int(r[0]) for r in rows]
assert times == sorted(times)
for r, line in zip(rows, view):
    assert line.endswith(", " + r[6]), (r, line)
    assert ("vtid = %s }" % r[5]) in line and (" %s: " % r[1]) in line, (r, line)
EOS

# bad command lines and outputs
expect_error() {
	rc_want=$1 msg=$2
	shift 2
	set +e
	"$UST" export "$@" >/dev/null 2>err
	rc=$?
	set -e
	[ $rc = "$rc_want" ] || fail "export $*: exit status $rc: $(cat err)"
	[ "$(cat err)" = "ust export: $msg" ] || fail "export $*: $(cat err)"
}
expect_error 2 "unknown format 'svg' (chrome, folded or csv)" --format=svg u
expect_error 2 "no --format given (chrome, folded or csv)" u
expect_error 1 "$WORK/nodir/x.json: No such file or directory" -f chrome -o "$WORK/nodir/x.json" u
"$UST" export --help | grep -q -- '--format' || fail "--help"
