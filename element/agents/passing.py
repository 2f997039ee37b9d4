"""Whether a statement gives no lasting value at all: a break taken from a thing, a
request made of the speaker, a thing got only for a purpose beside the one held, one
occasion.

The finders by meaning and by a present state (``stale.py``, ``meaning.py``,
``present_value.py``) link a sentence to the memory it reads closest, and the guards of
``holding.not_holding`` say when the sentence gives that memory no new value. Four
shapes tell no new value of any memory, whichever is closest:

- a break from a thing ("Tom and I are taking a break from the allotment this year"):
  the thing is held still, and nothing takes its place (``paused.py`` reads a closure of
  a thing for a while; this is the speaker's own pause);
- a request made of the speaker ("I've been asked to mentor the new trainee teachers"):
  asked, not yet done, and more often an added duty than a new role;
- a thing got only for a purpose ("Opened a Monzo account just for holiday spending",
  "bought a cheap Android purely for work"): one more, kept beside the one held for
  everything else;
- one occasion ("had a beer for once"): the thing held holds again after it.

Read once before every change finder (``change_statements._found``), before ``decide``'s
present-state finders and the episode's ending (``bygone.py``), and among
``holding.not_holding``'s guards: such a statement is kept as told, replacing nothing.

Why it is general: the grammar of each (a break "from" a thing; the passive of asking,
or "asked me to"; "just/only/purely for" after a thing got), over closed classes of
words; no case, value or benchmark. A pure function over a sentence.
"""

from __future__ import annotations

import re

__all__ = ["passing"]

#: A break the speaker takes from a thing: "taking a break from", "having a year off
#: from", "took a step back from"; not a break told as for good ("... for good").
_BREAK = re.compile(r"\b(?:tak\w*|took|hav\w*|had|need\w*|on)\s+(?:a\s+|some\s+)?(?:little\s+|"
                    r"short\s+|long\s+|proper\s+)?(?:break|breather|rest|step\s+back|"
                    r"(?:year|season|term|month|few\s+months|summer)\s+off)\s+from\b", re.I)
_FOR_GOOD = re.compile(r"\b(?:for\s+good|permanently|for\s+ever|forever|"
                       r"(?:any|no)\s?more|no\s+longer)\b", re.I)
#: Where a sentence's clauses meet: a break told beside a present value in another clause
#: ("I took a break from work and now I teach yoga") leaves that clause to the finders.
_CLAUSES = re.compile(r"\s*[,;:]\s*|\s+(?:so|and|but|because)\s+", re.I)
_PRESENT = re.compile(r"\b(?:now|these\s+days|nowadays|instead)\b", re.I)
#: A request made of the speaker: "I've been asked to ...", "they asked me to ...".
_ASKED = re.compile(r"\b(?:been|was|were|got|am|are|'m|'re)\s+(?:\w+\s+)?asked\s+to\b|"
                    r"\basked\s+(?:me|us)\s+to\b", re.I)
#: ... unless the speaker took it up as what they do now ("and I'm doing it now").
_TAKEN_UP = re.compile(r"\b(?:now|these\s+days|instead)\b|\b(?:said|say)\s+yes\b|"
                       r"\baccepted\b", re.I)
#: One occasion: "for once", "just this once" ("had a glass of wine for once"). Not "this
#: time" ("I've gone with Aviva this time": a renewal's new value), nor a day ("in for
#: Monday" may be a new job's first shift).
_ONE_OCCASION = re.compile(r"\b(?:for\s+once|just\s+this\s+once)\b", re.I)
#: A thing got for one purpose only: "just for", "only for", "purely for", "solely for".
_ONLY_FOR = re.compile(r"\b(?:just|only|purely|solely|strictly)\s+for\s+"
                       r"(?!now\b|good\b|ever\b|life\b|the\s+moment\b)", re.I)


def passing(sentence: str) -> bool:
    """Whether ``sentence`` (first person, raw) tells a break from a thing, a request made
    of the speaker, a thing got only for a purpose or one occasion (see the module's
    note): no new value of any memory."""
    if _BREAK.search(sentence) and not _FOR_GOOD.search(sentence) and \
            not any(_PRESENT.search(c) for c in _CLAUSES.split(sentence) if not _BREAK.search(c)):
        return True
    if _ASKED.search(sentence) and not _TAKEN_UP.search(sentence):
        return True
    return bool(_ONLY_FOR.search(sentence)) or bool(_ONE_OCCASION.search(sentence))
