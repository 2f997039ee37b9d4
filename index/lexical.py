"""The lexical signal: BM25 over what a memory says and where it was said, Snowball-stemmed.

Dense vectors of a small model miss exact words: names, places, rare terms ("Caroline",
"LGBTQ", "pottery"). BM25 catches them. Recall uses it inside the content lane
(``recall.boost_content``): measured on the LoCoMo dev split (``bench/locomo_bench.py``),
content cosine alone gives evidence recall@5 .401; with the lexical boost .58, above BM25
alone and above reciprocal rank fusion of the two.

**Situated**: a memory is indexed with its ``context`` (the conversation window it was
formed in) as a second, lighter field, BM25F-style: a term's frequency is
``CONTENT_WEIGHT`` times its count in the content plus its count in the context, and so is
the document length. So a short turn ("Yes, last Tuesday!") is found by the words of what
it answered, while a word of the memory itself still counts three times as much. On the
LoCoMo dev split this lifts evidence recall@5 from .58 to about .66 (``docs/recall.md``).

Layout: each term (a stemmed lowercase word that is not a stopword) has a postings list
of ``(label, term frequency)`` in two ``array('i')``; each label has its length in terms.
Labels are the store's slot numbers, so a score vector is indexed like every other column.
:meth:`LexicalIndex.to_arrays` / :meth:`LexicalIndex.from_arrays` give the sidecar a flat
numpy form, so a cold start loads the index instead of re-tokenizing every memory.
"""

from __future__ import annotations

import math
import re
from array import array
from collections import Counter
from collections.abc import Callable
from typing import Any

import numpy as np
import py_rust_stemmers

__all__ = ["LexicalIndex", "terms", "term_counts", "CONTENT_WEIGHT", "SCHEME", "scheme_of",
           "BM25_K1", "BM25_B", "STOPWORDS"]

# A content word counts this many times a context word (BM25F field weights 3 : 1), about
# the length ratio of a three-turn window to one turn. On the LoCoMo dev split 2 and 3
# differ by under .01 at every cut-off (3: R@1 and R@5 +.01, R@10 -.002); 1 (one flat
# text) loses .05 at R@1.
CONTENT_WEIGHT = 3
# BM25's term-frequency saturation and length normalization, the usual values; on the
# LoCoMo dev split k1 2.0 and b .5 moved recall by under .01 (``docs/recall.md``). Both
# backends score with these (``postgres/bm25.py`` in SQL).
BM25_K1 = 1.2
BM25_B = 0.75
# The indexing scheme, saved with the arrays: 3 content only (``situated=False``), 4
# content and context; 1 and 2 were the same before an apostrophe's ending was folded into
# its word (``terms``), 3 and 4 before "for a living" lost its "live" (``_IDIOM``). An index
# saved under another scheme than the one asked for is rebuilt from the records rather than
# mixed with new entries.
SCHEME = 6


def scheme_of(situated: bool) -> int:
    """The scheme of an index with the context as a second field (``situated``) or not."""
    return SCHEME if situated else SCHEME - 1

_WORD = re.compile(r"[a-z0-9]+")
# Lucene's English stopwords plus question and pronoun words: a query is often a question
# ("what did she say about...") and those words match everything.
_STOP = frozenset("""
a an and are as at be but by for if in into is it no not of on or such that the their then
there these they this to was will with i me my you your he him his she her we our us it its
what when where who whom which why how did do does done have has had am been being were
would could should can may might shall about from up down out over so than too very just
""".split())
STOPWORDS = _STOP
# The endings an apostrophe joins to a word ("Abe's", "I'm", "we've", "she'd", "don't"):
# split off as words of their own they would match every possessive and contraction, so
# "What is Abe's job?" would favour "Abe's cousin's wedding" for its two "s". A
# possessive keeps its word ("abe"), "n't" reads as "not" (a stopword), the others go, as
# Lucene's English possessive filter and contraction handling do.
# Each pattern starts at the apostrophe or a fixed word, so a long run of letters costs
# one pass (a greedy word before the apostrophe backtracked over every run: quadratic).
_NEGATED = re.compile(r"\b(ca|wo|sha)n['\u2019]t\b")
_NOT = re.compile(r"(?<=[a-z0-9])n['\u2019]t\b")
_CLITIC = re.compile(r"(?<=[a-z0-9])['\u2019](?:s|d|ll|re|ve|m)\b")
_FULL = {"ca": "can", "wo": "will", "sha": "shall"}


def _unclitic(text: str) -> str:
    """``text`` with its apostrophes' endings folded: "won't" "will not", "don't" "do
    not", "Abe's" "Abe", "I'm" "I"."""
    # Each pattern needs an apostrophe, the first two one after an "n": a pass is run only
    # when its text is there (three passes were three quarters of ``terms``'s time).
    if "'" not in text and "\u2019" not in text:
        return text
    if "n'" in text or "n\u2019" in text:
        text = _NOT.sub(" not", _NEGATED.sub(lambda found: f"{_FULL[found.group(1)]} not",
                                             text))
    return _CLITIC.sub("", text)


_STEMMER = py_rust_stemmers.SnowballStemmer("english")

#: An idiom whose content word stems into another meaning: "what do they do for a living"
#: asks a job, yet "living" stems to "live" and matched every memory of where someone
#: lives ("Osric's mum lives in Shrewsbury" first for "What does Osric do for a living?").
_IDIOM = re.compile(r"\bfor\s+a\s+living\b")


_STEMS: dict[str, str] = {}
_STEMS_MAX = 200_000


def terms(text: str) -> list[str]:
    """The index terms of ``text``: lowercase words, stopwords dropped, Snowball-stemmed."""
    lowered = text.lower()
    if "living" in lowered:
        lowered = _IDIOM.sub(" ", lowered)
    words = [w for w in _WORD.findall(_unclitic(lowered)) if w not in _STOP]
    missing = [w for w in words if w not in _STEMS]
    if missing:
        # Stemming word by word dominates a rebuild; vocabularies repeat, so cache stems.
        if len(_STEMS) > _STEMS_MAX:
            _STEMS.clear()
        _STEMS.update(zip(missing, _STEMMER.stem_words(missing), strict=True))
    return [_STEMS[w] for w in words]


def term_counts(content: str, context: str | None, situated: bool) -> Counter[str]:
    """The BM25F term frequencies of a memory: each content term ``CONTENT_WEIGHT`` times,
    plus the context's terms when ``situated`` (the memory's length is their sum)."""
    counts = Counter(terms(content))
    if not situated:
        return counts
    for term in counts:
        counts[term] *= CONTENT_WEIGHT
    if context:
        counts.update(terms(context))
    return counts


class LexicalIndex:
    """An incremental BM25 index over labelled texts (not thread-safe; the store locks)."""

    def __init__(self, k1: float = BM25_K1, b: float = BM25_B, *,
                 situated: bool = True) -> None:
        self.k1, self.b = k1, b
        self.situated = situated
        self._labels: dict[str, array[int]] = {}
        self._freqs: dict[str, array[int]] = {}
        self._length = np.zeros(1024, dtype=np.float32)
        self._live = 0
        self._total = 0
        self._written()

    def _written(self) -> None:
        """Forget the length normalisation: a write moves the average length, so every
        label's changes. ``_norm`` is BM25's ``k1 * (1 - b + b * length / average)`` of every
        label, built from the same float32 operations a search does on its postings alone,
        so its values are those bit for bit; ``_norm_debt`` counts the postings normalised
        one search at a time since the last write."""
        self._norm: np.ndarray | None = None
        self._norm_debt = 0
        # What a reader derived from one label's terms and the document frequencies
        # (``between_writes``): true until the next write, which moves the frequencies.
        self._derived: dict[int, Any] = {}

    def __len__(self) -> int:
        return self._live

    @property
    def scheme(self) -> int:
        """The indexing scheme: 4 situated (content and context), 3 content only."""
        return scheme_of(self.situated)

    def _counts(self, text: str, context: str | None) -> Counter[str]:
        return term_counts(text, context, self.situated)

    def add(self, label: int, text: str, context: str | None = None) -> None:
        """Index ``text`` (and its ``context``, the lighter field) under a new ``label``."""
        counts = self._counts(text, context)
        for term, tf in counts.items():
            self._labels.setdefault(term, array("i")).append(label)
            self._freqs.setdefault(term, array("i")).append(tf)
        if label >= len(self._length):
            grown = np.zeros(max(label + 1, 2 * len(self._length)), dtype=np.float32)
            grown[: len(self._length)] = self._length
            self._length = grown
        size = sum(counts.values())
        self._length[label] = size
        self._live += 1
        self._total += size
        self._written()

    def remove(self, label: int, text: str, context: str | None = None) -> None:
        """Forget ``label``, indexed earlier with this same ``text`` and ``context``."""
        for term in self._counts(text, context):
            labels = self._labels.get(term)
            if labels is None:
                continue
            at = np.flatnonzero(np.frombuffer(labels, dtype=np.int32) == label)
            if len(at):
                del labels[int(at[0])]
                del self._freqs[term][int(at[0])]
            if not labels:
                del self._labels[term], self._freqs[term]
        self._total -= int(self._length[label])
        self._length[label] = 0
        self._live -= 1
        self._written()

    def to_arrays(self) -> dict[str, np.ndarray]:
        """The whole index as flat arrays (terms, offsets, labels, freqs, lengths, stats)."""
        vocab = sorted(self._labels)
        sizes = np.array([len(self._labels[t]) for t in vocab], dtype=np.int64)
        offsets = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
        def flat(table: dict[str, array[int]]) -> np.ndarray:
            return (np.concatenate([np.frombuffer(table[t], dtype=np.int32) for t in vocab])
                    if vocab else np.zeros(0, dtype=np.int32))
        return {"terms": np.array(vocab, dtype=np.str_), "offsets": offsets,
                "labels": flat(self._labels), "freqs": flat(self._freqs),
                "lengths": self._length.copy(),
                "stats": np.array([self._live, self._total, self.scheme], dtype=np.int64)}

    @classmethod
    def from_arrays(cls, data: dict[str, np.ndarray], *,
                    situated: bool = True) -> LexicalIndex:
        """Rebuild an index saved by :meth:`to_arrays`.

        :raise ValueError: it was saved under another scheme than ``situated`` asks for.
        """
        stats = data["stats"]
        index = cls(situated=situated)
        if (int(stats[2]) if len(stats) > 2 else 1) != index.scheme:
            raise ValueError("the lexical index was saved under another scheme")
        offsets, labels, freqs = data["offsets"], data["labels"], data["freqs"]
        for i, term in enumerate(data["terms"].tolist()):
            lo, hi = int(offsets[i]), int(offsets[i + 1])
            index._labels[term] = array("i", labels[lo:hi].astype(np.int32).tobytes())
            index._freqs[term] = array("i", freqs[lo:hi].astype(np.int32).tobytes())
        index._length = np.array(data["lengths"], dtype=np.float32)
        index._live, index._total = int(stats[0]), int(stats[1])
        return index

    def scores(self, query: str, size: int) -> np.ndarray:
        """BM25 of every label below ``size`` for ``query`` (0 where nothing matches)."""
        if not self._live:
            return np.zeros(size, dtype=np.float64)
        found = [term for term in set(terms(query)) if term in self._labels]
        if not found:
            return np.zeros(size, dtype=np.float64)
        average = self._total / self._live or 1.0
        # Every matched term's postings at once: a handful of numpy calls per query
        # rather than a dozen per term. Each label appears once in a term's postings, and
        # ``bincount`` adds a label's contributions in the terms' order, so the sums are
        # those the per-term loop made, bit for bit.
        postings = [np.frombuffer(self._labels[term], dtype=np.int32) for term in found]
        counts = [len(at) for at in postings]
        at = np.concatenate(postings)
        tf = np.concatenate([np.frombuffer(self._freqs[term], dtype=np.int32)
                             for term in found]).astype(np.float64)
        idf = np.repeat([math.log(1.0 + (self._live - n + 0.5) / (n + 0.5)) for n in counts],
                        counts)
        norm = self._normalised(at, average)
        contribution = idf * tf * (self.k1 + 1.0) / (tf + norm)
        keep = at < size
        if not keep.all():
            at, contribution = at[keep], contribution[keep]
        out: np.ndarray = np.bincount(at, weights=contribution, minlength=size)
        return out

    def indexed(self, text: str, context: str | None = None) -> set[str]:
        """The terms ``text`` and its ``context`` are indexed under (``term_counts``'s,
        read in one pass)."""
        return set(terms(f"{text} {context}" if self.situated and context else text))

    def between_writes(self, label: int, make: Callable[[], Any]) -> Any:
        """``make()``, computed once per ``label`` until the next write: for what depends on
        the label's terms and the document frequencies alone (the hop's rare words of a top
        hit, ``hop.rare_words``), as searches between two writes ask it again."""
        found = self._derived.get(label)
        if found is None:
            found = self._derived[label] = make()
        return found

    def frequency(self, words: list[str]) -> dict[str, int]:
        """How many memories say each of ``words`` (index terms; absent: none)."""
        return {word: len(self._labels[word]) for word in words if word in self._labels}

    def matches(self, words: list[str]) -> tuple[np.ndarray, np.ndarray]:
        """The labels that say any of ``words`` (index terms, sorted), ascending, and
        their BM25 for them, as :meth:`scores` sums it (the terms in ``words``' order, as
        PostgreSQL's ``bm25.row_sql`` does): the lexical second hop's (``hop.py``), a
        few postings of rare words rather than a score of every label."""
        found = [word for word in words if word in self._labels]
        if not found or not self._live:
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float64)
        average = self._total / self._live or 1.0
        at = np.concatenate([np.frombuffer(self._labels[w], dtype=np.int32) for w in found])
        tf = np.concatenate([np.frombuffer(self._freqs[w], dtype=np.int32)
                             for w in found]).astype(np.float64)
        counts = [len(self._labels[w]) for w in found]
        idf = np.repeat([math.log(1.0 + (self._live - n + 0.5) / (n + 0.5)) for n in counts],
                        counts)
        norm = self.k1 * (1.0 - self.b + self.b * self._length[at] / average)
        labels, inverse = np.unique(at, return_inverse=True)
        summed = np.bincount(inverse, weights=idf * tf * (self.k1 + 1.0) / (tf + norm),
                             minlength=len(labels))
        return labels.astype(np.int64), summed

    def _normalised(self, at: np.ndarray, average: float) -> np.ndarray:
        """BM25's length normalisation of the labels ``at``. Searches between two writes
        share one column of every label's: it is built once the postings normalised one by
        one since the last write number as many as the labels (what the column costs), so
        a store written between every search never pays for a column it would not reuse
        (at 100,000 labels 88 us against 5 us for a search's postings), and a run of
        searches pays at most twice what it would have done one by one."""
        if self._norm is None and self._norm_debt >= len(self._length):
            self._norm = self.k1 * (1.0 - self.b + self.b * self._length / average)
        if self._norm is not None:
            shared: np.ndarray = self._norm[at]
            return shared
        self._norm_debt += len(at)
        alone: np.ndarray = self.k1 * (1.0 - self.b + self.b * self._length[at] / average)
        return alone
