"""Seed fixtures: ``.triform/fixtures/*.yaml`` manifests read from a branch.

A manifest (one YAML document per file, files read in name order; ``*.yaml``/``*.yml``
directly inside ``.triform/fixtures/``, other files ignored)::

    kind: memory                 # required: which element op receives the records
    description: seed facts      # optional, free text
    records:                     # required: a list of mappings, passed through as given
      - content: The team ships on Fridays
        category: fact
      - key: tz-pref             # optional stable key (see below), removed from the record
        content: Prefers UTC timestamps
        category: preference
        subject_type: circle_member
        subject_id: u-42

The Source layer checks only the structure (it knows nothing of memories); the caller's
op validates each record when applying. Each returned record carries a fixture ``key``:
``sha256("triform-fixture/v1", file, explicit key)`` when the record has ``key``, else
``sha256("triform-fixture/v1", file, canonical JSON of the record, n)`` where ``n`` counts
identical records earlier in the same file. Keys do not depend on a record's position, so
reordering or inserting records keeps the other keys; editing a record without an explicit
``key`` gives it a new key. Use the key as the idempotency key when applying.

Limits: ``MAX_MANIFEST_BYTES`` per file, ``MAX_MANIFESTS`` files, ``MAX_RECORDS`` records per
file; YAML anchors/aliases are refused (no "billion laughs"); timestamps are kept as strings.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Container
from pathlib import Path
from typing import Any

import yaml

from .errors import FixtureInvalid, InvalidArgument
from .repo import yaml_files
from .safe_yaml import YamlRefused, scan_yaml

__all__ = ["FIXTURES_DIR", "MAX_MANIFEST_BYTES", "MAX_MANIFESTS", "MAX_RECORDS",
           "read_fixtures", "apply_fixtures", "fixtures", "fixture_key"]

FIXTURES_DIR = ".triform/fixtures"
MAX_MANIFEST_BYTES = 1024 * 1024
MAX_MANIFESTS = 100
MAX_RECORDS = 10_000
_KIND = re.compile(r"[a-z][a-z0-9-]{0,62}")
_TOP_KEYS = {"kind", "description", "records", "version"}


class _Loader(yaml.SafeLoader):
    """SafeLoader that keeps timestamps as strings (records must be JSON-able)."""


_Loader.yaml_implicit_resolvers = {
    k: [(tag, rx) for tag, rx in v if tag != "tag:yaml.org,2002:timestamp"]
    for k, v in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


def _parse(file: str, data: bytes) -> Any:
    if len(data) > MAX_MANIFEST_BYTES:
        raise FixtureInvalid(file, f"{len(data)} bytes, over the {MAX_MANIFEST_BYTES}-byte limit")
    try:
        text = data.decode("utf-8")
        scan_yaml(text, _Loader)
        docs = list(yaml.load_all(text, Loader=_Loader))
    except UnicodeDecodeError:
        raise FixtureInvalid(file, "not UTF-8 text") from None
    except YamlRefused as e:
        raise FixtureInvalid(file, str(e)) from None
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f" at line {mark.line + 1}" if mark is not None else ""
        problem = getattr(e, "problem", None) or str(e).splitlines()[0]
        raise FixtureInvalid(file, f"invalid YAML{where}: {problem}") from None
    if len(docs) != 1:
        raise FixtureInvalid(file, f"expected one YAML document, found {len(docs)}")
    return docs[0]


def _key(*parts: str) -> str:
    h = hashlib.sha256()
    for p in ("triform-fixture/v1", *parts):
        h.update(p.encode())
        h.update(b"\x00")
    return h.hexdigest()


def fixture_key(file: str, key: str) -> str:
    """The fixture key of the record with the explicit ``key`` in the manifest ``file``
    (``.triform/fixtures/NAME.yaml``): what ``source_fixtures`` stores in a memory's
    ``metadata.fixture_key``, so an eval can name a fixture memory by ``NAME.yaml#key``."""
    return _key(file, "key", key)


def _records(file: str, doc: Any) -> list[dict[str, Any]]:
    if not isinstance(doc, dict):
        raise FixtureInvalid(file, "top level must be a mapping with 'kind' and 'records'")
    unknown = sorted(str(k) for k in doc if k not in _TOP_KEYS)
    if unknown:
        raise FixtureInvalid(file, f"unknown top-level keys: {', '.join(unknown)}")
    kind = doc.get("kind")
    if not isinstance(kind, str) or not _KIND.fullmatch(kind):
        raise FixtureInvalid(file, f"'kind' must be a lowercase name like 'memory', got {kind!r}")
    if doc.get("version", 1) != 1:
        raise FixtureInvalid(file, f"unsupported manifest version {doc.get('version')!r}")
    records = doc.get("records")
    if not isinstance(records, list):
        raise FixtureInvalid(file, "'records' must be a list")
    if len(records) > MAX_RECORDS:
        raise FixtureInvalid(file, f"{len(records)} records, over the limit of {MAX_RECORDS}")
    out: list[dict[str, Any]] = []
    seen: dict[str, int] = {}
    explicit: set[str] = set()
    for i, rec in enumerate(records):
        if not isinstance(rec, dict) or not rec:
            raise FixtureInvalid(file, f"records[{i}] must be a non-empty mapping")
        if not all(isinstance(k, str) for k in rec):
            raise FixtureInvalid(file, f"records[{i}] has a non-string field name")
        rec = dict(rec)
        own = rec.pop("key", None)
        try:
            canon = json.dumps(rec, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
        except (TypeError, ValueError) as e:
            raise FixtureInvalid(file, f"records[{i}] is not plain data: {e}") from None
        if own is not None:
            if not isinstance(own, (str, int)) or isinstance(own, bool) or str(own) == "":
                raise FixtureInvalid(file, f"records[{i}].key must be a non-empty string")
            if str(own) in explicit:
                raise FixtureInvalid(file, f"records[{i}].key {own!r} is used twice")
            explicit.add(str(own))
            key = fixture_key(file, str(own))
        else:
            n = seen.get(canon, 0)
            seen[canon] = n + 1
            key = _key(file, "record", canon, str(n))
        out.append({"file": file, "index": i, "kind": kind, "key": key, "record": rec})
    return out


def read_fixtures(path: Path | str, branch: str = "draft") -> list[dict[str, Any]]:
    """Parse every manifest of ``branch`` (draft/demo/live or a commit id).

    :return: ``[{file, index, kind, key, record}]`` in file then record order; ``[]`` when
        there is no ``.triform/fixtures`` directory.
    :raise FixtureInvalid: a malformed manifest, naming its file and what is wrong.
    """
    out: list[dict[str, Any]] = []
    for file, data in yaml_files(path, branch, FIXTURES_DIR, most=MAX_MANIFESTS,
                                 what="manifests", refuse=FixtureInvalid):
        out += _records(file, _parse(file, data))
    return out


def apply_fixtures(records: list[dict[str, Any]], apply: Callable[[dict[str, Any]], Any], *,
                   done: Container[str] = ()) -> dict[str, Any]:
    """Send each record whose ``key`` is not in ``done`` to ``apply``.

    ``apply`` receives the whole item (``kind``, ``record``, ``key``...) and should use
    ``key`` as its idempotency key. An exception from ``apply`` is recorded for that record
    and the others still run.

    :return: ``{applied: [key], skipped: [key], errors: [{key, file, index, error}]}``.
    """
    report: dict[str, Any] = {"applied": [], "skipped": [], "errors": []}
    for item in records:
        if item["key"] in done:
            report["skipped"].append(item["key"])
            continue
        try:
            apply(item)
        except Exception as e:  # one bad record must not stop the rest
            report["errors"].append({"key": item["key"], "file": item["file"],
                                     "index": item["index"], "error": str(e) or type(e).__name__})
        else:
            report["applied"].append(item["key"])
    return report


def fixtures(path: Path | str, branch: str = "draft", *, dry_run: bool = True,
             confirm: bool = False, apply: Callable[[dict[str, Any]], Any] | None = None,
             done: Container[str] = ()) -> dict[str, Any]:
    """Dry run (default): list the records. Apply: needs ``dry_run=False``, ``confirm=True``
    and an ``apply`` callback.

    :return: ``{dry_run, records, files}`` plus, when applied, ``applied``, ``skipped`` and
        ``errors`` as in ``apply_fixtures``.
    :raise InvalidArgument: applying without ``confirm`` or without ``apply``.
    :raise FixtureInvalid: a malformed manifest (nothing is applied then).
    """
    records = read_fixtures(path, branch)
    report: dict[str, Any] = {"dry_run": dry_run, "records": records,
                              "files": sorted({r["file"] for r in records})}
    if dry_run:
        return report
    if not confirm:
        raise InvalidArgument("confirm", "applying fixtures needs confirm=true")
    if apply is None:
        raise InvalidArgument("apply", "applying fixtures needs an apply callback")
    report.update(apply_fixtures(records, apply, done=done))
    return report
