"""The same role noun with a new value: "Pineapple has become my favourite pizza topping"
after "My favourite pizza topping is pepperoni", "Dr Oduya is our GP now" after "our GP is
Dr Farouk".

A role noun of the speaker's ("my favourite pizza topping", "our GP", "my go-to drink")
names its attribute in so many words, whatever the value is and whichever side of the
copula it stands on. A statement of the speaker's linking a value to the role noun
(:func:`role_value`) replaces the one-fact memory linking the same role noun to another
value: when the role noun names a choice of one ("favourite", "go-to", "usual", "best":
a superlative is one thing at a time) or one of the attributes with a single value
(``slots.single_slot``: a GP, a manager, a partner), and the statement says it changed
("has become", "now", "these days") or the role is a choice of one. "Tom is my friend
now" after "my friend is Sam" is one more friend: neither a choice of one nor a single
slot.

A role noun of one value told with its value in apposition, wherever in the sentence ("My
boyfriend Tobias is a carpenter from Galway", "the trip with my girlfriend Ingrid was
rained off") says the same as "my boyfriend is Tobias": it names who holds the role now,
in passing, with no change word. It replaces the memory linking the same role noun to
another name only for a role of one value (a partner, a manager, a GP: ``slots.single_slot``;
never a friend, a brother, a dog), the role noun the memory's own words ("my old boss
Dorothy", "my ex Tom" are other role nouns), and the value a proper name.

Why it is general: the reading is English grammar (a possessed noun phrase, a copula or an
apposition, a value), the attribute is the speaker's own words for it; no list of
attributes or values. Pure functions over texts and the pool.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from .decisions import Pool
from .observation import Observation
from .restated import change_to
from .rules import Candidate, norm
from .slots import single_slot
from .updates import FACT_WORDS, Memory, first_person, is_event

__all__ = ["role_value", "role_apposed", "role_target", "role_change"]

#: The role noun: up to four words after "my/our", none a verb of the clause.
_ROLE = r"(?P<r>(?:(?!is\b|are\b|has\b|was\b)[a-z][\w'-]*\s+){0,3}?(?!is\b|are\b)[a-z][\w'-]*)"
#: The link: a copula, "has become", with "now" anywhere in it.
_LINK = (r"(?P<l>(?:'s|\s+is|\s+are)(?:\s+now)?|\s+(?:has|have)\s+(?:now\s+)?become|"
         r"\s+became|\s+is\s+now)")
#: The value: a few words, up to a clause's end.
_VALUE = r"(?P<v>[^,;:.!?]{1,40}?)"
#: When it holds, after the value.
_WHEN = r"(?P<t>\s+(?:now|these\s+days|nowadays|at\s+the\s+moment|from\s+now\s+on))?"
#: "my favourite pizza topping is pepperoni (now)".
_ROLE_FIRST = re.compile(r"^(?:my|our)\s+" + _ROLE + _LINK + r"\s+" + _VALUE + _WHEN
                         + r"\s*[.!?]*$", re.I)
#: "pineapple has become my favourite pizza topping", "Dr Oduya is our GP now".
_VALUE_FIRST = re.compile(r"^" + _VALUE + _LINK
                          + r"\s+(?:my|our)\s+" + _ROLE + _WHEN + r"\s*[.!?]*$", re.I)
#: A role noun naming a choice of one: a favourite, a go-to, the best.
_CHOICE = re.compile(r"\b(?:favou?rite|go-to|usual|regular|main|best|worst|top|number\s+one|"
                     r"preferred|current)\b", re.I)
#: Where a value starts after an opening ("Controversial, but pineapple ...").
_OPENING = re.compile(r"^(?:[^,;:]{1,30}[,;:]\s*(?:but|and|so|well)?\s*)", re.I)
#: A value that is no value: a pronoun, a judgement.
_NO_VALUE = re.compile(r"^(?:it|this|that|he|she|they|who|what|which|there|so|very|really|"
                       r"great|amazing|awesome|the best|lovely|brilliant|fine|ok|okay|"
                       r"away|off|out|on|in|at|sick|ill|busy|home|back)\b", re.I)


def role_value(sentence: str) -> tuple[str, str, bool] | None:
    """A first-person clause's role noun, its value and whether it says a change ("has
    become", "now"): "pineapple has become my favourite pizza topping" -> ("favourite
    pizza topping", "pineapple", True); None for no such shape."""
    said = sentence.strip()
    for text in (said, _OPENING.sub("", said, count=1)):
        m = _ROLE_FIRST.match(text) or _VALUE_FIRST.match(text)
        if m is None or _NO_VALUE.match(m["v"].strip()):
            continue
        role = norm(re.sub(r"^(?:new|current)\s+", "", m["r"].strip(), flags=re.I))
        value = m["v"].strip()
        if not role or not value or re.match(r"^(?:my|our)\b", value, re.I):
            continue
        changed = bool(m["t"]) or "now" in m["l"].lower() or "bec" in m["l"].lower()
        return role, value, changed
    return None


#: "my boyfriend Tobias", "our GP Dr Farouk": a role noun of the speaker's (one to three
#: words, no possessive of another's: "my sister's boyfriend Tom" is hers) and a proper
#: name right after it, not itself a possessor ("my manager Priya's team").
_APPOSED = re.compile(r"\b(?:my|our)\s+(?P<r>(?:(?-i:[a-z\u00e0-\u00ff])[\w-]*\s+){0,2}"
                      r"(?-i:[a-z\u00e0-\u00ff])[\w-]*)\s+"
                      r"(?P<v>(?:(?:dr|mr|mrs|ms|miss|prof)\.?\s+)?(?-i:[A-Z][a-z]+)"
                      r"(?:\s+(?-i:[A-Z][a-z]+))?)\b(?!['\u2019])", re.I)


def role_apposed(sentence: str) -> tuple[str, str] | None:
    """The role noun of the speaker's and the name told beside it in a sentence ("The
    hiking trip with my girlfriend Ingrid was rained off" -> ("girlfriend", "Ingrid")),
    when there is one such pair; None for none, or two (which one is meant?)."""
    found = [(re.sub(r"^(?:new|current)\s+", "", m["r"], flags=re.I).lower(), m["v"])
             for m in _APPOSED.finditer(sentence)]
    return found[0] if len(found) == 1 and found[0][0] else None


def _one_value(role: str) -> bool:
    return bool(_CHOICE.search(role)) or single_slot(f"my {role}")


def role_target(sentence: str, memories: Iterable[Memory], who: str,
                skip: Iterable[str] = ()) -> Memory | None:
    """The one-fact memory of the speaker's linking the same role noun as ``sentence`` to
    another value, when the role holds one value and the statement says it changed (or
    names a choice of one); None when two memories hold the role (which is meant is not
    said)."""
    read, single = role_value(sentence), False
    if (apposed := role_apposed(sentence)) is not None and \
            (read is None or norm(apposed[1]) in read[0]):
        # Told in passing, the name beside its role ("my wife Jo is a nurse" is no role
        # "wife jo"): of a role of one value only, read before ``norm`` drops an accent.
        single = single_slot(f"my {apposed[0]}")
        read = (norm(apposed[0]), apposed[1], single)
    if read is None:
        return None
    role, value, changed = read
    if not (single or _one_value(role)) or not (changed or _CHOICE.search(role)):
        return None
    avoid, found = set(skip), []
    for memory in memories:
        said = first_person(memory["content"], who)
        if memory["id"] in avoid or len(said) != 1 or len(said[0].split()) > FACT_WORDS or \
                is_event(said[0]):
            continue
        held = role_value(said[0])
        if held is None or held[0] != role:
            continue
        if norm(held[1]) == norm(value) or norm(value) in norm(held[1]):
            return None     # the same value said again
        found.append(memory)
    return found[0] if len(found) == 1 else None


def role_change(sentence: str, pool: Pool, who: str, turn: int, observation: Observation,
                taken: list[str]) -> Candidate | None:
    """``sentence`` as a change superseding the memory of the same role noun's value
    (:func:`role_target`), else None."""
    if sentence.rstrip().endswith("?"):
        return None
    return change_to(role_target(sentence, pool.memories(), who, taken), sentence, who,
                     turn, observation, taken)
