"""A newer value told as a change answers what its older value answered (issue 23, item 5).

When an update was not caught as one, both values stay current, and recall puts the newer
ahead of the older where both answer the attribute the query asks (``recency.answering``:
the profile bank). The bank reads a memory's whole vector, and a newer statement told in
other words answers the asked attribute less than the plain older one: "Mum thinks Ana is
mad but Ana has taken up the bass guitar instead" answers "What instrument does Ana play?"
.05 deviations up, where "Ana plays the cello" is 3.4; "Fabian: Decaf only these days,
doctor's orders" answers "What coffee does Fabian drink?" clearly (2.3) but "medication"
better. So the newer is never joined from under the threshold nor put ahead of the older
(``answers_under.py``, ``recency._current_ahead``, ``changed_ahead.py``).

Two readings of its words say what the vector does not, for a newer fact or preference of
a subject told after an older value of the asked attribute (a fact answering it clearly),
that tells a change of its own (``changed_ahead.told_as_change``: a change, a word of now,
a value begun; no past, wish, ending, addition, nor another person's fact):

- it answers the attribute clearly, not best of the bank: it answers as well as the older
  does (best where the older answers best): "Decaf only these days";
- it answers it not clearly, yet names a thing of the kind the query asks (WordNet's nouns,
  ``lexicon.py``: "the drums" of "What instrument ...", "decaf" of "What coffee ...", a
  kind :data:`kind_ahead.KIND_DEPTH` deep at least, no person, time, measure or place), or a
  thing of one kind with the older value's (``kind_ahead.kin_nouns``: "first day at the
  museum" after "works at the library"): then it is a value of the attribute, answering
  as the older does.

Where WordNet knows neither noun, or no lexicon is provisioned, the second reading gives
nothing and the bank decides as before. An addition ("also", "a second", "as well"),
another person's news ("My husband's first day at the fire station") or a statement that
says no change ("A friend lent me her ukulele") is never read so: it keeps its place.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Any

from .changed_ahead import told_as_change
from .kind_ahead import kin_nouns, known_nouns
from .lexicon import Lexicon, lexicon

__all__ = ["ASKED_DEPTH", "answers_as_change", "asked_kinds", "names_asked_kind"]

#: "Now" said of a degree reached, not of a value replaced: "My Portuguese is good enough
#: now to haggle", "is much better now", "feels confident now": a skill grown, a second
#: language kept beside the first. Read out before the words of change are.
_DEGREE_NOW = re.compile(r"\b(?:enough|better|worse|more|less|good|well|fluent|"
                         r"confident|comfortable|decent)\s+now\b", re.I)
#: The categories of memory a person's profile holds (``recency.PROFILE_CATEGORIES``).
_FACTS = frozenset({"fact", "preference"})


def answers_as_change(values: list[bool], best: list[bool], owners: Sequence[Any],
                      newness: Sequence[float], texts: Sequence[str | None],
                      kinds: Sequence[str | None], relations: frozenset[str],
                      query: str = "", rows: Iterable[int] | None = None) -> None:
    """``values`` and ``best`` (``recency.answering``'s, in place) with each newer fact or
    preference of ``rows`` (all rows by default) told as a change of the subject's own
    taken as answering as its subject's older value does (see the module's docstring).
    ``relations``: the people of the subject's the query asks about; ``query``: its
    words (the kind it asks)."""
    olders = [c for c in range(len(values)) if values[c] and owners[c] is not None and
              kinds[c] in _FACTS]
    if not olders:
        return
    for u in range(len(values)) if rows is None else sorted(rows):
        if values[u] and best[u] or owners[u] is None or kinds[u] not in _FACTS:
            continue
        older = [c for c in olders if c != u and owners[c] == owners[u] and
                 newness[c] < newness[u]]
        # Its words are read only when an older value of its subject is at hand.
        if not older or not told_as_change(_DEGREE_NOW.sub("", texts[u] or ""), relations):
            continue
        if not values[u] and not any(_kin(texts[c], texts[u], query) for c in older):
            continue
        values[u] = True
        best[u] = best[u] or any(best[c] for c in older)


def _kin(older: str | None, newer: str | None, query: str) -> bool:
    lex = lexicon()
    if lex is None:
        return False
    return names_asked_kind(query, newer or "", lex) or bool(kin_nouns(older, newer, lex))


#: The kind a question asks, named after its "what" or "which" ("What instrument does ...",
#: "Which football team ...", "What kind of coffee ..."): one or two words before the verb.
_ASKED_KIND = re.compile(
    r"\b(?:what|which)\s+(?:(?:kind|sort|type)s?\s+of\s+)?([a-z]+(?:\s+[a-z]+)?)", re.I)
#: The verbs that end the kind's words ("What coffee does ...", "Which bank is ...").
_VERBS = frozenset("""
do does did is are was were has have had will would can could should might may
""".split())
#: How deep the asked kind must lie below WordNet's root: named in the question's frame, a
#: kind as shallow as "language" (3) is what the question asks; "thing" (1) and "entity"
#: say nothing.
ASKED_DEPTH = 3
#: What an asked kind never is for a held value: times, measures, places ("What time ...",
#: "Which area ..."), read of the kind word's first sense.
_NOT_KINDS = ("time period", "measure", "location")


def asked_kinds(query: str, lex: Lexicon) -> tuple[str, ...]:
    """The kinds ``query`` names after its "what" or "which", as WordNet knows them: the
    pair of words and the last word alone ("football team", "team")."""
    out: list[str] = []
    for match in _ASKED_KIND.finditer(query):
        words = [w.lower() for w in match.group(1).split()]
        words = words[:next((i for i, w in enumerate(words) if w in _VERBS), len(words))]
        for kind in ([" ".join(words)] if len(words) > 1 else []) + words[-1:]:
            if lex.knows(kind) and not any(lex.is_a(kind, k, 1) for k in _NOT_KINDS):
                out.append(kind)
    return tuple(out)


@lru_cache(maxsize=4096)
def names_asked_kind(query: str, text: str, lex: Lexicon) -> bool:
    """Whether ``text`` names a thing of the kind ``query`` asks (:func:`asked_kinds`: "the
    drums" of "What instrument does Ana play?", "decaf" of "What coffee ..."): a noun of
    the text, not the kind's own word, that WordNet holds a kind of it, the kind lying
    :data:`ASKED_DEPTH` deep at least."""
    kinds = asked_kinds(query, lex)
    if not kinds:
        return False
    for noun in known_nouns(text, lex) - set(kinds):
        for kind in kinds:
            how = lex.kind_of(noun, kind)
            if how is not None and how.depth >= ASKED_DEPTH:
                return True
    return False
