"""element/catalog/evals.py: eval runs kept beside their element, in SQLite and in
PostgreSQL (the ``catalog_at`` fixture opens each), copied whole by ``triform migrate`` and
backups. Real databases; nothing mocked."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from element.catalog import Catalog, Element, copy_catalog, now_iso
from element.catalog.evals import KEEP_RUNS

Opener = Callable[[Path], Catalog]


def memory(slug: str) -> Element:
    stamp = now_iso()
    return Element(id=f"id-{slug}", path=f"demo/{slug}", circle="demo", slug=slug, name=slug,
                   element_type="memory", form="atom", parent_id=None, state="ready",
                   description=None, properties={}, meta={}, version=1, created_at=stamp,
                   updated_at=stamp)


def summary(cases: int, passed: int, **scores: Any) -> dict[str, Any]:
    rate = passed / cases if cases else None
    return {"cases": cases, "passed": passed, "pass_rate": rate,
            "recall_at_k": scores.get("recall", rate), "mrr": scores.get("mrr", rate),
            "failing": [f"team.yaml#c{i}" for i in range(cases - passed)]}


def record(catalog: Catalog, element: Element, branch: str, commit: str,
           run: dict[str, Any], trigger: str = "eval") -> None:
    catalog.evals.record(element.id, branch=branch, commit=commit, summary=run,
                         trigger=trigger, principal="member", at=now_iso())


def test_runs_are_kept_per_branch_newest_first(catalog_at: Opener, tmp_path: Path) -> None:
    catalog = catalog_at(tmp_path / "home")
    a, b = memory("a"), memory("b")
    for element in (a, b):
        catalog.insert_element(element, {}, "v1")
    record(catalog, a, "draft", "c1", summary(4, 2))
    record(catalog, a, "live", "c0", summary(4, 4))
    record(catalog, a, "draft", "c2", summary(4, 3), trigger="promotion")
    record(catalog, b, "draft", "c9", summary(0, 0))
    runs = catalog.evals.runs(a.id)
    assert [(r["branch"], r["commit"]) for r in runs] == [("draft", "c2"), ("live", "c0"),
                                                          ("draft", "c1")]
    assert runs[0]["trigger"] == "promotion" and runs[0]["failing"] == ["team.yaml#c0"]
    assert [r["commit"] for r in catalog.evals.runs(a.id, branch="draft")] == ["c2", "c1"]
    latest = catalog.evals.latest([a.id, b.id, "id-none"])
    assert {k: v["commit"] for k, v in latest[a.id].items()} == {"draft": "c2", "live": "c0"}
    assert latest[a.id]["draft"]["pass_rate"] == 0.75
    assert latest[b.id]["draft"]["pass_rate"] is None and latest["id-none"] == {}


def test_each_element_keeps_its_newest_runs_only(catalog_at: Opener, tmp_path: Path) -> None:
    catalog = catalog_at(tmp_path / "home")
    a, b = memory("a"), memory("b")
    for element in (a, b):
        catalog.insert_element(element, {}, "v1")
    record(catalog, b, "draft", "kept", summary(1, 1))
    for i in range(KEEP_RUNS + 5):
        record(catalog, a, "draft", f"c{i}", summary(1, 1))
    runs = catalog.evals.runs(a.id, limit=KEEP_RUNS + 10)
    assert len(runs) == KEEP_RUNS and runs[0]["commit"] == f"c{KEEP_RUNS + 4}"
    assert runs[-1]["commit"] == "c5"
    assert [r["commit"] for r in catalog.evals.runs(b.id)] == ["kept"]


def test_an_elements_runs_go_with_it(catalog_at: Opener, tmp_path: Path) -> None:
    catalog = catalog_at(tmp_path / "home")
    a = memory("a")
    catalog.insert_element(a, {}, "v1")
    record(catalog, a, "draft", "c1", summary(2, 2))
    catalog.delete_element(a.id)
    assert catalog.evals.runs(a.id) == []


def test_a_copied_catalog_holds_the_runs_and_records_more(catalog_at: Opener,
                                                          tmp_path: Path) -> None:
    (tmp_path / "files").mkdir()
    source = Catalog(tmp_path / "files" / "catalog.db")
    a = memory("a")
    source.insert_element(a, {}, "v1")
    for i in range(3):
        record(source, a, "draft", f"c{i}", summary(3, i))
    target = catalog_at(tmp_path / "target")
    report = copy_catalog(source, target)
    assert report["verified"] and report["tables"]["eval_runs"]["rows"] == 3
    assert [r["commit"] for r in target.evals.runs(a.id)] == ["c2", "c1", "c0"]
    record(target, a, "live", "c3", summary(3, 3))      # its own numbering goes on after
    assert target.evals.runs(a.id)[0]["commit"] == "c3"
    assert copy_catalog(source, target)["tables"]["eval_runs"]["replaced"] == 4
    source.close()
