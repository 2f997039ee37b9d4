"""The docs name only what exists: every repository path (a file or a folder of this tree),
every ``triform`` command and action, and every ``make`` target they mention in code, and
design.md's HTTP table names every op. The command lines themselves are run by
tests/journeys/test_docs_commands.py; this test is the cheap half, for the names a doc
gives in prose, tables and synopses, which no shell runs.
"""

from __future__ import annotations

import argparse
import re
import subprocess
from pathlib import Path

import pytest

from api.cli import build_parser
from tests.helpers import ROOT

#: docs/reference/ holds copies of outside documents, verbatim: not ours to keep true.
DOCS = sorted({ROOT / "README.md", ROOT / "CONTRIBUTING.md", ROOT / "bench" / "README.md",
               ROOT / "clients" / "python" / "README.md",
               *(p for p in (ROOT / "docs").rglob("*.md") if "reference" not in p.parts)})
#: Folders of the tree a doc may name a path in (the leading word of the path).
TOP = ("api", "element", "source", "index", "tests", "bench", "docs", "clients", ".triform",
       ".ci")
#: A path: a top folder, then path characters, naming a file (an extension) or a folder
#: (a trailing slash). ``element/ops/<topic>.py`` and globs are patterns, not paths.
_TOPS = "|".join(re.escape(top) for top in TOP)
PATH = re.compile(r"(?<![\w./~$@-])((?:" + _TOPS + r")/[\w./-]*(?:\.[a-z]{1,5}|/))(?![\w<{*])")
CODE = re.compile(r"^```(?:sh|text)\n(.*?)^```$|`([^`]+)`", re.S | re.M)
#: The global options that take a value (skipped when reading a command's name).
VALUED = {"--home", "--database", "--model-cache", "--embedder", "--token"}


def ignored(paths: list[str]) -> set[str]:
    """The paths git ignores (output of a script, such as bench/out/)."""
    done = subprocess.run(["git", "check-ignore", "--no-index", "--stdin"], cwd=ROOT,
                          input="\n".join(paths), capture_output=True, text=True)
    return set(done.stdout.split())


def named_paths(doc: Path) -> list[tuple[int, str]]:
    text = doc.read_text()
    return [(text.count("\n", 0, m.start()) + 1, m.group(1)) for m in PATH.finditer(text)]


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_path_a_doc_names_exists(doc: Path) -> None:
    named = named_paths(doc)
    generated = ignored([path for _, path in named])
    missing = [f"{doc.relative_to(ROOT)}:{line}: {path}" for line, path in named
               if path not in generated and not (ROOT / path).exists()]
    assert missing == []


def _commands() -> dict[str, set[str]]:
    """Each command of ``triform`` and its actions (empty: it has none)."""
    def choices(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                return dict(action.choices)
        return {}
    return {name: set(choices(sub)) for name, sub in choices(build_parser()).items()}


def command_lines(doc: Path) -> list[tuple[int, list[str]]]:
    """The words after each ``triform`` in the doc's code (spans and sh/text fences)."""
    text = doc.read_text()
    found = []
    for m in CODE.finditer(text):
        code, start = (m.group(1), m.start(1)) if m.group(1) is not None \
            else (m.group(2), m.start(2))
        # A shell comment is prose (blanked to its length: line numbers stay right).
        code = re.sub(r"(?:^|(?<=\s))#[^\n]*", lambda c: " " * len(c.group(0)), code)
        for hit in re.finditer(r"(?<![\w./@-])triform(?![\w.-])", code):
            rest = code[hit.end():].split("\n\n")[0]
            if m.group(1) is not None:          # a fence: the command ends with its line
                rest = re.split(r"(?<!\\)\n", rest)[0]
            rest = re.sub(r"\[[^\]]*\]", " ", rest)
            found.append((text.count("\n", 0, start + hit.start()) + 1, rest.split()[:8]))
    return found


def unknown(words: list[str], commands: dict[str, set[str]]) -> str | None:
    """What in ``triform WORDS`` is no command or action (None: all known)."""
    names: list[str] = []
    skip = False
    for word in words:
        if skip or word.startswith("-"):
            skip = not skip and word in VALUED
            continue
        if not re.fullmatch(r"[a-z][a-z|-]*", word):
            break
        names.append(word)
        if len(names) == 2 or not commands.get(names[0].split("|")[0]):
            break
    if not names:
        return None
    for command in names[0].split("|"):
        if command not in commands:
            return command
        if len(names) > 1 and commands[command]:
            bad = [a for a in names[1].split("|") if a not in commands[command]]
            if bad:
                return f"{command} {bad[0]}"
    return None


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_command_a_doc_names_exists(doc: Path) -> None:
    commands = _commands()
    wrong = [f"{doc.relative_to(ROOT)}:{line}: triform {' '.join(words)} ({bad})"
             for line, words in command_lines(doc)
             if (bad := unknown(words, commands)) is not None]
    assert wrong == []
    targets = set(re.findall(r"^([\w.-]+):", (ROOT / "Makefile").read_text(), re.M))
    named = {t for code in re.findall(r"`make ([\w-]+)", doc.read_text()) for t in [code]}
    assert named <= targets, sorted(named - targets)


def test_the_checks_catch_what_does_not_exist(tmp_path: Path) -> None:
    doc = tmp_path / "bad.md"
    doc.write_text("See `api/nowhere.py` and element/ops/ and `element/ops/<topic>.py`.\n"
                   "Run `triform memory frobnicate demo/memory` or `triform --home H "
                   "restore --from B`, never `triform fly`.\n")
    assert [p for _, p in named_paths(doc)] == ["api/nowhere.py", "element/ops/"]
    commands = _commands()
    assert [unknown(words, commands) for _, words in command_lines(doc)] == \
        ["memory frobnicate", None, "fly"]


def test_design_names_every_op() -> None:
    from element import registry
    text = (ROOT / "docs" / "design.md").read_text()
    section = text[text.index("## 4. HTTP API"):text.index("## 5.")]
    missing = [name for name in registry().ops
               if not re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", section)]
    assert missing == []
