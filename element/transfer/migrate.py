"""Copy a home from one backend to the other: its catalog (``catalog.db`` and PostgreSQL)
and its memories (the files under ``runtime/`` and PostgreSQL); ``triform migrate``,
docs/deploy.md. Git repositories stay where they are, in the home folder.

The catalog goes first, whole (``catalog/transfer.py``: the target becomes a copy, checked
table by table, and a target that is ahead of the source is refused), so the target knows
every element before its memories arrive. Each memory element's memories travel whole
(ids, texts, subjects, times, access statistics and vectors: nothing is embedded again
when both sides use one model) through the export format of ``memories.py``, then are
checked: every id of the source must be read back from the target. Both copies are
re-runnable (a catalog table that matches is not written, a memory id already there is
skipped) and leave the source as it was, so a home goes back by serving without
``--database`` until the target is trusted.
"""

from __future__ import annotations

from typing import Any

from index import MemoryBackend, MemorySettings

from ..catalog import copy_catalog
from ..home import Home
from .memories import export_lines, forgotten_before, import_into, read_import

__all__ = ["migrate_catalog", "migrate_memories"]


def migrate_catalog(source: Home, target: Home) -> dict[str, Any]:
    """Make ``target``'s catalog a copy of ``source``'s (see ``copy_catalog``).

    :raise CatalogAhead: the target recorded activity after the source's newest event.
    """
    return copy_catalog(source.catalog, target.catalog)


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
