"""Bearer auth on every op, roles, and the one JSON error shape."""

from __future__ import annotations

import subprocess
from pathlib import Path


from element import registry

STORE = "/api/demo/memory/ops/store"
MEMORY = {"content": "Ana likes tea", "category": "preference"}


def assert_error(reply, status: int, code: str | None = None) -> None:
    assert reply.status == status, (reply.status, reply.body)
    error = reply.body["error"]
    assert set(error) == {"code", "class", "retryable", "message"}
    assert isinstance(error["message"], str) and error["message"]
    if code:
        assert error["code"] == code


def test_healthz_needs_no_token(server) -> None:
    reply = server.client(None).get("/healthz")
    assert reply.status == 200 and reply.body == {"status": "ok"}


def test_no_token_is_401_on_every_op(server) -> None:
    client = server.client(None)
    for op in registry():
        path = "/api/demo/memory/ops/" + op.path.replace("{memory_id}", "x")
        reply = client.request(op.method, path, {} if op.method != "GET" else None)
        assert_error(reply, 401, "UNAUTHORIZED")
        assert reply.headers.get("WWW-Authenticate", "").startswith("Bearer")


def test_bad_token_is_401(server) -> None:
    assert_error(server.client(None).post(STORE, MEMORY, token="tfm_nope"), 401)


def test_viewer_cannot_write_but_can_read(server) -> None:
    assert_error(server.client("viewer").post(STORE, MEMORY), 403, "FORBIDDEN")
    assert server.client("member").post(STORE, MEMORY).status == 201
    assert server.client("viewer").get("/api/demo/memory/ops/memories").status == 200


def test_token_of_another_circle_is_403(server) -> None:
    assert_error(server.client("other").post(STORE, MEMORY), 403, "FORBIDDEN")


def test_member_cannot_do_admin_ops(server) -> None:
    assert_error(server.client("member").post("/api/demo/memory/ops/disable", {}), 403)


def test_unknown_element_and_op_are_404(server) -> None:
    assert_error(server.client().get("/api/demo/nope/ops/memories"), 404, "ELEMENT_NOT_FOUND")
    assert_error(server.client().get("/api/demo/memory/ops/nope"), 404, "OP_NOT_FOUND")
    assert_error(server.client().get("/nowhere"), 404, "NOT_FOUND")


def test_malformed_json_is_400_and_stores_nothing(server) -> None:
    client = server.client()
    for raw in (b"{not json", b"[1, 2]", b"\xff\xfe"):
        reply = client.request("POST", STORE, raw=raw,
                               headers={"Content-Type": "application/json"})
        assert_error(reply, 400, "INVALID_JSON")
    assert client.get("/api/demo/memory/ops/memories").body["memories"] == []


def test_unknown_field_is_400(server) -> None:
    reply = server.client().post(STORE, {**MEMORY, "colour": "blue"})
    assert_error(reply, 400)
    assert "colour" in reply.body["error"]["message"]


def test_bad_category_uses_the_sheet_code(server) -> None:
    reply = server.client().post(STORE, {"content": "x", "category": "gossip"})
    assert_error(reply, 400, "MEMORY_INVALID_CATEGORY")


def test_create_validates_type_and_slug(server) -> None:
    client = server.client()
    assert_error(client.post("/api/demo/ops/create", {"slug": "x"}), 400)
    assert_error(client.post("/api/demo/ops/create", {"element_type": "memory"}), 400)
    assert_error(client.post("/api/demo/ops/create",
                             {"element_type": "memory", "slug": "Bad Slug"}), 400)
    reply = client.post("/api/demo/ops/create", {"element_type": "memory", "slug": "m2",
                                                 "properties": {"max_memories": 0}})
    assert_error(reply, 400)
    assert "max_memories" in reply.body["error"]["message"]
    assert client.post("/api/demo/ops/create",
                       {"element_type": "memory", "slug": "m2"}).status == 201
    assert_error(client.post("/api/demo/ops/create",
                             {"element_type": "memory", "slug": "m2"}), 409,
                 "ELEMENT_SLUG_TAKEN")


def test_git_clone_needs_a_token(server, tmp_path: Path, git_env) -> None:
    url = f"http://127.0.0.1:{server.port}/git/demo/memory.git"
    anon = subprocess.run(["git", "clone", "-q", url, str(tmp_path / "a")], env=git_env,
                          capture_output=True, text=True, timeout=60)
    assert anon.returncode != 0
    authed = url.replace("http://", f"http://t:{server.tokens['viewer']}@")
    ok = subprocess.run(["git", "clone", "-q", authed, str(tmp_path / "b")], env=git_env,
                        capture_output=True, text=True, timeout=60)
    assert ok.returncode == 0, ok.stderr
    assert (tmp_path / "b" / ".triform" / "spec.yaml").exists()
