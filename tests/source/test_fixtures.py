"""source/fixtures.py: manifests from a branch, stable keys, clear errors."""

from __future__ import annotations

import pytest

from source.errors import FixtureInvalid, InvalidArgument
from source.fixtures import apply_fixtures, fixtures, read_fixtures
from source.repo import commit_files

SEED = b"""\
kind: memory
description: seed facts
records:
  - content: The team ships on Fridays
    category: fact
  - key: tz
    content: Prefers UTC timestamps
    category: preference
    subject_type: circle_member
    subject_id: u-42
    metadata: {since: 2024-01-02}
"""


def _put(path, files):
    commit_files(path, {f".triform/fixtures/{k}": v for k, v in files.items()}, message="fx")


def test_no_fixtures_dir(make_repo) -> None:
    assert read_fixtures(make_repo()) == []


def test_records_and_keys(make_repo) -> None:
    path = make_repo()
    _put(path, {"10-seed.yaml": SEED, "README.md": b"ignored", "20-more.yml":
                b"kind: memory\nrecords: []\n"})
    recs = read_fixtures(path)
    assert [(r["file"], r["index"], r["kind"]) for r in recs] == [
        (".triform/fixtures/10-seed.yaml", 0, "memory"),
        (".triform/fixtures/10-seed.yaml", 1, "memory")]
    assert recs[0]["record"] == {"content": "The team ships on Fridays", "category": "fact"}
    assert "key" not in recs[1]["record"]
    assert recs[1]["record"]["metadata"] == {"since": "2024-01-02"}   # not a datetime
    assert len({r["key"] for r in recs}) == 2 and all(len(r["key"]) == 64 for r in recs)
    # stable across reads, reorderings and insertions; other branches unaffected
    keys = [r["key"] for r in recs]
    assert [r["key"] for r in read_fixtures(path)] == keys
    _put(path, {"10-seed.yaml": b"kind: memory\nrecords:\n  - {content: new, category: fact}\n"
                b"  - {category: fact, content: The team ships on Fridays}\n"
                b"  - {key: tz, content: edited, category: preference}\n"})
    new_keys = [r["key"] for r in read_fixtures(path)]
    assert new_keys[1] == keys[0] and new_keys[2] == keys[1] and new_keys[0] not in keys
    assert read_fixtures(path, "live") == []


def test_duplicate_records_get_distinct_keys(make_repo) -> None:
    path = make_repo()
    _put(path, {"a.yaml": b"kind: memory\nrecords:\n  - {content: x}\n  - {content: x}\n"})
    a, b = read_fixtures(path)
    assert a["key"] != b["key"]


@pytest.mark.parametrize("body,needle", [
    (b"kind: memory\nrecords: [\n", "invalid YAML at line"),
    (b"- 1\n- 2\n", "top level must be a mapping"),
    (b"records: []\n", "'kind' must be"),
    (b"kind: Memory!\nrecords: []\n", "'kind' must be"),
    (b"kind: memory\n", "'records' must be a list"),
    (b"kind: memory\nrecords: [1]\n", "records[0] must be a non-empty mapping"),
    (b"kind: memory\nrecords: [{}]\n", "records[0] must be a non-empty mapping"),
    (b"kind: memory\nrecords: []\nextra: 1\n", "unknown top-level keys: extra"),
    (b"kind: memory\nversion: 2\nrecords: []\n", "unsupported manifest version"),
    (b"kind: memory\nrecords:\n - {key: a, content: x}\n - {key: a, content: y}\n",
     "used twice"),
    (b"a: &x [1]\nkind: memory\nrecords: [{content: *x}]\n", "aliases are not allowed"),
    (b"kind: memory\nrecords: []\n---\nkind: memory\nrecords: []\n", "one YAML document"),
    (b"\xff\xfe", "not UTF-8"),
    (b"kind: memory\nrecords: [{1: x}]\n", "non-string field name"),
])
def test_malformed_manifest_names_file(make_repo, body: bytes, needle: str) -> None:
    path = make_repo()
    _put(path, {"bad.yaml": body, "a-good.yaml": b"kind: memory\nrecords: []\n"})
    with pytest.raises(FixtureInvalid) as e:
        read_fixtures(path)
    assert e.value.file == ".triform/fixtures/bad.yaml"
    assert needle in e.value.reason and e.value.code == "SOURCE_FIXTURE_INVALID"
    assert e.value.error_class == "validation"


def test_dry_run_and_apply_is_idempotent_with_keys(make_repo) -> None:
    path = make_repo()
    _put(path, {"seed.yaml": SEED})
    report = fixtures(path)
    assert report["dry_run"] and len(report["records"]) == 2 and "applied" not in report
    with pytest.raises(InvalidArgument):
        fixtures(path, dry_run=False)
    store: dict[str, dict] = {}

    def apply(item: dict) -> None:
        if item["record"]["category"] == "preference" and "fail" in store:
            raise ValueError("bad category")
        store.setdefault(item["key"], item["record"])

    first = fixtures(path, dry_run=False, confirm=True, apply=apply)
    assert len(first["applied"]) == 2 and first["errors"] == []
    second = fixtures(path, dry_run=False, confirm=True, apply=apply, done=store.keys())
    assert second["applied"] == [] and len(second["skipped"]) == 2
    store["fail"] = {}
    third = apply_fixtures(read_fixtures(path), apply)
    assert len(third["errors"]) == 1 and third["errors"][0]["error"] == "bad category"
    assert third["errors"][0]["file"] == ".triform/fixtures/seed.yaml"
