"""A person's age told by their birthday: "a dinosaur party for Archie's 4th birthday" says
Archie is 4 now, as "Archie turned 4" does.

A sentence naming someone's ordinal birthday ("<Name>'s 4th birthday", "... second
birthday") supersedes the one-fact memory of that person's age ("my little boy Archie is
3", "my grandson Reuben is 23 months old"): the memory names the person and states an age
(a number after "is", "turned"), not the new one. Nothing else in the sentence need say
it changed: a birthday counted is a new age. A person of the speaker's told by a family
word rather than a name ("My son's three now" after "I have a 2-year-old son") is read
the same way, its age taken only as grown by a year or three, and only when one memory
tells that family word's age (two sons' ages: "my son" names neither). Pure functions
over texts and the pool; no model call.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from .decisions import Pool
from .observation import Observation
from .restated import change_to
from .rules import Candidate
from .updates import FACT_WORDS, Memory, first_person

__all__ = ["birthday", "reached", "years", "age_target", "birthday_change"]

_ORDINALS = ("first second third fourth fifth sixth seventh eighth ninth tenth eleventh "
             "twelfth thirteenth fourteenth fifteenth sixteenth seventeenth eighteenth "
             "nineteenth twentieth thirtieth fortieth fiftieth sixtieth seventieth eightieth "
             "ninetieth hundredth").split()
#: "<Name>'s 4th birthday", "Reuben's second birthday".
_BIRTHDAY = re.compile(r"\b(?P<n>(?-i:[A-Z][a-z'-]+))'s\s+(?P<age>\d{1,3}(?:st|nd|rd|th)|"
                       + "|".join(_ORDINALS) + r")\s+birthday\b", re.I)
#: A birthday counted of the sentence's subject by a pronoun: "Bramble celebrated her
#: third birthday", "Dad had his 65th birthday at the pub", "my son had his fifth
#: birthday party" (the subject named first, its birthday the clause's own).
_OWN_BIRTHDAY = re.compile(r"^(?:[\w'-]+\s*,\s*)?(?:(?P<n>(?-i:[A-Z][a-z'-]+))|(?:my|our)\s+"
                           r"(?:(?:little|baby|eldest|oldest|youngest|older|younger|big|wee)\s+)?"
                           r"(?P<k>son|daughter|boy|girl|grandson|granddaughter|nephew|niece|"
                           r"brother|sister|dog|cat|mum|mom|dad|gran|grandma|grandad|grandpa))"
                           r"\s+(?:just\s+|finally\s+)?(?:celebrated|had|marked|enjoyed|"
                           r"loved|spent)\s+(?:his|her|their)\s+(?P<age>\d{1,3}(?:st|nd|rd|th)|"
                           + "|".join(_ORDINALS) + r")\s+birthday\b", re.I)
#: The numbers of an age stated: "is 3", "is 23 months old", "turned two".
_NUMBER = (r"(?:\d{1,3}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|"
           r"[a-z]+teen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)")


#: An age stated of a named person, the number ending the clause: "Niamh's seven now",
#: "Otto is 5 today", "Dad's just turned seventy" ("Niamh's seven minutes late" is no age).
#: The person an age is told of by their place in the speaker's family rather than by name:
#: "my son", "our youngest girl", "my little brother" (the one such person of the speaker's
#: an age memory names: :func:`age_target` wants it unique).
_KIN = (r"\b(?:my|our)\s+(?:(?:little|baby|eldest|oldest|youngest|older|younger|middle|big|"
        r"wee)\s+)?(?P<n>son|daughter|boy|girl|kid|child|grandson|granddaughter|nephew|niece|"
        r"brother|sister|dog|cat|puppy|kitten)")
_NAMED = r"\b(?P<n>(?-i:[A-Z][a-z-]+))"
_STATED_REST = (r"(?:'s|\s+is|\s+has(?=\s+(?:just\s+)?turned\b))?"
                r"\s+(?:just\s+|now\s+|already\s+)?(?:turned\s+)?(?P<age>" + _NUMBER +
                r")(?:\s+years?\s+old)?(?=\s*(?:[,.;!?]|$)|\s+(?:now|today|yesterday|"
                r"already|and|but|so|this|last|on|in|at|earlier|as\s+of|officially)\b)")
_STATED = re.compile(_NAMED + _STATED_REST)
_STATED_KIN = re.compile(_KIN + _STATED_REST, re.I)


#: An age reached, told with any verb of the past: "Tobias hit twelve on Tuesday", "Gran
#: reached ninety", "Mum's just gone sixty": the verb says little (turned, hit, reached,
#: made, gone); a bare number ending the clause after a named person does. Read only
#: against a remembered age it is a year or few above (:func:`age_target`): ages only grow,
#: so "Tobias scored twelve" after "Tobias is twelve" is no age. Not a present or a future
#: ("turns twelve next week", "is turning twelve", "will be twelve").
_REACHED_REST = (r"(?:'s|\s+has|\s+had)?\s+(?:just\s+|finally\s+|"
                      r"officially\s+)?(?P<v>(?!(?:will|would|could|might|may|shall|should|can|"
                      r"is|are|was|were|be)\b)[a-z]+(?<!s)(?<!ing))\s+(?P<age>" + _NUMBER +
                      r"(?:-(?:one|two|three|four|five|six|seven|eight|nine))?)(?:\s+years?\s+old)?(?=\s*(?:[,.;!?]|$)|\s+(?:now|today|yesterday|"
                      r"already|and|but|so|this|last|earlier|over\s+the\s+weekend|at\s+the\s+weekend)\b|"
                      r"\s+on\s+(?-i:[A-Z]))")
_REACHED = re.compile(r"\b(?P<n>(?-i:[A-Z])[a-z-]+)" + _REACHED_REST)
_REACHED_KIN = re.compile(_KIN + _REACHED_REST, re.I)
_UNITS = ("zero one two three four five six seven eight nine ten eleven twelve thirteen "
          "fourteen fifteen sixteen seventeen eighteen nineteen").split()
_TENS = "twenty thirty forty fifty sixty seventy eighty ninety".split()


def years(age: str) -> int | None:
    """An age said in digits or words as a number: "12", "twelve", "sixty-nine" -> 69; a
    birthday's ordinal as the age it makes: "third" -> 3, "70th" -> 70."""
    said = re.sub(r"(?<=\d)(?:st|nd|rd|th)$", "", age.lower().strip())
    if said.isdigit():
        return int(said)
    if said in _ORDINALS:
        at = _ORDINALS.index(said)
        return at + 1 if at < 20 else 100 if said == "hundredth" else 30 + 10 * (at - 20)
    parts = re.split(r"[\s-]+", said)
    if len(parts) == 1 and parts[0] in _UNITS:
        return _UNITS.index(parts[0])
    if parts[0] in _TENS and (len(parts) == 1 or len(parts) == 2 and parts[1] in _UNITS[1:10]):
        return 20 + 10 * _TENS.index(parts[0]) + (_UNITS.index(parts[1]) if len(parts) == 2 else 0)
    return None


def reached(sentence: str) -> tuple[str, str] | None:
    """The named person and the age a sentence says they reached with a verb of the past
    (:data:`_REACHED`: ("Tobias", "twelve")), else None."""
    m = _REACHED.search(sentence)
    if m is None or m["n"].lower() in ("i", "it", "he", "she", "we", "they", "that", "my",
                                       "our"):
        said = _REACHED_PRONOUN.search(sentence)
        if said is not None and years(said["age"]) is not None and \
                len(named := _antecedents(sentence[:said.start()])) == 1:
            return named[0], said["age"].lower()
        m = _REACHED_KIN.search(sentence)
    if m is None or years(m["age"]) is None:
        return None
    return m["n"], m["age"].lower()


#: "... because he reached 65", "... now she's hit ninety": an age reached told of a
#: pronoun, whose person is named before it (:func:`_antecedents`).
_REACHED_PRONOUN = re.compile(r"\b(?:he|she)" + _REACHED_REST, re.I)
#: The people a clause names before a pronoun: a name not opening the sentence, or a
#: family word ("We threw Dad a party because he ...", "my gran said she ...").
_PERSON_BEFORE = re.compile(r"(?<!^)(?<![.!?]\s)\b(?P<n>(?-i:[A-Z][a-z'-]+))|\b(?:my|our)\s+"
                            r"(?P<k>mum|mom|dad|gran|grandma|grandad|grandpa|nan|son|daughter|"
                            r"brother|sister|husband|wife|boy|girl)\b", re.I)
_NOT_PEOPLE = {"i", "we", "he", "she", "they", "it", "the", "my", "our", "mr", "mrs", "ms",
               "dr", "sunday", "monday", "tuesday", "wednesday", "thursday", "friday",
               "saturday", "christmas", "easter"}


def _antecedents(before: str) -> list[str]:
    """The people named in ``before`` (:data:`_PERSON_BEFORE`), each once."""
    found: list[str] = []
    for m in _PERSON_BEFORE.finditer(before):
        person = m["n"] or m["k"].lower()
        if person.lower() not in _NOT_PEOPLE and person not in found:
            found.append(person)
    return found


def birthday(sentence: str) -> tuple[str, str] | None:
    """Whose birthday ``sentence`` counts and the age: ("Archie", "4"), ("Reuben",
    "second"); an age stated of a named person counts as well ("Niamh's seven now":
    ("Niamh", "seven")); None without one."""
    m = _BIRTHDAY.search(sentence)
    own = _OWN_BIRTHDAY.search(sentence) if m is None else None
    if own is not None:
        age = own["age"].lower()
        return own["n"] or own["k"].lower(), \
            re.sub(r"(?:st|nd|rd|th)$", "", age) if age[0].isdigit() else age
    if m is None:
        m = _STATED.search(sentence)
        if m is None or m["n"].lower() in ("i", "it", "he", "she", "we", "they", "that",
                                           "my", "our"):
            m = _STATED_KIN.search(sentence)
        if m is None:
            return None
        return m["n"], m["age"].lower()
    age = m["age"].lower()
    return m["n"], re.sub(r"(?:st|nd|rd|th)$", "", age) if age[0].isdigit() else age


def age_target(name: str, age: str, memories: Iterable[Memory], who: str,
               skip: Iterable[str] = (), grown: bool = False) -> Memory | None:
    """The newest one-fact memory stating ``name``'s age, other than ``age``; with
    ``grown``, one to three years below it (an age reached: :func:`reached`)."""
    avoid = set(skip)
    states = re.compile(rf"\b{re.escape(name)}\b(?:\s+\w+){{0,3}}?\s+(?:is|turned|has\s+turned)"
                        rf"\s+(?:now\s+|just\s+|already\s+)?(?P<a>{_NUMBER}(?:-[a-z]+)?)\b|"
                        # "has a 2-year-old son": the age before the kin word
                        rf"\b(?P<b>{_NUMBER})-(?:year|yr)-old\s+(?:[\w-]+\s+)?{re.escape(name)}\b",
                        re.I)
    kin = name.islower()    # a family word, not a name: the one memory of its age, or none
    found: list[Memory] = []
    for memory in memories:
        said = first_person(memory["content"], who)
        if memory["id"] in avoid or len(said) != 1 or len(said[0].split()) > FACT_WORDS:
            continue
        m = states.search(said[0])
        said_age = None if m is None else (m["a"] or m["b"]).lower()
        if said_age is None or said_age == age or years(said_age) == years(age):
            continue
        if grown or kin:     # a family word's age, too, only grows: "my son's three now"
            was, now = years(said_age), years(age)
            if was is None or now is None or not 1 <= now - was <= 3:
                continue
        if not kin:
            return memory
        found.append(memory)
    return found[0] if len(found) == 1 else None


def birthday_change(sentence: str, pool: Pool, who: str, turn: int,
                    observation: Observation, taken: list[str]) -> Candidate | None:
    """``sentence`` as a change superseding the memory of the age of the person whose
    birthday it counts, else None."""
    if sentence.rstrip().endswith("?"):
        return None
    counted, grown = birthday(sentence), False
    if counted is None:
        counted, grown = reached(sentence), True
    if counted is None:
        return None
    target = age_target(*counted, pool.memories(), who, taken, grown=grown)
    return change_to(target, sentence, who, turn, observation, taken)
