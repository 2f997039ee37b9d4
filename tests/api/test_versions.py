"""spec, spec_update, version and restore through the real server."""

from __future__ import annotations

from pathlib import Path

from source import SPEC_PATH, read_file, read_spec
from tests.helpers import assert_error

MEMORY = "/api/demo/memory/ops"


def git_spec(server, path: str = "demo/memory") -> dict:
    return read_spec(server.home.repo_path(server.home.catalog.element_at(path)))


def test_spec_update_merges_validates_and_versions(server) -> None:
    client = server.client("member")
    reply = client.post(f"{MEMORY}/spec_update",
                        {"properties": {"max_memories": 50, "subject_scoping": True}})
    assert reply.status == 200, reply.body
    body = reply.body
    assert body["changed"] is True and body["version"] == 2 and body["label"] == "v2"
    props = body["spec"]["properties"]
    assert props["max_memories"] == 50 and props["subject_scoping"] is True
    assert props["relevance_threshold"] == 0.4                 # untouched, kept
    assert git_spec(server) == body["spec"]                    # committed to draft
    memory = server.home.catalog.element_at("demo/memory")
    assert memory.version == 2 and memory.properties == props
    # A second update merges into the first; null resets a property to its default.
    body = client.post(f"{MEMORY}/spec_update",
                       {"properties": {"max_memories": None, "scope": "shared"},
                        "message": "share it"}).body
    assert body["version"] == 3
    assert body["spec"]["properties"]["max_memories"] == 1000
    assert body["spec"]["properties"]["subject_scoping"] is True
    assert body["spec"]["properties"]["scope"] == "shared"
    # Nothing changes: no version, no commit.
    same = client.post(f"{MEMORY}/spec_update", {"properties": {"scope": "shared"}}).body
    assert same["changed"] is False and same["version"] == 3
    history = client.get(f"{MEMORY}/version?history=true").body["history"]
    assert [h["version"] for h in history] == [3, 2, 1]
    assert history[0]["message"].startswith("share it")
    events = client.get(f"{MEMORY}/activity").body["events"]
    assert [e["op"] for e in events[:2]] == ["spec_update", "spec_update"]


def test_spec_update_name_and_description(server) -> None:
    body = server.client().post(f"{MEMORY}/spec_update",
                                {"name": "Team memory", "description": "What we know"}).body
    assert body["spec"]["name"] == "Team memory"
    assert server.home.catalog.element_at("demo/memory").description == "What we know"
    assert git_spec(server)["description"] == "What we know"


def test_bad_properties_are_400_naming_the_field(server) -> None:
    client = server.client()
    cases = [({"properties": {"max_memories": 0}}, "properties.max_memories"),
             ({"properties": {"relevance_threshold": 2}}, "properties.relevance_threshold"),
             ({"properties": {"scope": "public"}}, "properties.scope"),
             ({"properties": {"colour": "blue"}}, "properties.colour"),
             ({"properties": {"association_weights": {"content": 0, "context": 0,
                                                      "intention": 0}}},
              "properties.association_weights"),
             ({"properties": {"retention": {"gossip": 3}}}, "properties.retention.gossip"),
             ({"properties": [1]}, "properties"),
             ({}, "properties"),
             ({"properties": {}, "extra": 1}, "extra"),
             ({"name": ""}, "spec.name")]
    for body, field in cases:
        reply = client.post(f"{MEMORY}/spec_update", body)
        assert_error(reply, 400)
        assert field in reply.body["error"]["message"], (body, reply.body)
    assert server.home.catalog.element_at("demo/memory").version == 1
    assert git_spec(server)["properties"]["max_memories"] == 1000
    assert_error(server.client("viewer").post(f"{MEMORY}/spec_update",
                                              {"properties": {"max_memories": 5}}), 403)


def test_version_current_history_and_limit(server) -> None:
    client = server.client("member")
    for n in range(3):
        client.post(f"{MEMORY}/spec_update", {"properties": {"max_memories": 10 + n}})
    current = server.client("viewer").get(f"{MEMORY}/version").body
    assert current["version"] == 4 and current["label"] == "v4"
    assert current["current"]["spec"]["properties"]["max_memories"] == 12
    assert "history" not in current
    limited = client.get(f"{MEMORY}/version?history=true&limit=2").body["history"]
    assert [h["label"] for h in limited] == ["v4", "v3"]
    assert client.get(f"{MEMORY}/version?history=1").body["history"][-1]["message"] \
        == "v1: created"
    assert_error(client.get(f"{MEMORY}/version?history=maybe"), 400)
    assert_error(client.get(f"{MEMORY}/version?history=true&limit=0"), 400)
    assert_error(client.get(f"{MEMORY}/version?limit=x"), 400)


def test_restore_snapshots_then_restores_and_writes_git(server) -> None:
    admin = server.client()
    admin.post(f"{MEMORY}/spec_update", {"properties": {"max_memories": 5}})       # v2
    admin.post(f"{MEMORY}/spec_update", {"properties": {"max_memories": 9}})       # v3
    reply = admin.post(f"{MEMORY}/restore", {"version": 2})
    assert reply.status == 200, reply.body
    body = reply.body
    assert body["restored_from"] == 2 and body["snapshot_version"] == 4
    assert body["version"] == 5 and body["warnings"] == []
    assert body["spec"]["properties"]["max_memories"] == 5
    history = admin.get(f"{MEMORY}/version?history=true").body["history"]
    assert history[0]["message"] == "Restored from v2"
    assert history[1]["message"] == "Before restore to v2"
    assert history[1]["spec"]["properties"]["max_memories"] == 9     # the state before
    assert git_spec(server)["properties"]["max_memories"] == 5
    assert admin.get(f"{MEMORY}/stats").body["capacity"]["max_memories"] == 5
    # "v1" works as well as 1; a restore is an activity event.
    assert admin.post(f"{MEMORY}/restore", {"version": "v1"}).body["spec"][
        "properties"]["max_memories"] == 1000
    assert admin.get(f"{MEMORY}/activity").body["events"][0]["op"] == "restore"


def test_restore_needs_admin_and_a_real_version(server) -> None:
    assert_error(server.client("member").post(f"{MEMORY}/restore", {"version": 1}), 403)
    admin = server.client()
    assert_error(admin.post(f"{MEMORY}/restore", {"version": 9}), 404,
                 "ELEMENT_VERSION_NOT_FOUND")
    for bad in ({}, {"version": "two"}, {"version": 0}, {"version": True}):
        assert_error(admin.post(f"{MEMORY}/restore", bad), 400)
    assert server.home.catalog.element_at("demo/memory").version == 1


def test_restore_of_a_deleted_element_is_refused(server) -> None:
    memory = server.home.catalog.element_at("demo/memory")
    server.home.catalog.update_element(memory.id, state="deleted")
    assert_error(server.client().post(f"{MEMORY}/restore", {"version": 1}), 409,
                 "ELEMENT_DISABLED")
    assert server.home.catalog.element(memory.id).version == 1


def test_restore_warns_when_git_fails_and_the_catalog_stays_authoritative(server) -> None:
    admin = server.client()
    admin.post(f"{MEMORY}/spec_update", {"properties": {"max_memories": 5}})       # v2
    memory = server.home.catalog.element_at("demo/memory")
    repo = Path(server.home.repo_path(memory))
    lock = repo / "refs" / "heads" / "draft.lock"
    lock.write_text("held by someone else\n")          # every commit to draft now fails
    try:
        reply = admin.post(f"{MEMORY}/restore", {"version": 1})
    finally:
        lock.unlink()
    assert reply.status == 200, reply.body
    assert reply.body["commit"] is None
    assert reply.body["warnings"] and "SOURCE_WRITE_FAILED" in reply.body["warnings"][0]
    assert server.home.catalog.element(memory.id).properties["max_memories"] == 1000
    assert git_spec(server)["properties"]["max_memories"] == 5        # git is behind
    # The catalog governs, and reading the spec does not pull git's stale spec back.
    assert admin.get(f"{MEMORY}/spec").body["spec"]["properties"]["max_memories"] == 1000
    assert admin.get(f"{MEMORY}/stats").body["capacity"]["max_memories"] == 1000
    # Repair reports the disagreement and fixes git from the catalog.
    dry = admin.post(f"{MEMORY}/source/repair", {}).body
    assert [f["problem"] for f in dry["found"] if f["check"] == "spec"] == \
        [f"{SPEC_PATH} on draft differs from the catalog"]
    fixed = admin.post(f"{MEMORY}/source/repair", {"dry_run": False}).body
    assert "spec" in [f["check"] for f in fixed["fixed"]]   # (and the failed commits' objects)
    assert git_spec(server)["properties"]["max_memories"] == 1000
    assert admin.get(f"{MEMORY}/version").body["version"] == 4           # no new version
    after = admin.post(f"{MEMORY}/source/repair", {}).body
    assert not [f for f in after["found"] if f["check"] == "spec"]


def test_spec_op_reports_a_spec_that_is_not_mirrored(server) -> None:
    """A spec that is invalid on draft (only a merge or a direct write brings one in) never
    replaces the catalog's; spec answers a warning, and repair restores git."""
    from source import commit_files
    memory = server.home.catalog.element_at("demo/memory")
    repo = server.home.repo_path(memory)
    commit_files(repo, {SPEC_PATH: b"properties: {max_memories: -1}\n"}, message="bad")
    reply = server.client().get(f"{MEMORY}/spec").body
    assert reply["version"] == 1 and reply["spec"]["properties"]["max_memories"] == 1000
    assert "invalid" in reply["warnings"][0] and "max_memories" in reply["warnings"][0]
    status = server.client().get(f"{MEMORY}/source/status").body
    assert status["health"]["ok"] is False and status["spec"]["mirrored"] is False
    server.client().post(f"{MEMORY}/source/repair", {"dry_run": False})
    assert b"max_memories: 1000" in read_file(repo, SPEC_PATH)
    assert "warnings" not in server.client().get(f"{MEMORY}/spec").body
