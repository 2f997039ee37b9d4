"""The memory an ending ends when the ending names only its kind.

People end a thing by the name of its kind: "finally cancelled the gym" after "I've got a
membership at the Virgin Active in Chiswick", "the car failed its MOT so that's that"
after "I drive a Nissan Micra". The model reads the kind and the memory too far apart to
be clearly meant ("the gym" and the Virgin Active membership .28, under
``meant.ENDED_MIN``), the memory has no word of the kind (``ended_words``), and no slot's
words name it (``slots``), so the ending was stored as an episode linked to nothing.

The kind is a noun of the generic profile's questions (``index/profile_bank.py``: "Which
gym are they a member of?", "What car do they drive?"), of an attribute with one value at
a time: the thing ended, one such noun alone (a light adjective allowed: "the old car"),
answers that attribute clearly; of an attribute that adds up (pets, subscriptions), only
its own name ("we've got no pets these days", "a pet-free household"), never one of its
kinds ("the dog" after "I have a cat"); the memory meant is the one of the speaker's one-fact
memories held now that answers the same attribute (``profile.profiles``), when exactly one
does.

What is not read so: a compound ("the car seat", "the phone case", "the roof box": a part
or an accessory, its head is another noun), a kind of an attribute that adds up ("the
dog": another pet is kept), an attribute of another person's (a
boss, a child's school), a kind no question names ("the bike": the car is kept), and two
memories answering the kind. Pure functions over texts and the embedder.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

from index import Embedder

from .ended_words import held_now
from .parts import nouns
from .profile import profiles
from .updates import Memory

__all__ = ["KIND_MIN", "KIND_MARGIN", "ended_by_kind"]

#: The least answer of the kind alone to its attribute, and how much above any other: the
#: bank's own nouns answer their attribute far above ("the gym" .74, "the car" .64, "my
#: phone" .53; the next .52, .34, .34), an accessory of the kind less ("the phone case"
#: .49 and a compound besides).
KIND_MIN = 0.45
KIND_MARGIN = 0.1

#: The thing as a kind: a determiner, a light adjective, one noun.
_KIND = re.compile(r"^(?:(?:the|my|our|that|this)\s+)?(?:(?:old|little|new|current|local|"
                   r"trusty|faithful|beloved|poor|battered|ancient|expensive|fancy|wretched|"
                   r"stupid|bloody|flipping)\s+)?(?P<noun>[a-z]+)$", re.I)


def _singular(noun: str) -> str:
    return noun[:-1] if noun.endswith("s") and not noun.endswith("ss") else noun


def ended_by_kind(thing: str, memories: Sequence[Memory], who: str, embedder: Embedder,
                  skip: Sequence[str] = ()) -> Memory | None:
    """The speaker's one memory held now that answers the one-valued attribute ``thing``
    names as its kind (see the module's note), else None."""
    m = _KIND.match(thing.strip())
    if m is None:
        return None
    noun = m["noun"].lower()
    held = [(memory, said) for memory in memories
            if memory["id"] not in skip and (said := held_now(memory, who)) is not None]
    if not held:
        return None
    # The thing's kind first: the memories are read only for a thing that is one.
    own = profiles([thing], who, embedder)[0]
    kind, scores = own.attribute, own.scores
    if kind is None or scores is None or kind.another or noun not in nouns(kind) and \
            _singular(noun) != kind.name:
        return None
    if not kind.single and _singular(noun) != kind.name:
        return None     # "the dog" may be one of several pets; "our pet", "no pets": the kind
    ranked = np.sort(scores)[::-1]
    if ranked[0] < KIND_MIN or ranked[0] - ranked[1] < KIND_MARGIN:
        return None
    read = profiles([memory["content"] for memory, _ in held], who, embedder)
    answering = [memory for (memory, _), profile in zip(held, read, strict=True)
                 if profile.attribute is kind]
    return answering[0] if len(answering) == 1 else None
