#!/usr/bin/env python3
"""Compares two PNG renderings of one picture (standard library only).

    python3 checks/png_compare.py A.png B.png [--max-different 0.01]

Prints the sizes, the mean difference per channel (0-255) and the share of
pixels whose channels differ by more than 96 anywhere (text antialiasing
differs between renderers by less than that, a missing or misplaced shape by
more). Exits 1 when the sizes differ or that share is above --max-different.
"""
import argparse
import struct
import sys
import zlib


def read_png(path):
    with open(path, "rb") as handle:
        data = handle.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(f"{path}: not a PNG")
    offset, chunks, header = 8, [], None
    while offset < len(data):
        length, kind = struct.unpack(">I4s", data[offset:offset + 8])
        body = data[offset + 8:offset + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            chunks.append(body)
        offset += 12 + length
    width, height, depth, color, _, _, interlace = header
    channels = {2: 3, 6: 4}.get(color)
    if depth != 8 or channels is None or interlace != 0:
        raise ValueError(f"{path}: only 8-bit RGB or RGBA, not interlaced (depth {depth}, colour type {color})")
    raw = zlib.decompress(b"".join(chunks))
    stride = width * channels
    previous = [0] * stride
    pixels = []
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], list(raw[start + 1:start + 1 + stride])
        if kind == 1:
            for x in range(channels, stride):
                line[x] = (line[x] + line[x - channels]) & 255
        elif kind == 2:
            line = [(a + b) & 255 for a, b in zip(line, previous)]
        elif kind == 3:
            for x in range(stride):
                line[x] = (line[x] + ((line[x - channels] if x >= channels else 0) + previous[x]) // 2) & 255
        elif kind == 4:
            for x in range(channels):
                line[x] = (line[x] + previous[x]) & 255
            for x in range(channels, stride):
                left, up, corner = line[x - channels], previous[x], previous[x - channels]
                pa, pb, pc = abs(up - corner), abs(left - corner), abs(left + up - 2 * corner)
                line[x] = (line[x] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 255
        previous = line
        # Opaque RGB, over white.
        if channels == 3:
            pixels.extend(zip(line[0::3], line[1::3], line[2::3]))
        else:
            for x in range(0, stride, 4):
                r, g, b, a = line[x:x + 4]
                pixels.append(tuple((c * a + 255 * (255 - a)) // 255 for c in (r, g, b)))
    return width, height, pixels


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("first")
    parser.add_argument("second")
    parser.add_argument("--max-different", type=float, default=0.01)
    arguments = parser.parse_args()
    w1, h1, first = read_png(arguments.first)
    w2, h2, second = read_png(arguments.second)
    if (w1, h1) != (w2, h2):
        print(f"sizes differ: {w1}x{h1} and {w2}x{h2}")
        return 1
    total, different = 0, 0
    for a, b in zip(first, second):
        deltas = [abs(x - y) for x, y in zip(a, b)]
        total += sum(deltas)
        if max(deltas) > 96:
            different += 1
    share = different / max(1, len(first))
    print(f"{w1}x{h1}, mean difference {total / max(1, 3 * len(first)):.2f}, {100 * share:.2f}% of pixels differ")
    return 0 if share <= arguments.max_different else 1


if __name__ == "__main__":
    sys.exit(main())
