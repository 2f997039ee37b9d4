"""The lazy spec mirror notices every move of draft, though it remembers the spec blob
between requests (element/spec/mirror.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from element import Home
from source import SPEC_PATH, commit_files, read_spec
from tests.helpers import start_home


@pytest.fixture
def home(tmp_path: Path) -> Iterator[Home]:
    with start_home(tmp_path / "home", "hashing") as opened:
        opened.init("demo")
        yield opened


def _commit_threshold(home: Home, value: float, *, pack: bool = False) -> None:
    """Move draft as another process would: straight in git, no op, no after_push."""
    element = home.catalog.element_at("demo/memory")
    repo = home.repo_path(element)
    spec = read_spec(repo, branch="draft") or {}
    spec.setdefault("properties", {})["relevance_threshold"] = value
    commit_files(repo, {SPEC_PATH: yaml.safe_dump(spec).encode()}, message="threshold")
    if pack:
        import subprocess
        subprocess.run(["git", "--git-dir", str(repo), "pack-refs", "--all"], check=True)


@pytest.mark.parametrize("pack", [False, True])
def test_a_draft_moved_behind_the_service_is_mirrored_on_the_next_op(home, pack):
    element = home.catalog.element_at("demo/memory")
    for value in (0.25, 0.75, 0.5):
        before = home.properties_for(element, "draft")       # remembered from here on
        _commit_threshold(home, value, pack=pack)
        after = home.properties_for(home.catalog.element_at("demo/memory"), "draft")
        assert after["relevance_threshold"] == value
        assert before.get("relevance_threshold") != value
        # Asked again with nothing changed, it answers the same without a new version.
        version = home.catalog.element_at("demo/memory").version
        assert home.properties_for(element, "draft")["relevance_threshold"] == value
        assert home.catalog.element_at("demo/memory").version == version


@pytest.mark.parametrize("pack", [False, True])
def test_a_row_read_with_its_mirror_state_is_not_trusted_after_draft_moved(home, pack):
    """The op path reads the element's row with its mirror state once a request
    (``Catalog.element_at_mirrored``) and the mirror trusts that pair: a draft moved after
    the row was read, and mirrored meanwhile by another request, still governs."""
    home.properties_for(home.catalog.element_at("demo/memory"), "draft")   # a mirror row
    for value in (0.25, 0.75):
        early = home.catalog.element_at_mirrored("demo/memory")
        assert early.mirror is not None and early.mirror["blob"]
        _commit_threshold(home, value, pack=pack)
        other = home.properties_for(home.catalog.element_at_mirrored("demo/memory"), "draft")
        assert other["relevance_threshold"] == value               # another request's
        assert home.properties_for(early, "draft")["relevance_threshold"] == value
    # Read after the move, the pair answers without a new version.
    version = home.catalog.element_at("demo/memory").version
    fresh = home.catalog.element_at_mirrored("demo/memory")
    assert home.properties_for(fresh, "draft")["relevance_threshold"] == 0.75
    assert home.catalog.element_at("demo/memory").version == version
