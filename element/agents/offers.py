"""An offer of help to the other person, kept as what the speaker did: "I'm here for you",
"I could help you with the posters", "Whenever you need help, let me know", "Is there any
way I can help out with the fundraiser?" -> "Maria offered to help and support John: ...".

Between two people, an offer is a fact of their relationship that a later conversation
leans on ("you said you'd help with the fundraiser"); the episodes (``episodes.py``) leave
it out, since it says nothing of the speaker's own life (``asides.OFFER``, ``HELPING``),
and the plans (``plans.py``) would read "I'd love to lend a hand" as a wish of the
speaker's. So it is read before both (``rules.extract``) and told as the act it is, with
whom it is offered to named (LoCoMo dev: such memories matched a fact each, 15 of 15).

The cue is grammar and one closed class of verbs, those of helping (help, assist, support,
lend a hand, pitch in, chip in, back up, be there for, spread the word): the speaker as
the subject with a verb of help after a modal of offering ("I can help you", "I'd be happy
to pitch in", "I'll always be there for you"), the speaker's standing by the listener ("I'm
here for you", "I've got your back"), the listener told to call on the speaker ("let me
know if I can help", "whenever you need help"), or the speaker asking whether they may
help ("Can I do anything to help?"). Help offered to someone else ("I'll help my sister
move") or asked of the listener ("Can you help me?") is no offer to them. Only with a
name for the listener: an offer to an unnamed assistant is no memory of a relationship.
Pure functions, English only.
"""

from __future__ import annotations

import re

from .narration import narrate

__all__ = ["offer", "listener"]

#: The verbs of helping (base form), the closed class an offer names.
_HELP = (r"(?:help(?:\s+out)?|assist|support|lend\s+(?:you\s+)?a\s+hand|pitch\s+in|chip\s+in|"
         r"back\s+you\s+up|be\s+there\s+for\s+you|spread\s+the\s+word)")
#: What may follow the verb of an offer to the listener: the listener ("help you"), their
#: things ("with your fundraiser", "with that"), a manner ("in any way I can") or nothing;
#: not a third party ("help my sister move", "support the kids", "help with my sister's
#: move") nor a place the speaker helps at ("help out at the shelter": their own plan). A
#: task named by its gerund ("lend a hand with networking", "help with planning") is the
#: listener's, unless it is someone else's ("help with planning my sister's wedding").
_TO_LISTENER = (r"(?=\s*$|\s+(?:you\b|your\b|with\s+(?:your|it|that|this|the|anything|"
                r"whatever|what|any)\b|with\s+\w+ing\b(?!\s+(?:my|our|his|her|their)\b)|"
                r"in\s+any\s+way|any\s+way|however|if\b|when\b|"
                r"whenever\b|too\b|as\s+well|there\b|anytime|any\s+time|tomorrow|tonight|"
                r"(?:this|next|on)\s+(?:it\b|that\b|(?:mon|tues|wednes|thurs|fri|satur|sun)day|"
                r"weekend|week))|\s*[,;:-])")
#: The speaker offering: a modal of offering, then a verb of help.
_MODAL = (r"(?:would\s+(?:\s*(?:really|totally|definitely|gladly|so)\s+)*(?:love|be\s+happy|"
          r"be\s+glad|like)\s+to|can|could|will|am\s+going\s+to|am\s+happy\s+to|am\s+glad\s+to)")
_OFFERS = re.compile(
    r"^(?:(?:and|so|but|also|of course|sure)\s*,?\s+)?(?:i|we)\s+(?:\w+ly\s+|also\s+|always\s+)*"
    + _MODAL + r"\s+(?:(?:always|definitely|totally|gladly|happily|still)\s+)*" + _HELP
    + _TO_LISTENER
    # Standing by the listener: "I am here for you", "I have got your back".
    + r"|^(?:i|we)\s+(?:am|are)\s+(?:(?:always|still|totally|100%|all)\s+)*(?:here|there)\s+"
      r"for\s+you\b"
    + r"|^(?:i|we)\s+(?:(?:have|always|totally)\s+)*got\s+your\s+back\b"
    # Calling on the speaker: "let me know if I can help", "whenever you need help".
    + r"|\blet\s+(?:me|us)\s+know\s+(?:if|how|what|when|whenever)\s+(?:i|we)\s+can\s+"
      r"(?:\w+\s+){0,2}?(?:help|do|support|assist)\b"
    + r"|^(?:just\s+)?(?:whenever|if|when)\s+you\s+(?:ever\s+)?need\s+(?:any\s+)?(?:help|a\s+hand"
      r"|anything|support|me|us)\b",
    re.I)
#: The speaker asking to help: "Can I do anything to help?", "Is there any way I can help
#: out with your fundraiser?", "Anything I can do?".
_ASKS = re.compile(
    r"^(?:(?:so|and|but)\s*,?\s+)?(?:(?:can|could|may|shall)\s+(?:i|we)\s+|(?:is\s+there\s+)?"
    r"(?:anything|any\s+way|some\s+way|something)\s+(?:that\s+)?(?:i|we)\s+can\s+)"
    r"(?:do(?:\s+(?:anything|something))?(?:\s+to\s+" + _HELP + r")?|" + _HELP + r")(?:\s|$)",
    re.I)
#: What an offer asked is about: "... help out *with your fundraiser*".
_WITH = re.compile(r"\b(?:with|for)\s+(?P<x>(?:your|the)\s+.+)$", re.I)


def _to(text: str, listener: str) -> str:
    """The listener named where the speaker says "you": "help you with your posters" ->
    "help John with John's posters"."""
    text = re.sub(r"\byours\b", lambda _: f"{listener}'s", text, flags=re.I)
    text = re.sub(r"\byour\b", lambda _: f"{listener}'s", text, flags=re.I)
    return re.sub(r"\b(?:you|yourself)\b", lambda _: listener, text, flags=re.I)


def listener(others: list[str]) -> str | None:
    """The one person a turn speaks to, by name (``Observation.others``), if one."""
    names = set(others)
    return names.pop() if len(names) == 1 else None


def offer(sentence: str, who: str, listener: str | None, question: bool = False) -> str | None:
    """The offer of help to ``listener`` that ``sentence`` (cleaned, first person) makes,
    told as a memory; None when it makes none or the listener has no name."""
    said = sentence.strip().rstrip(" .!?")
    if not listener or not said:
        return None
    head = f"{who} offered to help and support {listener}"
    if question:
        if not (m := _ASKS.match(said)):
            return None
        thing = _WITH.search(said[m.end():]) if m.end() < len(said) else None
        return f"{head} with {_to(thing['x'], listener)}" if thing else head
    if not _OFFERS.search(said):
        return None
    return f"{head}: {_to(narrate(said, who, partner=listener), listener)}"
