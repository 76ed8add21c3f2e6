"""Splits the CPU time of a profiled tus upload by what it was spent on, for bench/tus.sh.

Usage: perf script -F period,ip,sym,dso -i DATA | tus_profile.py client|service MIB

Each sample's period goes to the first category that any frame of its call chain belongs to:
  client (`assemblyline run`)
    checksum   the SHA-1 of each chunk for Upload-Checksum (the FileDigester reads the chunk and hashes it)
    ledger     libsqlite3 or the SQLiteLedger module (the offset written after each PATCH)
    http       libcurl and the CurlTransport module (reading the body from the file, the socket sends)
    start      the dynamic loader (process start)
  service (`assemblyline serve`)
    md5        the MD5 of the whole upload once it is complete (read back from disk)
    checksum   verifying each PATCH's SHA-1 as it arrives
    write      writing the PATCH bodies to the upload's file
    http       libmicrohttpd and the HTTPServer module (the socket receives)
  other        the rest: scheduling, Swift concurrency, the kernel
"""
import sys

import perf_samples

CATEGORIES = {
    "client": [
        ("checksum", lambda sym, dso: "FileDigester" in sym),
        ("ledger", lambda sym, dso: "libsqlite3" in dso or "SQLiteLedger" in sym),
        ("http", lambda sym, dso: "libcurl" in dso or "CurlTransport" in sym),
        ("start", lambda sym, dso: "ld-linux" in dso),
    ],
    "service": [
        ("md5", lambda sym, dso: "hashFile" in sym),
        ("checksum", lambda sym, dso: "libcrypto" in dso or ("6Digest" in sym and "update" in sym)),
        ("write", lambda sym, dso: "FileWriter" in sym),
        ("http", lambda sym, dso: "libmicrohttpd" in dso or "HTTPServer" in sym),
    ],
}


def main():
    side, mib = sys.argv[1], int(sys.argv[2])
    totals = perf_samples.split(sys.stdin, CATEGORIES[side])
    cpu = sum(totals.values()) or 1
    print(f"profiled tus upload, {side}: {cpu / 1e9:.2f} s CPU, {cpu / 1e6 / (mib / 1024):.0f} ms a GiB")
    for name, nanoseconds in sorted(totals.items(), key=lambda item: -item[1]):
        print(f"  {name:<9} {nanoseconds / 1e6 / (mib / 1024):6.0f} ms a GiB  ({100 * nanoseconds / cpu:4.1f}%)")


if __name__ == "__main__":
    main()
