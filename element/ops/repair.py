"""``source_repair``: inspect (dry run, the default) or repair an element's source.

Checks git (refs, HEAD, config, objects, dangling objects) through ``source.repair``, the
spec's agreement with the catalog (the catalog is authoritative), and for a memory element
its runtime (``MemoryStore.verify``: the sidecar against the log, the whole log, vectors).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from index import InvalidMemory, LogMissing
from source import SourceError, read_spec, repair, spec_blob, spec_check

from ..errors import ElementError, InvalidRequest
from ..spec.mirror import sync_spec
from ..spec.spec_file import normalize_spec, spec_of
from .files import repo_of
from .op import Activity, OpCall, OpResult, OpTable
from .schemas import BOOLEAN, OBJECT, STRING, array, obj

__all__ = ["ops"]

ops = OpTable()

_PRUNE = re.compile(r"now|[0-9]{1,6}\.(seconds|minutes|hours|days|weeks)\.ago")
Check = Callable[[Path, bool], list[dict[str, Any]]]


def _spec_agreement(call: OpCall) -> Check:
    """Draft's spec, normalized, must equal the catalog's. The fix is ``source.spec_check``'s:
    commit the catalog's spec (it is authoritative)."""
    home, element = call.home, call.element

    def spec(path: Path, dry_run: bool) -> list[dict[str, Any]]:
        want = spec_of(home.catalog.element(element.id))
        try:
            raw = read_spec(path, branch="draft")
            have = None if raw is None else normalize_spec(
                raw, circle=element.circle, element_type_name=element.element_type,
                slug=element.slug)
        except (ElementError, SourceError, InvalidMemory):
            have = None
        if have == want:
            return []
        items = spec_check(want)(path, dry_run)
        if any(i.get("fixed") for i in items):
            commit, blob = spec_blob(path)
            home.catalog.set_mirror(element.id, commit, blob)
        return items

    return spec


def _memory_runtime(call: OpCall) -> Check:
    def memory_runtime(_path: Path, dry_run: bool) -> list[dict[str, Any]]:
        items: list[dict[str, Any]] = []
        restore = False
        try:
            with call.home.memory_store(call.element) as store:
                return [dict(found) for found in store.verify(repair=not dry_run)]
        except LogMissing as exc:
            # The store refuses to open rather than start empty; its checkpoint still holds
            # the memories, and writing the log back from it is the repair.
            item: dict[str, Any] = {"problem": exc.message, "fixable": True}
            if dry_run:
                return [item]
            restore = True
            items.append({**item, "fixed": True, "fix": "wrote the log back from the "
                          "checkpoint (changes made after it are lost)"})
        with call.home.memory_store(call.element, restore_log=restore) as store:
            return items + [dict(found) for found in store.verify(repair=not dry_run)]
    return memory_runtime


@ops.op("source_repair", "POST", "source/repair", "write", summary="Inspect or repair Source",
        request=obj({"dry_run": {**BOOLEAN, "default": True},
                     "prune_age": {**STRING, "default": "5.minutes.ago",
                                   "description": "'now' or like '5.minutes.ago': how old "
                                                  "a dangling object must be to go"}}),
        response=obj({"dry_run": BOOLEAN, "checks": array(STRING),
                      "found": {**array(OBJECT), "description": "each with its check, the "
                                "problem and whether it is fixable"},
                      "fixed": array(OBJECT)},
                     ["dry_run", "checks", "found", "fixed"]),
        description="Dry run by default; set dry_run to false only after reviewing a "
                    "dry-run report.")
def source_repair(call: OpCall) -> OpResult:
    dry_run = call.body.get("dry_run", True)
    prune_age = call.body.get("prune_age", "5.minutes.ago")
    if not _PRUNE.fullmatch(prune_age):
        raise InvalidRequest("prune_age", "must be 'now' or like '5.minutes.ago'")
    if not dry_run:
        sync_spec(call.home, call.element, principal=call.who)
    is_memory = call.element.element_type == "memory"
    checks = [_spec_agreement(call)] + ([_memory_runtime(call)] if is_memory else [])
    report = repair(repo_of(call), dry_run=dry_run, extra_checks=checks, prune_age=prune_age)
    report["checks"] = ["head", "config", "branches", "order", "objects", "dangling", "spec"] \
        + (["memory_runtime"] if is_memory else [])
    return OpResult(report, activity=[Activity({"fixed": [f["check"] for f in report["fixed"]]})]
                    if not dry_run and report["fixed"] else ())
