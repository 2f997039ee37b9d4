"""Which memory the state an event leaves replaces (``begun.py`` reads the state: "Had my
first day at Sainsbury's" -> "works at Sainsbury's"): the speaker's one one-fact memory of a
*single-valued* attribute (``index.ATTRIBUTES``) that the memory answers best and the
result answers among its best (``profile.ANCHOR_GAP``), naming a value the memory lacks; a
thing acquired only when the bank reads it clearly as one kind (:data:`POSSESSION_MARGIN`).
Two such memories: none (the event may be of either). One model call at most.

Split from ``begun.py``, which reads grammar; this reads the pool and the profile bank.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from index import ATTRIBUTES, Embedder

from .begun import results
from .decisions import Pool
from .meaning import MEANING_POOL
from .profile import ANCHOR_GAP, ANSWERS_MIN, profiles, values, whose
from .updates import FACT_WORDS, Memory, content_terms, first_person, is_event

__all__ = ["POSSESSION_MARGIN", "POSSESSION_MIN", "anchored_target", "begun_target",
           "pool_target"]


def begun_target(source: str, pool: Pool, who: str, skip: list[str]) -> dict[str, Any] | None:
    """The speaker's memory the state an event of ``source`` leaves replaces (see the
    module's docstring), or None. One model call at most."""
    return pool_target(results(source, who), pool, who, skip)


def pool_target(told: Sequence[str], pool: Pool, who: str,
                skip: list[str]) -> dict[str, Any] | None:
    """The memory of the pool's newest (``MEANING_POOL``) that results ``told`` (plain
    third-person statements) replace (:func:`anchored_target`), or None; one model call
    at most, none when nothing is told."""
    if not told:
        return None
    embedder = pool.embedder()
    if embedder is None:
        return None
    try:
        return anchored_target(told, pool.memories()[:MEANING_POOL], who, embedder, skip)
    except Exception:   # a failing model finds nothing: the statement is added
        return None


#: A memory of the club one plays for: "plays centre-back for Hythe Town", "is the
#: goalkeeper for Penrith AFC", "plays in goal for Hythe".
_PLAYS_FOR = re.compile(r"\b(?:plays|is\s+(?:the|a|an)\s+[\w-]+|turns\s+out)\s+(?:[\w-]+\s+){0,2}?"
                        r"(?:for|with)\s+(?:the\s+)?(?-i:[A-Z])", re.I)


def _own_fact(content: str, who: str) -> bool:
    """A one-fact memory of the speaker's own, not a past event nor a story."""
    said = first_person(content, who)
    return len(said) == 1 and len(said[0].split()) <= FACT_WORDS and \
        not is_event(said[0]) and whose(said[0]) == ""


def _new_value(told: str, held: str, who: str) -> bool:
    """Whether the result ``told`` gives ``held`` (a memory) a new value: a name or a number
    it lacks, the memory naming one too; or, for what one became ("is partner"), a role in
    words the memory lacks."""
    if values(told, who):
        return bool(values(held, who)) and bool(values(told, who) - values(held, who))
    role = re.sub(rf"^{re.escape(who)}\s+(?:is|works\s+(?:as|at|in)|studies\s+at)\s+", "",
                  told)
    return role != told and not content_terms(role, who) <= content_terms(held, who)


#: The least answer of a thing acquired ("has a Google Pixel 8") to its attribute, and by
#: how much it must beat the next: a thing of the kind the bank asks about reads as that
#: kind well ahead of any other (all-MiniLM-L6-v2: a Pixel 8 a phone .50 against .39, a
#: Skoda Octavia estate a car .36 against .26, a MacBook a computer .52 against .28), a
#: thing bought beside it near two kinds at once (an Apple Watch: phone .30, computer .29;
#: a PlayStation: computer .40, phone .39; a Fitbit .33, .30; an iPad .35, .30).
POSSESSION_MIN = ANSWERS_MIN
POSSESSION_MARGIN = 0.06


def _possession(scores: np.ndarray, single: np.ndarray | None = None) -> bool:
    """Whether a thing's answers to the bank (``Profile.scores``) read it clearly as of one
    attribute's kind (:data:`POSSESSION_MIN`, :data:`POSSESSION_MARGIN`), among the
    attributes one holds one of (``single``, a mask; all when None): what competes is
    another thing one could hold in its place (a phone against a computer), not a hobby a
    word of its name recalls ("a Kia Sportage": a car .47, sport .42, many-valued)."""
    held = scores if single is None else scores[single]
    best, second = np.sort(held)[::-1][:2]
    return float(best) >= POSSESSION_MIN and float(best - second) >= POSSESSION_MARGIN


def anchored_target(told: Sequence[str], memories: Iterable[Memory], who: str,
                    embedder: Embedder, skip: Iterable[str] = ()) -> Memory | None:
    """The one memory whose single-valued attribute a result of ``told`` takes a new value
    of: the speaker's one-fact memory naming a value the result lacks, answering the bank
    at least ``ANSWERS_MIN``, whose best attributes (within ``ANCHOR_GAP`` of its best) hold
    a single-valued one the result also answers among its best. Two such memories: none
    (the event may be of either)."""
    avoid = set(skip)
    pool = [m for m in memories if m["id"] not in avoid and _own_fact(m["content"], who)]
    possible = [[i for i, m in enumerate(pool) if _new_value(t, m["content"], who)]
                for t in told]
    if not any(possible):
        return None
    for t, may in zip(told, possible, strict=True):
        # A club signed for: the club one plays for, one at a time whatever the sport's
        # attribute holds (the bank's "sport" is many-valued: tennis and golf).
        if t.startswith(f"{who} plays for ") and \
                len(clubs := [pool[i] for i in may if _PLAYS_FOR.search(pool[i]["content"])]) == 1:
            return clubs[0]
    used = sorted({i for found in possible for i in found})
    read = profiles(list(told) + [pool[i]["content"] for i in used], who, embedder)
    olds = dict(zip(used, read[len(told):], strict=True))
    single = np.array([a.single for a in ATTRIBUTES])
    for t, new, may in zip(told, read, possible, strict=False):
        if new.scores is None or float(new.scores.max()) < ANSWERS_MIN:
            continue
        if t.startswith(f"{who} has ") and not _possession(new.scores, single):
            continue    # a thing got beside the one held: a watch, earbuds, a tablet
        near = new.scores >= float(new.scores.max()) - ANCHOR_GAP
        meant = []
        for i in may:
            old = olds[i].scores
            if old is None or float(old.max()) < ANSWERS_MIN:
                continue
            if np.any(single & near & (old >= float(old.max()) - ANCHOR_GAP)):
                meant.append(pool[i])
        if len(meant) == 1:
            return meant[0]
    return None
