"""The official Transloadit Python SDK (pytransloadit 1.0.4), unchanged, against `assemblyline serve`."""
import hashlib

import requests
from transloadit.client import Transloadit

from conftest import KEY, SECRET

RESIZE = {"use": ":original", "width": 64, "height": 64, "resize_strategy": "fit", "result": True}


def create(service, images, resumable):
    client = Transloadit(KEY, SECRET, service=service.url)
    assembly = client.new_assembly()
    assembly.add_step("resize", "/image/resize", dict(RESIZE))
    handles = [open(path, "rb") for path in images]
    try:
        for handle in handles:
            assembly.add_file(handle)
        return assembly.create(wait=True, resumable=resumable).data
    finally:
        for handle in handles:
            handle.close()


def check_results(status, images):
    assert status["ok"] == "ASSEMBLY_COMPLETED", status
    results = status["results"]["resize"]
    assert len(results) == len(images)
    for result in results:
        assert max(result["meta"]["width"], result["meta"]["height"]) == 64
        body = requests.get(result["ssl_url"], timeout=30).content
        assert len(body) == result["size"]
        assert hashlib.md5(body).hexdigest() == result["md5hash"]


def test_multipart_mode_creates_waits_and_reads_results(service, images):
    status = create(service, images[:3], resumable=False)
    check_results(status, images[:3])
    assert sorted(upload["name"] for upload in status["uploads"]) == sorted(path.name for path in images[:3])


def test_resumable_tus_mode_creates_waits_and_reads_results(service, images):
    status = create(service, images[3:5], resumable=True)
    check_results(status, images[3:5])
    assert status["finished_tus_uploads"] == 2


def test_sdk_reads_get_and_cancel(service, images):
    client = Transloadit(KEY, SECRET, service=service.url)
    status = create(service, images[5:6], resumable=False)
    fetched = client.get_assembly(assembly_url=status["assembly_ssl_url"]).data
    assert fetched["assembly_id"] == status["assembly_id"]
    listed = client.list_assemblies().data
    assert status["assembly_id"] in [item["id"] for item in listed["items"]]


def test_a_wrong_secret_is_refused(service, images):
    client = Transloadit(KEY, "not-the-secret", service=service.url)
    assembly = client.new_assembly()
    assembly.add_step("resize", "/image/resize", dict(RESIZE))
    with open(images[0], "rb") as handle:
        assembly.add_file(handle)
        data = assembly.create(wait=False, resumable=False).data
    assert data["error"] == "INVALID_SIGNATURE"
