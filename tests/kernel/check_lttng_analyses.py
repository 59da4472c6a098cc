#!/usr/bin/python3
# check_lttng_analyses.py - the LTTng analyses (Debian's python3-lttnganalyses,
# which read traces with babeltrace 1) on a `ust record --kernel` trace of
# kio: every tool runs without error, and where they compute the same figure
# as `ust report`, the figures are equal.
#
# SPDX-License-Identifier: GPL-2.0-only
#
#   check_lttng_analyses.py UST DIR TID RECEIVER FILE
#   check_lttng_analyses.py --gaps DIR TID...   exit 1 when a thread has a gap
#                                               (TID... and the threads of
#                                               the first one's process)
#
# The LTTng analyses take "the thread on a CPU" from sched_switch alone;
# `ust report` also from each event's _tid context.  They agree exactly
# when every sched_switch of the compared threads is in the trace.  Some
# kernels do not record them all (on the test machines, the switches out
# of one daemon's threads are missing from a bare ftrace instance too):
# --gaps finds a thread running where the last switch put another one
# or where no switch was seen yet (lttng-cputop then counts the thread
# from the start of the trace, `ust report` from its first event),
# and lttng-analyses.sh records again until no thread of the process
# (a sanitizer's runtime adds one) has a gap.
import json
import subprocess
import sys

TOOLS = ["cputop", "syscallstats", "iousagetop", "iolatencytop", "schedstats",
         "irqstats", "memtop"]


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def mi(tool, path):
    """The results of lttng-TOOL-mi on path, which must exit 0."""
    args = ["/usr/bin/python3", "/usr/bin/lttng-%s-mi" % tool]
    if tool == "cputop":
        args.append("--limit=1000000")
    p = subprocess.run(args + [path], capture_output=True, text=True, timeout=600)
    if p.returncode != 0 or "Traceback" in p.stderr:
        fail("lttng-%s-mi exits %d: %s" % (tool, p.returncode, p.stderr[-2000:]))
    try:
        return json.loads(p.stdout)["results"]
    except (ValueError, KeyError) as e:
        fail("lttng-%s-mi output is not its JSON (%s): %s" % (tool, e, p.stdout[:500]))


def ust_csv(ust, path, *args):
    """Rows of `ust report ARGS --csv`, split on commas (our names have none)."""
    p = subprocess.run([ust, "report", "--csv"] + list(args) + [path],
                       capture_output=True, text=True, timeout=600)
    if p.returncode != 0:
        fail("ust report %s: %s" % (" ".join(args), p.stderr))
    return [line.split(",") for line in p.stdout.splitlines() if line]


def lttng_cpu_ns(results):
    """tid -> CPU time in ns, from cputop's ratio of its time range."""
    cpu = {}
    for r in results:
        if r["class"] == "per-process":
            span = r["time-range"]["end"]["value"] - r["time-range"]["begin"]["value"]
            for row in r["data"]:
                cpu[row[0]["tid"]] = round(row[3]["value"] * span)
    return cpu


def lttng_syscalls(results, tid):
    for r in results:
        cls = r["class"]
        if isinstance(cls, dict) and cls.get("inherit") == "per-tid" and \
                cls["title"].endswith("TID: %d)]" % tid):
            return {row[0]["name"]: row[1]["value"] for row in r["data"]}
    fail("lttng-syscallstats has no table for thread %d" % tid)


def lttng_table(results, title):
    for r in results:
        cls = r["class"]
        if isinstance(cls, dict) and cls.get("title") == title:
            return r["data"]
    fail("lttng-iousagetop has no table '%s'" % title)


def gaps(path, tids):
    """Threads of `tids` seen running where sched_switch put another."""
    import bt2
    cur, found = {}, set()
    for m in bt2.TraceCollectionMessageIterator(path + "/kernel"):
        if type(m) is not bt2._EventMessageConst:
            continue
        ev = m.event
        if ev.name.startswith("lttng_statedump_"):
            continue
        cpu = int(ev.packet.context_field["cpu_id"])
        tid = int(ev.common_context_field["tid"])
        # A CPU where no switch was seen yet counts too: kio's threads
        # start after the trace, so each first runs through a switch.
        if tid in tids and cur.get(cpu) != tid:
            found.add(tid)
        cur[cpu] = int(ev.payload_field["next_tid"]) if ev.name == "sched_switch" else tid
    return found


def made_threads(path, pid):
    """Process `pid` and the threads it made (sched_process_fork with
    child_pid = pid; a sanitizer's runtime adds one of its own)."""
    import bt2
    made = {pid}
    for m in bt2.TraceCollectionMessageIterator(path + "/kernel"):
        if type(m) is bt2._EventMessageConst and m.event.name == "sched_process_fork" \
                and int(m.event.payload_field["child_pid"]) == pid:
            made.add(int(m.event.payload_field["child_tid"]))
    return made


def process_threads(path, pid):
    """The threads of process `pid` (made_threads).  Each of their events
    says `pid` in its pid context, and no other thread's does (the
    bridge's thread table)."""
    import bt2
    made = made_threads(path, pid)
    said = {}
    for m in bt2.TraceCollectionMessageIterator(path + "/kernel"):
        if type(m) is not bt2._EventMessageConst or m.event.name.startswith("lttng_statedump_"):
            continue
        ctx = m.event.common_context_field
        said.setdefault(int(ctx["tid"]), set()).add(int(ctx["pid"]))
    wrong = {t: sorted(p) for t, p in said.items()
             if (t in made and p != {pid}) or (t not in made and pid in p)}
    if wrong:
        fail("process %d made threads %s; the pid context of these says "
             "otherwise: %s" % (pid, sorted(made), wrong))
    return made


def main():
    if sys.argv[1] == "--gaps":
        # Every thread of the process: its CPU time is compared too.
        tids = [int(t) for t in sys.argv[3:]]
        found = gaps(sys.argv[2], set(tids) | made_threads(sys.argv[2], tids[0]))
        if found:
            print("sched_switch missing for threads %s" % sorted(found))
        sys.exit(1 if found else 0)
    ust, path, tid, receiver, out_file = sys.argv[1:6]
    tids = [int(tid), int(receiver)]
    kernel = path + "/kernel"
    res = {tool: mi(tool, kernel) for tool in TOOLS}

    # CPU time of each thread: cputop against --thread's running time.
    cpu = lttng_cpu_ns(res["cputop"])
    for t in tids:
        ours = [r for r in ust_csv(ust, path, "--thread", str(t)) if r[0] == "thread-state"]
        if t not in cpu or int(ours[0][1]) != cpu[t]:
            fail("thread %d: lttng-cputop %s ns, ust report %s ns"
                 % (t, cpu.get(t), ours[0][1]))
        # System calls of each thread: syscallstats against --thread's calls.
        theirs = lttng_syscalls(res["syscallstats"], t)
        ours = {r[1]: int(r[2]) for r in ust_csv(ust, path, "--thread", str(t))
                if r[0] == "thread-call"}
        if theirs != ours:
            diff = {k: (theirs.get(k), ours.get(k)) for k in set(theirs) | set(ours)
                    if theirs.get(k) != ours.get(k)}
            fail("thread %d system calls (lttng, ust): %s" % (t, diff))

    # CPU time of the process (--cpu, s to the ns): its threads' cputop sum
    # (kio's two, and any thread a sanitizer's runtime started).
    # Every process listed: on a busy machine others may outrank it.
    p = subprocess.run([ust, "report", "--cpu", "--top", "100000", path],
                       capture_output=True, text=True, timeout=600)
    row = [line.split() for line in p.stdout.splitlines()
           if line.split()[:1] == [str(tids[0])]]
    ours = round(float(row[0][2]) * 1e9) if row else None
    threads = sorted(process_threads(path, tids[0]))
    theirs = [cpu.get(t, 0) for t in threads]
    if ours != sum(theirs):
        fail("process %d: lttng-cputop %s ns (threads %s), ust report --cpu %s ns"
             % (tids[0], " + ".join(map(str, theirs)), threads, ours))

    # Bytes written to the file, and sent on the loopback interface.
    io = ust_csv(ust, path, "--io")
    ours = [r for r in io if r[0] == "io-file" and r[1] == out_file][0]
    files = lttng_table(res["iousagetop"], "Per-file top I/O operations [written]")
    theirs = [row[1]["value"] for row in files if row[0]["path"] == out_file]
    if theirs != [int(ours[4])]:
        fail("bytes written to %s: lttng-iousagetop %s, ust report %s"
             % (out_file, theirs, ours[4]))
    net = [r for r in ust_csv(ust, path, "--net") if r[0] == "net-interface" and r[1] == "lo"]
    ifaces = lttng_table(res["iousagetop"], "Per-network interface top I/O operations [sent]")
    theirs = [row[1]["value"] for row in ifaces if row[0]["name"] == "lo"]
    if not net or theirs != [int(net[0][2])]:
        fail("bytes sent on lo: lttng-iousagetop %s, ust report %s" % (theirs, net))
    print("lttng analyses agree: cpu %s ns, %d and %d system calls, %s bytes to %s, "
          "%s on lo" % ([cpu[t] for t in tids], sum(lttng_syscalls(res["syscallstats"], tids[0]).values()),
                        sum(lttng_syscalls(res["syscallstats"], tids[1]).values()), ours[4],
                        out_file, net[0][2]))


main()
