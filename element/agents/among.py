"""The speaker as one of a group told as the subject or the object: "Everyone on the ward
got moved to days, me too", "The whole team got relocated to Reading, me included", "We all
moved up to Glasgow in the spring", "The whole family went over to EE", "They've moved the
lot of us altos into the soprano line", "The landlord signed the whole building up with
Octopus Energy, our flat too".

The sentence's subject (or object) is a group, so whose it is read as the group's word
("everyone", "whole", "rest") and no gate linked it to what the speaker had said before;
but the group names the speaker among its members, so what it says holds of the speaker as
of each of them. Here the group is read for the speaker: said outright ("me too", "me
included", "including me", "me among them", "all of us", "our whole office"), or as the
speaker's household ("we all", "the whole family"). The clause is said again with the
speaker alone as its subject ("I got moved to days", "I moved up to Glasgow in the spring"),
or the group object as "me"/"us" ("The landlord signed us up with Octopus Energy"), for the
readings of a change done to the speaker (``undergone.py``, ``aided.py``).

Why it is general: English grammar. A group said to include the speaker shares its
predicate with them (distributive reading), the verb said of "I" by agreement ("has" ->
"have", "is" -> "am", "goes" -> "go"). A group that leaves the speaker out ("the rest of the
team went onto nights, but not me", "everyone except me", "but I stayed put"), another
person's group ("my sister and her kids"), or a group said without the speaker ("the whole
team got moved": whose team, the sentence does not say) is not read: another's change keeps
both facts. Pure functions over texts.
"""

from __future__ import annotations

import re

from index import RELATIONS

from .irregular import PARTICIPLES, PASTS
from .opening import from_subject

__all__ = ["shares", "among", "speaker_object"]

#: The speaker said to be one of the group, after the clause: "me too", "me included",
#: "including me", "me among them", "myself included", "me as well".
_INCLUDED = re.compile(
    r"(?:,\s*|\s+-\s+|\s+)(?:and\s+)?(?:(?:me|myself)\s+(?:too|included|as\s+well|among\s+them|"
    r"amongst\s+them|with\s+them|along\s+with\s+them)|including\s+(?:me|myself))\b"
    r"(?!\s*\?)", re.I)     # ("..., me too?": a question, no statement)
#: A thing of the speaker's said to be one of the group the act was done to: "our flat
#: too", "mine included", "ours as well" (an object group only).
_MINE_INCLUDED = re.compile(
    r"(?:,\s*|\s+)(?:and\s+)?(?:(?P<own>mine|ours|(?:my|our)\s+(?P<n>[a-z][\w-]*)(?:\s+[a-z][\w-]*)?)\s+"
    r"(?:too|included|as\s+well)|including\s+(?P<own2>mine|ours|(?:my|our)\s+[a-z][\w-]*))\b",
    re.I)
#: The speaker left out of the group: "but not me", "except me", "apart from me", "not me
#: though", "but I stayed put", "without me".
_EXCLUDED = re.compile(
    r"\b(?:except|apart\s+from|other\s+than|bar|besides|excluding|not\s+including|without)"
    r"\s+(?:for\s+)?(?:me|myself|us|mine|ours)\b|\bnot\s+(?:me|us|mine|ours)\b|"
    r"\b(?:me|us)\s+(?:not|excepted|aside)\b|\b(?:but|while|whereas)\s+(?:i|we)\b|"
    r"\bexcept\s+(?:i|we)\b|\brest\s+of\s+(?:the|my|our)\b", re.I)
#: A subject that is the speaker's household or a group the speaker is in, by its words:
#: "we all", "we both", "all of us", "the lot of us", "our whole office", "the whole
#: family", "the entire household".
_OURS = re.compile(
    r"^(?:we\s+(?:all|both|each)|(?:all|both|each|every\s+one|the\s+lot|the\s+(?:two|three|"
    r"four|five|six))\s+of\s+us(?:\s+(?!(?:have|had|has|are|were|was|got|get|all)\b)[a-z]+s)?|"
    r"(?:our|the)\s+(?:whole|entire)\s+(?:family|household|lot(?:\s+of\s+us)?)|"
    r"our\s+(?:whole|entire)\s+[a-z][\w-]*)(?=\s)", re.I)
#: The same group told as the object of another's act ("moved the lot of us altos into",
#: "signed us all up", "switched the whole family over to").
_OURS_OBJECT = re.compile(
    r"\b(?:(?:all|both|each|every\s+one|the\s+lot|the\s+rest)\s+of\s+us(?:\s+(?!(?:to|into|"
    r"onto|on|in|up|over|across|at|with|from|as)\b)[a-z]+s)?|us\s+(?:all|both)|"
    r"(?:our|the)\s+(?:whole|entire)\s+(?:family|household|lot))\b", re.I)
#: An act done to a group object: a verb in the past, the group after it.
_ACT_ON = re.compile(r"^(?!(?:i|we)\b)(?P<agent>[\w'&.-]+(?:\s+[\w'&.-]+){0,4}?)\s+"
                     r"(?:(?:has|have|'s|'ve|just|finally|now|also)\s+)*"
                     r"(?P<verb>[a-z]+ed|put|set|got|sent|stuck|made|gave|given|took|taken)\s+"
                     r"(?P<obj>(?:the|all|every|our|everyone|everybody)\b[^,;.!?]{0,40}?)"
                     r"(?=\s+(?:up|over|across|down|back|to|into|onto|on|in|at|with|as)\b)",
                     re.I)
#: What the verb after a group subject may be: an auxiliary or a verb of being or having.
_AUX = frozenset("got gets has have had is are was were do does did will would can could "
                 "'s 've 're 'd all both".split())
#: A plural or third-person verb said of "I".
_AGREE = {"has": "have", "is": "am", "are": "am", "were": "was", "does": "do", "'re": "am",
          "'ve": "have", "goes": "go"}


def _excluded(sentence: str) -> bool:
    return _EXCLUDED.search(sentence) is not None


def _verb_at(words: list[str]) -> int | None:
    """Where the verb of a clause opening on a group of one to eight words is, or None:
    the first auxiliary, past or participle after its first word ("Everyone on the ward
    got moved", "The whole office got ..."), else a present in -s ("The whole family uses
    EE")."""
    for i, word in enumerate(words[1:9], start=1):
        low = word.lower()
        if low in _AUX or low in PASTS or low in PARTICIPLES or re.fullmatch(r"[a-z]+ed", low):
            return i
    for i, word in enumerate(words[1:9], start=1):
        low = word.lower()
        if re.fullmatch(r"[a-z]+[^s]s", low) and low not in RELATIONS and \
                not re.fullmatch(r"[a-z]+(?:ss|us|is|ics)", low) and i + 1 < len(words):
            return i
    return None


#: A passive without its agent: "got moved to days", "were relocated to Reading", "have
#: been put on lates".
_PASSIVE = re.compile(r"^(?:got|get|gets|was|were|is|are|has\s+been|have\s+been|had\s+been|"
                      r"'s\s+been|'ve\s+been|been)\s+(?:(?:all|both|just|now)\s+)?"
                      r"(?P<v>[a-z]+ed|put|sent|stuck|made|set)\s+"
                      # (an agent named, "taken over by Zurich", is told as it is)
                      r"(?P<rest>(?!(?:[a-z]+\s+)?by\b).*)$", re.I)


def _said_of_me(predicate: str, subject: str = "I") -> str:
    """A predicate told of a group said of the speaker: "has moved to Leeds" -> "I have
    moved to Leeds", "goes to St Mary's" -> "I go to St Mary's"; a passive without its
    agent said as done to the speaker ("got moved to days" -> "they moved me to days"),
    as the speaker's own change done by another is told (``undergone.py``)."""
    words = predicate.split()
    while words and words[0].lower() in ("all", "both", "each"):
        words = words[1:]
    if not words:
        return ""
    if (passive := _PASSIVE.match(" ".join(words))) and passive["rest"]:
        obj = "me" if subject == "I" else "us"
        return f"they {passive['v']} {obj} {passive['rest']}".strip(" ,")
    first = words[0]
    low = first.lower()
    if low == "'s":
        follows = words[1].lower() if len(words) > 1 else ""
        first = "have" if follows in PARTICIPLES or follows.endswith("ed") or \
            follows == "got" else "am"
    elif subject == "I" and low in _AGREE:
        first = _AGREE[low]
    elif subject == "we" and low in ("has", "is", "was", "does"):
        first = {"has": "have", "is": "are", "was": "were", "does": "do"}[low]
    elif re.fullmatch(r"[a-z]+(?:ies)", low):
        first = first[:-3] + "y"
    elif re.fullmatch(r"[a-z]+(?:ches|shes|sses|xes|oes)", low):
        first = first[:-2]
    elif re.fullmatch(r"[a-z]+[^s]s", low) and low not in _AUX:
        first = first[:-1]
    # "all" or "both" after the auxiliary: "have both moved" -> "have moved"
    rest = [w for i, w in enumerate(words[1:]) if not (i == 0 and w.lower() in ("all", "both"))]
    return f"{subject} {' '.join([first, *rest])}".strip(" ,")


def shares(sentence: str) -> bool:
    """Whether ``sentence`` (cleaned) opens on a group the speaker is said to be in ("Everyone
    on the ward got moved to days, me too", "We all moved up to Glasgow", "Our whole office
    is hybrid now"), so it is the speaker's statement too; never a group that leaves them out
    ("The rest of my team got moved onto nights, but not me")."""
    s = from_subject(sentence.strip())
    if not s or _excluded(s) or re.match(r"(?:i|me)\b", s, re.I) or speaker_object(s) != s:
        return False    # ("They've moved the lot of us altos ..., me included": the object)
    if _OURS.match(s):
        return True
    m = _INCLUDED.search(s)
    return m is not None and m.start() > 0 and _verb_at(s[:m.start()].split()) is not None


def among(sentence: str) -> str:
    """The clause of ``sentence`` (cleaned) opening on a group the speaker is in, said of the
    speaker alone ("Everyone on the ward got moved to days, me too" -> "I got moved to days",
    "We all moved up to Glasgow in the spring" -> "I moved up to Glasgow in the spring"), or
    "" (module doc). What follows the speaker's inclusion ("..., me included, so that's where
    I train") is a clause of its own, left out."""
    s = from_subject(sentence.strip())
    if not s or s.endswith("?") or not shares(s):
        return ""
    if m := _OURS.match(s):
        group = m.group(0).lower()
        subject = "we" if group.startswith("our whole") and not re.search(
            r"family|household|lot", group) else "I"
        rest = s[m.end():].strip()
        cut = _INCLUDED.search(rest)
        rest = rest[:cut.start()] if cut else rest
        return _said_of_me(rest, subject)
    m = _INCLUDED.search(s)
    if m is None:
        return ""
    head = s[:m.start()].split()
    at = _verb_at(head)
    if at is None:
        return ""
    if head[at - 1].lower().endswith("'s") and head[at].lower() not in _AUX:
        # "The whole team's moved to Reading": the verb is the subject's "'s"
        return _said_of_me(" ".join(["'s", *head[at:]]))
    return _said_of_me(" ".join(head[at:]))


def speaker_object(sentence: str) -> str:
    """``sentence`` (cleaned) with a group object the speaker is in said as "us" or "me"
    ("The landlord signed the whole building up with Octopus Energy, our flat too" -> "The
    landlord signed us up with Octopus Energy"; "They've moved the lot of us altos into the
    soprano line" -> "They've moved us into the soprano line"), for the readings of a change
    done to the speaker; else ``sentence`` as it is."""
    s = sentence.strip()
    if _excluded(s):
        return sentence
    m = _ACT_ON.match(s)
    if m is None:
        return sentence
    obj = m["obj"]
    mine = _MINE_INCLUDED.search(s, m.end())
    me = _INCLUDED.search(s, m.end())
    if not (_OURS_OBJECT.fullmatch(obj.strip()) or me or
            mine and (mine["n"] or "").lower() not in RELATIONS):
        return sentence
    if re.match(r"(?:my|our|his|her|their)\s+(?:[\w-]+\s+)?(?:" + "|".join(sorted(RELATIONS)) +
                r")\b", obj, re.I):
        return sentence     # "moved my mum into ...": another person, not a group of the speaker's
    said = "me" if me and not re.search(r"\bus\b", obj, re.I) else "us"
    rest = s[m.end("obj"):]
    cut = min((x.start() for x in (mine, me) if x is not None), default=len(rest) + m.end("obj"))
    rest = s[m.end("obj"):cut]
    return f"{s[:m.start('obj')]}{said}{rest}".strip()
