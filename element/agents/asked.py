"""A question that tells what the speaker means to do or is after, as the statement it makes
of them: deliberating on their own next step ("Should I apply for a job at Bosch?"), asking
for advice or a recommendation about their own matter ("Any tips for learning piano as an
adult?"), or news told before the question it leads to ("Got a new Pixel, how do I move my
WhatsApp over?"). Questions about the other person tell neither. Pure functions, English
only; split from ``spoken.py``."""

from __future__ import annotations

import re

__all__ = ["asked"]


#: A question that tells what the speaker means to do or is after: deliberating on their
#: own next step ("Should I apply for a job at Bosch?") or asking for advice or a
#: recommendation about their own matter ("Any tips for learning piano as an adult?",
#: "Can you recommend a hotel in Glasgow?"). A person hearing it notes the plan or the
#: need; questions about the other person ("... how you stay confident?") tell neither.
_DELIBERATE = re.compile(r"^(?:so\s+|and\s+|but\s+|now\s+)?(?:should|shall)\s+(?P<who>I|we)\s+"
                         r"(?P<rest>\w.*)$", re.I)
_ADVICE = re.compile(r"(?:^|\s-+\s*)(?:(?:got|have you got|do you have|you got)\s+)?any\s+"
                     r"(?:good\s+)?(?P<what>tips|advice|recommendations|suggestions)"
                     r"(?:\s+or\s+(?:tips|advice|suggestions))?\s+(?P<rest>(?:for|on|about)\s+"
                     r"\w.*)$", re.I)
_RECOMMEND = re.compile(r"^(?:can|could)\s+you\s+(?:recommend|suggest)\s+(?P<rest>\w.*)$", re.I)
_ASKED_OF = re.compile(r"\b(?:you|your|yours|yourself)\b", re.I)
#: News before the question it leads to ("Got a new Pixel, how do I move my WhatsApp
#: over?", "I'm leaving Deloitte, any advice on a resignation letter?"): the clause before
#: the question word is a statement.
_NEWS_THEN_ASKS = re.compile(r"^(?P<news>(?!(?:do|did|does|have|has|are|were|is|was|can|could|"
                             r"would|will|what|how|where|when|why|who|which|any)\b)"
                             r"[^,;?]{6,}?)\s*[,;]\s*(?:so\s+|and\s+|but\s+)?(?:how|what|where|"
                             r"when|which|who|any|can|could|should|would|do|does|did|is|are|"
                             r"will)\b", re.I)


def asked(text: str) -> str | None:
    """The statement a cleaned question makes of the speaker (``_DELIBERATE``,
    ``_ADVICE``, ``_RECOMMEND``, ``_NEWS_THEN_ASKS``): "Should I apply for a job at Bosch"
    -> "I am wondering whether to apply for a job at Bosch", "I got a new Pixel, how do I
    move my WhatsApp over" -> "I got a new Pixel"; None for any other question."""
    m = _DELIBERATE.match(text)
    if m and not _ASKED_OF.search(m["rest"]):
        be = "am" if m["who"].lower() == "i" else "are"
        return f"{m['who']} {be} wondering whether to {m['rest']}"
    m = _ADVICE.search(text)
    if m and not _ASKED_OF.search(m["rest"]):
        return f"I am looking for {m['what'].lower()} {m['rest']}"
    m = _RECOMMEND.match(text)
    if m and not _ASKED_OF.search(m["rest"]):
        return f"I am looking for {m['rest']}"
    m = _NEWS_THEN_ASKS.match(text)
    if m and not _ASKED_OF.search(m["news"]):
        return m["news"]
    return None
