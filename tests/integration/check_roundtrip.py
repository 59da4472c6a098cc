#!/usr/bin/python3
# check_roundtrip.py - the values roundtrip.c recorded, read back through
# babeltrace2's Python bindings, must be exactly the values passed.
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
]


def value(f):
    """A bt2 field as plain Python data."""
    if isinstance(f, bt2._StructureFieldConst):
        return {k: value(f[k]) for k in f}
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
    got = [(m.event.name, value(m.event.payload_field))
           for m in bt2.TraceCollectionMessageIterator(dirs[0])
           if type(m) is bt2._EventMessageConst]
    if len(got) != len(EXPECTED):
        sys.exit("FAIL: %d events, want %d" % (len(got), len(EXPECTED)))
    for i, ((name, fields), (want_name, want)) in enumerate(zip(got, EXPECTED)):
        if name != want_name or not same(fields, want):
            sys.exit("FAIL: event %d: got %s %r\n  want %s %r" %
                     (i, name, fields, want_name, want))
    print("ok: %d events, every value exact" % len(got))


if __name__ == "__main__":
    main()
