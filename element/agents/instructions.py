"""Procedures: the user's standing instructions to the agent about its work.

"Always reply in French", "When I ask for a summary, use bullets", "From now on, sign off
with my initials": what the agent must do, kept as a procedure memory keyed by what it
asks. Stories ("when I turned ten, dad signed me up") and offers ("always here to help")
are no instructions. Split from ``rules.py``, which calls :func:`instruction` in its order.
"""

from __future__ import annotations

import re

from .candidate import Candidate, capitalised, key_of, object_of, third_person

__all__ = ["FROM_NOW", "instruction", "instructs"]

#: How an instruction to the agent starts ("always *reply* in French", "when I ask, *use*
#: bullets"): stories ("when I turned ten, dad signed me up") and offers ("always here to
#: help") do not.
_INSTRUCTION = re.compile(
    r"^(?:do not\s+|don't\s+|please\s+)?(?:reply|respond|answer|use|write|speak|talk|address|"
    r"call|include|add|format|tell|ask|check|confirm|remind|mention|suggest|recommend|avoid|"
    r"send|start|end|sign|cite|explain|summari[sz]e|translate|list|spell|round|convert|"
    r"double-check|be|say|provide|default|return|greet|assume|ignore|skip|proofread|review|"
    r"copy|book|schedule|order|refer|notify|alert|warn|mark|label|sort|group|highlight|"
    r"quote|link|attach|save|email|print|draft|cc|bcc|show|give me|keep it|put)\b", re.I)
#: Conversational requests that are not standing instructions ("let me know", "ping me").
_NOT_INSTRUCTION = re.compile(r"^(?:let me know|tell me more|give me a (?:call|shout|ring)|"
                              r"be (?:careful|safe|strong|yourself|patient|kind)|"
                              r"keep (?:going|it up|pushing)|say never)\b", re.I)
_ALWAYS = re.compile(r"^(?:please\s+)?(?P<w>always|never|do not ever)\s+(?P<x>.+)$", re.I)
_WHEN = re.compile(r"^(?:please\s+)?(?P<w>when|whenever|if|every time|each time|before|after)"
                   r"\s+(?P<c>[^,]{3,}?),\s*(?:please\s+)?(?:then\s+)?(?P<x>.+)$", re.I)
_NOT_ORDERS = {"i", "we", "it", "they", "he", "she", "that", "this", "there", "my", "the", "a",
               "an", "our", "their", "his", "her"}
FROM_NOW = re.compile(r"^(?:from now on|going forward|in (?:the )?future|next time)[\s,:]+"
                       r"(?:please\s+)?(?P<x>.+)$", re.I)


def instructs(text: str) -> bool:
    """Whether ``text`` is an order to the agent about its work (reply, use, format...)."""
    return bool(_INSTRUCTION.match(text)) and not _NOT_INSTRUCTION.match(text)


def instruction(s: str, turn: int, who: str) -> Candidate | None:
    """A procedure: always/never X, when X do Y, from now on X, remember to X."""
    if (m := _ALWAYS.match(s)) and instructs(m["x"]):
        word = "Never" if m["w"].lower() != "always" else "Always"
        x = object_of(m["x"], 30)
        return Candidate("procedure", f"{word} {third_person(x, who)}",
                         key_of("procedure", x), turn) if x else None
    if m := _WHEN.match(s):
        x = object_of(m["x"], 30)
        if not x or x.split()[0].lower() in _NOT_ORDERS or not instructs(x):
            return None
        return Candidate("procedure", f"{capitalised(m['w'].lower())} {third_person(m['c'], who)}, "
                         f"{third_person(x, who)}", key_of("procedure:when", m["c"]), turn)
    if (m := FROM_NOW.match(s)) and instructs(m["x"]):
        x = object_of(m["x"], 30)
        return Candidate("procedure", f"From now on, {third_person(x, who)}",
                         key_of("procedure", x), turn) if x else None
    return None
