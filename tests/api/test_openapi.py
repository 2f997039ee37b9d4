"""GET /openapi.json: generated from the op registry, valid OpenAPI 3.1, and true.

"True" is checked twice: structurally here (every op, method, level, the error shape on
every 4xx/5xx), and by validating real answers of the precise ops against their schemas.
``test_schemathesis.py`` then fuzzes the whole document against the server.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from api.openapi import build_document, operation_id, ops_markdown, variants
from element import registry

ROOT = Path(__file__).resolve().parents[2]
MEMORY = "/api/demo/memory/ops"
PRECISE = ("store", "search", "list", "get", "update", "delete", "forget_subject", "stats",
           "create", "spec", "spec_update")


@pytest.fixture
def doc(server) -> dict[str, Any]:
    reply = server.client(None).get("/openapi.json")
    assert reply.status == 200, reply.body
    assert reply.headers["Content-Type"].startswith("application/json")
    return reply.body


def operations(doc: dict[str, Any]) -> dict[str, tuple[str, str, dict[str, Any]]]:
    """operationId -> (path, method, operation)."""
    found = {}
    for path, item in doc["paths"].items():
        for method, operation in item.items():
            found[operation["operationId"]] = (path, method.upper(), operation)
    return found


def resolve(doc: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in node:
        target: Any = doc
        for part in node["$ref"].lstrip("#/").split("/"):
            target = target[part]
        node = target
    return node


def test_document_is_valid_openapi_31(doc) -> None:
    assert doc["openapi"].startswith("3.1")
    try:
        from openapi_spec_validator import validate
    except ImportError:   # structural checks below still run
        pytest.skip("openapi-spec-validator is not installed")
    validate(doc)


def test_every_registry_op_is_documented_with_its_method_and_level(doc) -> None:
    ops = operations(doc)
    for op in registry():
        assert variants(op), op.name
        for variant in variants(op):
            path, method, operation = ops[operation_id(op, variant)]
            prefix = "/api/{circle}/ops/" if variant == "circle" else "/api/{circle}/{slug}/ops/"
            assert path == prefix + op.path
            assert method == op.method
            assert operation["x-triform-op"] == op.name
            assert operation["x-triform-level"] == op.level
            assert operation["summary"] == op.summary
    documented = {o["x-triform-op"] for _, _, o in ops.values() if "x-triform-op" in o}
    assert documented == set(registry().ops)


def test_memory_ops_live_only_under_an_element_path(doc) -> None:
    for op in registry():
        if op.types is not None and "memory" in op.types and "circle" not in op.types:
            assert variants(op) == ["element"], op.name
            assert f"/api/{{circle}}/ops/{op.path}" not in doc["paths"]
    # forget_subject is both: a person forgotten in every memory element of a circle.
    assert "/api/{circle}/ops/forget_subject" in doc["paths"]
    assert "/api/{circle}/ops/activity" in doc["paths"]
    assert "/api/{circle}/{slug}/ops/activity" in doc["paths"]


def test_path_parameters_are_declared(doc) -> None:
    for path, item in doc["paths"].items():
        names = set(re.findall(r"\{(\w+)\}", path))
        for operation in item.values():
            declared = {resolve(doc, p)["name"] for p in operation.get("parameters", [])
                        if resolve(doc, p)["in"] == "path"}
            assert declared == names, (path, declared)


def test_every_error_response_is_the_one_error_shape(doc) -> None:
    for path, item in doc["paths"].items():
        for operation in item.values():
            for status, response in operation["responses"].items():
                if int(status) >= 400:
                    schema = resolve(doc, response)["content"]["application/json"]["schema"]
                    assert schema == {"$ref": "#/components/schemas/Error"}, (path, status)
            if path.startswith("/api/"):
                assert {"400", "401", "403", "404", "500"} <= set(operation["responses"])
    error = doc["components"]["schemas"]["Error"]["properties"]["error"]
    assert set(error["required"]) == {"code", "class", "retryable", "message"}


def test_security_bearer_everywhere_but_public_routes(doc) -> None:
    scheme = doc["components"]["securitySchemes"]["bearerAuth"]
    assert (scheme["type"], scheme["scheme"]) == ("http", "bearer")
    assert doc["security"] == [{"bearerAuth": []}]
    ops = operations(doc)
    assert ops["healthz"][2]["security"] == [] and ops["openapi"][2]["security"] == []
    assert "security" not in ops["events"][2]
    assert ops["events"][0] == "/api/events"
    assert "text/event-stream" in ops["events"][2]["responses"]["200"]["content"]


def test_every_op_has_request_and_response_schemas(doc) -> None:
    ops = operations(doc)
    for op in registry():
        for variant in variants(op):
            _, method, operation = ops[operation_id(op, variant)]
            success = next(r for s, r in operation["responses"].items() if int(s) < 300)
            for kind in success["content"].values():
                assert kind["schema"] not in ({}, {"type": "object"}), op.name
            if method != "GET":
                kinds = operation["requestBody"]["content"]    # NDJSON: import_memories
                assert (kinds.get("application/json") or
                        kinds["application/x-ndjson"])["schema"], op.name
    memory = doc["components"]["schemas"]["Memory"]
    assert set(memory["required"]) == {
        "id", "content", "category", "subject_type", "subject_id", "context", "intention",
        "agent", "source", "metadata", "created_at", "updated_at", "occurred_at",
        "last_accessed_at", "access_count", "embedded"}


def test_the_document_is_deterministic() -> None:
    assert build_document() == build_document()


# -- real answers against their schemas -----------------------------------------------------

def validator(doc: dict[str, Any], op_id: str, status: int) -> Any:
    jsonschema = pytest.importorskip("jsonschema")
    _, _, operation = operations(doc)[op_id]
    response = resolve(doc, operation["responses"][str(status)])
    schema = response["content"]["application/json"]["schema"]
    return jsonschema.Draft202012Validator({**schema, "components": doc["components"]})


def check(doc: dict[str, Any], op_id: str, reply) -> None:
    errors = list(validator(doc, op_id, reply.status).iter_errors(reply.body))
    assert not errors, (op_id, reply.status, [e.message for e in errors], reply.body)


def test_real_answers_match_their_schemas(server, doc) -> None:
    client = server.client()
    stored = client.post(f"{MEMORY}/store", {
        "content": "Ana prefers tea", "category": "preference", "subject_type": "guest",
        "subject_id": "ana", "context": "breakfast chat", "intention": "plan a meeting",
        "agent": "helper", "metadata": {"k": [1, 2]}}, headers={"Idempotency-Key": "k1"})
    assert stored.status == 201
    check(doc, "store", stored)
    memory_id = stored.body["memory"]["id"]
    check(doc, "search", client.post(f"{MEMORY}/search",
                                     {"query": "tea", "context": "breakfast"}))
    check(doc, "list", client.get(f"{MEMORY}/memories?limit=1"))
    check(doc, "get", client.get(f"{MEMORY}/memories/{memory_id}"))
    check(doc, "update", client.post(f"{MEMORY}/memories/{memory_id}/update",
                                     {"content": "Ana prefers green tea", "context": ""}))
    check(doc, "stats", client.get(f"{MEMORY}/stats"))
    check(doc, "forget_subject", client.post(
        f"{MEMORY}/forget_subject", {"subject_type": "guest", "subject_id": "ana"},
        headers={"X-Confirm": "destructive"}))
    second = client.post(f"{MEMORY}/store", {"content": "x", "category": "fact"})
    check(doc, "delete", client.post(f"{MEMORY}/memories/{second.body['memory']['id']}"
                                     "/delete"))
    created = client.post("/api/demo/ops/create", {"element_type": "memory", "slug": "m2",
                                                   "properties": {"max_memories": 5}})
    check(doc, "circle_create", created)
    check(doc, "spec", client.get(f"{MEMORY}/spec"))
    check(doc, "circle_spec", client.get("/api/demo/ops/spec"))
    if registry()["spec_update"].handler is not None:
        check(doc, "spec_update", client.post(f"{MEMORY}/spec_update",
                                              {"properties": {"max_memories": 10}}))
    for reply, op_id in ((client.get(f"{MEMORY}/memories/{'0' * 32}"), "get"),
                         (client.post(f"{MEMORY}/store", {"content": 1}), "store"),
                         (server.client(None).get(f"{MEMORY}/stats"), "stats")):
        assert reply.status >= 400
        check(doc, op_id, reply)


# -- docs/api.md lists every op (datasette's test_docs style) -------------------------------

def test_docs_api_md_lists_every_op() -> None:
    text = (ROOT / "docs" / "api.md").read_text()
    start, end = "<!-- ops:start -->\n", "<!-- ops:end -->"
    assert start in text and end in text
    table = text.split(start, 1)[1].split(end, 1)[0]
    assert table == ops_markdown(), (
        "docs/api.md's op table is stale: regenerate it with "
        "`python -m api.openapi --markdown` and paste it between the ops markers")
    for op in registry():
        assert f"| `{op.name}` | `{op.method} /ops/{op.path}` |" in table
