#!/usr/bin/python3
# chrome_calls.py FILE - check the function slices of `ust export
# --format=chrome` output: the file is JSON, each call is one complete
# ("X") event of category "function", and every thread's calls nest:
# two calls of a thread are disjoint or one holds the other.  Prints one
# line per thread and function, "PID TID NAME CALLS", sorted.
# SPDX-License-Identifier: GPL-2.0-only
import collections
import json
import sys

events = json.load(open(sys.argv[1]))["traceEvents"]
calls = collections.defaultdict(list)
counts = collections.Counter()
for e in events:
    if e.get("cat") != "function":
        continue
    if e["ph"] != "X" or e["dur"] < 0:
        sys.exit("not a complete event: %r" % e)
    key = (e["pid"], e["tid"])
    # Times in integer ns, as written ("us.nnn").
    begin = round(e["ts"] * 1000)
    calls[key].append((begin, -round(e["dur"] * 1000), e["name"]))
    counts[key + (e["name"],)] += 1
for key, cs in calls.items():
    open_ends = []
    for begin, neg_dur, name in sorted(cs):
        end = begin - neg_dur
        while open_ends and open_ends[-1][0] <= begin and open_ends[-1][0] < end:
            open_ends.pop()
        if open_ends and end > open_ends[-1][0]:
            sys.exit("thread %r: %s [%d, %d] overlaps %s ending at %d" %
                     (key, name, begin, end, open_ends[-1][1], open_ends[-1][0]))
        open_ends.append((end, name))
for (pid, tid, name), n in sorted(counts.items()):
    print(pid, tid, name, n)
