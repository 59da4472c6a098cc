#!/usr/bin/python3
# check_trace.py - check a trace written by ust-consumerd from fake-app.
#
# SPDX-License-Identifier: GPL-2.0-only
#
# Runs under Debian's /usr/bin/python3 (the one with the bt2 module).
#
#   check_trace.py TRACE_DIR EXPECT [options]
#
# TRACE_DIR is one trace directory.  EXPECT lists the records fake-app
# committed, one "cpu seq ts id vtid value" per line.  Checks:
#  - `babeltrace2 TRACE_DIR` exits 0 and prints nothing on stderr except
#    the discard warnings allowed by the options;
#  - the directory holds only `metadata` and stream files, every stream
#    file is an exact sequence of whole packets with the trace's UUID;
#  - the events babeltrace2 decodes, per CPU and in order, are exactly the
#    expected records of the packets present on disk (timestamps, names,
#    vtid, payload values);
#  - scenario options: --all (every packet but the --absent CPU:SEQ ones
#    is there; those are not),
#    --prefix (each stream holds packets 0..k), --discarded N (events
#    reported discarded, with counts), --files LIST, --closing (each
#    stream ends with the closing packet of a full disk, after a gap:
#    consumer/reserve.c).
import argparse
import os
import re
import struct
import subprocess
import sys

import bt2

HDR = struct.Struct("<I16sIQQQIQQQQ")   # struct ust_packet_header
CTF_MAGIC = 0xC1FC1FC1
NAMES = {0: "test:ev", 1: "test:blob", 40: "test:str"}


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def run_babeltrace(path, allow):
    p = subprocess.run(["babeltrace2", path], stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        fail("babeltrace2 exited %d: %s" % (p.returncode, p.stderr[-3000:]))
    for line in p.stderr.splitlines():
        if not any(re.search(a, line) for a in allow):
            fail("babeltrace2 printed: " + line)


def metadata_uuid(path):
    with open(os.path.join(path, "metadata")) as f:
        text = f.read()
    if not text.startswith("/* CTF 1.8 */"):
        fail("metadata does not start with the CTF 1.8 signature")
    m = re.search(r'trace \{[^}]*?uuid = "([0-9a-f-]{36})"', text, re.S)
    if not m:
        fail("no trace uuid in metadata")
    return bytes.fromhex(m.group(1).replace("-", ""))


def read_packets(path, name, uuid):
    """(cpu, seq) of each packet of a stream file; checks whole packets."""
    with open(os.path.join(path, name), "rb") as f:
        data = f.read()
    seqs, off = [], 0
    while off < len(data):
        if len(data) - off < HDR.size:
            fail("%s: partial packet header at %d" % (name, off))
        (magic, puuid, sid, inst, tsb, seq, cpu, tse, content,
         size, lost) = HDR.unpack_from(data, off)
        if magic != CTF_MAGIC or puuid != uuid:
            fail("%s: bad magic or uuid at %d" % (name, off))
        if size % 8 or size < content or size // 8 > len(data) - off:
            fail("%s: packet at %d runs past the file" % (name, off))
        if size != content:
            fail("%s: packet at %d is padded (%d/%d bits)" % (name, off, content, size))
        seqs.append((cpu, seq))
        off += size // 8
    return seqs


def decoded_events(path):
    """Per cpu: list of (ts, name, vtid, value) as babeltrace2 decodes them."""
    out, discarded = {}, 0
    for m in bt2.TraceCollectionMessageIterator(path):
        if type(m) is bt2._DiscardedEventsMessageConst:
            if m.count is not None:
                discarded += m.count
            continue
        if type(m) is not bt2._EventMessageConst:
            continue
        ev = m.event
        cpu = int(ev.packet.context_field["cpu_id"])
        vtid = int(ev.common_context_field["vtid"])
        if ev.name in ("test:ev", "test:blob"):
            value = int(ev.payload_field["v"])
        elif ev.name == "test:str":
            value = int(ev.payload_field["n"])
            if str(ev.payload_field["s"]) != "str%d" % value:
                fail("test:str %d has s=%r" % (value, str(ev.payload_field["s"])))
        else:
            fail("unexpected event " + ev.name)
        out.setdefault(cpu, []).append(
            (m.default_clock_snapshot.value, ev.name, vtid, value))
    return out, discarded


def expected_events(expect, present):
    out, all_seqs = {}, set()
    with open(expect) as f:
        for line in f:
            cpu, seq, ts, eid, vtid, value = (int(x) for x in line.split())
            all_seqs.add((cpu, seq))
            if (cpu, seq) in present:
                out.setdefault(cpu, []).append((ts, NAMES[eid], vtid, value))
    return out, all_seqs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("trace")
    ap.add_argument("expect")
    ap.add_argument("--all", action="store_true")
    ap.add_argument("--prefix", action="store_true")
    ap.add_argument("--absent", action="append", default=[])
    ap.add_argument("--discarded", type=int)
    ap.add_argument("--allow", action="append", default=[])
    ap.add_argument("--files")
    ap.add_argument("--closing", action="store_true")
    a = ap.parse_args()

    run_babeltrace(a.trace, a.allow)
    uuid = metadata_uuid(a.trace)
    files = sorted(n for n in os.listdir(a.trace) if n != "metadata")
    if a.files is not None and files != sorted(a.files.split()):
        fail("files %s, expected %s" % (files, a.files.split()))
    present = set()
    for name in files:
        if name.startswith("."):
            fail("hidden file left behind: " + name)
        seqs = read_packets(a.trace, name, uuid)
        cpus = {c for c, _ in seqs}
        if cpus != {int(name.split("_")[-1])}:
            fail("%s holds packets of cpus %s" % (name, cpus))
        if a.closing:
            if len(seqs) < 2 or seqs[-1][1] <= seqs[-2][1] + 1:
                fail("%s: no closing packet after a gap: %s" % (name, seqs))
            seqs = seqs[:-1]
        if a.prefix and [s for _, s in seqs] != list(range(len(seqs))):
            fail("%s: packets %s are not 0..k" % (name, [s for _, s in seqs]))
        present.update(seqs)

    got, discarded = decoded_events(a.trace)
    want, all_seqs = expected_events(a.expect, present)
    absent = {tuple(int(x) for x in item.split(":")) for item in a.absent}
    if absent & present:
        fail("packets %s should have been skipped" % sorted(absent & present))
    if a.all and not all_seqs - absent <= present:
        fail("packets missing: %s" % sorted(all_seqs - absent - present))
    if a.discarded is not None and discarded != a.discarded:
        fail("%d events reported discarded, expected %d" % (discarded, a.discarded))
    for cpu in sorted(set(got) | set(want)):
        g, w = got.get(cpu, []), want.get(cpu, [])
        if g != w:
            for i, (x, y) in enumerate(zip(g, w)):
                if x != y:
                    fail("cpu %d event %d: got %s, expected %s" % (cpu, i, x, y))
            fail("cpu %d: %d events, expected %d" % (cpu, len(g), len(w)))
    total = sum(len(v) for v in got.values())
    print("ok: %d events in %d packets" % (total, len(present)))


if __name__ == "__main__":
    main()
