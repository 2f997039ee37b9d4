"""A statement the sentence rules found, and how the rules write it in the third person.

:class:`Candidate` is what every reading of a user's turn hands the rule evaluator; the
helpers here cut a statement's object from its reasons and tails (``object_of``), key it
(``key_of``) and turn "I"/"my" into the speaker ("third_person", ``theirs``). Split from
``rules.py``, which holds the rules themselves; ``instructions.py`` writes procedures with
the same helpers.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .cleaning import norm

__all__ = ["ARTICLES", "VAGUE", "Candidate", "about_of", "capitalised", "key_of", "object_of",
           "theirs", "third_person"]

@dataclass
class Candidate:
    """A memory the rules found in one sentence of user turn ``turn``.

    ``key`` names the point it is about (``fact:location``, ``preference:tea``...): a later
    candidate with the same key supersedes it. ``slot`` says the key holds one value that is
    not part of it (a location, a name), so forgetting needs the same value. ``kind`` is add,
    correct, forget, plan (``plans.py``) or offer (``offers.py``); ``query`` is what a
    keyless correction or forget searches for.
    """

    category: str
    content: str
    key: str | None
    turn: int
    kind: str = "add"
    query: str | None = None
    slot: bool = False
    #: The cleaned sentence it came from (what dates it: "... next month").
    source: str = ""
    #: The memory a change statement replaces, once found (``updates.py``).
    target: str | None = None

    @property
    def loose(self) -> bool:
        """A statement whose key is a loose handle (a preference, something had, "my X is
        Y", an activity) rather than one of a person's single facts (name, home, work,
        diet) or an instruction, correction or forget."""
        return self.kind == "add" and (
            self.category in ("preference", "context")
            or (self.key or "").startswith(("fact:has:", "fact:my:", "fact:is:", "fact:does:")))


VAGUE = {"it", "that", "this", "them", "those", "these", "you", "him", "her", "one", "so",
          "too", "everything", "all", "anything", "something", "to", "do", "to do", "so much",
          "it so much", "that so much", "both", "either", "one too", "some"}
ARTICLES = {"a", "an", "the", "some", "my", "their", "your"}
_TAIL = re.compile(r"(?:\s+(?:now|too|as well|also|currently|these days|at the moment|though|"
                   r"anyway|right now|anymore|any more))+$", re.I)
# (not the comma of a number's thousands: "£1,050 a month")
_CUT = re.compile(r"\s+(?:because|since|though|although|but)\s+.*$|\s*(?:,(?!\d{3}\b)|[;:(]).*$",
                  re.I)
_THIRD = [(re.compile(p, re.I), r) for p, r in (
    (r"\bi am\b", "they are"), (r"\bi was\b", "they were"), (r"\bi have\b", "they have"),
    (r"\bi will\b", "they will"), (r"\bi would\b", "they would"), (r"\bmyself\b", "themselves"),
    (r"\bmine\b", "theirs"), (r"\bmy\b", "their"), (r"\bme\b", "them"), (r"\bi\b", "they"))]


def key_of(kind: str, text: str) -> str:
    words = norm(text).split()
    while words and words[0] in ARTICLES:
        words = words[1:]
    return f"{kind}:{' '.join(words)}"


def third_person(text: str, who: str | None = None, *, named: str | None = None) -> str:
    """First person to third: "my" -> "their"; for instructions (``who`` given) "me" ->
    "the user" (or the speaker's name) and "my" -> "the user's". With ``named``, "me" is
    that name, as episodes tell it ("they keep me going": "they keep Ana going", not "they
    keep them going")."""
    if named is not None:
        text = re.sub(r"\bme\b", lambda _: named, text, flags=re.I)
    if who is not None:
        who = "the user" if who == "User" else who
        # Replacements are functions: a speaker's name is text, never a pattern template.
        text = re.sub(r"\bmy\b", lambda _: f"{who}'s", text, flags=re.I)
        text = re.sub(r"\b(?:me|myself)\b", lambda _: str(who), text, flags=re.I)
    for pattern, repl in _THIRD:
        text = pattern.sub(repl, text)
    return text


def theirs(text: str, who: str) -> str:
    """A fact's object in the third person, naming the speaker: "with my husband" -> "with
    Ana's husband" (as episodes say it)."""
    text = re.sub(r"\b(?:my|mine)\b", lambda _: f"{who}'s", text, flags=re.I)
    text = re.sub(r"\b(?:me|myself)\b", lambda _: who, text, flags=re.I)
    return third_person(text)


def capitalised(text: str) -> str:
    return text[:1].upper() + text[1:]


def object_of(text: str, limit: int = 20) -> str | None:
    """The object of a statement, cut at a reason or a clause; None when vague or long."""
    text = _TAIL.sub("", _CUT.sub("", text).strip(" .!;:,\"'")).strip(" .!;:,\"'")
    # No word at all ("%", "*"): nothing is said (and a key of nothing matched everything).
    if not text or not norm(text) or norm(text) in VAGUE or len(text.split()) > limit:
        return None
    return text


def about_of(text: str, who: str) -> str:
    """What a "forget X" is about, phrased as memories are: "my address" -> "User's address"."""
    text = re.sub(r"^my\b", lambda _: f"{who}'s", text.strip(), flags=re.I)
    # "I am drinking" -> "Ana is drinking", not "Ana am drinking".
    text = re.sub(r"^i\s+am\b", lambda _: f"{who} is", text, flags=re.I)
    return third_person(re.sub(r"^i\b", lambda _: who, text, flags=re.I))
