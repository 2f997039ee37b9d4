"""Request limits and bad input: 413 for oversized bodies, 400 for malformed JSON, wrong
types and unknown fields, always in the one error shape and never changing stored data."""

from __future__ import annotations

import http.client
import json
from collections.abc import Iterator

import pytest

from element import registry
from tests.helpers import Server, assert_error, serve

MEMORY = "/api/demo/memory/ops"
MIB = 1024 * 1024


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server for the module: every test here leaves stored data as it found it."""
    srv = serve(tmp_path_factory.mktemp("limits"))
    yield srv
    srv.close()


def stored_count(server) -> int:
    return len(server.client().get(f"{MEMORY}/memories?limit=500").body["memories"])


# -- 413 ---------------------------------------------------------------------------------------

def test_json_op_body_over_1_mib_is_413_and_stores_nothing(server) -> None:
    before = stored_count(server)
    body = {"content": "x" * (MIB + 10), "category": "fact"}
    error = assert_error(server.client().post(f"{MEMORY}/store", body), 413,
                         "REQUEST_TOO_LARGE")
    assert error["class"] == "too_large" and str(MIB) in error["message"]
    assert stored_count(server) == before


def test_the_limit_is_checked_before_auth(server) -> None:
    body = {"content": "x" * (MIB + 10), "category": "fact"}
    assert_error(server.client(None).post(f"{MEMORY}/store", body), 413)


def test_just_under_the_limit_is_not_413(server) -> None:
    # Too long for a memory (16 KiB of content), but the body limit is not what refuses it.
    body = {"content": "x" * (MIB - 100), "category": "fact"}
    assert_error(server.client().post(f"{MEMORY}/store", body), 400, "MEMORY_INVALID")


def test_import_bundle_takes_a_larger_body(server) -> None:
    body = {"bundle_base64": "QUFB" * (MIB // 2)}   # 2 MiB of base64
    reply = server.client().post("/api/demo/ops/import/bundle", body)
    assert reply.status != 413, reply.body
    assert reply.status == 400, reply.body


def test_import_bundle_over_its_limit_is_413(server) -> None:
    # Content-Length alone decides; the body is refused before it is read.
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    try:
        conn.putrequest("POST", "/api/demo/ops/import/bundle")
        conn.putheader("Authorization", f"Bearer {server.tokens['admin']}")
        conn.putheader("Content-Type", "application/json")
        conn.putheader("Content-Length", str(64 * MIB + 1))
        conn.putheader("Connection", "close")
        conn.endheaders()
        resp = conn.getresponse()
        body = json.loads(resp.read())
    finally:
        conn.close()
    assert resp.status == 413 and body["error"]["code"] == "REQUEST_TOO_LARGE"


# -- 400: malformed JSON, wrong types, unknown fields ---------------------------------------

@pytest.mark.parametrize("raw", [b"{not json", b"[1, 2]", b"\xff\xfe", b'"text"', b"null",
                                 b"{\"content\": \"a\", \"category\": \"fact\"",
                                 b"\"\\ud800\""])
@pytest.mark.parametrize("path", ["/store", "/search", "/forget_subject"])
def test_malformed_json_is_400(server, raw: bytes, path: str) -> None:
    before = stored_count(server)
    reply = server.client().request("POST", MEMORY + path, raw=raw,
                                    headers={"Content-Type": "application/json"})
    assert_error(reply, 400, "INVALID_JSON")
    assert stored_count(server) == before


WRONG = [
    # (op path, body, expected code)
    ("/store", {"content": 123, "category": "fact"}, "MEMORY_INVALID"),
    ("/store", {"content": "", "category": "fact"}, "MEMORY_INVALID"),
    ("/store", {"content": "  ", "category": "fact"}, "MEMORY_INVALID"),
    ("/store", {"content": "a", "category": ["fact"]}, "MEMORY_INVALID_CATEGORY"),
    ("/store", {"content": "a", "category": "gossip"}, "MEMORY_INVALID_CATEGORY"),
    ("/store", {"content": "a", "category": "fact", "metadata": []}, "MEMORY_INVALID"),
    ("/store", {"content": "a", "category": "fact", "metadata": "x"}, "MEMORY_INVALID"),
    ("/store", {"content": "a", "category": "fact", "context": 5}, "MEMORY_INVALID"),
    ("/store", {"content": "a", "category": "fact", "agent": ""}, "MEMORY_INVALID"),
    ("/store", {"content": "a", "category": "fact", "subject_type": "guest"},
     "MEMORY_SUBJECT_INCOMPLETE"),
    ("/store", {"content": "a", "category": "fact", "subject_type": "alien",
                "subject_id": "x"}, "MEMORY_INVALID"),
    ("/store", {"content": "a", "category": "fact", "source": "rumour"}, None),
    ("/store", {"content": "a", "category": "fact", "source": {}}, None),
    ("/store", {"content": "a", "category": "fact", "source": ["api"]}, None),
    ("/store", {"content": "a", "category": "fact", "colour": "blue"}, "INVALID_REQUEST"),
    ("/store", {"content": "a", "category": "fact", "settings": {}}, "INVALID_REQUEST"),
    ("/search", {"query": 5}, "MEMORY_INVALID"),
    ("/search", {"query": "tea", "limit": "x"}, "MEMORY_INVALID"),
    ("/search", {"query": "tea", "limit": 0}, "MEMORY_INVALID"),
    ("/search", {"query": "tea", "limit": 10**6}, "MEMORY_INVALID"),
    ("/search", {"query": "tea", "limit": True}, "MEMORY_INVALID"),
    ("/search", {"query": "tea", "limit": 2.5}, "MEMORY_INVALID"),
    ("/search", {"query": "tea", "categories": "fact"}, "MEMORY_INVALID"),
    ("/search", {"query": "tea", "categories": ["gossip"]}, "MEMORY_INVALID_CATEGORY"),
    ("/search", {"query": "tea", "subject_id": "ana"}, "MEMORY_SUBJECT_INCOMPLETE"),
    ("/search", {"query": "tea", "top_k": 3}, "INVALID_REQUEST"),
    ("/forget_subject", {"subject_type": "guest", "subject_id": 7}, "MEMORY_INVALID"),
    ("/forget_subject", {"subject_type": "guest"}, "MEMORY_SUBJECT_INCOMPLETE"),
    ("/forget_subject", {"subject_type": "guest", "subject_id": "a", "all": True},
     "INVALID_REQUEST"),
]


@pytest.mark.parametrize("path,body,code", WRONG,
                         ids=[f"{p}-{json.dumps(b)[:40]}" for p, b, _ in WRONG])
def test_wrong_types_and_unknown_fields_are_400(server, path: str, body: dict,
                                                code: str | None) -> None:
    before = stored_count(server)
    reply = server.client().post(MEMORY + path, body,
                                 headers={"X-Confirm": "destructive"})
    assert_error(reply, 400, code)
    assert stored_count(server) == before


@pytest.mark.parametrize("path", ["/store", "/search"])
def test_a_missing_body_is_400_not_500(server, path: str) -> None:
    assert_error(server.client().request("POST", MEMORY + path), 400)
    assert_error(server.client().post(MEMORY + path, {}), 400)


def test_update_validates_and_changes_nothing_on_error(server) -> None:
    client = server.client()
    memory = client.post(f"{MEMORY}/store", {"content": "a", "category": "fact"}).body["memory"]
    update = f"{MEMORY}/memories/{memory['id']}/update"
    for body, code in (({"content": 5}, "MEMORY_INVALID"),
                       ({"category": "gossip"}, "MEMORY_INVALID_CATEGORY"),
                       ({"metadata": [1]}, "MEMORY_INVALID"),
                       ({"subject_id": "x"}, "INVALID_REQUEST")):
        assert_error(client.post(update, body), 400, code)
    assert client.get(f"{MEMORY}/memories/{memory['id']}").body["memory"] == memory


@pytest.mark.parametrize("query", ["limit=x", "limit=0", "limit=100000", "category=gossip",
                                   "cursor=nope", "created_after=yesterday", "colour=blue",
                                   "subject_id=ana"])
def test_list_query_is_validated(server, query: str) -> None:
    assert_error(server.client().get(f"{MEMORY}/memories?{query}"), 400)


CREATE_BAD = [{"name": 5}, {"slug": 5}, {"element_type": 5}, {"properties": []},
              {"properties": "x"}, {"properties": {"max_memories": "many"}},
              {"properties": {"colour": "x"}}, {"colour": "x"}, {"description": 5}]


@pytest.mark.parametrize("case", range(len(CREATE_BAD)),
                         ids=[json.dumps(c) for c in CREATE_BAD])
def test_create_validates_types_and_fields(server, case: int) -> None:
    slug = f"bad-{case}"
    body = {"element_type": "memory", "slug": slug, **CREATE_BAD[case]}
    assert_error(server.client().post("/api/demo/ops/create", body), 400)
    assert all(e.slug != slug for e in server.home.catalog.elements("demo"))


def test_every_json_op_refuses_a_non_object_body(server) -> None:
    """Whatever the op, a JSON array body is 400 INVALID_JSON, never a 5xx."""
    client = server.client()
    for op in registry():
        if op.method == "GET":
            continue
        element = "demo/memory" if op.applies_to("memory") else "demo"
        path = f"/api/{element}/ops/" + op.path.replace("{memory_id}", "0" * 32)
        reply = client.request(op.method, path, raw=b"[1]",
                               headers={"Content-Type": "application/json"})
        if op.types is not None and not op.applies_to("memory"):
            continue   # e.g. promote: answered by project elements only
        assert reply.status == 400, (op.name, reply.status, reply.body)
        if op.request_content is not None:
            continue   # NDJSON, not JSON: IMPORT_INVALID (tests/api/test_transfer.py)
        assert reply.body["error"]["code"] == "INVALID_JSON", op.name
