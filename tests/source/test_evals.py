"""source/evals.py: eval files read from a commit, every problem with its file and line,
refused by the validator like any other refused content."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from source import (EvalInvalid, eval_problems, fixture_key, is_eval_file, parse_eval,
                    promote, read_evals, read_fixtures, resolve_rev, validate)
from source.errors import InvalidArgument
from source.repo import commit_files

GOOD = b"""\
description: team facts
k: 3
seed:
  - key: ana-tea
    content: Ana prefers tea over coffee
    category: preference
    occurred_at: 2024-05-14
  - key: ben-lyon
    content: Ben lives in Lyon
    category: fact
cases:
  - id: ana-drink
    query: what does Ana drink?
    as_of: 2024-06-01
    expect: [{seed: ana-tea}]
    reject:
      - content: Lyon
  - id: ben-city
    query: where does Ben live?
    k: 1
    expect: [{seed: ben-lyon}]
"""


def test_a_file_parses_with_the_line_of_each_case_and_target() -> None:
    parsed = parse_eval(".triform/evals/team.yaml", GOOD)
    assert parsed["k"] == 3 and parsed["description"] == "team facts"
    assert [s["key"] for s in parsed["seed"]] == ["ana-tea", "ben-lyon"]
    assert parsed["seed"][0]["occurred_at"] == "2024-05-14"      # timestamps stay text
    first, second = parsed["cases"]
    assert (first["id"], first["line"], first["as_of"]) == ("ana-drink", 12, "2024-06-01")
    assert first["expect"] == [{"kind": "seed", "value": "ana-tea", "line": 15}]
    assert first["reject"] == [{"kind": "content", "value": "Lyon", "line": 17}]
    assert second["k"] == 1 and second["line"] == 18


@pytest.mark.parametrize(("body", "expected"), [
    (b"cases:\n  - id: a\n    query: q\n    expect: [{seed: x}]\n",
     "line 4: cases[0].expect[0].seed: this file has no seed memories"),
    (b"seed:\n  - {key: s, content: c, category: fact}\ncases:\n"
     b"  - id: a\n    query: q\n    expect: [{seed: t}]\n",
     "line 6: cases[0].expect[0].seed: 't' is no key of this file's seed"),
    (b"seed:\n  - {key: s, content: c, category: fact}\ncases:\n"
     b"  - id: a\n    query: q\n    expect: [{memory: abc}]\n",
     "line 6: cases[0].expect[0].memory: a memory is one of the element's memories"),
    (b"cases:\n  - id: a\n    query: q\n    expect: [{fixture: people}]\n",
     "line 4: cases[0].expect[0].fixture: must be FILE#KEY"),
    (b"cases:\n  - id: a\n    query: q\n    expect: [{content: x, seed: y}]\n",
     "line 4: cases[0].expect[0]: must name exactly one of seed, memory, fixture, content"),
    (b"cases:\n  - id: a\n    query: q\n", "line 2: cases[0]: needs 'expect' or 'reject'"),
    (b"cases:\n  - id: a\n    expect: [{content: x}]\n", "line 2: cases[0]: 'query' is required"),
    (b"cases:\n  - id: a\n    query:\n    expect: [{content: x}]\n",
     "line 3: cases[0].query: must be a string"),
    (b"cases:\n  - id: a\n    query: q\n    k: 0\n    reject: [{content: x}]\n",
     "line 4: cases[0].k: must be an integer from 1 to 100"),
    (b"cases:\n  - id: a\n    query: q\n    k: true\n    reject: [{content: x}]\n",
     "line 4: cases[0].k: must be an integer from 1 to 100"),
    (b"cases:\n  - {id: a, query: q, reject: [{content: x}]}\n"
     b"  - {id: a, query: r, reject: [{content: x}]}\n",
     "line 3: cases[1].id: 'a' is used twice"),
    (b"cases:\n  - {id: 'a b', query: q, reject: [{content: x}]}\n",
     "line 2: cases[0].id: must be a name"),
    (b"cases:\n  - {id: a, query: q, qeury: r, reject: [{content: x}]}\n",
     "line 2: cases[0]: 'qeury' is not a field here"),
    (b"seed:\n  - {key: s, content: c}\ncases:\n  - {id: a, query: q, reject: [{seed: s}]}\n",
     "line 2: seed[0]: 'category' is required"),
    (b"cases: []\n", "line 1: cases: must hold at least one case"),
    (b"cases:\n  - {id: a, query: q, reject: [{content: x}]\n",
     "line 3: invalid YAML"),
    (b"base: &b {id: a, query: q, reject: [{content: x}]}\ncases: [*b]\n",
     "YAML anchors and aliases are not allowed (line 1)"),
    (b"- just a list\n", "line 1: must be a mapping"),
    (b"version: 2\ncases:\n  - {id: a, query: q, reject: [{content: x}]}\n",
     "line 1: version: must be 1"),
    (b"\xff\xfe", "not UTF-8 text"),
])
def test_each_problem_names_its_line(body: bytes, expected: str) -> None:
    problems = eval_problems(".triform/evals/x.yaml", body)
    assert any(expected in problem for problem in problems), problems
    with pytest.raises(EvalInvalid) as raised:
        parse_eval(".triform/evals/x.yaml", body)
    assert raised.value.message.startswith(".triform/evals/x.yaml: ")
    assert raised.value.error_class == "validation"


def test_problems_come_in_line_order() -> None:
    body = b"cases:\n  - {id: a, query: q}\n  - {id: b, query: q, k: 0, reject: []}\nx: 1\n"
    lines = [int(p.split(":")[0].removeprefix("line ")) for p in
             eval_problems(".triform/evals/x.yaml", body)]
    assert lines == sorted(lines) and lines[-1] == 4


@given(st.text(max_size=300))
def test_any_text_is_answered_with_problems_never_an_exception(text: str) -> None:
    problems = eval_problems(".triform/evals/x.yaml", text.encode())
    assert all(isinstance(p, str) and p for p in problems)


def test_which_paths_are_eval_files() -> None:
    assert is_eval_file(".triform/evals/team.yaml") and is_eval_file(".triform/evals/a.yml")
    assert not is_eval_file(".triform/evals/README.md")
    assert not is_eval_file(".triform/evals/old/team.yaml")
    assert not is_eval_file("evals/team.yaml")


def test_read_evals_reads_a_commit_in_name_order(make_repo) -> None:
    path = make_repo()
    assert read_evals(path, "draft") == []
    before = resolve_rev(path, "draft")
    commit_files(path, {".triform/evals/b.yaml": GOOD, ".triform/evals/a.yml": GOOD,
                        ".triform/evals/notes.md": b"not an eval",
                        ".triform/evals/old/c.yaml": b"ignored: [\n"}, message="evals")
    assert [e["file"] for e in read_evals(path, "draft")] == [
        ".triform/evals/a.yml", ".triform/evals/b.yaml"]
    assert read_evals(path, before) == []


def test_the_validator_refuses_a_malformed_eval_file_with_its_line(make_repo) -> None:
    path = make_repo()
    commit_files(path, {".triform/evals/team.yaml": GOOD}, message="good")
    assert validate(path, "draft") == []
    bad = GOOD.replace(b"{seed: ben-lyon}", b"{seed: ben-paris}")
    commit_files(path, {".triform/evals/team.yaml": bad}, message="bad")
    [finding] = validate(path, "draft")
    assert finding["path"] == ".triform/evals/team.yaml" and finding["kind"] == "eval"
    assert finding["reason"].startswith("line 21: cases[1].expect[0].seed: 'ben-paris'")
    with pytest.raises(EvalInvalid, match=r"team.yaml: line 21"):
        read_evals(path, "draft")


def test_fixture_key_is_the_key_a_manifest_gives_its_record(make_repo) -> None:
    path = make_repo()
    commit_files(path, {".triform/fixtures/people.yaml": b"kind: memory\nrecords:\n"
                        b"  - {key: ana-tea, content: Ana drinks tea, category: fact}\n"},
                 message="fixtures")
    [record] = read_fixtures(path, "draft")
    assert record["key"] == fixture_key(".triform/fixtures/people.yaml", "ana-tea")


def test_promote_moves_exactly_the_commit_it_is_given(make_repo) -> None:
    path = make_repo()
    checked = commit_files(path, {"a.txt": b"a"}, message="checked")
    commit_files(path, {"b.txt": b"b"}, message="pushed meanwhile")
    moved = promote(path, "demo", commit=checked)
    assert moved["promoted"] and moved["commit"] == checked
    assert resolve_rev(path, "demo") == checked != resolve_rev(path, "draft")
    with pytest.raises(InvalidArgument, match="is not a commit of demo"):
        promote(path, "live", commit=resolve_rev(path, "draft"))
    with pytest.raises(InvalidArgument):
        promote(path, "live", commit="not-hex")
