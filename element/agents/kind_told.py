"""Told by its kind: a statement of the speaker's whose held noun is a thing of the kind
their memory's value is, kept when nothing else of the turn is (issue 23: what is told
writes nothing).

"These days it's decaf only, doctor's orders" after "drinks double espressos"; "Lugging a
double bass onto the bus for rehearsals is a workout in itself" after "plays the bassoon
in a wind band": no "I" and no verb of a slot, no name or number (``fragments.
told_plainly``), no "I'm ..." (``brief.told_briefly``), no change cue, so nothing was
written and the older value stayed the only one. WordNet (``index.noun_kinds``) says what
the nouns are: decaf and espresso are beverages, a double bass and a bassoon musical
instruments; a statement whose held noun is of the kind the value of one of the speaker's
one-fact memories is (the same attribute of the bank named by both nouns) tells that
attribute anew: kept, in the third person as a memory says it (``episodes.tell``),
replacing nothing by itself (the decision against the pool is ``decide``'s, as for any
fact).

Not kept: a question, a statement to or of the listener, another person's ("My neighbour
just got a beagle", "Tom has a new guitar"), a wish, a habit of the past or a plan
(``index.TOLD_NOT_NOW``, ``TOLD_PAST``), a thing named but not held ("saw a saxophone in a
window": ``noun_kinds.held_nouns``), a long story (``PLAIN_WORDS``). Without the lexicon
(or for nouns it does not know: a brand) nothing is kept, as before.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from index import TOLD_NOT_NOW, TOLD_PAST, named_attribute

from .episodes import tell
from .fragments import _KIN_OPENING, PLAIN_WORDS, _frame
from .sentences import split_sentences
from .verbless import _opened

__all__ = ["told_by_kind"]

#: Said to or of the listener: "you", "your".
_LISTENER = re.compile(r"\b(?:you|your|yours|yourself|u|ya)\b", re.I)
#: Opening on another person: a pronoun of theirs, or a name doing or holding something
#: ("Tom has a new guitar", "Priya's learning the cello"; "Pepper the tortoise is ...",
#: "Bramble is a spaniel": a pet named by what it is, kept).
_ANOTHER_OPENS = re.compile(r"^(?:(?:he|she|they|his|her|their)\b|(?-i:[A-Z])[a-z-]+"
                            r"(?:\s+(?:just\s+|also\s+|now\s+)?(?:has|had|got|plays|drives|"
                            r"drinks|keeps|owns|bought|adopted|took|takes|is\s+\w+ing)|"
                            r"['’]s\s+(?:just\s+|also\s+|now\s+)?(?:\w+ing|got))\b)", re.I)


def _statement(sentence: str) -> str | None:
    """``sentence`` past its interjections when it may tell a value of the speaker's own:
    no question, nothing to the listener, not another's, no wish, plan or past habit, at
    most ``PLAIN_WORDS`` words."""
    body = _opened(sentence).strip()
    words = re.findall(r"[\w'’-]+", body)
    if not body or body.endswith("?") or _LISTENER.search(body) or \
            not 3 <= len(words) <= PLAIN_WORDS or \
            TOLD_NOT_NOW.search(body) or TOLD_PAST.search(body) or \
            _KIN_OPENING.match(body) or _ANOTHER_OPENS.match(body):
        return None
    return body


def told_by_kind(text: str, who: str, others: Iterable[str],
                 memories: Iterable[str]) -> tuple[str, str] | None:
    """A turn's statement whose held noun is of the kind the value of one of ``who``'s
    one-fact memories is (one attribute of the bank named by both, ``index.noun_kinds``),
    told as a memory says it, and its sentence; None when the turn has none."""
    held = {named_attribute(c) for c in dict.fromkeys(memories) if _frame(c, who) is not None}
    held.discard(None)
    if not held:
        return None
    others = list(others)
    for sentence in split_sentences(text):
        body = _statement(sentence)
        if body is None or named_attribute(body) not in held:
            continue
        content = tell(body, who, others)
        if content:
            # (told without a person, "Lugging a double bass ...": in the speaker's name,
            # as ``fragments.told_plainly`` keeps a statement)
            return (content if who in content else f"{who}: {content}"), body
    return None
