"""Templates as code end to end: the built `assemblyline` against `serve`, with the official Python SDK (pytransloadit
1.0.4, a client no one here wrote) editing the account's Template behind the repository's back."""
import json
import os
import subprocess

from transloadit.client import Transloadit

from conftest import BIN, KEY, SECRET


def assemblyline(folder, *arguments, secret=SECRET):
    env = {"PATH": "/usr/bin:/bin", "HOME": str(folder), "COMPAT_SECRET": secret}
    return subprocess.run([BIN, *arguments], cwd=folder, env=env, capture_output=True, text=True, timeout=300)


def steps(width):
    return {
        ":original": {"robot": "/upload/handle"},
        "thumb": {"robot": "/image/resize", "use": ":original", "width": width, "resize_strategy": "fit", "format": "webp"},
    }


def job(folder, url, template_id, images, count=3, settings=""):
    """A manifest of the Template `template_id` (its file in templates/) over `count` of the images, with `settings` lines."""
    inputs = folder / "in"
    inputs.mkdir()
    for image in images[:count]:
        (inputs / image.name).write_bytes(image.read_bytes())
    (folder / "templates").mkdir()
    (folder / "job.yaml").write_text(
        "version: 1\nname: thumbs\n"
        f"endpoint: {url}\nauth: {{key: {KEY}}}\nsigner: {{kind: local, secret_env: COMPAT_SECRET}}\n"
        "inputs: {include: \"in/*.png\", base: in}\n"
        f"template: {{id: {template_id}, file: templates/thumbs.json}}\n" + settings +
        "output: {dir: out, layout: \"{step}/{stem}.{ext}\"}\n")


def test_pull_edit_diff_push_run_and_an_sdk_edit_is_caught_before_the_night(service, images, tmp_path):
    client = Transloadit(KEY, SECRET, service=service.url)
    created = client.new_template("thumbs", {"template": {"steps": steps(40)}}).create().data
    template_id = created["id"]
    job(tmp_path, service.url, template_id, images)

    pulled = assemblyline(tmp_path, "templates", "pull", "job.yaml")
    assert pulled.returncode == 0, pulled.stderr
    text = (tmp_path / "templates" / "thumbs.json").read_text()
    assert text.startswith('{\n  "name": "thumbs",\n  "require_signature_auth": 0,\n  "steps": {\n'), text
    assert json.loads(text)["steps"] == steps(40)
    mark = json.loads((tmp_path / "templates" / "thumbs.json.sync").read_text())
    assert mark["template_id"] == template_id and len(mark["account_sha256"]) == 64
    assert assemblyline(tmp_path, "templates", "pull", "job.yaml").stdout.endswith("(unchanged)\n"), "a second pull changes no byte"
    assert (tmp_path / "templates" / "thumbs.json").read_text() == text
    same = assemblyline(tmp_path, "templates", "diff", "job.yaml")
    assert (same.returncode, same.stdout) == (0, ""), same.stderr
    refused = assemblyline(tmp_path, "templates", "diff", "job.yaml", secret="not-the-secret")
    assert refused.returncode == 77 and "INVALID_SIGNATURE" in refused.stderr, refused.stderr

    # The operator edits the file: diff says how, exit 1; push sends it; the run makes .webp files of the new width.
    (tmp_path / "templates" / "thumbs.json").write_text(text.replace('"width": 40', '"width": 24'))
    different = assemblyline(tmp_path, "templates", "diff", "job.yaml")
    assert different.returncode == 1, different.stderr
    assert different.stdout == "~ steps.thumb.width: 24 → 40\n"
    pushed = assemblyline(tmp_path, "templates", "push", "job.yaml")
    assert pushed.returncode == 0, pushed.stderr
    assert client.get_template(template_id).data["content"]["steps"]["thumb"]["width"] == 24
    night = assemblyline(tmp_path, "run", "job.yaml")
    assert night.returncode == 0, night.stderr
    report = assemblyline(tmp_path, "report", "latest", "--manifest", "job.yaml")
    assert f"template  {template_id}, content sha256 " in report.stdout, report.stdout
    first = json.loads(assemblyline(tmp_path, "report", "latest", "--manifest", "job.yaml", "--format", "json").stdout)
    assert first["template_id"] == template_id and len(first["template_sha256"]) == 64, first
    outputs = sorted(path.name for path in (tmp_path / "out" / "thumb").iterdir())
    assert outputs == sorted(image.stem + ".webp" for image in images[:3]), "{ext} follows the Template's format"

    # Someone edits the Template with the SDK: the next night refuses before its first Assembly, naming templates diff.
    client.update_template(template_id, {"name": "thumbs", "template": json.dumps({"steps": steps(64)})})
    (tmp_path / "in" / "new.png").write_bytes(images[3].read_bytes())
    before = client.list_templates().data["count"], len(os.listdir(tmp_path / "out" / "thumb"))
    caught = assemblyline(tmp_path, "run", "job.yaml")
    assert caught.returncode == 65, caught.stderr
    assert f"the account's Template {template_id} differs from the Template file" in caught.stderr
    assert "templates diff" in caught.stderr
    assert len(os.listdir(tmp_path / "out" / "thumb")) == before[1], "nothing was sent"

    # A push would lose that edit: refused without --force; --force overwrites, and the night runs.
    refused = assemblyline(tmp_path, "templates", "push", "job.yaml")
    assert refused.returncode == 65, refused.stderr
    assert "changed since the last pull or push" in refused.stderr
    assert client.get_template(template_id).data["content"]["steps"]["thumb"]["width"] == 64
    forced = assemblyline(tmp_path, "templates", "push", "job.yaml", "--force")
    assert forced.returncode == 0, forced.stderr
    assert client.get_template(template_id).data["content"]["steps"]["thumb"]["width"] == 24
    night = assemblyline(tmp_path, "run", "job.yaml")
    assert night.returncode == 0, night.stderr
    assert (tmp_path / "out" / "thumb" / "new.webp").exists()
    second = json.loads(assemblyline(tmp_path, "report", "latest", "--manifest", "job.yaml", "--format", "json").stdout)
    assert second["template_sha256"] == first["template_sha256"], "the same file's content, the same hash"
    (tmp_path / "templates" / "thumbs.json").write_text(text.replace('"width": 40', '"width": 20'))
    assert assemblyline(tmp_path, "templates", "push", "job.yaml").returncode == 0
    assert assemblyline(tmp_path, "run", "job.yaml").returncode == 0
    third = json.loads(assemblyline(tmp_path, "report", "latest", "--manifest", "job.yaml", "--format", "json").stdout)
    assert third["template_sha256"] != first["template_sha256"], "an edit: another hash"
    assert not any(SECRET in line for line in [pulled.stderr, caught.stderr, refused.stderr, night.stdout, night.stderr])


def test_push_without_an_id_creates_the_template_and_list_shows_it(service, images, tmp_path):
    job(tmp_path, service.url, "x", images)
    manifest = (tmp_path / "job.yaml").read_text().replace("{id: x, file:", "{file:")
    (tmp_path / "job.yaml").write_text(manifest)
    (tmp_path / "templates" / "thumbs.json").write_text(json.dumps({"name": "fresh", "steps": steps(16)}))
    created = assemblyline(tmp_path, "templates", "push", "job.yaml")
    assert created.returncode == 0, created.stderr
    template_id = created.stdout.split()[2]
    assert Transloadit(KEY, SECRET, service=service.url).get_template(template_id).data["name"] == "fresh"
    listed = assemblyline(tmp_path, "templates", "list", "job.yaml")
    assert listed.returncode == 0 and template_id in listed.stdout and "fresh" in listed.stdout, listed.stdout
