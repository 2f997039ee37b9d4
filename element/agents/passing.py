"""Whether a statement gives no lasting value at all: a break taken from a thing, a
request made of the speaker, a thing got only for a purpose beside the one held, one
occasion.

The finders by meaning and by a present state (``stale.py``, ``meaning.py``,
``present_value.py``) link a sentence to the memory it reads closest, and the guards of
``holding.not_holding`` say when the sentence gives that memory no new value. These
shapes tell no new value of any memory, whichever is closest:

- a break from a thing ("Tom and I are taking a break from the allotment this year"):
  the thing is held still, and nothing takes its place (``paused.py`` reads a closure of
  a thing for a while; this is the speaker's own pause);
- a request made of the speaker ("I've been asked to mentor the new trainee teachers"):
  asked, not yet done, and more often an added duty than a new role;
- a thing got only for a purpose ("Opened a Monzo account just for holiday spending",
  "bought a cheap Android purely for work"): one more, kept beside the one held for
  everything else;
- one occasion ("had a beer for once"; one standing in for the usual, "We did the quiz at
  the Swan last night instead"; a thing of one occasion parted with, "Sold my ticket for
  Sunday's match"): the thing held holds again after it;
- a thing lost and found, being mended or let fall ("Thought I'd lost the Casio, it turned
  up in my kit bag", "it's in a bag of rice now", "Dropped the Pixel on the patio"): held
  still, unless another clause tells what holds now ("... so I've got an iPhone now");
- an application under way ("I've applied for a job at HSBC, fingers crossed"), unless it
  came through; a first of a kind told as past ("My first car was a Fiat Uno").

Read once before every change finder (``change_statements._found``), before ``decide``'s
present-state finders and the episode's ending (``bygone.py``), and among
``holding.not_holding``'s guards: such a statement is kept as told, replacing nothing.

Why it is general: the grammar of each (a break "from" a thing; the passive of asking,
or "asked me to"; "just/only/purely for" after a thing got; a time of one occasion with
"instead"; "for" a day's event after a verb of parting; a thing found or mended; a verb of
applying), over closed classes of words; no case, value or benchmark.
A pure function over a sentence.
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


#: The time of one occasion: "last night", "this morning", "today", "on Saturday".
_OCCASION_TIME = (r"(?:last\s+night|yesterday|today|tonight|this\s+(?:morning|afternoon|evening|"
                  r"week|weekend|lunchtime)|(?:on|last)\s+(?:mon|tues|wednes|thurs|fri|satur|sun)"
                  r"day|at\s+the\s+weekend)")
#: ... with a word saying it stood in for the usual ("We did the quiz at the Red Lion last
#: night instead", "Had a green tea this morning for a change").
_IN_PLACE = re.compile(r"\b(?:instead|for\s+a\s+change|as\s+a\s+one-?off)\b", re.I)
_OCCASION = re.compile(rf"\b{_OCCASION_TIME}\b", re.I)
#: ... unless the sentence says it lasts ("I switched today, and it's Monzo from now on").
_LASTING = re.compile(r"\b(?:now|these\s+days|nowadays|from\s+now\s+on|going\s+forward|"
                      r"any\s?more|for\s+good|every|always|usually|switched|moved|joined|"
                      r"signed\s+up|changed|started|left|quit)\b", re.I)
#: A thing of one occasion parted with: "Sold my ticket for Sunday's match", "gave my seat
#: for the Spurs game away", "cancelled our table for Saturday": the occasion's, not a
#: thing held (a season ticket, a membership).
_PARTED = re.compile(r"\b(?:sold|gave|given|swapped|passed\s+on|lent|cancell?ed)\b", re.I)
_FOR_OCCASION = re.compile(r"\bfor\s+(?:this\s+|next\s+|last\s+)?(?:(?:mon|tues|wednes|thurs|"
                           r"fri|satur|sun)day|tonight|tomorrow)(?:'s\b|\b(?!\s+(?:nights|"
                           r"mornings|evenings)\b))|\bfor\s+(?:the|this|that|next)\s+"
                           r"(?:[\w'-]+\s+){0,2}?(?:match|game|gig|show|concert|party|wedding|"
                           r"final|fixture|race|do|trip|night\s+out)\b", re.I)
#: A thing lost and found again, or mended: "Thought I'd lost the Casio at the pool, it
#: turned up in my kit bag", "it's in a bag of rice now", "in for its service".
_FOUND = re.compile(r"\b(?:turned\s+up|found\s+(?:it|them|him|her)(?=\s*(?:[,.;!]|$|\s+(?:in|"
                    r"under|behind|down|at|on|again|back|later|eventually)\b))|(?:got|have|has)"
                    r"\s+(?:it|them)\s+back|(?:was|were)\s+found|thought\s+(?:i|we)(?:'d|\s+had)"
                    r"\s+lost)", re.I)
#: ... a loss told with it ("found it hard to leave" finds nothing lost).
_LOSS = re.compile(r"\b(?:lost|losing|missing|misplaced|mislaid|left|(?:couldn't|could\s+not|"
                   r"can't)\s+find)\b", re.I)
_MENDING = re.compile(r"\b(?:it'?s|it\s+is|they'?re|they\s+are|is|are)\s+(?:now\s+)?"
                      r"(?:(?:sat|sitting)\s+)?in\s+(?:a\s+(?:bag|bowl)\s+of\s+)?rice\b|\b(?:in\s+for\s+(?:a|an|its|"
                      r"their)\s+(?:service|repair|mot|fix)|being\s+(?:fixed|repaired|mended|"
                      r"serviced)|(?:while|till|until)\s+(?:it'?s|it\s+is|they'?re)\s+(?:being\s+)?"
                      r"(?:fixed|repaired|mended|serviced|sorted))\b", re.I)
#: A thing let fall ("Dropped the Pixel on the patio, the screen's fine though"): held
#: still, unless another clause tells what holds now ("... so I've got an iPhone now").
_LET_FALL = re.compile(r"\b(?:dropped|dropping|knocked)\s+(?:[\w'-]+\s+){1,3}?(?:down|in|into|"
                       r"on|onto|off|under|behind)\s+(?:the|a|an|my|our|his|her|their|some)\b",
                       re.I)
#: ... told unharmed ("the screen's fine though", "no harm done"): a phone dropped in a canal
#: may be gone, and the next sentence tell what replaced it.
_UNHARMED = re.compile(r"\b(?:fine|ok|okay|no\s+harm|survived|still\s+works|not\s+a\s+scratch|"
                       r"unscathed|intact|undamaged)\b", re.I)
_REPLACED = re.compile(r"\b(?:now|these\s+days|instead|new|bought|got\s+(?:a|an)|replaced|"
                       r"written\s+off|dead|died|broke|broken|smashed|ruined|gone)\b", re.I)
#: An application under way: "I've applied for a job at HSBC, fingers crossed", "got an
#: interview at ...": no value yet, unless it came through.
_APPLIED = re.compile(r"\b(?:applied|applying|apply)\s+(?:for|to)\b|\b(?:got|have|had)\s+an?\s+"
                      r"(?:job\s+)?interview\b|\bshortlisted\b", re.I)
_CAME_THROUGH = re.compile(r"\b(?:got\s+(?:it|the\s+job|in|the\s+place)|offered|accepted|"
                           r"start(?:s|ing)?|now|these\s+days)\b", re.I)
#: A first of a kind told as past: "My first car was a Fiat Uno": before what is held.
_FIRST_WAS = re.compile(r"^(?:\w+,\s+)?(?:my|our)\s+(?:very\s+)?first\s+(?:[\w'-]+\s+){1,2}?"
                        r"(?:was|were)\b", re.I)


def _one_occasion(sentence: str) -> bool:
    """One occasion standing in for the usual, a thing of one occasion parted with, a
    thing lost and found or being mended, an application, a first of a kind long past (see
    the notes of :data:`_IN_PLACE`, :data:`_PARTED`, :data:`_FOUND`, :data:`_APPLIED`,
    :data:`_FIRST_WAS`)."""
    if _IN_PLACE.search(sentence) and _OCCASION.search(sentence) and \
            not _LASTING.search(sentence):
        return True
    if _PARTED.search(sentence) and _FOR_OCCASION.search(sentence):
        return True
    if _FOUND.search(sentence) and _LOSS.search(sentence) or _MENDING.search(sentence):
        return True
    if _LET_FALL.search(sentence) and _UNHARMED.search(sentence) and \
            not _REPLACED.search(sentence):
        return True
    if _APPLIED.search(sentence) and not _CAME_THROUGH.search(sentence):
        return True
    return bool(_FIRST_WAS.match(sentence))


def passing(sentence: str) -> bool:
    """Whether ``sentence`` (first person, raw) tells a break from a thing, a request made
    of the speaker, a thing got only for a purpose or one occasion (see the module's
    note): no new value of any memory."""
    if _BREAK.search(sentence) and not _FOR_GOOD.search(sentence) and \
            not any(_PRESENT.search(c) for c in _CLAUSES.split(sentence) if not _BREAK.search(c)):
        return True
    if _ASKED.search(sentence) and not _TAKEN_UP.search(sentence):
        return True
    return bool(_ONLY_FOR.search(sentence)) or bool(_ONE_OCCASION.search(sentence)) or \
        _one_occasion(sentence)
