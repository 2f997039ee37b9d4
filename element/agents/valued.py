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

from .spoken import LEAD, maybe_name

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
    if m is None or not maybe_name(m["y"].split()[0]):
        return sentence
    subject = m["s"] or "I"
    subject = "I" if subject.lower() == "i" else subject[:1].upper() + subject[1:]
    prep = _TO[m["v"].lower()]
    said = " ".join(w for w in (subject, (m["adv"] or "").strip(), m["v"], prep, m["y"]) if w)
    return said + m["rest"] + m["end"]


#: A value exclaimed alone, a sentence of its own ("Cambridge!", "Aviva now!!").
_EXCLAIMED = re.compile(r"^(?P<y>(?-i:[A-Z])[\w&'-]*(?:\s+(?:of\s+|&\s+)?(?-i:[A-Z0-9])[\w&'-]*)"
                        r"{0,2})(?:\s+(?:now|these\s+days|nowadays))?\s*!+$", re.I)
#: The sentence after it: the change that brought it, its object left out ("Finally
#: moved last weekend.", "We switched in March.").
_CHANGE_ALONE = re.compile(
    r"^(?:(?P<s>I|we)\s+)?(?P<adv>(?:just|finally|only|officially)\s+)?"
    r"(?P<v>" + "|".join(_TO) + r")\b(?!\s+(?:to|at|for|with|from|into|over|in\s+with|"
    r"back|house|home|out|up|on|off|away|jobs?|teams?|sides?|schools?|over)\b)"
    r"(?P<rest>[^,;.!?]*)(?P<end>.*)$", re.I)


#: Words exclaimed for joy, not values: the interjections, and the adjectives of praise
#: by their endings ("Brilliant!", "Fantastic!", "Marvellous!").
_CHEERS = frozenset("""hooray hurray hurrah huzzah woohoo woo whoop whoopee yippee yay wahey
bingo boom result success nice ace lush mint class sweet sorted tada ta-da""".split())
_PRAISE = ("ant", "ent", "ful", "ous", "ive", "tic", "able", "ible", "ific")


def _cheered(word: str) -> bool:
    """Whether one word exclaimed alone is a cheer, not a name ("Brilliant!", "Woohoo!")."""
    low = word.lower()
    return low in _CHEERS or low.endswith(_PRAISE)


#: What may follow the change told without its object: when it happened, lately, or
#: nothing ("moved last weekend", "switched in March"); not an object of its own ("moved
#: there", "started planning the trip") nor a past long gone ("moved ... years ago").
_WHEN_ONLY = re.compile(r"^(?:\s+(?:in|on|over|during|last|this|yesterday|today|recently|"
                        r"earlier|at\s+the\s+(?:start|end))\b(?!.*\bago\b).*)?$", re.I)


def _exclaimed(value: str, change: str) -> str | None:
    """A value exclaimed alone and the next sentence, the change that brought it
    ("Cambridge!" / "Finally moved last weekend.") said as one: "I finally moved to
    Cambridge last weekend."; None when they are not that."""
    lead = LEAD.match(value)
    m = _EXCLAIMED.match(value[lead.end():] if lead else value)
    c = _CHANGE_ALONE.match(change)
    if m is None or c is None or not maybe_name(m["y"].split()[0]) or \
            len(m["y"].split()) == 1 and _cheered(m["y"]) or not _WHEN_ONLY.match(c["rest"]):
        return None
    subject = "I" if (c["s"] or "I").lower() == "i" else "We"
    said = " ".join(w for w in (subject, (c["adv"] or "").strip().lower(), c["v"].lower(),
                                _TO[c["v"].lower()], m["y"]) if w)
    return said + c["rest"] + c["end"]


def valued(text: str) -> str:
    """``text`` with each sentence that names a value and then the change that brought it
    without its object (:data:`_VALUE_THEN_CHANGE`) said as that change to the value; so
    is a value exclaimed alone before that change (:func:`_exclaimed`)."""
    if not re.search(r"\b(?:" + "|".join(_TO) + r")\b", text, re.I):
        return text
    parts = re.split(r"(?<=[.!?])(\s+)", text)
    for k in range(0, len(parts) - 2, 2):
        if (joined := _exclaimed(parts[k], parts[k + 2])) is not None:
            parts[k:k + 3] = [joined, "", ""]
    return "".join(_sentence(p) if p and not p.isspace() else p for p in parts)
