"""A subject's value of the asked attribute that no result holds joins them (issue 23).

Asked a single-valued attribute of a person ("What car does Osric drive?"), the search
can answer with none of their memories that holds it: the one that does is worded
unlike the question ("The new Corsa arrived on Friday") and scores under the relevance
threshold, while the person's background ("Osric's mum lives in Shrewsbury") or nothing
at all is found. Of the subject's rows not chosen (``Ranked.under``) the best that
answers the asked attribute plainly then joins the results
(:func:`join_unanswered`, called by ``answers_under.join_under``, both backends):
beside the subject's first result, or after the results when the subject has none.

Joining claims what the score did not find, and a joined memory that does not answer
the question is noise a user sees first, so only a plain answer joins:

- a job told by its grammar ("Osric is a postman in Derby", ``own_answer.told_job``) and
  answering the job best of the bank;
- or, asked clearly (not faintly, ``asked.Asked.faint``: "Does Delphine have an
  allotment?" nears a medication by chance, and "Delphine cannot stand coriander"
  answers that plainly), any single-valued attribute the bank reads clearly and with a
  margin: the asked attribute is the row's best answer of the subject's own attributes,
  :data:`CLEAR_Z` deviations above the row's mean and :data:`LEAD` ahead of its second
  answer ("cannot stand coriander" nears a diet and an allergy alike: it answers
  neither plainly);
- never of a subject that already has a result answering the attribute (what the older
  value's join, ``answers_under.join_under``, is for), never another person's value
  (``recency.answering``), a past, a wish, an ending or an addition
  (``answers_under.told_now``). A past event is a value only when it tells a holding
  begun (``told.BEGUN``: "the new Corsa arrived", "picked up the keys to", "first week
  at"): a trip, a hire, a visit told as an event ("spent a weekend in Edinburgh") is no
  value of now.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .asked import Asked
from .own_answer import as_job, best_answers, told_job
from .profile_bank import ATTRIBUTES, attribute_scores

__all__ = ["CLEAR_Z", "LEAD", "join_unanswered", "plainly"]

#: How many deviations above the row's mean the asked attribute must be for a row to
#: join by the bank alone (``recency.ANSWERS_Z`` reads a value among the results at 1.0;
#: a row the search did not choose must answer more plainly).
CLEAR_Z = 2.0
#: How far (in deviations) the asked attribute must lead the row's second answer of the
#: subject's own attributes.
LEAD = 0.5

#: The bank's attributes asked of another person of the subject's.
_ANOTHER = np.array([a.another for a in ATTRIBUTES], dtype=bool)


def plainly(vectors: Sequence[np.ndarray], texts: Sequence[str | None],
            question: Asked) -> list[bool]:
    """Whether each row (its unit content vector, its words) answers the asked attribute
    plainly: a job told by its grammar, or the bank's best answer by :data:`CLEAR_Z` and
    :data:`LEAD` (the module docstring)."""
    if not len(vectors):
        return []
    rows = as_job(attribute_scores(np.stack([np.asarray(v, dtype=np.float32)
                                             for v in vectors]), question.questions), texts)
    top = best_answers(rows, texts)
    job = ATTRIBUTES[question.attribute].name == "job"
    out = []
    for k, text in enumerate(texts):
        if int(top[k]) != question.attribute:
            out.append(False)
            continue
        if job and told_job(text):
            out.append(True)
            continue
        if question.faint:  # a guess ("Does Delphine have an allotment?" nears a
            out.append(False)   # medication by chance): the bank's reading alone is not
            continue            # enough to claim a row the score did not find
        spread = max(float(rows[k].std()), 1e-6)
        z = (rows[k] - rows[k].mean()) / spread
        own = np.where(_ANOTHER | (np.arange(len(z)) == question.attribute), -np.inf, z)
        out.append(bool(z[question.attribute] >= CLEAR_Z and
                        z[question.attribute] - float(own.max()) >= LEAD))
    return out


def join_unanswered(vectors: Sequence[np.ndarray | None], owners: Sequence[Any],
                    contents: Sequence[str | None], chosen: int, question: Asked,
                    values: Sequence[bool], best: Sequence[bool], rest: frozenset[int],
                    joins: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The ``(row, beside)`` pairs of the subjects none of whose results answers the
    single-valued attribute asked (``values``, ``joins``: the older values' joins): each
    one's best row not chosen among ``rest`` (the rows whose words may make them a value
    of now) that answers it best of the bank (``best``, another person's value never) and
    plainly (:func:`plainly`), beside the subject's first result, or at ``chosen`` (after
    the results) when the subject has none."""
    answered = {owners[i] for i in range(chosen) if values[i]} | {owners[u] for u, _ in joins}
    candidates: dict[Any, int] = {}
    for u in sorted(rest):
        subject = owners[u]
        if subject is None or subject in answered or subject in candidates or not best[u] \
                or vectors[u] is None:
            continue
        candidates[subject] = u
    if not candidates:
        return []
    rows = list(candidates.values())
    clear = plainly([vectors[u] for u in rows],  # type: ignore[misc]
                    [contents[u] for u in rows], question)
    out: list[tuple[int, int]] = []
    for u, ok in zip(rows, clear, strict=True):
        if ok:
            first = next((i for i in range(chosen) if owners[i] == owners[u]), chosen)
            out.append((u, first))
    return out
