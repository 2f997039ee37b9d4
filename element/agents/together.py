"""The speaker's change told with another person as one subject: "My husband and I both
joined the David Lloyd in Hatfield", "Kerry and I are renting in Bristol now", "Me and my
sister have switched to Octopus", "Both of us work at the Co-op these days".

The speaker is one of the subject's people, so what the clause says holds of the speaker as
it does of the other one (``holders.holder_of`` reads the sentence as the speaker's). But the
finders of a change read the sentence as the speaker's words say it: the other person's
words ("husband", a name) and "both" ride along into the text compared by meaning, and the
memory it replaces ("I train at the Anytime Fitness") is not found; "joined" alone ("I joined
the David Lloyd in Hatfield") finds it.

So the clause is said again with the speaker alone as its subject ("I joined the David
Lloyd in Hatfield", "I am renting in Bristol now", "I have switched to Octopus"), and the
evaluator reads it as the speaker's own statement (``change_statements._now_clause``), the
sentence told whole, when it tells a change or a present (a cue of change or of now: "my
sister and I both love York" gives the speaker no new home). The other person is kept in
the memory; what the speaker holds is found. "Both" and "together" said of the two are
left out with them.

Why it is general: English grammar. A coordinated subject naming the speaker ("X and I",
"me and X", "both of us", "the two of us") shares its predicate between its members; the
verb is said of "I" by agreement ("are" -> "am", "were" -> "was"). Only such a subject at
the head of the sentence (or after an opening adverb) is read; "my sister and her husband
moved to Leeds" names no speaker and is not re-voiced. Pure functions over texts.
"""

from __future__ import annotations

import re

from .cues import signals
from .holders import without_opening
from .irregular import BASES, PARTICIPLES, PASTS

__all__ = ["together"]

#: A subject of the speaker with others: "my husband and I", "Kerry and I", "me and Dan",
#: "me and the kids", "both of us", "the two of us", "all of us"; with "both" or "all" after
#: it ("we both", "my wife and I both"). Not "we" alone: the speaker's own already.
#: A person named as one of a subject: "my husband", "my best mate", "the kids", "Kerry",
#: "Dan Smith" (not "Dan's": a thing of his).
_PERSON = (r"(?:(?:my|our|the)\s+(?:[\w-]+\s+){LAZY}[\w-]+(?<!'s)|"
           r"(?-i:[A-Z])[a-z]+(?:\s+(?-i:[A-Z])[a-z]+)?)(?!')")
_WITH_ME = [re.compile(
    r"^(?:(?:so|and|but|well|anyway|now)\s+)*"
    rf"(?:{_PERSON.replace('{LAZY}', lazy)}\s+and\s+(?:i|me)|"
    rf"me\s+and\s+{_PERSON.replace('{LAZY}', lazy)}|"
    r"(?:both|all|the\s+(?:two|three|four|five))\s+of\s+us)"
    r"(?:\s+(?:both|all))?(?=\s)", re.I) for lazy in ("?", "??")]

#: What two do to each other, not each what the speaker does alone: "Tom and I split up",
#: "me and Dan got engaged", "Kerry and I met at uni".
_RECIPROCAL = re.compile(r"^(?:(?:have|had|'ve|are|were|just|finally|recently|officially)\s+)*"
                         r"(?:split|broke|break|separated|divorced|married|engaged|met|meet|"
                         r"fell\s+out|dating|together|seeing|friends|related|talked|spoke|"
                         r"agreed|decided|argued|disagree)", re.I)

#: The verb forms of a plural subject said of "I".
_AGREE = {"are": "am", "were": "was", "'re": "'m", "have": "have", "'ve": "'ve"}

#: The others said again after the predicate: "together", "between us", "both of us".
_WITH_OTHERS = re.compile(r"\s+(?:together|between\s+us|both\s+of\s+us|all\s+of\s+us)\b",
                          re.I)


def together(sentence: str) -> str:
    """``sentence`` (cleaned) opening on a subject of the speaker with others said with the
    speaker alone as its subject ("My husband and I both joined the David Lloyd" -> "I
    joined the David Lloyd"), or "" (module doc)."""
    s = without_opening(sentence.strip())
    if s.endswith("?"):
        return ""
    # "me and my best mate moved ...": the person's words run up to the verb, the longest
    # reading whose next word is a verb ("my best mate"), else the shortest ("my sister").
    found = [m for pattern in _WITH_ME if (m := pattern.match(s))]
    m = next((m for m in found if _verb(s[m.end():].split()[0] if s[m.end():].split()
                                        else "")), found[-1] if found else None)
    if m is None:
        return ""
    subject = m.group(0).lower()
    if re.search(r"[,;:]", subject) or re.match(r"^(?:i|we|you|he|she|they)\b", subject):
        return ""       # "So, I and ..." is no such subject; "we and ..." not English
    rest = s[m.end():].lstrip()
    # "both", "all" after the subject's auxiliary: "we have both moved" -> "have moved"
    rest = re.sub(r"^((?:are|were|have|had|'ve|'re|will|would|can)\s+)(?:both|all)\s+", r"\1",
                  rest, flags=re.I)
    if _RECIPROCAL.match(rest):
        return ""
    verb = re.match(r"^([\w']+)", rest)
    if verb is None:
        return ""
    word = verb[1].lower()
    if word in ("is", "was", "has", "does", "and", "or", "of", "to", "the", "a", "my", "our"):
        return ""       # not a predicate of the two: "me and Dan's flat is ..."
    rest = _AGREE.get(word, verb[1]) + rest[verb.end():]
    said = _WITH_OTHERS.sub("", f"I {rest}").strip()
    # Only a change or a present told ("joined", "now", "moved"): a liking or a story of
    # the two ("my sister and I both love York") gives the speaker no new value.
    sig = signals(said)
    return said if sig.change or sig.now or sig.strong else ""


def _verb(word: str) -> bool:
    """Whether ``word`` may be the verb after a subject: an auxiliary, a past, a present."""
    low = word.lower()
    return low in _AGREE or low in ("had", "will", "would", "can", "could", "both", "all",
                                     "just", "now", "finally", "recently", "also") or \
        bool(re.fullmatch(r"[a-z]+ed", low)) or low in BASES or low in PASTS or \
        low in PARTICIPLES
