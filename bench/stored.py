#!/usr/bin/env python3
"""`assemblyline serve` with many stored Assemblies (issue 36): start-up, and the cost of one more Assembly.

The data directory is filled the way a night of a million tiny files fills it (`bench/scale.sh`: shards of
50 files, `:original` kept as the result), in two steps:
1. the real service runs `--seeds` such Assemblies to completion (records, `ended.log`, stored files);
2. the service stopped, each further Assembly is a copy of a seed's directory under a fresh ID and the
   next creation number: its `assembly.json` with the seed's ID replaced and its `sequence` set, its line
   in `ended.log` (or, for a binary from before it, its `ended` file), and an empty `files/` (50 files by
   100,000 Assemblies would be 5 million inodes; start-up reads no stored file). Only the `--linked` last
   copies get their seed's files, as hard links, for the checks.
Then, at each size (~0, then each of `--sizes`): `serve` is started `--starts` times (median), timed until it
answers a status request of an old Assembly (wall, its CPU, peak RSS); the last start times the first
page of the listing and the median of 5 more, checks that it counts every Assembly and that old copies
answer their status and serve their results, then
runs `--probes` more Assemblies one after the other: the creation's answer, the polls to completion, one
result's download, and the service's CPU an Assembly, and the first status of old Assemblies (read from disk).

The data directory of 100,000 takes 6.5 GB of disk while it runs (records of 50 files, 55 KB each).

Usage: bench/stored.py [--sizes 20000,100000] [--bin PATH] [--keep]
"""
import argparse
import json
import os
import random
import re
import shutil
import statistics
import subprocess
import time
import urllib.parse
import urllib.request

KEY = "storedkey0123456789abcdef0123456"
FILES = 50
STEPS = {":original": {"robot": "/upload/handle", "result": True}}
TICKS = os.sysconf("SC_CLK_TCK")
RUNNING = []  # the services started and not stopped yet, stopped on the way out whatever happens


def multipart(count, tag):
    boundary = "stored" + os.urandom(8).hex()
    params = json.dumps({"auth": {"key": KEY}, "steps": STEPS})
    parts = [b"--%s\r\nContent-Disposition: form-data; name=\"params\"\r\n\r\n%s\r\n" % (boundary.encode(), params.encode())]
    for index in range(count):
        parts.append(b"--%s\r\nContent-Disposition: form-data; name=\"file_%d\"; filename=\"f-%s-%02d.txt\"\r\n"
                     b"Content-Type: text/plain\r\n\r\ntiny input %s %d\n\r\n" % (boundary.encode(), index, tag.encode(), index, tag.encode(), index))
    parts.append(b"--%s--\r\n" % boundary.encode())
    return b"".join(parts), "multipart/form-data; boundary=" + boundary


def call(url, body=None, content_type=None, raw=False):
    request = urllib.request.Request(url, data=body, method="POST" if body is not None else "GET")
    if content_type:
        request.add_header("Content-Type", content_type)
    with urllib.request.urlopen(request, timeout=120) as response:
        data = response.read()
        return data if raw else json.loads(data)


class Service:
    """One `serve` process on a data directory, started and timed until it answers."""

    def __init__(self, binary, data, probe_id=None):
        # Read through descriptors of their own: a seek on the one the service writes through would move its writes.
        with open(data + ".out", "w") as out, open(data + ".err", "w") as err:
            started = time.monotonic()
            self.process = subprocess.Popen(
                [binary, "serve", "--listen", "127.0.0.1:0", "--data-dir", data, "--key", KEY, "--no-signature",
                 "--workers", "2", "--creations-per-minute", "0", "--status-per-second", "0"], stdout=out, stderr=err)
        RUNNING.append(self)
        while True:
            with open(data + ".out") as out:
                line = out.readline()
            if line.startswith("listening on "):
                self.base = line.split(" ", 2)[2].strip()
                break
            if self.process.poll() is not None or time.monotonic() - started > 300:
                raise SystemExit("serve did not start: " + open(data + ".err").read()[-2000:])
            time.sleep(0.002)
        self.listening = time.monotonic() - started
        if probe_id:
            call("%s/assemblies/%s" % (self.base, probe_id))
        self.answered = time.monotonic() - started
        self.startup_cpu = self.cpu()
        self.startup_rss = self.peak_rss()

    def cpu(self):
        with open("/proc/%d/stat" % self.process.pid) as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / TICKS

    def peak_rss(self):
        with open("/proc/%d/status" % self.process.pid) as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) // 1024
        return 0

    def stop(self):
        self.process.terminate()
        self.process.wait(30)
        RUNNING.remove(self)


def run_assembly(base, tag):
    """Creates one Assembly of FILES tiny files, polls it to completion and downloads one result; the latencies."""
    body, content_type = multipart(FILES, tag)
    started = time.monotonic()
    status = call(base + "/assemblies", body, content_type)
    created = time.monotonic()
    while status.get("ok") != "ASSEMBLY_COMPLETED":
        if status.get("error"):
            raise SystemExit("Assembly %s failed: %s" % (status.get("assembly_id"), status.get("error")))
        time.sleep(0.01)
        status = call(status["assembly_ssl_url"])
    completed = time.monotonic()
    result = status["results"][":original"][0]
    call(result["ssl_url"], raw=True)
    fetched = time.monotonic()
    return status, (created - started, completed - started, fetched - completed)


def copy_seeds(data, seeds, first, count, linked):
    """Adds `count` copies of the seed Assemblies under fresh IDs, creation numbers from `first` on."""
    assemblies = os.path.join(data, "assemblies")
    journal = os.path.join(data, "ended.log")
    journaled = os.path.exists(journal)  # a binary before ended.log (bench/RESULTS.md's A/B) keeps `ended` files
    if journaled:
        ends = dict(line.split(" ", 2)[0::2] for line in open(journal).read().splitlines())
    else:
        ends = {seed: open(os.path.join(assemblies, seed, "ended")).read().split(" ", 1)[1] for seed in seeds}
    texts = [(seed, open(os.path.join(assemblies, seed, "assembly.json")).read(), ends[seed].strip()) for seed in seeds]
    lines = []
    copies = []
    for offset in range(count):
        seed, text, end = texts[offset % len(texts)]
        sequence = first + offset
        new = os.urandom(16).hex()
        directory = os.path.join(assemblies, new)
        os.makedirs(os.path.join(directory, "files"))
        with open(os.path.join(directory, "assembly.json"), "w") as out:
            out.write(re.sub(r'"sequence":\d+', '"sequence":%d' % sequence, text.replace(seed, new), count=1))
        if journaled:
            lines.append("%s %d %s\n" % (new, sequence, end))
        else:
            with open(os.path.join(directory, "ended"), "w") as out:
                out.write("%d %s" % (sequence, end))
        if offset >= count - linked:
            for name in os.listdir(os.path.join(assemblies, seed, "files")):
                os.link(os.path.join(assemblies, seed, "files", name), os.path.join(directory, "files", name))
        copies.append(new)
    if journaled:
        with open(journal, "a") as out:
            out.writelines(lines)
    return copies


def median(values):
    return statistics.median(values)


def measure(arguments, data, stored, old, linked, total):
    """Starts `serve` on `data` `--starts` times, checks it, and runs the probe Assemblies; one row of figures."""
    starts = []
    for _ in range(arguments.starts):
        service = Service(arguments.bin, data, probe_id=old[0])
        starts.append((service.answered, service.listening, service.startup_cpu, service.startup_rss))
        if len(starts) < arguments.starts:
            service.stop()
    query = urllib.parse.urlencode({"params": json.dumps({"auth": {"key": KEY}, "pagesize": 50})})
    listings = []
    for _ in range(6):
        began = time.monotonic()
        listing = call(service.base + "/assemblies?" + query)
        listings.append(time.monotonic() - began)
    if listing["count"] != total:
        raise SystemExit("the listing counts %s Assemblies, %d are stored" % (listing["count"], total))
    firsts = []
    for assembly in random.sample(old[1:], min(arguments.probes, len(old) - 1)):
        began = time.monotonic()
        status = call("%s/assemblies/%s" % (service.base, assembly))
        firsts.append(time.monotonic() - began)
        if status["ok"] != "ASSEMBLY_COMPLETED" or status["assembly_id"] != assembly:
            raise SystemExit("old Assembly %s answers %s" % (assembly, status.get("ok")))
    for assembly in linked:
        status = call("%s/assemblies/%s" % (service.base, assembly))
        if len(call(status["results"][":original"][0]["ssl_url"], raw=True)) == 0:
            raise SystemExit("old Assembly %s serves an empty result" % assembly)
    before = service.cpu()
    probes = [run_assembly(service.base, "probe%d-%d" % (stored, index))[1] for index in range(arguments.probes)]
    cpu = (service.cpu() - before) / arguments.probes
    service.stop()
    row = {
        "stored": total,
        "answers_s": median([s[0] for s in starts]), "listens_s": median([s[1] for s in starts]),
        "startup_cpu_s": median([s[2] for s in starts]), "startup_rss_mb": median([s[3] for s in starts]),
        "create_ms": median([p[0] for p in probes]) * 1000, "complete_ms": median([p[1] for p in probes]) * 1000,
        "result_ms": median([p[2] for p in probes]) * 1000, "cpu_ms": cpu * 1000,
        "old_status_ms": median(firsts) * 1000,
        "first_list_ms": listings[0] * 1000, "list_ms": median(listings[1:]) * 1000,
    }
    print("%(stored)9d %(answers_s)10.3f %(listens_s)10.3f %(startup_cpu_s)10.2f %(startup_rss_mb)8d "
          "%(create_ms)9.1f %(complete_ms)11.1f %(result_ms)9.1f %(cpu_ms)12.1f %(old_status_ms)13.1f %(first_list_ms)13.1f %(list_ms)8.1f" % row, flush=True)
    return row


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="20000,100000", help="stored Assemblies to measure at, besides ~0")
    parser.add_argument("--seeds", type=int, default=20, help="Assemblies the real service runs first")
    parser.add_argument("--linked", type=int, default=10, help="copies that get their seed's files")
    parser.add_argument("--starts", type=int, default=3)
    parser.add_argument("--probes", type=int, default=20)
    parser.add_argument("--bin", default=".build/release/assemblyline")
    parser.add_argument("--work", default="bench/work/stored")
    parser.add_argument("--keep", action="store_true", help="keep the data directory")
    arguments = parser.parse_args()
    arguments.bin = os.path.abspath(arguments.bin)
    shutil.rmtree(arguments.work, ignore_errors=True)
    os.makedirs(arguments.work)
    data = os.path.join(arguments.work, "data")
    print("stored: %d cores, %s, `serve` --workers 2; Assemblies of %d tiny files (`:original` kept); medians of %d starts, %d probes"
          % (os.cpu_count(), time.strftime("%Y-%m-%d", time.gmtime()), FILES, arguments.starts, arguments.probes))
    print("%9s %10s %10s %10s %8s %9s %11s %9s %12s %13s %13s %8s" % (
        "stored", "answers_s", "listens_s", "start_cpu_s", "rss_MB", "create_ms", "complete_ms", "result_ms", "cpu_ms/Assm",
        "old_status_ms", "first_list_ms", "list_ms"))
    try:
        service = Service(arguments.bin, data)
        seeds = [run_assembly(service.base, "seed%d" % index)[0]["assembly_id"] for index in range(arguments.seeds)]
        service.stop()
        total = arguments.seeds
        measure(arguments, data, 0, seeds, [], total)
        total += arguments.probes
        linked = []
        for size in [int(size) for size in arguments.sizes.split(",") if size]:
            copies = copy_seeds(data, seeds, total + 1, size - total, arguments.linked if not linked else 0)
            linked = linked or copies[-arguments.linked:]
            total = size
            measure(arguments, data, size, seeds + copies[:1000], linked, total)
            total += arguments.probes
    finally:
        for service in list(RUNNING):
            service.process.kill()
            service.process.wait()
        if not arguments.keep:
            shutil.rmtree(arguments.work, ignore_errors=True)


if __name__ == "__main__":
    main()
