#!/usr/bin/python3
# check_roundtrip.py - the values roundtrip.c recorded, read back through
# babeltrace2's Python bindings, must be exactly the values passed.  A
# sequence `x` comes with its length field `_x_length`; a variant reads
# as its selected option.
#
# SPDX-License-Identifier: GPL-2.0-only
import math
import os
import sys

import bt2

I64_MIN, I64_MAX, U64_MAX = -(1 << 63), (1 << 63) - 1, (1 << 64) - 1
FLT_MAX = 3.4028234663852886e+38
FLT_MIN = 1.1754943508222875e-38
DBL_MAX = 1.7976931348623157e+308

POINT = lambda x, y: {"x": x, "y": y}
ZERO_POINT = POINT(0, 0)
PAIR = lambda key, value: {"key": key, "value": value}
TAGGED = lambda i, kind, value: {"id": i, "kind": kind, "value": value,
                                 "end": i}


def seqs(**fields):
    """Fields in order, each list preceded by its length field."""
    out = {}
    for name, v in fields.items():
        if isinstance(v, list):
            out["_%s_length" % name] = len(v)
        out[name] = v
    return out


EXPECTED = [
    ("types:host_ints", {"i": -2147483648, "u": 4294967295, "l": I64_MIN,
                         "ul": U64_MAX, "sz": U64_MAX, "ssz": -1,
                         "ptr": 0xdeadbeefcafe, "c": 65}),
    ("types:host_ints", {"i": 2147483647, "u": 0, "l": I64_MAX, "ul": 0,
                         "sz": 0, "ssz": I64_MAX, "ptr": 0, "c": -128}),
    ("types:floats", {"f": -FLT_MAX, "d": 1.5}),
    ("types:floats", {"f": math.inf, "d": -0.0}),
    ("types:floats", {"f": FLT_MIN, "d": -DBL_MAX}),
    ("types:enums", {"state": 1, "delta": -1, "wide": -2147483648}),
    ("types:enums", {"state": 255, "delta": 1, "wide": 2147483647}),
    ("types:byte_orders", {"net16": 0x1234, "be32": -2,
                           "be64": 0x0102030405060708, "le32": 0xA1B2C3D4,
                           "host16": 0xBEEF, "be8": 0x7f,
                           "beptr": 0x1122334455667788}),
    ("types:arrays", {"bytes": [1, 2, 3, 255],
                      "matrix": [[1, 2, 3], [-4, -5, -32768]],
                      "states": [0, 1, 255], "ports": [80, 443]}),
    ("types:arrays", {"bytes": [0] * 4, "matrix": [[0] * 3] * 2,
                      "states": [0] * 3, "ports": [0, 0]}),
    ("types:structs", {
        "origin": POINT(1, -1),
        "seg": {"from": POINT(2, 3), "to": POINT(4, 5), "state": 255},
        "pid": 1234, "who": "me",
        "box": {"corners": [POINT(10, 20), POINT(30, 40)],
                "color": 0xff00ff00, "label": [97, 98, 99, 100]},
        "path": [{"id": 7, "weight": 0.25}, {"id": 8, "weight": -1e300}]}),
    ("types:structs", {
        "origin": ZERO_POINT,
        "seg": {"from": ZERO_POINT, "to": ZERO_POINT, "state": 0},
        "pid": -1, "who": "(null)",
        "box": {"corners": [ZERO_POINT, ZERO_POINT], "color": 0,
                "label": [0, 0, 0, 0]},
        "path": [{"id": 0, "weight": 0.0}, {"id": 0, "weight": 0.0}]}),
] + [
    # compound.xml
    ("compound:flat", seqs(u8=[0, 0x7f, 0xff], i16=[-32768, -1, 32767],
                           i64=[I64_MIN, I64_MAX], u64=[U64_MAX, 0],
                           d=[-0.0, DBL_MAX], rows=[[1, -2], [3, -4]])),
    ("compound:flat", seqs(u8=[], i16=[], i64=[], u64=[], d=[], rows=[])),
    ("compound:flat", seqs(u8=list(range(255)), i16=[], i64=[], u64=[],
                           d=[], rows=[])),
    ("compound:packed", dict(seqs(names=["a", "(null)", ""],
                                  colors=[0, 200, 1], ports=[80, 0x1234],
                                  pairs=[PAIR("k1", -(1 << 31)),
                                         PAIR("(null)", (1 << 31) - 1)]),
                             tail=255)),
    ("compound:packed", dict(seqs(names=[], colors=[], ports=[], pairs=[]),
                             tail=0)),
    ("compound:nested", {"argv": ["ls", "(null)", "-l"],
                         "pair": PAIR("key", -7),
                         "item": dict(seqs(label="lbl",
                                           values=[1, -2, (1 << 31) - 1]),
                                      flags=0xbeef)}),
    ("compound:nested", {"argv": ["(null)"] * 3, "pair": PAIR("(null)", 0),
                         "item": dict(seqs(label="(null)", values=[]),
                                      flags=0)}),
    ("compound:tagged", TAGGED(1, -1, I64_MIN)),
    ("compound:tagged", TAGGED(2, 0, "hello")),
    ("compound:tagged", TAGGED(3, 0, "(null)")),
    ("compound:tagged", TAGGED(4, 7, PAIR("p", 42))),
    ("compound:tagged", TAGGED(5, 8, seqs(items=[1, 65535]))),
    ("compound:tagged", TAGGED(6, 9, 200)),
    # (the 7th tagged event had a tag that selects no option: dropped)
    ("compound:records", seqs(list=[{"kind": 0, "data": 7},
                                    {"kind": 1, "data": "g"},
                                    {"kind": 200, "data": 2.5}])),
    ("compound:records", seqs(list=[])),
]


# The tagged event whose tag selects no option.
DISCARDED = 1


def value(f):
    """A bt2 field as plain Python data."""
    if isinstance(f, bt2._StructureFieldConst):
        return {k: value(f[k]) for k in f}
    if isinstance(f, bt2._VariantFieldConst):
        return value(f.selected_option)
    if isinstance(f, bt2._ArrayFieldConst):
        return [value(x) for x in f]
    if isinstance(f, bt2._StringFieldConst):
        return str(f)
    if isinstance(f, bt2._RealFieldConst):
        return float(f)
    return int(f)


def same(got, want):
    if isinstance(want, float):
        return (isinstance(got, float) and got == want and
                math.copysign(1, got) == math.copysign(1, want))
    if isinstance(want, dict):
        return got.keys() == want.keys() and all(same(got[k], want[k]) for k in want)
    if isinstance(want, list):
        return len(got) == len(want) and all(same(g, w) for g, w in zip(got, want))
    return got == want


def main():
    dirs = [d for d, _, files in os.walk(sys.argv[1]) if "metadata" in files]
    if len(dirs) != 1:
        sys.exit("FAIL: %d traces" % len(dirs))
    got, discarded = [], 0
    for m in bt2.TraceCollectionMessageIterator(dirs[0]):
        if type(m) is bt2._EventMessageConst:
            got.append((m.event.name, value(m.event.payload_field)))
        elif type(m) is bt2._DiscardedEventsMessageConst:
            # bt2 gives no count for CTF 1.8 here: one message per gap.
            discarded += 1
    if discarded != DISCARDED:
        sys.exit("FAIL: %d discarded-events messages, want %d" %
                 (discarded, DISCARDED))
    if len(got) != len(EXPECTED):
        sys.exit("FAIL: %d events, want %d" % (len(got), len(EXPECTED)))
    for i, ((name, fields), (want_name, want)) in enumerate(zip(got, EXPECTED)):
        if name != want_name or not same(fields, want):
            sys.exit("FAIL: event %d: got %s %r\n  want %s %r" %
                     (i, name, fields, want_name, want))
    print("ok: %d events, every value exact" % len(got))


if __name__ == "__main__":
    main()
