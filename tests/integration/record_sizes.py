#!/usr/bin/python3
# record_sizes.py - the exact size of every record in a ust trace's
# stream files, read byte by byte (an independent check of the format).
#
# SPDX-License-Identifier: GPL-2.0-only
#
#   record_sizes.py TRACE_DIR CONTEXT_BYTES PAYLOAD_BYTES
#
# Every record must be a compact (4-byte) or extended (13-byte) event
# header, CONTEXT_BYTES of stream event context (4 for the vtid, 0 with
# `--context=none`) and PAYLOAD_BYTES of payload, and the records must
# fill each packet's content exactly.  Prints
#   records=N compact=C extended=E packets=P bytes_per_compact_record=B
import os
import struct
import sys

PACKET_HEADER = 84      # struct ust_packet_header
CONTENT_SIZE_AT = 60    # its content_size field (bits)
PACKET_SIZE_AT = 68     # its packet_size field (bits)
COMPACT, EXTENDED = 4, 13


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def walk_stream(path, ctx, payload, counts):
    data = open(path, "rb").read()
    pos = 0
    while pos < len(data):
        content, size = struct.unpack_from("<QQ", data, pos + CONTENT_SIZE_AT)
        end = pos + content // 8
        off = pos + PACKET_HEADER
        while off < end:
            word = struct.unpack_from("<I", data, off)[0]
            kind = "extended" if word & 31 == 31 else "compact"
            counts[kind] += 1
            off += (EXTENDED if kind == "extended" else COMPACT) + ctx + payload
        if off != end:
            fail("%s: records overrun the packet at %d by %d bytes"
                 % (path, pos, off - end))
        counts["packets"] += 1
        pos += size // 8


def main():
    root, ctx, payload = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    counts = {"compact": 0, "extended": 0, "packets": 0}
    for d, _, files in os.walk(root):
        for f in files:
            if f.startswith("ust_"):
                walk_stream(os.path.join(d, f), ctx, payload, counts)
    print("records=%d compact=%d extended=%d packets=%d "
          "bytes_per_compact_record=%d"
          % (counts["compact"] + counts["extended"], counts["compact"],
             counts["extended"], counts["packets"], COMPACT + ctx + payload))


main()
