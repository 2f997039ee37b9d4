"""A value the speaker holds, told again as someone's (or something's) too: no new value.

"My brother just moved to Manchester too, so we're neighbours now" after "I live in
Manchester": the sentence names the very place the memory holds, in a clause that adds
("too", "also", "as well": ``index.TOLD_ADDITION``). Whatever its other clause says of
the present ("we're neighbours now"), the memory's value is shared, not replaced, and no
finder by meaning may take it for the value the sentence changes. Read by the proper
names the memory's one fact holds (the subject's own name left out): every one of them
in the adding clause, and no other name there ("moved from Manchester to Leeds too"
names a new one).
"""

from __future__ import annotations

import re
from typing import Any

from index import TOLD_ADDITION

from .slots import names_of
from .updates import first_person

__all__ = ["shared_value"]

#: Where a sentence's clauses part (a comma, a semicolon, a dash, "so", "but").
_CLAUSES = re.compile(r"\s*(?:[,;:]|\s-\s|\b(?:so|but|and)\b)\s*", re.I)


def shared_value(sentence: str, memory: dict[str, Any], who: str) -> bool:
    """Whether a clause of ``sentence`` (first person, raw) that adds names every proper
    name of ``memory``'s one fact (of ``who``'s): the value is shared, not replaced."""
    said = first_person(memory["content"], who)
    if len(said) != 1:
        return False
    held = names_of(" " + said[0]) - {w.lower() for w in who.split()}
    if not held:
        return False
    own = {w.lower() for w in who.split()}
    return any(TOLD_ADDITION.search(clause) and held <= (named := names_of(" " + clause))
               and not named - held - own     # "from Manchester to Leeds too": a new one
               for clause in _CLAUSES.split(sentence) if clause)
