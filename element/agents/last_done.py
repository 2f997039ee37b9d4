"""The last time of the speaker's own habit, told in its own verb: the habit is over.

"I sing alto in the cathedral choir", then "after twelve years I sang my last evensong at
Easter": the thing is named in other words ("evensong", not "choir"), but the verb is the
memory's own, in the past, and its object is the speaker's last or final one. So with "I
teach Spanish at evening classes" and "I taught my final class in June", "I coach the
under-11s" and "coached my last match on Saturday", "I volunteer at the food bank" and
"volunteered at my last session". The speaker's one held habit whose verb it is, is the one
told over (:func:`last_done_target`).

What ends nothing: the last of one run of it ("played my last game of the season, back
training in August"); a present or a plan ("I'm singing my last evensong at Easter", "I'll
teach my final class in June": not yet over); another's last ("she sang her last", "my
sister played her last gig"); a verb of being, having, doing, going, getting or making, which
names no habit of its own ("I had my last cigarette" after "I have two daughters"); a verb
two held habits share (none is meant).

Why it is general: the closed class of the possessives and "last"/"final", the past of a
verb by English's rules and its table of irregular verbs (``irregular.py``), and the memory's
own verb; no model, no case, no benchmark, no name. Pure functions over texts.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from .irregular import IRREGULAR
from .updates import Memory, the_one_said

__all__ = ["last_done", "last_done_target", "pasts_of"]

#: A past verb with the speaker's last or final one as its object: "sang my last evensong",
#: "taught our final class", "played at my last gig".
_LAST = re.compile(r"\b(?P<v>[a-z]+)\s+(?:(?:at|in|on|to)\s+)?(?:my|our)\s+(?:very\s+)?"
                   r"(?:last|final)\b(?!\s+(?:one|few|chance|hope|resort|word|straw|orders?)\b)",
                   re.I)
#: A plan, a wish or a question: not yet over.
_NOT_YET = re.compile(r"\b(?:will|'ll|going\s+to|gonna|about\s+to|soon|might|may|could|"
                      r"would|hope|wish|want|plan\w*|if)\b|\?\s*$", re.I)
#: The last of one run of the habit, not of the habit: "my last game of the season", "my
#: final class this term", "back training in August", "until", "again", "next year".
_FOR_NOW = re.compile(r"\b(?:of\s+the\s+(?:season|year|term|summer|winter|spring|autumn|fall|"
                      r"tour|week|month|series|day|night|run|half|campaign)|"
                      r"this\s+(?:season|year|term|summer|winter|spring|autumn|week|month)|"
                      r"before\s+(?:the\s+)?(?:break|summer|winter|christmas|holidays?|"
                      r"half-term)|for\s+(?:now|a\s+while|the\s+(?:season|year|summer|winter|"
                      r"time\s+being))|back\s+(?:\w+\s+)?(?:in|at|on|to|after|next|from)|"
                      r"until|till|again|next\s+(?:season|year|term|month|week|spring|summer|"
                      r"autumn|winter))\b", re.I)
#: Verbs that name no habit of their own.
_LIGHT = frozenset("be am is are have has do does go goes get gets make makes take takes "
                   "need want like love".split())
#: Words between the speaker and a habit's verb in a memory.
_ADVERBS = frozenset("also still now just really usually always often regularly currently "
                     "sometimes".split())


def pasts_of(base: str) -> frozenset[str]:
    """The simple pasts of a verb's base: its irregular ones, else by the rules of "-ed"
    ("play" -> "played", "dance" -> "danced", "carry" -> "carried", "jog" -> "jogged")."""
    base = base.lower()
    if base in IRREGULAR:
        return frozenset(IRREGULAR[base][0])
    if base.endswith("e"):
        return frozenset({base + "d"})
    if re.search(r"[^aeiou]y$", base):
        return frozenset({base[:-1] + "ied"})
    out = {base + "ed"}
    if re.fullmatch(r"[^aeiou]*[aeiou][bdfgklmnprtvz]", base):
        out.add(base + base[-1] + "ed")
    return frozenset(out)


def _verb(fact: str) -> str | None:
    """The base of a first-person habit's verb ("I sing alto ..." -> "sing"; "I also teach
    ..." -> "teach"), or None for a light verb or no habit of the speaker's."""
    words: list[str] = re.findall(r"[\w'-]+", fact.lower())
    if not words or words[0] not in ("i", "we"):
        return None
    rest = [w for w in words[1:4] if w not in _ADVERBS]
    if not rest or rest[0] in _LIGHT or rest[0].startswith("'"):
        return None
    return rest[0]


def last_done(sentence: str) -> list[str]:
    """The past verbs ``sentence`` (first person, cleaned) tells the speaker's last or final
    one of; none in a plan, a wish or a question."""
    if _NOT_YET.search(sentence) or _FOR_NOW.search(sentence):
        return []
    return [m["v"].lower() for m in _LAST.finditer(sentence)]


def last_done_target(sentence: str, held: Iterable[Memory], who: str,
                     skip: Sequence[str] = ()) -> Memory | None:
    """The one memory of ``held`` (the speaker's one-fact habits held now) whose verb
    ``sentence`` tells the last time of, in the past (see the module's note), or None."""
    verbs = set(last_done(sentence))
    if not verbs:
        return None
    # The memory's verb is said in the third person's agreement undone (``first_person``).
    return the_one_said(held, who, lambda said: bool((base := _verb(said)) is not None and
                                                     pasts_of(base) & verbs), skip)
