#!/usr/bin/env python3
"""A soak of `assemblyline serve`: thousands of resize Assemblies from several concurrent clients.

The load that once crashed `serve` inside liborc (shared/evidence/serve-sigsegv-liborc.txt): small
JPEGs resized by two workers while clients take turns creating Assemblies. Each client creates an
Assembly of `--files` JPEGs (160x120, made first by the service itself from generated PNGs) with one
`/image/resize` step, polls it every 100 ms until it completes, and starts the next. The service's
resident memory is sampled as the soak goes; it fails when the service dies or an Assembly does not
complete. Prints one line for bench/RESULTS.md.

Usage: bench/soak.py [--assemblies N] [--files N] [--clients N] [--bin PATH]
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

KEY = "soakkey0123456789abcdef01234567"
STEPS = {"resize": {"robot": "/image/resize", "use": ":original", "width": 64, "height": 64,
                    "resize_strategy": "fit", "result": True}}


def multipart(fields, files):
    boundary = "soak" + os.urandom(8).hex()
    body = b""
    for name, value in fields:
        body += b"--%s\r\nContent-Disposition: form-data; name=\"%s\"\r\n\r\n%s\r\n" % (
            boundary.encode(), name.encode(), value.encode())
    for name, (filename, data) in files:
        body += b"--%s\r\nContent-Disposition: form-data; name=\"%s\"; filename=\"%s\"\r\nContent-Type: image/jpeg\r\n\r\n" % (
            boundary.encode(), name.encode(), filename.encode()) + data + b"\r\n"
    body += b"--%s--\r\n" % boundary.encode()
    return body, "multipart/form-data; boundary=" + boundary


def call(url, body=None, content_type=None):
    request = urllib.request.Request(url, data=body, method="POST" if body is not None else "GET")
    if content_type:
        request.add_header("Content-Type", content_type)
    with urllib.request.urlopen(request, timeout=120) as response:
        return json.loads(response.read())


def run_assembly(base, files, steps):
    params = json.dumps({"auth": {"key": KEY}, "steps": steps})
    body, content_type = multipart([("params", params)], [("file_%d" % i, pair) for i, pair in enumerate(files)])
    status = call(base + "/assemblies", body, content_type)
    url = status["assembly_ssl_url"]
    while status.get("ok") not in ("ASSEMBLY_COMPLETED",) and not status.get("error"):
        time.sleep(0.1)
        status = call(url)
    if status.get("error"):
        raise RuntimeError("Assembly %s failed: %s" % (status.get("assembly_id"), status.get("error")))
    return status


def rss(pid):
    with open("/proc/%d/status" % pid) as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) // 1024
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--assemblies", type=int, default=1500)
    parser.add_argument("--files", type=int, default=8)
    parser.add_argument("--clients", type=int, default=3)
    parser.add_argument("--workers", type=int, default=2, help="serve's workers")
    parser.add_argument("--bin", default=".build/release/assemblyline")
    arguments = parser.parse_args()
    directory = tempfile.mkdtemp(prefix="assemblyline-soak-")
    out = open(os.path.join(directory, "serve.out"), "w+")
    err = open(os.path.join(directory, "serve.err"), "w+")
    serve = subprocess.Popen([os.path.abspath(arguments.bin), "serve", "--listen", "127.0.0.1:0", "--data-dir",
                              os.path.join(directory, "data"), "--key", KEY, "--no-signature", "--workers", str(arguments.workers),
                              "--creations-per-minute", "0", "--status-per-second", "0", "--result-ttl", "2m"],
                             stdout=out, stderr=err, cwd=directory)
    try:
        for _ in range(500):
            out.seek(0)
            line = out.readline()
            if line.startswith("listening on "):
                base = line.split(" ", 2)[2].strip()
                break
            time.sleep(0.02)
        else:
            raise SystemExit("serve did not start")
        samples = os.path.join(directory, "samples")
        subprocess.run([sys.executable, "scripts/make-sample-images.py", samples], check=True, stdout=subprocess.DEVNULL)
        pngs = sorted(os.path.join(root, name) for root, _, names in os.walk(samples) for name in names)
        made = run_assembly(base, [(os.path.basename(p), open(p, "rb").read()) for p in pngs],
                            {"jpg": {"robot": "/image/resize", "use": ":original", "width": 160, "height": 120,
                                     "resize_strategy": "fillcrop", "format": "jpg", "result": True}})
        jpegs = [(item["name"], urllib.request.urlopen(item["ssl_url"], timeout=60).read()) for item in made["results"]["jpg"]]
        batch = [jpegs[i % len(jpegs)] for i in range(arguments.files)]

        lock = threading.Lock()
        state = {"next": 0, "done": 0, "error": None, "rss": [rss(serve.pid)]}
        started = time.monotonic()

        def client():
            while True:
                with lock:
                    if state["error"] or state["next"] >= arguments.assemblies:
                        return
                    state["next"] += 1
                try:
                    run_assembly(base, batch, STEPS)
                except Exception as error:  # the service died or an Assembly failed
                    with lock:
                        state["error"] = state["error"] or error
                    return
                with lock:
                    state["done"] += 1
                    if state["done"] % 100 == 0:
                        state["rss"].append(rss(serve.pid))

        threads = [threading.Thread(target=client) for _ in range(arguments.clients)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        elapsed = time.monotonic() - started
        alive = serve.poll() is None
        if not alive or state["error"]:
            err.seek(0)
            raise SystemExit("soak FAILED after %d Assemblies: %s (serve %s)\n%s" % (
                state["done"], state["error"], "running" if alive else "exited %s" % serve.returncode, err.read()[-3000:]))
        series = state["rss"]
        print("soak serve (%d workers): %d Assemblies of %d JPEGs (%d resizes) from %d clients in %.1f s (%.0f resizes/s), 0 crashes; "
              "RSS %d MB at the start, %d MB after the first 100, %d MB at the end (max %d MB); every 100 Assemblies: %s MB"
              % (arguments.workers, state["done"], arguments.files, state["done"] * arguments.files, arguments.clients, elapsed,
                 state["done"] * arguments.files / elapsed, series[0], series[min(1, len(series) - 1)], series[-1], max(series),
                 " ".join(str(value) for value in series)))
    finally:
        serve.terminate()
        try:
            serve.wait(10)
        except subprocess.TimeoutExpired:
            serve.kill()
        shutil.rmtree(directory, ignore_errors=True)


if __name__ == "__main__":
    main()
