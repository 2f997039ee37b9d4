"""The names a sentence calls its listener by ("Hey Nate, I'm working on a new project",
"Thanks, Mel!", "Glad you have support, Caroline."): a vocative, no value of the speaker's.

In conversation people address each other by name all the time; a finder that reads a
proper name as a value (``profile.values``, ``slots.named_target``) takes the listener's
name for something the speaker holds: "Hey Nate, I'm working on a new project" names Nate
as a plan with Nate does, and "Glad you have support, Caroline" names a value a memory
lacks. A vocative is a name set off from its sentence: after a greeting or a word of
thanks at its start ("Hey Nate,", "Thanks, Mel!"), alone before its first comma ("Nate,
I've ..."), or after a comma at its very end in a sentence that speaks to "you" ("...,
Caroline."; "I live in Paris, France" names no listener).

Why it is general: the grammar of address (greetings and thanks, a name set off by
punctuation at an edge of the sentence, the second person), over closed classes; no case,
value or benchmark. Pure functions over a sentence.
"""

from __future__ import annotations

import re

__all__ = ["vocatives", "unaddressed"]

_NAME = r"(?-i:[A-Z][a-z]+(?:\s+[A-Z][a-z]+)?)"
_OPENER = (r"hey|hi|hiya|hello|heya|yo|oh|ah|aw+|wow|whoa|thanks|thank\s+you|thx|cheers|"
           r"congrats|congratulations|sorry|morning|evening|good\s+(?:morning|afternoon|"
           r"evening)|yes|yeah|yep|no|nope|ok|okay|well|dear|haha|lol|omg|great|nice|sure")
#: A name after a greeting or thanks at the sentence's start ("Hey Nate,", "Thanks,
#: Mel!"), or alone before its first comma or mark ("Nate, I've ...").
_START = re.compile(rf"^\s*(?:(?:{_OPENER})[\s,!.]*)?(?P<n>{_NAME})\s*"
                    r"(?:[,!?:]|\.(?:\s|$)|\s-\s|$)", re.I)
_OPENED = re.compile(rf"^\s*(?:{_OPENER})\b", re.I)
#: A name after a comma at the sentence's very end ("..., Caroline.").
_END = re.compile(rf",\s*(?P<n>{_NAME})\s*[.!?]*\s*$")
#: The listener spoken to.
_YOU = re.compile(r"\b(?:you|your|yours|you're|you've|you'll|ya)\b", re.I)
#: Words of a name's shape that are no name ("I", days, months are read as such).
_NOT_NAMES = frozenset("i i'm i've i'd i'll".split())


def vocatives(sentence: str) -> set[str]:
    """The names ``sentence`` calls its listener by."""
    found: set[str] = set()
    m = _START.match(sentence)
    if m is not None and m["n"].lower() not in _NOT_NAMES and \
            not re.fullmatch(rf"(?:{_OPENER})(?:\s+\w+)?", m["n"], re.I) and \
            (_OPENED.match(sentence) or re.match(rf"\s*{re.escape(m['n'])}\s*,", sentence)):
        # "Nate, I've ..." alone before a comma; after a greeting, any mark.
        found.add(m["n"])
    m = _END.search(sentence)
    if m is not None and _YOU.search(sentence):
        found.add(m["n"])
    return found


def unaddressed(sentence: str) -> str:
    """``sentence`` without the names it calls its listener by."""
    out = sentence
    for name in vocatives(sentence):
        out = re.sub(rf"(?:,\s*)?\b{re.escape(name)}\b(?:\s*,)?", "", out, count=1)
    return re.sub(r"\s{2,}", " ", out).strip()
