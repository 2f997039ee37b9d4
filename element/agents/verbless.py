"""Verbless: a fragment told with no verb, and a topic asked alone then answered by one
(split from ``fragments.py``, which completes what these shapes leave unsaid).

People tell news in fragments ("York these days", "Paramedic"): :func:`verbless` tells a
fragment from a clause by its shape alone (few words, no form of "be", "have" or "do", no
modal, no pronoun of a clause, no past), and :func:`topic_answered` says a topic asked alone
and answered by a fragment ("Favourite film? Paddington 2, no contest.") as the one
statement it makes ("My favourite film is Paddington 2, no contest."). A topic naming a
person of the speaker's whose answer leaves unsaid how it is theirs ("My sister? Manchester
now") is left as said.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .dates import time_phrase
from .episode_words import ADVERBS, GENERIC, PAST, STOP
from .opening import person_acts
from .slots import PEOPLE
from .spoken import APOS, LEAD, _EXPAND, maybe_name

__all__ = ["topic_answered", "verbless", "MAX_WORDS"]

#: At most this many words in a fragment's first clause (its value and its time).
MAX_WORDS = 8

#: Words no verbless fragment has: the forms of "be", "have", "do", the modals, the
#: pronouns of a clause, the words that ask.
_CLAUSE = frozenset("""is are was were be been am 's has have had do does did will would can
could should shall may might must i you he she it we they me him her us them this that
there here what who how why where when which your yours yourself myself ourselves let
not n't""".split())
#: The words of time and manner around a value, not part of it.
_NOT_VALUE = re.compile(r"\b(?:now|these\s+days|nowadays|finally|currently|at\s+the\s+moment|"
                        r"again|too|also|"
                        r"as\s+well|at\s+last|(?:since|as\s+of|from)\s+.*$)", re.I)
#: Words that may open a sentence before its fragment ("And a bit of German too").
_OPENING = re.compile(r"^(?:and|but|so|plus|oh|well|honestly|anyway)\b[\s,]*", re.I)
#: The first clause of a sentence: up to a comma, a semicolon, a colon or a dash.
_HEAD = re.compile(r"^(?P<head>[^,;:()]+?)(?P<rest>\s*(?:[,;:(]|\s[-–—]\s).*)?$", re.S)
_WORD = re.compile(r"[A-Za-z][\w'&-]*|\d+")
#: A topic asked alone: a short noun phrase ("Favourite film?", "My husband?", "Ava?").
_TOPIC = re.compile(r"^(?:(?P<det>my|our|the)\s+)?(?P<np>[\w'-]+(?:\s+[\w'-]+){0,3})$", re.I)


def _words(text: str) -> list[str]:
    return _WORD.findall(text)


def _expanded(text: str) -> str:
    """``text`` with its contractions written out, as ``spoken.clean`` writes them (no
    subject restored: "Paramedic" stays a fragment)."""
    text = text.translate(APOS)
    for pattern, repl in _EXPAND:
        text = pattern.sub(repl, text)
    return text


def verbless(clause: str) -> bool:
    """Whether ``clause`` is a verbless fragment: at most ``MAX_WORDS`` words, none a form of
    "be", "have" or "do", a modal, a pronoun of a clause or a past; a word of content at
    least."""
    clause = _expanded(clause)      # contractions written out ("It's": "It is")
    # (the month, not the modal: "Aldi since May", "in May")
    clause = re.sub(r"\b(?:since|from|in|until|till|by|of|last|next|this|early|late|mid)"
                    r"[\s-]+(?-i:May)\b", " ", clause, flags=re.I)
    when = time_phrase(clause)
    if when:
        clause = clause.replace(when, " ")   # "this week", "last night": when, no clause
    if _VERB_S.search(clause):
        return False    # "Life's all about ...", "Mental health's a priority": "is"
    if person_acts(clause):
        return False    # "Grandad drives a Tesla now": a person's act, a clause
    words = [w.lower() for w in _words(clause)]
    if len(words) > MAX_WORDS and len(parts := re.split(r"\s+and\s+", clause)) == 2 and \
            all(len(_words(p)) <= MAX_WORDS for p in parts):
        # Two fragments joined ("Oxfam on Mondays and the food bank on Fridays now"):
        # verbless when both are.
        return all(verbless(p) for p in parts)
    if not words or len(words) > MAX_WORDS:
        return False
    # (a word after an article is a noun: "a bit of German", "the fed-up crowd")
    if any(w in _CLAUSE or w.endswith("n't") or
           (w in PAST or w.endswith("ed") and len(w) > 4 and "-" not in w) and
           not (k and words[k - 1] in ("a", "an", "the"))
           for k, w in enumerate(words)):
        return False
    # (a word of reaction alone names nothing, "Amazing now"; beside a preposition or an
    # article it is a noun, "On days now")
    # (two capitals are a name, however short: "HR now", "EE these days")
    cased = _words(_NOT_VALUE.sub(" ", clause))
    said = [w.lower() for w in cased]
    return any(w not in _FUNCTION and w not in ADVERBS and
               (len(w) > 2 or w.isdigit() or _ACRONYM.fullmatch(cased[k])) and
               (w not in GENERIC or k and said[k - 1] in _FUNCTION)
               for k, w in enumerate(said))


#: A name of two or three capitals ("HR", "EE", "BT", "GP"), not texting's shorthand.
_ACRONYM = re.compile(r"(?!(?:LOL|OMG|BTW|TBH|FYI|IMO|IDK|NGL|BRB|WTF|LMAO|IRL|ASAP|OK|OH|"
                      r"HI|AH|UM|UH|HA|XX|XO)\b)[A-Z]{2,3}")


#: A noun and "'s" in a clause's first words, not after a preposition ("at Luca's"): "is".
_VERB_S = re.compile(r"^(?:[\w-]+\s+){0,2}?(?<!\bat\s)(?<!\bto\s)(?<!\bfrom\s)(?<!\bin\s)"
                     r"[\w-]+'s\s+(?-i:[a-z])", re.I)


#: The small words of a noun phrase, and of time, that name nothing by themselves.
_FUNCTION = frozenset("""a an the of on in at to for with and or by from as so too also just
still very really now nowadays these those all way bit lot more most much""".split())


def _opened(sentence: str) -> str:
    """``sentence`` without the interjections and the linking word it opens on, and a
    reply's word before a colon ("Both, actually: the dog and now a rabbit too")."""
    lead = LEAD.match(sentence)
    body = sentence[lead.end():] if lead else sentence
    body = _REPLY.sub("", body)
    return _OPENING.sub("", body).strip()


#: A reply's word and its colon, before what it says: "Both, actually:", "Neither now:".
_REPLY = re.compile(r"^(?:both|neither|either|all\s+(?:two|three)|the\s+lot)(?:,?\s+(?:actually|"
                    r"really|now|these\s+days|in\s+fact))?\s*[:;-]\s+", re.I)


def _topic(sentence: str) -> str | None:
    """The topic a sentence asks alone ("Favourite film?" -> "My favourite film", "My
    husband?" -> "My husband", "Ava?" -> "Ava"), or None: a question that asks something
    else ("Really?", "Guess what?", "How are you?")."""
    text = _opened(sentence.strip())
    if not text.endswith("?"):
        return None
    text = text.rstrip("?!. ").strip()
    m = _TOPIC.match(text)
    if m is None:
        return None
    words = [w.lower() for w in _words(m["np"])]
    if not words or any(w in _CLAUSE or w in PAST or w.endswith(("ly", "ing")) or
                        w in GENERIC or w in ADVERBS for w in words):
        return None
    if not m["det"] and all(w in STOP for w in words):
        return None
    first = m["np"].split()[0]
    if m["det"]:
        det = m["det"].lower()
        return ("My" if det == "my" else det.capitalize()) + " " + m["np"]
    if first[:1].isupper() and maybe_name(first) and \
            all(w[:1].isupper() for w in m["np"].split()):
        return m["np"]      # a name ("Ava", "Leeds United")
    return "My " + m["np"][:1].lower() + m["np"][1:]


def _person(topic: str) -> bool:
    """Whether a topic names a person (or a pet) of the speaker's: a word of kin or of a
    role ("my sister", "our vet"), or a name ("Ava")."""
    words = [w.lower().removesuffix("'s") for w in _words(topic)]
    return any(w in PEOPLE for w in words) or not topic.startswith(("My ", "Our ", "The "))


def _unsaid(topic: str, answer: str) -> bool:
    """Whether an answer to a topic naming a person leaves unsaid how it is theirs: not a
    number (an age) nor a noun with its article (a role: "A GP in town")."""
    opening = _words(answer)[0] if _words(answer) else ""
    return _person(topic) and not (re.match(r"an?\s|\d", answer, re.I) or
                                   bool(_NUMBER_WORD.match(opening)))


def _answered(sentences: Sequence[str], k: int) -> tuple[str, str] | None:
    """The topic sentence ``k`` asks alone and the verbless answer after it, if so."""
    topic = _topic(sentences[k]) if k + 1 < len(sentences) else None
    answer = _opened(sentences[k + 1]) if topic else ""
    m = _HEAD.match(answer) if answer and not answer.rstrip().endswith("?") else None
    if topic is None or m is None or not verbless(m["head"]) or \
            re.match(r"(?:yes|yeah|yep|no|nope|nah|maybe|not)\b", answer, re.I):
        return None
    return topic, answer


def _lowered(value: str) -> str:
    """A value opening a sentence, its capital kept only where it may be a name."""
    first = value.split()[0] if value.split() else ""
    if not first or first.isdigit() or (first[:1].isupper() and maybe_name(first) and
                                        not _NUMBER_WORD.match(first)):
        return value
    return value[:1].lower() + value[1:]


_NUMBER_WORD = re.compile(r"^(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|"
                          r"twelve|\w+teen|twenty|thirty|forty|fifty|sixty|seventy|eighty|"
                          r"ninety)(?:-\w+)?$", re.I)


def topic_answered(sentences: Sequence[str], who: str) -> list[str]:
    """``sentences`` with each topic asked alone and answered by the next sentence, a
    verbless fragment ("Favourite film? Paddington 2, no contest."), said as one statement
    ("My favourite film is Paddington 2, no contest.")."""
    out: list[str] = []
    k = 0
    while k < len(sentences):
        found = _answered(sentences, k)
        if found is not None:
            topic, answer = found
            verb = "are" if re.search(r"[^s']s$", topic) or re.search(r"\band\b", topic) \
                else "is"
            if _unsaid(topic, answer):
                # "My sister? Manchester now": where she is, what she does or who she is,
                # the answer does not say (:func:`told_alone` keeps it as said, hers)
                out.append(sentences[k])
                k += 1
                continue
            out.append(f"{topic} {verb} {_lowered(answer)}")
            k += 2
            continue
        out.append(sentences[k])
        k += 1
    return out
