"""A value named alone, then the change that brought it, its object left out (issue 23:
such statements wrote no memory of the value): "Harrogate now, we moved in June", "KPMG
these days, started in March", "Bradford City now, switched when I moved". The value is
the change's object: "we moved to Harrogate in June", "I started at KPMG in March".

Only the verbs of going over to a place, a firm, a side (a closed class: moving,
starting, switching, joining, signing, transferring) take the value so; any other clause
after a name ("Leeds now, loving it") is left as it is.
"""

from __future__ import annotations

import re

from .spoken import LEAD, _maybe_name

__all__ = ["valued"]

#: The verbs of going over and the word that takes their new place.
_TO = {"moved": "to", "relocated": "to", "switched": "to", "transferred": "to",
       "started": "at", "joined": "", "signed": "for"}
_VALUE_THEN_CHANGE = re.compile(
    r"^(?P<y>(?-i:[A-Z])[\w&'-]*(?:\s+(?:of\s+|&\s+)?(?-i:[A-Z0-9])[\w&'-]*){0,2})\s+"
    r"(?:now|these\s+days|nowadays)\s*,\s+(?:(?P<s>I|we)\s+)?"
    r"(?P<adv>(?:just|finally|only|officially)\s+)?"
    r"(?P<v>" + "|".join(_TO) + r")\b(?!\s+(?:to|at|for|with|from|into|over)\b)"
    r"(?P<rest>[^,;.!?]*)(?P<end>.*)$", re.I)


def _sentence(sentence: str) -> str:
    lead = LEAD.match(sentence)
    body = sentence[lead.end():] if lead else sentence
    m = _VALUE_THEN_CHANGE.match(body)
    if m is None or not _maybe_name(m["y"].split()[0]):
        return sentence
    subject = m["s"] or "I"
    subject = "I" if subject.lower() == "i" else subject[:1].upper() + subject[1:]
    prep = _TO[m["v"].lower()]
    said = " ".join(w for w in (subject, (m["adv"] or "").strip(), m["v"], prep, m["y"]) if w)
    return said + m["rest"] + m["end"]


def valued(text: str) -> str:
    """``text`` with each sentence that names a value and then the change that brought it
    without its object (:data:`_VALUE_THEN_CHANGE`) said as that change to the value."""
    if not re.search(r"\b(?:" + "|".join(_TO) + r")\b", text, re.I):
        return text
    parts = re.split(r"(?<=[.!?])(\s+)", text)
    return "".join(_sentence(p) if not p.isspace() else p for p in parts)
