#!/usr/bin/python3
# check_trace.py - read ust traces back with babeltrace2 and check them.
#
# SPDX-License-Identifier: GPL-2.0-only
#
# Runs under Debian's /usr/bin/python3 (the only one with the bt2 module).
# Every check reads the traces through babeltrace2 itself: the `babeltrace2`
# command for validity (exit 0, no warning), the bt2 bindings for values.
#
#   check_trace.py TRACE_DIR [options]
#     --traces N            exactly N trace directories under TRACE_DIR
#     --complete T N        each of T threads has seq 0..N-1, in order, and
#                           nothing was discarded
#     --accounting N        events on disk + events discarded == N, exactly
#     --progress FILE T     each thread's events 0..progress[t]-1 are all there
#     --kill-accounting FILE T
#                           after a SIGKILL at full speed: returned events
#                           <= on disk + discarded <= returned + T (one
#                           event in flight per thread), each thread's
#                           events in order and none beyond its progress
#     --handler N           stress:handler seq 0..N-1 each there once (handlers
#                           may run on several threads at once, so in any order)
#     --values              the exact field values of stress:values
import argparse
import os
import struct
import subprocess
import sys

import bt2


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def trace_dirs(root):
    found = []
    for d, _, files in os.walk(root):
        if "metadata" in files:
            found.append(d)
    return sorted(found)


def babeltrace_clean(path, allow_discards):
    p = subprocess.run(["babeltrace2", path], stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        fail("babeltrace2 %s exited %d: %s" % (path, p.returncode,
                                               p.stderr[-2000:]))
    for line in p.stderr.splitlines():
        if allow_discards and "Tracer discarded" in line:
            continue
        fail("babeltrace2 %s printed: %s" % (path, line))


class Reading:
    def __init__(self, path):
        self.path = path
        self.count = 0
        self.by_name = {}
        self.discarded = 0
        self.discarded_packets = 0
        self.seqs = {}          # thread -> list of seq, in time order
        self.handler = []
        self.values = []
        self.last_ns = None
        it = bt2.TraceCollectionMessageIterator(path)
        for m in it:
            self.take(m)

    def take(self, m):
        if type(m) is bt2._EventMessageConst:
            ns = m.default_clock_snapshot.ns_from_origin
            if self.last_ns is not None and ns < self.last_ns:
                fail("%s: time goes backwards" % self.path)
            self.last_ns = ns
            ev = m.event
            self.count += 1
            self.by_name[ev.name] = self.by_name.get(ev.name, 0) + 1
            p = ev.payload_field
            if ev.name in ("stress:tick", "stress:text"):
                self.seqs.setdefault(int(p["thread"]), []).append(int(p["seq"]))
                if ev.name == "stress:text" and str(p["msg"]) != "a text payload":
                    fail("bad msg %r" % str(p["msg"]))
            elif ev.name == "stress:handler":
                self.handler.append(int(p["seq"]))
            elif ev.name == "stress:values":
                self.values.append({k: p[k] for k in p})
        elif type(m) is bt2._DiscardedEventsMessageConst:
            self.discarded += m.count or 0
        elif type(m) is bt2._DiscardedPacketsMessageConst:
            self.discarded_packets += m.count or 0


def check_complete(r, threads, n):
    if r.discarded or r.discarded_packets:
        fail("%s: %d events / %d packets discarded" %
             (r.path, r.discarded, r.discarded_packets))
    for t in range(threads):
        if r.seqs.get(t) != list(range(n)):
            got = r.seqs.get(t, [])
            fail("%s: thread %d has %d events, first mismatch near %s" %
                 (r.path, t, len(got), next((i for i, s in enumerate(got)
                                               if s != i), len(got))))


def check_progress(r, path, threads):
    with open(path, "rb") as f:
        done = struct.unpack("<%dQ" % threads, f.read(8 * threads))
    for t in range(threads):
        got = r.seqs.get(t, [])
        if got[:done[t]] != list(range(done[t])):
            fail("thread %d: returned %d events, trace has %d, first gap at %d"
                 % (t, done[t], len(got), next((i for i, s in enumerate(got)
                                                if s != i), len(got))))
        print("thread %d: %d returned, %d in the trace" % (t, done[t], len(got)))


def check_kill_accounting(r, path, threads):
    with open(path, "rb") as f:
        done = struct.unpack("<%dQ" % threads, f.read(8 * threads))
    returned = sum(done)
    on_disk = sum(len(v) for v in r.seqs.values())
    for t, seqs in r.seqs.items():
        if any(b <= a for a, b in zip(seqs, seqs[1:])):
            fail("thread %d: events out of order" % t)
        if seqs and seqs[-1] > done[t]:
            fail("thread %d: event %d beyond its progress %d" % (t, seqs[-1], done[t]))
    total = on_disk + r.discarded
    print("returned %d, on disk %d + discarded %d = %d" %
          (returned, on_disk, r.discarded, total))
    if not returned <= total <= returned + threads:
        fail("accounting: %d returned, %d on disk + discarded" % (returned, total))


def check_values(r):
    if len(r.values) != 2:
        fail("expected 2 stress:values events, got %d" % len(r.values))
    a, b = r.values
    want_a = {"s8": -128, "u8": 255, "s16": -32768, "u16": 65535,
              "s32": -2147483648, "u32": 0xDEADBEEF,
              "s64": -9223372036854775808, "u64": 18446744073709551615}
    for k, v in want_a.items():
        if int(a[k]) != v:
            fail("values[0].%s = %d, want %d" % (k, int(a[k]), v))
    if str(a["str"]) != 'quote " and backslash \\' or str(a["nullstr"]) != "(null)":
        fail("values[0] strings: %r %r" % (str(a["str"]), str(a["nullstr"])))
    want_b = {"s8": 127, "s16": 32767, "s32": 2147483647,
              "s64": 9223372036854775807, "u64": 0}
    for k, v in want_b.items():
        if int(b[k]) != v:
            fail("values[1].%s = %d, want %d" % (k, int(b[k]), v))
    if str(b["str"]) != "" or str(b["nullstr"]) != "":
        fail("values[1] strings not empty")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("root")
    ap.add_argument("--traces", type=int)
    ap.add_argument("--complete", nargs=2, type=int, metavar=("T", "N"))
    ap.add_argument("--accounting", type=int)
    ap.add_argument("--progress", nargs=2, metavar=("FILE", "T"))
    ap.add_argument("--kill-accounting", nargs=2, metavar=("FILE", "T"))
    ap.add_argument("--handler", type=int)
    ap.add_argument("--values", action="store_true")
    a = ap.parse_args()

    dirs = trace_dirs(a.root)
    if not dirs:
        fail("no trace under %s" % a.root)
    if a.traces is not None and len(dirs) != a.traces:
        fail("%d trace directories, want %d: %s" % (len(dirs), a.traces, dirs))
    for d in dirs:
        babeltrace_clean(d, a.accounting is not None or
                         a.kill_accounting is not None)
        r = Reading(d)
        print("%s: %d events, %d discarded, %d packets discarded, %s" %
              (os.path.basename(d), r.count, r.discarded,
               r.discarded_packets, r.by_name))
        if a.complete:
            check_complete(r, *a.complete)
        if a.accounting is not None and r.count + r.discarded != a.accounting:
            fail("%d on disk + %d discarded != %d attempted" %
                 (r.count, r.discarded, a.accounting))
        if a.progress:
            check_progress(r, a.progress[0], int(a.progress[1]))
        if a.kill_accounting:
            check_kill_accounting(r, a.kill_accounting[0],
                                  int(a.kill_accounting[1]))
        if a.handler is not None and sorted(r.handler) != list(range(a.handler)):
            fail("handler events: %d, want each of 0..%d once" %
                 (len(r.handler), a.handler - 1))
        if a.values:
            check_values(r)
    print("ok")


if __name__ == "__main__":
    main()
