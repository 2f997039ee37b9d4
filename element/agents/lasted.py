"""How long a state has lasted: "for forty years now", "I've had the Jazz for ten years".

A span counted up to the present tells a state that has held all that time: "Dad's been
on the same allotment for forty years now", "We've been in this house for twelve years",
"I've been running for 20 years now". Two readings follow from it:

- Its "now" closes the span and is no word of a present against what was ("I'm on days
  now"): the write side's cues read the sentence without it (:func:`unlasted`). Read as a
  cue of change, it let such sentences replace whatever they sat nearest to: the father's
  age, the car itself, the home.
- What it tells held before a memory told within the span (:func:`held_before`): the
  allotment for forty years beside "my dad is 64" told three weeks ago, "been veggie for
  fifteen years" beside "I'm a vegetarian". Both held at once, so the sentence makes
  nothing stale, whatever a finder linked it to; a span shorter than the memory's age
  ("I've been at Google for two weeks now" after "I work at Amazon", told a month ago)
  began after it, and may.

Pure functions over text and times; no model call.
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["lasted", "unlasted", "span_days", "no_age", "spared"]

_WORDS = ("zero one two three four five six seven eight nine ten eleven twelve thirteen "
          "fourteen fifteen sixteen seventeen eighteen nineteen").split()
_TENS = "twenty thirty forty fifty sixty seventy eighty ninety".split()
_COUNT = (r"(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|"
          r"[a-z]+teen|(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)"
          r"(?:-[a-z]+)?|\d+|a\s+few|a\s+couple(?:\s+of)?|several|many|a\s+good\s+few)")
_UNIT = r"(?:years?|yrs?|months?|fortnights?|weeks?|days?|decades?)"
#: A span without a count: long ("ages", "years", "a long time") or of some weeks
#: ("a while", "some time").
_VAGUE = (r"(?:ages|years|decades|donkey'?s\s+years|yonks|a\s+long\s+time|forever|"
          r"a\s+(?:good\s+)?while|some\s+time|months)")
_SPAN = (r"(?:(?:about|around|nearly|almost|over|more\s+than|well\s+over|getting\s+on\s+for|"
         r"going\s+on|at\s+least|roughly|probably)\s+)?"
         rf"(?:(?P<count>{_COUNT})\s+(?P<unit>{_UNIT})(?:\s+and\s+a\s+half)?|"
         rf"(?<=for\s)(?P<vague>{_VAGUE}))")
#: A span counted up to now: "(for) (about) forty years now", "for ages now"; the group
#: ``now`` is the "now" it closes with (not "now that ...", a cause).
_LASTED = re.compile(rf"\b(?:(?:for|over)\s+)?{_SPAN}[\s,]+(?P<now>now)\b"
                     r"(?!\s+(?:that|and\s+then)\b)", re.I)
#: A present perfect: "I've been", "we have had", "Mum's lived", "she's worked".
_PERFECT = re.compile(r"(?:\b(?:have|has)|'ve|'s)\s+(?:(?:just|always|only|now|been\s+\w+ing)\s+)?"
                      r"(?:been|had|lived|worked|done|kept|owned|run|played|gone|taught|"
                      r"stayed|used|driven|ridden|sung|supported|volunteered|known|"
                      r"\w+ed)\b", re.I)
#: "for <span>" after a present perfect: the span up to now ("I've had the Jazz for ten
#: years").
_FOR_SPAN = re.compile(rf"\bfor\s+{_SPAN}\b", re.I)
_DAYS = {"day": 1, "week": 7, "fortnight": 14, "month": 30, "year": 365, "yr": 365,
         "decade": 3650}


def lasted(sentence: str) -> bool:
    """Whether ``sentence`` counts a span up to now ("for forty years now")."""
    return _LASTED.search(sentence) is not None


def unlasted(sentence: str) -> str:
    """``sentence`` without the "now" that closes a span counted up to the present (the
    span itself kept): what the cues of change read."""
    return _LASTED.sub(lambda m: m.group(0)[:m.start("now") - m.start()].rstrip(" ,"),
                       sentence)


def _count(said: str) -> float | None:
    said = " ".join(said.lower().split())
    if said.isdigit():
        return float(said)
    if said in ("a", "an", "one"):
        return 1.0
    if said in ("a few", "several", "a good few"):
        return 3.0
    if said.startswith("a couple"):
        return 2.0
    if said == "many":
        return 5.0
    if said in _WORDS:
        return float(_WORDS.index(said))
    tens, _, unit = said.partition("-")
    if tens in _TENS:
        return 20.0 + 10 * _TENS.index(tens) + (_WORDS.index(unit) if unit in _WORDS else 0)
    return None


def span_days(sentence: str) -> float | None:
    """How many days the span ``sentence`` counts up to now lasts ("for forty years now",
    "I've had it for ten years"), else None. A span without a count: long ones two years
    ("for ages"), "a while" two months."""
    m = _LASTED.search(sentence)
    if m is None and _PERFECT.search(sentence):
        m = _FOR_SPAN.search(sentence)
    if m is None:
        return None
    if m["vague"]:
        vague = m["vague"].lower()
        return 60.0 if "while" in vague or "some" in vague or vague == "months" else 730.0
    count = _count(m["count"])
    unit = m["unit"].lower().rstrip("s")
    return None if count is None else count * _DAYS.get(unit, 365)


#: A memory that states an age: "Ana's dad is 64", "Bramble is two", "is 45 years old",
#: "has a 2-year-old son".
_AGE = re.compile(rf"\b(?:is|are|turned|'s)\s+(?:now\s+|just\s+)?(?:{_COUNT})"
                  r"(?:\s+(?:years?|months?)\s+old)?\s*[.!]?\s*$|"
                  rf"\b(?:{_COUNT})\s+(?:years?|months?)\s+old\b|\b\d+-(?:year|month)-old\b",
                  re.I)


def no_age(sentence: str | None, memory: dict[str, Any]) -> bool:
    """Whether ``sentence`` counts a span up to now and ``memory`` states an age: the span's
    number is how long a state has held ("Dad's been on the same allotment for forty years
    now", "I've been running for 20 years now"), no age, so the age memory holds."""
    return bool(sentence) and span_days(sentence or "") is not None and \
        _AGE.search(str(memory.get("content") or "")) is not None


def spared(sentence: str | None, memories: list[dict[str, Any]]) -> list[str]:
    """The ids of ``memories`` a span ``sentence`` counts makes no less true (:func:`no_age`)."""
    if not sentence or span_days(sentence) is None:
        return []
    return [m["id"] for m in memories if no_age(sentence, m)]
