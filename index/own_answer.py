"""What a memory answers best of the profile bank, read as whose it can be (issue 23).

``recency.answering`` takes a result as the asked attribute's value when that attribute
is its best answer of the bank (``profile_bank.py``); that decides which of a subject's
results go first (``recency._answers_first``), and which newer values join from under
the threshold (``answers_under.py``). The bank's attributes asked of another person of
the subject's (``profile_bank.Attribute.another``: their manager, child, doctor, family,
friends) are never answered by a description of the subject itself, yet a memory's
whole vector nears them by the job or the place it tells: "Bartholomew is a junior
accountant at a small firm" answered "Who is their manager?" (2.56 deviations up) a
little above "What is their job?" (2.51), so asked "What is Bartholomew's job?" as of the
month it held, a knitting class ranked first. A memory that names no person of the
subject's (no word of ``profile_bank.RELATIONS``) is read without those attributes
(:func:`best_answers`): its best answer is the subject's own attribute it nears most.
A memory that names one ("Omar's boss is strict", "the twins started at Oakfield
Academy") is read whole, as before.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

from .profile_bank import ATTRIBUTES, RELATIONS

__all__ = ["best_answers", "names_anyone"]

#: The bank's attributes asked of another person of the subject's.
_ANOTHER = np.array([a.another for a in ATTRIBUTES], dtype=bool)

_WORD = re.compile(r"[a-z]+")


def names_anyone(text: str | None) -> bool:
    """Whether a memory names a person of the subject's by a word of
    ``profile_bank.RELATIONS`` ("sister", "boss", "twins", "family"), possessive or not."""
    return any(w in RELATIONS for w in _WORD.findall((text or "").lower()))


def best_answers(rows: np.ndarray, texts: Sequence[str | None]) -> np.ndarray:
    """Each row's best attribute of the bank (``rows``: ``profile_bank.attribute_scores``
    of the memories ``texts``): its argmax, but of a memory naming no person of the
    subject's (:func:`names_anyone`), over the subject's own attributes only."""
    top: np.ndarray = rows.argmax(axis=1)
    for k, t in enumerate(top):
        if _ANOTHER[t] and not names_anyone(texts[k]):
            top[k] = int(np.where(_ANOTHER, -np.inf, rows[k]).argmax())
    return top
