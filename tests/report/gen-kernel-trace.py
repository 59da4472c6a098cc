#!/usr/bin/python3
# gen-kernel-trace.py - write a small kernel trace in the agreed format
# (doc/ust-report.md): a known workload for the report's kernel analyses.
# SPDX-License-Identifier: GPL-2.0-only
#
#   gen-kernel-trace.py OUTDIR [USER_METADATA FIRST_CYCLES]
#
# Writes OUTDIR/metadata and OUTDIR/kernel_0, kernel_1: a CTF 1.8 trace,
# env domain = "kernel", packet context cpu_id, stream event context
# int32 tid.  The clock runs at 1 GHz from 2023-11-14 22:13:20 UTC
# (offset_s = 1700000000), so cycles are ns.  With USER_METADATA (a user
# trace's metadata), the trace takes that clock block (frequency,
# offsets, uuid) and starts at FIRST_CYCLES of it: then both traces
# merge in one session (the figures are then rounded to its frequency).
#
# The workload, in ms from the start (T0), 2 CPUs:
#   tasks (statedump): 1 init, 100 busy, 101 busy (thread of 100),
#                      200 sleepy
#   cpu 0: 100 runs [0, 600), 200 runs [600, 700), idle after;
#          5 read calls of tid 100 at 100 + 10k ms, k = 0..4, lasting
#          (k + 1) * 10 us; openat of tid 200 at 610 ms lasting 5 ms;
#          nanosleep entered by 200 at 690 ms, never exited;
#          irq 19 "eth0" at 300 ms, softirq vec 3 at 301 ms;
#          sched_wakeup of 200 at 599 ms; last event at 1000 ms
#   cpu 1: 101 runs [0, 500), idle [500, 800), 300 runs [800, 900),
#          idle after; 100 write calls of tid 101, the i-th (1..100) at
#          1 + 4i ms lasting i us; 200 forks 300 at 800 ms, which execs
#          /usr/bin/worker; an exit of read by 300 at 850 ms without its
#          entry; 300 exits at 899.999 ms
#   packets of at most 1 KiB; on cpu 1 the second packet says 7 events
#   were discarded, and one packet sequence number is skipped.
import os
import re
import struct
import sys
import uuid as uuidlib

MS = 1000000
US = 1000

EVENTS = [
    # name, fields: (name, type)
    ("sched_switch", [("prev_comm", "comm"), ("prev_tid", "s32"), ("prev_prio", "s32"),
                      ("prev_state", "s64"), ("next_comm", "comm"), ("next_tid", "s32"),
                      ("next_prio", "s32")]),
    ("sched_wakeup", [("comm", "comm"), ("tid", "s32"), ("prio", "s32"),
                      ("target_cpu", "s32")]),
    ("sched_process_fork", [("parent_comm", "comm"), ("parent_tid", "s32"),
                            ("parent_pid", "s32"), ("child_comm", "comm"),
                            ("child_tid", "s32"), ("child_pid", "s32")]),
    ("sched_process_exec", [("filename", "string"), ("tid", "s32"), ("old_tid", "s32")]),
    ("sched_process_exit", [("comm", "comm"), ("tid", "s32"), ("prio", "s32")]),
    ("lttng_statedump_process_state", [("tid", "s32"), ("pid", "s32"), ("ppid", "s32"),
                                       ("name", "comm")]),
    ("irq_handler_entry", [("irq", "s32"), ("name", "string")]),
    ("irq_handler_exit", [("irq", "s32"), ("ret", "s32")]),
    ("irq_softirq_entry", [("vec", "u32")]),
    ("irq_softirq_exit", [("vec", "u32")]),
    ("syscall_entry_read", [("fd", "u32"), ("buf", "u64h"), ("count", "u64")]),
    ("syscall_exit_read", [("ret", "s64")]),
    ("syscall_entry_write", [("fd", "u32"), ("buf", "u64h"), ("count", "u64")]),
    ("syscall_exit_write", [("ret", "s64")]),
    ("syscall_entry_openat", [("dfd", "s32"), ("filename", "string"), ("flags", "s32")]),
    ("syscall_exit_openat", [("ret", "s64")]),
    ("syscall_entry_nanosleep", [("rqtp", "u64h")]),
    ("syscall_exit_nanosleep", [("ret", "s64")]),
]
IDS = {name: i for i, (name, _) in enumerate(EVENTS)}
FIELDS = dict(EVENTS)

TSDL_TYPE = {
    "u32": "uint32_t", "s32": "int32_t", "s64": "int64_t", "u64": "uint64_t",
    "string": "string",
    "u64h": "integer { size = 64; align = 8; signed = false; base = 16; }",
    "comm": "integer { size = 8; align = 8; signed = false; encoding = UTF8; base = 10; }",
}
PACK = {"u32": "<I", "s32": "<i", "s64": "<q", "u64": "<Q", "u64h": "<Q"}


def workload():
    """(ns, cpu, tid, event name, values) of every event."""
    ev = []

    def add(t, cpu, tid, name, *vals):
        ev.append((t, cpu, tid, name, vals))

    def switch(t, cpu, prev, prev_comm, nxt, next_comm):
        add(t, cpu, prev, "sched_switch", prev_comm, prev, 120, 1 if prev else 0,
            next_comm, nxt, 120)

    for tid, pid, ppid, name in ((1, 1, 0, "init"), (100, 100, 1, "busy"),
                                 (101, 100, 1, "busy"), (200, 200, 1, "sleepy")):
        add(0, 0, 0, "lttng_statedump_process_state", tid, pid, ppid, name)
    switch(0, 0, 0, "swapper/0", 100, "busy")
    switch(0, 1, 0, "swapper/1", 101, "busy")
    for k in range(5):
        t = 100 * MS + k * 10 * MS
        add(t, 0, 100, "syscall_entry_read", 3, 0x7ffd0000 + k, 4096)
        add(t + (k + 1) * 10 * US, 0, 100, "syscall_exit_read", 4096)
    for i in range(1, 101):
        t = 1 * MS + 4 * i * MS
        add(t, 1, 101, "syscall_entry_write", 1, 0x5000, i)
        add(t + i * US, 1, 101, "syscall_exit_write", i)
    add(300 * MS, 0, 100, "irq_handler_entry", 19, "eth0")
    add(300 * MS + 2 * US, 0, 100, "irq_handler_exit", 19, 1)
    add(301 * MS, 0, 100, "irq_softirq_entry", 3)
    add(301 * MS + 5 * US, 0, 100, "irq_softirq_exit", 3)
    switch(500 * MS, 1, 101, "busy", 0, "swapper/1")
    add(599 * MS, 0, 100, "sched_wakeup", "sleepy", 200, 120, 0)
    switch(600 * MS, 0, 100, "busy", 200, "sleepy")
    add(610 * MS, 0, 200, "syscall_entry_openat", -100, "/etc/passwd", 0)
    add(615 * MS, 0, 200, "syscall_exit_openat", 3)
    add(690 * MS, 0, 200, "syscall_entry_nanosleep", 0x6000)
    switch(700 * MS, 0, 200, "sleepy", 0, "swapper/0")
    add(800 * MS, 1, 200, "sched_process_fork", "sleepy", 200, 200, "sleepy", 300, 300)
    switch(800 * MS, 1, 0, "swapper/1", 300, "sleepy")
    add(800 * MS + 1 * US, 1, 300, "sched_process_exec", "/usr/bin/worker", 300, 300)
    add(850 * MS, 1, 300, "syscall_exit_read", -4)
    add(899999 * US, 1, 300, "sched_process_exit", "worker", 300, 120)
    switch(900 * MS, 1, 300, "worker", 0, "swapper/1")
    switch(1000 * MS, 0, 0, "swapper/0", 100, "busy")
    return ev


def event_bytes(eid, cycles, tid, name, vals):
    b = bytearray(struct.pack("<IQi", eid, cycles, tid))
    for (_, ftype), v in zip(FIELDS[name], vals):
        if ftype == "string":
            b += v.encode() + b"\0"
        elif ftype == "comm":
            b += v.encode()[:16].ljust(16, b"\0")
        else:
            b += struct.pack(PACK[ftype], v)
    return b


# packet header: magic, uuid[16], stream_id; context: see METADATA.
# Every field of an event is byte aligned, so events follow each other.
HEADER_SIZE = 4 + 16 + 4
CONTEXT_SIZE = 8 * 6 + 4
PACKET_MAX = 1024


def packet(trace_uuid, cpu, seq, discarded, events):
    """events: [(cycles, bytes)] -> one packet, padded to 8 bytes."""
    body = b"".join(b for _, b in events)
    content = HEADER_SIZE + CONTEXT_SIZE + len(body)
    size = (content + 7) // 8 * 8
    p = struct.pack("<I", 0xC1FC1FC1) + trace_uuid + struct.pack("<I", 0)
    p += struct.pack("<QQQQQQI", events[0][0], events[-1][0], content * 8, size * 8,
                     seq, discarded, cpu)
    p += body
    return p + bytes(size - len(p))


METADATA = """/* CTF 1.8 */

typealias integer {{ size = 8; align = 8; signed = false; }} := uint8_t;
typealias integer {{ size = 32; align = 8; signed = false; }} := uint32_t;
typealias integer {{ size = 64; align = 8; signed = false; }} := uint64_t;
typealias integer {{ size = 32; align = 8; signed = true; }} := int32_t;
typealias integer {{ size = 64; align = 8; signed = true; }} := int64_t;

trace {{
	major = 1;
	minor = 8;
	uuid = "{uuid}";
	byte_order = le;
	packet.header := struct {{
		uint32_t magic;
		uint8_t uuid[16];
		uint32_t stream_id;
	}} align(8);
}};

env {{
	hostname = "vm";
	domain = "kernel";
	tracer_name = "ust";
	tracer_major = 0;
	tracer_minor = 1;
}};

{clock}

typealias integer {{ size = 64; align = 8; signed = false; map = clock.{clock_name}.value; }} := uint64_clock_t;

stream {{
	id = 0;
	packet.context := struct {{
		uint64_clock_t timestamp_begin;
		uint64_clock_t timestamp_end;
		uint64_t content_size;
		uint64_t packet_size;
		uint64_t packet_seq_num;
		uint64_t events_discarded;
		uint32_t cpu_id;
	}} align(8);
	event.header := struct {{
		uint32_t id;
		uint64_clock_t timestamp;
	}} align(8);
	event.context := struct {{
		int32_t _tid;
	}} align(8);
}};
"""

DEFAULT_CLOCK = """clock {
	name = "ust_clock";
	uuid = "1b4c2b4f-95a1-4e6b-a8b4-7c3c7b0f5a11";
	description = "generated";
	freq = 1000000000;
	precision = 1;
	offset_s = 1700000000;
	offset = 0;
	absolute = TRUE;
};"""


def event_tsdl(eid, name):
    fields = " ".join(
        "%s _%s%s;" % (TSDL_TYPE[t], f, "[16]" if t == "comm" else "")
        for f, t in FIELDS[name])
    return ('event {\n\tname = "%s";\n\tid = %d;\n\tstream_id = 0;\n'
            '\tfields := struct {\n\t\t%s\n\t};\n};\n' % (name, eid, fields))


def main():
    out = sys.argv[1]
    clock, clock_name, freq, first = DEFAULT_CLOCK, "ust_clock", 10 ** 9, 0
    if len(sys.argv) > 3:
        with open(sys.argv[2]) as f:
            text = f.read()
        clock = re.search(r"clock \{.*?\n\};", text, re.S).group(0)
        clock_name = re.search(r"name = \"?([A-Za-z_0-9]+)", clock).group(1)
        freq = int(re.search(r"freq = (\d+);", clock).group(1))
        first = int(sys.argv[3])
    trace_uuid = uuidlib.UUID("5f0e0d3c-2b1a-4c9d-8e7f-6a5b4c3d2e1f")
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "metadata"), "w") as f:
        f.write(METADATA.format(uuid=trace_uuid, clock=clock, clock_name=clock_name))
        for name, eid in IDS.items():
            f.write("\n" + event_tsdl(eid, name))
    events = sorted(workload(), key=lambda e: (e[1], e[0]))	# stable
    for cpu in (0, 1):
        mine = []
        for t, c, tid, name, vals in events:
            if c == cpu:
                cyc = first + t * freq // 10 ** 9
                mine.append((cyc, event_bytes(IDS[name], cyc, tid, name, vals)))
        packets, cur, size = [], [], HEADER_SIZE + CONTEXT_SIZE
        for cyc, b in mine:
            if cur and size + len(b) > PACKET_MAX:
                packets.append(cur)
                cur, size = [], HEADER_SIZE + CONTEXT_SIZE
            cur.append((cyc, b))
            size += len(b)
        packets.append(cur)
        with open(os.path.join(out, "kernel_%d" % cpu), "wb") as f:
            seq, discarded = 0, 0
            for i, p in enumerate(packets):
                if cpu == 1 and i == 1:
                    discarded = 7
                if cpu == 1 and i == 3:
                    seq += 1	# one packet lost
                f.write(packet(trace_uuid.bytes, cpu, seq, discarded, p))
                seq += 1


main()
