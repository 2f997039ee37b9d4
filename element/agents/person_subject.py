"""The person a clause opens on, named by what they are: "The PE teacher at Ashfield has
just quit", "the hygienist at Riverside handed her notice in", "Our lodger's moved out to
Nottingham", "My lad's started supporting Chelsea".

What such a person does is theirs: their leaving, their new team, their move. A place or a
body named beside them ("at Ashfield", "at my son's school") says where they are, not
that the speaker's own fact about that place changed; nor is their move the speaker's
(issue 23: a false supersede takes a true fact out of recall). The holders' readings
(``holders.holder_of``) know the words of kin and of roles (``index.RELATIONS``); the
lexicon knows every noun that names a person ("lodger", "hygienist", "locum", "lad").

Why it is general: a subject noun phrase read by its grammar (a determiner or a possessive,
a few modifiers, its head before a preposition or its verb), its head's meaning asked of
the lexicon (WordNet's "person"); no case, value or benchmark. Without the lexicon, only
the words of ``index.RELATIONS`` are known. A pure function over a sentence.
"""

from __future__ import annotations

import re

from index import RELATIONS, lexicon, terms

from .opening import from_subject

__all__ = ["person_subject", "is_person", "theirs_alone"]

#: What opens a subject noun phrase: a determiner or a possessive of the speaker's.
_OPENS = frozenset("the my our a an his her their this that".split())
#: What follows a subject's head: a preposition of where or whose they are, an auxiliary,
#: an adverb of the moment, a relative.
_AFTER_HEAD = frozenset("""at of from in on for with who that which is are was were has
have had will would can could just only finally recently suddenly sadly apparently also
still now then left went got took gave sold lost won ran broke came made became
""".split())
_COPULA = frozenset("is are was were".split())
_PREPOSITIONS = frozenset("at of from in on for with".split())
#: Words that open no noun phrase's head ("the other day", "the first time").
_NOT_HEAD = frozenset("""other first last next same whole rest one time way thing day week
year month""".split())


def is_person(word: str) -> bool:
    """Whether ``word`` (a noun, lower-cased) names a person: a word of kin or role, or,
    by the lexicon, a kind of person ("lodger", "hygienist"); not a name it does not know."""
    word = re.sub(r"'s?$", "", word.lower())
    if word in RELATIONS or set(word.split("-")) & RELATIONS:
        return True
    lex = lexicon()
    return bool(lex is not None and lex.is_a(word, "person"))


def _no_noun(word: str) -> bool:
    """Whether ``word`` goes on no noun phrase: a verb's past ("moved", "quit" as the
    lexicon knows no such noun), or, without the lexicon, a word ending "-ed"."""
    lex = lexicon()
    if lex is None:
        return word.endswith("ed")
    return word.endswith("ed") or not lex.kinds(word)


def theirs_alone(clause: str, memory: str, who: str) -> bool:
    """Whether ``clause`` opens on a person named by what they are (:func:`person_subject`)
    whom ``memory`` does not name, and names the memory's thing only in that subject
    ("The PE teacher *at Ashfield* has just quit" of "teaches geography at Ashfield"): their
    act, not one done to the memory's thing ("A retired teacher from Kendal bought *the
    caravan* off me" ends the speaker's caravan)."""
    person = person_subject(clause)
    if not person or re.search(rf"\b{re.escape(person)}", memory, re.I):
        return False
    said = from_subject(clause.strip()).split()
    at = next(i for i, w in enumerate(said) if re.sub(r"[,;:.!?]+$|'s$", "", w.lower()) == person)
    rest = said[at + 1:]
    # Past the subject's own phrase (where they are, whose they are: "at my son's school"),
    # up to its verb: a word that goes on no noun phrase.
    if rest and rest[0].lower() in _PREPOSITIONS:
        while rest and (rest[0].lower() in _PREPOSITIONS | _OPENS or
                        rest[0][:1].isupper() or rest[0].lower().endswith("'s") or
                        not _no_noun(re.sub(r"[,;:.!?]+$", "", rest[0].lower()))) and \
                re.sub(r"[,;:.!?]+$", "", rest[0].lower()) not in _AFTER_HEAD - _PREPOSITIONS:
            rest = rest[1:]
    own = set(terms(memory)) - set(terms(who)) - set(terms(person))
    # What the rest names as the person's own ("sold *his Golf*") is theirs too.
    told = re.sub(r"\b(?:his|her|their)\s+(?:[\w'-]+\s+){0,2}?[\w'-]+", " ", " ".join(rest),
                  flags=re.I)
    return not own & set(terms(told))


def person_subject(clause: str) -> str:
    """The head noun of ``clause``'s subject when it names a person by what they are
    ("the PE teacher at Ashfield ..." -> "teacher", "our lodger's moved ..." -> "lodger"),
    else "": not the speaker (I, we), nor a name, nor a thing."""
    words = from_subject(clause.strip()).split()
    if len(words) < 3 or words[0].lower() not in _OPENS:
        return ""
    # The head: the last word of the phrase before a preposition, an auxiliary or a
    # contraction ("lodger's moved"), within a few words.
    for i, word in enumerate(words[1:5], start=1):
        low = re.sub(r"[,;:.!?]+$", "", word.lower())
        contracted = low.endswith("'s") and i + 1 < len(words) and \
            words[i + 1].lower() in _CONTRACTED_NEXT
        nxt = re.sub(r"[,;:.!?]+$", "", words[i + 1].lower()) if i + 1 < len(words) else ""
        if nxt in ("and", "or", "&"):
            return ""   # "My partner and I moved ...": the speaker with another
        if contracted or nxt in _AFTER_HEAD or not low.endswith("'s") and _no_noun(nxt):
            head = re.sub(r"'s$", "", low)
            if nxt in _COPULA and not (i + 2 < len(words) and words[i + 2].endswith("ing")):
                return ""   # "my GP is Dr Obi now": who the speaker's GP is, theirs
            return head if head not in _NOT_HEAD and is_person(head) else ""
        if low.endswith("'s") or word.endswith((",", ";", ":")):
            return ""   # "my sister's Toyota": a thing of another's, read by the holders
    return ""


#: After "X's", the words that make it "X has/is" ("our lodger's moved", "the coach's
#: been sacked") rather than a possessive ("the coach's car").
_CONTRACTED_NEXT = frozenset("""been got gone just moved left started quit taken joined
finally already now not never also handed retired resigned decided become""".split())
