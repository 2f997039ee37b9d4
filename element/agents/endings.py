"""The memory an ending ends, found by meaning.

An ending gives the thing ended as said (``ending_grammar.py``), which is often not the
stored memory's word: "coffee" for "drinks three espressos a day", "red meat" for "eats
steak", "social media" for "posts on Instagram". So the memory meant is found by meaning
(:func:`ended_by_meaning`): the speaker's one-fact memories nearest the thing, compared by
the cosine of the thing and the memory with its subject's name and change words stripped
(``updates.strip_for_attribute``); the closest is meant when close enough (``ENDED_MIN``)
and clearly closer than the next (``ENDED_MARGIN``). Where meaning falls short, the
one-valued attribute the thing names (``slots``) or the thing's own words
(``ended_words``). A thing taken up again ends the memory of giving it up
(``resumed.py``).
"""

from __future__ import annotations

from collections.abc import Sequence

from .decisions import Pool
from .ended_kind import ended_by_kind
from .ended_lexicon import ended_by_what_it_is
from .ended_words import named_by_words
from .ending_grammar import INTOLERANT, clauses, endings
from .holders import UNKNOWN
from .holding import kept_meanwhile
from .light_head import modifier_of_light
from .meant import ended_by_meaning, names_another, places_apart, replaced_unlike
from .observation import Observation
from .one_of_several import one_of_several
from .restated import change_to
from .resumed import resumed_memory
from .rules import Candidate
from .slots import PEOPLE, single_slot, slot_target
from .thing_fate import told_final
from .tokens import held_through
from .updates import Memory

__all__ = ["ended_memory", "ending_change"]


def ended_memory(sentence: str, pool: Pool, who: str,
                 skip: Sequence[str] = ()) -> Memory | None:
    """The speaker's memory an ending of ``sentence`` names in other words (by meaning),
    or a person's of theirs an ending of theirs names, or None: no such ending, no model,
    or no memory clearly meant."""
    # The speaker's, or a person's of theirs, whose memories alone can then be meant ("Dad's
    # given up the booze" and "Ana's dad drinks a lot of whisky").
    if kept_meanwhile(sentence) and not told_final(sentence):
        return None     # "I let my son drive the Fabia now": lent, not ended (``holding.py``)
    said = [(e.thing, e.holder) for e in endings(sentence)
            if e.holder == "" or e.holder != UNKNOWN and set(e.holder.split()) & PEOPLE]
    # "Cancelled the direct debit for the magazine": the thing held, before its token
    # (``tokens.py``).
    said = [(held, holder) for thing, holder in said if (held := held_through(thing))] + said
    # "Not doing the low-carb thing any more": the modifier of a light head, after the
    # thing as said (``light_head.py``).
    said = said + [(kind, holder) for thing, holder in said
                   if (kind := modifier_of_light(thing))]
    embedder = pool.embedder() if said else None
    if embedder is None:
        return None
    for thing, holder in said:
        try:
            found = ended_by_meaning(thing, pool.nearest(thing, 10), who, embedder.embed, skip,
                                     holder)
            if found is not None and replaced_unlike(clauses(sentence), thing, found, who,
                                                     embedder.embed):
                found = None    # what replaced it is no value of the memory's (``meant``)
        except Exception:   # a failing model finds nothing: the statement is added
            return None
        if found is None and not holder and single_slot(thing):
            # "Lost my job at the bank", "I was let go" after "I work at Barclays": the
            # one-valued attribute the thing names, as "I don't have a car anymore" ends
            # the car (``retire.py``).
            found = slot_target(thing, "", False, pool.memories(), who, skip)
            if found is not None and (names_another(thing, found["content"], who) or
                                      places_apart(thing, found["content"])):
                # "lost my job at Door Dash" (or "at the engineering company") ends no
                # job at Google (or "at the building society").
                found = None
        if found is not None and thing.startswith("allergic to ") and \
                not INTOLERANT.search(found["content"]):
            found = None    # a thing told harmless ends only a memory of reacting to it
        if found is None and not holder and not single_slot(thing):
            # "Packed in the gym membership" after "I'm a member of PureGym": the thing's
            # words of one family with the memory's, where meaning falls short (a thing of
            # a one-valued attribute is its slot's, above: "lost my job at the firm" ends
            # no "brainstorming ways to help with job training").
            found = named_by_words(thing, pool.memories(), who, skip)
            if found is not None and names_another(thing, found["content"], who):
                found = None
        if found is None and not holder:
            # "Finally cancelled the gym" after "a membership at the Virgin Active": the
            # kind the thing names, of an attribute of one value (``ended_kind.py``).
            try:
                found = ended_by_kind(thing, pool.memories(), who, embedder, skip)
            except Exception:   # a failing model finds nothing: the statement is added
                return None
        if found is None and not holder:
            # "Had to rehome the dog" after "we've got a cocker spaniel": what the thing
            # is, by the lexicon (``ended_lexicon.py``).
            found = ended_by_what_it_is(thing, pool.memories(), who, skip)
        if found is not None and one_of_several(thing, found["content"]):
            found = None    # "a fox got Flopsy": one of "two rabbits, Flopsy and Bun"
        if found is not None:
            return found
    return None


def ending_change(sentence: str, pool: Pool, who: str, turn: int, observation: Observation,
                  taken: list[str]) -> Candidate | None:
    """``sentence`` (of ``observation``'s turn ``turn``) as a change superseding the
    speaker's memory it says ended in other words than the memory's ("Done with coffee"
    after "I drink three espressos a day"), or the memory of an ending or abstinence it
    says is over ("I'm eating red meat again" after "I gave up red meat":
    :func:`resumed_memory`),
    else None. Tried after the finders by name."""
    target = ended_memory(sentence, pool, who, taken) or \
        resumed_memory(sentence, pool, who, taken)
    return change_to(target, sentence, who, turn, observation, taken)
