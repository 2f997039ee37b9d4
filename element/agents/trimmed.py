"""A sentence trimmed to its statement (``episodes.py``): the discourse opener, "since we
last talked", a concession that opens it ("It's been tough, but ...") and the reaction
clauses around it ("- so excited", ", which is awesome", "- here is a pic") cut; and the
words of a sentence that carry content (not pronouns, function words or the vocabulary
of reactions). Pure functions, English only.
"""

from __future__ import annotations

import re

from .episode_words import GENERIC as _GENERIC, STOP as _STOP
from .spoken import OPENER as _OPENER

__all__ = ["trim", "content_words"]

_FIRST = re.compile(r"\b(?:i|me|my|mine|myself|we|us|our|ours|ourselves)\b", re.I)
_WORD = re.compile(r"[A-Za-z][A-Za-z'-]*|\d+")

_SINCE_TALKED = re.compile(r",?\s*\b(?:ever\s+)?since\s+(?:(?:we|I|you)\s+(?:last\s+)?(?:talked|"
                           r"spoke|chatted|chat|talk|caught up|saw each other|met up)"
                           r"(?:\s+last)?|"
                           r"(?:our|my|your|the)\s+last\s+(?:chat|talk|conversation|catch-up|"
                           r"call))\b,?", re.I)
#: A concession that opens a statement ("It's been tough, but I'm staying positive", "It
#: was a tough call, but I thought ...", "It took time and effort, but I ..."): how it felt,
#: not what happened; the statement is after "but".
_CONCEDE = re.compile(r"^it\s+(?:is|was|has been|had been|can be|took|takes)\s+(?:(?:still|so|"
                      r"really|very|pretty|quite|a bit|a little|definitely|kind of)\s+)*"
                      r"(?:(?:a|an)\s+)?[\w-]+(?:\s+(?:call|ride|time|road|journey|and [\w-]+))?"
                      r",?\s+but\s+(?=\w)", re.I)
#: Where a reaction clause hangs on a statement: "... - so excited", "..., which is
#: awesome", "...; it was amazing".
_CLAUSE = re.compile(r"\s+-+\s+|\s*;\s*|\s*&\s*$|,\s+(?=(?:which|it|that|this|so|and it|"
                     r"and that|and this|what a|such a|how)\b)", re.I)

#: A clause that hands over a picture ("here is a pic", "this is the photo I took"): what
#: it shows is in the picture, not in the words.
_SHOWING = re.compile(r"^(?:here(?: is| are|'s)|this is|these are|check (?:it|this|these) out"
                      r"|see)\b(?:\s+[\w']+){0,5}?\s+(?:pictures?|photos?|shots?|snaps?|"
                      r"selfies?|snapshots?)\b[\w' ]{0,30}$", re.I)


#: A connective opening the speaker's clause, left from the reply it went on ("Yes, though
#: I eat fish again", "Still there, but we've bought a caravan too"): the clause is the
#: statement.
_CONNECTIVE = re.compile(r"^(?:though|although|but|and|plus)\s+(?=(?:I|I'm|I've|we|we've|we're|"
                         r"my|our)\b)", re.I)


def trim(text: str) -> str:
    """A sentence without its discourse opener and the reaction clauses around its
    statement ("Last week I signed with a new team - so excited" -> "Last week I signed with
    a new team"): they carry no fact and blur what the memory says."""
    text = _CONNECTIVE.sub("", _OPENER.sub("", text).strip())
    text = _SINCE_TALKED.sub("", text).strip(" ,")
    if (m := _CONCEDE.match(text)) and _FIRST.match(text[m.end():]):
        text = text[m.end():]
    parts = _CLAUSE.split(text)
    if len(parts) < 2:
        return text
    seps = _CLAUSE.findall(text)
    keep = [bool(content_words(p)) and not _SHOWING.match(p) for p in parts]
    if not any(keep):
        return text
    out = ""
    for i, part in enumerate(parts):
        if keep[i]:
            out += (seps[i - 1] if out and i > 0 else "") + part
    return out.strip(" ,;-")


def content_words(text: str) -> list[str]:
    """The words of ``text`` that carry content: not stop or generic words, longer than two
    letters, or a number, or a name in two capitals ("I'm with EE for my phone", "BT": a
    firm's initials; not "OK")."""
    return [w for w in _WORD.findall(text) if w.lower() not in _STOP and
            w.lower() not in _GENERIC and len(w) > 2 or w.isdigit() or
            len(w) == 2 and w.isupper() and w != "OK"]
