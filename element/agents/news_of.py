"""News of someone the speaker knows, told by name ("Jess got a flat in Glasgow", "Tomasz
moved to Krakow in May", "Jess's new place is in Leith"): the speaker's news to a friend,
as "my friend Jess got ..." would be (``episodes.py`` scores it). Pure functions, English
only.
"""

from __future__ import annotations

import re

from .episode_words import FAMILY, PAST as _PAST
from .spoken import NOT_NAMES, maybe_name

__all__ = ["named_news", "OF_NAMED"]


#: Verbs that report what someone said, thought or felt: their news is in the clause after.
_REPORTS = frozenset("said told thought felt knew meant heard asked wondered".split())


#: A thing of a named person's ("Jess's new place", "Tom's job at the Western General").
#: Or "has" and a participle ("Tom's got a job at Arup"), or "is" where they are ("Jess is
#: at Lidl now").
OF_NAMED = (r"(?P<of>'s(?:\s+(?!(?:is|are|was|were|has|had|at|in|with|on|for|been|got|gone|"
            r"just|now)\b)[a-z][\w-]*){1,2}(?:\s+(?:at|in|with|on|for)\s+(?:the\s+)?[A-Z][\w'&-]*"
            r"(?:\s+[A-Z][\w'&-]*)*)?)?(?P<has>'s|\s+has|\s+had|\s+is)?")


#: Which one of the people the speaker knows, said after the name by where they know them
#: from ("Chloe from work", "Gemma from next door", "Dev from the running club"): lowercase
#: words, so not a place of theirs ("Tom from Leeds" is where Tom is from).
_WHICH = r"(?:\s+from\s+(?:the\s+|my\s+|our\s+)?[a-z]+(?:\s+[a-z]+)?" \
    r"(?=\s+(?:just|finally|also|[a-z]+ed|got|is|was|has|had|'s|went|left|moved|started|bought|sold|found|took|won|lost|became)\b))?"


#: The present told as changed, at the end of the news ("... now", "... these days").
_NOW = re.compile(r"\b(?:now|these\s+days|nowadays)\W*$", re.I)


#: A named person's present doing ("Mia's learning the violin", "Tom is working at Arup").
_DOING = re.compile(r"(?P<n>[A-Z][a-z]{1,15})(?:'s|\s+is)\s+(?:now\s+|still\s+)?"
                    r"(?P<v>[a-z]{2,}ing)\s+(?P<rest>.+)$")


def named_news(text: str) -> bool:
    """Whether a cleaned ``text`` is news of someone the speaker knows, told by name ("Jess
    got a flat in Glasgow", "Tomasz moved to Krakow in May"): a name (or a bare kin word)
    opens it (a capitalised word that can be one: :func:`maybe_name`), a past verb of its
    own follows (not one that reports: "Jess said ..."), and a name of a place or a thing
    after. People name in chat, with no introduction, only those they know; what befell
    them is the speaker's news as "my friend Jess got ..." would be; so is a thing of
    theirs as it is now, or where they are (``OF_NAMED``: "Jess's new place is in Leith")."""
    p = _DOING.match(text)
    if p is not None and maybe_name(p["n"]) and p["v"] not in _REPORTS:
        # "Mia's learning the violin now", "Ellie's doing a PhD in Glasgow": what they do
        # now, told as changed or with where
        return bool(_NOW.search(p["rest"])) or bool(re.search(
            r"\b(?:in|at|with|for)\s+(?:the\s+)?(?-i:[A-Z])", p["rest"]))
    m = re.match(r"(?P<n>[A-Z][a-z]{1,15})" + _WHICH + OF_NAMED +
                 r"\s+(?:just\s+|finally\s+|also\s+)?(?P<been>been\s+)?"
                 r"(?P<v>[a-z]+)\s+(?P<rest>.+)$", text)
    # (or a kin word, bare as a name is: "Brother got a job at Arup")
    if m is None or not (maybe_name(m["n"]) or m["n"].lower() in FAMILY):
        return False
    verb = m["v"]
    past = verb in _PAST or verb.endswith("ed") and len(verb) > 4 or \
        m["of"] is not None and (verb in ("is", "are", "has") or verb.endswith("s")) or \
        m["has"] in ("'s", " is", " has") and verb in ("at", "in", "with")
    return past and verb not in _REPORTS and any(
        w.lower() not in NOT_NAMES for w in re.findall(
            r"\b(?:in|at|to|from|with|for|on)\s+(?:the\s+)?([A-Z][\w'&-]*)",
            f"{m['of'] or ''} {verb} {m['rest']}"))
