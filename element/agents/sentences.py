"""Sentences of a turn: split at sentence ends, not at the periods of abbreviations.

"I work as a nurse at St. Mary's" is one sentence, and so are "Dr. Patel", "Mrs. Jones",
"e.g. tea", "the U.S. team", "6 a.m. on Monday" and "J. K. Rowling". A period after a
title (Mr., Dr., St. ...), "e.g."/"i.e." or a single capital (an initial) never ends a
sentence; after other abbreviations ("etc.", "a.m.", "U.S.", "Inc.") it ends one only when
the next word usually opens a sentence ("... at 6 a.m. Then I ran"). An emoticon or a laugh
ends one as chat writes it ("... in the spring :( We've got a cockatiel"). Pure functions.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

__all__ = ["MAX_WORDS", "split_sentences", "ends_with_abbreviation", "untag", "clauses"]

#: The most words of a sentence of chat (LoCoMo's longest of 8,276: 33): a longer one is speech run
#: on, read in pieces of its clauses (``readable.pieces``), and never kept whole as an
#: episode (``episodes``).
MAX_WORDS = 60
#: Titles and words always followed by more of the same sentence.
_NEVER_END = frozenset("""
mr mrs ms mx dr prof st sr jr mt ft rev gen capt col lt sgt hon fr no nos vol fig
e.g i.e cf vs approx ca dept univ ave rd blvd jan feb mar apr jun jul aug sep sept oct
nov dec
""".split())
#: Abbreviations that may also end a sentence.
_MAY_END = frozenset("""
etc a.m p.m am pm u.s u.k u.s.a e.u inc ltd co corp llc plc bros ph.d phd b.a m.a b.sc
m.sc
""".split())
#: Words that usually open a sentence, after an abbreviation that may end one.
_OPENERS = frozenset("""
i we my our you your he she it they this that these those then but so and also anyway
the a an there here what when where why how if after before btw oh ok okay well yes no
thanks thank hi hey just actually
""".split())
#: An emoticon or a laugh ends a sentence in chat as a period does ("... in the spring :(
#: We've got a cockatiel", "... no joke lol"); a laugh only before a capital or the end.
#: Either is left out of the sentence: it carries no fact.
_CHAT_END = (r"\s+(?:[:;=]'?-?[()\[\]DPpOo/\\|*3]+|<3+|[xX]D+)(?=\s|$)\s*|"
             r"\s+(?:lol|lmao|rofl|haha+|hehe+)[.!]*(?=\s+[A-Z]|\s*$)\s*")
# (a run of marks is read from its first: from inside a run the same tail is tried again,
# quadratic in a turn of 16,000 "?")
_BOUNDARY = re.compile(rf"(?P<chat>{_CHAT_END})|(?<![.!?])[.!?]+[\"')\]]*\s+|\n+")
_WORD_BEFORE = re.compile(r"(\S+?)[.!?]+[\"')\]]*$")
#: The longest word an abbreviation is read in, before a period.
_LONGEST_WORD = 64


def _abbreviation(token: str) -> str | None:
    """``token`` (the word before a period, period stripped) as a known abbreviation."""
    low = token.lower().lstrip("(\"'")
    if low in _NEVER_END or low in _MAY_END:
        return low
    if re.fullmatch(r"[A-Z]", token.lstrip("(\"'")):
        return "initial"
    return None


def ends_with_abbreviation(text: str) -> bool:
    """Whether ``text`` ends with an abbreviation's period ("... the U.S.", "Dr.")."""
    # (its last word, not a search for one: ``(\S+)\.$`` tries every start of a long
    # unbroken run, quadratic in a 16,000-character "word")
    words = text.split()
    last = words[-1] if words else ""
    return len(last) > 1 and last.endswith(".") and \
        _abbreviation(last[:-1]) not in (None, "initial")


def split_sentences(text: str) -> Iterator[str]:
    """The sentences of ``text``, stripped, in order (a line break always ends one)."""
    start = 0
    for m in _BOUNDARY.finditer(text):
        if "\n" not in m.group(0) and m.group(0).lstrip().startswith("."):
            # (the last word before the mark, from a bounded tail: the sentence so far
            # grows with each title it passes, "Dr. Dr. Dr. ...")
            tail = text[max(start, m.start() - _LONGEST_WORD):m.start() + len(m.group(0).rstrip())]
            before = _WORD_BEFORE.search(tail.rsplit(None, 1)[-1]) if tail.strip() else None
            kind = _abbreviation(before.group(1)) if before else None
            if kind is not None and m.group(0).strip() == ".":
                following = re.match(r"[\"'(]*([A-Za-z']+)", text[m.end():])
                nxt = following.group(1).lower() if following else ""
                if kind in _NEVER_END or kind == "initial" or nxt not in _OPENERS:
                    continue
        end = m.start() if m["chat"] else m.start() + len(m.group(0).rstrip())
        piece = text[start:end].strip()
        if piece:
            yield piece
        start = m.end()
    rest = text[start:].strip()
    if rest:
        yield rest


#: A question tagged onto a statement: "I started a store - pretty cool, huh?", "I moved
#: to Leeds, did you know?", "I finished another project - want to see a pic?".
_TAG_SEPARATOR = re.compile(r"\s*,\s+|\s+[-\u2013\u2014]+\s+")
#: At most this many words in a tag.
_TAG_WORDS = 6
#: How a question opens (then the whole sentence asks, whatever its tail).
_ASKING = re.compile(r"^\W*(?:do|did|does|have|has|had|are|is|was|were|can|could|would|will|"
                     r"shall|should|may|might|must|what|how|where|when|why|who|whom|whose|"
                     r"which|any|anything|wanna|want|got|ever)\b", re.I)


#: A question that asks nothing, only frames the speaker's news ("Can you believe I'm a
#: junior already?", "Guess what, I got the job?", "Did I tell you we moved?"): the news
#: is a statement of the speaker's (it opens on I/we/my/our).
_RHETORICAL = re.compile(r"^\W*(?:(?:can|could|would)\s+you\s+believe|guess\s+what|"
                         r"did\s+i\s+(?:ever\s+|already\s+)?(?:tell|mention\s+to)\s+you|"
                         r"have\s+i\s+(?:ever\s+|already\s+)?told\s+you|you\s+know\s+what|"
                         r"did\s+you\s+(?:know|hear))"
                         r"[\s,:!-]+(?:that\s+)?(?P<x>(?:i|we|my|our)\b(?:'\w+)?\s.+)$", re.I)
#: The speaker asking whether they already told their news ("Did I mention the Fiesta's
#: gone?", "Have I said the choir and I parted ways?", "Did I mention that Mum moved in
#: with us?"): they are telling it, whatever word it opens on; a clause of at least three
#: words, not one that points at something said ("Did I mention it to you?"), asks on
#: ("Did I say how ...?") or speaks of the other ("Did I say you could come?").
_TOLD_ALREADY = re.compile(r"^\W*(?:did\s+i\s+(?:ever\s+|already\s+|even\s+)?"
                           r"(?:mention|say|tell\s+you)|have\s+i\s+(?:ever\s+|already\s+|"
                           r"even\s+)?(?:mentioned|said|told\s+you))(?:\s+to\s+you)?"
                           r"[\s,:!-]+(?:that\s+)?(?P<x>(?!(?:it|that|this|these|those|to|"
                           r"about|how|what|why|where|when|which|who|whether|if|you|your|"
                           r"anything|something|so|yes|no)\b)[\w'].*)$", re.I)


def _told_already(text: str) -> str | None:
    """The news of a question asking whether it was told (``_TOLD_ALREADY``), or None."""
    m = _TOLD_ALREADY.match(text)
    if m is None:
        return None
    news = m["x"].rstrip(" ?!")
    if len(news.split()) < 3 or re.search(r"\b(?:you|your|yours)\b", news, re.I):
        return None
    return news[:1].upper() + news[1:] if not re.match(r"(?:i|we|my|our)\b", news, re.I) \
        else news


def untag(sentence: str) -> tuple[str, bool]:
    """A sentence without a question tagged onto its statement, and whether it still asks:
    "I started a store - pretty cool, huh?" -> ("I started a store", False); "Did you
    go?" -> ("Did you go?", True)."""
    text = sentence.strip()
    if not text.endswith("?"):
        return text, False
    if m := _RHETORICAL.match(text):
        return m["x"].rstrip(" ?!"), False
    if (news := _told_already(text)) is not None:
        return news, False
    if _ASKING.match(text):
        return text, True
    for m in _TAG_SEPARATOR.finditer(text):
        head, tag = text[:m.start()], text[m.end():]
        if len(head.split()) >= 3 and len(tag.split()) <= _TAG_WORDS and \
                re.fullmatch(r"[\w' ,]+\?+[\"')\]]*", tag):
            return head.rstrip(" ,;:-"), False
    return text, True


#: Clauses of a sentence read apart: after ";", before "and/but I|my", after a comma
#: that starts a new first-person clause ("I don't live there anymore, I moved to Porto",
#: "Helen retired, so now I report to Marcus") and after ", so" of a consequence ("I'm
#: vegan, so no dairy").
_SPLIT = re.compile(r"(?<=;)\s+|,?\s+(?:and|but)\s+(?=(?:i|my)\b)", re.I)
_COMMA_CLAUSE = re.compile(r",\s+(?:(?:so|and|but|then|now|since then|these days|nowadays)"
                           r"\s+){0,2}(?=(?:i|my|we|our)\s)|"
                           # A consequence after ", so", opened by a negation or a
                           # subject ("I'm vegan, so no dairy"); not "so" of degree ("...,
                           # so much fun").
                           r",\s+so\s+(?=(?:no|not|never|nothing|none|that|this|it|they|he|"
                           r"she)\b)", re.I)
#: Openers of a subordinate clause: "When I ask, I want ..." is one instruction.
_SUBORDINATE = re.compile(r"^(?:when|whenever|if|before|after|as soon as|once|since|because|"
                          r"while|although|though|unless|until|as long as)\b", re.I)


def clauses(sentence: str, opener: Callable[[str], str] = str.strip) -> Iterator[str]:
    """The clauses of a sentence (contractions expanded: "I am") that say one thing each,
    stripped: "I do not run anymore, I switched to cycling" -> "I do not run anymore", "I
    switched to cycling". A subordinate clause ("When I ask, reply in French") and a pair
    as the subject ("Alex and I got married") stay whole; ``opener`` strips what opens a
    part (fillers) before the subordinate check."""
    pair = re.match(r"^((?:[A-Z][a-z]+|my\s+\w+(?:\s+(?-i:[A-Z])[a-z]+)?)\s+and\s+(?=i\b)|"
                    r"me\s+and\s+(?=my\b))",
                    sentence, re.I)
    if pair:
        first, *rest = clauses(sentence[pair.end():], opener)
        yield pair.group(1) + first
        yield from rest
        return
    for part in _SPLIT.split(sentence):
        part = (part or "").strip()
        if _SUBORDINATE.match(opener(part)):
            yield part
            continue
        yield from (p.strip() for p in _COMMA_CLAUSE.split(part))
