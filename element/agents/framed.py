"""A bare value answering the other speaker's question about one of the speaker's things,
read in the frame of the memory that holds that thing (issue 23: such answers wrote no
memory at all). "Is the Astra still going strong?" / "Nah, part-exchanged it. Kia Picanto
these days." names no attribute and no subject: the question names the Astra, the memory
"Fergus drives a silver Vauxhall Astra" says what the Astra is to the speaker, and the
answer's value takes its place: "I drive a Kia Picanto these days". "How's work at the
pharmacy?" / "Lloyds now actually" names no thing of the memory, but its "work" is the
memory's verb ("Marigold works as a pharmacist at Boots"): the value takes the place of
the name the memory holds after it.

Only a value that says it holds now ("now", "these days", "since May", "instead",
"actually") or comes after a "no" is read so: "How's work?" / "Busy." names no value, and
a name alone ("Superdrug.") may be where the speaker was, not where they are. Only a
question about the speaker themself ("your job", "the Astra"), never one about another
person ("Where's your son living?": ``answered.py`` writes that as the son's), and only a
memory that is the speaker's own statement ("Fergus drives ..."), one of them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from index import RELATIONS

from .dates import time_phrase
from .spoken import maybe_name
from .texted import _base_of

__all__ = ["framed"]

#: What says a value holds now: the present, a start, a replacement, a correction.
_NOW = (r"(?:now|these\s+days|nowadays|instead|actually|at\s+the\s+moment|since\s+[^,.!;?]+|"
        r"as\s+of\s+[^,.!;?]+|from\s+[^,.!;?]+)")
#: A sentence of the answer that is a value alone: an optional "no" or "yes", a name of up
#: to four words (a capital opens each but small joining words), what says it holds now,
#: and what follows a comma.
_BARE = re.compile(r"^(?P<no>(?:(?:no|nah|nope|yeah|yep|yes|oh|well|ha|haha)\b[\s,.!-]*)+)?"
                   r"(?P<y>(?:(?:a|an|the)\s+)?(?-i:[A-Z0-9])[\w&'-]*"
                   r"(?:\s+(?:(?:of|on|&)\s+)?(?-i:[A-Z0-9])[\w&'-]*){0,3})"
                   rf"(?P<now>(?:\s*,?\s+{_NOW})*)"
                   r"(?P<rest>\s*(?:[,;:-].*|[.!]+\s*)?)$", re.I)
#: A "no" before the value, in the same sentence or the answer before it.
_DENIED = re.compile(r"^(?:no|nah|nope|not)\b", re.I)
#: Words that name a person asked about, not the speaker.
_OTHER = re.compile(r"\b(?:he|she|they|him|his|her|hers|them|their)\b", re.I)
_YOUR_KIN = re.compile(r"\byour\s+(?:\w+\s+)?(?P<kin>\w+)", re.I)
#: The nouns a question asks a verb of the speaker's by ("How's the job?": work).
_ASKED_AS = {"job": "work", "life": "live", "living": "live"}
#: Where the value's noun phrase opens in a memory: its article or its preposition.
_OPENS = frozenset("a an the at in for with to on from my our".split())
_STOP = frozenset("the a an at in on for with to of and or but is are was were be been am "
                  "you your how what where which who still going doing these those this "
                  "that now days there here it its".split())


def _words(text: str) -> list[str]:
    return re.findall(r"[A-Za-z][\w&'-]*", text)


def _stem(word: str) -> str:
    w = word.lower().removesuffix("'s")
    for suffix in ("ing", "es", "s"):
        if w.endswith(suffix) and len(w) - len(suffix) >= 3:
            w = w[:-len(suffix)]
            break
    return _ASKED_AS.get(word.lower(), w).rstrip("e")


def _about_another(question: str) -> bool:
    """Whether ``question`` asks after another person ("How's your mum?", "Is he still
    at Tesco?")."""
    return bool(_OTHER.search(question)) or any(
        m["kin"].lower() in RELATIONS for m in _YOUR_KIN.finditer(question))


def _anchor(body: list[str], question: str) -> int | None:
    """Where in the memory's words after its verb (``body``) the value the question asks
    about stands: a word the question names (not a time: "on Sundays"), else, when the
    question asks the memory's verb, the first name after it."""
    asked = {w.lower() for w in _words(question)[1:] if w.lower() not in _STOP}
    for i, word in enumerate(body):
        if word.lower() in asked and not time_phrase(word.lower()):
            return i
    return None


def _reframed(value: str, now: str, rest: str, memory: str, who: str,
              question: str) -> tuple[int, str] | None:
    """The answer's value said in the memory's frame, and how surely the question asks
    about the memory (2: it asks the memory's verb, "How's work?" of "works at"; 1: it
    names a word the memory holds after its verb); None when the memory is not the
    speaker's own statement or holds nothing the question asks about."""
    if not memory.startswith(who + " "):
        return None
    words = memory[len(who) + 1:].rstrip(".").split()
    if len(words) < 2 or not re.fullmatch(r"[a-z]+s", words[0]) or words[0] == "has":
        return None     # "Fergus drives ...": a present verb of the speaker's own
    verb, body = words[0], words[1:]
    at = _anchor(body, question)
    sure = 2 if _stem(verb) in {_stem(w) for w in _words(question)} else 1
    if at is None and sure == 2:
        at = next((i for i, w in enumerate(body) if w[:1].isupper() and
                   not time_phrase(w.lower())), None)
    if at is None:
        return None
    opens = max((i for i in range(at) if body[i].lower() in _OPENS), default=None)
    if opens is None:
        # no article or preposition before it: the name it ends ("Bristol Rovers")
        opens = at - 1
        while opens >= 0 and body[opens][:1].isupper():
            opens -= 1
    head = body[:opens + 1]
    if head and head[-1].lower() in ("a", "an", "the") and \
            value.split()[0].lower() in ("a", "an", "the"):
        head = head[:-1]
    tail = rest.rstrip() if rest.strip() not in ("", ".") else ""
    said = " ".join(["I", _base_of(verb), *head, value]) + now + tail
    return sure, said + ("" if said.endswith((".", "!")) else ".")


def framed(text: str, question: str | None, memories: Iterable[str], who: str) -> str:
    """``text`` (an answer to ``question``) with a sentence that names a value alone (and
    that it holds now) said whole in the frame of the one memory of ``who``'s the question
    asks about; unchanged otherwise."""
    if not question or "?" not in question or _about_another(question):
        return text
    sentences = re.split(r"(?<=[.!?])\s+", text.strip())
    for k, sentence in enumerate(sentences):
        m = _BARE.match(sentence)
        if m is None:
            continue
        value = m["y"]
        name = value.split()[-1] if value.split()[0].lower() in ("a", "an", "the") \
            else value.split()[0]
        denied = bool(m["no"] and re.search(r"\b(?:no|nah|nope)\b", m["no"], re.I)) or \
            any(_DENIED.match(s) for s in sentences[:k])
        if not maybe_name(name) or not (m["now"].strip() or denied) or \
                value.lower() in question.lower():
            continue
        found = [said for memory in memories
                 if (said := _reframed(value, m["now"], m["rest"], memory, who, question))]
        surest = [said for sure, said in found if sure == max(s for s, _ in found)]
        if len(surest) != 1:
            continue
        return " ".join([*sentences[:k], surest[0], *sentences[k + 1:]])
    return text
