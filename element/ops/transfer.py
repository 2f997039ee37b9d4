"""``export_memories`` and ``import_memories``: a memory element's memories as NDJSON, kept
whole (ids, timestamps, access statistics; vectors on request). The format and the checks
are ``element/transfer/memories.py``; docs/backup.md says what travels and what does not.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import ExitStack
from typing import Any

from ..errors import ImportTooLarge
from ..transfer import FORMAT, VERSION, export_lines, forgotten_before, import_into, \
    read_import
from .memory import settings_of
from .op import MEMORY, Activity, OpCall, OpResult, OpTable, Schema
from .schemas import BOOLEAN, CATEGORY, STRING, SUBJECT, TIME, array, integer, obj

__all__ = ["ops", "NDJSON", "MAX_IMPORT_MEMORIES", "MAX_IMPORT_EMBEDDED"]

ops = OpTable()

NDJSON = "application/x-ndjson"
#: Memories one import request takes (the home's operator, the command line, takes any
#: number): a 100k-line import held a server thread for 8 minutes (issue 26). With their
#: vectors, 10,000 take about 12 s on two busy cores.
MAX_IMPORT_MEMORIES = 10_000
#: Of those, memories whose vectors cannot be used (none, or another model's): each is
#: embedded here, about 100 texts a second on a CPU.
MAX_IMPORT_EMBEDDED = 1_000

_EXPORT_QUERY: dict[str, Schema] = {
    "vectors": {**BOOLEAN, "description": "add each lane's vector (base64 float32), so an "
                "import with the same model does not embed again"},
    "category": CATEGORY,
    "subject_type": SUBJECT["subject_type"]["anyOf"][0],
    "subject_id": {**SUBJECT["subject_id"]["anyOf"][0], "description": "needs subject_type"},
    "agent": STRING,
    "source": STRING,
    "created_after": {**TIME, "description": "exclusive bound"},
    "created_before": {**TIME, "description": "exclusive bound"},
}
_LINES: Schema = {"type": "string", "description": f"NDJSON: a header line (format "
                  f"{FORMAT!r}, version {VERSION}, element, model, dim, count, vectors, "
                  "forgotten), then one memory a line, newest first (docs/backup.md)"}


@ops.op("export_memories", "GET", "export/memories", "read", types=MEMORY,
        summary="Export memories as NDJSON (streamed)", query=_EXPORT_QUERY,
        content={NDJSON: _LINES},
        description="Every public field of each memory (id, content, category, subject, "
                    "context, intention, agent, source, metadata, created/updated/occurred/"
                    "last-accessed times, access_count); list's filters. Streamed: memory "
                    "use does not grow with the element. Memories never enter git.")
def export_memories(call: OpCall) -> OpResult:
    filters = {k: v for k, v in call.query.items() if k != "vectors"}
    with ExitStack() as lease:
        store = lease.enter_context(call.home.memory_store(call.element))
        count, lines = export_lines(store, call.element, call.home.catalog,
                                    vectors=bool(call.query.get("vectors")), filters=filters)
        stream = _Leased(lines, lease.pop_all().close)   # a bad filter released it above
    return OpResult(stream, content_type=NDJSON,
                    headers={"X-Triform-Count": str(count)},
                    activity=[Activity({"count": count,
                                        "vectors": bool(call.query.get("vectors"))})])


class _Leased:
    """An export's lines holding the store's lease until they are read to the end or
    closed (a WSGI server closes a response it stops sending), so a slow reader's store is
    never closed as idle under it."""

    def __init__(self, lines: Iterator[bytes], release: Callable[[], None]) -> None:
        self._lines = lines
        self._release: Callable[[], None] | None = release

    def __iter__(self) -> Iterator[bytes]:
        return self

    def __next__(self) -> bytes:
        try:
            return next(self._lines)
        except BaseException:   # the end (StopIteration) or a failure: either way, done
            self.close()
            raise

    def close(self) -> None:
        release, self._release = self._release, None
        if release is not None:
            release()

    def __del__(self) -> None:      # never iterated nor closed: do not leak the lease
        self.close()


_COUNT = integer(0)


def _bounded(call: OpCall) -> None:
    """:raise ImportTooLarge: more memories than one request takes (the operator's are
    not bounded)."""
    lines = call.raw_body.count(b"\n")
    if not call.principal.is_operator and lines - 1 > MAX_IMPORT_MEMORIES:
        raise ImportTooLarge(f"the file holds {lines - 1} memories; one import takes at "
                             f"most {MAX_IMPORT_MEMORIES}: split it, or import it with the "
                             "command line on the home itself (triform import)")


def _bounded_embedding(call: OpCall, lines: list[bytes], same_model: bool) -> None:
    """:raise ImportTooLarge: more memories to embed here than one request takes."""
    to_embed = len(lines) if not same_model else \
        sum(1 for line in lines if b'"vectors"' not in line)
    if not call.principal.is_operator and to_embed > MAX_IMPORT_EMBEDDED:
        raise ImportTooLarge(
            f"{to_embed} memories would be embedded here (no vectors, or another model's); "
            f"one import embeds at most {MAX_IMPORT_EMBEDDED}: export with vectors=true "
            "from an element of this model, or split the file")


@ops.op("import_memories", "POST", "import/memories", "write", types=MEMORY,
        summary="Import an NDJSON export, ids and timestamps kept",
        request_content={NDJSON: _LINES}, body_required=True,
        body_limit="MAX_IMPORT_BODY",
        response=obj({"imported": _COUNT, "skipped": _COUNT, "evicted": _COUNT,
                       "forgotten": {**_COUNT, "description": "memories of a subject "
                                     "forgotten (here or at the source) after they were "
                                     "made: not imported"},
                       "embedded_here": {**_COUNT, "description": "memories embedded by "
                                         "this import (no vectors, or another model's)"},
                       "errors": array(obj({"id": STRING, "code": STRING}, ["id", "code"])),
                       "warnings": array(STRING)},
                      ["imported", "skipped", "evicted", "forgotten", "embedded_here",
                       "errors", "warnings"]),
        description="Every line is checked before anything is written: a bad line, a "
                    "foreign format or version, or a file cut short refuses the whole "
                    "import (400 IMPORT_INVALID naming the line). A memory whose id is "
                    "present is skipped, so importing a file twice changes nothing. Vectors "
                    "are used when the export's model is this element's; otherwise the "
                    "texts are embedded (warning IMPORT_REEMBEDDED). Capacity and eviction "
                    "apply as for store. All or nothing: a write refused part way "
                    "(MEMORY_CAPACITY, a full disk) leaves no memory of the file written. "
                    f"At most {MAX_IMPORT_MEMORIES} memories per request, of which "
                    f"{MAX_IMPORT_EMBEDDED} without usable vectors (413 IMPORT_TOO_LARGE).")
def import_memories(call: OpCall) -> OpResult:
    _bounded(call)
    with call.home.memory_store(call.element) as store:
        parsed = read_import(call.raw_body, dim=store.dim, model_id=store.model_id)
        _bounded_embedding(call, parsed.lines, parsed.model == store.model_id)
        forgotten = forgotten_before([*call.home.catalog.forgotten(call.element.id),
                                      *_rows(parsed.header.get("forgotten"))])
        answer = import_into(store, parsed, settings=settings_of(call), forgotten=forgotten)
    warnings = []
    if parsed.model != store.model_id and parsed.lines:
        warnings.append("IMPORT_REEMBEDDED")
    answer["warnings"] = warnings
    return OpResult(answer, activity=[Activity({k: answer[k] for k in (
        "imported", "skipped", "evicted", "forgotten")})])


def _rows(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []
