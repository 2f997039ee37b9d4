"""A person's age told by their birthday: "a dinosaur party for Archie's 4th birthday" says
Archie is 4 now, as "Archie turned 4" does.

A sentence naming someone's ordinal birthday ("<Name>'s 4th birthday", "... second
birthday") supersedes the one-fact memory of that person's age ("my little boy Archie is
3", "my grandson Reuben is 23 months old"): the memory names the person and states an age
(a number after "is", "turned"), not the new one. Nothing else in the sentence need say
it changed: a birthday counted is a new age. Pure functions over texts and the pool; no
model call.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from .decisions import Pool
from .observation import Observation
from .restated import change_to
from .rules import Candidate
from .updates import FACT_WORDS, Memory, first_person

__all__ = ["birthday", "age_target", "birthday_change"]

_ORDINALS = ("first second third fourth fifth sixth seventh eighth ninth tenth eleventh "
             "twelfth thirteenth fourteenth fifteenth sixteenth seventeenth eighteenth "
             "nineteenth twentieth thirtieth fortieth fiftieth sixtieth seventieth eightieth "
             "ninetieth hundredth").split()
#: "<Name>'s 4th birthday", "Reuben's second birthday".
_BIRTHDAY = re.compile(r"\b(?P<n>(?-i:[A-Z][a-z'-]+))'s\s+(?P<age>\d{1,3}(?:st|nd|rd|th)|"
                       + "|".join(_ORDINALS) + r")\s+birthday\b", re.I)
#: The numbers of an age stated: "is 3", "is 23 months old", "turned two".
_NUMBER = (r"(?:\d{1,3}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|"
           r"[a-z]+teen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)")


#: An age stated of a named person, the number ending the clause: "Niamh's seven now",
#: "Otto is 5 today", "Dad's just turned seventy" ("Niamh's seven minutes late" is no age).
_STATED = re.compile(r"\b(?P<n>(?-i:[A-Z][a-z-]+))(?:'s|\s+is|\s+has(?=\s+(?:just\s+)?turned\b))?"
                     r"\s+(?:just\s+|now\s+|already\s+)?(?:turned\s+)?(?P<age>" + _NUMBER +
                     r")(?:\s+years?\s+old)?(?=\s*(?:[,.;!?]|$)|\s+(?:now|today|yesterday|"
                     r"already|and|but|so|this|last|on|in|at|earlier)\b)")


def birthday(sentence: str) -> tuple[str, str] | None:
    """Whose birthday ``sentence`` counts and the age: ("Archie", "4"), ("Reuben",
    "second"); an age stated of a named person counts as well ("Niamh's seven now":
    ("Niamh", "seven")); None without one."""
    m = _BIRTHDAY.search(sentence)
    if m is None:
        m = _STATED.search(sentence)
        if m is None or m["n"].lower() in ("i", "it", "he", "she", "we", "they", "that"):
            return None
        return m["n"], m["age"].lower()
    age = m["age"].lower()
    return m["n"], re.sub(r"(?:st|nd|rd|th)$", "", age) if age[0].isdigit() else age


def age_target(name: str, age: str, memories: Iterable[Memory], who: str,
               skip: Iterable[str] = ()) -> Memory | None:
    """The newest one-fact memory stating ``name``'s age, other than ``age``."""
    avoid = set(skip)
    states = re.compile(rf"\b{re.escape(name)}\b(?:\s+\w+){{0,3}}?\s+(?:is|turned|has\s+turned)"
                        rf"\s+(?:now\s+|just\s+|already\s+)?(?P<a>{_NUMBER})\b", re.I)
    for memory in memories:
        said = first_person(memory["content"], who)
        if memory["id"] in avoid or len(said) != 1 or len(said[0].split()) > FACT_WORDS:
            continue
        m = states.search(said[0])
        if m is not None and m["a"].lower() != age:
            return memory
    return None


def birthday_change(sentence: str, pool: Pool, who: str, turn: int,
                    observation: Observation, taken: list[str]) -> Candidate | None:
    """``sentence`` as a change superseding the memory of the age of the person whose
    birthday it counts, else None."""
    counted = birthday(sentence)
    if counted is None or sentence.rstrip().endswith("?"):
        return None
    target = age_target(*counted, pool.memories(), who, taken)
    return change_to(target, sentence, who, turn, observation, taken)
