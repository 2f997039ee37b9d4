"""Cross-subject and cross-circle isolation under many searches (issue 9, Medium 5 and the
standing suite): a tool call whose subject is fixed never reads or changes another
subject's memories, with subject scoping off; another circle's token never sees a memory.
The bounded size runs here; ``bench/hardening.py`` runs the full one and prints figures."""

from __future__ import annotations

from typing import Any

from tests.helpers import assert_error

MEMORY = "/api/demo/memory/ops"
ANA = {"subject_type": "guest", "subject_id": "ana"}
BOB = {"subject_type": "guest", "subject_id": "bob"}


def tool(client: Any, name: str, arguments: dict[str, Any], **subject: Any) -> Any:
    return client.post(f"{MEMORY}/tools/call", {"name": name, "arguments": arguments,
                                                **subject})


def test_a_fixed_subject_never_touches_another_with_scoping_off(server) -> None:
    admin, member = server.client(), server.client("member")
    reply = admin.post(f"{MEMORY}/spec_update", {"properties": {
        "subject_scoping": False, "conscious_access": "read_write"}})
    assert reply.status == 200, reply.body
    bobs = admin.post(f"{MEMORY}/store", {"content": "Bob likes jazz", "category": "fact",
                                          **BOB}).body["memory"]
    found = tool(member, "memory_search", {"query": "Bob likes jazz"}, **ANA)
    assert found.status == 200
    assert all(r["memory"]["id"] != bobs["id"] for r in found.body["result"]["results"])
    for name, args in (("memory_update", {"memory_id": bobs["id"], "content": "Bob: none"}),
                       ("memory_delete", {"memory_id": bobs["id"]})):
        assert_error(tool(member, name, args, **ANA), 404, "MEMORY_NOT_FOUND")
    assert admin.get(f"{MEMORY}/memories/{bobs['id']}").body["memory"]["content"] == \
        "Bob likes jazz"


def test_searches_never_leak_across_subjects_or_circles(server) -> None:
    admin, other = server.client(), server.client("other")
    admin.post(f"{MEMORY}/spec_update", {"properties": {"subject_scoping": True}})
    subjects = [{"subject_type": "guest", "subject_id": f"u{i}"} for i in range(5)]
    owner: dict[str, str] = {}
    for i, subject in enumerate(subjects):
        for j in range(4):
            stored = admin.post(f"{MEMORY}/store", {
                "content": f"user u{i} secret number {j} likes topic {j}",
                "category": "fact", **subject})
            owner[stored.body["memory"]["id"]] = subject["subject_id"]
    leaks = searches = 0
    for i, subject in enumerate(subjects):
        for j in range(4):
            query = f"user u{(i + 1) % 5} secret number {j} likes topic {j}"
            results = admin.post(f"{MEMORY}/search", {"query": query, **subject}).body[
                "results"]
            searches += 1
            leaks += sum(1 for r in results if owner.get(r["memory"]["id"], subject[
                "subject_id"]) != subject["subject_id"])
        reply = other.post(f"{MEMORY}/search", {"query": "secret", **subject})
        assert_error(reply, 403, "FORBIDDEN")
    assert (searches, leaks) == (20, 0)
