"""A turn that goes on about the speaker's previous one: "I went to a poetry reading last
Friday" ... (How was it?) ... "It was so empowering, everyone celebrated who they are".
The second turn gives no memory of its own (what is "it"?); what it says of the topic is
added to the memory of the speaker's previous turn (``episodes.follow_up``), as an update:
the memory then tells how it went, and no second memory says half of it.

Only the speaker's latest turn before it in the window counts, and only when its memory is
in the pool as that turn told it: an earlier topic, a memory already continued, rewritten
or gone, is left alone (so re-sending a window never adds the same sentences twice).
"""

from __future__ import annotations

from .bare import bare_opening
from .decisions import Pool
from .episodes import episode, follow_up
from .observation import Observation
from .offers import listener
from .rules import Candidate, extract, norm

__all__ = ["continued"]


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
