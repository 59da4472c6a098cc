#!/usr/bin/python3
# check_kernel.py - read a `ust record --kernel` session back with
# babeltrace2 (python3-bt2) and check what the kernel bridge promises.
#
# SPDX-License-Identifier: GPL-2.0-only
#
#   check_kernel.py DIR --between N MIN   of the N (ktest:before i, getppid(),
#                                         ktest:after i), at least MIN have the
#                                         kernel's syscall_entry_getppid of the
#                                         same thread between the two, in the
#                                         merged, time-ordered trace
#   check_kernel.py DIR --sched TID       sched_switch shows TID switched out
#                                         and back in; fork/exec/exit name it
#   check_kernel.py DIR --layout          the agreed event and field names,
#                                         contexts, env and shared clock block
#   check_kernel.py DIR --classes A,B,..  exactly these event classes
#   check_kernel.py DIR --statedump TID   the statedump's order and content
#                                         (the recorder, TID's maps, lo, disks)
#   check_kernel.py DIR --threads PID TIDS CPU
#                                         every event of the threads TIDS
#                                         (comma-separated) has pid PID; each
#                                         has its getppid() and exit on CPU,
#                                         and a fork of process PID
import argparse
import os
import re
import sys

import bt2


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def events(path):
    """(name, event) of every event of the traces under path, in time order."""
    for m in bt2.TraceCollectionMessageIterator(path):
        if type(m) is bt2._EventMessageConst:
            yield m.event.name, m.event, m.default_clock_snapshot.ns_from_origin


def payload(ev):
    return {k: ev.payload_field[k] for k in ev.payload_field.keys()}


def check_between(root, n, minimum):
    hit = set()
    cur = None
    vtid = None
    for name, ev, _ in events(root):
        if name == "ktest:before":
            cur = int(ev.payload_field["seq"])
            vtid = int(ev.common_context_field["vtid"])
        elif name == "ktest:after":
            cur = None
        elif (name == "syscall_entry_getppid" and cur is not None
              and int(ev.common_context_field["tid"]) == vtid):
            hit.add(cur)
    if len(hit) < minimum:
        fail("only %d of %d getppid() calls lie between their user events "
             "(need %d)" % (len(hit), n, minimum))
    print("%d of %d getppid() between their user events" % (len(hit), n))


def check_sched(root, tid):
    """
    The thread is switched out (prev_tid, prev_comm) and back in.  A
    switch in may be missing from the trace: some kernels do not record
    every sched_switch (on the test machines, those out of one daemon's
    threads, even in a bare ftrace instance); the thread's own events on a
    CPU where the last switch put another thread show it ran there.
    """
    outs = ins = unrecorded = 0
    seen = set()
    cur = {}
    for name, ev, _ in events(os.path.join(root, "kernel")):
        if name.startswith("lttng_statedump_"):
            continue
        cpu = int(ev.packet.context_field["cpu_id"])
        ctx = int(ev.common_context_field["tid"])
        if ctx == tid and cur.get(cpu) != tid:
            unrecorded += 1
        cur[cpu] = ctx
        if name == "sched_switch":
            p = payload(ev)
            cur[cpu] = int(p["next_tid"])
            # Before its exec the thread is still called "ust".
            if int(p["prev_tid"]) == tid and str(p["prev_comm"]) == "kworkload":
                outs += 1
                if ctx != tid:
                    fail("sched_switch out of %d in the context of %s" % (tid, ctx))
            if int(p["next_tid"]) == tid and str(p["next_comm"]) == "kworkload":
                ins += 1
        elif name == "sched_process_fork":
            p = payload(ev)
            if int(p["child_tid"]) == tid:
                if int(p["child_pid"]) != tid:
                    fail("fork: child_pid %s for a new process %d"
                         % (p["child_pid"], tid))
                seen.add("fork")
        elif name == "sched_process_exec" and int(payload(ev)["tid"]) == tid:
            if not str(payload(ev)["filename"]).endswith("/kworkload"):
                fail("exec of %s" % payload(ev)["filename"])
            seen.add("exec")
        elif name == "sched_process_exit" and int(payload(ev)["tid"]) == tid:
            seen.add("exit")
    # Every switch out but the first follows a switch in, recorded or not.
    if outs == 0 or ins + unrecorded < max(outs - 1, 1):
        fail("thread %d switched out %d times and in %d times (%d more ins not "
             "recorded)" % (tid, outs, ins, unrecorded))
    if seen != {"fork", "exec", "exit"}:
        fail("thread %d: saw only %s of fork, exec, exit" % (tid, sorted(seen)))
    print("thread %d: %d switches out, %d in (%d not recorded by the kernel); "
          "fork, exec, exit" % (tid, outs, ins, unrecorded))


FIELDS = {
    "sched_switch": ["prev_comm", "prev_tid", "prev_prio", "prev_state",
                     "next_comm", "next_tid", "next_prio"],
    "sched_wakeup": ["comm", "tid", "prio", "target_cpu", "ust_in_interrupt"],
    "sched_process_fork": ["parent_comm", "parent_tid", "parent_pid",
                           "child_comm", "child_tid", "child_pid"],
    "sched_process_exec": ["filename", "tid", "old_tid"],
    "syscall_exit_getppid": ["ret"],
    "syscall_entry_getppid": [],
    "syscall_entry_clock_nanosleep": ["which_clock", "flags", "rqtp", "rmtp"],
    "syscall_entry_openat": ["dfd", "filename", "flags", "mode"],
    "lttng_statedump_start": [],
    "lttng_statedump_end": [],
    "lttng_statedump_process_state": ["tid", "pid", "ppid", "name", "type", "mode",
                                      "submode", "status", "cpu",
                                      "file_table_address"],
    "lttng_statedump_file_descriptor": ["file_table_address", "fd", "flags",
                                        "fmode", "filename", "pid"],
    "lttng_statedump_interrupt": ["irq", "name", "action", "tid"],
    "lttng_statedump_network_interface": ["name", "address_ipv4"],
    "lttng_statedump_block_device": ["dev", "diskname"],
    "lttng_statedump_cpu_topology": ["architecture", "cpu_id", "vendor", "family",
                                     "model", "model_name", "physical_id",
                                     "core_id", "cores"],
}

# Fields that start these (kernels >= 6.16 add sched_process_exit's group_dead).
FIELDS_PREFIX = {
    "sched_process_exit": ["comm", "tid", "prio"],
}

# The statedump classes every kernel trace declares.
STATEDUMP = ["lttng_statedump_start", "lttng_statedump_process_state",
             "lttng_statedump_file_descriptor", "lttng_statedump_vm_map",
             "lttng_statedump_interrupt", "lttng_statedump_network_interface",
             "lttng_statedump_block_device", "lttng_statedump_cpu_topology",
             "lttng_statedump_end"]

# env entries as lttng-modules 2.13 writes them (the ones tools key on).
ENV = {"domain": "kernel", "tracer_name": "lttng-modules", "tracer_major": 2,
       "tracer_minor": 13, "tracer_patchlevel": 0,
       "trace_buffering_scheme": "global"}


def block(text, word):
    m = re.search(r"^%s \{.*?^\};\n" % word, text, re.M | re.S)
    if not m:
        fail("no %s block" % word)
    return m.group(0)


def check_metadata(root):
    kmeta = open(os.path.join(root, "kernel", "metadata")).read()
    users = [d for d in os.listdir(root)
             if d != "kernel" and os.path.isfile(os.path.join(root, d, "metadata"))]
    if len(users) != 1:
        fail("%d user traces" % len(users))
    umeta = open(os.path.join(root, users[0], "metadata")).read()
    if block(kmeta, "clock") != block(umeta, "clock"):
        fail("clock blocks differ:\n%s\n%s" % (block(kmeta, "clock"),
                                              block(umeta, "clock")))
    env = block(kmeta, "env")
    for key, value in ENV.items():
        want = '\t%s = %s;' % (key, '"%s"' % value if isinstance(value, str) else value)
        if want not in env.split("\n"):
            fail("kernel env has no '%s': %s" % (want.strip(), env))
    for key in ("hostname", "sysname", "kernel_release", "kernel_version",
                "trace_name", "trace_creation_datetime", "ust_kernel_scope"):
        if not re.search(r"^\t%s = \".+\";$" % key, env, re.M):
            fail("kernel env has no %s: %s" % (key, env))
    if not re.search(r"^\t\tint32_t _tid;\n\t\tint32_t _pid;$", kmeta, re.M):
        fail("kernel stream event context is not { _tid, _pid }")
    if block(kmeta, "trace") == block(umeta, "trace"):
        fail("the kernel and user traces share a trace UUID")


def check_layout(root):
    check_metadata(root)
    seen = set()
    for name, ev, _ in events(os.path.join(root, "kernel")):
        cpu = int(ev.packet.context_field["cpu_id"])
        if not ev.stream.name.endswith("/kernel_%d" % cpu):
            fail("cpu_id %d in stream %s" % (cpu, ev.stream.name))
        if list(ev.common_context_field.keys()) != ["tid", "pid"]:
            fail("event context %s" % list(ev.common_context_field.keys()))
        keys = list(ev.payload_field.keys())
        if name in FIELDS and name not in seen and keys != FIELDS[name]:
            fail("%s fields %s, not %s" % (name, keys, FIELDS[name]))
        if name in FIELDS_PREFIX and keys[:len(FIELDS_PREFIX[name])] != FIELDS_PREFIX[name]:
            fail("%s fields %s, not %s..." % (name, keys, FIELDS_PREFIX[name]))
        if name in FIELDS or name in FIELDS_PREFIX:
            seen.add(name)
        if name == "sched_switch" and str(ev.payload_field["next_comm"]) == "kworkload":
            # LTTng's prio is the kernel's less MAX_RT_PRIO: 20 at nice 0.
            if int(ev.payload_field["next_prio"]) != 20:
                fail("kworkload's next_prio %s, not 20" % ev.payload_field["next_prio"])
            seen.add("prio")
        if name == "syscall_entry_openat":
            dfd = ev.payload_field["dfd"]
            if not isinstance(dfd.cls, bt2._SignedIntegerFieldClassConst) or \
                    dfd.cls.field_value_range != 32:
                fail("openat's dfd is not an int32 (AT_FDCWD reads -100 in LTTng)")
        if name == "syscall_exit_getppid":
            ret = ev.payload_field["ret"]
            if ret.cls.field_value_range != 64 or not isinstance(
                    ret.cls, bt2._SignedIntegerFieldClassConst):
                fail("syscall_exit ret is not an int64")
    missing = {"sched_switch", "syscall_entry_getppid", "syscall_exit_getppid",
               "sched_process_exec", "sched_process_exit", "prio",
               "lttng_statedump_start", "lttng_statedump_process_state",
               "lttng_statedump_file_descriptor", "lttng_statedump_interrupt",
               "lttng_statedump_network_interface", "lttng_statedump_block_device",
               "lttng_statedump_cpu_topology", "lttng_statedump_end"} - seen
    if missing:
        fail("no %s events" % sorted(missing))
    print("layout: %s" % sorted(seen))


def check_statedump(root, tid):
    """
    The statedump at the start: start first, end after the rest of it;
    the recorder (the process whose fd 1 is DIR/../out, `ust record`) with
    its descriptors' file names and file_table_address; the workload's
    executable mapped after its exec, in its own context; lo at
    127.0.0.1; every block device of /sys/class/block with its dev_t.
    """
    out = os.path.realpath(os.path.join(os.path.dirname(root), "out"))
    err = os.path.realpath(os.path.join(os.path.dirname(root), "err"))
    order, fds, procs, maps, ifaces, disks = [], {}, {}, [], {}, {}
    for name, ev, _ in events(os.path.join(root, "kernel")):
        if not name.startswith("lttng_statedump_"):
            continue
        p = payload(ev)
        order.append(name)
        if name == "lttng_statedump_file_descriptor":
            fds.setdefault(int(p["pid"]), {})[int(p["fd"])] = (
                str(p["filename"]), int(p["file_table_address"]))
        elif name == "lttng_statedump_process_state":
            procs[int(p["tid"])] = (int(p["pid"]), str(p["name"]), int(p["type"]))
        elif name == "lttng_statedump_vm_map":
            maps.append((int(p["pid"]), str(p["filename"]), int(p["flags"]),
                         int(ev.common_context_field["tid"])))
        elif name == "lttng_statedump_network_interface":
            ifaces.setdefault(str(p["name"]), []).append(int(p["address_ipv4"]))
        elif name == "lttng_statedump_block_device":
            disks[str(p["diskname"])] = int(p["dev"])
    if not order or order[0] != "lttng_statedump_start" or \
            "lttng_statedump_end" not in order:
        fail("statedump order %s..." % order[:3])
    end = order.index("lttng_statedump_end")
    late = set(order[end + 1:]) - {"lttng_statedump_vm_map"}
    if late:
        fail("statedump events after lttng_statedump_end: %s" % sorted(late))
    # fd 1 on it: ust record, ust-kerneld, and the child forked for the
    # command when it was there already (still called "ust"; its pid is
    # the workload's).
    rec = [pid for pid, t in fds.items() if t.get(1, ("",))[0] == out and pid != tid and
           procs.get(pid, (0, ""))[1] == "ust"]
    if len(rec) != 1:
        fail("%d processes 'ust' with fd 1 on %s in the statedump: %s" % (
            len(rec), out, [(p, procs.get(p)) for p, t in fds.items()
                            if t.get(1, ("",))[0] == out]))
    pid = rec[0]
    if fds[pid].get(2) != (err, pid):
        fail("the recorder's fd 2 is %s, not (%s, %d)" % (fds[pid].get(2), err, pid))
    if procs.get(pid) != (pid, "ust", 0):
        fail("the recorder's process_state is %s, not (%d, ust, user)"
             % (procs.get(pid), pid))
    exe = [m for m in maps if m[0] == tid and m[1].endswith("/kworkload") and m[2] & 4]
    if not exe or any(m[3] != tid for m in exe):
        fail("no executable map of kworkload in its context: %s"
             % [m for m in maps if m[0] == tid][:5])
    if 0x7f000001 not in ifaces.get("lo", []):
        fail("lo: %s" % ifaces.get("lo"))
    for dev in os.listdir("/sys/class/block"):
        major, minor = open("/sys/class/block/%s/dev" % dev).read().split(":")
        if disks.get(dev) != (int(major) << 20) | int(minor):
            fail("block device %s: %s in the statedump, %s:%s in /sys"
                 % (dev, disks.get(dev), major, minor.strip()))
    print("statedump: %d events; recorder %d with %d descriptors; %d maps of %d"
          % (len(order), pid, len(fds[pid]), len(exe), tid))


def check_flight_kernel(snap, kernel, tid, reason):
    """
    The kernel part of a flight snapshot ends where the user part does:
    no event after the trigger, every stream's last packet ending at it;
    it has system calls of the traced thread.
    """
    cut = None
    for name, ev, ns in events(snap):
        if name == "ust:trigger" and str(ev.payload_field["reason"]) == reason:
            cut = ns
    if cut is None:
        fail("no ust:trigger %s in %s" % (reason, snap))
    calls = 0
    ends = []
    for m in bt2.TraceCollectionMessageIterator(kernel):
        if type(m) is bt2._EventMessageConst:
            ns = m.default_clock_snapshot.ns_from_origin
            if ns > cut:
                fail("kernel event %s at %d, after the cut %d" % (m.event.name, ns, cut))
            if m.event.name.startswith("syscall_entry_") and \
                    int(m.event.common_context_field["tid"]) == tid:
                calls += 1
        elif type(m) is bt2._PacketEndMessageConst:
            ends.append(m.default_clock_snapshot.ns_from_origin)
    if not calls:
        fail("no system call of thread %d in %s" % (tid, kernel))
    if max(ends) != cut:
        fail("the kernel part ends at %d, the user part at %d" % (max(ends), cut))
    print("kernel part: %d system calls of %d, ends at the trigger" % (calls, tid))


def check_threads(root, pid, tids, cpu):
    """
    Threads of process `pid` that ran on `cpu` and were made on another:
    every event in their context says `pid`, and so does their creation.
    """
    seen = {t: set() for t in tids}
    wrong = []
    for name, ev, _ in events(os.path.join(root, "kernel")):
        if name == "sched_process_fork":
            p = payload(ev)
            child = int(p["child_tid"])
            if child in seen:
                seen[child].add("fork")
                if int(p["child_pid"]) != pid or int(p["parent_pid"]) != pid:
                    fail("fork of thread %d: parent_pid %s, child_pid %s, not %d"
                         % (child, p["parent_pid"], p["child_pid"], pid))
        if name.startswith("lttng_statedump_"):
            continue
        tid = int(ev.common_context_field["tid"])
        if tid not in seen:
            continue
        if int(ev.common_context_field["pid"]) != pid:
            wrong.append("%s of thread %d: pid %s" % (
                name, tid, ev.common_context_field["pid"]))
        if int(ev.packet.context_field["cpu_id"]) == cpu and name in (
                "syscall_entry_getppid", "sched_process_exit"):
            seen[tid].add(name)
    if wrong:
        fail("%d events of the threads of process %d say another process: %s"
             % (len(wrong), pid, "; ".join(wrong[:5])))
    want = {"fork", "syscall_entry_getppid", "sched_process_exit"}
    short = {t: sorted(want - s) for t, s in seen.items() if s != want}
    if short:
        fail("threads missing events (on CPU %d): %s" % (cpu, short))
    print("%d threads of process %d: every event says so" % (len(tids), pid))


def check_classes(root, names):
    """Exactly these classes besides the statedump's."""
    meta = open(os.path.join(root, "kernel", "metadata")).read()
    got = set(re.findall(r'^\tname = "([^"]*)";$', meta, re.M))
    got.discard("ust_clock")
    if not set(STATEDUMP) <= got:
        fail("statedump classes %s missing" % sorted(set(STATEDUMP) - got))
    got -= set(STATEDUMP)
    if got != set(names):
        fail("classes %s, not %s" % (sorted(got), sorted(names)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--between", nargs=2, type=int)
    ap.add_argument("--sched", type=int)
    ap.add_argument("--layout", action="store_true")
    ap.add_argument("--classes")
    ap.add_argument("--statedump", type=int)
    ap.add_argument("--flight-kernel", nargs=3)
    ap.add_argument("--threads", nargs=3)
    a = ap.parse_args()
    if a.flight_kernel:
        check_flight_kernel(a.dir, a.flight_kernel[0], int(a.flight_kernel[1]),
                            a.flight_kernel[2])
    if a.between:
        check_between(a.dir, *a.between)
    if a.sched is not None:
        check_sched(a.dir, a.sched)
    if a.layout:
        check_layout(a.dir)
    if a.classes:
        check_classes(a.dir, a.classes.split(","))
    if a.statedump is not None:
        check_statedump(a.dir, a.statedump)
    if a.threads:
        check_threads(a.dir, int(a.threads[0]),
                      [int(t) for t in a.threads[1].split(",")], int(a.threads[2]))


main()
