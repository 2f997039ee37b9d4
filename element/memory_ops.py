"""The memory ops of the reference sheet, served by :class:`index.MemoryStore`.

Each handler parses its request, takes the settings of the governing environment's spec
and makes one call into the runtime; validation of the memory itself lives in ``index/``.
"""

from __future__ import annotations

from typing import Any

from index import MemorySettings

from .errors import InvalidRequest
from .ops import OpCall, OpResult, implements

__all__: list[str] = []

_STORE_FIELDS = {"content", "category", "subject_type", "subject_id", "context", "intention",
                 "agent", "metadata", "source", "occurred_at"}
_SEARCH_FIELDS = {"query", "context", "intention", "subject_type", "subject_id", "limit",
                  "categories", "occurred_after", "occurred_before"}
_UPDATE_FIELDS = {"content", "category", "context", "intention", "metadata"}
_SOURCES = {"api", "conscious", "subconscious", "fixture"}


def known_fields(body: dict[str, Any], allowed: set[str]) -> dict[str, Any]:
    """:raise InvalidRequest: naming the first field the op does not take."""
    for key in body:
        if key not in allowed:
            raise InvalidRequest(key, f"is not a field of this op (fields: "
                                 f"{', '.join(sorted(allowed))})")
    return body


def required(body: dict[str, Any], *names: str) -> dict[str, Any]:
    """:raise InvalidRequest: naming the first required field that is missing."""
    for name in names:
        if body.get(name) is None:
            raise InvalidRequest(name, "is required")
    return body


def settings_of(call: OpCall) -> MemorySettings:
    return MemorySettings.from_properties(call.home.properties_for(call.element, call.env))


def _record(call: OpCall, op: str, detail: dict[str, Any]) -> None:
    principal = call.principal.label if call.principal else None
    call.home.catalog.record_activity(call.element, op, principal, detail)


@implements("store")
def store(call: OpCall) -> OpResult:
    body = required(known_fields(call.body, _STORE_FIELDS), "content", "category")
    source = body.pop("source", "api")
    if not isinstance(source, str) or source not in _SOURCES:
        raise InvalidRequest("source", f"must be one of {', '.join(sorted(_SOURCES))}")
    result = call.home.memory_store(call.element).store(
        **body, source=source, idempotency_key=call.headers.get("Idempotency-Key"),
        settings=settings_of(call))
    _record(call, "store", {"memory_id": result.memory["id"], "evicted": result.evicted})
    return OpResult({"memory": result.memory, "evicted": result.evicted,
                     "warnings": result.warnings}, status=201)


MAX_BATCH = 256


@implements("store_batch")
def store_batch(call: OpCall) -> OpResult:
    body = required(known_fields(call.body, {"memories"}), "memories")
    items = body["memories"]
    if not isinstance(items, list) or not 1 <= len(items) <= MAX_BATCH:
        raise InvalidRequest("memories", f"must be a list of 1 to {MAX_BATCH} memories")
    for i, item in enumerate(items):
        if not isinstance(item, dict):
            raise InvalidRequest(f"memories[{i}]", "must be an object")
        required(known_fields(item, _STORE_FIELDS | {"idempotency_key"}),
                 "content", "category")
    results = call.home.memory_store(call.element).store_many(items,
                                                              settings=settings_of(call))
    _record(call, "store_batch", {"memory_ids": [r.memory["id"] for r in results]})
    return OpResult({"results": [{"memory": r.memory, "evicted": r.evicted,
                                  "warnings": r.warnings} for r in results]}, status=201)


@implements("search")
def search(call: OpCall) -> OpResult:
    body = required(known_fields(call.body, _SEARCH_FIELDS), "query")
    found = call.home.memory_store(call.element).search(**body, settings=settings_of(call))
    answer: dict[str, Any] = {"results": found.results}
    if found.fallback:
        answer["fallback"] = found.fallback
    return OpResult(answer)


@implements("get")
def get(call: OpCall) -> OpResult:
    memory = call.home.memory_store(call.element).get(call.params["memory_id"])
    return OpResult({"memory": memory})


def _int_arg(query: Any, name: str, default: int) -> int:
    raw = query.get(name)
    if raw is None:
        return default
    try:
        return int(raw)
    except ValueError:
        raise InvalidRequest(name, "must be an integer") from None


@implements("list")
def list_memories(call: OpCall) -> OpResult:
    q = call.query
    allowed = {"category", "subject_type", "subject_id", "agent", "source", "created_after",
               "created_before", "occurred_after", "occurred_before", "limit", "cursor"}
    known_fields(dict(q), allowed)
    memories, cursor = call.home.memory_store(call.element).list(
        **{k: q[k] for k in allowed - {"limit"} if q.get(k) is not None},
        limit=_int_arg(q, "limit", 50))
    return OpResult({"memories": memories, "next_cursor": cursor})


@implements("update")
def update(call: OpCall) -> OpResult:
    body = known_fields(call.body, _UPDATE_FIELDS)
    memory = call.home.memory_store(call.element).update(
        call.params["memory_id"], **body, settings=settings_of(call))
    _record(call, "update", {"memory_id": memory["id"]})
    return OpResult({"memory": memory})


@implements("delete")
def delete(call: OpCall) -> OpResult:
    memory_id = call.params["memory_id"]
    call.home.memory_store(call.element).delete(memory_id)
    _record(call, "delete", {"memory_id": memory_id})
    return OpResult({"deleted": memory_id})


@implements("stats")
def stats(call: OpCall) -> OpResult:
    return OpResult(call.home.memory_store(call.element).stats(settings=settings_of(call)))


@implements("forget_subject")
def forget_subject(call: OpCall) -> OpResult:
    body = known_fields(call.body, {"subject_type", "subject_id"})
    confirmed = call.headers.get("X-Confirm", "").strip().lower() == "destructive"
    outcome = call.home.memory_store(call.element).forget_subject(
        body.get("subject_type"), body.get("subject_id"), confirm=confirmed)
    _record(call, "forget_subject", {"subject_type": body.get("subject_type"),
                                     "deleted": outcome["deleted"]})
    return OpResult(outcome)
