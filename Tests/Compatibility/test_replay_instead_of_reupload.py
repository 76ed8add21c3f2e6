"""Replay instead of re-upload, end to end: the built `assemblyline` against `serve`. A night whose Template fails each
Assembly while it executes (after its uploads are stored), `templates push` of the fix, then `resume`: the failed shards
are replayed on the uploads the service kept, no file is uploaded twice, every file is done and verified, and the next
night sends nothing. The uploads are counted at the service (each Assembly's `bytes_received`, read with pytransloadit)."""
import json
import time

from transloadit.client import Transloadit

from conftest import KEY, SECRET, Service
from test_templates_as_code import assemblyline, job

FILES = 7


def steps(crop):
    """Thumbnails; with `crop`, a crop far outside every sample image: the image Robot refuses it while it executes."""
    thumb = {"robot": "/image/resize", "use": ":original", "width": 24, "height": 24, "resize_strategy": "fit", "format": "webp"}
    if crop:
        thumb.update({"resize_strategy": "crop", "crop": {"x1": 9000, "y1": 9000, "x2": 9100, "y2": 9100}})
    return {":original": {"robot": "/upload/handle"}, "thumb": thumb}


def night(folder, url, template_id, images):
    """The job: each file a shard of its own, one at a time; its Template file pulled from the account."""
    job(folder, url, template_id, images, count=FILES, settings="shards: {files: 1}\nconcurrency: {assemblies: 1}\n")
    pulled = assemblyline(folder, "templates", "pull", "job.yaml")
    assert pulled.returncode == 0, pulled.stderr


def status(client, assembly_id):
    """The Assembly's status, asked again when the service's per-Assembly status limit says wait."""
    while True:
        answer = client.get_assembly(assembly_id=assembly_id).data
        if answer.get("error") != "ASSEMBLY_STATUS_FETCHING_RATE_LIMIT_REACHED":
            return answer
        time.sleep(answer["info"]["retryIn"])


def received(client):
    """Every Assembly at the service with the bytes it received: replays receive none."""
    items = client.list_assemblies({"pagesize": 5000}).data["items"]
    return {item["id"]: status(client, item["id"]) for item in items}


def uploaded(statuses):
    """The names of the files the service received, one entry each time one arrived: a replay's are its parent's, not counted."""
    return sorted(upload["name"] for status in statuses.values() if not status.get("parent_id") for upload in status["uploads"])


def push_fix(folder):
    path = folder / "templates" / "thumbs.json"
    content = json.loads(path.read_text())
    content["steps"] = steps(crop=False)
    path.write_text(json.dumps(content, indent=2, sort_keys=True) + "\n")
    pushed = assemblyline(folder, "templates", "push", "job.yaml")
    assert pushed.returncode == 0, pushed.stderr


def finish(folder, run_id, client, first_night, names, *options):
    """The resume after the push (with `options`), and what must hold after it; returns the bytes the service received
    the second time and the replays."""
    resumed = assemblyline(folder, "resume", run_id, "--manifest", "job.yaml", *options)
    assert resumed.returncode == 0, resumed.stdout + resumed.stderr
    after = received(client)
    assert uploaded(after) == names, "every file uploaded once, none twice"
    second = sum(status["bytes_received"] for key, status in after.items() if key not in first_night)
    replays = [status for status in after.values() if status.get("parent_id")]
    first_failed = [status for status in first_night.values() if status.get("error")]
    assert len(replays) == len(first_failed), "each failed shard replayed its Assembly"
    assert all(status["bytes_received"] == 0 and status["ok"] == "ASSEMBLY_COMPLETED" for status in replays)

    report = json.loads(assemblyline(folder, "report", run_id, "--manifest", "job.yaml", "--format", "json").stdout)
    assert report["files_by_state"].get("done") == FILES, report["files_by_state"]
    assert len([r for r in report["replays"] if r["replayed"]]) == len(replays)
    assert {r["parent_assembly_id"] for r in report["replays"]} == {status["assembly_id"] for status in first_failed}
    assert report["bytes_sent"] == sum((folder / "in" / name).stat().st_size for name in names), "a replay sends no bytes"
    outputs = sorted(path.name for path in (folder / "out" / "thumb").iterdir())
    assert len(outputs) == FILES and all(name.endswith(".webp") for name in outputs)

    checked = assemblyline(folder, "check", run_id, "--manifest", "job.yaml")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    again = assemblyline(folder, "run", "job.yaml")
    assert again.returncode == 0, again.stderr
    assert len(received(client)) == len(after), "the next night sends nothing"
    assert not any(SECRET in text for text in [resumed.stdout, resumed.stderr, again.stdout, again.stderr])
    return second, len(replays)


def test_a_template_fixed_after_a_failed_night_is_replayed_with_no_file_uploaded_twice(service, images, tmp_path):
    client = Transloadit(KEY, SECRET, service=service.url)
    template_id = client.new_template("thumbs", {"template": {"steps": steps(crop=True)}}).create().data["id"]
    night(tmp_path, service.url, template_id, images)

    failed = assemblyline(tmp_path, "run", "job.yaml", "--no-breaker")
    assert failed.returncode == 1, failed.stdout + failed.stderr
    run_id = failed.stdout.splitlines()[0].split()[-1]
    first_night = received(client)
    assert len(first_night) == FILES and all(status.get("error") == "IMAGE_RESIZE_VALIDATION" for status in first_night.values())
    names = sorted(image.name for image in images[:FILES])
    assert uploaded(first_night) == names

    push_fix(tmp_path)
    second, replays = finish(tmp_path, run_id, client, first_night, names, "--no-breaker")
    assert (second, replays) == (0, FILES), "every shard replayed: 0 bytes uploaded the second time"


def test_with_the_breaker_the_failed_shards_are_replayed_and_the_rest_uploaded_once(images, tmp_path):
    # The service fails every Assembly while it executes, naming no file, as a broken Template does: the breaker trips.
    (tmp_path / "faults.yaml").write_text("seed: 1\nassemblies: {fail: 1.0, error: INVALID_STEP_PARAMETER}\n")
    broken = Service(tmp_path / "data", "--faults", str(tmp_path / "faults.yaml"))
    client = Transloadit(KEY, SECRET, service=broken.url)
    template_id = client.new_template("thumbs", {"template": {"steps": steps(crop=False)}}).create().data["id"]
    night(tmp_path, broken.url, template_id, images)
    failed = assemblyline(tmp_path, "run", "job.yaml")
    assert failed.returncode == 1 and "stopped creating Assemblies" in failed.stderr, failed.stdout + failed.stderr
    run_id = failed.stdout.splitlines()[0].split()[-1]
    first_night = received(client)
    assert 5 <= len(first_night) < FILES, "the breaker stopped the creations"
    assert broken.stop() == 0

    # The fix: the service without the fault, on the same address and data, and a push of the Template's file.
    fixed = Service(tmp_path / "data", listen=broken.url.removeprefix("http://"))
    try:
        push_fix(tmp_path)
        names = sorted(image.name for image in images[:FILES])
        second, replays = finish(tmp_path, run_id, Transloadit(KEY, SECRET, service=fixed.url), first_night, names)
        assert replays == len(first_night) and second > 0, "the failed shards replayed, the rest uploaded once"
    finally:
        assert fixed.stop() == 0
