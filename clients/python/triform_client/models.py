"""The shapes of what the server answers, as ``TypedDict``: the JSON as it came, typed.

They follow docs/api.md and ``GET /openapi.json``. A server newer than this client may add
keys; they are kept, never dropped. Answers with an op-specific report (source repair,
bundle import...) are plain :data:`JSON`.
"""

from __future__ import annotations

from typing import Any, Literal, NotRequired, Required, TypedDict

__all__ = ["JSON", "Category", "SubjectType", "MemorySource", "Memory", "MemoryVersion",
           "NewMemory",
           "StoreResult", "Lanes", "SearchHit", "SearchResult", "MemoryPage", "Capacity",
           "SubjectCount", "Stats", "ForgetResult", "ElementInfo", "Spec", "SpecAnswer",
           "SpecUpdate", "Event", "ActivityPage", "MemoryImport", "Turn", "Decision",
           "Observation"]

JSON = dict[str, Any]

Category = Literal["fact", "preference", "procedure", "context", "correction"]
SubjectType = Literal["circle_member", "entity", "guest"]
MemorySource = Literal["api", "conscious", "subconscious", "fixture"]


class Memory(TypedDict):
    """One memory, never its vectors."""

    id: str
    content: str
    category: str
    subject_type: str | None
    subject_id: str | None
    context: str | None
    intention: str | None
    agent: str | None
    source: str
    metadata: dict[str, Any]
    created_at: str
    updated_at: str
    last_accessed_at: str | None
    access_count: int
    embedded: bool
    valid_from: str
    valid_until: str | None
    superseded_by: str | None


class MemoryVersion(TypedDict, total=False):
    """One version of a memory (``MemoryElement.history``), oldest first."""

    content: Required[str]
    category: Required[str]
    valid_from: Required[str]
    valid_until: Required[str | None]
    superseded_by: Required[str | None]
    op: Required[str]
    at: Required[str]
    source: Required[str]
    agent: Required[str | None]
    evaluator: str
    reason: str


class NewMemory(TypedDict, total=False):
    """One item of ``store_batch``: the fields of ``store``."""

    content: Required[str]
    category: Required[Category]
    subject_type: SubjectType
    subject_id: str
    context: str
    intention: str
    agent: str
    metadata: dict[str, Any]
    source: MemorySource
    idempotency_key: str


class StoreResult(TypedDict):
    memory: Memory
    evicted: list[str]
    warnings: list[str]


class Lanes(TypedDict):
    """Each lane's similarity; None when the lane had no text on either side."""

    content: float | None
    context: float | None
    intention: float | None


class SearchHit(TypedDict):
    memory: Memory
    score: float
    lanes: Lanes


class SearchResult(TypedDict):
    """Best first. ``fallback`` is ``"text"`` when vectors were unavailable."""

    results: list[SearchHit]
    fallback: NotRequired[str]


class MemoryPage(TypedDict):
    memories: list[Memory]
    next_cursor: str | None


class Capacity(TypedDict):
    max_memories: int
    max_per_subject: int
    used: int


class SubjectCount(TypedDict):
    subject_type: str
    subject_id: str
    count: int


class Stats(TypedDict):
    total: int
    by_category: dict[str, int]
    by_subject: list[SubjectCount]
    general: int
    capacity: Capacity
    embedded: int
    unembedded: int
    expired: list[str]


class ForgetResult(TypedDict):
    deleted: int
    ids: list[str]


class ElementInfo(TypedDict):
    id: str
    path: str
    circle: str
    slug: str | None
    name: str
    element_type: str
    form: str
    parent_id: str | None
    state: str
    description: str | None
    properties: dict[str, Any]
    meta: dict[str, Any]
    version: int
    created_at: str
    updated_at: str


class Spec(TypedDict):
    element_type: str
    slug: str | None
    name: str
    form: str
    description: str | None
    properties: dict[str, Any]


class SpecAnswer(TypedDict):
    spec: Spec
    version: int
    warnings: NotRequired[list[str]]


class SpecUpdate(TypedDict):
    """``changed`` False: the spec already said that; no version was made."""

    changed: bool
    version: int
    spec: Spec
    label: NotRequired[str]
    commit: NotRequired[str]


class Event(TypedDict):
    """One activity event; ``seq`` is also its SSE id."""

    seq: int
    element_id: str | None
    path: str | None
    circle: str
    op: str
    principal: str | None
    detail: dict[str, Any]
    at: str


class ActivityPage(TypedDict):
    scope: str
    events: list[Event]
    count: int
    next_cursor: str | None


class MemoryImport(TypedDict):
    """The answer of ``import_memories`` (design.md section 10 names the keys; whether
    each is a count or a list is the server's to say, so both are allowed)."""

    imported: int | list[Any]
    skipped: int | list[Any]
    evicted: int | list[Any]
    errors: list[Any]


class Turn(TypedDict, total=False):
    """One conversation turn for ``observe``."""

    role: Required[Literal["user", "assistant"]]
    content: Required[str]
    name: str


class Decision(TypedDict, total=False):
    action: Required[str]
    reason: Required[str]
    memory_id: str
    category: str
    content: str
    evicted: list[str]
    memory: str


class Observation(TypedDict):
    """What ``observe`` decided; also ``fallback``, ``skipped``, ``unresolved`` at times."""

    decisions: list[Decision]
    evaluator: str
    memories: list[str]
    fallback: NotRequired[str]
    skipped: NotRequired[list[dict[str, str]]]
    unresolved: NotRequired[list[str]]


class EvalSummary(TypedDict):
    """A run's scores (``pass_rate``, ``recall_at_k``, ``mrr`` are None without cases)."""

    cases: int
    passed: int
    failed: int
    pass_rate: float | None
    recall_at_k: float | None
    mrr: float | None
    failing: list[str]


class EvalCase(TypedDict):
    """One case of an eval: whether it passed, why not, where its targets ranked."""

    name: str
    file: str
    id: str
    line: int
    memories: Literal["element", "seed"]
    k: int
    passed: bool
    reasons: list[str]
    expected: list[JSON]
    rejected: list[JSON]
    recall: float | None
    reciprocal_rank: float | None
    results: list[JSON]


class EvalRun(TypedDict):
    """The answer of ``eval`` (docs/evals.md)."""

    element: str
    branch: str
    commit: str
    settings: JSON
    files: list[JSON]
    cases: list[EvalCase]
    summary: EvalSummary
    warnings: list[str]
    recorded: bool
    at: str


class EvalStatus(TypedDict):
    """Each branch's last recorded eval (None until one ran; ``current`` when it ran at the
    branch's tip) and ``draft_vs_live``: draft's scores minus live's."""

    last: dict[str, JSON | None]
    draft_vs_live: JSON | None
