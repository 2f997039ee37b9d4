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

from .occupation import job_first, tells_job
from .profile_bank import ATTRIBUTES, RELATIONS

__all__ = ["as_job", "best_answers", "names_anyone", "told_job"]

#: The bank's attributes asked of another person of the subject's.
_ANOTHER = np.array([a.another for a in ATTRIBUTES], dtype=bool)

_WORD = re.compile(r"[a-z]+")


def names_anyone(text: str | None) -> bool:
    """Whether a memory names a person of the subject's by a word of
    ``profile_bank.RELATIONS`` ("sister", "boss", "twins", "family"), possessive or not."""
    return any(w in RELATIONS for w in _WORD.findall((text or "").lower()))


#: How far above its best other answer a job told by its grammar is read.
JOB_LEAD = 0.05
#: The subject's name opening a memory ("Osric is a postman in Derby"): left out before the
#: grammar reads what is said of them.
_OPENING_NAME = re.compile(r"^\s*(?-i:[A-Z])[\w'-]*\s+")


def told_job(text: str | None) -> bool:
    """Whether a memory opening on its subject's name tells, by its grammar, what the
    subject does for a living ("Osric is a postman in Derby"; ``occupation.tells_job``)."""
    said = _OPENING_NAME.sub("", text or "", count=1)
    return said != (text or "") and tells_job(said)


def as_job(rows: np.ndarray, texts: Sequence[str | None]) -> np.ndarray:
    """``rows`` (``profile_bank.attribute_scores`` of the memories ``texts``) with the job
    answered best, :data:`JOB_LEAD` above the rest, where a memory tells what its subject
    does for a living by its grammar (``occupation.tells_job``): the small model reads "is a
    postman in Derby" as a home (the place it names) and "drives delivery vans for Ocado" as
    a car, and asked "What is Osric's job?", "Osric's mum lives in Shrewsbury" ranked first.
    Not of a memory that opens on a person of the subject's ("Osric's mum works at ...")."""
    out = np.array(rows, copy=True)
    for k, text in enumerate(texts):
        if told_job(text):
            out[k] = job_first(out[k], JOB_LEAD)
    return out


def best_answers(rows: np.ndarray, texts: Sequence[str | None]) -> np.ndarray:
    """Each row's best attribute of the bank (``rows``: ``profile_bank.attribute_scores``
    of the memories ``texts``): its argmax, but of a memory naming no person of the
    subject's (:func:`names_anyone`), over the subject's own attributes only."""
    top: np.ndarray = rows.argmax(axis=1)
    for k, t in enumerate(top):
        if _ANOTHER[t] and not names_anyone(texts[k]):
            top[k] = int(np.where(_ANOTHER, -np.inf, rows[k]).argmax())
    return top
