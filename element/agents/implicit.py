"""A thing of the speaker's told with its owner left out (issue 23): people text news of
their own things with no first-person word at all, the determiner a possessive would take
dropped or said as "the": "The new flat in Leith has a view over the docks", "New Pixel 8
arrived yesterday", "Law degree abandoned after second year", "Second dog arrived on
Saturday". Read as it is, such a sentence speaks of no one, and the rules store nothing.

English needs a determiner before a singular count noun that is a subject; a chat or a
headline drops it, and the one left unsaid in a turn about the speaker's own life is
"my". So is "the new ...": of something new in the speaker's life, "the" stands for "my"
(nobody else's new flat is the speaker's news). A sentence of either build, in a turn that
says nothing of anyone else (no third person by pronoun or possessive, no "you" in it), is
written with "my" ("My new flat in Leith has ...", "My law degree abandoned after second
year"); the rules then read it as any other statement of the speaker's. Not rewritten: a
time, the weather or the moment as the subject ("New year in Paris was fun", "Traffic
eased off by noon": the closed classes of time and of mass nouns of the world around
one), an adjective or a participle of feeling (no noun), a name as the head ("Tom arrived
on Saturday" is Tom's news), a verb or an adverb opening.

Pure functions over the turn's text (``rule_evaluator`` calls :func:`owned` before the
keyed rules and the episodes read it).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from index import RELATIONS

from .cleaning import owned_nouns
from .dates import time_phrase
from .days_held import told_by_days
from .episode_words import ADVERBS, FAMILY, GENERIC, PARTICIPLES, PAST, STOP, routine
from .irregular import PARTICIPLES as IRREGULAR_PARTICIPLES
from .labelled import labelled
from .questioned import told_in_question
from .spoken import LEAD, NOT_NAMES, maybe_name

__all__ = ["owned", "others_named", "held"]

#: Nouns of time, whose "new" is the calendar's, not a thing the speaker has ("New year in
#: Paris", "the new term starts Monday").
_TIME = frozenset("""year years day days week weeks month months term terms season seasons
era chapter beginning beginnings normal morning evening night weekend today tonight
semester quarter decade century moment""".split())
#: Mass nouns of the world around one, which take no determiner and belong to nobody
#: (weather, traffic, time and the like: a grammar book's uncountables of daily talk), and
#: the bare words of chat for "everything" ("Life got busy", "Traffic eased off").
_WORLD = frozenset("""weather rain snow sun sunshine wind fog ice heat cold traffic time life
news stuff everything nothing something anything everyone nobody someone things world
business money luck fun progress history nature""".split())
_SENTENCE = re.compile(r"(?<=[.!?])\s+")
#: Another person in the turn: a third-person pronoun, or "you" (what the sentence tells
#: may be the other person's), or a possessive of a name or a word for a person ("Jess's",
#: "Mum's").
_THIRD = re.compile(r"\b(?:he|she|him|his|her|hers|they|them|their|theirs|himself|herself|"
                    r"themselves)\b", re.I)
_SECOND = re.compile(r"\b(?:you|your|yours|yourself|u|ur)\b", re.I)
_POSSESSIVE = re.compile(r"\b[A-Za-z][a-z]+'s\s+(?!(?:is|are|was|has|been|got|gone|had|not|a|"
                         r"an|the|so|really|very|just|still|now|also|always|never|going|"
                         r"getting)\b)[a-z]", re.I)
_FIRST = re.compile(r"\b(?:I|me|my|mine|we|us|our|ours)\b", re.I)
#: The words that can follow a subject as its verb: "be", "have" and the modals, finite;
#: a past form or a past participle of a headline ("abandoned") and a present in "-s" are
#: told by their endings (``_verbs``).
_FINITE = re.compile(r"(?:is|are|was|were|has|have|had|'s|will|would|can|could)$", re.I)
#: A word that can head a noun phrase's modifiers: a word (a name or a number too), no
#: punctuation.
_WORD = re.compile(r"^[A-Za-z0-9][\w'&+-]*$")


def _past(word: str) -> bool:
    """Whether ``word`` is a past form or a past participle ("arrived", "went", "gone"),
    not an adjective of feeling ("excited") nor "was", "had", "did"."""
    low = word.lower()
    if low in PARTICIPLES or low in ("was", "were", "had", "did", "need", "used", "been"):
        return False
    return low in PAST or low in IRREGULAR_PARTICIPLES or \
        (low.endswith("ed") and len(low) > 4)


def _verbs(words: list[str], start: int) -> Iterator[int]:
    """The indexes of the words from ``start`` on that can be the subject's verb (a finite
    "be", "have" or modal, a past or past participle, a present in "-s": "overlooks"),
    within six words, up to the first punctuation (a comma after the verb itself is
    fine: "... cancelled, far too dear")."""
    for i in range(start, min(len(words), start + 6)):
        w = words[i]
        core = w.rstrip(",;:")
        low = core.lower()
        if _FINITE.match(core) or _past(core) or \
                low.endswith("s") and not low.endswith(("ss", "'s")) and len(low) > 3:
            yield i
        if core != w or not _WORD.match(w):
            return


def _noun_phrase(words: list[str]) -> bool:
    """Whether ``words`` (before the verb) can be a noun phrase of a thing: its head, the
    last word, a lowercase noun (not a name, so no person; not a time, nor the world
    around one; not a function word, an adverb, a feeling or a gerund), its modifiers
    words or names ("David Lloyd membership", "Pixel 8" after "new")."""
    if not words or len(words) > 5:
        return False
    head = words[-1]
    low = head.lower()
    return (head.islower() or len(words) == 1) and len(low) > 2 and \
        not any(low in closed for closed in (STOP, GENERIC, ADVERBS, PARTICIPLES, _TIME,
                                             _WORLD)) and \
        not low.endswith(("ly", "ing")) and \
        all(re.fullmatch(r"[A-Za-z0-9-]+", w) and w.lower() not in STOP for w in words)


def _new_thing(words: list[str]) -> bool:
    """Whether ``words`` (before the verb) are "the new ..." or "new ...": something new,
    a name (the make of a phone, a place) or a noun after ("the new Pixel 8", "the new flat
    in Leith", "new job at Arup"): not a time ("the new year")."""
    low = [w.lower() for w in words]
    if low[:2] == ["the", "new"] or low[:2] == ["brand", "new"]:
        rest = words[2:]
    elif low[:1] == ["new"] and len(words) > 1 and words[1][:1].islower():
        rest = words[1:]    # (a name after a bare "New" is one name: "New York is great")
    else:
        return False
    if not rest or rest[0].lower() in _TIME or rest[0].lower() in STOP:
        return False
    # (where it is may follow: "the new flat in Leith", "new job at Sainsbury's")
    cut = next((i for i, w in enumerate(rest) if w.lower() in ("in", "at", "on", "with",
                                                                "from", "near", "for")), len(rest))
    thing = rest[:cut]
    return bool(thing) and len(thing) <= 3 and all(_WORD.match(w) for w in rest) and \
        thing[-1].lower() not in _TIME and thing[-1].lower() not in _WORLD


#: The nouns of the things a person has (the profile's, ``cleaning.owned_nouns``), not a
#: person ("the kids", "the boss": whose is not said) nor a time or the world around one.
_THINGS = frozenset(n for n in owned_nouns().split("|")
                    if n not in RELATIONS and n not in FAMILY and n not in _TIME and
                    n not in _WORLD)


def _the_thing_at(words: list[str]) -> bool:
    """Whether ``words`` (before the verb) are "the", a noun of a thing a person has
    (``_THINGS``) and where it is, by its preposition and a name ("the job at Lidl", "the
    flat in Leith"): the speaker's, as "my" would say. Not "the kids had a blast" (a
    person), "the gym is great" (no name: which gym is the talk's)."""
    return len(words) >= 4 and words[0].lower() == "the" and words[1] in _THINGS and \
        words[2].lower() in ("at", "in", "on", "with", "from", "near") and \
        all(w[:1].isupper() or w.lower() == "the" for w in words[3:]) and \
        any(w[:1].isupper() for w in words[3:])


def _thing_at_named(words: list[str]) -> bool:
    """Whether ``words`` (before the verb) are a bare noun of a thing, one or two words, and
    where it is by a name ("Membership at the David Lloyd club", "Lessons at the Leeds
    College of Music", "Season ticket at Elland Road"): a thing of the speaker's, with its
    "my" dropped, as a headline drops it. Not a time ("Year seven at Kingsmead"), nor the
    world around one, nor a name alone before where it is ("Gemma at Tesco": a person's
    name is capitalised inside the sentence too, which a common noun after the first word
    is not)."""
    at = next((i for i, w in enumerate(words) if w.lower() in ("at", "in", "with", "from")),
              None)
    if at is None or not 1 <= at <= 2 or at + 1 >= len(words):
        return False
    head, place = words[:at], words[at + 1:]
    if place[0].lower() == "the":
        place = place[1:]
    names = [w for w in place if w[:1].isupper()]
    if not names or not place[0][:1].isupper() or len(place) - len(names) > 1 or \
            any(w[:1].islower() for w in place[:len(names)]):
        return False    # a name, then at most one lowercase noun ("... David Lloyd club")
    if len(head) == 2 and head[1][:1].isupper():
        return False    # "Tom Smith at Tesco": a person's full name
    low = [w.lower() for w in head]
    return all(_WORD.match(w) for w in head) and \
        not any(w in closed for w in low for closed in (STOP, GENERIC, ADVERBS, PARTICIPLES,
                                                        _TIME, _WORLD, FAMILY, RELATIONS)) \
        and not any(w.endswith(("ly", "ing")) for w in low) and \
        not (len(head) == 1 and maybe_name(head[0]) and head[0].lower() not in _THINGS
             and not _THING_SUFFIX.search(low[0]))


#: Endings of nouns of things and arrangements, not of names ("membership", "subscription",
#: "tenancy", "agreement").
_THING_SUFFIX = re.compile(r"(?:ship|tion|sion|ment|ance|ence|ancy|ency|age|ure|ery|ism|"
                           r"ness|ity|lessons|classes|course)$")


def others_named(text: str) -> bool:
    """Whether a turn says something of someone other than the speaker: a third-person
    pronoun or a possessive of a name or a word for a person (``_THIRD``,
    ``_POSSESSIVE``)."""
    return bool(_THIRD.search(text) or _POSSESSIVE.search(text)) or any(
        _NAMED_ACTS.match(LEAD.sub("", part)) and maybe_name(part.split()[0])
        for part in _SENTENCE.split(text) if part.strip())


#: A sentence opening on a name and its own verb ("Jess is moving", "Tom got a job"):
#: someone else's news in the turn.
_NAMED_ACTS = re.compile(r"^(?-i:[A-Z])[a-z]+\s+(?:is|was|has|had|got|just|\w+ed|"
                         r"(?!\w*ss\b)\w+s\s+(?:at|in|to|for|with|on|a|an|the)\b)\b")


def _sentence(said: str) -> str:
    """One sentence with "my" put before the thing of the speaker's it opens on, when it
    is one (see the module); else as said."""
    lead = LEAD.match(said)
    start = lead.end() if lead and lead.end() < len(said) else 0
    body = said[start:]
    words = body.split()
    # (a texted turn in lower case may open on "the new ..." too: "the new place in Leith
    # is gorgeous"; another lowercase opening is a fragment of something said before)
    if len(words) < 3 or _SECOND.search(body) or words[0][:1].islower() and not start and \
            words[0] not in ("the", "new", "brand"):
        return said
    if routine(body) or told_by_days(body):
        # "Saturdays are for the climbing wall now", "Mondays are yoga now": the speaker's
        # week, by its days
        day = re.match(r"(?:mon|tues|wednes|thurs|fri|satur|sun)days?$", words[0], re.I)
        return said[:start] + ("my " if start else "My ") + \
            (words[0].capitalize() if day else _uncapped(words)) + body[len(words[0]):]
    for verb in _verbs(words, 1):
        written = _subject(said[:start], body, words, verb)
        if written is not None:
            return written
    return said


def _subject(lead: str, body: str, words: list[str], verb: int) -> str | None:
    """``body`` (after ``lead``) with "my" put before its subject, the words before
    ``verb``, when that is a thing of the speaker's with its owner left out; else None."""
    # (an adverb between the subject and its verb: "Boxes all unpacked", "Course finally
    # finished")
    end = verb
    while end > 1 and words[end - 1].lower() in ADVERBS:
        end -= 1
    subject = words[:end]
    if _FIRST.search(" ".join(subject)):
        return None
    my = "my" if lead else "My"
    if _new_thing(subject):
        # "The new flat ..." -> "My new flat ...", "New Pixel ..." -> "My new Pixel ..."
        told = body[3:] if words[0].lower() == "the" else " " + words[0].lower() + \
            body[len(words[0]):]
        return lead + my + told
    if _the_thing_at(subject):
        # "The job at Lidl starts Monday", "The flat in Leith has ...": "the" before a
        # thing a person has and where it is, by name
        return lead + my + body[3:]
    if _thing_at_named(subject) and _past(words[verb].rstrip(",;:")) and \
            not (words[verb][-1:].isalnum() and verb + 1 < len(words) and
                 words[verb + 1].lower() in _OBJECTS):
        # "Membership at the Nuffield gym came through", "Lessons at the Leeds College of
        # Music started on Monday": a thing at a place named, done to or begun
        return lead + my + " " + _uncapped(words) + body[len(words[0]):]
    first = subject[0].lower()
    if first in _DETERMINERS or first in NOT_NAMES or first in PAST or first in ADVERBS or \
            first.endswith(("ed", "ing", "ly")) or len(subject) < 2 or \
            not _past(words[verb].rstrip(",;:")) or not _noun_phrase(subject):
        return None
    # (not a verb with its object: "Big storm knocked the fence down" is the world's event;
    # a headline's thing of the speaker's is done to or ends: "... cancelled", "... arrived
    # on Saturday")
    after = words[verb + 1].lower() if verb + 1 < len(words) else ""
    if words[verb][-1:].isalnum() and after in _OBJECTS:
        return None
    # "Law degree abandoned ...", "Second dog arrived ...": the bare noun phrase of a
    # headline, its "my" dropped (one word alone may be a name: "Tom arrived").
    return lead + my + " " + _uncapped(words) + body[len(words[0]):]


#: Words that open a verb's object: a determiner, a possessive or an object pronoun.
_OBJECTS = frozenset("the a an this that these those my your his her its our their it them "
                     "him me us some any every each no".split())
#: Determiners and demonstratives: a noun phrase that has one has its owner said.
_DETERMINERS = frozenset("the a an this that these those its every each some any no "
                         "another".split())


def _uncapped(words: list[str]) -> str:
    """The sentence's first word as it reads inside a sentence: lowercase, unless a name
    of several capitalised words opens it ("David Lloyd membership")."""
    first = words[0]
    if len(words) > 1 and words[1][:1].isupper():
        return first
    return first[:1].lower() + first[1:]



def owned(text: str) -> str:
    """``text`` (one user turn) with each sentence that tells a thing of the speaker's with
    its owner left out written with "my" (:func:`_sentence`), when the turn says nothing
    of anyone else (:func:`others_named`); news told under a label first written as the
    speaker's statement (``labelled.py``: "Gym update: Nuffield Health now"), and the news a
    question carries put after it as a statement (``questioned.py``: "... now that I live
    in Leeds?")."""
    text = told_in_question(labelled(text))
    if others_named(text):
        return text
    parts = _SENTENCE.split(text)
    written = [_sentence(p) for p in parts]
    return text if written == parts else " ".join(written)


#: The verbs of having and using a thing, as a memory of the speaker's says them ("Ana
#: drives a Toyota Yaris", "Ana uses an iPhone 12"). Not "has": what one has by that verb
#: is as often a person or a pet, whose names LoCoMo's held-out talk uses of others too
#: (conversations 3-4 .608/.717 -> .606/.713 with it, .606/.711 with the noun of what is
#: had: "has an allotment").
_HAVING = re.compile(r"^(?:owns|drives|rides|uses)\b")


def held(memories: Iterable[str], who: str) -> set[str]:
    """The names of the things ``who`` has, as their memories tell it by a verb of having
    (``_HAVING``: "Henrike drives a Toyota Yaris" -> Toyota, Yaris): a thing of theirs the
    speaker names with "the" or alone ("The Yaris needs new tyres") is theirs, as a person
    of theirs named alone is (``narration.kin``)."""
    found: set[str] = set()
    for content in memories:
        if content.startswith(f"{who} ") and _HAVING.match(content[len(who) + 1:]):
            found.update(n for n in re.findall(r"(?<=\s)[A-Z][a-z]+\b", content)
                         if n != who and n.lower() not in STOP and n.lower() not in NOT_NAMES
                         and not time_phrase(n.lower()))
    return found
