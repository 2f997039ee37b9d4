"""The one op path, called directly (no HTTP): every entry point gets these guarantees."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from element import (ElementError, Home, Invocation, Principal, authenticate, create_token,
                     invoke, registry)
from element.governance.ratelimit import SlidingWindowLimiter
from element.ops.op import Registry
from index import StoreError
from source import SourceError
from tests.helpers import start_home


@pytest.fixture
def home(tmp_path: Path) -> Iterator[Home]:
    with start_home(tmp_path / "home", "hashing") as opened:
        opened.init("demo")
        opened.create_element(circle="other", element_type_name="circle", slug=None)
        yield opened


def call(home: Home, path: str, op: str, **kw: Any) -> Any:
    kw.setdefault("operator", "test")
    return invoke(home, Invocation(path, op=op, **kw))


def code_of(home: Home, path: str, op: str, **kw: Any) -> str:
    """The code of the error the call raises (any layer's: they share the shape)."""
    with pytest.raises((ElementError, StoreError, SourceError)) as caught:
        call(home, path, op, **kw)
    return str(caught.value.code)


def store_body(content: str = "Ana likes tea", **extra: Any) -> dict[str, Any]:
    return {"content": content, "category": "fact", **extra}


def test_the_operator_acts_as_admin_of_the_circle_and_is_recorded(home: Home) -> None:
    result = call(home, "demo/memory", "store", body=store_body())
    assert result.status == 201
    events = home.catalog.activity(element_ids=[home.catalog.element_at("demo/memory").id])
    assert [(e["op"], e["principal"]) for e in events] == [("store", "test")]


def test_who_calls_is_checked_before_anything_is_looked_up(home: Home) -> None:
    assert code_of(home, "demo/memory", "list", operator=None, token=None) == "UNAUTHORIZED"
    assert code_of(home, "demo/memory", "list", operator=None, token="tfm_nope") == \
        "UNAUTHORIZED"
    other = create_token(home.catalog, "other", "admin")
    # Another circle's path: the same answer whether or not the element exists.
    assert code_of(home, "demo/memory", "list", operator=None, token=other) == "FORBIDDEN"
    assert code_of(home, "demo/no-such", "list", operator=None, token=other) == "FORBIDDEN"
    mine = create_token(home.catalog, "demo", "viewer")
    assert code_of(home, "demo/no-such", "list", operator=None, token=mine) == \
        "ELEMENT_NOT_FOUND"
    assert code_of(home, "demo/memory", "store", operator=None, token=mine,
                   body=store_body()) == "FORBIDDEN"


def test_the_op_is_found_by_name_or_by_method_and_path(home: Home) -> None:
    assert code_of(home, "demo", "search", body={"query": "x"}) == "OP_NOT_FOUND"
    with pytest.raises(ElementError) as caught:
        invoke(home, Invocation("demo/memory", method="GET", op_path="store",
                                operator="test"))
    assert caught.value.code == "METHOD_NOT_ALLOWED"
    assert getattr(caught.value, "headers", {}) == {"Allow": "POST"}


def test_a_disabled_element_answers_only_what_inspects_or_revives_it(home: Home) -> None:
    call(home, "demo/memory", "disable", body={"reason": "maintenance"})
    assert code_of(home, "demo/memory", "store", body=store_body()) == "ELEMENT_DISABLED"
    assert call(home, "demo/memory", "spec").status == 200
    assert call(home, "demo/memory", "enable", body={}).body["changed"] is True
    assert call(home, "demo/memory", "store", body=store_body()).status == 201


@pytest.mark.parametrize("op,body,field", [
    ("store", store_body(colour="blue"), "colour"),
    ("source_repair", {"dry_run": "no"}, "dry_run"),
    ("source_fixtures", {"dry_run": False, "confirm": "yes"}, "confirm"),
    ("spec_update", {"properties": {}, "message": 5}, "message"),
    ("store", store_body("\ud800"), "content"),
])
def test_the_request_shape_is_checked_before_the_op_runs(home: Home, op: str,
                                                         body: dict[str, Any],
                                                         field: str) -> None:
    before = home.catalog.element_at("demo/memory").version
    with pytest.raises(ElementError) as caught:
        call(home, "demo/memory", op, body=body)
    assert caught.value.code == "INVALID_REQUEST" and caught.value.message.startswith(field)
    assert home.catalog.element_at("demo/memory").version == before
    with home.memory_store(home.catalog.element_at("demo/memory")) as store:
        assert len(store) == 0


def test_query_parameters_are_declared_and_typed(home: Home) -> None:
    assert code_of(home, "demo/memory", "list", query={"top": "3"}) == "INVALID_REQUEST"
    assert code_of(home, "demo/memory", "version", query={"history": "maybe"}) == \
        "INVALID_REQUEST"
    assert "history" in call(home, "demo/memory", "version", query={"history": "true"}).body


def test_activity_is_recorded_once_and_only_for_what_succeeded(home: Home) -> None:
    memory = home.catalog.element_at("demo/memory")
    code_of(home, "demo/memory", "store", body={"content": "", "category": "fact"})
    assert home.catalog.activity(element_ids=[memory.id]) == []

    def broken(event: dict[str, Any]) -> None:
        raise OSError("no space left on device")

    home.catalog.listeners.append(broken)     # recording fails after the store succeeded
    result = call(home, "demo/memory", "store", body=store_body())
    assert result.status == 201                # the memory is durable; the answer says so
    home.catalog.listeners.remove(broken)
    with home.memory_store(memory) as store:
        assert len(store) == 1


def test_a_nested_call_on_the_same_element_spends_no_second_rate_hit(home: Home) -> None:
    class Clock:
        now = 100.0

        def __call__(self) -> float:
            return self.now

    home.limiter = SlidingWindowLimiter(home.path / "ratelimits.db", Clock())
    call(home, "demo", "create", body={"element_type": "rate-limit", "slug": "one",
                                       "properties": {"requests": 1, "per_seconds": 60}})
    call(home, "demo/memory", "compose", body={"add": [{"ref": "one"}]})
    member = authenticate(home.catalog, create_token(home.catalog, "demo", "member"))
    invoke(home, Invocation("demo/memory", op="list", principal=member))
    again = Invocation("demo/memory", op="list", principal=member)
    with pytest.raises(ElementError) as caught:
        invoke(home, again)
    assert caught.value.code == "RATE_LIMITED"
    nested = Invocation("demo/memory", op="list", principal=member, count_rate=False)
    assert invoke(home, nested).status == 200


def test_a_fixed_subject_sees_and_changes_only_its_own_and_general_memories(
        home: Home) -> None:
    call(home, "demo/memory", "spec_update", body={"properties": {"subject_scoping": False}})
    bob = call(home, "demo/memory", "store", body=store_body(
        "Bob likes tea", subject_type="guest", subject_id="bob")).body["memory"]
    ana = call(home, "demo/memory", "store", body=store_body(
        "Ana likes tea", subject_type="guest", subject_id="ana")).body["memory"]
    alice = ("guest", "ana")
    found = call(home, "demo/memory", "search", subject=alice,
                 body={"query": "likes tea", "subject_type": "guest", "subject_id": "ana"})
    assert [r["memory"]["id"] for r in found.body["results"]] == [ana["id"]]
    assert code_of(home, "demo/memory", "update", subject=alice,
                   params={"memory_id": bob["id"]}, body={"content": "gone"}) == \
        "MEMORY_NOT_FOUND"
    assert call(home, "demo/memory", "get", params={"memory_id": bob["id"]}).body[
        "memory"]["content"] == "Bob likes tea"


def test_the_registry_refuses_a_missing_or_misdeclared_op() -> None:
    complete = registry()
    with pytest.raises(RuntimeError, match="store"):
        Registry(op for op in complete if op.name != "store").check_sheet()
    import dataclasses
    wrong = [dataclasses.replace(op, level="read") if op.name == "store" else op
             for op in complete]
    with pytest.raises(RuntimeError, match="store"):
        Registry(wrong).check_sheet()


def test_the_operator_is_not_a_token() -> None:
    operator = Principal.operator("demo", "cli")
    assert operator.is_operator and operator.role == "admin" and operator.label == "cli"
    assert not Principal("abc", "demo", "admin").is_operator
