"""A turn that goes on about the speaker's previous one: "I went to a poetry reading last
Friday" ... (How was it?) ... "It was so empowering, everyone celebrated who they are".
The second turn gives no memory of its own (what is "it"?); what it says of the topic is
added to the memory of the speaker's previous turn (:func:`follow_up`), as an update:
the memory then tells how it went, and no second memory says half of it.

Only the speaker's latest turn before it in the window counts, and only when its memory is
in the pool as that turn told it: an earlier topic, a memory already continued, rewritten
or gone, is left alone (so re-sending a window never adds the same sentences twice).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from .appraisal import appraises
from .asides import EXCHANGE, MAXIM, SURMISE
from .bare import bare_opening
from .decisions import Pool
from .episode_words import SUGGEST
from .episodes import (MAX_SENTENCES, MIN_CONTENT, _ANAPHOR, _SECOND, _WISH, _partner,
                       episode)
from .narration import household_of, narrate
from .observation import Observation
from .offers import listener
from .rules import Candidate, extract, norm
from .sentences import MAX_WORDS
from .spoken import clean, drop_address, sentences, vocatives
from .trimmed import content_words, trim

__all__ = ["continued", "follow_up"]


def continued(observation: Observation, i: int, pool: Pool,
              theirs: set[str]) -> Candidate | None:
    """The update turn ``i`` makes to the memory of its speaker's previous turn, if it only
    goes on about it (``kind`` "follow", ``target`` that memory's id); else None."""
    who = observation.speaker(i)
    more = follow_up(observation.turns[i].content, who, addressee=observation.others(i))
    if not more:
        return None
    before = [j for j in range(i) if observation.turns[j].role == "user" and
              observation.speaker(j) == who]
    if not before:
        return None
    j = before[-1]
    turn = observation.turns[j]
    keyed = extract(turn.content, j, who, answers_question=observation.answers_question(j),
                    replies=observation.replies(j), listener=listener(observation.others(j)))
    consumed = [norm(c.source) for c in keyed if not c.loose]
    told = episode(turn.content, who, addressee=observation.others(j), consumed=consumed,
                   kin=theirs)
    for _ in range(2):      # as the rules told it: not opening on a bare pronoun
        if told is None or (opening := bare_opening(told)) is None:
            break
        consumed.append(opening)
        told = episode(turn.content, who, addressee=observation.others(j), consumed=consumed,
                       kin=theirs)
    target = pool.by_content(told.content) if told is not None else None
    if told is None or target is None:
        return None
    return Candidate(target["category"], " ".join([told.content, *more]), None, i, "follow",
                     source=" ".join(told.sentences), target=target["id"])


#: An appraisal of what the other person shared ("That slow cooker meal looks yum", "That
#: road trip sounds great"): theirs, not more of the speaker's news.
_SHOWN = re.compile(r"^(?:that|those|these)\b(?:\s+[\w'-]+){0,4}?\s+(?:looks?|sounds?|seems?)\b",
                    re.I)
#: What would or could be ("It would be a great chance to catch up"): not how it went.
_HYPOTHETICAL = re.compile(r"\b(?:would|could|might)\b", re.I)


def follow_up(text: str, who: str, *, addressee: Iterable[str] = ()) -> list[str]:
    """What a turn that gives no memory of its own adds to the speaker's previous one, in
    the third person: its sentences that open on what was just said ("It was so
    empowering", "They were awestruck and humbled"), after a question about it, and say
    something of it (``MIN_CONTENT`` content words), at most ``MAX_SENTENCES`` - 1.
    Not a question, a hypothetical ("it would be ..."), a suggestion, a guess at the
    other's life, a maxim or anything about the other person. Alone such a sentence says
    nothing a reader can place (what is "it"?); after the speaker's memory, it tells how
    that went."""
    addressee = list(addressee)
    vocative = vocatives(addressee)
    told: list[str] = []
    appraised = False   # "Wow, that looks amazing! Those colors are so vivid": theirs
    for raw in sentences(text):
        shown, appraised = appraised, appraised or appraises(raw)
        cleaned, question = clean(raw, vocative)
        if question or not cleaned or len(cleaned.split()) > MAX_WORDS or shown:
            continue
        cleaned = drop_address(trim(cleaned))
        if not cleaned or not _ANAPHOR.match(cleaned) or _SECOND.search(cleaned) or \
                _SHOWN.match(cleaned) or \
                SUGGEST.match(cleaned) or EXCHANGE.search(cleaned) or \
                SURMISE.search(cleaned) or MAXIM.search(cleaned) or _WISH.match(cleaned) or \
                _HYPOTHETICAL.search(cleaned) or \
                len(content_words(cleaned)) < MIN_CONTENT:
            continue
        told.append(narrate(cleaned, who, household_of(cleaned, text), _partner(addressee))
                    + ".")
    return told[:MAX_SENTENCES - 1]
