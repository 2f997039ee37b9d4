"""Whether a statement is about a part or an accessory of the thing an attribute is about,
not about the thing itself ("My phone case is from Etsy", "I got a new charger for my
phone from Argos", "My laptop sleeve is from a shop in Brighton" after "I have an iPhone
13"): by meaning such a statement answers "What phone do they have?" as well as the
phone itself does (all-MiniLM-L6-v2: the charger .59, "has a Samsung Galaxy" .55), and
it names a value (Etsy, Argos), so ``profile.py`` would read it as a new phone.

How it is told, by sentence structure only: the attribute's own noun (a noun of its
profile questions, ``index/profile_bank.py``: "phone", "laptop", "car") stands as a
modifier of another noun in the statement, not as its head:

- a compound before an auxiliary: "my phone case is ...", "their laptop sleeve was ...";
- a possessive: "my phone's screen protector ...", "the car's tyres ...";
- the complement of "for" or "on" after a determiner, behind a word of content: "a
  charger for my phone", "the dent on the car" (not "sick of my phone", which is about
  the phone, nor "is on their phone", a use of it).

Why it is general: the nouns are the bank's (a generic profile schema, no case's words),
the determiners, auxiliaries and prepositions closed classes of English; nothing names a
part or an accessory. A compound of two of the attribute's own nouns ("phone plan") is
the attribute itself, not a part of it.

The change path asks the same of any thing, with no attribute to hand
(:func:`part_of_thing`): a possessive of a thing the speaker has, with a verb after its
part ("my car's battery is flat again" after "I drive a Ford Focus"). Pure functions over
texts.
"""

from __future__ import annotations

import re
from functools import lru_cache

from index import RELATIONS, STOPWORDS, Attribute

__all__ = ["nouns", "part_of", "part_of_thing", "part_taken_off"]

#: The determiners before a held thing's noun (a name's possessive too: "Ana's phone").
_DET = r"(?:my|our|your|his|her|their|its|the|this|that|[a-z]+'s)"
#: Auxiliaries after a compound's head ("my phone case is ...").
_AUX = r"(?:is|are|was|were|has|have|had|'s)"
#: Words that follow a possessive "'s" without being its head: the contraction "car's
#: been", "phone's got", and the closed classes.
_NOT_HEAD = STOPWORDS | frozenset("been got gone not never just still also now x".split())


#: Auxiliaries and copulas: "is on their phone" uses the phone, no part of it.
_AUX_WORDS = frozenset("is are was were be been am has have had do does did m s re".split())


@lru_cache(maxsize=128)
def nouns(attribute: Attribute) -> frozenset[str]:
    """The nouns of an attribute's profile questions: their words past the closed classes
    and past the verb after "they" ("What car do they drive?" is "car", not "drive")."""
    out: set[str] = set()
    for question in attribute.questions:
        words = re.findall(r"[a-z]+", question.lower())
        for i, word in enumerate(words):
            if word in STOPWORDS or len(word) < 3 or i and words[i - 1] == "they":
                continue
            out.add(word)
    return frozenset(out)


def part_of(text: str, attribute: Attribute) -> bool:
    """Whether ``text`` names ``attribute``'s thing only as a modifier of another noun (a
    part or an accessory of it: "Ana's phone case is from Etsy"), never as the head of a
    noun phrase of its own."""
    own = nouns(attribute)
    # A name after the noun is no head of a compound ("the phone Ana has is ..."): its
    # capitals are read as "x" (never a head) before the text is lowered.
    lowered = re.sub(r"(?<!^)\b[A-Z][a-z]+\b(?!')", "X", text).lower()
    for noun in own:
        if not re.search(rf"\b{noun}\b", lowered):
            continue
        for m in re.finditer(rf"\b{_DET}\s+(?:[a-z-]+\s+)?{noun}\s+([a-z-]+)\s+{_AUX}\b",
                             lowered):
            if m[1] not in own and m[1] not in _NOT_HEAD:
                return True     # "my phone case is from Etsy"
        for m in re.finditer(rf"\b{_DET}\s+(?:[a-z-]+\s+)?{noun}'s\s+([a-z-]+)", lowered):
            if m[1] not in own and m[1] not in _NOT_HEAD:
                return True     # "my phone's screen protector cracked"
        for m in re.finditer(rf"\b([a-z]+)\s+(?:for|on)\s+{_DET}\s+(?:[a-z-]+\s+)?{noun}\b"
                             rf"(?!\s+(?:{'|'.join(sorted(own))})\b)", lowered):
            # A name before it is the value the thing is with ("on Three for their
            # mobile": read "x" above), never an accessory of it.
            if m[1] not in STOPWORDS and m[1] not in _AUX_WORDS and m[1] != "x":
                return True     # "a new charger for their phone from Argos"
    return False


#: A part of a thing the speaker has ("my car's battery is flat again", "our house's roof
#: leaked"): the possessive names the thing already held, so what follows is about its part,
#: never a new value of the thing (a person's possessive, "my sister's flat", is theirs).
#: The part is a noun with a verb after it: "my membership's at David Lloyd now" and "my
#: car's a Tesla" are "is", no possessive.
_PART_OF = re.compile(r"^(?:my|our)\s+(?P<thing>(?-i:[a-z-]+))'s\s+(?-i:[a-z-]+)\s+"
                      r"(?:is|are|was|were|has|have|had|keeps|kept|needs|needed|broke|died|"
                      r"went|got|won't|wasn't|isn't|doesn't|didn't|will|would|can|could|"
                      r"[a-z]+ed)\b", re.I)


def part_of_thing(sentence: str) -> bool:
    """Whether ``sentence`` opens on a part of a thing of the speaker's (``_PART_OF``)."""
    m = _PART_OF.match(sentence)
    return m is not None and m["thing"].lower() not in RELATIONS



#: A part taken off a thing of the speaker's: "sold the roof box off the Volvo", "took the
#: stabilisers off the bike", "removed the tow bar from the car": the object is the part,
#: the thing after "off" (or "from", after a verb of removing) is kept.
_OBJECT = r"(?:the|my|our|a|an)\s+(?:[\w'-]+\s+){0,3}?"
_TAKEN_OFF = re.compile(r"^(?:(?:i|we)\s+(?:(?:have|'ve|had|'d|just|finally)\s+)*)?"
                        rf"(?:[a-z]+\s+{_OBJECT}off|(?:took|taken|removed|pulled|stripped|"
                        rf"unbolted|detached)\s+{_OBJECT}from)\s+(?:of\s+)?(?:the|my|our)\s+",
                        re.I)


def part_taken_off(sentence: str) -> bool:
    """Whether ``sentence`` tells of a part taken off a thing (``_TAKEN_OFF``): the thing
    itself is held still."""
    return _TAKEN_OFF.match(sentence) is not None
