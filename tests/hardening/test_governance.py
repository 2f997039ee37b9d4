"""Inside one circle, a member cannot undo what its admin decided (issue 9, High 1 and 2).

A member holds Write: it imports bundles, updates specs, pushes and merges. None of these
may strip an admin's attachments, re-enable a disabled element, change an element's type
and orphan its memories, rewrite an auth-policy or rate-limit, or forge a project's
promotion state. Real server, real git, the member's own token.
"""

from __future__ import annotations

import base64
from pathlib import Path
from typing import Any

import yaml

from source import SPEC_PATH, commit_files
from tests.helpers import assert_error, clone, commit_all, create, run_git

MEMORY = "/api/demo/memory/ops"
IMPORT = "/api/demo/ops/import/bundle"


def bundle_of(client: Any, path: str) -> str:
    reply = client.get(f"/api/{path}/ops/export/bundle")
    assert reply.status == 200
    return base64.b64encode(reply.raw).decode()


def attach(client: Any, target: str, ref: str) -> str:
    reply = client.post(f"/api/{target}/ops/compose", {"add": [{"ref": ref}]})
    assert reply.status == 200, reply.body
    return str(reply.body["added"][0]["attachment_id"])


# -- High 1: import_bundle overwrite ------------------------------------------------------
def test_member_overwrite_keeps_attachments_state_and_memories(server) -> None:
    admin, member = server.client(), server.client("member")
    stored = member.post(f"{MEMORY}/store", {"content": "Ana drinks tea", "category": "fact"})
    memory_id = stored.body["memory"]["id"]
    create(admin, "rate-limit", "slow", requests=1000, per_seconds=60)
    attachment = attach(admin, "demo/memory", "slow")
    data = bundle_of(member, "demo/memory")
    replaced = member.post(IMPORT, {"bundle_base64": data, "overwrite": True})
    assert replaced.body["counts"]["imported"] == 1, replaced.body
    kept = admin.get(f"{MEMORY}/attachments").body["attachments"]
    assert [a["attachment_id"] for a in kept] == [attachment]
    assert member.get(f"{MEMORY}/memories/{memory_id}").status == 200

    assert admin.post(f"{MEMORY}/disable", {"reason": "audit"}).status == 200
    again = member.post(IMPORT, {"bundle_base64": data, "overwrite": True})
    assert again.body["counts"]["imported"] == 1, again.body
    assert server.home.catalog.element_at("demo/memory").state == "disabled"
    assert_error(member.post(f"{MEMORY}/store", {"content": "x", "category": "fact"}), 409)


def test_overwrite_refuses_another_type_and_orphans_nothing(server) -> None:
    admin, member = server.client(), server.client("member")
    stored = member.post(f"{MEMORY}/store", {"content": "Bob likes jazz", "category": "fact"})
    create(member, "prompt", "greeting", text="hello")
    data = bundle_of(member, "demo/greeting")
    before = server.home.catalog.element_at("demo/memory")
    for client in (member, admin):
        reply = client.post(IMPORT, {"bundle_base64": data, "slug": "memory",
                                     "overwrite": True})
        assert reply.status == 400 and reply.body["errors"][0]["code"] == "OVERWRITE_REFUSED"
    after = server.home.catalog.element_at("demo/memory")
    assert (after.id, after.element_type) == (before.id, "memory")
    got = member.get(f"{MEMORY}/memories/{stored.body['memory']['id']}")
    assert got.body["memory"]["content"] == "Bob likes jazz"


# -- High 2: governance elements and promotion state are the admin's ----------------------
def test_member_cannot_rewrite_a_modifier_by_spec_update(server) -> None:
    admin, member = server.client(), server.client("member")
    create(admin, "auth-policy", "no-viewers", deny=[{"role": "viewer"}])
    create(admin, "rate-limit", "slow", requests=5, per_seconds=60)
    for path, props in (("demo/no-viewers", {"deny": []}),
                        ("demo/slow", {"requests": 10**6})):
        assert_error(member.post(f"/api/{path}/ops/spec_update", {"properties": props}),
                     403, "ADMIN_ONLY")
        assert server.home.catalog.element_at(path).version == 1
    assert admin.post("/api/demo/slow/ops/spec_update",
                      {"properties": {"requests": 6}}).body["changed"] is True


def test_member_cannot_overwrite_a_modifier_even_unchanged(server) -> None:
    admin, member = server.client(), server.client("member")
    create(admin, "rate-limit", "slow", requests=5, per_seconds=60)
    data = bundle_of(member, "demo/slow")
    before = server.home.catalog.element_at("demo/slow")
    reply = member.post(IMPORT, {"bundle_base64": data, "overwrite": True})
    assert reply.status == 400 and reply.body["errors"][0]["code"] == "ADMIN_ONLY"
    assert server.home.catalog.element_at("demo/slow").id == before.id
    assert admin.post(IMPORT, {"bundle_base64": data, "overwrite": True}).status == 200


def test_member_cannot_forge_promotion_state(server) -> None:
    admin, member = server.client(), server.client("member")
    forged = {"live": {"members": {"demo/memory": 1}, "by": "admin"}}
    assert_error(member.post("/api/demo/ops/create", {
        "element_type": "project", "slug": "app",
        "properties": {"members": ["memory"], "environments": forged}}), 403, "ADMIN_ONLY")
    create(member, "project", "app", members=["memory"])
    assert_error(member.post("/api/demo/app/ops/spec_update",
                             {"properties": {"environments": forged}}), 403, "ADMIN_ONLY")
    # Other properties stay the member's to change.
    assert member.post("/api/demo/app/ops/spec_update",
                       {"properties": {"members": ["memory"]}, "name": "App"}).status == 200
    # An import of a project carrying promotion state is refused to a member too.
    admin.post("/api/demo/ops/create", {"element_type": "project", "slug": "seeded",
                                        "properties": {"environments": forged}})
    data = bundle_of(admin, "demo/seeded")
    reply = member.post(IMPORT, {"bundle_base64": data, "slug": "copy"})
    assert reply.status == 400 and reply.body["errors"][0]["code"] == "ADMIN_ONLY"
    reply = member.post(IMPORT, {"bundle_base64": data, "slug": "app", "overwrite": True})
    assert reply.body["errors"][0]["code"] == "ADMIN_ONLY"
    assert admin.post(IMPORT, {"bundle_base64": data, "slug": "copy"}).status == 200


def _edit(wc: Path, **properties: Any) -> None:
    spec = yaml.safe_load((wc / SPEC_PATH).read_text())
    spec["properties"].update(properties)
    (wc / SPEC_PATH).write_text(yaml.safe_dump(spec, sort_keys=False))


def test_member_push_of_a_modifier_spec_is_refused(server, tmp_path: Path, git_env) -> None:
    admin = server.client()
    create(admin, "rate-limit", "slow", requests=5, per_seconds=60)
    wc = clone(server, git_env, tmp_path / "wc", "demo/slow", role="member")
    _edit(wc, requests=10**6)
    commit_all(git_env, wc, "lift my limit")
    push = run_git(git_env, "push", "origin", "draft", cwd=wc, check=False)
    assert push.returncode != 0 and "only an admin" in push.stderr
    assert server.home.catalog.element_at("demo/slow").properties["requests"] == 5
    # The admin pushes the same commit and it lands.
    url = f"http://t:{server.tokens['admin']}@127.0.0.1:{server.port}/git/demo/slow.git"
    run_git(git_env, "push", url, "draft", cwd=wc)
    assert server.home.catalog.element_at("demo/slow").properties["requests"] == 10**6


def test_a_modifier_spec_moved_behind_the_api_is_not_mirrored(server) -> None:
    """Whatever moves draft without an admin (a member's merge, another process), the lazy
    mirror refuses a governed change: the catalog keeps the policy that governs."""
    admin = server.client()
    create(admin, "auth-policy", "no-viewers", deny=[{"role": "viewer"}])
    attach(admin, "demo/memory", "no-viewers")
    policy = server.home.catalog.element_at("demo/no-viewers")
    repo = server.home.repo_path(policy)
    spec = yaml.safe_load(server.client("member").get(
        "/api/demo/no-viewers/ops/source?path=.triform/spec.yaml").body["content"])
    spec["properties"]["deny"] = []
    commit_files(repo, {SPEC_PATH: yaml.safe_dump(spec).encode()}, message="open up")
    answer = server.client("member").get("/api/demo/no-viewers/ops/spec").body
    assert answer["spec"]["properties"]["deny"] == [{"role": "viewer"}]
    assert "only an admin" in answer["warnings"][0]
    assert_error(server.client("viewer").get(f"{MEMORY}/memories"), 403, "POLICY_DENIED")


# -- issue 26, High 4: an auth-policy binds the circle's ops too --------------------------
def test_a_policy_locked_element_is_not_replaced_through_the_circles_import(server) -> None:
    """A member denied writes on demo/locked by an auth-policy imported a bundle of its
    own element over it through the circle (``slug: locked, overwrite: true``): 200, and
    the next ``stats`` reaped the admin's memories with the member's 1e-5-day retention."""
    admin, member, viewer = server.client(), server.client("member"), server.client("viewer")
    create(admin, "memory", "locked")
    kept = admin.post("/api/demo/locked/ops/store", {"content": "the admin's note",
                                                     "category": "fact"})
    create(admin, "auth-policy", "lock", deny=[{"role": "member", "levels": ["write"]}])
    attach(admin, "demo/locked", "lock")
    assert_error(member.post("/api/demo/locked/ops/spec_update",
                             {"properties": {"retention": {"fact": 0.00001}}}), 403,
                 "POLICY_DENIED")
    before = server.home.catalog.element_at("demo/locked")
    create(member, "memory", "evil", retention={"fact": 0.00001})
    data = bundle_of(member, "demo/evil")
    reply = member.post(IMPORT, {"bundle_base64": data, "slug": "locked", "overwrite": True})
    assert reply.status == 400, reply.body
    assert reply.body["errors"][0]["code"] == "POLICY_DENIED", reply.body
    after = server.home.catalog.element_at("demo/locked")
    assert (after.id, after.properties) == (before.id, before.properties)
    assert viewer.get("/api/demo/locked/ops/stats").body["total"] == 1
    got = admin.get(f"/api/demo/locked/ops/memories/{kept.body['memory']['id']}")
    assert got.status == 200
    # An envelope names the slug in its entry: the same refusal.
    envelope = {"elements": [{"slug": "locked", "bundle_base64": data}]}
    again = member.post(IMPORT, {"envelope": envelope, "overwrite": True})
    assert again.body["errors"][0]["code"] == "POLICY_DENIED", again.body
    # The admin (whom the policy does not name) still may.
    assert admin.post(IMPORT, {"bundle_base64": data, "slug": "locked",
                               "overwrite": True}).body["counts"]["imported"] == 1
