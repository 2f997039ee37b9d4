"""A standing that names one thing: "I'm in the Ramblers", "I'm with Starling", "We're
with Octopus now" (issue 23: a statement that writes nothing can neither update nor be
recalled).

The episodes score a disclosure by its words of content, and want two
(``episodes.MIN_CONTENT``); a standing of the speaker's (a membership, a provider, a club)
whose one word of content is the name of what they are in or with has one, and wrote
nothing, though it is as much a fact of their life as "I'm a member of the YMCA". Only
the bare standing: "in", "with", "on" or "part of" ("at" is where one is: "I'm at
Starbucks"), a name (a capital, not a common word: ``spoken.maybe_name``; not a place the
lexicon knows: "I'm in Paris" is a visit), nothing after it but "now" ("I'm in bed", "I'm at work",
"I'm on it" name nothing; "I'm with Sam on this" says more than a standing); or "on" a
medicine, by what its noun names (the lexicon: "I'm on antidepressants"; "I'm on
holiday", "I'm on nights" are no medicine: a nights' standing has more words).
"""

from __future__ import annotations

import re

from index import lexicon

from .spoken import maybe_name

__all__ = ["named_standing"]

#: A standing whose one word of content is a name: "I'm in the Ramblers", "I'm with
#: Starling", "We're with Octopus".
_NAMED = re.compile(r"^(?:I|we)\s+(?:am|are|'m|'re)\s+(?:(?:now|still|also)\s+)?(?:in|with|"
                    r"on|part\s+of)\s+(?:the\s+)?(?P<x>(?-i:[A-Z])[\w&'-]+(?:\s+(?-i:[A-Z])"
                    r"[\w&'-]+){0,2})(?:\s+(?:now|these\s+days|nowadays))?\W*$", re.I)


def named_standing(text: str, names: set[str]) -> bool:
    """Whether ``text`` (a cleaned sentence) is a standing of the speaker's that names one
    thing by its name, not a name of ``names`` (the people talking): "I'm in the
    Ramblers"."""
    m = _NAMED.match(text.strip())
    if m is None and (drug := _ON.match(text.strip())) is not None:
        # "I'm on antidepressants": a medicine taken, by what the noun names (the lexicon)
        lex = lexicon()
        return lex is not None and bool(lex.is_a(drug["x"].lower(), "drug"))
    if m is None or not maybe_name(m["x"].split()[0]) or m["x"].split()[0].lower() in names:
        return False
    # "I'm in Paris": a place is where one is at the moment, not a standing (the lexicon)
    lex = lexicon()
    return not (lex is not None and lex.is_a(m["x"].lower(), "location"))


#: A standing on one thing named by a common noun: "I'm on statins".
_ON = re.compile(r"^(?:I|we)\s+(?:am|are|'m|'re)\s+(?:(?:now|still|also)\s+)?on\s+"
                 r"(?P<x>[a-z][a-z-]+)(?:\s+(?:now|these\s+days|nowadays))?\W*$", re.I)
