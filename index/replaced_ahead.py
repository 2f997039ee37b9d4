"""A newer value told as replacing goes ahead of the older it ranks far below, a
many-valued attribute's too (issue 23, item 5).

When an update was not caught as one, both values stay current, and only recall can put
the newer first. ``recency.newer_first`` groups values newest first for a single-valued
attribute within ``recency.VALUES_TIE`` (.2): of a many-valued one (sports, hobbies, pets,
languages, drinks) a second value is an addition ("has taken up bouldering as well"), so
it keeps its ranked place, and only a newer value that says it holds now goes ahead,
within ``recency.CURRENT_TIE`` (``recency._current_ahead``), or one that names the older
as gone (``_gone_ahead``).

A newer statement that tells a change of its own ("is strictly a coffee person now" after
"drinks green tea every morning", "switched to squash") is worded unlike the older,
plainer one and ranks far below it (.87 / .51): the query does not tell which of two
values is true, only which is said in its words. So (:func:`replaced_ahead`) a newer fact
or preference of the subject's own that answers the asked attribute clearly
(``recency.answering``) and tells a change (:func:`tells_change`) goes ahead of the
subject's older values of it ranked above it within :data:`TIE` (wider than
``CURRENT_TIE``: a query naming the older value by its own words scores it further above
still). Of a single-valued attribute a change is any the words tell (``told.says_now``: a
change, a word of now, a value begun; ``told.REPLACED``; a value taken up, :data:`TAKEN_UP`);
of a many-valued one only what says the older gave way: a word of now or of replacing
(``told.CURRENT``, ``told.REPLACED``), or an ending told at its time ("RIP sourdough
starter." with "found a new obsession anyway: salsa classes twice a week"): "has started
learning Welsh at night school" beside "speaks French" is one more language. Never an
addition (``told.ADDITION``: "also", "as well", "another"), a past or a wish
(``told.aside``), an ending (``told.yields``), nor another person's fact
(``told.told_of``: "My husband has started learning Mandarin"): those keep their places.

Of one time (one turn told as two memories), an ending (``told.yields``, not a past or a
wish: "can't whistle, never could" ends nothing) ranked above its subject's present
value of the asked attribute goes after it (:func:`ending_after`): of what one statement
said, the present is the answer, the ending only says why. ``recency`` already orders
them so where both answer the attribute best (``_present_first``); an ending that names
the old thing ("Sunny escaped out the kitchen window") scores above the new one ("has
got a cockatiel called Pip now") while answering no attribute clearly.

Only a person's facts and preferences move (a conversation's turns keep their order:
LoCoMo's R@1 fell when they were reordered); nothing moves across subjects, nothing is
dropped. Both backends reach these through ``recency.newer_first``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from .theirs import Theirs
from .told import CURRENT, REPLACED, says_now, told_of

__all__ = ["READ_CACHE", "TAKEN_UP", "TIE", "ending_after", "replaced_ahead", "tells_change"]

#: The score difference within which a many-valued attribute's newer value told as a
#: change goes ahead of an older one: wider than ``recency.CURRENT_TIE`` (.3), as a change
#: told in other words scores far under the plain older statement ("is strictly a coffee
#: person now" .51 under "drinks green tea every morning" .87; "took up the cello" .49
#: under "plays the violin" .89); a query that names the older value by its own words
#: scores it higher still, and it keeps its lead.
TIE = 0.5

#: A value taken up: "took up the cello", "has taken up padel", "got into salsa". With no
#: word of addition (``told.ADDITION``), a thing taken up in place of what was.
TAKEN_UP = re.compile(r"\b(?:took|taken|taking|take|takes)\s+up\b|"
                      r"\b(?:got|gotten|getting)\s+into\b", re.I)


#: How many memories' readings :func:`tells_change` keeps: a search with a many-valued
#: attribute asked reads it of each of its rows not chosen (``answers_under.told_now``),
#: a scope's same memories search after search (``search_http_bench.py``: .3 ms a search).
READ_CACHE = 4096


@lru_cache(maxsize=READ_CACHE)
def tells_change(text: str | None, relations: frozenset[str], single: bool = True) -> bool:
    """Whether a memory tells a change of the subject's own, in a sentence about the
    subject, not another person of theirs the query does not ask about (``relations``).
    Of a single-valued attribute (``single``): a change, a word of now, a value begun or
    taken up, something swapped or dropped (``told.says_now``, ``told.REPLACED``,
    :data:`TAKEN_UP`). Of a many-valued one, only what says the older gave way: a word of
    now or of replacing (``told.CURRENT``: "now", "these days", "instead", "no longer";
    ``told.REPLACED``: "swapped", "switched", "dropped"); a value started, joined or taken
    up is as often one more ("has started learning Welsh at night school", beside "speaks
    French"). The caller rules out additions, pasts, wishes and endings."""
    said = text or ""
    told = (says_now(said) or bool(TAKEN_UP.search(said))) if single else \
        bool(CURRENT.search(said))
    return bool(told or REPLACED.search(said)) and told_of(said) <= relations


def replaced_ahead(order: list[int], owners: Sequence[Any], newness: Sequence[float],
                   scores: Sequence[float], texts: Sequence[str | None],
                   facts: Sequence[bool], answers: Sequence[bool], best: list[bool],
                   still: Sequence[bool], relations: frozenset[str], single: bool = True,
                   yielding: Sequence[bool] = (), tie: float = TIE) -> list[int]:
    """``order`` with each newer fact (``facts``) that answers the asked many-valued
    attribute (``answers``) and tells a change (:func:`tells_change`) moved ahead of its
    subject's older values of it (``answers``, facts) ranked above it within ``tie``.
    ``still``: the results that are no newer value whatever they say (an addition, a
    past, a wish, an ending): they never move. The subject's results it passes keep their
    order; general memories and other subjects keep their places. ``best`` is updated in
    place: passing a value that answers the question best, it does too (so that
    ``recency._answers_first`` keeps it ahead)."""
    out = list(order)
    for c in order:
        if not facts[c] or not answers[c] or owners[c] is None:
            continue
        theirs = Theirs.of(out, owners, c)
        mine = theirs.mine
        passed = [k for k in range(theirs.at) if answers[mine[k]] and facts[mine[k]] and
                  newness[mine[k]] < newness[c] and scores[mine[k]] - scores[c] <= tie]
        # Its words are read only when an older value of its subject ranks above it.
        if not passed or still[c] or not (tells_change(texts[c], relations, single) or
                                          _ended_with(c, mine, newness, facts, yielding)):
            continue
        best[c] = best[c] or any(best[mine[k]] for k in passed)
        theirs.move(passed[0])
    return out


def _ended_with(c: int, mine: list[int], newness: Sequence[float], facts: Sequence[bool],
                yielding: Sequence[bool]) -> bool:
    """Whether a fact of ``c``'s subject (``mine``) told at its time ends something
    (``yielding``): one statement's "Biscuit was put to sleep in the autumn. A spaniel
    puppy called Mabel is running the house now." tells the value that replaced it."""
    return bool(yielding) and any(i != c and facts[i] and newness[i] == newness[c] and
                                  yielding[i] for i in mine)


def ending_after(order: list[int], owners: Sequence[Any], newness: Sequence[float],
                 facts: Sequence[bool], answers: Sequence[bool],
                 yielding: Sequence[bool], still: Sequence[bool]) -> list[int]:
    """``order`` with each fact that tells an ending (``yielding``) moved after
    the last of its subject's facts told at its time (one ``newness``) that answer the
    asked attribute (``answers``) and are no ending, past, wish or addition themselves
    (``yielding``, ``still``) and rank below it. The subject's other results keep their
    order; general memories and other subjects keep their places."""
    out = list(order)
    for y in order:
        if not facts[y] or owners[y] is None:
            continue
        theirs = Theirs.of(out, owners, y)
        mine = theirs.mine
        # Words are read only of a fact ranked above a value of its subject of its time.
        later = [k for k in range(theirs.at + 1, len(mine)) if facts[mine[k]] and
                 answers[mine[k]] and newness[mine[k]] == newness[y]]
        if not later or not yielding[y]:
            continue
        later = [k for k in later if not yielding[mine[k]] and not still[mine[k]]]
        if not later:
            continue
        theirs.move(later[-1])
    return out
