#!/usr/bin/python3
# check_compat.py - read a ust trace with python3-bt2 and check what LTTng's
# tools rely on: the environment, the context fields and their values.
#
# SPDX-License-Identifier: GPL-2.0-only
#
# Runs under Debian's /usr/bin/python3 (the only one with the bt2 module).
#
#   check_compat.py contexts TRACE PROG_OUTPUT PROG SOURCE MAIN_NAME
#       every ctxapp:hit of `ctxapp contexts` carries the vtid, vpid,
#       procname, pthread_id and ip of the thread and call site that
#       recorded it, with LTTng's types; MAIN_NAME is the main thread's
#       procname; the ip resolves (addr2line -i) to the line marked
#       "call site: NAME" in SOURCE
#   check_compat.py callsite TRACE PROG_OUTPUT PROG SOURCE EVENT SITE
#       the first EVENT's ip resolves to the line marked "call site: SITE"
#   check_compat.py env TRACE PID OUTDIR VERSION
#       the environment of an LTTng-UST 2.13 per-process trace, typed
#   check_compat.py lttng-events TRACE GOLDEN
#       every event class of GOLDEN (LTTng-UST 2.13's, name|loglevel|
#       fields) is in TRACE's metadata with the same log level and fields
#   check_compat.py tracecompass TRACE
#       the metadata keys Trace Compass's LTTng-UST support reads
#       (doc/compatibility.md, "What each tool reads")
import datetime
import os
import re
import socket
import subprocess
import sys

import bt2


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def events(trace, name=None):
    """The events of TRACE in time order; only those named NAME if given."""
    for m in bt2.TraceCollectionMessageIterator(trace):
        if type(m) is bt2._EventMessageConst and name in (None, m.event.name):
            yield m.event


def program_output(path, threads=True):
    """pid, base and {thread name: (tid, pthread_id)} printed by ctxapp."""
    pid = base = None
    found = {}
    for line in open(path):
        if line.startswith("pid="):
            pid = int(line[4:])
        elif line.startswith("base="):
            base = int(line[5:], 16)
        elif line.startswith("thread "):
            name, tid, ptid = re.match(r"thread (\S+) tid=(\d+) pthread_id=(\d+)",
                                       line).groups()
            found[name] = (int(tid), int(ptid))
    if pid is None or base is None or (threads and set(found) != {"main", "worker"}):
        fail("unexpected program output in " + path)
    return pid, base, found


def call_site_lines(source):
    """{call site name: line number} of the lines marked in SOURCE."""
    sites = {}
    for i, line in enumerate(open(source), 1):
        m = re.search(r"call site: (\S+) \*/", line)
        if m:
            sites[m.group(1)] = i
    return sites


def resolve(prog, offset):
    """The source lines (innermost first) of a return address's call."""
    out = subprocess.run(["addr2line", "-i", "-e", prog, "%x" % (offset - 1)],
                         capture_output=True, text=True, check=True).stdout
    return [int(x.rsplit(":", 1)[1].split()[0]) for x in out.split()
            if ":" in x and x.rsplit(":", 1)[1][:1].isdigit()]


def check_type(name, field, cls):
    if not isinstance(field, cls):
        fail("context %s is a %s, not a %s" % (name, type(field).__name__, cls.__name__))


def check_contexts(trace, output, prog, source, main_name):
    pid, base, threads = program_output(output)
    sites = call_site_lines(source)
    # n -> thread, procname, call site
    want = {1: ("main", main_name, "main-1"), 2: ("main", main_name, "main-2"),
            10: ("worker", "worker-one", "worker"),
            11: ("worker", "worker-two", "renamed")}
    seen = set()
    for ev in events(trace, "ctxapp:hit"):
        ctx = ev.common_context_field
        names = list(ctx.keys())
        if names != ["vtid", "vpid", "procname", "pthread_id", "ip"]:
            fail("context fields %s" % names)
        check_type("vtid", ctx["vtid"], bt2._SignedIntegerFieldConst)
        check_type("vpid", ctx["vpid"], bt2._SignedIntegerFieldConst)
        check_type("procname", ctx["procname"], bt2._StringFieldConst)
        check_type("pthread_id", ctx["pthread_id"], bt2._UnsignedIntegerFieldConst)
        check_type("ip", ctx["ip"], bt2._UnsignedIntegerFieldConst)
        n = int(ev.payload_field["n"])
        if n not in want or n in seen:
            fail("unexpected or repeated ctxapp:hit n=%d" % n)
        seen.add(n)
        thread, procname, site = want[n]
        tid, ptid = threads[thread]
        got = (int(ctx["vtid"]), int(ctx["vpid"]), str(ctx["procname"]),
               int(ctx["pthread_id"]))
        if got != (tid, pid, procname, ptid):
            fail("n=%d: context %s, expected %s" % (n, got, (tid, pid, procname, ptid)))
        lines = resolve(prog, int(ctx["ip"]) - base)
        if sites[site] not in lines:
            fail("n=%d: ip %#x resolves to lines %s, not to line %d (%s)" %
                 (n, int(ctx["ip"]), lines, sites[site], site))
    if seen != set(want):
        fail("ctxapp:hit n=%s missing" % sorted(set(want) - seen))
    print("ok: %d events, every context value and call site right" % len(seen))


def check_callsite(trace, output, prog, source, event, site):
    _, base, _ = program_output(output, threads=False)
    line = call_site_lines(source)[site]
    for ev in events(trace, event):
        ip = int(ev.common_context_field["ip"])
        if line not in resolve(prog, ip - base):
            fail("%s: ip %#x resolves to %s, not to line %d" %
                 (event, ip, resolve(prog, ip - base), line))
        print("ok: %s recorded at line %d" % (event, line))
        return
    fail("no %s in %s" % (event, trace))


def env_of(trace):
    for ev in events(trace):
        return ev.stream.trace.environment
    fail("no event in " + trace)


LTTNG_DATE = re.compile(r"^\d{8}T\d{6}[+-]\d{4}$")


def check_env(trace, pid, outdir, version):
    env = env_of(trace)
    strings = {
        "domain": "ust", "tracer_name": "lttng-ust",
        "tracer_buffering_scheme": "pid",
        "trace_name": os.path.basename(os.path.normpath(outdir)),
        "hostname": socket.gethostname(), "procname": "ctxapp",
        "ust_version": version,
    }
    ints = {
        "tracer_major": 2, "tracer_minor": 13, "tracer_patchlevel": 0,
        "tracer_buffering_id": pid, "architecture_bit_width": 64, "vpid": pid,
    }
    for k, v in strings.items():
        if k not in env or not isinstance(env[k], bt2._StringValueConst) or str(env[k]) != v:
            fail("env %s = %r, expected the string %r" % (k, env.get(k), v))
    for k, v in ints.items():
        if k not in env or not isinstance(env[k], bt2._IntegerValueConst) or int(env[k]) != v:
            fail("env %s = %r, expected the integer %d" % (k, env.get(k), v))
    for k in ("trace_creation_datetime", "vpid_datetime"):
        if k not in env or not LTTNG_DATE.match(str(env[k])):
            fail("env %s = %r is not LTTng's YYYYmmddTHHMMSS+zzzz" % (k, env.get(k)))
    # The trace directory is named after the same moment, in local time.
    stamp = datetime.datetime.strptime(str(env["trace_creation_datetime"]),
                                       "%Y%m%dT%H%M%S%z")
    if not os.path.basename(trace).endswith(stamp.strftime("-%Y%m%d-%H%M%S")):
        fail("trace_creation_datetime %s is not the time in %s" %
             (env["trace_creation_datetime"], trace))
    if str(env["vpid_datetime"]) != str(env["trace_creation_datetime"]):
        fail("vpid_datetime differs from trace_creation_datetime")
    extra = set(env.keys()) - set(strings) - set(ints) - {
        "trace_creation_datetime", "vpid_datetime"}
    if extra:
        fail("unexpected env keys %s" % sorted(extra))
    print("ok: %d env entries, values and types" % len(env))


def metadata_blocks(trace):
    text = open(os.path.join(trace, "metadata")).read()
    env = re.search(r"^env \{(.*?)^\};", text, re.S | re.M).group(1)
    streams = re.findall(r"^stream \{(.*?)^\};", text, re.S | re.M)
    evs = {}
    for body in re.findall(r"^event \{(.*?)^\};", text, re.S | re.M):
        name = re.search(r'name = "([^"]*)";', body).group(1)
        evs[name] = body
    return env, streams, evs


def fields_of(body):
    """The field names of an event block, in order (leading '_' kept)."""
    fields = re.search(r"fields := struct \{(.*)\};", body, re.S).group(1)
    return re.findall(r"(\w+)(?:\[[^\]]*\])?;", re.sub(r"\{[^{}]*\}", "", fields))


def normalized(fields):
    """TSDL field declarations, spelled one way: 0/1 for false/true..."""
    f = " ".join(fields.split())
    f = f.replace("signed = 0;", "signed = false;").replace("signed = 1;", "signed = true;")
    return re.sub(r"\[ *(\w+) *\]", r"[\1]", f)


def check_lttng_events(trace, golden):
    _, _, evs = metadata_blocks(trace)
    n = 0
    for line in open(golden):
        if line.startswith("#") or not line.strip():
            continue
        name, level, fields = line.rstrip("\n").split("|", 2)
        if name not in evs:
            fail("no event class %s" % name)
        body = evs[name]
        got = re.search(r"loglevel = (\d+);", body)
        if not got or got.group(1) != level:
            fail("%s: log level %s, LTTng's is %s" % (name, got and got.group(1), level))
        ours = normalized(re.search(r"fields := struct \{(.*)\};", body, re.S).group(1))
        if ours != normalized(fields):
            fail("%s: fields\n  %s\nLTTng's:\n  %s" % (name, ours, normalized(fields)))
        n += 1
    print("ok: %d event classes as LTTng-UST 2.13 declares them" % n)


def check_tracecompass(trace):
    env, streams, evs = metadata_blocks(trace)
    # LttngUstTrace.validate(): env.domain must be the string literal "ust".
    if not re.search(r'^\tdomain = "ust";$', env, re.M):
        fail('env.domain is not the literal "ust"')
    # getLayoutFromEnv(): "lttng-ust", major >= 2 and minor >= 9: the
    # LttngUst29EventLayout; UstDebugInfoAnalysisModule needs >= 2.8.
    if not re.search(r'^\ttracer_name = "lttng-ust";$', env, re.M):
        fail("env.tracer_name is not lttng-ust")
    major = int(re.search(r"^\ttracer_major = (\d+);$", env, re.M).group(1))
    minor = int(re.search(r"^\ttracer_minor = (\d+);$", env, re.M).group(1))
    if (major, minor) < (2, 9):
        fail("tracer version %d.%d selects an old layout" % (major, minor))
    # Context fields: "context._vtid", "context._vpid", "context._procname",
    # "context._ip" in LttngUst20EventLayout.
    ctx = " ".join(streams)
    for f in ("_vtid", "_vpid", "_procname", "_ip"):
        if not re.search(r"\} %s(\[17\])?;" % f, ctx):
            fail("stream event context has no %s" % f)
    # Statedump and library events and their fields (LttngUst28/29EventLayout).
    want = {
        "lttng_ust_statedump:start": [],
        "lttng_ust_statedump:end": [],
        "lttng_ust_statedump:bin_info": ["_baddr", "_memsz", "_path", "_is_pic",
                                         "_has_build_id", "_has_debug_link"],
        "lttng_ust_statedump:build_id": ["_baddr", "__build_id_length", "_build_id"],
        "lttng_ust_statedump:debug_link": ["_baddr", "_crc", "_filename"],
        "lttng_ust_lib:load": ["_baddr", "_memsz", "_path", "_has_build_id",
                               "_has_debug_link"],
        "lttng_ust_lib:build_id": ["_baddr", "__build_id_length", "_build_id"],
        "lttng_ust_lib:debug_link": ["_baddr", "_crc", "_filename"],
        "lttng_ust_lib:unload": ["_baddr"],
        "lttng_ust_dl:dlopen": ["_baddr", "_memsz", "_flags", "_path",
                                "_has_build_id", "_has_debug_link"],
        "lttng_ust_dl:dlclose": ["_baddr"],
        # UstTracefAspect: events named lttng_ust_tracef:*, field "msg".
        "lttng_ust_tracef:event": ["__msg_length", "_msg"],
    }
    for name, fields in want.items():
        if name not in evs:
            fail("no event class %s" % name)
        if fields_of(evs[name]) != fields:
            fail("%s has fields %s, expected %s" % (name, fields_of(evs[name]), fields))
    print("ok: env, contexts and %d event classes as Trace Compass reads them" % len(want))


def main(argv):
    if len(argv) >= 2 and argv[1] == "contexts" and len(argv) == 7:
        check_contexts(*argv[2:])
    elif len(argv) == 8 and argv[1] == "callsite":
        check_callsite(*argv[2:])
    elif len(argv) == 6 and argv[1] == "env":
        check_env(argv[2], int(argv[3]), argv[4], argv[5])
    elif len(argv) == 4 and argv[1] == "lttng-events":
        check_lttng_events(argv[2], argv[3])
    elif len(argv) == 3 and argv[1] == "tracecompass":
        check_tracecompass(argv[2])
    else:
        print(__doc__ if __doc__ else "usage: see the header of check_compat.py")
        sys.exit(2)


if __name__ == "__main__":
    main(sys.argv)
