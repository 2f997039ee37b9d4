"""A present state of the speaker's own, told as now, replaces the value it holds by meaning.

"I'm a health visitor these days" after "I'm a nurse", "Finally caved and got an iPhone"
after "I've got a Samsung": no change word and no proper name as the new value, so the
other finders (``meaning.by_meaning`` needs a named value, the keyed rules a known shape)
leave both current. What says the new value holds now is a present-time adverbial ("these
days", "nowadays", "at the moment", "currently", "now", "since May"), or, for a possession,
an acquisition verb ("got", "bought", "picked up"): a single-valued attribute has one value
at a time, so a present one replaces the one held.

Why it is general: the cue is the grammar of the present, not a value or a topic; the
attribute is found by the profile bank (``profile.py``), among single-valued ones only
(possessions for an acquisition); the old memory is the speaker's one-fact memory answering
that attribute best. Never another person's fact (the statement's holder is the speaker),
never a many-valued attribute (a pet, a hobby: one more), never a past or a wish (recall's
readers, ``index.TOLD_PAST``/``TOLD_NOT_NOW``), an addition ("also", "a second"), a negation
or several things at once. What says now, adds or is not now is read by recall's lists
(``index/told.py``): the statement this lets stand beside the old, recall orders by the
same words.
"""

from __future__ import annotations

import re
from typing import Any

from index import TOLD_ADDITION, TOLD_NOT_NOW, TOLD_NOW, TOLD_PAST

from .decisions import Pool
from .episodes import tell
from .holders import UNKNOWN, holder_of
from .meaning import MEANING_POOL, SIMILAR_WORDS, clauses, several
from .profile import profile_target, whose
from .sentences import split_sentences

__all__ = ["present_target", "present_state", "POSSESSIONS"]

#: Acquiring a thing ("got an iPhone", "bought a Kia", "picked up a MacBook", "treated
#: myself to a Pixel"): a possession now held.
_ACQUIRED = re.compile(r"\b(?:got|bought|picked\s+up|treated\s+(?:myself|ourselves)\s+to)\s+"
                       r"(?:(?:myself|ourselves|me|us)\s+)?(?:a|an|the|one\s+of\s+the)\b", re.I)

#: The attributes of a thing one owns one at a time (``index.ATTRIBUTES``' names).
POSSESSIONS = frozenset({"vehicle", "phone", "computer"})

#: A negation: what is not so is an ending or a denial, not a present value.
_NEGATION = re.compile(r"\b(?:not|never|no|nor|none|nothing)\b|n't\b|\bno\s+longer\b|"
                       r"\bany\s?more\b", re.I)


#: A stay or a loan, not the attribute's value ("I'm staying with my parents at the
#: moment", "borrowing my dad's car now").
_TEMPORARY = re.compile(r"\b(?:staying|visiting|borrowing|house-?sitting|on\s+holiday|"
                        r"on\s+leave|off\s+sick|away)\b", re.I)


def present_state(sentence: str) -> str | None:
    """How ``sentence`` (first person, raw) tells a value of the speaker's own as holding
    now: "now" (a present-time adverbial), "acquired" (an acquisition verb), or None."""
    if sentence.rstrip().endswith("?") or len(sentence.split()) > SIMILAR_WORDS or \
            TOLD_PAST.search(sentence) or TOLD_NOT_NOW.search(sentence) or \
            TOLD_ADDITION.search(sentence) or \
            _NEGATION.search(sentence) or several(sentence) or _TEMPORARY.search(sentence) or \
            holder_of(sentence) not in ("", UNKNOWN) or whose(sentence) not in ("", UNKNOWN):
        return None     # another's fact ("my sister is a nurse these days")
    if TOLD_NOW.search(sentence):
        return "now"
    if _ACQUIRED.search(sentence):
        return "acquired"
    return None


def present_target(source: str, pool: Pool, who: str,
                   skip: list[str]) -> dict[str, Any] | None:
    """The speaker's memory a present state told in ``source`` (the sentences of an
    episode; each whole, then each clause) replaces: the one-fact memory of the speaker's
    answering best the same single-valued attribute (a possession, for an acquisition).
    None when no part tells a present state or none is found (one model call per kind)."""
    found: dict[str, list[tuple[str, str, bool]]] = {"now": [], "acquired": []}
    for sentence in split_sentences(source):
        for part in [sentence, *clauses(sentence)]:
            kind = present_state(part)
            told = tell(part, who) if kind else None
            # The speaker's own, the subject dropped or not ("Finally caved and got an
            # iPhone" is told "Cy finally caved ..."), never a thing's ("It's ... now").
            if kind and told and told.startswith(f"{who} "):
                found[kind].append((told, "", False))
    embedder = pool.embedder()
    if embedder is None:
        return None
    memories = pool.memories()[:MEANING_POOL]
    for kind, parts in found.items():
        if not parts:
            continue
        try:
            target = profile_target(parts, memories, who, embedder, skip, named=False,
                                    only=POSSESSIONS if kind == "acquired" else None)
        except Exception:   # a failing model finds nothing: the statement is added
            return None
        if target is not None:
            return target
    return None
