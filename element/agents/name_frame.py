"""A new name told in the frame of the old one: the attribute of a name that carries no kind
read from the frame it stands in (issue 23).

Brand and proper names say nothing of what they are to the small embedding model: "Lyca" /
"Three" or "Starling" / "Nationwide" are no nearer than any two names, so "Went with Lyca in
the end, half the price" after "I'm with Three for my phone" answers no attribute of the
profile bank, and both memories stayed current. What says the name is a provider, a club, a
network, is its frame: the verb and preposition around it. Here a name *chosen* (a verb of
changing or choosing, what was moved, then to/with and the name: "ported my number across
to giffgaff", "moved everything over to monzo", "signed up with Community Fibre", "joined
the Knaresborough Striders instead") or *held now* ("I'm on Smarty now") replaces the one
memory of the speaker's that holds a name in a frame of holding (:data:`_HELD`: "my phone
contract is with EE", "I bank with Nationwide", "I run with the Harrogate Harriers",
"our gas comes from British Gas", "I'm a member of the golf club").

Guards, each general grammar or the profile bank, never a list of brands:

- the speaker's own clause ("I"/"we"), neither a question, a wish nor an addition ("also",
  "as well", another account); a clause of another person's ("Mum switched to Octopus")
  is theirs;
- after the name only a time ("now", "in the end", "last month", "in the spring") and at
  most a clause of its own; "for my phone" or what was moved ("my number") must be words of
  the memory it replaces;
- the sentence read by the profile bank answers no attribute clearly, or the one the held
  memory answers ("switched to decaf" is a drink: no bank replaced); one that tells a
  partner ("we got together", "seeing each other") is no provider;
- a name held now ("I'm with Tom now") replaces only a name held by the same verb, "to be"
  ("I'm with Vodafone", "my phone is on O2"): "I bank with HSBC" is not replaced by a
  person one is with;
- exactly one memory held so (two: which one is meant is not said), not a home or a job
  (``slots``: a job lost is the dearer mistake, and ``role.py`` reads "I'm at <Org>"), and
  not naming the new name already.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any, NamedTuple

from index import ATTRIBUTES, TOLD_ADDITION, TOLD_NOT_NOW, terms

from .decisions import Pool
from .episodes import tell
from .holders import without_opening
from .meaning import clauses
from .observation import Observation
from .profile import ANCHOR_GAP, Profile, profiles
from .restated import change_to
from .rules import Candidate
from .slots import names_of, owner, slots_of
from .spoken import maybe_name
from .updates import FACT_WORDS, Memory, content_terms, first_person, is_event

__all__ = ["Chosen", "chosen_name", "chosen_target", "chosen_change", "held_name"]

#: Words before the verb: auxiliaries and adverbs of the moment.
_AUX = (r"(?:(?:have|has|had|just|now|finally|recently|then|actually|eventually|officially|"
        r"already|gone\s+and|went\s+and)\s+)*")
#: A name: capitalised words (small joining words between), "E.ON Next", "O2"; or one
#: lower-case word, as names are texted ("giffgaff", "monzo"), read as a name only when it
#: is no common word (``spoken.maybe_name``).
_NAME = (r"(?:the\s+)?(?P<n>(?-i:[A-Z0-9])[\w&'.-]*(?:\s+(?:(?:and|of|&)\s+)?"
         r"(?-i:[A-Z0-9])[\w&'.-]*)*|(?-i:[a-z])[\w'-]*)")
#: What was moved: a few words, none of them the preposition to come.
_MOVED = r"(?P<moved>(?:(?!(?:to|with|over|across|back|for|in|on)\b)[a-z'-]+\s+){1,4}?)"
#: A name chosen: a verb of changing or choosing, what was moved, to/with and the name;
#: or "joined" and the name.
_CHOSEN = re.compile(
    r"^(?:i|we)\s+" + _AUX +
    r"(?:(?P<v>switched|changed|moved|ported|transferred|swapped|gone|went|go|signed\s+up|"
    r"registered|jumped\s+ship)\s+" + _MOVED + r"?(?:(?:over|across|back)\s+)?"
    r"(?:to|with)\s+|joined\s+)" + _NAME, re.I)
#: A name held now: "I'm on Smarty now", "we're with Plusnet these days".
_HELD_NOW = re.compile(r"^(?:i|we)\s+(?:am|are)\s+(?:now\s+|mostly\s+|currently\s+)?"
                       r"(?P<p>with|on)\s+" + _NAME, re.I)
#: A word of now, which a name held must be told with.
_NOW = re.compile(r"\b(?:now|these\s+days|nowadays|instead|at\s+the\s+moment|currently)\b",
                  re.I)
#: A time after the name, or an aside of speech ("tbh", "lol").
_TIME = (r"(?:now|these\s+days|nowadays|instead|too|eventually|in\s+the\s+end|at\s+last|"
         r"at\s+the\s+moment|yesterday|today|tbh|lol|honestly|"
         r"(?:last|this|since(?:\s+the)?|from(?:\s+the)?)\s+[a-z]+|"
         r"in\s+(?:the\s+)?(?:end|spring|summer|autumn|fall|winter|new\s+year|"
         r"(?-i:[A-Z])[a-z]+|\d{4})|"
         r"(?:a|one|two|three|a\s+few|a\s+couple\s+of)\s+(?:days?|weeks?|months?|years?)"
         r"\s+ago|for\s+(?P<for>(?:my|our|the)\s+[a-z]+(?:\s+(?:and\s+)?[a-z]+)?))")
#: After the name: times, then the clause's end or a clause of its own after a comma.
_AFTER = re.compile(r"^(?:\s+" + _TIME + r")*\s*(?:[,;.!]\s*(?P<clause>.*))?$", re.I)

#: A name held by the speaker, told of a memory in the first person (its verb and
#: preposition): "my phone contract is with EE", "my gas comes from British Gas", "I am
#: on Vodafone", "I bank with Nationwide", "I run with the Harrogate Harriers", "I am a
#: member of the golf club", "we do our weekly shop at Sainsbury's".
_HELD = re.compile(
    r"^(?:(?P<be>(?:my|our)\s+(?:[\w'-]+\s+){0,3}(?:is|are)\s+(?:with|on|through)|"
    r"(?:i|we)\s+(?:am|are)\s+(?:with|on|through))|"
    r"(?:my|our)\s+(?:[\w'-]+\s+){0,4}(?:comes?|is\s+supplied|are\s+supplied)\s+(?:from|by)|"
    r"(?:i|we)\s+(?:am|are)\s+(?:a\s+)?members?\s+(?:of|at)|"
    r"(?:i|we)\s+(?:get|buy|do)\s+(?:my|our|the)\s+(?:[\w'-]+\s+){0,2}?(?:from|at|with)|"
    r"(?:i|we)\s+(?!(?:am|are|was|were|have|has|had|go|went|work|live|stay|am)\b)"
    r"[a-z]{3,}\s+(?:with|through))\s+"
    r"(?:the\s+)?(?-i:[A-Z0-9])", re.I)
#: How well the words of a sentence must answer an attribute of the bank to say it
#: (all-MiniLM-L6-v2, its int8 copy as served: "switched their phone over to Vodafone" a
#: phone .56; a sentence naming a brand alone answers under .35: "has joined the
#: Knaresborough Striders instead, their Sunday runs suit ..." a gym .33).
_SAYS = 0.35
#: The words before what was moved ("all of my savings").
_DETERMINERS = re.compile(r"^(?:(?:my|our|the|all|of)\s+)+", re.I)
#: A person told of by the sentence: the name is someone's ("I'm with Toby now, he moved
#: in last week"), not a provider's (which is "it" or "they").
_PERSON = re.compile(r"\b(?:he|she|him|his|her|hers)\b", re.I)
#: The attributes a held name may not be: a home, a job, a partner (``slots``).
_NOT_HELD = frozenset({"residence", "employer", "occupation", "partner", "commute"})


class Chosen(NamedTuple):
    """A name chosen or held now: the name, what was moved or what it is for ("my number",
    "for my phone"), and how it was told (:data:`SWITCHED`, :data:`CHOSE`,
    :data:`JOINED`, :data:`HELD_NOW`)."""

    name: str
    moved: str
    how: str
    #: Of a name held now, its preposition ("on" of "I'm on Smarty now").
    by: str = ""


#: How a name was told: a verb of switching a thing over ("switched to", "ported my number
#: across to", "moved everything over to", "gone over to", "signed up with"): any name
#: held is replaced by it; a choice ("went with O2 in the end"): one of many things
#: chosen (a holiday, a builder), so only a name held by "to be" ("I'm on Vodafone"); a
#: group joined ("joined the Striders"): a club, a team, a firm, so only a membership
#: ("member of", "club", "team"), or any name held by a verb of doing when told "instead";
#: a name held now ("I'm on Smarty now"): only a name held by "to be".
SWITCHED, CHOSE, JOINED, HELD_NOW = "switched", "chose", "joined", "held now"


def chosen_name(clause: str) -> Chosen | None:
    """A first-person clause's name chosen or held now (:class:`Chosen`: "I am on Smarty
    now, half the price" -> ("Smarty", "", "held now")); None when the clause tells no
    such name, or more after it than a time and a clause of its own naming no other name
    ("We went with Jet2 this year, Tenerife was lovely": a holiday)."""
    said = without_opening(clause.strip())
    m = _CHOSEN.match(said)
    if m is not None:
        verb = (m["v"] or "joined").lower()
        how = JOINED if verb == "joined" else CHOSE if verb in ("went", "go", "gone") and \
            not re.search(r"\b(?:over|across|back)\s+(?:to|with)\b",
                          said[:m.start("n")], re.I) else SWITCHED
        if verb == "moved" and not m["moved"]:
            return None     # "moved (over) to Leeds": a home
    else:
        m = _HELD_NOW.match(said)
        if m is None or not _NOW.search(said):
            return None
        how = HELD_NOW
    name = m["n"]
    if name[:1].islower() and not (maybe_name(name) and len(name) > 2):
        return None     # "switched to nights", "went with it": a common word
    after = _AFTER.match(said[m.end("n"):])
    # (``names_of`` passes over a first word, capitalised as a sentence's: not here, after
    # a comma, where only a name is)
    if after is None or after["clause"] and names_of("and " + after["clause"]):
        return None
    moved = " ".join(x for x in ((m["moved"] or "") if how != HELD_NOW else "",
                                 after["for"] or "") if x).strip()
    return Chosen(name, moved, how, m["p"].lower() if how == HELD_NOW else "")


#: A membership held: a word of a group one belongs to.
_MEMBERSHIP = re.compile(r"\b(?:members?|membership|club|team|society|squad|group|choir|"
                         r"league|union|association)\b", re.I)


def held_name(said: str) -> str | None:
    """How a first-person memory holds a name in a frame of holding (:data:`_HELD`): by
    "to be" ("my phone is on Vodafone": "be"), as a member ("member", a club: "member"),
    by another verb ("I bank with Nationwide": "verb"); None when it does not."""
    m = _HELD.match(said)
    if m is None or {s.name for s in slots_of(said)} & _NOT_HELD:
        return None
    return "be" if m["be"] else "member" if _MEMBERSHIP.search(said) else "verb"


def _fits(read: Chosen, frame: str, sentence: str, said: str) -> bool:
    """Whether a name told so (``read.how``) may replace a name held in ``frame``
    (:data:`SWITCHED`'s note) by the memory ``said`` (first person). A name the speaker is
    on or with now replaces only what the speaker is on or with by the same preposition,
    unless it says what for (``read.moved``: "for my phone"): "I'm on Ozempic now" is no
    new network of "my phone is on Vodafone" nor of "I'm with EE for my phone"."""
    how = read.how
    if how == HELD_NOW and not set(terms(read.moved)) & set(terms(said)) and \
            not re.match(rf"^(?:i|we)\s+(?:am|are)\s+{read.by}\b", said, re.I):
        return False
    if how in (CHOSE, HELD_NOW):
        return frame == "be"
    if how == JOINED:
        return frame == "member" or frame == "verb" and \
            bool(re.search(r"\binstead\b", sentence, re.I))
    return True


def _speakers(sentence: str) -> list[str]:
    """Where ``sentence`` tells a clause of the speaker's ("I"/"we"), read from there to its
    end (what follows the name is read with it): the sentence itself, or from a clause of
    it ("My dad moved his savings to Nationwide and talked me into it, so I'm with
    Nationwide now": from "so I'm")."""
    out = []
    for part in [sentence, *clauses(sentence)]:
        at = sentence.find(part.strip())
        if at < 0:
            continue
        said = re.sub(r"^\s*(?:so|and|but)\s+", "", sentence[at:], flags=re.I)
        if re.match(r"^\s*(?:now\s+)?(?:i|we)\b", said, re.I):
            out.append(said.strip())
    return list(dict.fromkeys(out))


def chosen_target(sentence: str, pool: Pool, who: str,
                  skip: Iterable[str] = ()) -> Memory | None:
    """The speaker's one memory holding a name that a name chosen or held now in
    ``sentence`` (first person, ``rules.clean``ed) replaces (module doc), or None."""
    if sentence.rstrip().endswith("?") or TOLD_ADDITION.search(sentence) or \
            TOLD_NOT_NOW.search(sentence):
        return None
    if "partner" in {s.name for s in slots_of(sentence)} or _PERSON.search(sentence):
        return None     # "I'm with Tom now, we got together in the summer"
    for part in _speakers(sentence):
        read = chosen_name(part)
        if read is None:
            continue
        found = _held_one(sentence, read, pool, who, skip)
        if found is not None:
            return found
    return None


def _held_one(sentence: str, read: Chosen, pool: Pool, who: str,
              skip: Iterable[str]) -> Memory | None:
    name, moved = read.name, read.moved
    names = set(terms(name))
    avoid = set(skip)
    held: list[Memory] = []
    for memory in pool.memories():
        said = first_person(memory["content"], who)
        if memory["id"] in avoid or len(said) != 1 or len(said[0].split()) > FACT_WORDS or \
                is_event(said[0]) or owner(said[0]):
            continue
        frame = held_name(said[0])
        if frame is None or not _fits(read, frame, sentence, said[0]):
            continue
        if names and names <= content_terms(memory["content"], who):
            return None     # the name held already: said again
        held.append(memory)
    if moved and len(held) > 1:
        # "switched my phone over to ...": of several held, the one whose words it names
        held = [m for m in held if set(terms(moved)) & content_terms(m["content"], who)]
    if len(held) != 1:
        return None
    return held[0] if _same_attribute(sentence, read, held[0], pool, who) else None


def _same_attribute(sentence: str, read: Chosen, memory: dict[str, Any], pool: Pool,
                    who: str) -> bool:
    """Whether the words of the sentence say nothing else than the held memory's
    attribute (:func:`_says_nothing_else`), read without what was moved, and what was
    moved is a thing of the memory's (:func:`_moved_fits`, or a word of the memory's:
    "switched the car insurance to ..." of "my car insurance is with Admiral")."""
    embedder = pool.embedder()
    if embedder is None:
        return False
    plain = sentence
    if read.moved:
        plain = re.sub(r"\s+(?:for\s+)?" + re.escape(read.moved) + r"\b", "", sentence,
                       count=1, flags=re.I)
    texts = [tell(plain, who) or plain, memory["content"]]
    if read.moved:
        thing = _DETERMINERS.sub("", read.moved)
        texts.append(f"{who}'s {thing}.")
    try:
        found = profiles(texts, who, embedder)
    except Exception:   # a failing model finds nothing: the statement is added
        return False
    new, old = found[0], found[1]
    return _says_nothing_else(new, old, read.name) and \
        (len(found) < 3 or _moved_fits(found[2], old) or
         bool(set(terms(read.moved)) & content_terms(memory["content"], who)))


def _says_nothing_else(new: Profile, old: Profile, name: str) -> bool:
    """The profile bank reads the sentence as no attribute clearly or as the memory's, or
    reads it weakly (under :data:`_SAYS`: a name's kind is noise to the model, "joined the
    Knaresborough Striders" answers a gym .33 and "runs with the Harrogate Harriers" a car
    .39) or as an attribute the memory answers nearly as well as its own. A lower-case
    word ("switched to decaf", a drink .29) is a name only when the bank reads no
    attribute in it or the memory's."""
    if new.attribute is None or new.attribute == old.attribute:
        return True
    if name[:1].islower() or new.scores is None or old.scores is None:
        return False
    index = ATTRIBUTES.index(new.attribute)
    return float(new.scores[index]) < _SAYS or \
        float(old.scores[index]) >= float(old.scores.max()) - ANCHOR_GAP


def _moved_fits(moved: Profile, old: Profile) -> bool:
    """Whether what was moved ("all my savings", "everything", "my phone") may be a thing of
    the held memory's by the profile bank: it answers no attribute clearly, or the
    memory's. The bank lumps a phone's network with broadband ("Ana's phone is on
    Vodafone" answers broadband .76 as well as its phone), so no share of it is asked:
    "switched the broadband to Sky" is not the phone's, though "ported my number across
    to giffgaff" (a contact) is then left unread."""
    return moved.attribute is None or moved.attribute == old.attribute


def chosen_change(sentence: str, pool: Pool, who: str, turn: int, observation: Observation,
                  taken: list[str]) -> Candidate | None:
    """``sentence`` as a change superseding the memory holding the name its new name takes
    the place of (:func:`chosen_target`), else None."""
    return change_to(chosen_target(sentence, pool, who, taken), sentence, who, turn,
                     observation, taken)
