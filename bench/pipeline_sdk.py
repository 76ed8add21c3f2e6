"""The Python SDK contender of bench/pipeline.sh: pytransloadit 1.0.4 driven by a thread pool.

Usage: pipeline_sdk.py [--poll SECONDS] URL KEY OUTPUT_DIR CONCURRENCY LIST...   (the secret in BENCH_SECRET)

One Assembly per shard list (file paths, one a line): new_assembly, add_file for each file,
add_step(':original', '/upload/handle', result: true), create(wait=True, resumable=False), then
each result of ':original' downloaded with requests (one Session per worker thread). The SDK
polls at its own fixed interval (1 s, or the service's retryIn), which this script leaves alone
unless --poll replaces the SDK's sleep (an informational variant: how much of the gap is polling).
Each shard carries `fields: {shard: N}`: the SDK sends no nonce, so shards created within the same
second would otherwise send the same signed params and be refused as SIGNATURE_REUSE_DETECTED.
"""
import concurrent.futures
import os
import sys
import threading
import time

import requests
import transloadit.assembly
from transloadit.client import Transloadit

SESSIONS = threading.local()


def session():
    """This worker thread's requests Session (keeps its connection for the downloads)."""
    if not hasattr(SESSIONS, "session"):
        SESSIONS.session = requests.Session()
    return SESSIONS.session


def run_shard(client, list_path, output):
    """Creates the shard's Assembly, waits for it, downloads its results; returns how many."""
    shard = os.path.basename(list_path).removesuffix(".list")
    with open(list_path) as listing:
        paths = [line.rstrip("\n") for line in listing if line.strip()]
    assembly = client.new_assembly({"fields": {"shard": shard}})
    assembly.add_step(":original", "/upload/handle", {"result": True})
    handles = [open(path, "rb") for path in paths]
    try:
        for handle in handles:
            assembly.add_file(handle)
        status = assembly.create(wait=True, resumable=False).data
    finally:
        for handle in handles:
            handle.close()
    if status.get("ok") != "ASSEMBLY_COMPLETED":
        raise RuntimeError(f"shard {shard}: {status.get('error')} {status.get('message')}")
    folder = os.path.join(output, shard)
    os.makedirs(folder, exist_ok=True)
    results = status["results"][":original"]
    for result in results:
        with session().get(result["ssl_url"], stream=True, timeout=60) as answer:
            answer.raise_for_status()
            with open(os.path.join(folder, result["name"]), "wb") as target:
                for chunk in answer.iter_content(chunk_size=65536):
                    target.write(chunk)
    return len(results)


def main():
    arguments = sys.argv[1:]
    if arguments[0] == "--poll":
        poll = float(arguments[1])
        transloadit.assembly.sleep = lambda _seconds: time.sleep(poll)
        arguments = arguments[2:]
    url, key, output, concurrency, lists = arguments[0], arguments[1], arguments[2], int(arguments[3]), arguments[4:]
    client = Transloadit(key, os.environ["BENCH_SECRET"], service=url)
    with concurrent.futures.ThreadPoolExecutor(max_workers=concurrency) as pool:
        done = sum(pool.map(lambda path: run_shard(client, path, output), lists))
    print(f"{done} results downloaded")


if __name__ == "__main__":
    main()
