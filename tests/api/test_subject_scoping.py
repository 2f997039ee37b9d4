"""A subject named on an element that does not scope by subject is kept, but recall will
not keep it from other people: the answer says so (``SUBJECT_SCOPING_OFF`` in
``warnings``), in store, store_batch and search. ``triform init``'s demo/memory scopes."""

from __future__ import annotations

from typing import Any

from tests.helpers import create

OFF = "SUBJECT_SCOPING_OFF"
BOB = {"subject_type": "guest", "subject_id": "bob"}


def test_the_sheets_default_is_off_and_init_turns_it_on(server: Any) -> None:
    admin = server.client()
    assert admin.get("/api/demo/memory/ops/spec").body["spec"]["properties"][
        "subject_scoping"] is True
    made = create(admin, "memory", "plain")
    assert made["properties"]["subject_scoping"] is False


def test_naming_a_subject_with_scoping_off_warns(server: Any) -> None:
    admin = server.client()
    create(admin, "memory", "plain")
    stored = admin.post("/api/demo/plain/ops/store",
                        {"content": "Bob likes jazz", "category": "preference", **BOB})
    assert stored.status == 201 and stored.body["warnings"] == [OFF]
    assert stored.body["memory"]["subject_id"] == "bob"          # kept all the same
    general = admin.post("/api/demo/plain/ops/store",
                         {"content": "The office opens at nine", "category": "fact"})
    assert general.body["warnings"] == []
    found = admin.post("/api/demo/plain/ops/search", {"query": "jazz", **BOB})
    assert found.status == 200 and found.body["warnings"] == [OFF]
    unscoped = admin.post("/api/demo/plain/ops/search", {"query": "jazz"})
    assert unscoped.body["warnings"] == []
    batch = admin.post("/api/demo/plain/ops/store_batch", {"memories": [
        {"content": "Bob lives in Lyon", "category": "fact", **BOB},
        {"content": "Deploys are on Tuesdays", "category": "procedure"}]})
    assert [r["warnings"] for r in batch.body["results"]] == [[OFF], []]


def test_no_warning_where_subjects_are_scoped(server: Any) -> None:
    admin = server.client()
    stored = admin.post("/api/demo/memory/ops/store",
                        {"content": "Bob likes jazz", "category": "preference", **BOB})
    assert stored.body["warnings"] == []
    found = admin.post("/api/demo/memory/ops/search", {"query": "jazz", **BOB})
    assert found.body["warnings"] == []


def test_turning_scoping_on_ends_the_warning(server: Any) -> None:
    admin = server.client()
    create(admin, "memory", "plain")
    assert admin.post("/api/demo/plain/ops/spec_update",
                      {"properties": {"subject_scoping": True}}).status == 200
    found = admin.post("/api/demo/plain/ops/search", {"query": "jazz", **BOB})
    assert found.body["warnings"] == []


def test_a_tool_call_with_a_fixed_subject_is_scoped_so_it_does_not_warn(server: Any) -> None:
    admin = server.client()
    create(admin, "memory", "plain", conscious_access="read_write")
    called = admin.post("/api/demo/plain/ops/tools/call", {
        "name": "memory_store", "arguments": {"content": "Bob likes jazz",
                                              "category": "preference"}, **BOB})
    assert called.status == 200, called.body
    assert OFF not in called.body["result"].get("warnings", [])
