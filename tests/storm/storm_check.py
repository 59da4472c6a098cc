#!/usr/bin/python3
# storm_check.py - check the traces of a storm against what the program
# says it did.  Every trace is decoded by the babeltrace2 command (it must
# exit 0 and print no warning but "Tracer discarded N events"), whose text
# output is parsed here: fast enough for millions of events.
#
# SPDX-License-Identifier: GPL-2.0-only
#
#   storm_check.py ledger ROOT LEDGER_DIR
#       One trace per ledger file DIR/<comm>-<pid> and no other; in each,
#       for every line "EVENT THREAD N" exactly the events seq 0..N-1 of
#       storm:EVENT (storm:text counts as tick) of that thread, in order,
#       no other event, nothing discarded.
#   storm_check.py crash ROOT PROGRESS THREADS [--no-loss]
#       After a SIGKILL: PROGRESS holds, per thread, how many trace calls
#       had returned (R[t]).  Each thread's events are in order; every
#       event seq < R[t] is on disk unless counted discarded (the sum of
#       the missing ones <= the events discarded); at most one event
#       beyond R[t] per thread (the call in flight), and it is R[t];
#       returned <= on disk + discarded <= returned + THREADS.
#       --no-loss: nothing discarded, so nothing returned is missing.
#   storm_check.py ledger-lossy ROOT LEDGER_DIR
#       As ledger, with losses (tiny buffers): each thread's events are in
#       order, each seq below its count at most once, and per process
#       on disk + discarded = the calls its ledger counts, exactly.
#   storm_check.py flight ROOT PROGRESS THREADS
#       A flight recorder SIGKILLed: ROOT holds its trace (the state
#       channel) and one snapshot, *-snapshot-1-SIGKILL, both readable;
#       in the snapshot each thread's events are consecutive (no hole
#       after the window's start) and end with the last call that
#       returned, R[t] - 1, or the one in flight, R[t].
#   --summary FILE (last, any mode): FILE is what `ust record` printed;
#       its "(N events, M lost)" of each trace must be the events on disk
#       and the events discarded that babeltrace2 sees.
#   Each prints one line of figures per trace.
import os
import re
import struct
import subprocess
import sys

EVENT = re.compile(r" storm:(\w+): .*\{ thread = (\d+), seq = (\d+)")
DISCARDED = re.compile(r"^WARNING: Tracer discarded (\d+) events? between")
SUMMARY = re.compile(r"^ust record:   (\S+)  \((\d+) events?, (\d+) lost")
DIRNAME = re.compile(r"^(.+)-(\d+)-\d{8}-\d{6}(-\d+)?$")


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def trace_dirs(root):
    return sorted(d for d, _, files in os.walk(root) if "metadata" in files)


class Trace:
    """One trace decoded by babeltrace2: per (event, thread) the seqs."""

    def __init__(self, path, others=False):
        """others: events of other facilities (the statedump) are skipped."""
        self.path = path
        self.seqs = {}
        self.count = 0
        self.discarded = 0
        p = subprocess.run(["babeltrace2", path], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True)
        if p.returncode != 0:
            fail("babeltrace2 %s exited %d: %s" % (path, p.returncode,
                                                   p.stderr[-2000:]))
        for line in p.stderr.splitlines():
            m = DISCARDED.match(line)
            if not m:
                fail("babeltrace2 %s printed: %s" % (path, line[:300]))
            self.discarded += int(m.group(1))
        for line in p.stdout.splitlines():
            m = EVENT.search(line)
            if not m and others and " storm:" not in line:
                continue
            if not m:
                fail("%s: unexpected event: %s" % (path, line[:300]))
            name = "tick" if m.group(1) == "text" else m.group(1)
            self.seqs.setdefault((name, int(m.group(2))), []).append(int(m.group(3)))
            self.count += 1


def summary_of(path):
    """The per-trace lines of `ust record`'s summary: dir -> (events, lost)."""
    with open(path) as f:
        return {m.group(1): (int(m.group(2)), int(m.group(3)))
                for m in map(SUMMARY.match, f) if m}


def check_summary(t, summary):
    if summary is None:
        return
    if summary.get(t.path) != (t.count, t.discarded):
        fail("%s: ust record says %s, babeltrace2 sees %d events, %d discarded"
             % (t.path, summary.get(t.path), t.count, t.discarded))


def first_gap(got, n):
    return next((i for i, s in enumerate(got) if s != i), min(len(got), n))


def read_ledger(path):
    want = {}
    with open(path) as f:
        for line in f:
            name, thread, n = line.split()
            want[(name, int(thread))] = int(n)
    return want


def check_lossy(t, want):
    """Per thread in order, each seq at most once; disk + discarded = calls."""
    for k, got in t.seqs.items():
        n = want.get(k)
        if n is None:
            fail("%s: events nobody recorded: %s" % (t.path, k))
        if any(b <= a for a, b in zip(got, got[1:])) or (got and got[-1] >= n):
            fail("%s: %s of thread %d out of order or beyond %d" % (t.path, k[0], k[1], n))
    calls = sum(want.values())
    if t.count + t.discarded != calls:
        fail("%s: %d on disk + %d discarded != %d calls" % (t.path, t.count, t.discarded, calls))


def check_ledger(root, ledger_dir, summary, lossy=False):
    ledgers = sorted(os.listdir(ledger_dir))
    traces = {}
    for d in trace_dirs(root):
        m = DIRNAME.match(os.path.basename(d))
        if not m:
            fail("trace directory name %s" % d)
        key = "%s-%s" % (m.group(1), m.group(2))
        if key in traces:
            fail("two traces for %s: %s and %s" % (key, traces[key], d))
        traces[key] = d
    if sorted(traces) != ledgers:
        fail("traces %s, processes %s" % (sorted(traces), ledgers))
    events = discarded = 0
    for key in ledgers:
        t = Trace(traces[key])
        want = read_ledger(os.path.join(ledger_dir, key))
        if lossy:
            check_lossy(t, want)
            check_summary(t, summary)
            events += t.count
            discarded += t.discarded
            print("%s: %d events + %d discarded = %d calls" %
                  (key, t.count, t.discarded, t.count + t.discarded))
            continue
        if t.discarded:
            fail("%s: %d events discarded" % (t.path, t.discarded))
        for k, n in want.items():
            got = t.seqs.get(k, [])
            if got != list(range(n)):
                fail("%s: %s of thread %d: %d events, want %d; first "
                     "mismatch at %d" % (t.path, k[0], k[1], len(got), n,
                                         first_gap(got, n)))
        extra = set(t.seqs) - set(k for k, n in want.items())
        if extra:
            fail("%s: events nobody recorded: %s" % (t.path, sorted(extra)))
        check_summary(t, summary)
        events += t.count
        print("%s: %d events, as recorded" % (key, t.count))
    print("%d processes, %d events, %d discarded, 0 lost uncounted" %
          (len(ledgers), events, discarded))


def check_crash(root, progress, threads, no_loss, summary):
    dirs = trace_dirs(root)
    if len(dirs) != 1:
        fail("%d traces under %s, want 1" % (len(dirs), root))
    t = Trace(dirs[0])
    with open(progress, "rb") as f:
        returned = struct.unpack("<%dQ" % threads, f.read(8 * threads))
    missing = 0
    for k, got in t.seqs.items():
        if k[0] != "tick" or not 0 <= k[1] < threads:
            fail("unexpected events %s" % (k,))
        if any(b <= a for a, b in zip(got, got[1:])):
            fail("thread %d: events out of order" % k[1])
    for i in range(threads):
        got = t.seqs.get(("tick", i), [])
        below = sum(1 for s in got if s < returned[i])
        beyond = [s for s in got if s >= returned[i]]
        if beyond and beyond != [returned[i]]:
            fail("thread %d: returned %d, trace has %s beyond" %
                 (i, returned[i], beyond[:4]))
        missing += returned[i] - below
    check_summary(t, summary)
    total = t.count + t.discarded
    print("returned %d, on disk %d, discarded %d, missing %d" %
          (sum(returned), t.count, t.discarded, missing))
    if no_loss and (t.discarded or missing):
        fail("events lost in a run that has room for all of them")
    if missing > t.discarded:
        fail("%d returned events are missing, only %d counted discarded" %
             (missing, t.discarded))
    if not sum(returned) <= total <= sum(returned) + threads:
        fail("on disk + discarded = %d, returned %d" % (total, sum(returned)))


def check_flight(root, progress, threads, summary):
    dirs = trace_dirs(root)
    snaps = [d for d in dirs if re.search(r"-snapshot-1-SIGKILL$", d)]
    if len(dirs) != 2 or len(snaps) != 1:
        fail("want a trace and its SIGKILL snapshot under %s, got %s" % (root, dirs))
    trace = Trace([d for d in dirs if d not in snaps][0], others=True)
    if trace.seqs:
        fail("%s: the flight channel was streamed" % trace.path)
    t = Trace(snaps[0], others=True)
    with open(progress, "rb") as f:
        returned = struct.unpack("<%dQ" % threads, f.read(8 * threads))
    if t.discarded:
        fail("%s: %d events discarded in a snapshot" % (t.path, t.discarded))
    for i in range(threads):
        got = t.seqs.get(("tick", i), [])
        if any(b != a + 1 for a, b in zip(got, got[1:])):
            gap = next(a for a, b in zip(got, got[1:]) if b != a + 1)
            fail("thread %d: hole in the snapshot after %d" % (i, gap))
        if got and got[-1] not in (returned[i] - 1, returned[i]):
            fail("thread %d: snapshot ends at %d, %d calls returned" %
                 (i, got[-1], returned[i]))
    if summary is not None and trace.path not in summary:
        fail("%s: not in ust record's summary" % trace.path)
    print("returned %d, in the snapshot %d (%d threads), window from %s" %
          (sum(returned), t.count, len(t.seqs),
           ",".join(str(t.seqs.get(("tick", i), [0])[0]) for i in range(threads))))


def main(argv):
    summary = None
    if len(argv) > 2 and argv[-2] == "--summary":
        summary = summary_of(argv[-1])
        argv = argv[:-2]
    if len(argv) == 4 and argv[1] == "ledger":
        check_ledger(argv[2], argv[3], summary)
    elif len(argv) == 4 and argv[1] == "ledger-lossy":
        check_ledger(argv[2], argv[3], summary, lossy=True)
    elif len(argv) == 5 and argv[1] == "flight":
        check_flight(argv[2], argv[3], int(argv[4]), summary)
    elif len(argv) in (5, 6) and argv[1] == "crash":
        check_crash(argv[2], argv[3], int(argv[4]),
                    len(argv) == 6 and argv[5] == "--no-loss", summary)
    else:
        fail("usage: storm_check.py ledger|ledger-lossy ROOT DIR | "
             "crash ROOT PROGRESS THREADS [--no-loss] | flight ROOT PROGRESS THREADS")


if __name__ == "__main__":
    main(sys.argv)
