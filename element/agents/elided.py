"""An answer that names only the new value, its subject and verb left to the question, for
the updates: "Still on the iPhone?" / "Samsung Galaxy now, since Christmas." and "Where are
you working these days?" / "Monzo, since March.". Chat answers a question with the one
thing that changed and a time; the rest of the sentence (who, which verb) is the
question's. Read as it is, the answer has no subject and no verb, names no attribute and
is not stored. Written whole in the question's frame ("I am on Samsung Galaxy now, since
Christmas", "I am working at Monzo these days, since March") it reads as the plain
statement would.

Only a bare noun phrase that opens the answer is read so, and only after a question about
the other speaker: whether they are still somewhere or with something ("Still at Tesco?",
"Are you still with Vodafone?"), or which one thing they do (``answered.fragment``'s
questions). A bare name after any other question ("Lovely weekend?" / "Cornwall, since
Friday.") is left as said. ``answered.py`` writes a fragment that stands alone ("Aldi.");
this module gives it the fragment that a time follows.
"""

from __future__ import annotations

import re

from .answered import fragment

__all__ = ["elided"]

#: "Still on the iPhone?", "Are you still at Tesco?", "You still with Vodafone?": where or
#: with what the other speaker is, asked with its preposition; or what they do, asked with
#: its verb ("Do you still live in Leeds?", "Are you still working at Boots?", "Still
#: driving the Golf?").
_STILL = re.compile(r"(?:^|[.!?]\s+)(?:(?P<aux>are|do)\s+you\s+|you(?:'re|\s+are)?\s+)?still\s+"
                    r"(?:(?P<verb>(?!(?:in|at|with|on|for|the|a|an|your|doing|there|"
                    r"here|up|ok|okay|alright|around|about|together|single|married)\b|"
                    r"going\b(?!\s+to\b))"
                    r"[a-z]+)\s+)?(?P<prep>(?:in|at|with|on|for|to)\s+)?(?P<x>[^?]+?)\s*\?\s*$",
                    re.I)
#: The answer's first sentence: a noun phrase opening on a capital or a number (a name,
#: "The Gym Group", "A Kia Niro"; after "it's", which only points at what was asked:
#: "It's Lisbon now") and the time it holds from: "now", "these days", "since
#: March", "as of May" (at least one: a bare name alone is ``answered.fragment``'s).
_ANSWER = re.compile(r"^(?:(?:it|that)(?:'s|\s+is)\s+)?"
                     r"(?P<x>(?:(?:a|an|the)\s+)?(?-i:[A-Z0-9])[\w&'-]*"
                     r"(?:\s+(?!(?:now|these|nowadays|since|from|as)\b)[\w&'-]+){0,3}?)"
                     r"(?P<now>\s*,?\s*(?:now|these\s+days|nowadays))?"
                     r"(?P<t>\s*,?\s*(?:since|from|as\s+of)\s+[^.!?,;]+?)?"
                     # (or a clause of its own after a comma: "Pilates now, my back
                     # likes it better")
                     r"\s*(?:[.!]+(?=\s|$)|,(?=\s)|$)", re.I)
#: Words that make the opening more than a noun phrase (a subject, a verb, a reply word).
_VERBISH = re.compile(r"\b(?:i|we|you|he|she|it|they|is|are|was|were|am|be|been|have|has|had|"
                      r"do|does|did|not|no|yes|yeah|yep|still|same|nothing|none|nobody|maybe|"
                      r"sure|thanks|fine|great|good|ok|okay|that|this|there|here|well|so)\b",
                      re.I)


def elided(text: str, question: str | None) -> str:
    """``text`` whose first sentence answers ``question`` with a bare noun phrase and a
    time, that sentence written whole in the question's frame; unchanged otherwise."""
    if not question:
        return text
    m = _ANSWER.match(text.strip())
    if m is None or not (m["now"] or m["t"]) or _VERBISH.search(m["x"]):
        return text
    value, rest = m["x"], text.strip()[m.end():].strip()
    rest = rest[:1].upper() + rest[1:]     # (the clause after a comma: its own sentence)
    when = ", ".join(w for w in (re.sub(r"^[\s,]+", "", m["now"] or ""),
                                re.sub(r"^[\s,]+", "", m["t"] or "")) if w)
    q = _STILL.search(question.strip())
    if q is not None:
        if set(_words(value)) & set(_words(q["x"])):
            return text     # the same thing said back ("The bakery, since May")
        # Another value than the one asked after denies the "still": the old no longer
        # holds, and the new one does (as "Nope, Kumasi since March" is read).
        verb, prep = (q["verb"] or "").lower(), (q["prep"] or "").strip().lower()
        if not verb and not prep:
            return text
        asked = re.sub(r"\byour\b", "my", q["x"], flags=re.I)
        # "Still going to yoga?": a habit, told as one ("I go to Pilates now"; "I am going
        # to Pilates" would read as a plan).
        habit = verb == "going" and prep == "to"
        verb = "go" if habit else verb
        frame = " ".join(w for w in (verb, prep) if w)
        # Its verb's own tense: "do you still live" -> "I live", "still working" -> "I am
        # working", "still at" -> "I am at".
        plain = habit or verb and not verb.endswith("ing") and \
            (q["aux"] or "do").lower() == "do"
        no, yes = ("I do not", "I") if plain else ("I am not", "I am")
        if _doing(value, prep):
            # "Still on the bus?" / "Cycling now, since March.": a new activity, told by
            # its gerund, not a new thing in the question's frame ("on Cycling").
            return f"{no} {frame} {asked} anymore. I am {value.lower()} {when}. {rest}".strip()
        said = f"{no} {frame} {asked} anymore. {yes} {frame} {_lower_article(value)} {when}"
        return f"{said}. {rest}".strip()
    # A question of which one thing the speaker does ("Where are you working these
    # days?"): ``answered.fragment`` writes the bare name whole; the time goes after it.
    whole = fragment(f"{value}.", question).rstrip(".")
    if whole == value:
        return text
    if re.search(r"\b(?:now|these days|nowadays)$", whole):
        # the question's "these days" said it already
        when = re.sub(r"^(?:now|these\s+days|nowadays)(?:,\s*|$)", "", when)
    sep = " " if re.match(r"(?:now|these days|nowadays)\b", when) else ", "
    return f"{whole}{sep + when if when else ''}. {rest}".strip()


def _doing(value: str, prep: str) -> bool:
    """Whether the answer opens on a gerund ("Cycling", "Working from home"), not a name:
    after "in", "at" or "to" a word in -ing names a place ("Reading", "Ealing")."""
    first = value.split()[0]
    return first.lower().endswith("ing") and len(first) > 5 and prep not in ("in", "at", "to")


def _words(text: str) -> list[str]:
    return [w for w in re.findall(r"[a-z0-9]+", text.lower()) if w not in ("the", "a", "an",
                                                                          "my", "your")]


def _lower_article(value: str) -> str:
    """"The Gym Group" after a preposition is "the Gym Group"."""
    first, _, tail = value.partition(" ")
    return f"{first.lower()} {tail}" if first in ("A", "An", "The") and tail else value
