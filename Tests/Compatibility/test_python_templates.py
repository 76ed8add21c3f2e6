"""The Template API through the official Python SDK (pytransloadit 1.0.4), unchanged, against `assemblyline serve`.

pytransloadit 1.0.4 signs every call as it signs Assemblies: `params` (with `auth`) and `signature` in the query of
`get_template`/`list_templates`, in an urlencoded body for the others. Its `new_template(name, params).create()`
sends `params` with `name` and its own (empty) `steps` beside them; the Template JSON goes under `template`,
as the API's docs ask for it, through those params.
"""
import json

from transloadit.client import Transloadit

from conftest import KEY, SECRET


def steps(width):
    return {"small": {"robot": "/image/resize", "use": ":original", "width": width, "resize_strategy": "fit"}}


def test_create_get_list_update_and_delete_a_template(service, images):
    client = Transloadit(KEY, SECRET, service=service.url)

    created = client.new_template("python-thumbs", {"template": {"steps": steps(40)}}).create()
    assert created.status_code == 200, created.data
    assert created.data["ok"] == "TEMPLATE_CREATED"
    template_id = created.data["id"]
    assert len(template_id) == 32

    fetched = client.get_template(template_id).data
    assert fetched["ok"] == "TEMPLATE_FOUND"
    assert fetched["name"] == "python-thumbs"
    assert fetched["content"] == {"steps": steps(40)}
    assert fetched["require_signature_auth"] == 0

    client.new_template("python-another", {"template": json.dumps({"steps": steps(10)})}).create()
    listed = client.list_templates({"sort": "name", "order": "asc"}).data
    assert listed["count"] == 2
    assert [item["name"] for item in listed["items"]] == ["python-another", "python-thumbs"]

    updated = client.update_template(template_id, {"name": "python-small", "template": json.dumps({"steps": steps(20)})})
    assert updated.status_code == 200, updated.data
    assert updated.data["ok"] == "TEMPLATE_UPDATED"
    assert updated.data["name"] == "python-small"

    assembly = client.new_assembly({"template_id": template_id})
    with open(images[0], "rb") as handle:
        assembly.add_file(handle)
        status = assembly.create(wait=True, resumable=False).data
    assert status["ok"] == "ASSEMBLY_COMPLETED", status
    assert status["template_id"] == template_id
    result = status["results"]["small"][0]
    assert result["meta"]["width"] == 20, "the Assembly ran the edited Template"

    deleted = client.delete_template(template_id)
    assert deleted.status_code == 200
    assert deleted.data["ok"] == "TEMPLATE_DELETED"
    missing = client.get_template(template_id)
    assert missing.status_code == 404
    assert missing.data["error"] == "TEMPLATE_NOT_FOUND"
    assert client.list_templates().data["count"] == 1


def test_a_template_needs_its_json_under_template(service):
    client = Transloadit(KEY, SECRET, service=service.url)
    template = client.new_template("python-steps-only")
    template.add_step("small", "/image/resize", {"use": ":original", "width": 40})
    refused = template.create()
    assert refused.status_code == 400
    assert refused.data["error"] == "INVALID_TEMPLATE_FIELD"
    assert client.list_templates().data["count"] == 0
