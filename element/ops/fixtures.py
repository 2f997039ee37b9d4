"""``source_fixtures``: dry-run or apply the seed records of ``.triform/fixtures/*.yaml``.

A dry run (the default) reports each record's status; applying needs ``dry_run: false`` and
``confirm: true`` and sends each memory record through the ``store`` op on the one op path
(the caller's level, the element's state and its modifiers apply as to any store), with the
record's fixture key as idempotency key, so applying twice stores nothing new.
"""

from __future__ import annotations

from typing import Any

from index import StoreError, validate_new
from source import InvalidArgument, fixtures

from ..errors import ElementError, InvalidRequest
from .files import repo_of
from .memory import STORE_FIELDS
from .op import Activity, Invocation, OpCall, OpResult, OpTable
from .schemas import BOOLEAN, OBJECT, REV, STRING, array, obj
from .source import rev_of

__all__ = ["ops"]

ops = OpTable()


def _applied_keys(call: OpCall) -> dict[str, str]:
    """fixture key -> memory id, for fixture memories still stored (``metadata.fixture_key``)."""
    keys: dict[str, str] = {}
    with call.home.memory_store(call.element) as store:
        for memory in store.iter_memories(source="fixture"):
            key = (memory.get("metadata") or {}).get("fixture_key")
            if isinstance(key, str):
                keys[key] = memory["id"]
    return keys


def _memory_body(item: dict[str, Any]) -> dict[str, Any]:
    """The ``store`` body of a memory fixture record; :raise: on fields store would refuse."""
    record = dict(item["record"])
    for key in record:
        if key not in STORE_FIELDS:
            raise InvalidRequest(key, f"is not a field of a memory (fields: "
                                 f"{', '.join(sorted(STORE_FIELDS))})")
    record["source"] = "fixture"
    meta = record.get("metadata")
    if meta is None or isinstance(meta, dict):
        record["metadata"] = {**(meta or {}), "fixture_key": item["key"]}
    validate_new(**{k: record.get(k) for k in STORE_FIELDS}, idempotency_key=item["key"])
    return record


@ops.op("source_fixtures", "POST", "source/fixtures", "write",
        summary="Dry-run or apply fixtures",
        request=obj({"dry_run": {**BOOLEAN, "default": True},
                     "confirm": {**BOOLEAN, "default": False}, "branch": REV}),
        response=obj({"dry_run": BOOLEAN, "branch": STRING, "files": array(OBJECT),
                      "records": array(OBJECT), "counts": OBJECT},
                     ["dry_run", "branch", "files", "records", "counts"]),
        description="Applying needs dry_run=false and confirm=true; each record goes "
                    "through the store op with its fixture key as idempotency key.")
def source_fixtures(call: OpCall) -> OpResult:
    dry_run = call.body.get("dry_run", True)
    confirm = call.body.get("confirm", False)
    branch = rev_of(call.body.get("branch"), "branch")
    if not dry_run and not confirm:
        raise InvalidRequest("confirm", "applying fixtures needs dry_run=false and "
                             "confirm=true")
    is_memory = call.element.element_type == "memory"
    done = _applied_keys(call) if is_memory else {}
    stored: dict[str, dict[str, Any]] = {}

    def apply(item: dict[str, Any]) -> None:
        if item["kind"] != "memory" or not is_memory:
            raise InvalidRequest("kind", f"{item['kind']!r} fixtures cannot be applied to "
                                 f"{call.element.element_type} elements")
        result = call.nested.invoke(Invocation(
            call.element.path, op="store", principal=call.principal, body=_memory_body(item),
            headers={"Idempotency-Key": item["key"]}, env=call.env, count_rate=False))
        assert isinstance(result.body, dict)
        stored[item["key"]] = {"memory_id": result.body["memory"]["id"],
                               "warnings": result.body["warnings"]}

    try:
        report = fixtures(repo_of(call), branch, dry_run=dry_run, confirm=confirm, apply=apply,
                          done=done)
    except InvalidArgument as exc:
        raise InvalidRequest(exc.field, exc.reason) from None
    errors = {e["key"]: e["error"] for e in report.get("errors", [])}
    rows = []
    for item in report["records"]:
        key = item["key"]
        row = {"file": item["file"], "index": item["index"], "kind": item["kind"], "key": key}
        if key in done:
            row.update(status="skipped" if not dry_run else "applied",
                       memory_id=done[key])
        elif dry_run:
            try:
                if item["kind"] != "memory" or not is_memory:
                    raise InvalidRequest("kind", "no op of this element takes "
                                         f"{item['kind']!r} fixtures")
                _memory_body(item)
                row["status"] = "new"
            except (ElementError, StoreError) as exc:
                row.update(status="invalid", error=str(exc))
        elif key in errors:
            row.update(status="error", error=errors[key])
        else:
            row.update(status="stored", **stored.get(key, {}))
        rows.append(row)
    counts: dict[str, int] = {}
    for row in rows:
        counts[row["status"]] = counts.get(row["status"], 0) + 1
    return OpResult({"dry_run": dry_run, "branch": branch, "files": report["files"],
                     "records": rows, "counts": counts},
                    activity=() if dry_run else [Activity({"branch": branch,
                                                           "counts": counts})])
