#!/usr/bin/python3
# check_quick.py - the trace of `tbuf-app -q -n N` read with babeltrace2.
#
# SPDX-License-Identifier: GPL-2.0-only
#
#   check_quick.py TRACE N
# Exactly N times tbuf:small {seq}, tbuf:pair {seq, triple = 3 * seq},
# tbuf:empty, in that order, seq 0..N-1; time never goes back; the
# records after seq 1 and seq 2 come at least 140 ms after the ones
# before them (the app pauses 150 ms there), no other gap is that long.
import sys

import bt2

PAUSE_NS = 140 * 1000 * 1000


def fail(msg):
    print("FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


def main():
    path, n = sys.argv[1], int(sys.argv[2])
    names = ["tbuf:small", "tbuf:pair", "tbuf:empty"]
    i = 0
    last = None
    gaps = []
    for m in bt2.TraceCollectionMessageIterator(path):
        if type(m) is not bt2._EventMessageConst:
            continue
        ev = m.event
        if not ev.name.startswith("tbuf:"):
            continue
        ns = m.default_clock_snapshot.ns_from_origin
        seq, kind = divmod(i, 3)
        if ev.name != names[kind]:
            fail("record %d is %s, want %s" % (i, ev.name, names[kind]))
        p = ev.payload_field
        if kind < 2 and int(p["seq"]) != seq:
            fail("%s: seq %d, want %d" % (ev.name, int(p["seq"]), seq))
        if kind == 1 and int(p["triple"]) != 3 * seq:
            fail("tbuf:pair %d: triple %d" % (seq, int(p["triple"])))
        if last is not None:
            if ns < last:
                fail("time goes back at record %d" % i)
            if ns - last >= PAUSE_NS:
                gaps.append(seq)
        last = ns
        i += 1
    if i != 3 * n:
        fail("%d records, want %d" % (i, 3 * n))
    if gaps != [2, 3]:
        fail("pauses seen before seq %s, want [2, 3]" % gaps)
    print("ok: %d records, pauses before seq %s" % (i, gaps))


main()
