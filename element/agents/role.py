"""The speaker's workplace told by a role shape: "These days I'm at KPMG", "I've been at the
BBC since March", "I'm with Hargreaves Lansdown now", after "I work for Deloitte".

"I'm at <Org>" names no attribute by its words (no "work", no "job"): the profile bank
(``profile.py``) reads it as where one *is* as often as where one works, so neither it nor
the keyed rules find the memory it replaces. Said of the present ("now", "these days",
"since May": ``present.present_state``) by a speaker whose memory holds a workplace (an
employer, or an occupation told with where: "a cashier at Lidl"), and naming another
organisation, it is the new workplace.

Why it is general: the shape is English grammar (be + at/with + a proper name, in the
present), the attribute is the old memory's own key (``rules.py``), never a word list of
jobs or firms. "With" names a person as often ("I'm with Sam now"): it counts only for a
name that is no given name's shape (an acronym, several capitalised words, a CamelCase
name) or beside a word of work. Pure functions over texts and the pool.
"""

from __future__ import annotations

import re
from typing import Any

from .decisions import Pool
from .holders import holder_of
from .present import present_state
from .meaning import clauses
from .sentences import split_sentences
from .updates import content_terms, first_person, key_target, keys_of

__all__ = ["workplace", "role_target"]

#: Be + at/with + a proper name: "I'm at KPMG", "we've been with Octopus since May".
_AT_ORG = re.compile(
    r"^(?:these\s+days,?\s+|nowadays,?\s+|now,?\s+)?(?:i|we)\s*(?:am|are|'m|'re|"
    r"(?:have|'ve)?\s*been)\s+(?:(?:now|currently|officially|actually|still|just|really|"
    r"finally|permanently)\s+)*(?P<p>at|with)\s+(?P<org>(?:the\s+)?(?-i:[A-Z])[\w&'.-]*"
    r"(?:\s+(?-i:[A-Z])[\w&'.-]*)*)", re.I)
#: A name with an organisation's shape: an acronym, CamelCase, or several capitalised words.
_ORG_SHAPE = re.compile(r"^(?:the\s+)?(?:[A-Z]{2,}\b|[A-Z][a-z]+[A-Z]|[A-Z][\w&'.-]*\s+[A-Z])")
#: Words of work beside "with": "I'm with Aldi now, better shifts".
_WORK = re.compile(r"\b(?:job|jobs|work|working|shifts?|role|position|contract|salary|pay|"
                   r"boss|manager|team|office|store|branch|employer|hired|promoted)\b", re.I)
_KEYS = ("fact:employer", "fact:occupation")
#: Where one is for a while, not where one works.
_MOMENT = re.compile(r"\b(?:at\s+the\s+moment|right\s+now|today|tonight|this\s+(?:morning|"
                     r"afternoon|evening|week(?:end)?))\b", re.I)


def workplace(sentence: str) -> str | None:
    """The organisation a first-person sentence says the speaker is at now, or None."""
    if present_state(sentence) != "now" or _MOMENT.search(sentence):
        return None     # "I'm at Tesco at the moment" is where one is, for a while
    m = _AT_ORG.match(sentence.strip())
    if m is None:
        return None
    if m["p"].lower() == "with" and not (_ORG_SHAPE.match(m["org"]) or _WORK.search(sentence)):
        return None     # "I'm with Sam now" is a partner as often
    return m["org"]


def role_target(source: str, pool: Pool, who: str, skip: list[str]) -> dict[str, Any] | None:
    """The speaker's one-fact memory of their workplace (its key an employer's or an
    occupation's) that a present "I'm at <Org>" of ``source`` replaces: one not naming
    that organisation. None without such a statement or memory."""
    for sentence in split_sentences(source):
        for part in [sentence, *clauses(sentence)]:
            org = workplace(part)
            if org is None:
                continue
            wanted = content_terms(org, who)
            for key in _KEYS:
                memory = key_target(key, pool.memories(), who, skip)
                if memory is None:
                    continue
                said = first_person(memory["content"], who)
                if len(said) != 1 or holder_of(said[0]) or \
                        key not in keys_of(memory["content"], who) and key == "fact:occupation" \
                        and not re.search(r"\b(?:at|for|with)\s+(?-i:[A-Z])", said[0]):
                    continue
                if wanted and not wanted <= content_terms(memory["content"], who):
                    return memory
    return None
