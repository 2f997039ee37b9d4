"""export_bundle and import_bundle: git accepts what we export; a circle round-trips into a
fresh home; hostile bundles are refused one by one and change nothing."""

from __future__ import annotations

import base64
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from collections.abc import Iterator

import pytest

from api.app import create_app
from element import create_token
from source import branch_tips, commit_files, export_bundle
from tests.helpers import assert_error
from tests.helpers import run_git
from tests.helpers import Client, running, start_home

MEMORY = "/api/demo/memory/ops"
IMPORT = "/api/demo/ops/import/bundle"


@contextmanager
def second_server(path: Path) -> Iterator[tuple[Any, Client]]:
    """Another server on a fresh home with only the circle ``demo``; (home, admin client)."""
    home = start_home(path, "hashing")
    home.create_element(circle="demo", element_type_name="circle", slug=None,
                        description="The demo circle")
    token = create_token(home.catalog, "demo", "admin", "admin")
    with running(create_app({"EMBEDDER": "hashing"}, home=home)) as srv:
        yield home, Client("127.0.0.1", srv.port, token)
    home.close()


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def element_bundle(server, path: str = "demo/memory") -> bytes:
    reply = server.client("viewer").get(f"/api/{path}/ops/export/bundle")
    assert reply.status == 200, reply.body
    assert reply.headers["Content-Type"] == "application/x-git-bundle"
    return reply.raw


def test_exported_bundle_is_verified_and_cloned_by_git(server, tmp_path: Path,
                                                       git_env) -> None:
    server.client().post(f"{MEMORY}/readme_update", {"content": "# exported\n"})
    data = element_bundle(server)
    assert data.startswith(b"# v2 git bundle\n")
    bundle = tmp_path / "memory.bundle"
    bundle.write_bytes(data)
    run_git(git_env, "init", "-q", str(tmp_path / "any"))
    verify = run_git(git_env, "bundle", "verify", str(bundle), cwd=tmp_path / "any")
    assert "is okay" in verify.stderr
    run_git(git_env, "clone", "-q", str(bundle), str(tmp_path / "wc"))
    wc = tmp_path / "wc"
    assert run_git(git_env, "branch", "--show-current", cwd=wc).stdout.strip() == "draft"
    assert (wc / "README.md").read_text() == "# exported\n"
    heads = run_git(git_env, "bundle", "list-heads", str(bundle), cwd=wc).stdout
    assert {"refs/heads/draft", "refs/heads/demo", "refs/heads/live"} <= \
        {line.split()[1] for line in heads.splitlines()}


def test_circle_export_is_an_envelope_of_bundles(server) -> None:
    server.client().post("/api/demo/ops/create", {"element_type": "prompt", "slug": "greeting",
                                                  "properties": {"text": "Hello"}})
    body = server.client("viewer").get("/api/demo/ops/export/bundle").body
    assert body["format"] == "triform-circle-envelope/1" and body["circle"] == "demo"
    assert [(e["slug"], e["element_type"]) for e in body["elements"]] == \
        [("greeting", "prompt"), ("memory", "memory")]
    for entry in body["elements"]:
        assert base64.b64decode(entry["bundle_base64"]).startswith(b"# v2 git bundle\n")
        assert entry["parent"] is None


def test_circle_round_trip_into_a_fresh_home(server, tmp_path: Path) -> None:
    admin = server.client()
    admin.post(f"{MEMORY}/spec_update", {"properties": {"max_memories": 12,
                                                        "subject_scoping": True}})
    admin.post(f"{MEMORY}/source/promote", {"to": "demo"})
    admin.post(f"{MEMORY}/readme_update", {"content": "# Memory\n\nRound trip.\n"})
    admin.post("/api/demo/ops/create", {"element_type": "prompt", "slug": "greeting",
                                        "description": "Says hello",
                                        "properties": {"text": "Hello {name}"}})
    admin.post("/api/demo/memory/ops/create", {"element_type": "prompt", "slug": "inner"})
    envelope = admin.get("/api/demo/ops/export/bundle").body
    with second_server(tmp_path / "second") as (home, other):
        reply = other.post(IMPORT, {"envelope": envelope})
        assert reply.status == 200, reply.body
        assert reply.body["counts"] == {"imported": 3, "skipped": 0, "errors": 0}
        for slug in ("memory", "greeting", "inner"):
            path = f"/api/demo/{slug}/ops"
            mine, theirs = admin.get(f"{path}/spec").body, other.get(f"{path}/spec").body
            assert mine["spec"] == theirs["spec"], slug
            assert admin.get(f"{path}/readme").body == other.get(f"{path}/readme").body
            old = server.home.catalog.element_at(f"demo/{slug}")
            new = home.catalog.element_at(f"demo/{slug}")
            assert new.id != old.id
            assert branch_tips(home.repo_path(new)) == branch_tips(server.home.repo_path(old))
        assert home.catalog.element_at("demo/inner").parent_id == \
            home.catalog.element_at("demo/memory").id
        stats = other.get(f"{MEMORY}/stats", headers={"X-Triform-Env": "demo"}).body
        assert stats["capacity"]["max_memories"] == 12
        # Imported elements work: the memory stores, its repo clones, its spec versions.
        assert other.post(f"{MEMORY}/store", {"content": "x", "category": "fact"}).status == 201
        assert other.get(f"{MEMORY}/version").body["version"] == 1
        # Importing again skips every slug.
        again = other.post(IMPORT, {"envelope": envelope}).body
        assert again["counts"] == {"imported": 0, "skipped": 3, "errors": 0}


def test_single_bundle_with_a_new_slug(server) -> None:
    data = element_bundle(server)
    reply = server.client("member").post(IMPORT, {"bundle_base64": b64(data), "slug": "copy"})
    assert reply.status == 200, reply.body
    imported = reply.body["imported"][0]
    assert imported["path"] == "demo/copy" and imported["replaced"] is None
    copy = server.client().get("/api/demo/copy/ops/spec").body
    assert copy["spec"]["slug"] == "copy" and copy["version"] == 1
    source = server.client().get("/api/demo/copy/ops/source?path=.triform/spec.yaml").body
    assert "slug: copy" in source["content"]                    # git agrees with the catalog
    status = server.client().get("/api/demo/copy/ops/source/status").body
    assert status["health"]["ok"] is True, status
    events = server.client().get("/api/demo/copy/ops/activity").body["events"]
    assert events[0]["op"] == "import_bundle"


def test_existing_slug_is_skipped_unless_overwrite(server) -> None:
    client = server.client()
    stored = client.post(f"{MEMORY}/store", {"content": "Ana drinks tea", "category": "fact"})
    old = server.home.catalog.element_at("demo/memory")
    data = element_bundle(server)
    client.post(f"{MEMORY}/readme_update", {"content": "# changed after export\n"})
    skipped = client.post(IMPORT, {"bundle_base64": b64(data)}).body
    assert skipped["counts"] == {"imported": 0, "skipped": 1, "errors": 0}
    assert server.home.catalog.element_at("demo/memory").id == old.id
    replaced = client.post(IMPORT, {"bundle_base64": b64(data), "overwrite": True}).body
    assert replaced["counts"]["imported"] == 1
    new = server.home.catalog.element_at("demo/memory")
    assert new.id != old.id and replaced["imported"][0]["replaced"] == old.id
    assert client.get(f"{MEMORY}/readme").body["content"].startswith("# Memory")
    assert not Path(server.home.repo_path(old)).exists()
    # The memories are runtime data (never in a bundle); they stay with the element.
    memory_id = stored.body["memory"]["id"]
    assert client.get(f"{MEMORY}/memories/{memory_id}").body["memory"]["content"] == \
        "Ana drinks tea"


def _hostile(server, tmp_path: Path, git_env, kind: str) -> bytes:
    data = element_bundle(server)
    if kind == "garbage":
        return b"# v2 git bundle\n" + b"\x00" * 64
    if kind == "truncated":
        return data[: len(data) // 2]
    scratch = tmp_path / f"{kind}.git"
    run_git(git_env, "clone", "-q", "--bare", str(_write(tmp_path, data)), str(scratch))
    if kind == "secret":
        commit_files(scratch, {"keys.txt": b"AKIAZ7QW3ERTY5UIOP2X"}, message="leak")
        commit_files(scratch, {"keys.txt": None}, message="hide it")
        return export_bundle(scratch)
    commit_files(scratch, {"more.md": b"more\n"}, message="more")
    out = tmp_path / "thin.bundle"
    run_git(git_env, "--git-dir", str(scratch), "bundle", "create", str(out), "demo..draft")
    return out.read_bytes()


def _write(tmp_path: Path, data: bytes) -> Path:
    path = tmp_path / "base.bundle"
    path.write_bytes(data)
    return path


@pytest.mark.parametrize("kind,needle", [("garbage", "bundle"), ("truncated", "bundle"),
                                         ("secret", "keys.txt"), ("thin", "thin bundle")])
def test_hostile_bundles_are_refused_cleanly(server, tmp_path: Path, git_env, kind: str,
                                             needle: str) -> None:
    data = _hostile(server, tmp_path, git_env, kind)
    repos = sorted(p.name for p in (server.home.path / "repos").iterdir())
    before = [(e.id, e.version) for e in server.home.catalog.elements("demo")]
    # Aimed at an existing element, with overwrite: still nothing changes.
    reply = server.client().post(IMPORT, {"bundle_base64": b64(data), "slug": "memory",
                                          "overwrite": True})
    assert_error(reply, 400, "IMPORT_FAILED")
    assert reply.body["counts"] == {"imported": 0, "skipped": 0, "errors": 1}
    error = reply.body["errors"][0]
    assert error["code"].startswith("SOURCE_BUNDLE") and needle in error["message"], error
    assert sorted(p.name for p in (server.home.path / "repos").iterdir()) == repos
    assert [(e.id, e.version) for e in server.home.catalog.elements("demo")] == before
    assert server.client().get(f"{MEMORY}/source/status").body["health"]["ok"] is True


def test_one_bad_bundle_does_not_stop_the_others(server) -> None:
    envelope = server.client().get("/api/demo/ops/export/bundle").body
    good = envelope["elements"][0]
    envelope["elements"] = [
        {**good, "slug": "first"},
        {"slug": "second", "bundle_base64": "not base64!!"},
        "not an object",
        {**good, "slug": "Bad Slug"},
        {**good, "slug": "third"},
    ]
    body = server.client().post(IMPORT, {"envelope": envelope}).body
    assert [i["slug"] for i in body["imported"]] == ["first", "third"]
    assert [(e["index"], e["code"]) for e in body["errors"]] == [
        (1, "INVALID_REQUEST"), (2, "INVALID_REQUEST"), (3, "INVALID_REQUEST")]
    assert body["counts"] == {"imported": 2, "skipped": 0, "errors": 3}


def test_bad_import_requests(server, tmp_path: Path, git_env) -> None:
    client = server.client()
    data = b64(element_bundle(server))
    assert_error(client.post(IMPORT, {}), 400)
    assert_error(client.post(IMPORT, {"bundle_base64": data, "envelope": {}}), 400)
    assert_error(client.post(IMPORT, {"envelope": {"elements": 3}}), 400)
    assert_error(client.post(IMPORT, {"envelope": {"format": "zip", "elements": []}}), 400)
    assert_error(client.post(IMPORT, {"envelope": {"elements": []}, "slug": "x"}), 400)
    assert_error(client.post(IMPORT, {"bundle_base64": data, "overwrite": "yes please"}), 400)
    assert_error(client.post(f"{MEMORY}/import/bundle", {"bundle_base64": data}), 400)
    assert_error(server.client("viewer").post(IMPORT, {"bundle_base64": data}), 403)
    circle = server.client().get("/api/demo/ops/export/bundle").body
    assert [e["slug"] for e in circle["elements"]] == ["memory"]
    # A bundle whose spec does not fit its type is refused like a hostile one.
    scratch = tmp_path / "bad.git"
    run_git(git_env, "clone", "-q", "--bare", str(_write(tmp_path, base64.b64decode(data))),
            str(scratch))
    commit_files(scratch, {".triform/spec.yaml": b"element_type: memory\nslug: bad\n"
                           b"properties: {max_memories: 0}\n"}, message="bad spec")
    reply = client.post(IMPORT, {"bundle_base64": b64(export_bundle(scratch))})
    assert_error(reply, 400)
    assert "properties.max_memories" in reply.body["errors"][0]["message"]
    assert "demo/bad" not in [e.path for e in server.home.catalog.elements("demo")]
