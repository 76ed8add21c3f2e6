#!/usr/bin/env python3
"""Writes the demo's sample images: colour gradients as PNG files, made here, no third-party media.

Usage: make-sample-images.py DIR   (idempotent: existing files are kept)
"""
import os
import struct
import sys
import zlib


def png(width, height, pixel):
    """A truecolour PNG whose pixel (x, y) is pixel(x, y) -> (r, g, b)."""
    rows = b"".join(b"\x00" + bytes(c for x in range(width) for c in pixel(x, y)) for y in range(height))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows, 6)) + chunk(b"IEND", b"")


def main():
    root = sys.argv[1]
    sizes = [(640, 480), (480, 640), (800, 450), (512, 512)]
    for index in range(12):
        folder = os.path.join(root, ["landscapes", "portraits", "squares"][index % 3])
        os.makedirs(folder, exist_ok=True)
        path = os.path.join(folder, "sample-%02d.png" % index)
        if os.path.exists(path):
            continue
        width, height = sizes[index % len(sizes)]
        hue = index * 21
        data = png(width, height, lambda x, y: ((x * 255 // width + hue) % 256, (y * 255 // height) % 256, (hue * 3) % 256))
        with open(path + ".tmp", "wb") as handle:
            handle.write(data)
        os.replace(path + ".tmp", path)


if __name__ == "__main__":
    main()
