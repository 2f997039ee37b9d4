"""Bad input is a 400 and changes nothing, anywhere (issue 9, Medium 7): JSON nested 1,000
deep, integers over 4,300 digits, a NUL in a commit message, lone surrogates in a name, a
description or a README. After each refusal the draft tip in git and the catalog's version
are what they were (the surrogate once committed to git before the catalog refused it)."""

from __future__ import annotations

import pytest

from source import branch_tips
from tests.helpers import assert_error

MEMORY = "/api/demo/memory/ops"
JSON = {"Content-Type": "application/json"}

CASES = [
    ("POST", f"{MEMORY}/store",
     b'{"content": "x", "category": "fact", "metadata": ' + b"[" * 1000 + b"]" * 1000 + b"}",
     "INVALID_JSON"),
    ("POST", f"{MEMORY}/store",
     b'{"content": "x", "category": "fact", "metadata": {"n": ' + b"9" * 5000 + b"}}",
     "INVALID_JSON"),
    ("POST", f"{MEMORY}/spec_update", b'{"name": "a\\ud800b"}', "INVALID_REQUEST"),
    ("POST", f"{MEMORY}/spec_update", b'{"description": "a\\udfffb"}', "INVALID_REQUEST"),
    ("POST", f"{MEMORY}/spec_update", b'{"name": "ok", "message": "a\\u0000b"}', None),
    ("POST", f"{MEMORY}/readme_update", b'{"content": "# a\\udc00b"}', "INVALID_REQUEST"),
    ("PATCH", f"{MEMORY}/update_meta", b'{"meta": {"k": "\\ud800"}}', None),
]


@pytest.mark.parametrize("method,path,raw,code", CASES)
def test_bad_input_is_400_and_changes_nothing(server, method: str, path: str, raw: bytes,
                                              code: str | None) -> None:
    memory = server.home.catalog.element_at("demo/memory")
    tips = branch_tips(server.home.repo_path(memory))
    reply = server.client("member").request(method, path, raw=raw, headers=JSON)
    assert_error(reply, 400, code)
    after = server.home.catalog.element_at("demo/memory")
    assert (after.version, after.name, after.meta) == (memory.version, memory.name,
                                                       memory.meta)
    assert branch_tips(server.home.repo_path(memory)) == tips
    assert server.client().get(f"{MEMORY}/memories").body["memories"] == []


def test_an_empty_environment_header_is_400_not_the_default(server) -> None:
    reply = server.client("member").get(f"{MEMORY}/memories", headers={"X-Triform-Env": ""})
    assert_error(reply, 400, "INVALID_REQUEST")


# -- issue 26, Medium 11: NUL, one rule for both backends ---------------------------------
@pytest.fixture(params=["file", "postgresql"])
def either(request: pytest.FixtureRequest, tmp_path):
    from tests.helpers import serve
    options = {}
    if request.param == "postgresql":
        pg = request.getfixturevalue("pg_server")
        options["database"] = pg.create_database(f"nul_{abs(hash(str(tmp_path))) % 10**8}")
    srv = serve(tmp_path / "home", **options)
    yield srv
    srv.close()


NUL_CASES = [
    ("POST", f"{MEMORY}/store", {"content": "a\x00b", "category": "fact"}),
    ("POST", f"{MEMORY}/store", {"content": "ok", "category": "fact",
                                 "subject_type": "guest", "subject_id": "a\x00"}),
    ("POST", f"{MEMORY}/store", {"content": "ok", "category": "fact",
                                 "metadata": {"k\x00": "v"}}),
    ("POST", f"{MEMORY}/store", {"content": "ok", "category": "fact",
                                 "metadata": {"k": ["v\x00"]}}),
    ("POST", f"{MEMORY}/search", {"query": "tea\x00"}),
    ("POST", f"{MEMORY}/spec_update", {"description": "a\x00b"}),
    ("POST", "/api/demo/ops/create", {"element_type": "memory", "slug": "m",
                                      "name": "a\x00b"}),
    ("PATCH", f"{MEMORY}/update_meta", {"meta": {"k": "\x00"}}),
]


@pytest.mark.parametrize("method,path,body", NUL_CASES)
def test_a_nul_is_a_400_on_both_backends(either, method: str, path: str, body) -> None:
    """The file backend stored a NUL, PostgreSQL answered 500 marked retryable (so
    ``triform migrate`` to PostgreSQL failed on what the files held)."""
    reply = either.client("member").request(method, path, body)
    error = assert_error(reply, 400)
    assert "NUL" in error["message"], error
    assert either.client().get(f"{MEMORY}/stats").body["total"] == 0


def test_a_nul_in_an_import_line_is_refused(server) -> None:
    import json
    header = {"format": "triform-memories", "version": 1, "count": 1}
    line = {"id": "a" * 32, "content": "a\x00b", "category": "fact",
            "created_at": "2024-01-01T00:00:00Z"}
    body = b"".join(json.dumps(x).encode() + b"\n" for x in (header, line))
    reply = server.client("member").post(f"{MEMORY}/import/memories", raw=body,
                                         headers={"Content-Type": "application/x-ndjson"})
    assert "NUL" in assert_error(reply, 400, "IMPORT_INVALID")["message"]


def test_a_nul_in_a_query_parameter_is_a_400(server) -> None:
    reply = server.client().get(f"{MEMORY}/memories?subject_type=guest&subject_id=a%00b")
    assert "NUL" in assert_error(reply, 400)["message"]


def test_migrate_carries_a_nul_the_files_hold_to_postgresql(tmp_path, pg_server) -> None:
    """Files written before the rule may hold a NUL; PostgreSQL keeps none: the copy
    carries it as U+FFFD, counted, instead of failing the whole migration."""
    import json
    import sqlite3

    from element import Home
    from element.transfer import migrate_catalog, migrate_memories
    from index import HashingEmbedder
    from tests.helpers import serve
    srv = serve(tmp_path / "home")
    member = srv.client("member")
    kept = member.post(f"{MEMORY}/store", {"content": "tea at nine", "category": "fact"})
    log = srv.home.runtime_path(srv.home.catalog.element_at("demo/memory")) \
        / "memories.jsonl"
    srv.close()
    lines = log.read_text().splitlines()
    entry = json.loads(lines[-1])
    entry["record"].update(id="c" * 32, seq=50, content="old\x00text",
                           metadata={"k\x00": "v\x00"})
    lines.append(json.dumps(entry))
    log.write_text("\n".join(lines) + "\n")
    with sqlite3.connect(tmp_path / "home" / "catalog.db") as db:
        db.execute("UPDATE elements SET description = ? WHERE path = 'demo/memory'",
                   ("a\x00b",))
    url = pg_server.create_database("nul_migrate")
    with Home(tmp_path / "home", lambda: HashingEmbedder(384)) as source, \
            Home(tmp_path / "home", lambda: source.embedder, database=url,
                 leaving_database=True) as target:
        assert migrate_catalog(source, target)["verified"]
        report = migrate_memories(source, target)
        assert target.catalog.element_at("demo/memory").description == "a\ufffdb"
        with target.memory_store(target.catalog.element_at("demo/memory")) as store:
            moved = store.get("c" * 32)
    row = next(r for r in report if r["path"] == "demo/memory")
    assert (row["imported"], row["nul_replaced"], row["missing"]) == (2, 1, 0)
    assert moved["content"] == "old\ufffdtext" and moved["metadata"] == {"k\ufffd": "v\ufffd"}
    assert kept.status == 201
