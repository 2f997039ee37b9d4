"""Recall cases: ``.triform/evals/*.yaml`` read from a branch, each problem with its line.

An eval file (one YAML document; ``*.yaml``/``*.yml`` directly inside ``.triform/evals/``,
other files ignored; format in docs/evals.md)::

    description: what these cases guard      # optional
    k: 5                                     # optional: the top k of its cases (1..100)
    seed:                                    # optional: the file's own memories
      - key: ana-tea
        content: Ana prefers tea over coffee
        category: preference
    cases:
      - id: ana-drink
        query: what does Ana drink?
        expect: [{seed: ana-tea}]            # must be in the top k
        reject: [{content: coffee machine}]  # must not be

A file with ``seed`` runs over those memories only (the element layer stores them in a
scratch store, never the element's); a file without runs over the element's memories.
A target is one of ``seed: KEY`` (a memory of the file's seed), ``memory: ID`` and
``fixture: FILE#KEY`` (memories of the element) or ``content: TEXT`` (a result whose content
holds the text).

This layer checks the structure only, as it does for fixtures: what a memory's fields may
hold (categories, subjects, sizes) is the memory runtime's, checked by the element layer.
The validator (``validate.py``) runs :func:`eval_problems` on every eval file of every
pushed commit, so a malformed file is refused at push, naming the file and the line.

Limits: ``MAX_EVAL_FILES`` files, ``MAX_EVAL_BYTES`` per file, ``MAX_CASES`` cases and
``MAX_SEEDS`` seed memories per file, ``MAX_TARGETS`` targets in an expect or reject list;
YAML anchors and aliases are refused (``safe_yaml``), timestamps are kept as strings.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from yaml.constructor import SafeConstructor

from .errors import EvalInvalid
from .repo import yaml_files
from .safe_yaml import YamlRefused, scan_yaml

__all__ = ["EVALS_DIR", "MAX_EVAL_FILES", "MAX_EVAL_BYTES", "MAX_CASES", "MAX_SEEDS",
           "MAX_TARGETS", "MAX_K", "DEFAULT_K", "TARGET_KINDS", "EvalInvalid", "is_eval_file",
           "eval_problems", "parse_eval", "read_evals"]

EVALS_DIR = ".triform/evals"
MAX_EVAL_FILES = 50
MAX_EVAL_BYTES = 1024 * 1024
MAX_CASES = 500
MAX_SEEDS = 1000
MAX_TARGETS = 20
MAX_K = 100
DEFAULT_K = 5
#: What a target may name, in the order they are listed in messages.
TARGET_KINDS = ("seed", "memory", "fixture", "content")

_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")
_FIXTURE = re.compile(r"([^/#\x00]{1,255}\.ya?ml)#([^\x00]{1,200})")
_TOP = ("version", "description", "k", "seed", "cases")
_SEED = ("key", "content", "category", "subject_type", "subject_id", "context", "intention",
         "occurred_at")
_CASE = ("id", "description", "query", "context", "intention", "subject_type", "subject_id",
         "categories", "as_of", "k", "expect", "reject")
_TEXT_FIELDS = ("content", "category", "subject_type", "subject_id", "context", "intention",
                "occurred_at", "description", "query", "as_of")


class _Loader(yaml.SafeLoader):
    """SafeLoader that keeps timestamps as strings (as_of, occurred_at are ISO text)."""


_Loader.yaml_implicit_resolvers = {
    k: [(tag, rx) for tag, rx in v if tag != "tag:yaml.org,2002:timestamp"]
    for k, v in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


def is_eval_file(path: str) -> bool:
    """``path`` (relative to the repository's root) is an eval file: YAML directly inside
    ``.triform/evals/``."""
    folder, _, name = path.rpartition("/")
    return folder == EVALS_DIR and name.endswith((".yaml", ".yml")) and bool(name.strip("."))


@dataclass
class _Problems:
    """The problems found so far, each ``line N: where: reason``."""

    found: list[str] = field(default_factory=list)

    def add(self, node: yaml.Node, where: str, reason: str) -> None:
        at = f"{where}: " if where else ""
        self.found.append(f"line {node.start_mark.line + 1}: {at}{reason}")


def _plain(node: yaml.ScalarNode) -> Any:
    """A scalar node's value (its tag was resolved by :class:`_Loader`: timestamps stay
    text)."""
    return SafeConstructor().construct_object(node)


def _pairs(node: yaml.MappingNode) -> Iterator[tuple[str, yaml.Node, yaml.Node]]:
    for key, value in node.value:
        name = _plain(key) if isinstance(key, yaml.ScalarNode) else None
        yield (name if isinstance(name, str) else repr(name)), key, value


def _mapping(node: yaml.Node, where: str, allowed: tuple[str, ...], required: tuple[str, ...],
             problems: _Problems) -> dict[str, yaml.Node] | None:
    """The fields of a mapping node, or None (with a problem) when it is not one; unknown,
    repeated and missing fields are problems."""
    if not isinstance(node, yaml.MappingNode):
        problems.add(node, where, "must be a mapping")
        return None
    fields: dict[str, yaml.Node] = {}
    for name, key, value in _pairs(node):
        if name not in allowed:
            problems.add(key, where, f"{name!r} is not a field here (fields: "
                         f"{', '.join(allowed)})")
        elif name in fields:
            problems.add(key, where, f"{name!r} is given twice")
        else:
            fields[name] = value
    for name in required:
        if name not in fields:
            problems.add(node, where, f"{name!r} is required")
    return fields


def _scalar(node: yaml.Node, where: str, kind: type | tuple[type, ...], what: str,
            problems: _Problems) -> Any:
    """The node's value when it is a scalar of ``kind``, else None (with a problem)."""
    kinds = kind if isinstance(kind, tuple) else (kind,)
    value = _plain(node) if isinstance(node, yaml.ScalarNode) else None
    if not isinstance(value, kinds) or isinstance(value, bool) and bool not in kinds:
        problems.add(node, where, f"must be {what}")
        return None
    return value


def _text(node: yaml.Node, where: str, problems: _Problems) -> str | None:
    value = _scalar(node, where, str, "a string", problems)
    if isinstance(value, str) and not value.strip():
        problems.add(node, where, "must not be empty")
        return None
    return value if isinstance(value, str) else None


def _k(node: yaml.Node, where: str, problems: _Problems) -> int | None:
    value = _scalar(node, where, int, f"an integer from 1 to {MAX_K}", problems)
    if isinstance(value, int) and not 1 <= value <= MAX_K:
        problems.add(node, where, f"must be an integer from 1 to {MAX_K}")
        return None
    return value if isinstance(value, int) else None


def _list(node: yaml.Node, where: str, most: int, problems: _Problems
          ) -> list[yaml.Node]:
    if not isinstance(node, yaml.SequenceNode):
        problems.add(node, where, "must be a list")
        return []
    if len(node.value) > most:
        problems.add(node, where, f"{len(node.value)} items, over the limit of {most}")
        return []
    return list(node.value)


def _lines(fields: dict[str, yaml.Node]) -> dict[str, int]:
    """Each field's line, so a later check names the line of the value it refuses."""
    return {name: value.start_mark.line + 1 for name, value in fields.items()}


def _seed(node: yaml.Node, where: str, problems: _Problems) -> dict[str, Any] | None:
    fields = _mapping(node, where, _SEED, ("key", "content", "category"), problems)
    if fields is None:
        return None
    seed: dict[str, Any] = {"line": node.start_mark.line + 1, "lines": _lines(fields)}
    for name, value in fields.items():
        seed[name] = _text(value, f"{where}.{name}", problems)
    key = seed.get("key")
    if isinstance(key, str) and not _NAME.fullmatch(key):
        problems.add(fields["key"], f"{where}.key", "must be a name of letters, digits, "
                     "'.', '_' and '-' (at most 64 characters)")
    return seed


def _target(node: yaml.Node, where: str, seeds: dict[str, Any] | None,
            problems: _Problems) -> dict[str, Any] | None:
    fields = _mapping(node, where, TARGET_KINDS, (), problems)
    if fields is None:
        return None
    if len(fields) != 1:
        problems.add(node, where, "must name exactly one of " + ", ".join(TARGET_KINDS))
        return None
    (kind, value), = fields.items()
    text = _text(value, f"{where}.{kind}", problems)
    if text is None:
        return None
    line = value.start_mark.line + 1
    if kind == "seed":
        if seeds is None:
            problems.add(value, f"{where}.seed", "this file has no seed memories: name a "
                         "memory, a fixture or content")
        elif text not in seeds:
            problems.add(value, f"{where}.seed", f"{text!r} is no key of this file's seed")
    elif kind in ("memory", "fixture") and seeds is not None:
        problems.add(value, f"{where}.{kind}", f"a {kind} is one of the element's memories, "
                     "but this file's cases run over its seed memories only: name a seed")
    elif kind == "fixture" and not _FIXTURE.fullmatch(text):
        problems.add(value, f"{where}.fixture", "must be FILE#KEY: a manifest of "
                     ".triform/fixtures/ and a record's key (e.g. people.yaml#ana-tea)")
    return {"kind": kind, "value": text, "line": line}


def _case(node: yaml.Node, where: str, seeds: dict[str, Any] | None,
          problems: _Problems) -> dict[str, Any] | None:
    fields = _mapping(node, where, _CASE, ("id", "query"), problems)
    if fields is None:
        return None
    case: dict[str, Any] = {"line": node.start_mark.line + 1, "lines": _lines(fields),
                            "expect": [], "reject": []}
    for name, value in fields.items():
        at = f"{where}.{name}"
        if name == "k":
            case["k"] = _k(value, at, problems)
        elif name == "categories":
            case["categories"] = [_text(item, f"{at}[{i}]", problems)
                                  for i, item in enumerate(_list(value, at, 5, problems))]
        elif name in ("expect", "reject"):
            targets = _list(value, at, MAX_TARGETS, problems)
            case[name] = [_target(item, f"{at}[{i}]", seeds, problems)
                          for i, item in enumerate(targets)]
        else:
            case[name] = _text(value, at, problems)
    if isinstance(case.get("id"), str) and not _NAME.fullmatch(case["id"]):
        problems.add(fields["id"], f"{where}.id", "must be a name of letters, digits, '.', "
                     "'_' and '-' (at most 64 characters)")
    if "expect" not in fields and "reject" not in fields:
        problems.add(node, where, "needs 'expect' or 'reject': what must (or must not) "
                     "come back")
    return case


def _document(file: str, data: bytes, problems: _Problems) -> yaml.Node | None:
    if len(data) > MAX_EVAL_BYTES:
        problems.found.append(f"{len(data)} bytes, over the {MAX_EVAL_BYTES}-byte limit")
        return None
    try:
        text = data.decode("utf-8")
        scan_yaml(text, _Loader)
        nodes = list(yaml.compose_all(text, Loader=_Loader))
    except UnicodeDecodeError:
        problems.found.append("not UTF-8 text")
        return None
    except YamlRefused as exc:
        problems.found.append(str(exc))
        return None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}: " if mark is not None else ""
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        problems.found.append(f"{where}invalid YAML: {problem}")
        return None
    if len(nodes) != 1:
        problems.found.append(f"expected one YAML document, found {len(nodes)}")
        return None
    return nodes[0]


def _parse(file: str, data: bytes) -> tuple[dict[str, Any] | None, list[str]]:
    problems = _Problems()
    root = _document(file, data, problems)
    if root is None:
        return None, problems.found
    fields = _mapping(root, "", _TOP, ("cases",), problems)
    if fields is None:
        return None, problems.found
    parsed: dict[str, Any] = {"file": file, "description": None, "k": DEFAULT_K,
                              "seed": None, "cases": []}
    version = fields.get("version")
    if version is not None and (not isinstance(version, yaml.ScalarNode)
                                or _plain(version) != 1):
        problems.add(version, "version", "must be 1 (the only format so far)")
    if "description" in fields:
        parsed["description"] = _text(fields["description"], "description", problems)
    if "k" in fields:
        parsed["k"] = _k(fields["k"], "k", problems) or DEFAULT_K
    seeds: dict[str, Any] | None = None
    if "seed" in fields:
        seeds = {}
        parsed["seed"] = []
        for i, item in enumerate(_list(fields["seed"], "seed", MAX_SEEDS, problems)):
            seed = _seed(item, f"seed[{i}]", problems)
            if seed is None:
                continue
            key = seed.get("key")
            if isinstance(key, str) and key in seeds:
                problems.add(item, f"seed[{i}].key", f"{key!r} is used twice")
            elif isinstance(key, str):
                seeds[key] = seed
            parsed["seed"].append(seed)
    cases = _list(fields["cases"], "cases", MAX_CASES, problems) if "cases" in fields else []
    if "cases" in fields and isinstance(fields["cases"], yaml.SequenceNode) and not cases \
            and not problems.found:
        problems.add(fields["cases"], "cases", "must hold at least one case")
    ids: set[str] = set()
    for i, item in enumerate(cases):
        case = _case(item, f"cases[{i}]", seeds, problems)
        if case is None:
            continue
        if isinstance(case.get("id"), str):
            if case["id"] in ids:
                problems.add(item, f"cases[{i}].id", f"{case['id']!r} is used twice")
            ids.add(case["id"])
        parsed["cases"].append(case)
    return (None if problems.found else parsed), sorted(problems.found, key=_line_of)


def _line_of(problem: str) -> int:
    found = re.match(r"line (\d+):", problem)
    return int(found[1]) if found else 0


def eval_problems(file: str, data: bytes) -> list[str]:
    """What is wrong with the eval file ``file`` holding ``data``: ``line N: where:
    reason`` each (empty: it is well formed). Pure: the validator calls it per blob."""
    return _parse(file, data)[1]


def parse_eval(file: str, data: bytes) -> dict[str, Any]:
    """One eval file: ``{file, description, k, seed: [..] or None, cases: [..]}``, each seed
    and case with its ``line`` and each of its fields' (``lines``), each case's
    ``expect``/``reject`` targets ``{kind, value, line}``.

    :raise EvalInvalid: naming the file and its first problem's line.
    """
    parsed, problems = _parse(file, data)
    if parsed is None:
        more = f" (+{len(problems) - 1} more)" if len(problems) > 1 else ""
        raise EvalInvalid(file, problems[0] + more)
    return parsed


def read_evals(path: Path | str, rev: str = "draft") -> list[dict[str, Any]]:
    """Every eval file of ``rev`` (draft/demo/live or a commit id), in name order, parsed
    by :func:`parse_eval`; ``[]`` when the commit has no ``.triform/evals``.

    :raise EvalInvalid: a malformed file, or too many of them.
    """
    return [parse_eval(file, data) for file, data in yaml_files(
        path, rev, EVALS_DIR, most=MAX_EVAL_FILES, what="eval files", refuse=EvalInvalid)]
