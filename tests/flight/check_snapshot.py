#!/usr/bin/python3
# check_snapshot.py - check a flight-recorder snapshot with babeltrace2.
#
# SPDX-License-Identifier: GPL-2.0-only
#
# Runs under Debian's /usr/bin/python3 (the only one with the bt2 module).
#
#   check_snapshot.py SNAPSHOT_DIR [options]
#     --last-seq K       the flight events end exactly with seq K
#     --trigger REASON   ... followed by ust:trigger {reason = REASON}, the
#                        last event of the snapshot
#     --min-events N     at least N flight events (the tail is not tiny)
#     --program NAME     a lttng_ust_statedump:bin_info whose path ends
#                        with /NAME (the state channel is in the snapshot)
#     --thread-name NAME a lttng_ust_statedump:thread_name {tid, NAME}
#                        whose tid is the flight events' thread, after one
#                        naming it after the program (the dump at start)
#     --freeze-losses    an earlier snapshot's freeze may lie in this one's
#                        window: the flight events may have gaps, and
#                        babeltrace2 may say "Tracer discarded" (only that)
# Always: `babeltrace2 SNAPSHOT_DIR` exits 0 and prints nothing else on
# stderr; events are in time order; the flight events (flight:tick,
# flight:note) have increasing seq numbers, each flight:note carrying its
# text.  Without --freeze-losses, nothing is reported discarded and the
# seq numbers are one contiguous run.
import argparse
import subprocess
import sys

import bt2


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def babeltrace_clean(path, allow_discards):
    p = subprocess.run(["babeltrace2", path], stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        fail("babeltrace2 %s exited %d: %s" % (path, p.returncode, p.stderr[-2000:]))
    for line in p.stderr.splitlines():
        if allow_discards and "Tracer discarded" in line:
            continue
        if line.strip():
            fail("babeltrace2 %s printed: %s" % (path, p.stderr[:2000]))


def read(path, allow_discards):
    events, last_ns, discarded = [], None, 0
    for m in bt2.TraceCollectionMessageIterator(path):
        if type(m) is bt2._EventMessageConst:
            ns = m.default_clock_snapshot.ns_from_origin
            if last_ns is not None and ns < last_ns:
                fail("%s: time goes backwards" % path)
            last_ns = ns
            p = m.event.payload_field
            f = {k: p[k] for k in p}
            ctx = m.event.common_context_field
            f["__tid"] = int(ctx["vtid"]) if ctx is not None else None
            events.append((m.event.name, f))
        elif type(m) in (bt2._DiscardedEventsMessageConst,
                         bt2._DiscardedPacketsMessageConst):
            discarded += 1
    if discarded and not allow_discards:
        fail("%s: %d discarded events/packets messages" % (path, discarded))
    return events


def check_thread_name(events, name, program):
    tids = {f["__tid"] for n, f in events if n == "flight:tick"}
    if len(tids) != 1:
        fail("flight:tick from threads %s, expected one" % sorted(tids))
    tid = tids.pop()
    names = [str(f["name"]) for n, f in events
             if n == "lttng_ust_statedump:thread_name" and int(f["tid"]) == tid]
    want = [program[:15], name] if program else [name]
    if names != want:
        fail("thread %d named %s, expected %s" % (tid, names, want))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--last-seq", type=int)
    ap.add_argument("--trigger")
    ap.add_argument("--min-events", type=int, default=1)
    ap.add_argument("--program")
    ap.add_argument("--freeze-losses", action="store_true")
    ap.add_argument("--thread-name")
    a = ap.parse_args()

    babeltrace_clean(a.dir, a.freeze_losses)
    events = read(a.dir, a.freeze_losses)
    flight = [(i, int(f["seq"])) for i, (n, f) in enumerate(events)
              if n in ("flight:tick", "flight:note")]
    for n, f in events:
        if n == "flight:note" and str(f["text"]) != "every 64th event":
            fail("flight:note text %r" % str(f["text"]))
        if n == "flight:note" and int(f["seq"]) % 64 != 63:
            fail("flight:note at seq %d" % int(f["seq"]))
    if len(flight) < a.min_events:
        fail("%d flight events, expected at least %d" % (len(flight), a.min_events))
    seqs = [s for _, s in flight]
    first, last = seqs[0], seqs[-1]
    if any(b <= a for a, b in zip(seqs, seqs[1:])):
        fail("flight events out of order")
    if not a.freeze_losses and seqs != list(range(first, last + 1)):
        gap = next(i for i, s in enumerate(seqs) if s != first + i)
        fail("flight events not contiguous: seq %d after %d" % (seqs[gap], seqs[gap - 1]))
    if a.last_seq is not None and last != a.last_seq:
        fail("last flight event has seq %d, expected %d" % (last, a.last_seq))
    tail = [n for n, _ in events[flight[-1][0] + 1:]]
    if a.trigger is not None:
        if tail != ["ust:trigger"]:
            fail("after seq %d: %s, expected only ust:trigger" % (last, tail))
        reason = str(events[-1][1]["reason"])
        if reason != a.trigger:
            fail("trigger reason %r, expected %r" % (reason, a.trigger))
    elif a.last_seq is not None and tail:
        fail("after seq %d: %s" % (last, tail))
    if a.program and not any(
            n == "lttng_ust_statedump:bin_info" and
            str(f["path"]).endswith("/" + a.program) for n, f in events):
        fail("no lttng_ust_statedump:bin_info for %s" % a.program)
    if a.thread_name:
        check_thread_name(events, a.thread_name, a.program)
    print("%s: flight events %d..%d (%d), %d events in all" %
          (a.dir, first, last, len(seqs), len(events)))


main()
