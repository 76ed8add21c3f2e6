"""The tuspy contender of bench/tus.sh: one file into one Assembly over tus, with or without Upload-Checksum.

Usage: tus_tuspy.py [--checksum] URL KEY FILE CHUNK_BYTES   (the secret in BENCH_SECRET)

pytransloadit 1.0.4 creates the Assembly (`tus_num_expected_upload_files: 1`, `:original` with
`result: false`), tuspy 1.1.0 uploads the file in PATCHes of CHUNK_BYTES (with `upload_checksum`
when --checksum: SHA-1 of each chunk, which tuspy holds in memory, so the file is read once), then
the status is polled every 100 ms until the Assembly completes, as `assemblyline run` does. The
two variants differ only in the checksum: their difference is what Upload-Checksum costs a tus
upload to this service, the client's hashing and the service's check together.
"""
import os
import sys
import time

import requests
from tusclient import client as tus
from transloadit.client import Transloadit


def main():
    arguments = sys.argv[1:]
    checksum = arguments[0] == "--checksum"
    if checksum:
        arguments = arguments[1:]
    url, key, path, chunk = arguments[0], arguments[1], arguments[2], int(arguments[3])
    client = Transloadit(key, os.environ["BENCH_SECRET"], service=url)
    steps = {":original": {"robot": "/upload/handle", "result": False}}
    created = client.request.post("/assemblies", data={"steps": steps, "fields": {"started": time.time_ns()}},
                                  extra_data={"tus_num_expected_upload_files": 1}).data
    if created.get("ok") != "ASSEMBLY_UPLOADING":
        raise RuntimeError(f"creation: {created}")
    metadata = {"assembly_url": created["assembly_ssl_url"], "fieldname": "file", "filename": os.path.basename(path)}
    tus.TusClient(created["tus_url"]).uploader(path, chunk_size=chunk, metadata=metadata, upload_checksum=checksum).upload()
    status = created
    with requests.Session() as session:
        while status.get("ok") not in ("ASSEMBLY_COMPLETED", None) and not status.get("error"):
            time.sleep(0.1)
            status = session.get(created["assembly_ssl_url"], timeout=30).json()
    results = sum(len(files) for files in (status.get("results") or {}).values())
    if status.get("ok") != "ASSEMBLY_COMPLETED" or results:
        raise RuntimeError(f"the Assembly ended {status.get('ok')} {status.get('error')} with {results} results")
    print(f"completed (0 results), {status['uploads'][0]['size']} bytes")


if __name__ == "__main__":
    main()
