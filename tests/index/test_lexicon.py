"""The lexicon: WordNet's nouns compacted, and the three questions readings ask of it."""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from index import Lexicon, lexicon, use_lexicon_at
from index.lexicon_provision import compact_wordnet

# A small WordNet in its own file format: a licence header, then one synset a line
# (offset, lexicographer file, pos, lemma count in hex, lemmas with lex ids, pointers, gloss).
LICENCE = "  1 This software and database is being provided to you, the LICENSEE.\n"
SYNSETS = [
    # offset, lemmas, hypernym offsets
    (100, ["entity"], []),
    (200, ["instrument", "musical_instrument"], [100]),
    (300, ["stringed_instrument"], [200]),
    (400, ["violin", "fiddle"], [300]),
    (500, ["cello", "violoncello"], [300]),
    (600, ["beverage", "drink"], [100]),
    (700, ["tea"], [600]),
    (800, ["pony"], [100]),
]


def _data_noun() -> bytes:
    lines = [LICENCE]
    for offset, lemmas, ups in SYNSETS:
        words = " ".join(f"{lemma} 0" for lemma in lemmas)
        pointers = " ".join(f"@ {up:08d} n 0000" for up in ups)
        lines.append(f"{offset:08d} 06 n {len(lemmas):02x} {words} {len(ups):03d} "
                     f"{pointers} | a gloss\n")
    return "".join(lines).encode("latin-1")


def _index_noun() -> bytes:
    senses: dict[str, list[int]] = {}
    for offset, lemmas, _ in SYNSETS:
        for lemma in lemmas:
            senses.setdefault(lemma, []).append(offset)
    senses["pony"] = [800, 400]   # a second, rarer sense: the word's second synset
    lines = [LICENCE]
    for lemma, offsets in sorted(senses.items()):
        lines.append(f"{lemma} n {len(offsets)} 1 @ {len(offsets)} 0 "
                     + " ".join(f"{o:08d}" for o in offsets) + "  \n")
    return "".join(lines).encode("latin-1")


@pytest.fixture
def small() -> Lexicon:
    return Lexicon(compact_wordnet(_data_noun(), _index_noun()))


def test_a_word_is_a_kind_of_its_hypernyms_and_of_itself(small: Lexicon) -> None:
    assert small.is_a("cello", "instrument") is True
    assert small.is_a("cello", "musical instrument") is True
    assert small.is_a("violoncello", "cello") is True
    assert small.is_a("tea", "instrument") is False
    assert small.is_a("tea", "drink") is True


def test_plurals_are_read_as_their_lemma(small: Lexicon) -> None:
    assert small.is_a("cellos", "instrument") is True
    assert small.is_a("ponies", "entity") is True
    assert small.same_thing("fiddles", "violin") is True


def test_a_word_it_does_not_know_answers_none(small: Lexicon) -> None:
    assert small.is_a("padel", "instrument") is None
    assert small.kinship("Brompton", "violin") is None
    assert small.same_thing("cello", "") is None
    assert not small.knows("Corsa")


def test_kinship_is_the_nearest_shared_kind(small: Lexicon) -> None:
    near = small.kinship("cello", "violin")
    assert near is not None
    assert (near.steps, near.kind, near.depth) == (2, "stringed instrument", 2)
    far = small.kinship("tea", "cello")
    assert far is not None and far.kind == "entity" and far.depth == 0
    assert small.kinship("tea", "tea") == small.kinship("tea", "tea")
    assert small.kinds("cello")[:3] == ["cello", "stringed instrument", "instrument"]


def test_kind_of_is_how_far_a_word_lies_under_its_kind(small: Lexicon) -> None:
    under = small.kind_of("cello", "instrument")
    assert under is not None and (under.steps, under.kind) == (2, "instrument")
    assert small.kind_of("cello", "cello") == small.kind_of("violoncello", "cello")
    assert small.kind_of("instrument", "cello") is None    # the kind is no kind of the word
    assert small.kind_of("tea", "instrument") is None
    assert small.kind_of("Brompton", "instrument") is None


def test_only_a_words_first_senses_count(small: Lexicon) -> None:
    # "pony"'s second sense is a violin here: the first SENSES (3) senses all count
    assert small.same_thing("pony", "fiddle") is True


@pytest.fixture
def lexicon_folder() -> Iterator[None]:
    state = importlib.import_module("index.lexicon")   # the module: index.lexicon is the accessor
    saved = state._folder
    yield
    state._folder = saved


def test_no_lexicon_where_none_is_provisioned(tmp_path: Path, lexicon_folder: None) -> None:
    use_lexicon_at(tmp_path)
    assert lexicon() is None


def test_the_real_wordnet(wordnet: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    assert wordnet.is_a("cello", "instrument") is True
    assert wordnet.is_a("espresso", "drink") is True
    assert wordnet.same_thing("bike", "bicycle") is True
    kin = wordnet.kinship("trumpet", "trombone")
    assert kin is not None and kin.steps <= 2 and kin.depth >= 5
    unrelated = wordnet.kinship("practice", "jigsaw")
    assert unrelated is not None and unrelated.depth <= 1
    assert wordnet.is_a("padel", "sport") is None
    assert lexicon() is not None
    monkeypatch.setenv("TRIFORM_LEXICON", "off")
    assert lexicon() is None
