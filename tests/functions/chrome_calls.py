#!/usr/bin/python3
# chrome_calls.py FILE - check the function slices of `ust export
# --format=chrome` output: the file is JSON, every thread's "B" and "E"
# events of category "function" nest (each E closes the last open B, of
# the same name, not before it) and none is left open.  Prints one line
# per thread and function, "PID TID NAME PAIRS", sorted.
# SPDX-License-Identifier: GPL-2.0-only
import collections
import json
import sys

events = json.load(open(sys.argv[1]))["traceEvents"]
stacks = collections.defaultdict(list)
pairs = collections.Counter()
for e in events:
    if e.get("cat") != "function":
        continue
    key = (e["pid"], e["tid"])
    if e["ph"] == "B":
        stacks[key].append((e["name"], e["ts"]))
    elif e["ph"] == "E":
        if not stacks[key]:
            sys.exit("E without B: %r" % e)
        name, ts = stacks[key].pop()
        if name != e["name"] or e["ts"] < ts:
            sys.exit("E %r closes B of %s at %s" % (e, name, ts))
        pairs[key + (name,)] += 1
    else:
        sys.exit("unexpected phase: %r" % e)
for key, stack in stacks.items():
    if stack:
        sys.exit("thread %r left open: %r" % (key, stack))
for (pid, tid, name), n in sorted(pairs.items()):
    print(pid, tid, name, n)
