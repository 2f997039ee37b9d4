"""The clauses that carry a chat sentence's facts: its build undone before the rules read it.

People type a fact inside a build the rule shapes do not read: a clause fronted before it
("Having wrecked my knee, I've switched to swimming", "Teaching at Ashcombe High as of
this term, secondary is a whole new world"), the fact inside the fronted clause itself
("since moving to Bath, I walk to work"), an apposition ("Jonah, my boyfriend, cooked me
dinner"), a second statement after a colon ("finally caved: switched to a Pixel"),
emoji. Each of these is a closed class of English structure (participles, the
subordinators that presuppose their clause, the possessive apposition, punctuation), so
undoing it is grammar, not vocabulary: :func:`carriers` gives the plain clauses such a
sentence is built of, as chat would say them plainly ("I have wrecked my knee and I have
switched to swimming", "I moved to Bath and I walk to work", "My boyfriend is Jonah").
A fronted act of the speaker's is told with its main clause as two acts coordinated, the
way the rules read an ending beside its new value ("I sold the Fabia and got a Zoe"). A
sentence of no such build is given back as it is. Pure functions.

Only subordinators whose clause is told as true are undone (since, now that, after,
because, although): "if I move to Leeds" and "when I lived in Leeds" say nothing holds now.
A fronted clause with a future or a modal after it ("After moving to Bath, I'll look for a
job") is a plan: the sentence is left whole. A trailing relative clause and a dash are
left too: what they add ("..., which is a Tesla") may be the value itself, and the
statements either side of a dash are read together.
"""

from __future__ import annotations

import re
import unicodedata

from .episode_words import ING_NOUNS, PAST
from .irregular import IRREGULAR
from .spoken import LEAD, restore_subject

__all__ = ["carriers", "past_of"]

#: Irregular past forms by base (``irregular.py``'s table): "since getting a dog" told as
#: "I got a dog". Every other verb takes "-ed".
_IRREGULAR_PAST = {base: pasts[0] for base, (pasts, _) in IRREGULAR.items()}
_PAST_FORMS = frozenset(_IRREGULAR_PAST.values()) | PAST


def past_of(ing: str) -> str | None:
    """The simple past of a verb given in "-ing" ("moving" -> "moved", "getting" -> "got",
    "trying" -> "tried"), or None when ``ing`` is no verb form (a noun in "-ing")."""
    low = ing.lower()
    if not low.endswith("ing") or len(low) < 5 or low in ING_NOUNS:
        return None
    stem = low[:-3]
    bases = [stem, stem + "e"]
    if len(stem) > 2 and stem[-1] == stem[-2]:
        bases.insert(0, stem[:-1])          # "getting" -> "get", "stopping" -> "stop"
    for base in bases:
        if base in _IRREGULAR_PAST:
            return _IRREGULAR_PAST[base]
    if re.search(r"[^aeiou]y$", stem):
        return stem[:-1] + "ied"            # "studying" -> "studied"
    return stem + "ed"                      # "moving" -> "moved", "stopping" -> "stopped"


#: The speaker's subject (or the household's) opening a clause.
_OWN_SUBJECT = re.compile(r"^(?:I|we|my|our)\b", re.I)
#: A subject opening a clause: a personal pronoun, a possessive or an article and a noun, a
#: name; then a finite verb (a past, a form of "be" or "have", a modal).
_FINITE = (r"(?:am|is|are|was|were|have|has|had|do|does|did|will|would|can|could|got|get|"
           r"gets|" + "|".join(sorted(_PAST_FORMS)) + r"|\w+ed)")
_CLAUSE = re.compile(r"^(?:(?:I|we|he|she|they|you|it)\b|"
                     r"(?:(?:my|our|his|her|their|the)\s+)?(?:[\w'-]+\s+){0,2}?" + _FINITE
                     + r"\b)", re.I)
#: A statement of what will or may be: a plan, a wish, a condition, not a fact of now.
_NOT_NOW = re.compile(r"\b(?:will|would|might|may|could|should|shall|going to|want to|"
                      r"plan to|hope to|hoping to|planning to)\b|\w'(?:ll|d)\b", re.I)
#: Where a fronted clause ends: its comma, or (chat leaves the comma out) the main clause's
#: subject, the speaker's.
_FRONT_END = r"(?:\s*,\s*|\s+(?=(?:I|we)\s))"
#: A perfect participle fronted: "Having switched to Y, I ...".
_HAVING = re.compile(r"^(?:after\s+)?having\s+(?P<v>[a-z]+)\s+(?P<rest>[^,]+?)" + _FRONT_END
                     + r"(?P<main>\S.*)$", re.I)
#: A gerund after a subordinator whose event is told as having happened: "since moving to
#: Bath, ...", "after getting the job, ...", "I walk to work since moving to Bath".
_SINCE_ING = re.compile(r"^(?:ever\s+since|since|after|upon)\s+(?P<v>[a-z]+ing)\s+"
                        r"(?P<rest>[^,]+?)" + _FRONT_END + r"(?P<main>\S.*)$", re.I)
_ING_AFTER = re.compile(r"^(?P<main>.+?),?\s+(?:ever\s+since|since|after)\s+(?P<v>[a-z]+ing)"
                        r"\s+(?P<rest>[^,]+)$", re.I)
#: A present participle fronted, its subject the speaker's: "Teaching at Ashcombe High as of
#: this term, secondary is a whole new world".
_ING_FRONT = re.compile(r"^(?P<v>[a-z]+ing)\s+(?P<rest>[^,]+?)\s*,\s*(?P<main>\S.*)$", re.I)
#: Participles that frame the talk rather than tell an act (style disjuncts and
#: participial prepositions: "Speaking of trips, ...", "Looking back, ...", "Considering
#: the cost, ..."): the speaker did nothing.
_FRAMING = frozenset("""
speaking talking thinking looking saying considering judging seeing assuming given
including regarding concerning according following excluding depending being having
putting coming getting going
""".split())
#: A finite clause after a subordinator that presents it as true (cause, time after,
#: concession): "since I moved to Leeds, ...", "now that we're settled in Lewes, ...",
#: "After Clover passed we adopted a greyhound".
_FACTIVE = (r"(?:ever\s+since|since|now\s+that|after|because|although|even\s+though|"
            r"though)")
_SUB_FRONT = re.compile(r"^" + _FACTIVE + r"\s+(?P<sub>[^,]+?)" + _FRONT_END
                        + r"(?P<main>\S.*)$", re.I)
#: "Jonah, my boyfriend, cooked ...": a name and the speaker's relation to it, in
#: apposition; "my boyfriend Jonah" said plainly is "My boyfriend is Jonah".
_APPOSITION = re.compile(r"^(?P<n>[A-Z][a-z'-]+(?:\s+[A-Z][a-z'-]+)?),\s+(?P<r>(?:my|our)\s+"
                         r"[a-z]+(?:\s+[a-z]+)?),\s+(?P<rest>[a-z].*)$")
_APPOSITION_REL = re.compile(r"^(?P<r>(?:my|our)\s+[a-z]+(?:\s+[a-z]+)?),\s+"
                             r"(?P<n>[A-Z][a-z'-]+(?:\s+[A-Z][a-z'-]+)?),\s+(?P<rest>[a-z].*)$")
#: A colon between two statements ("finally caved: switched to a Pixel", "big decision: I
#: sold the van"): what follows it opens as a clause does, on the speaker or a past verb;
#: not the colon that introduces a value ("My new GP: Dr Lamb", "My number is: 555-0199").
_BETWEEN = re.compile(r"(?<=\w):\s+(?=(?:(?:just|finally|now|also|then|so)\s+)?"
                      r"(?:(?:I|we)\b(?!\.)|(?i:my|our)\s+\w+\s+(?:is|are|has|have)\b|"
                      r"(?:" + "|".join(sorted(_PAST_FORMS)) + r"|[a-z]{3,}ed)\b))")


def _symbols(text: str) -> str:
    """``text`` without emoji and other pictographs (Unicode symbols, their joiners and
    variation selectors): they carry no fact and stay glued to the value before them."""
    kept = "".join(" " if unicodedata.category(ch) in ("So", "Sk", "Cs", "Co") else
                   "" if ch in "\u200d\ufe0f\ufe0e" else ch for ch in text)
    return re.sub(r"\s{2,}", " ", kept).strip()


def _speaker(main: str) -> str:
    """The subject a fronted clause takes from its main clause: the speaker's "I" or "we",
    else the speaker (a clause dangling in chat is the speaker's)."""
    m = re.match(r"(I|we)\b", main, re.I)
    return m.group(1) if m else "I"


def _past_tense(main: str) -> bool:
    """Whether a main clause tells the past ("I saw a fox"): a fronted "-ing" clause with
    it happened then, not now."""
    words = main.split()
    return any(w.lower() in _PAST_FORMS or re.fullmatch(r"[a-z]{3,}ed", w.lower())
               for w in words[1:3])


def _told(sub: str, main: str) -> list[str]:
    """A fronted clause told as a statement beside its main clause. With the speaker's
    main clause, one sentence of two acts in order, as plain chat coordinates them ("I
    sold the Fabia and I got a Zoe"): the rules read an ending and its new value together;
    with another subject's, two statements."""
    if _OWN_SUBJECT.match(main):
        first = main if re.match(r"I\b", main) else main[:1].lower() + main[1:]
        return [f"{sub} and {first}"]
    return [sub, main]


def _fronted(text: str) -> list[str] | None:
    """The clauses of a sentence opening on a fronted clause, that clause told as a
    statement (:func:`_told`), or None when it opens on none."""
    if m := _HAVING.match(text):
        if _NOT_NOW.search(m["main"]):
            return None
        return _told(f"{_speaker(m['main'])} have {m['v']} {m['rest']}", m["main"])
    if (m := _SINCE_ING.match(text)) and (past := past_of(m["v"])):
        if _NOT_NOW.search(m["main"]):
            return None
        return _told(f"{_speaker(m['main'])} {past} {m['rest']}", m["main"])
    # Only the speaker's own fronted clause: "Since the office moved, I just walk in" is
    # the rules' scene and change ("the office moved and I walk in" would read as neither).
    if (m := _SUB_FRONT.match(text)) and _CLAUSE.match(m["sub"]) and \
            _OWN_SUBJECT.match(m["sub"]):
        return _told(m["sub"].strip(), m["main"])
    if (m := _ING_FRONT.match(text)) and m["v"].lower() not in _FRAMING and \
            m["v"].lower() not in ING_NOUNS and past_of(m["v"]) and \
            not re.match(r"(?:is|are|was|were|has|have|had|can|will|would|makes?|made|"
                         r"helps?|helped)\b", m["main"], re.I) and \
            not _CLAUSE.match(m["rest"]):
        be = "was" if _past_tense(m["main"]) else "am"
        return _told(f"I {be} {m['v'].lower()} {m['rest']}", m["main"])
    return None


def _trailing(text: str) -> list[str] | None:
    """The clauses of a sentence ending on a gerund of the kind :func:`_fronted` reads ("I
    walk to work since moving to Bath"), or None."""
    # Each read alone. A finite clause after its main clause is left: there "since" and
    # "now that" as often give a cause ("I take the bus now that my knee is bad"), whose
    # "now" tells the main clause a change.
    if (m := _ING_AFTER.match(text)) and (past := past_of(m["v"])) and \
            _OWN_SUBJECT.match(m["main"]) and not _NOT_NOW.search(m["main"]):
        return [f"{_speaker(m['main'])} {past} {m['rest']}", m["main"]]
    return None


def _apposed(text: str) -> list[str] | None:
    """"Jonah, my boyfriend, cooked me dinner" -> "My boyfriend is Jonah", "Jonah cooked me
    dinner"; or None."""
    m = _APPOSITION.match(text) or _APPOSITION_REL.match(text)
    if m is None:
        return None
    relation = m["r"][0].upper() + m["r"][1:]
    return [f"{relation} is {m['n']}", f"{m['n']} {m['rest']}"]


#: Openers that say how the statement stands to what was said before it: a correction
#: ("Actually, ...", "No, ...") or one more ("Also got a cat", "Plus we ..."); the rules
#: read them, so they stay.
_KEPT_OPENER = re.compile(r"\b(?:actually|no|nope|wrong|correction|sorry|also|plus|too|"
                          r"still|again|another)\b", re.I)


def _unled(part: str) -> str:
    """``part`` without the interjections and discourse openers it starts on ("Ugh,
    switched to a Pixel", "Tbh, since moving to Leeds, ..."), unless one of them tells a
    correction or an addition (``_KEPT_OPENER``)."""
    m = LEAD.match(part)
    if m is None or not part[m.end():].strip() or _KEPT_OPENER.search(m.group(0)):
        return part
    rest = part[m.end():].strip(" ,;:-")
    # Only where the opener hides the build: a subject dropped after it, a time or a
    # fronted clause; before a subject said the clauses read the statement already.
    if restore_subject(rest) != rest or _timed(rest) != rest or _undo(rest) is not None:
        return rest
    return part


#: A time said before the statement, alone up to its comma: a time adverbial ("Last week,",
#: "In March,", "These days,", "As of this month,").
_TIME_FRONT = re.compile(
    r"^(?P<t>(?:(?:in|on|at|since|from|over|during|as of|back in|by)\s+)?(?:(?:the\s+)?"
    r"(?:last|this|next|past|early|late|mid)\s+)?(?:january|february|march|april|may|june|"
    r"july|august|september|october|november|december|spring|summer|autumn|fall|winter|"
    r"monday|tuesday|wednesday|thursday|friday|saturday|sunday|week|weekend|month|year|"
    r"term|semester|night|morning|yesterday|today|tonight|recently|lately|these days|"
    r"nowadays|a (?:few|couple of) (?:days|weeks|months) ago|\w+ (?:days|weeks|months|"
    r"years) ago))\s*,\s*(?P<rest>[a-z].*)$", re.I)


def _timed(part: str) -> str:
    """A statement opening on a time with its subject dropped ("Last week, started at
    Superdrug") with the subject put back after the time ("Last week, I started at
    Superdrug"), as it is put back at a sentence's start (``spoken.restore_subject``)."""
    m = _TIME_FRONT.match(part)
    if m is None or LEAD.match(m["rest"]):
        return part
    rest = restore_subject(m["rest"])
    return part if rest == m["rest"] else f"{m['t']}, {rest}"


def _undo(text: str) -> list[str] | None:
    """The clauses of ``text`` with one build undone, the last one the rest to read."""
    return _fronted(text) or _apposed(text) or _trailing(text)


def carriers(sentence: str) -> list[str]:
    """The plain clauses ``sentence`` is built of (see the module's docstring), in order;
    ``[sentence]`` when its build is plain. Each clause is stripped of the punctuation
    that joined it; what opens it (fillers) is the caller's to clean."""
    text = _symbols(sentence)
    parts = [p.strip(" ,;") for p in _BETWEEN.split(text) if p and p.strip(" ,;")]
    if not parts:
        return [sentence]
    out: list[str] = []
    for part in parts:
        part = _timed(_unled(part))
        for _ in range(3):      # a fronted clause inside a fronted clause's main clause
            undone = _undo(part)
            if undone is None:
                break
            out.extend(undone[:-1])
            part = undone[-1]
        out.append(part)
    return out if out != [sentence] else [sentence]
