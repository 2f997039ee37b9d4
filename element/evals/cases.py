"""A commit's recall cases, checked as the memory runtime would check them.

``source.read_evals`` parses ``.triform/evals/*.yaml`` and checks its structure (the
validator refuses a malformed file at push). What only the memory layer knows is checked
here, each problem with its file and line: a seed memory is a valid store (category,
subject, sizes, ``occurred_at``), a case's subject, categories and texts are a valid search,
``as_of`` is a date-time. ``push_reasons`` runs :func:`eval_reasons` on a pushed draft, so
these problems are refused at push too.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from index import (CATEGORIES, MAX_CONTEXT_BYTES, MAX_INTENTION_BYTES, MAX_QUERY_BYTES,
                   InvalidCategory, StoreError, validate_new, validate_subject)
from source import EvalInvalid, SourceError, read_evals

__all__ = ["Target", "Case", "Suite", "load_suites", "eval_reasons", "case_name"]


@dataclass(frozen=True)
class Target:
    """What a case expects (or rejects): ``kind`` (seed, memory, fixture, content) and its
    value."""

    kind: str
    value: str
    line: int

    @property
    def name(self) -> str:
        return f"{self.kind}:{self.value}"


@dataclass(frozen=True)
class Case:
    """One recall case: a search, and what must (``expect``) and must not (``reject``) be in
    its top ``k``."""

    id: str
    line: int
    k: int
    search: dict[str, Any]          # the search's arguments (query, context, subject...)
    as_of: float | None             # the moment its time phrases are read from
    expect: tuple[Target, ...]
    reject: tuple[Target, ...]


@dataclass
class Suite:
    """The cases of one eval file, and its seed memories (None: the element's memories)."""

    file: str
    cases: list[Case]
    seeds: list[dict[str, Any]] | None = None
    #: ``commit``: the file as the evaluated commit has it; ``kept``: cases a promotion's
    #: target has and the candidate dropped (gates.py still runs them).
    origin: str = "commit"


def case_name(file: str, case_id: str) -> str:
    """``recall.yaml#ana-drink``: how answers, activity and errors name a case."""
    return f"{file.rsplit('/', 1)[-1]}#{case_id}"


def _bytes_over(value: Any, limit: int) -> bool:
    return isinstance(value, str) and len(value.encode()) > limit


def _line(item: dict[str, Any], field: str | None) -> int:
    """The line of ``item``'s ``field`` (the item's own when it has none)."""
    return int(item["lines"].get(field, item["line"]) if field else item["line"])


def _seed_problems(seed: dict[str, Any], where: str) -> list[str]:
    try:
        validate_new(content=seed["content"], category=seed["category"],
                     subject_type=seed.get("subject_type"), subject_id=seed.get("subject_id"),
                     context=seed.get("context"), intention=seed.get("intention"),
                     agent=None, source="fixture", metadata=None, idempotency_key=None,
                     occurred_at=seed.get("occurred_at"))
    except InvalidCategory as exc:
        return [f"line {_line(seed, 'category')}: {where}: {exc.message}"]
    except StoreError as exc:
        return [f"line {_line(seed, getattr(exc, 'field', None))}: {where}: {exc.message}"]
    return []


def _as_of(text: str) -> float:
    """:raise ValueError: not an ISO-8601 date or date-time."""
    parsed = datetime.fromisoformat(text.strip())
    return (parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)).timestamp()


def _case_problems(case: dict[str, Any], where: str) -> list[str]:
    def at(field: str | None) -> str:
        return f"line {_line(case, field)}: {where}" + (f".{field}" if field else "")
    found: list[str] = []
    try:
        validate_subject(case.get("subject_type"), case.get("subject_id"))
    except StoreError as exc:
        field = getattr(exc, "field", None)
        found.append(f"{at(field if field in case['lines'] else None)}: {exc.message}")
    for category in case.get("categories") or []:
        if category not in CATEGORIES:
            found.append(f"{at('categories')}: {category!r} is not one of "
                         f"{', '.join(CATEGORIES)}")
    for name, limit in (("query", MAX_QUERY_BYTES), ("context", MAX_CONTEXT_BYTES),
                        ("intention", MAX_INTENTION_BYTES)):
        if _bytes_over(case.get(name), limit):
            found.append(f"{at(name)}: over {limit} bytes of UTF-8")
    if case.get("as_of") is not None:
        try:
            _as_of(case["as_of"])
        except ValueError:
            found.append(f"{at('as_of')}: {case['as_of']!r} is not an ISO-8601 date-time")
    return found


def _problems(parsed: dict[str, Any]) -> list[str]:
    found: list[str] = []
    for i, seed in enumerate(parsed["seed"] or []):
        found += _seed_problems(seed, f"seed[{i}]")
    for i, case in enumerate(parsed["cases"]):
        found += _case_problems(case, f"cases[{i}]")
    return found


def _suite(parsed: dict[str, Any]) -> Suite:
    cases = []
    for raw in parsed["cases"]:
        search = {name: raw[name] for name in ("query", "context", "intention",
                                               "subject_type", "subject_id", "categories")
                  if raw.get(name) is not None}
        cases.append(Case(
            id=raw["id"], line=raw["line"], k=raw.get("k") or parsed["k"], search=search,
            as_of=_as_of(raw["as_of"]) if raw.get("as_of") else None,
            expect=tuple(Target(t["kind"], t["value"], t["line"]) for t in raw["expect"]),
            reject=tuple(Target(t["kind"], t["value"], t["line"]) for t in raw["reject"])))
    return Suite(parsed["file"], cases, parsed["seed"])


def load_suites(repo: Path, commit: str) -> list[Suite]:
    """The eval files of ``commit``, checked whole.

    :raise EvalInvalid: a file is malformed or holds what a store or a search would refuse,
        naming the file and the line.
    """
    suites = []
    for parsed in read_evals(repo, commit):
        problems = _problems(parsed)
        if problems:
            more = f" (+{len(problems) - 1} more)" if len(problems) > 1 else ""
            raise EvalInvalid(parsed["file"], problems[0] + more)
        suites.append(_suite(parsed))
    return suites


def eval_reasons(repo: Path, commit: str) -> list[str]:
    """Why ``commit``'s eval files would be refused, ``FILE: line N: ...`` each (empty:
    none). A structural problem is the validator's to report (it names each commit), so
    this reports only what passes it and the memory runtime would refuse."""
    try:
        parsed_files = read_evals(repo, commit)
    except SourceError:
        return []
    return [f"{parsed['file']}: {problem}" for parsed in parsed_files
            for problem in _problems(parsed)]
