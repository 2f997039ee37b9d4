"""A habit the speaker does without, told by a negated verb: "I don't eat meat", "I never
eat breakfast", "I can't eat peanuts", "I don't drive".

The habit rule (``rules._habit``) reads "I eat fish" as what the speaker does; its negation
is as much a fact of theirs (a diet, an allergy, what they never do) and is what a later
"I eat meat again" ends (``polarity.py``). Read by grammar: the speaker as subject, a
negator of the present (do not, never, cannot, no longer) and a lexical verb in its base
form, not one of thinking, feeling or talking (``facts.NOT_HABITS``: "I don't know", "I
can't wait") and no past. Not a negated occasion: a time phrase ("I can't make it
tonight", "I don't work tomorrow") is a plan, an object pointing back or at the listener
("I can't stand it", "I don't blame you") says nothing by itself.
"""

from __future__ import annotations

import re

from .dates import time_phrase
from .episode_words import ends_as_ing
from .facts import NOT_HABITS, PAST_TENSE
from .narration import narrate

__all__ = ["negated_habit", "does_without"]

#: The speaker, a negator of the present, a verb and what it takes. "Can't" is ability as
#: often as habit ("I can't swim"): both hold until said otherwise.
_NEGATED = re.compile(r"^i\s+(?:(?:usually|really|just|honestly|actually)\s+)?"
                      r"(?P<neg>do\s+not|don'?t|never|can'?t|cannot|can\s+not|no\s+longer)\s+"
                      r"(?:(?:ever|really|usually)\s+)?(?P<v>[a-z]{2,})(?:\s+(?P<x>[^,;]+))?$",
                      re.I)
#: The negators as a memory writes them ("Maria does not eat meat").
_WRITTEN = {"do not": "do not", "don't": "do not", "dont": "do not", "never": "never",
            "can't": "cannot", "cant": "cannot", "cannot": "cannot", "can not": "cannot",
            "no longer": "no longer"}
#: An object that points at something said before or at the listener: no fact alone.
_POINTING = re.compile(r"\b(?:it|its|this|that|these|those|them|you|your|yours|yourself)\b",
                       re.I)


def _habit_without(sentence: str) -> tuple[str, str, str] | None:
    """The negator, verb and what it takes of a negated habit in ``sentence``, or None."""
    m = _NEGATED.match(sentence.strip().rstrip(".!"))
    if m is None:
        return None
    verb, rest = m["v"].lower(), (m["x"] or "").strip()
    if verb in NOT_HABITS or verb in PAST_TENSE or verb.endswith(("ed", "ly")) or \
            ends_as_ing(verb):
        return None
    if rest and (_POINTING.search(rest) or time_phrase(rest)):
        return None
    return _WRITTEN[" ".join(m["neg"].lower().split())], verb, rest


def negated_habit(sentence: str, who: str) -> tuple[str, str] | None:
    """The memory ("Maria does not eat meat") and its key of ``who``'s negated habit in
    ``sentence``, or None."""
    if (found := _habit_without(sentence)) is None:
        return None
    neg, verb, rest = found
    told = narrate(f"I {neg} {verb}{' ' + rest if rest else ''}", who)
    head = rest.split()[-1].lower() if rest else ""
    return told, f"fact:does:not {verb}{' ' + head if head else ''}"


def does_without(statement: str) -> bool:
    """Whether a first-person ``statement`` ("I cannot swim very well") is a habit done
    without, as :func:`negated_habit` reads one; "I can't start my day without coffee" (a
    double negative) and "I'm lactose intolerant, so no milk" are not. Read only, not
    narrated: every finder's target is checked with it."""
    return _habit_without(statement) is not None and \
        not re.search(r"\bwithout\b", statement, re.I)
