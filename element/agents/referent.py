"""What a turn's opening pronoun names, when the turn itself does not say: "He hid his bone
in my slipper once!" after "What's the funniest thing Oliver's done?" is about Oliver, and
"They were scared but we reassured them" after "The kids look so cute! How did they handle
the accident?" is about the kids. Stored as said, the memory opens on a word its reader
cannot place ("He hid his bone ..."); with the referent, it is a fact about someone.

Only the first sentence that carries content (after thanks, interjections and the like)
is read, and only its opening subject pronoun: "he"/"she" by the one person the other
speaker's turn before it names (or an earlier sentence of the same turn), "they" by the
one plural thing or group it names, "it" by the thing its question asks about ("How was
the concert?", "What was it like being part of that rescue mission?"). When the turn
before names none, or more than one, nothing is replaced. Pure functions, English only.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from index import RELATIONS

from .episode_words import STOP as _STOP
from .language import COMMON_WORDS
from .spoken import APOS, LEAD, NOT_NAMES, sentences

__all__ = ["referred"]

#: The opening subject pronoun of a sentence and the verb after it (not "it" of weather,
#: time or a judgement to come: "It's been a while", "It's great to ...").
_OPENING = re.compile(r"^(?P<p>he|she|they|it)(?P<rest>(?:'s|'re|'ve|'d|'ll)?\s+\w.*)$",
                      re.I)
#: "It" that names nothing: it opens a judgement of what follows ("It's great to see ...",
#: "It is so cool how ...", "It feels like ..."), the time or weather, or a cleft.
_DUMMY_IT = re.compile(r"^it(?:'s|\s+is|\s+was|\s+has been|\s+had been|\s+feels|\s+felt|"
                       r"\s+seems|\s+seemed|\s+looks|\s+looked|\s+takes|\s+took|\s+can be|"
                       r"\s+would be|\s+will be)?\s+(?:(?:\w+ly|so|really|such|just|still|"
                       r"always|pretty|quite|kind of|a bit)\s+)*(?:\w+\s+){0,3}?"
                       r"(?:to|that|how|if|whether)\b|"
                       r"^it(?:'s|\s+is|\s+was|\s+has been)\s+(?:been\s+)?(?:a\s+while|ages|"
                       r"time|late|early|raining|sunny|cold|hot|\w+\s+o'clock)\b|"
                       r"^it(?:'s|\s+is|\s+was)\s+(?:me|you|us|them|him|her)\b", re.I)
#: A sentence of no content: thanks, a reaction, agreement ("Thanks, Maria!", "Absolutely!").
_NO_CONTENT = re.compile(r"^(?:thanks|thank you|thx|ty|cheers|congrats|congratulations|"
                         r"sure|yes|yeah|yep|yup|no|nope|absolutely|definitely|totally|"
                         r"exactly|agreed|true|right|haha+|lol|wow|aww+|oh|ok|okay|cool|"
                         r"great|awesome|amazing|nice)\b[^.!?]{0,25}[.!?]*$", re.I)
#: A person's name: a capitalised word inside a sentence or before "'s" (not after a
#: sentence's start, where any word is capitalised).
_NAME = re.compile(r"(?<=[\s(\"])(?P<n>[A-Z][a-z]{2,})(?='s\b|\b)")
#: A plural group or things a "they" can stand for: a determiner, up to two words, a plural
#: noun, or two nouns joined ("the kids", "your two dogs", "my family and friends"). Not
#: "their", "his", "her": whose they are is itself a pronoun's.
_PLURAL = re.compile(r"\b(?P<d>the|your|my|our|those|these)\s+"
                     r"(?P<x>(?:[a-z-]+\s+){0,2}?(?:children|people|kids|folks|parents|"
                     r"friends|family|fam|[a-z]{3,}[^s\W]s)(?:\s+and\s+[a-z]+)?)\b", re.I)
#: Plurals that stand for talk, not for a group or things ("your kind words").
_NOT_THINGS = frozenset("words thoughts thanks wishes vibes regards feelings news days "
                        "years weeks months times ways things lots".split())
_AND = frozenset({"and"})
#: Words that open a sentence and name no one.
_COMMON = COMMON_WORDS | _STOP | {"what", "how", "who", "where", "when", "why", "which",
                                   "that", "this", "there", "here", "it"}
#: A person named by who they are to someone ("my grandma", "your brother", "her boss").
_KIN = re.compile(r"\b(?:my|your|our|his|her|their|the)\s+(?:" + "|".join(sorted(RELATIONS)) +
                  r")\b", re.I)
#: What the other speaker's question asks about: "How was the concert?", "How did the
#: interview go?", "What was it like being part of that rescue mission?", "How's the new
#: job going?", "Was the hike hard?".
_ASKED_IT = [re.compile(p, re.I) for p in (
    r"\bwhat\s+(?:was|is)\s+it\s+like\s+(?P<x>(?:being|going|having|doing|working|seeing|"
    r"living|taking|getting|to\s+\w+)\b[^?.!,]{3,60})\?",
    r"\bhow(?:\s+was|\s+is|'s)\s+(?P<x>(?:the|your|that)\s+[^?.!,]{3,40}?)(?:\s+(?:going|coming "
    r"along|so far))?\s*\?",
    r"\bhow\s+did\s+(?P<x>(?:the|your|that)\s+[^?.!,]{3,40}?)\s+go\s*\?",
    r"\b(?:was|is)\s+(?P<x>(?:the|your|that)\s+[a-z-]+(?:\s+[a-z-]+)?)\s+\w+\s*\?")]


def _names(text: str, skip: set[str]) -> list[str]:
    """The people ``text`` names (not the people talking, not weekdays or months)."""
    found: list[str] = []
    for sentence in re.split(r"(?<=[.!?])\s+", text.strip()):
        # Any word opens a sentence capitalised: there, only one before "'s" or "is" that
        # is no common word ("Oliver's hilarious!", not "What's ...").
        opening = re.match(r"\W*(?P<n>[A-Z][a-z]{2,})(?='s\b|\s+(?:is|was|has)\b)|\W*\S+",
                           sentence)
        if opening is not None and opening["n"] is not None and \
                opening["n"].lower() not in _COMMON:
            found.append(opening["n"])
        found += [m["n"] for m in _NAME.finditer(sentence, opening.end() if opening else 0)]
    return [n for n in found if n.lower() not in skip and n.lower() not in NOT_NAMES]


def _yours(phrase: str) -> str:
    """The other speaker's words for the speaker's things, in the speaker's ("your kids"
    -> "my kids", "that hike" -> "the hike")."""
    phrase = re.sub(r"^your\b", "my", phrase.strip(), flags=re.I)
    return re.sub(r"^(?:that|this)\b", "the", phrase, flags=re.I)


def _referent(pronoun: str, before: list[str], asked: str | None,
              skip: set[str]) -> str | None:
    """What ``pronoun`` names: from the earlier sentences of the turn (``before``), else
    from the other speaker's turn (``asked``); None unless exactly one thing fits."""
    for other, where in enumerate((" ".join(before), asked or "")):
        if not where.strip():
            continue
        if pronoun in ("he", "she"):
            # a person of the speaker's named by who they are ("my grandma") is one too
            people = set(_names(where, skip)) | {m.group(0).lower() for m in _KIN.finditer(where)}
            if len(people) == 1:
                return people.pop()
            if people:
                return None
        elif pronoun == "they":
            groups = {_yours(m.group(0)).lower(): _yours(m.group(0))
                      for m in _PLURAL.finditer(where)
                      if not set(m["x"].lower().split()) & (_NOT_THINGS | _STOP - _AND)}
            if len(groups) == 1:
                return next(iter(groups.values()))
            if groups:
                return None
        elif other:
            questions = [q for q in re.split(r"(?<=[.!?])\s+", where) if q.endswith("?")]
            for question in reversed(questions):
                for pattern in _ASKED_IT:
                    if (m := pattern.search(question)) is not None:
                        return _yours(m["x"])
    return None


def referred(text: str, asked: str | None, names: Iterable[str] = ()) -> str:
    """``text`` (one turn) with the opening pronoun of its first sentence of content
    replaced by what it names, if the turn or the other speaker's turn before it
    (``asked``) names exactly one such thing; else ``text`` unchanged. ``names``: the
    people talking, never a referent."""
    skip = {w.lower() for n in names for w in n.split()}
    before: list[str] = []
    content = 0     # sentences of content before this one
    for raw in sentences(text):
        body = LEAD.sub("", raw).strip()
        m = _OPENING.match(body.translate(APOS))
        if m is None:
            if body and not _NO_CONTENT.match(body) and not body.endswith("?"):
                content += 1
            before.append(raw)
            continue
        if m["p"].lower() == "it" and _DUMMY_IT.match(body.translate(APOS)):
            return text
        # Past a sentence of content, the pronoun names what the turn said before it.
        ref = _referent(m["p"].lower(), before, asked if not content else None, skip)
        if ref is None:
            return text
        rest = m["rest"]
        if m["p"].lower() == "they":
            rest = re.sub(r"^'re\b", " are", re.sub(r"^'ve\b", " have", rest))
        elif rest.startswith("'s"):
            rest = " is" + rest[2:]
        at = text.translate(APOS).find(body.translate(APOS))
        if at < 0:
            return text
        said = ref[:1].upper() + ref[1:] + rest
        return text[:at] + said + text[at + len(body):]
    return text
