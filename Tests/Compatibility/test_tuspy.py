"""tuspy 1.1.0, unchanged: a chunked upload into an Assembly, interrupted, then resumed by a new uploader."""
import json
import time

import requests
from tusclient import client as tus
from transloadit.client import Transloadit

from conftest import KEY, SECRET

CHUNK = 64 * 1024


def test_upload_in_chunks_is_interrupted_and_resumes(service, tmp_path):
    payload = bytes(range(256)) * (5 * CHUNK // 256 + 7)
    path = tmp_path / "blob.bin"
    path.write_bytes(payload)
    client = Transloadit(KEY, SECRET, service=service.url)
    created = client.request.post("/assemblies", data={"steps": {":original": {"robot": "/upload/handle"}}},
                                  extra_data={"tus_num_expected_upload_files": 1}).data
    assert created["ok"] == "ASSEMBLY_UPLOADING", created
    metadata = {"assembly_url": created["assembly_ssl_url"], "fieldname": "file", "filename": "blob.bin"}

    first = tus.TusClient(created["tus_url"]).uploader(str(path), chunk_size=CHUNK, metadata=metadata)
    first.upload_chunk()
    first.upload_chunk()
    upload_url = first.url
    assert first.offset == 2 * CHUNK

    resumed = tus.TusClient(created["tus_url"]).uploader(str(path), chunk_size=CHUNK, url=upload_url, upload_checksum=True)
    assert resumed.offset == 2 * CHUNK
    resumed.upload()
    assert resumed.offset == len(payload)

    deadline = time.time() + 30
    status = created
    while status["ok"] != "ASSEMBLY_COMPLETED" and time.time() < deadline:
        time.sleep(0.2)
        status = requests.get(created["assembly_ssl_url"], timeout=10).json()
    assert status["ok"] == "ASSEMBLY_COMPLETED", json.dumps(status)
    upload = status["uploads"][0]
    assert upload["size"] == len(payload)
    assert requests.get(upload["ssl_url"], timeout=10).content == payload
