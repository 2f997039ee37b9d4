"""A definite noun that refers back to a thing the speaker holds, told as parted with.

People end a thing they have told of by a description rather than its name: "the little
roadster went to a dealer" (after "I drive a red Mazda MX-5"), "I let the plot go" (an
allotment), "the exercise bike was collected by its new owner" (a Peloton). The model
reads such a generic noun far from the memory's brand or name (.17-.30, under
``meant.ENDED_MIN``), and as near to another value of the same kind (a guitar beside a
piano) as to the thing it refers to, so its cosine alone cannot tell them apart.

English tells them apart by the article. "The plot", with the definite article and no
name, presupposes a thing the hearer already knows of: it refers back to what the speaker
has said (a bridging reference), while "my bike" or "my old guitar" may bring a new thing
in. So a thing ended named "the" + a common noun (no name, no person, no time) is read as
the one held thing it is nearest to by meaning, at a lower bar (:data:`BRIDGED_MIN`) with a
clear margin over the next (:data:`BRIDGED_MARGIN`), when what the sentence says happened
to it is a parting only a held thing undergoes (:data:`PARTED`: sold, gone to someone or
for scrap, let go, handed back, stolen, run out, put to sleep), not an end that an event
reaches on its own ("the concert finished", "the meeting was over").

Why it is general: the English article and a closed class of verbs of parting with a
possession; the memory by the model's meaning over the speaker's own memories; no case, no
benchmark, no name. Pure functions over texts and an embedding function.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

import numpy as np

from .kinds import TIMES
from .meant import ENDED_MARGIN, ended_by_meaning
from .slots import PEOPLE
from .tokens import TOKENS
from .updates import Memory

__all__ = ["BRIDGED_MIN", "BRIDGED_MARGIN", "PARTED", "bridged_memory", "refers_back"]

#: The least cosine (both stripped) of a definite noun and the held thing it refers back
#: to: "the plot" and "has an allotment on the Halfpenny Lane site" .17, "the little
#: roadster" and "drives a red Mazda MX-5" .26; an unrelated fact of the speaker's reads
#: about as near (.10-.25), so the margin decides.
BRIDGED_MIN = 0.15
#: How much closer than the next memory it must be: half of meaning's own margin
#: (``meant.ENDED_MARGIN``), the noun being generic, with no word of the memory's.
BRIDGED_MARGIN = ENDED_MARGIN / 2

#: What happens only to a thing one holds: parted with by sale, gift, return, theft or
#: death; a contract or a plot run out, let go, cancelled or not renewed. Not "finished",
#: "ended", "over": an event reaches its end by itself.
PARTED = re.compile(r"\b(?:sold|went\s+(?:off\s+)?to|gone\s+(?:off\s+)?to|let\s+(?:\w+\s+){1,4}?"
                    r"(?:go|lapse|expire)|handed\s+(?:\w+\s+){0,4}?back|gave\s+(?:\w+\s+){0,4}?"
                    r"(?:back|away)|given\s+away|scrapped|stolen|nicked|pinched|rehomed|"
                    r"re-homed|put\s+to\s+sleep|put\s+down|passed\s+away|written\s+off|"
                    r"ran\s+out|run\s+out|expired|lapsed|collected\s+by|repossessed|cancell?ed|"
                    r"(?:did\s+not|didn't)\s+renew)\b", re.I)

#: People, not the animals a person keeps ("the old dog was put to sleep" is a pet's end).
_HUMANS = PEOPLE - frozenset("dog dogs cat cats puppy kitten pet pets".split())
#: "The" and one to three common nouns or adjectives, no name: "the plot", "the little
#: roadster", "the exercise bike".
_DEFINITE = re.compile(r"^the\s+(?P<n>(?-i:[a-z][\w-]*)(?:\s+(?-i:[a-z][\w-]*)){0,2})$", re.I)


def refers_back(thing: str, sentence: str) -> bool:
    """Whether ``thing`` (an ending's, the speaker's) is a definite common noun that
    refers back to a held thing, and ``sentence`` tells it parted with (see the module's
    note)."""
    m = _DEFINITE.match(thing.strip())
    if m is None or not PARTED.search(sentence):
        return False
    words = set(m["n"].lower().split())
    return not words & (_HUMANS | TOKENS | TIMES)


def bridged_memory(thing: str, sentence: str, candidates: Sequence[Memory], who: str,
                   embed: Callable[[list[str]], np.ndarray],
                   skip: Sequence[str] = ()) -> Memory | None:
    """The speaker's memory among ``candidates`` that a definite ``thing`` parted with in
    ``sentence`` refers back to (:func:`refers_back`), by meaning at the bridging bar;
    None when it is no such thing or no memory is clearly nearest."""
    if not refers_back(thing, sentence):
        return None
    return ended_by_meaning(thing, candidates, who, embed, skip,
                            least=BRIDGED_MIN, margin=BRIDGED_MARGIN)
