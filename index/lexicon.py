"""WordNet's nouns as bounded world knowledge: what kind of thing a word names.

The embedding model knows words only by the company they keep: a cello and a violin score
.5, but so do a bike and a Golf, and a plot and an allotment score .19. WordNet 3.0 (its
nouns, provisioned once per machine by ``lexicon_provision.py`` into the model cache) says
what a noun *is*: a cello is a bowed stringed instrument, like a violin; tea is a beverage;
a practice and a jigsaw have nothing nearer in common than "entity". Readings ask three
things of it:

- :meth:`Lexicon.is_a`: is a word a kind of another ("cello" is an "instrument")?
- :meth:`Lexicon.kinship`: the nearest kind two words share, and how far up it lies.
- :meth:`Lexicon.same_thing`: do two words name one thing (a synonym, "bike"/"bicycle")?

Each answers ``None`` for a word WordNet does not know (brand names, "padel"): a reading
then falls back on what it did without the lexicon. Only a word's first senses count
(``SENSES``), WordNet's order being by frequency, so "pony" is a horse before it is a crib.

:func:`lexicon` is the process's one instance, loaded on first use from the folder
:func:`use_lexicon_at` named (the server's model cache), else the default model cache;
``None`` when it is not provisioned or ``TRIFORM_LEXICON=off``.
"""

from __future__ import annotations

import json
import os
import threading
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

__all__ = ["Kinship", "Lexicon", "lexicon", "use_lexicon_at", "LEXICON_DIR_NAME",
           "LEXICON_FILE", "LEXICON_ID", "SENSES"]

LEXICON_ID = "wordnet-3.0-nouns"
LEXICON_DIR_NAME = "wordnet-3.0"
LEXICON_FILE = "lexicon.json"
#: How many of a word's senses count: WordNet lists them most frequent first.
SENSES = 3
#: WordNet's rules for a plural noun's lemma (``morphy``), tried when the word is not a lemma.
_PLURAL_ENDINGS = (("ses", "s"), ("xes", "x"), ("zes", "z"), ("ches", "ch"), ("shes", "sh"),
                   ("men", "man"), ("ies", "y"), ("s", ""))


@dataclass(frozen=True)
class Kinship:
    """The nearest kind two words share: ``steps`` up from both (their sum), the kind's name,
    and its ``depth`` below WordNet's root ("entity" is 0; a general kind lies shallow)."""

    steps: int
    kind: str
    depth: int


class Lexicon:
    """WordNet's noun hierarchy, read from the compact file the provisioning writes."""

    def __init__(self, data: dict[str, Any]) -> None:
        self._lemmas: dict[str, list[int]] = data["lemmas"]
        self._hypernyms: list[list[int]] = data["hypernyms"]
        self._names: list[str] = data["names"]
        self._depths: list[int] = data["depths"]
        self._ancestors = lru_cache(maxsize=65536)(self._ancestors_of)

    @classmethod
    def load(cls, folder: Path) -> Lexicon:
        with open(Path(folder) / LEXICON_FILE, encoding="utf-8") as handle:
            return cls(json.load(handle))

    def knows(self, word: str) -> bool:
        return bool(self.senses(word))

    def senses(self, word: str) -> list[int]:
        """The synsets of a noun (first ``SENSES``), lemmatised as WordNet's morphy does."""
        key = "_".join(word.lower().replace("-", " ").split())
        if not key:
            return []
        found = self._lemmas.get(key)
        if found is None:
            for ending, lemma in _PLURAL_ENDINGS:
                if key.endswith(ending) and len(key) > len(ending) + 1:
                    found = self._lemmas.get(key[: len(key) - len(ending)] + lemma)
                    if found is not None:
                        break
        return list(found[:SENSES]) if found else []

    def is_a(self, word: str, kind: str, senses: int = SENSES) -> bool | None:
        """Whether ``word`` names a kind of ``kind`` (or ``kind`` itself) in one of its first
        ``senses`` senses; ``None`` when WordNet knows either word not."""
        mine, kinds = self.senses(word)[:senses], self._all_senses(kind)
        if not mine or not kinds:
            return None
        return any(k in self._ancestors(s) for s in mine for k in kinds)

    def kind_of(self, word: str, kind: str) -> Kinship | None:
        """How ``word`` is a kind of ``kind`` (:meth:`is_a`): the nearest sense of ``kind``
        above one of ``word``'s first senses, as steps up, its name and its depth; ``None``
        when it is none, or WordNet knows either word not."""
        best: tuple[int, int, int] | None = None
        kinds = set(self._all_senses(kind))
        for s in self.senses(word):
            for node, steps in self._ancestors(s).items():
                if node in kinds and (best is None or (steps, -self._depths[node]) < best[:2]):
                    best = (steps, -self._depths[node], node)
        if best is None:
            return None
        return Kinship(best[0], self._names[best[2]].replace("_", " "), -best[1])

    def kinship(self, a: str, b: str) -> Kinship | None:
        """The nearest kind ``a`` and ``b`` share (fewest steps, then the deepest kind), or
        ``None`` when WordNet knows either word not."""
        first, second = self.senses(a), self.senses(b)
        if not first or not second:
            return None
        best: tuple[int, int, int] | None = None
        for s in first:
            up_a = self._ancestors(s)
            for t in second:
                up_b = self._ancestors(t)
                for node, steps in up_a.items():
                    other = up_b.get(node)
                    if other is None:
                        continue
                    key = (steps + other, -self._depths[node], node)
                    if best is None or key < best:
                        best = key
        if best is None:   # two roots apart: WordNet 3.0's nouns share "entity"
            return None
        return Kinship(best[0], self._names[best[2]].replace("_", " "), -best[1])

    def same_thing(self, a: str, b: str) -> bool | None:
        """Whether ``a`` and ``b`` share a synset among their first senses ("bike" and
        "bicycle", "rabbit" and "bunny"); ``None`` when WordNet knows either word not."""
        first, second = self.senses(a), self.senses(b)
        if not first or not second:
            return None
        return bool(set(first) & set(second))

    def kinds(self, word: str) -> list[str]:
        """The names of every kind ``word`` is, nearest first (for readers and debugging)."""
        seen: dict[int, int] = {}
        for s in self.senses(word):
            for node, steps in self._ancestors(s).items():
                seen[node] = min(steps, seen.get(node, steps))
        return [self._names[n].replace("_", " ")
                for n, _ in sorted(seen.items(), key=lambda item: (item[1], item[0]))]

    def _all_senses(self, word: str) -> list[int]:
        key = "_".join(word.lower().split())
        return self._lemmas.get(key) or self.senses(word)

    def _ancestors_of(self, synset: int) -> dict[int, int]:
        """Every hypernym of ``synset`` (itself included) with its fewest steps up."""
        found = {synset: 0}
        frontier = [synset]
        steps = 0
        while frontier:
            steps += 1
            nxt = []
            for node in frontier:
                for up in self._hypernyms[node]:
                    if up not in found:
                        found[up] = steps
                        nxt.append(up)
            frontier = nxt
        return found


_lock = threading.Lock()
_folder: Path | None = None
_loaded: dict[Path, Lexicon | None] = {}


def use_lexicon_at(cache_dir: Path) -> None:
    """Load the lexicon from ``cache_dir`` (a model cache) from now on."""
    global _folder
    _folder = Path(cache_dir) / LEXICON_DIR_NAME


def lexicon() -> Lexicon | None:
    """The process's lexicon, or ``None`` when it is not provisioned or turned off."""
    if os.environ.get("TRIFORM_LEXICON", "").strip().lower() in ("off", "0", "no", "false"):
        return None
    folder = _folder
    if folder is None:
        from .model import default_cache_dir
        folder = default_cache_dir() / LEXICON_DIR_NAME
    if folder in _loaded:
        return _loaded[folder]
    with _lock:
        if folder not in _loaded:
            from .provision import is_provisioned
            found = None
            if is_provisioned(folder, model=LEXICON_ID, needed=(LEXICON_FILE,)):
                try:
                    found = Lexicon.load(folder)
                except (OSError, ValueError, KeyError):
                    found = None
            _loaded[folder] = found
        return _loaded[folder]
