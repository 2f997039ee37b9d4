"""Journey: memories about people, with the real model. The README promises that memories
about one person never surface for another: on ``triform init``'s demo/memory they do not,
through a forget and a restart; on an element that does not scope by subject (the sheet's
default) the answer says the promise is off."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tests.helpers import Served

BOB = {"subject_type": "guest", "subject_id": "bob"}
CAROL = {"subject_type": "guest", "subject_id": "carol"}
SEARCH = "/api/demo/memory/ops/search"


def contents(reply: Any) -> list[str]:
    assert reply.status == 200, reply.body
    return [hit["memory"]["content"] for hit in reply.body["results"]]


def test_one_persons_memories_never_reach_another_through_forget_and_restart(
        serve: Callable[..., Served]) -> None:
    srv = serve(embedder=None)
    member = srv.client()
    for body in ({"content": "Bob is allergic to peanuts", **BOB},
                 {"content": "Carol is allergic to shellfish", **CAROL},
                 {"content": "The team lunch is on Fridays"}):
        stored = member.post("/api/demo/memory/ops/store",
                             {**body, "category": "fact", "context": "planning a lunch"})
        assert stored.status == 201 and stored.body["warnings"] == []

    as_carol = member.post(SEARCH, {"query": "what is this person allergic to?", **CAROL})
    assert contents(as_carol)[0] == "Carol is allergic to shellfish"
    assert "Bob is allergic to peanuts" not in contents(as_carol)
    as_bob = contents(member.post(SEARCH, {"query": "food allergy", **BOB}))
    assert as_bob[0] == "Bob is allergic to peanuts" and not any("Carol" in c for c in as_bob)
    nobody = contents(member.post(SEARCH, {"query": "allergic to peanuts"}))
    assert not any(c.startswith(("Bob", "Carol")) for c in nobody)

    forget = "/api/demo/memory/ops/forget_subject"
    unconfirmed = member.post(forget, BOB)
    assert unconfirmed.status == 400
    assert unconfirmed.body["error"]["code"] == "MEMORY_CONFIRM_REQUIRED"
    forgotten = member.post(forget, BOB, headers={"X-Confirm": "destructive"})
    assert forgotten.status == 200 and forgotten.body["deleted"] == 1

    assert srv.stop() == 0
    srv.start()
    member = srv.client()
    assert not any("Bob" in c for c in contents(member.post(SEARCH, {
        "query": "food allergy", **BOB})))
    assert member.get("/api/demo/memory/ops/memories?subject_type=guest&subject_id=bob"
                      ).body["memories"] == []
    assert contents(member.post(SEARCH, {"query": "what is this person allergic to?",
                                         **CAROL}))[0] == "Carol is allergic to shellfish"
    stats = member.get("/api/demo/memory/ops/stats").body
    assert [(s["subject_id"], s["count"]) for s in stats["by_subject"]] == [("carol", 1)]
    assert stats["total"] == 2 and stats["general"] == 1


def test_without_scoping_the_answer_says_the_promise_is_off(
        serve: Callable[..., Served]) -> None:
    srv = serve(embedder=None)
    admin = srv.client()
    made = admin.post("/api/demo/ops/create", {"element_type": "memory", "slug": "shared"})
    assert made.status == 201
    assert made.body["element"]["properties"]["subject_scoping"] is False
    stored = admin.post("/api/demo/shared/ops/store", {
        "content": "Bob is allergic to peanuts", "category": "fact", **BOB})
    assert stored.body["warnings"] == ["SUBJECT_SCOPING_OFF"]
    found = admin.post("/api/demo/shared/ops/search", {"query": "peanut allergy", **CAROL})
    assert contents(found) == ["Bob is allergic to peanuts"]     # what scoping prevents
    assert found.body["warnings"] == ["SUBJECT_SCOPING_OFF"]
    assert admin.post("/api/demo/shared/ops/spec_update", {
        "properties": {"subject_scoping": True}}).status == 200
    scoped = admin.post("/api/demo/shared/ops/search", {"query": "peanut allergy", **CAROL})
    assert contents(scoped) == [] and scoped.body["warnings"] == []
