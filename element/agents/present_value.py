"""A present value of a remembered single-valued attribute supersedes the value held, told
without "moved" or "switched" (issue 23, item 3).

"I'm on the tills at Sainsbury's these days" after "I'm a dental nurse", "My phone
contract is with EE, I signed up in the summer" after "I'm with Vodafone for my phone":
the newer statement is written, but as a plain new fact beside the old one (``decide``'s
"new fact: told by the speaker"), and both stay current. Recall already reads such a pair
as a value replaced when a query names the attribute (``index/replaced_ahead.py``,
``index/recency.py``); at write time no query names it, so here the attribute is the one
the newer statement answers by the profile bank (``index/profile_bank.py``, read through
``profile.profiles``), and the older memory is the speaker's one-fact memory answering the
same attribute best.

What supersedes (:func:`present_value_target`), read of one sentence of the speaker's:

- **the speaker's own present**: a part of it (the sentence, a clause, a "where" clause,
  ``present.where_said``) told of the speaker ("Ana ...", "Ana's ..."), about no other
  person of theirs than the attribute's own (``told.told_of``; "my boss is ..." is the
  speaker's manager, ``profile_bank.ROLES``), neither a past, a plan or a wish
  (``told.PAST``, ``told.NOT_NOW``), a negation, an event (``updates.is_event``) nor a
  question;
- **telling a change or a present**: a change or a word of now (``replaced_ahead.
  tells_change``: "now", "these days", "since ...", "ever since", "back to"), a present
  state told plainly (``present.present_state``), or a present perfect that holds up to now
  ("I've been getting the tram in", "have been ... since the spring");
- **not one more, nor for a while**: the sentence adds nothing (``told.ADDITION``: "also",
  "as well", "another"), tells no occasion or condition ("sometimes", "when the roads are
  icy", "if") and no stay ("this week", "while the kitchen is redone", ``present``'s
  temporary words);
- **one attribute, clearly**: the part answers one attribute of the bank best, by a margin
  (``profile.ANSWERS_MIN``, ``ANSWERS_MARGIN``), single-valued (where one lives, works,
  one's job, commute, manager, partner, phone, supplier, bank, hours...), never a
  many-valued one (a hobby, a drink, a pet: a second value told with "now" is as often one
  more, and the change finders read those told as replacing);
- **the old value**: exactly one one-fact memory of the speaker's (not a past event, not
  another person's, ``holding.may_hold``) answers that attribute best, and its value is
  unlike the new one's (other words; not its named values said again).

Why it is general: the attribute is a generic profile's (no case's words), the gates are
the grammar of the present, of addition and of occasion, read by the lists recall reads
(``index/told.py``); two old candidates make it ambiguous: nothing is superseded.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from index import (ATTRIBUTES, RELATIONS, ROLES, TOLD_ADDITION, TOLD_NOT_NOW, TOLD_PAST,
                   tells_change, tells_job, told_of)

from .addressed import unaddressed
from .decisions import Decision, Pool
from .episodes import tell
from .frame_value import framed_target, mine_last, takes_up, where_cleft
from .holders import UNKNOWN
from .holding import may_hold
from .named import predates
from .meaning import MEANING_POOL, SIMILAR_WORDS, clauses, several
from .parts import part_of
from .pointed import pointed
from .present import _NEGATION, _TEMPORARY, present_state, where_said
from .profile import ANCHOR_GAP, ANSWERS_MIN, profiles, same_value, values, whose
from .sentences import split_sentences
from .spoken import clean as written
from .together import together
from .updates import FACT_WORDS, first_person, is_event, strip_for_attribute

__all__ = ["REASON", "present_value", "present_value_target", "occasional"]

#: The decision's reason: what was read.
REASON = "a present value of the same attribute"

#: An occasion, a condition or a spell, not the value that holds: a frequency short of
#: always ("sometimes", "now and then", "some days"), a clause of condition or time
#: ("when the roads are icy", "whenever", "if", "unless", "while the kitchen is redone",
#: "until half-term"), or a period of now that ends ("this week", "today", "for now").
_OCCASION = re.compile(
    r"\b(?:sometimes|occasionally|now\s+and\s+(?:then|again)|once\s+in\s+a\s+while|"
    r"every\s+so\s+often|from\s+time\s+to\s+time|some\s+(?:days|weeks|mornings|evenings|"
    r"nights|weekends)|(?:on|at)\s+the\s+odd|when(?:ever)?|if|unless|while|whilst|until|"
    r"till|this\s+(?:week|weekend|month|morning|afternoon|evening)|today|tonight|"
    r"for\s+now|for\s+the\s+time\s+being|temporar(?:y|ily))\b", re.I)

#: A present perfect of a state or a doing that holds up to now: "I've been getting the
#: tram in", "we have been with Octopus since the spring" (with its span, :data:`_SPAN`).
_HELD_UP_TO_NOW = re.compile(r"\b(?:have|has|'ve|'s)\s+been\s+(?!to\b)", re.I)
#: The span it holds over: "since ...", "for three weeks", "for a couple of months".
_SPAN = re.compile(r"\b(?:since|for\s+(?:the\s+(?:last|past)\s+)?(?:a|an|one|two|three|four|"
                   r"five|six|a\s+few|a\s+couple\s+of|several|\d+)\s+(?:days?|weeks?|months?|"
                   r"years?))\b", re.I)

#: A thing told by a pronoun, not named: "I'm a huge fan of it", "I've had them for
#: years", "I've been using this app": the value is not said.
_UNNAMED = re.compile(r"\b(?:it|them|they|this|these|those)\b(?!\s+(?:days|year|term|"
                      r"semester|season|spring|summer|autumn|fall|winter)\b)", re.I)

#: What a statement tells beside its value, cut off to read the value alone: a reason or a
#: time ("... now that the twins have started school", "... because ...", "... since the
#: spring"), or a relative clause about a person or thing it names ("... called Dorothy
#: who used to run the Leeds branch").
_BESIDE = re.compile(r"(?:,?\s+(?:now\s+that|because|since|ever\s+since|so\s+that|who|which|"
                     r"whose|where)|,\s+as)\s+.*$", re.I)

#: The same told first, before the speaker's clause: "Since the office moved across town
#: I've been getting the train in", "Now that the twins are at school, I'm back full time".
_BEFORE = re.compile(r"^(?:ever\s+since|since|now\s+that|because|as)\s+[^,]*?"
                     r"(?:,\s*|\s+(?=(?:i|we)\b))", re.I)

#: A home or a place of the speaker's named in passing with where it is: "my flat in
#: Leeds is freezing", "our house in Hove has a leak", "my desk at Superdrug": "my" before
#: it says the speaker holds it now, as a statement of it would.
_MY_PLACE = re.compile(r"^(?:my|our)\s+(?:[\w-]+\s+){0,2}?(?P<n>[\w-]+)\s+(?:in|at|on)\s+"
                       r"(?-i:[A-Z])", re.I)

#: Words of time, left out when two values' words are compared.
_TIME_WORDS = frozenset("these days nowadays at the moment currently now since ever".split())


def occasional(sentence: str) -> bool:
    """Whether ``sentence`` tells an occasion, a condition or a spell (:data:`_OCCASION`,
    ``present``'s stays and loans): a value for a while or at times, beside the one held."""
    return bool(_OCCASION.search(sentence) or _TEMPORARY.search(sentence))


def _tells_present(part: str, told: str, sentence: str, who: str,
                   relations: frozenset[str]) -> bool:
    """Whether a part of the speaker's tells a change or a present value: a word of now or
    of change (``tells_change``), a present perfect with its span told in its sentence
    ("I've been getting the train in" beside "since the office moved"); a job told by its
    title or its work ("I teach chemistry at a sixth form college", "I'm a postman in
    Derby": ``occupation.tells_job``, the part already of the present, the speaker's own
    and no addition, :func:`_parts`); else a present state told plainly
    (``present.present_state``, or a place of the speaker's named in passing) that names
    its value (a name, a number: ``profile.values``), as ``present.py`` asks of a plain
    statement ("I'm a huge fan of it", "we rock as a team" name none)."""
    if tells_change(told, relations) or \
            _HELD_UP_TO_NOW.search(part) and _SPAN.search(sentence):
        return True
    if tells_job(strip_for_attribute(told, who)):
        return True     # a job held, told by its title or its work in the present
    return (present_state(part) is not None or _placed(part)) and bool(values(told, who))


def _placed(part: str) -> bool:
    """A place of the speaker's named in passing with where it is (:data:`_MY_PLACE`), not a
    person of theirs ("my sister in Bath")."""
    m = _MY_PLACE.match(part)
    return m is not None and m["n"].lower() not in RELATIONS


def _parts(source: str, who: str, content: str = "",
           events: bool = False) -> list[tuple[str, str]]:
    """The parts of ``source`` (one sentence of the speaker's) that may tell a present
    value, each raw and told in the third person: the sentence, its clauses, its "where"
    clauses, each without what is told beside its value; and the memory written of it
    (``content``: a fragment said whole, "Three weeks at The Gym Group now" as "has been at
    The Gym Group for three weeks now"). Each the speaker's own, of the present, no past,
    wish, negation or event (with ``events``, an event of the speaker's is read too)."""
    sentences = [unaddressed(s) for s in split_sentences(source)]
    if len(sentences) != 1:
        return []       # a story or several facts: not one value
    sentence = sentences[0]
    if sentence.rstrip().endswith("?") or len(sentence.split()) > 2 * SIMILAR_WORDS or \
            TOLD_ADDITION.search(sentence) or occasional(sentence) or several(sentence):
        return []
    out: list[tuple[str, str]] = []
    read = [sentence, *clauses(sentence), *where_said(sentence)]
    # the speaker's clause pointing back at a value named before it, or told with another
    # as its subject, said of the speaker alone ("that's what I drive now" -> "I drive a
    # Mazda MX-5 now": ``pointed.py``; "Kerry and I are in Bristol now": ``together.py``)
    # and the cleft "X is where I ..." or a role's holder named first, said plainly ("The
    # lido's where I swim now" -> "I swim at the lido now", "Dr Okafor is my doctor there"
    # -> "my doctor is Dr Okafor there": ``frame_value.py``)
    read += [said for said in (pointed(sentence), together(sentence), where_cleft(sentence))
             if said]
    read += [said for part in [sentence, *clauses(sentence)] if (said := mine_last(part))]
    read += [c for p in read if (c := _BESIDE.sub("", _BEFORE.sub("", p))) and c != p]
    if content.startswith(f"{who} ") and len(list(split_sentences(content))) == 1:
        read.append(content)
    for part in dict.fromkeys(read):
        plain = written(part, None)[0] or part
        if TOLD_PAST.search(plain) or TOLD_NOT_NOW.search(plain) or \
                _NEGATION.search(plain) or is_event(plain) and not events or \
                whose(plain) not in ("", UNKNOWN) and not _own(plain):
            continue
        told = part if part == content else tell(part, who)
        if told and (told.startswith(f"{who} ") or told.startswith(f"{who}'s ")):
            out.append((plain, told))
    return out


def _own(part: str) -> bool:
    """"My line manager is ...", "my boss is ...": the speaker's attribute told by the
    person who holds it (``profile_bank.ROLES``)."""
    m = re.match(r"^(?:my|our)\s+(?:[\w-]+\s+)?([\w-]+)\b", part, re.I)
    return m is not None and any(m[1].lower() in words for words in ROLES.values())


def _one_fact(memory: dict[str, Any], who: str) -> bool:
    """Whether ``memory`` is one present fact of the speaker's own (a fact, not a taste:
    "hates the sound of chewing" holds no attribute's value): one short sentence, not an
    event, a past, a wish, an addition, nor another person's."""
    if memory.get("category") != "fact":
        return False    # a taste, a plan, a procedure: no value of an attribute held
    said = first_person(memory["content"], who)
    if len(said) != 1 or len(said[0].split()) > FACT_WORDS or is_event(said[0]) or \
            TOLD_PAST.search(said[0]) or TOLD_NOT_NOW.search(said[0]):
        return False
    return whose(said[0]) == "" or _own(said[0])


def _unlike(old: str, new: str, who: str) -> bool:
    """Whether ``new`` tells another value than ``old``: other words than the old's (past
    the words of time), and not the old's named values said again with more about them."""
    def words(text: str) -> set[str]:
        return set(re.findall(r"[a-z0-9']+", text.lower())) - _TIME_WORDS - {who.lower()}
    if not words(new) - words(old) or same_value(old, new, who):
        return False
    held = values(old, who)
    return not (held and held <= values(new, who))


def _answers(scores: np.ndarray, index: int) -> bool:
    """Whether a stored memory answers the attribute at ``index`` clearly and best: at
    least ``profile.ANSWERS_MIN``, within ``ANCHOR_GAP`` of its best answer (a memory may
    answer two at once: "works at Boots" is a job and a workplace, nearly alike)."""
    own = float(scores[index])
    return own >= ANSWERS_MIN and own >= float(scores.max()) - ANCHOR_GAP


def _of_a_part(part: str, scores: np.ndarray | None) -> bool:
    """Whether ``part`` tells of a part of the thing of an attribute it answers best or
    nearly (``parts.part_of``; within ``ANCHOR_GAP``): "My company's office moved to
    King's Cross" answers where one works (.416) and one's job (.394), and of the job's
    company it names the office, a part: no new workplace."""
    if scores is None:
        return False
    best = float(scores.max())
    return any(part_of(part, attribute) for attribute, score in zip(ATTRIBUTES, scores,
                                                                    strict=True)
               if float(score) >= best - ANCHOR_GAP)


def _sentence(text: str) -> str:
    """``text`` as a sentence, with its full stop: a memory written by a keyed rule has
    none, one told has one, and the bank reads both alike only so."""
    text = text.strip()
    return text if not text or text[-1] in ".!?" else text + "."


def present_value_target(source: str, content: str, pool: Pool, who: str,
                         skip: list[str]) -> dict[str, Any] | None:
    """The speaker's one-fact memory a present value told in ``source`` (raw, the speaker's
    one sentence; ``content`` its memory) replaces, or None (module doc). One model call:
    the parts and the candidate memories' texts embedded together."""
    embedder = pool.embedder()
    if embedder is None:
        return None
    parts = _parts(source, who, content)
    # a value taken up told as its event ("Renewed the car insurance with Admiral"): read by
    # its frame only (``frame_value.py``)
    taken = [] if parts else [p for p in _parts(source, who, content, events=True)
                              if takes_up(p[0])]
    if not parts and not taken:
        return None
    memories = [m for m in may_hold(source, pool.memories()[:MEANING_POOL], who)
                if m["id"] not in skip and m["content"] != content and _one_fact(m, who)]
    if not memories:
        return None
    if not parts:
        return framed_target(taken, memories, who, _unlike, taken=True)
    try:
        found = profiles([_sentence(told) for _, told in parts] +
                         [_sentence(m["content"]) for m in memories], who, embedder)
    except Exception:   # a failing model finds nothing: the statement is added
        return None
    olds = found[len(parts):]
    sentence = " ".join(unaddressed(s) for s in split_sentences(source))
    for (part, told), new in zip(parts, found, strict=False):
        attribute = new.attribute
        if attribute is None or _of_a_part(part, new.scores) or \
                not told_of(told) <= ROLES.get(attribute.name, frozenset()):
            continue
        relations = ROLES.get(attribute.name, frozenset())
        if not attribute.single or _UNNAMED.search(part) or \
                not _tells_present(part, told, sentence, who, relations):
            continue    # of a many-valued attribute a second value is as often one more
        index = ATTRIBUTES.index(attribute)
        meant = [m for m, old in zip(memories, olds, strict=True)
                 if old.scores is not None and _answers(old.scores, index) and
                 _unlike(m["content"], told, who)]
        if len(meant) == 1:
            return meant[0]
        if meant:
            return None     # two values of it held: which one is meant is not said
    # No attribute of the bank answered: the frame around the value, said again with
    # another value in it and told as now (``frame_value.py``).
    return framed_target(parts, memories, who, _unlike, cleft=where_cleft(sentence))


def present_value(decision: Decision, source: str | None, pool: Pool, who: str,
                  skip: list[str]) -> Decision:
    """``decision`` (an "add" of a new fact told by the speaker) made a supersede of the
    memory whose attribute it gives a present value (:func:`present_value_target`); any
    other decision as it is."""
    if decision.action != "add" or decision.category not in ("fact", "context") or \
            not source or not decision.content or \
            not decision.reason.startswith("new "):
        return decision
    held = present_value_target(source, decision.content, pool, who, skip)
    if held is None or predates(source, held):
        return decision
    return Decision("supersede", REASON, category=held["category"], memory_id=held["id"],
                    content=decision.content, context=decision.context,
                    intention=decision.intention, key=decision.key)
