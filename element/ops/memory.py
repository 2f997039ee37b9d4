"""The memory ops of the reference sheet, served by :class:`index.MemoryStore`.

Each handler takes the settings of the governing environment's spec and makes one call
into the runtime; what a memory may hold is validated there (``index/``), with the sheet's
error codes.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from index import (MAX_REASON_CHARS, MAX_SUPERSEDES, ConfirmRequired, InvalidMemory,
                   MemoryNotFound, MemorySettings, StoreError, validate_subject)

from ..agents.observed import TurnLedger
from ..catalog import Element, now_iso
from ..errors import ElementError, InvalidRequest
from .op import MEMORY, Activity, Header, OpCall, OpResult, OpTable, Schema
from .schemas import (BOOLEAN, CATEGORY, CATEGORY_LIST, EMPTY, IDEMPOTENCY_KEY,
                      LIST_LIMIT_MAX, MEMORY_ANSWER, MEMORY_ID, OBJECT, SEARCH_LIMIT_MAX,
                      STRING, SUBJECT, TEXT, TIME, array, integer, nullable, obj, ref)

__all__ = ["ops", "STORE_FIELDS", "MEMORY_INPUT", "SEARCH_INPUT", "SUPERSEDES", "settings_of",
           "MAX_BATCH", "SUBJECT_SCOPING_OFF"]

ops = OpTable()

MAX_BATCH = 256
_SOURCES = ("api", "conscious", "subconscious", "fixture")

#: The fields of one new memory, shared by store, store_batch, fixtures and the tools.
MEMORY_INPUT: dict[str, Schema] = {
    "content": {**TEXT, "description": "what the memory says (<= 16 KiB UTF-8)"},
    "category": CATEGORY,
    **SUBJECT,
    "context": nullable({"type": "string",
                         "description": "the conversation window it was formed in"}),
    "intention": nullable({"type": "string",
                           "description": "the goal of the turn it was formed in"}),
    "agent": nullable({"type": "string", "minLength": 1, "pattern": r"\S"}),
    "metadata": nullable(OBJECT),
    "occurred_at": nullable({**TIME, "description": "when the remembered thing happened (a "
                             "date alone is its midnight UTC); default: now"}),
}
SUPERSEDES: Schema = {
    **array(MEMORY_ID, maxItems=MAX_SUPERSEDES),
    "description": "current memories of the same subject this one replaces: they are kept "
                   "for history and as_of, out of default recall (valid_until = this "
                   "memory's valid_from, superseded_by = its id). One of another subject "
                   "or none: 404 MEMORY_NOT_FOUND; one superseded or retired already: 409 "
                   "MEMORY_NOT_CURRENT; nothing is written then"}
STORE_FIELDS = frozenset(MEMORY_INPUT) | {"source", "supersedes"}
_STORE = obj({**MEMORY_INPUT, "source": {"type": "string", "enum": list(_SOURCES),
                                         "default": "api"},
              "supersedes": SUPERSEDES},
             ["content", "category"])
_STORED = obj({"memory": ref("Memory"),
               "evicted": {**array(MEMORY_ID), "description": "memories deleted to make "
                           "room (max_memories, max_per_subject): superseded or retired "
                           "ones first, oldest first; then the least accessed, oldest"},
               "warnings": {**array(STRING), "description": "MEMORY_EMBEDDING_FAILED: "
                            "stored without vectors; SUBJECT_SCOPING_OFF: a subject was "
                            "named but the element does not scope by subject"}},
              ["memory", "evicted", "warnings"])
SEARCH_INPUT: dict[str, Schema] = {
    "query": TEXT,
    "context": nullable({"type": "string", "description": "the current conversation window"}),
    "intention": nullable({"type": "string", "description": "the current turn's goal"}),
    **SUBJECT,
    "limit": integer(1, SEARCH_LIMIT_MAX, default=10),
    "categories": CATEGORY_LIST,
    "occurred_after": nullable({**TIME, "description": "exclusive bound"}),
    "occurred_before": nullable({**TIME, "description": "exclusive bound"}),
    "as_of": nullable({**TIME, "description": "answer with the memories current then "
                       "(valid time: valid_from <= as_of < valid_until, whenever they "
                       "were stored)"}),
    "include_superseded": nullable({**BOOLEAN, "description": "also memories superseded "
                                    "or retired (each with its validity)"}),
}
_LANES = obj({lane: nullable({"type": "number"}) for lane in ("content", "context",
                                                                "intention")},
             ["content", "context", "intention"])
_RESULTS = obj({"results": array(obj({"memory": ref("Memory"), "score": {"type": "number"},
                                      "lanes": _LANES}, ["memory", "score", "lanes"])),
                "fallback": {"type": "string", "enum": ["text"],
                             "description": "present when vectors were unavailable"},
                "warnings": {**array(STRING), "description": "SUBJECT_SCOPING_OFF: a subject "
                             "was named but the element does not scope by subject"}},
               ["results", "warnings"])


def settings_of(call: OpCall) -> MemorySettings:
    """The memory settings of the called element in the call's environment.

    A call whose subject the caller fixed (an agent's tool call) recalls with subject
    scoping on, whatever the element says: it may see general memories and its subject's.
    """
    settings = _settings(call.home.properties_for(call.element, call.env))
    if call.subject is not None and not settings.subject_scoping:
        settings = dataclasses.replace(settings, subject_scoping=True)
    return settings


#: The settings of the properties seen (by the ``repr`` of the values they read: JSON's
#: values, told apart by it, ``1``, ``1.0`` and ``True`` included), at most
#: ``_SETTINGS_SEEN_MAX``: every memory op builds them from its element's properties, and
#: validating the same values again cost a search about 0.04 ms (issue 29). Frozen, their
#: dicts read-only, so one instance serves every call.
_settings_seen: dict[str, MemorySettings] = {}
_SETTINGS_SEEN_MAX = 256


def _settings(properties: Mapping[str, Any] | None) -> MemorySettings:
    """``MemorySettings.from_properties(properties)``, remembered (never an error)."""
    if not isinstance(properties, Mapping):
        return MemorySettings.from_properties(properties)
    key = repr([properties.get(name) for name in MemorySettings.PROPERTIES])
    found = _settings_seen.get(key)
    if found is None:
        found = MemorySettings.from_properties(properties)
        if len(_settings_seen) >= _SETTINGS_SEEN_MAX:
            _settings_seen.clear()
        _settings_seen[key] = found
    return found


#: Warning of a store or search that names a subject on an element whose subject scoping is
#: off: the subject is kept, but recall does not keep one person's memories from another.
SUBJECT_SCOPING_OFF = "SUBJECT_SCOPING_OFF"


def _scoping_warnings(settings: MemorySettings, body: Mapping[str, Any]) -> list[str]:
    names_subject = body.get("subject_type") is not None or body.get("subject_id") is not None
    return [SUBJECT_SCOPING_OFF] if names_subject and not settings.subject_scoping else []


def _reachable(call: OpCall) -> str:
    """The path's memory id; with a fixed subject, only a general memory or one of that
    subject is reachable (another's answers not found: the caller never saw it)."""
    memory_id = call.params["memory_id"]
    if call.subject is not None:
        with call.home.memory_store(call.element) as store:
            memory = store.get(memory_id)
        owner = (memory["subject_type"], memory["subject_id"]) \
            if memory["subject_type"] is not None else None
        if owner not in (None, call.subject):
            raise MemoryNotFound(memory_id)
    return memory_id


@ops.op("store", "POST", "store", "write", types=MEMORY, status=201, checks_types=True,
        summary="Store a new memory", request=_STORE, body_required=True, response=_STORED,
        headers=(IDEMPOTENCY_KEY,), links=("get", "update", "delete"),
        description="At max_memories a memory is evicted (within the subject's own rows "
                    "when subject_scoping is on): superseded or retired ones first, oldest "
                    "first, then the least-accessed, oldest one; caps count every memory "
                    "kept, history included. supersedes ends the named memories' validity "
                    "in the same write.")
def store(call: OpCall) -> OpResult:
    body = dict(call.body)
    source = body.pop("source", "api")
    settings = settings_of(call)
    with call.home.memory_store(call.element) as memories:
        result = memories.store(**body, source=source, settings=settings,
                                idempotency_key=call.headers.get("Idempotency-Key"))
    return OpResult({"memory": result.memory, "evicted": result.evicted,
                     "warnings": result.warnings + _scoping_warnings(settings, body)},
                    status=201,
                    activity=[Activity({"memory_id": result.memory["id"],
                                        "evicted": result.evicted})])


_BATCH_ITEM = obj({**MEMORY_INPUT, "source": {"type": "string", "enum": list(_SOURCES)},
                   "idempotency_key": {"type": "string", "minLength": 1},
                   "supersedes": SUPERSEDES},
                  ["content", "category"])


@ops.op("store_batch", "POST", "store_batch", "write", types=MEMORY, status=201,
        checks_types=True,
        summary="Store up to 256 memories with one embedding pass and one fsync",
        request=obj({"memories": array(_BATCH_ITEM, minItems=1, maxItems=MAX_BATCH)},
                    ["memories"]),
        body_required=True,
        response=obj({"results": array(_STORED)}, ["results"]),
        description="Each item is a store body (plus an optional idempotency_key); all are "
                    "validated before any is written, then stored in order with one "
                    "embedding pass and one fsync. An invalid item refuses the whole batch, "
                    "naming it as memories[i].")
def store_batch(call: OpCall) -> OpResult:
    items = call.body.get("memories")
    if not isinstance(items, list) or not 1 <= len(items) <= MAX_BATCH:
        raise InvalidRequest("memories", f"must be a list of 1 to {MAX_BATCH} memories")
    for i, item in enumerate(items):
        if not isinstance(item, dict):
            raise InvalidRequest(f"memories[{i}]", "must be an object")
    settings = settings_of(call)
    try:
        with call.home.memory_store(call.element) as store:
            results = store.store_many(items, settings=settings)
    except StoreError as exc:
        raise _as_memories(exc) from None
    return OpResult({"results": [{"memory": r.memory, "evicted": r.evicted,
                                  "warnings": r.warnings + _scoping_warnings(settings, item)}
                                 for r, item in zip(results, items, strict=True)]},
                    status=201,
                    activity=[Activity({"memory_ids": [r.memory["id"] for r in results],
                                        "evicted": [i for r in results for i in r.evicted]})])


def _as_memories(exc: StoreError) -> StoreError:
    """The runtime names a batch's items ``items[i]`` (its parameter); this op's field is
    ``memories``, so the caller reads ``memories[i]``."""
    if exc.message.startswith("items["):
        exc.message = "memories[" + exc.message[len("items["):]
        exc.args = (exc.message,)
        if isinstance(exc, InvalidMemory) and exc.field.startswith("items["):
            exc.field = "memories[" + exc.field[len("items["):]
    return exc


@ops.op("search", "POST", "search", "read", types=MEMORY, checks_types=True,
        summary="Blended-association recall",
        request=obj(SEARCH_INPUT, ["query"]), body_required=True, response=_RESULTS,
        description="score = wc*sim(query, content) + wx*sim(context, stored context) + "
                    "wi*sim(intention, stored intention), over the lanes present, content "
                    "also counting shared words; then calibrated: read against what the "
                    "query reaches on the newest current memories of the subject it names "
                    "(else of its scope), so about 0.2 is as close as an unrelated memory "
                    "gets, 0.4 one spread (standard deviation) above that, and 1 is the "
                    "same text (an increasing map: the order is the formula's). lanes holds each "
                    "lane's similarity before it. Results under relevance_threshold "
                    "are dropped, but a context or intention never hides a memory that the "
                    "query alone scores above it (it stays, ranked by its score, which may "
                    "then be under the threshold). A context past 32 KiB keeps its last "
                    "32 KiB, an intention past 4 KiB its first 4 KiB. A time the query names "
                    "(\"last week\", \"in May 2023\") boosts memories that occurred then.")
def search(call: OpCall) -> OpResult:
    settings = settings_of(call)
    with call.home.memory_store(call.element) as store:
        found = store.search(**call.body, settings=settings)
    answer: dict[str, Any] = {"results": found.results,
                              "warnings": _scoping_warnings(settings, call.body)}
    if found.fallback:
        answer["fallback"] = found.fallback
    return OpResult(answer)


@ops.op("get", "GET", "memories/{memory_id}", "read", types=MEMORY, summary="Get one memory",
        response=MEMORY_ANSWER)
def get(call: OpCall) -> OpResult:
    memory_id = _reachable(call)
    with call.home.memory_store(call.element) as store:
        memory = store.get(memory_id)
    return OpResult({"memory": memory})


_LIST_QUERY: dict[str, Schema] = {
    "category": CATEGORY,
    "subject_type": SUBJECT["subject_type"]["anyOf"][0],
    "subject_id": {**SUBJECT["subject_id"]["anyOf"][0], "description": "needs subject_type"},
    "agent": STRING,
    "source": {"type": "string", "enum": list(_SOURCES)},
    "created_after": {**TIME, "description": "exclusive bound"},
    "created_before": {**TIME, "description": "exclusive bound"},
    "occurred_after": {**TIME, "description": "exclusive bound"},
    "occurred_before": {**TIME, "description": "exclusive bound"},
    "as_of": {**TIME, "description": "the memories current then"},
    "include_superseded": {**BOOLEAN, "description": "also memories superseded or retired"},
    "limit": integer(1, LIST_LIMIT_MAX, default=50),
    "cursor": {"type": "string", "pattern": r"^s\d{1,18}$",
               "description": "next_cursor of the previous page"},
}


@ops.op("list", "GET", "memories", "read", types=MEMORY, summary="List memories with filters",
        query=_LIST_QUERY,
        response=obj({"memories": array(ref("Memory")), "next_cursor": nullable(STRING)},
                     ["memories", "next_cursor"]),
        description="Newest first; filters combine with AND. Current memories only unless "
                    "as_of or include_superseded says otherwise.")
def list_memories(call: OpCall) -> OpResult:
    filters = {k: v for k, v in call.query.items() if k != "limit"}
    with call.home.memory_store(call.element) as store:
        memories, cursor = store.list(**filters, limit=call.query.get("limit", 50))
    return OpResult({"memories": memories, "next_cursor": cursor})


@ops.op("update", "POST", "memories/{memory_id}/update", "write", types=MEMORY,
        checks_types=True,
        summary="Update a memory's content, or retire it",
        request=obj({"content": TEXT, "category": CATEGORY,
                     "context": nullable({"type": "string", "description": "empty clears it"}),
                     "intention": nullable({"type": "string",
                                            "description": "empty clears it"}),
                     "metadata": nullable(OBJECT),
                     "retire": {**BOOLEAN, "description": "true: the memory no longer holds "
                                "and nothing replaces it (valid_until = now; kept for "
                                "history); alone, with a reason"},
                     "reason": {**TEXT, "maxLength": MAX_REASON_CHARS,
                                "description": "why (kept in the memory's history)"},
                     "at": {**TIME, "description": "with retire: when it stopped holding "
                            "(default now)"},
                     "source": {"type": "string", "enum": list(_SOURCES),
                                "default": "api"},
                     "agent": nullable({"type": "string", "minLength": 1})}),
        response=MEMORY_ANSWER,
        description="A changed text is re-embedded; subject and agent never change. The "
                    "version before is kept in the memory's history. A memory superseded "
                    "or retired already: 409 MEMORY_NOT_CURRENT.")
def update(call: OpCall) -> OpResult:
    memory_id = _reachable(call)
    body = dict(call.body)
    retire = body.pop("retire", False)
    with call.home.memory_store(call.element) as store:
        if retire:
            if set(body) - {"reason", "source", "agent", "at"}:
                raise InvalidRequest("retire", "takes only a reason (and at, source, "
                                     "agent)")
            if not body.get("reason"):
                raise InvalidRequest("reason", "is required to retire a memory")
            memory = store.retire(memory_id, **body)
        else:
            memory = store.update(memory_id, **body, settings=settings_of(call))
    return OpResult({"memory": memory}, activity=[Activity({"memory_id": memory["id"],
                                                            **({"retired": True} if retire
                                                               else {})})])


_VERSION = obj({
    "content": STRING, "category": CATEGORY, "valid_from": TIME,
    "valid_until": nullable(TIME), "superseded_by": nullable(MEMORY_ID),
    "op": {"type": "string", "enum": ["store", "update", "supersede", "retire", "delete"],
           "description": "what made this version (delete: the memory that superseded "
                          "it was deleted, and it took over that memory's end)"},
    "at": TIME, "source": STRING, "agent": nullable(STRING),
    "evaluator": {**STRING, "description": "the subconscious's evaluator, when it decided"},
    "reason": STRING},
    ["content", "category", "valid_from", "valid_until", "superseded_by", "op", "at",
     "source", "agent"], closed=False)


@ops.op("history", "GET", "memories/{memory_id}/history", "read", types=MEMORY,
        summary="Every version of one memory",
        response=obj({"memory_id": MEMORY_ID, "versions": array(_VERSION)},
                     ["memory_id", "versions"]),
        description="Oldest first, the current version last: content, category and "
                    "validity, and what made each version (store, update, supersede, "
                    "retire, delete of its successor; source, agent, evaluator, reason) "
                    "and when. Read from the "
                    "memory's own durable record; a delete or forget_subject erases it.")
def history(call: OpCall) -> OpResult:
    memory_id = _reachable(call)
    with call.home.memory_store(call.element) as store:
        versions = store.history(memory_id)
    return OpResult({"memory_id": memory_id, "versions": versions})


@ops.op("delete", "POST", "memories/{memory_id}/delete", "write", types=MEMORY,
        summary="Delete a memory", request=EMPTY,
        response=obj({"deleted": MEMORY_ID}, ["deleted"]),
        description="Erases the memory and its history: it never was. The memories it "
                    "superseded take over its end: current again, or superseded by the "
                    "memory that superseded it (when it was superseded itself), or ended "
                    "when it ended (retired); each one's history says so (op delete).")
def delete(call: OpCall) -> OpResult:
    memory_id = _reachable(call)
    with call.home.memory_store(call.element) as store:
        store.delete(memory_id)
    return OpResult({"deleted": memory_id}, activity=[Activity({"memory_id": memory_id})])


_COUNT = integer(0)


@ops.op("stats", "GET", "stats", "read", types=MEMORY,
        summary="Counts, capacity, retention reaper",
        response=obj({
            "total": _COUNT, "by_category": obj({}, closed=False,
                                                additionalProperties=_COUNT),
            "by_subject": array(obj({"subject_type": STRING, "subject_id": STRING,
                                     "count": integer(1)},
                                    ["subject_type", "subject_id", "count"])),
            "general": _COUNT,
            "capacity": obj({"max_memories": integer(1), "max_per_subject": integer(1),
                             "used": _COUNT}, ["max_memories", "max_per_subject", "used"]),
            "embedded": _COUNT, "unembedded": _COUNT,
            "expired": {**array(MEMORY_ID),
                        "description": "removed by the retention reaper during this call"}},
            ["total", "by_category", "by_subject", "general", "capacity", "embedded",
             "unembedded", "expired"], closed=False))
def stats(call: OpCall) -> OpResult:
    with call.home.memory_store(call.element) as store:
        answer = store.stats(settings=settings_of(call))
    expired = answer.get("expired") or []
    return OpResult(answer, activity=[Activity({"expired": expired}, op="expire")]
                    if expired else ())


@ops.op("forget_subject", "POST", "forget_subject", "write", types=MEMORY | {"circle"},
        checks_types=True,
        summary="Delete all memories about a subject",
        # Both are needed; the runtime says which is missing (MEMORY_SUBJECT_INCOMPLETE).
        request=obj({"subject_type": SUBJECT["subject_type"]["anyOf"][0],
                     "subject_id": SUBJECT["subject_id"]["anyOf"][0]},
                    dependentRequired={"subject_type": ["subject_id"],
                                       "subject_id": ["subject_type"]}),
        body_required=True,
        headers=(Header("X-Confirm", {"type": "string", "enum": ["destructive"]},
                        "without it the answer is 400 MEMORY_CONFIRM_REQUIRED",
                        required=True),),
        response=obj({"deleted": _COUNT, "ids": array(MEMORY_ID),
                      "elements": {**array(obj({"path": STRING, "deleted": _COUNT,
                                                "ids": array(MEMORY_ID)},
                                               ["path", "deleted", "ids"])),
                                   "description": "on a circle: per memory element"},
                      "skipped": {**array(obj({"path": STRING, "code": STRING,
                                               "message": STRING},
                                              ["path", "code", "message"])),
                                  "description": "on a circle: memory elements the token "
                                                 "may not write (a policy, a disabled "
                                                 "element), untouched"}},
                     ["deleted", "ids"]),
        description="Deletes every memory about the subject, and erases their text from "
                    "disk; general memories stay. On a circle: in every memory element of "
                    "the circle the token may write, in one call (copies made by "
                    "export/import included); the others are listed in skipped.")
def forget_subject(call: OpCall) -> OpResult:
    # Unchecked here: the runtime validates the subject with the sheet's codes.
    subject_type: Any = call.body.get("subject_type")
    subject_id: Any = call.body.get("subject_id")
    confirmed = call.headers.get("X-Confirm", "").strip().lower() == "destructive"
    if call.element.element_type == "circle":
        return _forget_everywhere(call, subject_type, subject_id, confirmed)
    outcome = _forget_in(call, call.element, subject_type, subject_id, confirmed)
    return OpResult(outcome, activity=[Activity({"subject_type": subject_type,
                                                 "deleted": outcome["deleted"]})])


def _forget_in(call: OpCall, element: Element, subject_type: Any, subject_id: Any,
               confirmed: bool) -> dict[str, Any]:
    with call.home.memory_store(element) as store:
        outcome = store.forget_subject(subject_type, subject_id, confirm=confirmed)
    # The subconscious's record of which of their turns it heard goes with their memories.
    TurnLedger(call.home.catalog, element.id).forget_subject((subject_type, subject_id))
    # Recorded, so an import of an older export or a restore does not bring them back.
    call.home.catalog.record_forgotten(element.id, subject_type, subject_id, now_iso())
    return outcome


def _forget_everywhere(call: OpCall, subject_type: Any, subject_id: Any,
                       confirmed: bool) -> OpResult:
    """``forget_subject`` on a circle: in each of its memory elements that the caller may
    write (its role, the element's state and auth-policies, as the element's own op
    would ask; rate-limits spend nothing more), the others listed as skipped."""
    if not confirmed:
        raise ConfirmRequired()
    if validate_subject(subject_type, subject_id) is None:
        raise InvalidMemory("subject_type", "is required")
    answer: dict[str, Any] = {"deleted": 0, "ids": [], "elements": [], "skipped": []}
    events: list[Activity] = []
    for element in call.home.catalog.elements(call.element.circle):
        if element.element_type != "memory" or element.state == "deleted":
            continue
        try:
            call.nested.admit(element, call.op, count_rate=False)
        except ElementError as exc:
            answer["skipped"].append({"path": element.path, "code": exc.code,
                                      "message": exc.message})
            continue
        outcome = _forget_in(call, element, subject_type, subject_id, True)
        answer["deleted"] += outcome["deleted"]
        answer["ids"] += outcome["ids"]
        answer["elements"].append({"path": element.path, **outcome})
        events.append(Activity({"subject_type": subject_type, "deleted": outcome["deleted"],
                                "via": call.element.path}, element))
    return OpResult(answer, activity=events)

