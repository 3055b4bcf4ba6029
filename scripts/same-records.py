#!/usr/bin/env python3
"""Whether two huntsolve tables hold the same records: same rules, tier, record
count and block layout, and every block's crc32 equal (blocks are zstd frames of
the records at a fixed level, so equal records give equal blocks; the header's
statistics, e.g. the seconds a solve took, may differ). Exit 0 when equal, 1 when
not, 2 on a file that is not a table. Usage: same-records.py A.hst B.hst"""
import struct
import sys


def blocks(path):
    with open(path, "rb") as f:
        head = f.read(16)
        if len(head) < 16 or head[:8] != b"HSTABLE\x1a":
            sys.exit(f"{path}: not a huntsolve table")
        (h,) = struct.unpack("<I", head[12:16])
        f.read(h + 4)
        # The header's last field is the block count (u64, bincode varint in
        # the standard config): read the index until the first block offset.
        first = f.read(16)
        off, length, crc = struct.unpack("<QII", first)
        count = (off - (20 + h) - 4) // 16
        rest = f.read(16 * (count - 1))
        out = [(length, crc)]
        for k in range(count - 1):
            _, length, crc = struct.unpack("<QII", rest[16 * k:16 * k + 16])
            out.append((length, crc))
        return out


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    a, b = blocks(sys.argv[1]), blocks(sys.argv[2])
    if a != b:
        diff = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
        print(f"differ: {len(a)} and {len(b)} blocks, first difference at block {diff}")
        return 1
    print(f"same records: {len(a)} blocks, every block's crc32 equal")
    return 0


if __name__ == "__main__":
    sys.exit(main())
