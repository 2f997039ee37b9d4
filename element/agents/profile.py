"""Which of a person's attributes a statement is about, by meaning: the profile questions
it answers.

The keyed rules (``rules.py``) and the slots (``slots.py``) name an attribute by the shape
or the words of a sentence; people say a change in words neither knows ("Treated myself to
a Galaxy S24, the old one's in a drawer" after "I've got a Motorola Razr"). Here the
attribute is found by meaning: a small bank of questions one asks to fill in a person's
profile (where they live, who they work for, what phone they have, who they bank with...),
embedded once with the store's own model (the bank and its vectors are
``index/profile_bank.py``'s: recall reads them too). A statement answers best the question of its
attribute, whatever its words; two statements of one holder answering best (and clearly)
the same question of a *single-valued* attribute, and answering the whole bank alike, are
the old value and the new one (:func:`profile_target`).

Why it is general: the bank is a generic person-profile schema (the fields of a contact
record, an intake form, a CRM profile: home, work, education, family, health, services,
possessions, tastes), written as questions, not from any case or sentence; nothing in it
names a value. The texts compared are stripped of the subject's name and of the words of
change and time (``updates.strip_for_attribute``), so the attribute is compared, not the
person or the cue. What may be replaced is decided by the guards the other finders use
(same holder, one-fact memories that are not past events, no addition or plan); of a
many-valued attribute (a pet, a language, a drink, a hobby) only a strong change cue
("swapped", "instead") replaces. Pure functions over texts and an embedder.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from index import (ATTRIBUTES, Attribute, Embedder, attribute_scores, names_anyone,
                   job_first, kind_first, named_attribute, question_vectors, tells_job)

from .slots import PEOPLE, names_of, owner
from .holders import (UNKNOWN, by_order, framed, kin_modifier, main_clause, memory_holder,
                      possessed, same_holder, subjectless)
from .among import shares, speaker_object
from .opening import done_to_speaker, from_subject
from .person_subject import person_subject
from .kin_values import of_a_kind
from .parts import part_of
from .updates import FACT_WORDS, Memory, first_person, is_event, strip_for_attribute

__all__ = ["ATTRIBUTES", "Attribute", "Profile", "profiles", "profile_target", "whose",
           "holds_thing", "anothers_clause",
           "same_value",
           "ANSWERS_MIN", "ANSWERS_MARGIN", "ALIKE_MIN", "SIMILAR_FLOOR"]


#: The least cosine of a statement (stripped) with its attribute's best question for it to
#: answer that question at all (all-MiniLM-L6-v2: "lives in Swindon" / "Where do they
#: live?" .41; statements about nothing of the bank stay under .25).
ANSWERS_MIN = 0.28
#: How much better than any other attribute's question it must answer its own.
ANSWERS_MARGIN = 0.02
#: The least cosine of two statements' answers to the whole bank (each centred): they
#: are about one attribute, not merely nearest to one question.
ALIKE_MIN = 0.6
#: The least cosine of the stripped texts themselves: an attribute's values alike in kind.
SIMILAR_FLOOR = 0.2
#: A statement that answers no attribute clearly may still give the attribute of the one
#: memory it is near (:func:`_anchored`): its answer to that attribute at least this, and
#: within ``ANCHOR_GAP`` of its best answer.
ANCHOR_MIN = 0.18
#: A statement's held noun naming the kind of an attribute's values (``index.noun_kinds``)
#: reads as that attribute when the model answers it within this of its best answer
#: ("badminton now": hobby .37, sport .33; "the oat lattes": a favourite .38, a drink
#: .34), never against a reading clearly above it ("cycles to work on a road bike": how
#: one commutes .39, a vehicle .24).
KIND_WITHIN = 0.08
ANCHOR_GAP = 0.03


@dataclass(frozen=True)
class Profile:
    """A statement's answers to the bank: its attribute (None: it answers none clearly),
    its centred answers to every attribute, and its stripped text's unit vector."""

    attribute: Attribute | None
    answers: np.ndarray
    vector: np.ndarray
    #: Its raw answer to each attribute (the best cosine with its questions).
    scores: np.ndarray | None = None


def _unit(vectors: Any) -> np.ndarray:
    matrix: np.ndarray = np.asarray(vectors, dtype=np.float32)
    unit: np.ndarray = matrix / np.maximum(np.linalg.norm(matrix, axis=1, keepdims=True), 1e-9)
    return unit


def profiles(texts: list[str], who: str, embedder: Embedder) -> list[Profile]:
    """Each third-person text's :class:`Profile` (``who``'s name, the words of change and
    time and how often, :func:`_unhabitual`, stripped first; a self-description answers
    no attribute of another person's, :func:`names_another`)."""
    # The store's embedder keeps recent texts' vectors (index/embed_cache.py): the pool's
    # memories, which come back observe after observe, are not embedded again.
    stripped = [_unhabitual(strip_for_attribute(_alone(t, who), who)) for t in texts]
    vectors = _unit(embedder.embed(stripped))
    per = attribute_scores(vectors, question_vectors(embedder))
    out = []
    for row, vector, text, said in zip(per, vectors, texts, stripped, strict=True):
        raw: np.ndarray | None = None
        if not names_another(text, who):
            row = np.where(_ANOTHER, np.float32(0.0), row)
        if tells_job(said):
            # read by its grammar (``occupation``): the model reads the other words
            # ("in Derby": a home; "vans": a car)
            row = job_first(row, 1.5 * ANSWERS_MARGIN, ANSWERS_MIN)
        elif (named := named_attribute(said)) is not None:
            # what its held noun names (``noun_kinds``: a spaniel is an animal, a cello a
            # musical instrument), among readings near the model's best; its raw answers
            # kept as the model gave them (``fragments.held_attributes`` reads the near ones)
            raw = row
            row = kind_first(row, named, 1.5 * ANSWERS_MARGIN, ANSWERS_MIN, KIND_WITHIN)
        order = np.argsort(-row)
        best, second = float(row[order[0]]), float(row[order[1]])
        clear = best >= ANSWERS_MIN and best - second >= ANSWERS_MARGIN
        centred = row - row.mean()
        centred /= max(float(np.linalg.norm(centred)), 1e-9)
        out.append(Profile(ATTRIBUTES[int(order[0])] if clear else None, centred, vector,
                           row if raw is None else raw))
    return out


#: The attributes asked of another person of the subject's (``Attribute.another``).
_ANOTHER = np.array([a.another for a in ATTRIBUTES])
#: "is a dental nurse", "works as a store manager": the subject said to be what a noun
#: names, a description of the subject, never who another person of theirs is.
_SELF_CLASSIFIED = re.compile(r"^(?:is|works as|worked as)\s+(?:an?|the)\s", re.I)
#: Another person of the subject's named otherwise than by a word of
#: ``profile_bank.RELATIONS``: by a title ("sees Dr. Nguyen", "Mia's GP"), as someone
#: called so ("works under a director called Fiona"), or as whom the subject reports to
#: or works under ("Ines reports to Marcus").
_ANOTHER_NAMED = re.compile(r"\b(?:gps?|(?:dr|mr|mrs|ms|miss|prof)\b\.?\s*(?-i:[A-Z])|"
                            r"(?:called|named)\s+(?-i:[A-Z])|"
                            r"(?:reports?|reporting)\s+to\b|(?:works?|working)\s+under\b)",
                            re.I)


def names_another(text: str, who: str) -> bool:
    """Whether a third-person text of ``who``'s may tell an attribute of another person of
    theirs (``Attribute.another``: their child's school, their boss, their GP): only when
    it names a person of theirs (``index.names_anyone``: "sister", "boss", "son"; or
    :data:`_ANOTHER_NAMED`: "Dr. Nguyen", "a director called Fiona"), as recall reads a
    memory (``index/own_answer.py``), and never
    when it says its subject is what a noun names ("is a dental nurse", "is a store
    manager at H&M": a job, not who their dentist or manager is). A description of the
    subject alone (told of ``who``) is the subject's own attribute: "Megan is 29" is her
    age, not her child's; "manages the night shift at a warehouse" is a job, not who
    manages her."""
    stripped = strip_for_attribute(text, who)
    if _SELF_CLASSIFIED.match(stripped):
        return False
    # Only a text told of the subject ("Megan is 29") is a description of them; a
    # fragment told of no one ("Two now, and into everything") may be anyone's.
    told_of_subject = bool(who) and re.match(rf"\W*{re.escape(who)}\b", text.strip()) is not None
    return not told_of_subject or names_anyone(stripped) or \
        bool(_ANOTHER_NAMED.search(stripped))


#: That a thing is done every day or most days ("every day", "most mornings", "daily"):
#: when, not what; left out, a habit told with it reads as its attribute ("cycles to work
#: every day" is how one gets to work, not one's working pattern). A count kept ("three
#: times a week"): a routine of so many sessions is what an exercise or a class is.
_DAY = r"(?:mon|tues|wednes|thurs|fri|satur|sun)day"
_HOW_OFTEN = re.compile(
    rf"\b(?:(?:every|each)\s+(?:other\s+|single\s+)?(?:day|morning|evening|night|week|"
    rf"weekend|month|year|{_DAY})|most\s+(?:days|mornings|evenings|nights|weeks|weekends)|"
    r"daily)\b", re.I)


def _unhabitual(text: str) -> str:
    """``text`` without how often (:data:`_HOW_OFTEN`)."""
    return " ".join(_HOW_OFTEN.sub(" ", text).split()) or text


def _alone(text: str, who: str) -> str:
    """``text`` with the people the subject is told with left out ("The kids and Ana are in
    Leith now" -> "Ana are in Leith now"): whose attribute it is, not who came along."""
    return re.sub(rf"^(?:[\w'-]+\s+){{1,3}}and\s+(?={re.escape(who)}\b)", "", text) if who \
        else text


#: "My line manager is Deborah", "my GP is Dr. Shah", "my boss is a woman called Dorothy":
#: a person of the speaker's named by their role, the speaker's attribute (who their
#: manager is), not the person's own fact ("my mum's GP is Dr. Reid" is the mum's).
_NAMES_WHO = re.compile(r"^(?:my|our)\s+(?:[\w-]+\s+){0,2}?[\w-]+\s+(?:is|are)\s+"
                        r"(?:(?:now\s+)?an?\s+(?:[\w-]+\s+)?(?:woman|man|guy|bloke|lady|chap|"
                        r"girl|lad|fella|fellow|person|gentleman)\s+)?"
                        r"(?:called\s+|named\s+)?(?:(?:dr|mr|mrs|ms|miss|prof)\.?\s+)?"
                        r"(?-i:[A-Z][a-z])", re.I)

#: The same said the other way round: "Leicester Tigers are my rugby team", "Dr. Shah is
#: our GP".
_NAMED_MINE = re.compile(r"^(?:(?:dr|mr|mrs|ms|miss|prof)\.?\s+)?(?-i:[A-Z])[\w&'-]*"
                         r"(?:\s+(?-i:[A-Z])[\w&'-]*)*\s+(?:is|are)\s+(?:my|our)\s+", re.I)


def whose(sentence: str) -> str:
    """Whose a first-person sentence is, for comparing by meaning: the person or animal
    a sentence opening "my/our ..." names ("My brother has a flat in Brighton now",
    "my daughter is in Year 2"), with the name it introduces ("my son Jaxon is in 2nd
    grade" is "son jaxon": a later "Jaxon started ..." is his, and so is "my son ..."),
    the speaker for "my husband and I", else ``slots.owner``: a person's attribute is
    never the speaker's however it is said; told in a frame of the speaker's ("I can't
    believe my son is two"), its clause's."""
    # "Since the restructure Marcus is my boss": its main clause's.
    sentence = main_clause(framed(from_subject(sentence)))
    if done_to_speaker(sentence) or shares(sentence) or \
            done_to_speaker(speaker_object(sentence)):
        return ""       # "My sister talked me into rowing": the speaker's rowing; "we all ..."
    if re.match(r"^(?:my|our|the)\s+(?:[\w'-]+\s+){0,2}?[\w'-]+\s+and\s+(?:i|me)\b", sentence,
                re.I):
        return ""
    if held := possessed(sentence) or by_order(sentence):
        return held     # "Leo's friend Max is ten": Max's, not Leo's; "our youngest ..."
    if _NAMES_WHO.match(sentence) or _NAMED_MINE.match(sentence) or kin_modifier(sentence):
        return ""       # "my line manager is Deborah": who the speaker's manager is
    if m := re.match(r"^(?:my|our)\s+((?:[\w'-]+\s+){0,2}[\w'-]+)", sentence, re.I):
        for word in m[1].lower().split():
            kin = re.sub(r"'s?$", "", word)
            # "brother-in-law"; "our lodger's moved out": a person by what they are
            if kin in PEOPLE or set(kin.split("-")) & PEOPLE or person_subject(sentence) == kin:
                # "my son Jaxon", not "my sister's Toyota" (a thing of hers).
                named = None if word.endswith(("'s", "'")) else re.match(
                    rf"^(?:my|our)\s+(?:[\w'-]+\s+){{0,2}}?{re.escape(word)}\s+"
                    r"((?-i:[A-Z][a-z]+))\b(?!')", sentence, re.I)
                return f"{kin} {named[1].lower()}" if named else kin
    return owner(sentence)


def anothers_clause(clause: str, sentence: str) -> bool:
    """Whether ``clause`` of ``sentence``, its subject dropped ("bought a Tesla" of "My
    brother sold his Golf and bought a Tesla"), is the sentence's subject's and that is
    another holder's (:func:`whose`): the brother's car, never the speaker's. A clause with
    a subject of its own ("..., so I got a Kia") is read as its own."""
    return clause.strip() != sentence.strip() and subjectless(clause) and \
        whose(sentence) not in ("", UNKNOWN)


def holds_thing(sentence: str, thing: str, content: str, who: str) -> bool:
    """Whether the memory (``content``, third person) found for a thing a sentence calls
    new is of the one whose the thing is: whose the clause naming it is (:func:`whose`:
    "my wife got a new job at KPMG" is hers, never the speaker's job; "Fiona's been
    replaced, my new director is Mei-Ling" is the speaker's director), the memory's
    holder the same ("Mia switched schools" and "my daughter Mia goes to ...")."""
    words = thing.lower().split()
    parts = [p for p in _PARTS.split(sentence) if p and p.strip()]
    said = next((p for p in parts if words and words[-1][:4] in p.lower()), sentence)
    if words and re.search(rf"\b(?:my|our)\s+(?:[\w-]+\s+){{0,2}}?{re.escape(words[-1][:4])}",
                           said, re.I):
        return True     # "Please use my new address, ...": the speaker's, whoever acts
    by = whose(said.strip())
    if by in ("", UNKNOWN):
        return True
    held = first_person(content, who)
    return len(held) == 1 and same_holder(memory_holder(held[0]), by)


#: Where a sentence's clauses part: a comma, a semicolon, a dash, "so", "and", "but".
_PARTS = re.compile(r"\s*(?:[,;:]|\s-\s|\b(?:so|and|but|because|since)\b)\s*", re.I)


#: Numbers said in words: a value as much as "7" is ("my youngest is two"), and ordinals
#: ("third grade", "her second year"; not "first", which is mostly "at first", "my first
#: day": a beginning, not a rank held).
_NUMBER = re.compile(r"\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|"
                     r"twelve|[a-z]+teen|twenty|thirty|forty|fifty|sixty|seventy|eighty|"
                     r"ninety|hundred|second|third|fourth|fifth|sixth|seventh|eighth|ninth|"
                     r"tenth|eleventh|twelfth|[a-z]+teenth)\b", re.I)


@lru_cache(maxsize=50_000)
def values(text: str, who: str) -> frozenset[str]:
    """The values a third-person text names: its proper names (past the first word, not
    ``who``'s) and its numbers."""
    own = {w.lower() for w in who.split()}
    names = {re.sub(r"'s?$", "", name) for name in names_of(text)}
    return frozenset((names - own) | {m.lower() for m in _NUMBER.findall(_ONE.sub(" ", text))})


def same_value(old: str, new: str, who: str) -> bool:
    """Whether ``new`` names the very proper names ``old`` names, and some ("Tom and I have been
    together twelve years" after "Ana is married to Tom": Tom both times): the attribute's
    value said again with more about it, not a new one."""
    own = {w.lower() for w in who.split()}
    held = {re.sub(r"'s?$", "", n) for n in names_of(old)} - own
    # The new statement's names wherever they stand ("Tom and I ..."); numbers of it
    # ("twelve years") say how long, not which.
    said = {re.sub(r"'s?$", "", n) for n in names_of("x " + new)} - own
    return bool(held) and said == held


#: "One" standing for a thing named before ("the oldest one", "a new one", "this one"): a
#: pronoun, not a number.
_ONE = re.compile(r"\b(?:the|a|an|this|that|which|another|each|every|any|no|new|old|"
                  r"\w+est|big|small|little|same|other|right|wrong)\s+one(?:s)?\b", re.I)


def profile_target(statements: Sequence[tuple[str, str, bool]], candidates: Iterable[Memory],
                   who: str, embedder: Embedder, skip: Iterable[str] = (), *,
                   named: bool = True, only: frozenset[str] | None = None) -> Memory | None:
    """The one memory whose attribute a statement gives a new value by meaning, for the
    first of ``statements`` (each a third-person text of ``who``'s, its holder, and
    whether it has a strong change cue) that finds one. Without a strong cue, both must
    name a value (a name, a number) and the statement one the memory lacks: chat is full
    of tastes and doings that answer a profile question alike ("loves fantasy novels",
    "is reading a great book"), a profile's values are named things. Then both answer
    best and clearly the same profile question, of a single-valued attribute (any
    attribute with a strong cue), answer the bank alike (``ALIKE_MIN``) and are alike in
    kind (``SIMILAR_FLOOR``), and the memory is the holder's (:func:`whose`). Only one-fact
    memories that are not past events are meant; two such memories of the attribute (two
    pets, two languages) make it ambiguous: none. One model call at most: the memories'
    stripped texts are remembered from observe to observe. Without ``named``, a statement
    said to hold now (``present.py``) needs no named value, only a different text, and
    answers its attribute clearly itself (no anchoring); with ``only``, just those
    attributes are meant. A statement about a part or an accessory of the attribute's
    thing ("my phone case is from Etsy", ``parts.py``) gives it no value."""
    avoid = set(skip)
    pool: list[tuple[Memory, str]] = []
    for memory in candidates:
        if memory["id"] in avoid:
            continue
        held = _fact_of(memory["content"], who)
        if held is not None:
            pool.append((memory, held))
    # Which memories each statement may replace, before any model call: most statements
    # of a conversation have none.
    possible = [[i for i, (memory, held) in enumerate(pool)
                 if _held_by(held, holder, memory["content"], who)
                 and (strong or _new_value(memory["content"], text, who) or
                      not named and _other_text(memory["content"], text) or
                      of_a_kind(text, memory["content"], who))]
                for text, holder, strong in statements]
    if not any(possible):
        return None
    used = sorted({i for found in possible for i in found})
    found = profiles([text for text, _, _ in statements] + [pool[i][0]["content"] for i in used],
                     who, embedder)
    olds = dict(zip(used, found[len(statements):], strict=True))
    for (text, _, strong), new, may in zip(statements, found, possible, strict=False):
        if new.attribute is None or \
                only is not None and new.attribute.name not in only or \
                part_of(text, new.attribute):
            continue    # "Ana's phone case is from Etsy": a part of a phone, not one
        # Of a many-valued attribute, without a strong cue, only a value of the old one's
        # kind told as now ("plays squash now" after "plays tennis": ``kin_values.py``).
        many = not (new.attribute.single or strong)
        meant = [pool[i][0] for i in may if olds[i].attribute is new.attribute
                 and float(olds[i].answers @ new.answers) >= ALIKE_MIN
                 and float(olds[i].vector @ new.vector) >= SIMILAR_FLOOR
                 and (not many or of_a_kind(text, pool[i][0]["content"], who))]
        if len(meant) == 1:
            return meant[0]
    if not named:
        return None     # no value named: the statement itself must say its attribute clearly
    for (text, _, strong), new, may in zip(statements, found, possible, strict=False):
        meant = [pool[i][0] for i in may if _anchored(olds[i], new, strong, text)]
        if len(meant) == 1:
            return meant[0]
    return None


def _anchored(old: Profile, new: Profile, strong: bool, text: str = "") -> bool:
    """Whether a statement answers an attribute a stored one-fact memory answers best (one
    of a single value, any with a strong cue) nearly as well as it answers anything
    (``ANCHOR_GAP``), and is alike in kind (``SIMILAR_FLOOR``). A new value is told beside
    what came with it ("Just signed the lease on a flat in Bath, been here a fortnight"):
    the sentence is about the attribute less clearly than the memory that only states it,
    so the memory's reading says which attribute is meant, and the statement need only be
    about it among its best (not of a part of its thing, :func:`parts.part_of`, ``text``
    the statement). A memory may answer two at once as well ("is a data analyst
    at Wayfair": the job and the employer, within ``ANCHOR_GAP``): either is meant."""
    if old.scores is None or new.scores is None or float(old.vector @ new.vector) < SIMILAR_FLOOR:
        return False
    top = float(old.scores.max())
    if top < ANSWERS_MIN:
        return False
    best = float(new.scores.max())
    for index, attribute in enumerate(ATTRIBUTES):
        if float(old.scores[index]) < top - ANCHOR_GAP or not (attribute.single or strong) \
                or part_of(text, attribute):
            continue
        own = float(new.scores[index])
        if own >= ANCHOR_MIN and own >= best - ANCHOR_GAP:
            return True
    return False


def _held_by(held: str, holder: str, content: str, who: str) -> bool:
    """Whether a statement of ``holder``'s may change a memory of ``held``'s: the same
    holder, or a statement about the value itself of a fact of the speaker's ("Petplan
    put the premium up again, so the dog's insured with ManyPets now" after "our pet
    insurance is with Petplan"; "Rhodri proposed" after "I'm dating Rhodri"): what the
    speaker's insurer or partner does is about the speaker's insurance or partner."""
    return same_holder(held, holder) or held == "" and holder in values(content, who)


def _other_text(old: str, new: str) -> bool:
    """Whether ``new`` says other words than ``old`` (past the words of time): not the
    memory said again."""
    def words(text: str) -> set[str]:
        return set(re.findall(r"[a-z0-9']+", text.lower())) - _TIME_WORDS
    return bool(words(new) - words(old))


#: Words that tell when, not what.
_TIME_WORDS = frozenset("these days nowadays at the moment currently now since".split())


def _new_value(old: str, new: str, who: str) -> bool:
    """Whether ``old`` names a value and ``new`` one ``old`` lacks."""
    held = values(old, who)
    return bool(held) and bool(values(new, who) - held)


@lru_cache(maxsize=50_000)
def _fact_of(content: str, who: str) -> str | None:
    """Whose one fact a memory is (:func:`whose`), None for a story, a past event or a
    memory of several sentences (the pool's memories come back observe after observe)."""
    said = first_person(content, who)
    if len(said) != 1 or len(said[0].split()) > FACT_WORDS or is_event(said[0]):
        return None
    return whose(said[0])
