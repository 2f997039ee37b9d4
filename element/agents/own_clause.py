"""The speaker's own clause of a change told beside another person: the other person as
the one whose counsel or help the speaker acted on ("On my brother's advice I moved
everything over to First Direct", "With my dad's help, we bought a semi in Otley"), as the
cause told first ("Since Jo and I broke up I've been living in Wakefield"), or as the
possessor of the place or the firm the speaker's value is ("I've been living at my mum's in
Wakefield", "I've joined my dad's firm, Hartley Plumbing", "she got me to join her gym, the
Village in Leeds").

The clause that holds the new value has the speaker as its subject, so the value is the
speaker's; but the other person's words ride along into what the finders of a change
compare ("my brother's advice", "my mum's"), and the memory the clause replaces ("I bank
with Santander", "I live in Leeds") is not found, where the speaker's clause alone ("I moved
everything over to First Direct", "I've been living in Wakefield") finds it. So the clause
is said again without them, and the evaluator reads it as the speaker's own statement
(``change_statements._now_clause``), the sentence told whole, the other person kept in the
memory.

Why it is general: English grammar. An opening adverbial (a subordinate clause, or a
phrase of another's counsel or help) leaves the main clause's subject the holder
(``holders.main_clause``); a possessive naming a person of the speaker's before a place or
a firm says whose the place is, not whose the clause's value is: where the speaker lives
is still "in Wakefield", where they work still "Hartley Plumbing" (an appositive name is
what the possessed noun is called). Only a person's possessive is read ("my mum's", "her",
"Dad's"), never a firm's ("Sainsbury's in Leeds" is a shop); a stay for a while ("at
Tom's in Bath for the weekend"), a clause of another's ("my sister moved to Bath") or a
clause that tells no change or present keeps the speaker's value as it was. Pure
functions over texts.
"""

from __future__ import annotations

import re

from index import RELATIONS

from .cues import signals
from .holders import holder_of, main_clause, subject_first

__all__ = ["own_clause", "without_possessor"]

#: A person's possessive: "my mum's", "our nan's", "my older brother's", "Dad's", "her",
#: "his", "their" (a kin word said as a name is the speaker's kin's: "Dad's", "Nan's").
_KIN = "|".join(sorted(RELATIONS | {"mum", "dad", "nan", "gran", "grandad", "mam", "mom",
                                    "granny", "grandma", "grandpa", "auntie", "uncle"},
                       key=len, reverse=True))
_POSSESSOR = (r"(?:(?:(?:my|our)\s+(?:[\w-]+\s+){0,2}?(?:" + _KIN + r")|(?-i:(?:" +
              "|".join(w.capitalize() for w in ("mum", "dad", "nan", "gran", "grandad", "mam",
                                                "mom", "granny", "grandma", "grandpa")) +
              r")))'s?|his|her|their)")

#: A place named after the possessed home or firm: "in Wakefield", "near Otley", "on Mill
#: Road" (a name).
_PLACE = r"(?P<prep>in|near|on|outside)\s+(?P<place>(?-i:[A-Z])[\w'&-]*(?:\s+(?-i:[A-Z])[\w'&-]*)*)"

#: At a person's home or firm in a named place: "at my mum's in Wakefield", "with my
#: brother at his flat in Hull", "at my sister's place near Bath" -> "in Wakefield" (not
#: "to my mum's": a visit is gone to).
_AT_THEIRS_IN = re.compile(r"\bat\s+" + _POSSESSOR +
                           r"(?:\s+(?:new\s+|old\s+|little\s+)?(?:[\w-]+\s+){0,1}?[\w-]+)??"
                           r"\s+" + _PLACE, re.I)

#: A person's thing named by an appositive: "my dad's firm, Hartley Plumbing", "her gym,
#: the Village in Leeds" -> the name.
_THEIRS_NAMED = re.compile(
    _POSSESSOR + r"\s+(?:(?:new|old|little|local)\s+)?(?:[\w-]+\s+){0,1}?[\w-]+,\s+"
    r"(?P<name>(?:the\s+)?(?-i:[A-Z])[\w'&-]*(?:\s+(?-i:[A-Z0-9])[\w'&-]*)*"
    r"(?:\s+(?:in|on|at)\s+(?-i:[A-Z])[\w'&-]*(?:\s+(?-i:[A-Z])[\w'&-]*)*)?)(?=\s*(?:[,.;!?]|$|\s+(?:now|these|since|and|so)\b))",
    re.I)

#: A stay for a while, not where one lives: "for the weekend", "for a week", "over half
#: term"; a visit ("stayed", "visited", "spent a week at"); a habit ("every Sunday").
_A_WHILE = re.compile(r"\b(?:for|over)\s+(?:the|a|an|one|two|three|a\s+few|a\s+couple\s+of)"
                      r"\s+(?:\w+\s+)?(?:nights?|days?|weeks?|weekends?|fortnight|bit|while|"
                      r"holidays?|half\s+term)\b|\bover\s+(?:half\s+term|christmas|easter|"
                      r"the\s+holidays)\b|\b(?:stayed|staying|visit\w*|spent|spending)\b|"
                      # a habit: "every Sunday", "each weekend", "on Fridays"
                      r"\b(?:every|each)\s+\w+|\bon\s+\w+days\b",
                      re.I)


def without_possessor(clause: str) -> str:
    """``clause`` with a person's possessed home or firm said by its place or its name
    ("I've been living at my mum's in Wakefield" -> "I've been living in Wakefield", "I've
    joined my dad's firm, Hartley Plumbing" -> "I've joined Hartley Plumbing"), else as it
    is."""
    said = _THEIRS_NAMED.sub(lambda m: m["name"], clause)
    return _AT_THEIRS_IN.sub(lambda m: f"{m['prep']} {m['place']}", said)


def own_clause(sentence: str) -> str:
    """The speaker's clause of ``sentence`` (cleaned) said without the other person told
    beside it (module doc), or "" when there is none or nothing is left out."""
    s = sentence.strip()
    if not s or s.endswith("?") or _A_WHILE.search(s):
        return ""
    said = without_possessor(_main(s)).strip()
    if said == s or holder_of(said) != "" or \
            not re.match(r"^(?:i|we)\b", subject_first(said), re.I):
        return ""
    # Only a change or a present told: "after my sister's wedding I cried" is no value.
    sig = signals(said)
    return said if sig.change or sig.now or sig.strong or _PRESENT.search(said) else ""


#: A present told: "I am ...", "we have been living ...", "I live in ..." (not any perfect:
#: "I have fixed the car" holds no value).
_PRESENT = re.compile(r"^(?:i|we)(?:'m|'re|(?:'ve|\s+have)\s+(?:been|got)\b|"
                      r"\s+(?:am|are|live|work|bank|drive|go|use|train|rent|own))\b", re.I)
#: The speaker opening the main clause after a subordinate one without a comma: "I" or
#: "we" not ending a coordinated subject ("Since Jo and I broke up I've been living ...":
#: the second "I").
_SPEAKER_OPENS = re.compile(r"(?<!\band)(?<!\bme)\s(?=(?-i:I)(?:'[a-z]+)?\s|we(?:'[a-z]+)?\s)",
                            re.I)


def _main(sentence: str) -> str:
    """The main clause of ``sentence`` opening on a subordinate clause or an adverbial of
    another's (``holders.main_clause``), its speaker's subject the one that does not end a
    coordinated subject ("Since Jo and I broke up I've been living ..." -> "I've been
    living ..."); else the sentence."""
    main = main_clause(sentence)
    if main is sentence:
        return sentence
    if "," in sentence[:len(sentence) - len(main)] or not re.match(r"(?:i|we)\b", main, re.I):
        return main
    # no comma: the main clause opens on the speaker's subject after the subordinate one's
    start = len(sentence) - len(main)
    later = [m.end() for m in _SPEAKER_OPENS.finditer(sentence) if m.end() >= start]
    if later and re.search(r"\band\s*$", sentence[:start], re.I):
        return sentence[later[0]:]
    return main
