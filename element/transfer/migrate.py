"""Copy a home's memories from one backend to the other: the files under ``runtime/`` and
PostgreSQL (``triform migrate``, docs/deploy.md).

Each memory element's memories travel whole (ids, texts, subjects, times, access
statistics and vectors: nothing is embedded again when both sides use one model) through
the export format of ``memories.py``, then are checked: every id of the source must be
read back from the target. The copy is re-runnable (an id already there is skipped) and
leaves the source as it was, so a home goes back by serving without ``--database`` until
the target is trusted.
"""

from __future__ import annotations

from typing import Any

from index import MemoryBackend, MemorySettings

from ..home import Home
from .memories import export_lines, forgotten_before, import_into, read_import

__all__ = ["migrate_memories"]


def _ids(store: MemoryBackend) -> set[str]:
    _, memories = store.export()
    return {str(memory["id"]) for memory in memories}


def migrate_memories(source: Home, target: Home) -> list[dict[str, Any]]:
    """Copy every memory element's memories from ``source`` to ``target`` (one home's
    folder opened on each backend). Returns, per element: ``path``, ``memories`` (in the
    source), ``imported``, ``skipped`` (already there), ``evicted`` (a cap lowered since),
    ``forgotten`` (of a forgotten subject) and ``missing`` (source ids the target lacks
    after the copy: the check; 0 when all went well).

    :raise ImportInvalid, StoreError: a store cannot be read or written; elements before
        it are copied (run again to go on).
    """
    report: list[dict[str, Any]] = []
    for element in source.catalog.elements():
        if element.element_type != "memory" or element.state == "deleted":
            continue
        with source.memory_store(element) as origin, target.memory_store(element) as dest:
            _, lines = export_lines(origin, element, source.catalog, vectors=True,
                                    filters={})
            parsed = read_import(b"".join(lines), dim=dest.dim, model_id=dest.model_id)
            settings = MemorySettings.from_properties(
                target.properties_for(element, target.env))
            answer = import_into(dest, parsed, settings=settings, forgotten=forgotten_before(
                target.catalog.forgotten(element.id)))
            missing = _ids(origin) - _ids(dest)
        report.append({"path": element.path, "memories": len(parsed.lines),
                       **{key: answer[key] for key in ("imported", "skipped", "evicted",
                                                       "forgotten")},
                       "missing": len(missing)})
    return report
