"""Splits the CPU time of a profiled `assemblyline run` by what it was spent on, for bench/pipeline.sh.

Usage: perf script -F period,ip,sym,dso -i DATA | pipeline_profile.py FILES

Each sample's period (CPU nanoseconds) goes to the first of these categories that any frame of its
call chain belongs to, so that SQLite's own writes and fsyncs count as the ledger and the kernel time
of an fsync counts as fsync:
  ledger     libsqlite3 or the SQLiteLedger module
  signing    the HMAC signer and the params it serializes (AssemblyParams)
  md5        the MD5 of each download (the FileDigester)
  fsync      fsync of each download and of its folder, and the rename between them
  http       libcurl and the CurlTransport module
  json       decoding status JSON (Foundation's JSONDecoder)
  start      the dynamic loader (process start)
  other      the rest: scheduling, Swift concurrency, file writes, the kernel
Swift async frames end at the task boundary, so a category only sees what ran below it on one stack.
"""
import sys

import perf_samples

CATEGORIES = [
    ("ledger", lambda sym, dso: "libsqlite3" in dso or "SQLiteLedger" in sym),
    ("signing", lambda sym, dso: "HMACSigner" in sym or "AssemblyParams" in sym),
    ("md5", lambda sym, dso: "FileDigester" in sym),
    ("fsync", lambda sym, dso: sym in ("fsync", "do_fsync", "__x64_sys_fsync") or "durablyRename" in sym),
    ("http", lambda sym, dso: "libcurl" in dso or "CurlTransport" in sym),
    ("json", lambda sym, dso: "JSONDecoder" in sym or "JSONScanner" in sym),
    ("start", lambda sym, dso: "ld-linux" in dso),
]


def main():
    files = int(sys.argv[1])
    totals = perf_samples.split(sys.stdin, CATEGORIES)
    cpu = sum(totals.values())
    print(f"profiled assemblyline run: {cpu / 1e9:.2f} s CPU, {cpu / files / 1e6:.3f} ms a file")
    for name, nanoseconds in sorted(totals.items(), key=lambda item: -item[1]):
        print(f"  {name:<8} {nanoseconds / files / 1e6:7.3f} ms a file  ({100 * nanoseconds / cpu:4.1f}%)")


if __name__ == "__main__":
    main()
