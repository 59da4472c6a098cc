#!/usr/bin/python3
# check_threads.py - read per-thread traces back with babeltrace2.
#
# SPDX-License-Identifier: GPL-2.0-only
#
# Runs under Debian's /usr/bin/python3 (the only one with the bt2 module).
#
#   check_threads.py ROOT [options]
#     --traces N       exactly N trace directories under ROOT
#     --complete T N   thread numbers 0..T-1 each have seq 0..N-1, in order,
#                      and nothing was discarded
#     --accounting N   records on disk + records discarded == N, exactly
#     --handler N      tbuf:handler seq 0..N-1 each there once
#     --streams N      exactly N stream files (thread buffers) with events
# Always: babeltrace2 exits 0 (warning only of discards with
# --accounting); every record's payload tid is its packet's tid; each
# stream has one tid; time never goes back within a stream.
import argparse
import os
import sys

import bt2

# fail, trace_dirs, babeltrace_clean: the integration tests' helpers.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "integration"))
from check_trace import babeltrace_clean, fail, trace_dirs  # noqa: E402


class Reading:
    def __init__(self, path):
        self.path = path
        self.count = 0
        self.discarded = 0
        self.seqs = {}        # thread number -> seqs in time order
        self.handler = []
        self.stream_tid = {}  # stream id -> tid
        self.last_ns = {}     # stream id -> ns
        for m in bt2.TraceCollectionMessageIterator(path):
            if type(m) is bt2._EventMessageConst:
                self.event(m)
            elif type(m) is bt2._DiscardedEventsMessageConst:
                self.discarded += m.count or 0
            elif type(m) is bt2._DiscardedPacketsMessageConst:
                fail("%s: packets discarded" % path)

    def event(self, m):
        ev = m.event
        sid = ev.stream.id
        ns = m.default_clock_snapshot.ns_from_origin
        if ns < self.last_ns.get(sid, ns):
            fail("%s: time goes back in stream %d" % (self.path, sid))
        self.last_ns[sid] = ns
        tid = int(ev.packet.context_field["tid"])
        if self.stream_tid.setdefault(sid, tid) != tid:
            fail("%s: stream %d has threads %d and %d" %
                 (self.path, sid, self.stream_tid[sid], tid))
        p = ev.payload_field
        if int(p["tid"]) != tid:
            fail("%s: %s of thread %d in the packet of thread %d" %
                 (self.path, ev.name, int(p["tid"]), tid))
        self.count += 1
        if ev.name == "tbuf:handler":
            self.handler.append(int(p["seq"]))
        else:
            self.seqs.setdefault(int(p["thread"]), []).append(int(p["seq"]))
            if ev.name == "tbuf:text" and str(p["msg"]) != "a text payload":
                fail("bad msg %r" % str(p["msg"]))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("root")
    ap.add_argument("--traces", type=int)
    ap.add_argument("--complete", nargs=2, type=int, metavar=("T", "N"))
    ap.add_argument("--accounting", type=int)
    ap.add_argument("--handler", type=int)
    ap.add_argument("--streams", type=int)
    a = ap.parse_args()

    dirs = trace_dirs(a.root)
    if a.traces is not None and len(dirs) != a.traces:
        fail("%d trace directories, want %d" % (len(dirs), a.traces))
    for d in dirs:
        babeltrace_clean(d, a.accounting is not None)
        r = Reading(d)
        print("%s: %d records, %d discarded, %d streams, %d threads" %
              (os.path.basename(d), r.count, r.discarded, len(r.stream_tid),
               len(r.seqs)))
        if a.complete:
            t, n = a.complete
            if r.discarded:
                fail("%s: %d records discarded" % (d, r.discarded))
            for i in range(t):
                if r.seqs.get(i) != list(range(n)):
                    fail("%s: thread %d has %d records, want 0..%d in order" %
                         (d, i, len(r.seqs.get(i, [])), n - 1))
            if len(r.seqs) != t:
                fail("%s: %d threads, want %d" % (d, len(r.seqs), t))
        if a.accounting is not None and r.count + r.discarded != a.accounting:
            fail("%s: %d on disk + %d discarded != %d attempted" %
                 (d, r.count, r.discarded, a.accounting))
        if a.handler is not None and sorted(r.handler) != list(range(a.handler)):
            fail("%s: %d handler records, want each of 0..%d once" %
                 (d, len(r.handler), a.handler - 1))
        if a.streams is not None and len(r.stream_tid) != a.streams:
            fail("%s: %d streams with records, want %d" % (d, len(r.stream_tid), a.streams))
    print("ok")


if __name__ == "__main__":
    main()
