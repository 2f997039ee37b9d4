"""A thing taken up again ends the memory of giving it up: "I'm eating red meat again"
after "I gave up red meat", "back on the cigarettes" after "I quit smoking". The memory
meant is found by meaning, as an ending's is (``endings.py``). Pure functions over texts
and an embedding function.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .decisions import Pool
from .ending_grammar import ADVERBS, SPEAKER, clauses, speakers_own, thing_of
from .holders import memory_holder, same_holder, subject_first
from .meant import ENDED_MARGIN, ENDED_MIN
from .updates import NOT_NOW, FACT_WORDS, Memory, first_person, nearest_attribute

__all__ = ["resumed_memory"]


#: A thing taken up again, the speaker's: "I eat fish again", "I'm drinking again", "I've
#: started smoking again", "back on the cigarettes", "back to eating fish".
_AGAIN = re.compile(rf"^(?:{SPEAKER}{ADVERBS}\s+)?(?:(?:am|'m|are|'re|have|'ve)\s+)?"
                    rf"(?:(?:started|begun|began|taken\s+up|took\s+up)\s+)?"
                    rf"(?P<x>(?!(?:never|not|no|will|would|can|could|might|should|saw|met|"
                    rf"did)\b)[\w'-]+(?:\s+[\w'-]+){{0,4}}?)\s+again\b", re.I)
_BACK = re.compile(rf"^(?:{SPEAKER}{ADVERBS}\s+)?(?:am|'m|are|'re)\s+(?:now\s+)?back\s+"
                   rf"(?:on|to)\s+(?P<x>(?:the\s+)?[\w'-]+(?:\s+[\w'-]+){{0,3}})", re.I)
#: A memory of an ending or of doing without: what taking the thing up again ends.
_WITHOUT = re.compile(r"\b(?:not|never|no\s+longer|doesn't|don't|isn't|gave\s+up|given\s+up|"
                      r"quit|stopped|cut\s+out|off\s+the|free|teetotal|sober|abstain\w*|"
                      r"vegetarian|vegan|pescatarian)\b",
                      re.I)


def resumed_memory(sentence: str, pool: Pool, who: str,
                   skip: Sequence[str] = ()) -> Memory | None:
    """The speaker's memory of giving a thing up or doing without it that ``sentence`` says
    is over, the thing taken up again ("I eat fish again" after "Ana gave up fish", "I'm
    drinking again" after "Ana doesn't drink alcohol"): the one-fact memory of an ending
    or abstinence nearest the thing by meaning (``ENDED_MIN``, ``ENDED_MARGIN`` over the
    next such memory); None for a question, a plan, another's statement, "never again",
    or no model."""
    if sentence.rstrip().endswith("?") or NOT_NOW.search(sentence) or \
            not speakers_own(sentence):
        return None
    m = next((m for c in clauses(sentence) for p in (_AGAIN, _BACK)
              if (m := p.match(subject_first(c))) is not None), None)
    thing = thing_of(m["x"]) if m else ""
    embedder = pool.embedder() if thing else None
    if embedder is None:
        return None
    try:
        near = pool.nearest(thing, 10)
    except Exception:   # a failing model finds nothing: the statement is added
        return None
    # Of all the speaker's one-fact memories, not only those of doing without: the thing
    # taken up again must be nearest the memory of giving it up, clearly ("I'm single
    # again" nearest "I never remember birthdays" among the abstinences alone is no
    # ending of it).
    mine = []
    for memory in near:
        said = first_person(memory["content"], who)
        if memory["id"] in skip or len(said) != 1 or len(said[0].split()) > FACT_WORDS or \
                not same_holder(memory_holder(said[0]), ""):
            continue
        mine.append(memory)
    if not mine:
        return None
    try:
        closest, best, second = nearest_attribute(thing, mine, who, embedder.embed)
    except Exception:   # a failing model finds nothing: the statement is added
        return None
    gave_up = first_person(closest["content"], who)[0]
    return closest if _WITHOUT.search(gave_up) and best >= ENDED_MIN and \
        best - second >= ENDED_MARGIN else None
