"""A thing ended named by what modifies a light head noun.

People name a habit or a diet they end by its kind before a word that names nothing:
"I'm not doing the low-carb thing any more", "stopped paying for that streaming thing",
"done with the whole vegan lark", "the running kick is over". The head ("thing", "stuff",
"lark", "phase") is no value; the words before it are. Read whole, the light head pulls the
thing away from the memory it ends ("the low-carb thing" and "is following the keto diet"
.30, "low-carb" alone .33, over ``meant.ENDED_MIN``), so the finders of the memory an
ending ends are also given the modifier alone (:func:`modifier_of_light`).

Why it is general: a closed class of English nouns that name nothing by themselves, and
the determiners before them; no case, no benchmark, no name. Pure functions over texts.
"""

from __future__ import annotations

import re

__all__ = ["LIGHT_HEADS", "modifier_of_light"]

#: Head nouns that name no thing: what is said of them is said of their modifier.
LIGHT_HEADS = frozenset("""thing things stuff business lark malarkey palaver nonsense phase
kick craze fad""".split())

#: A determiner, "whole" or "entire", the modifier (one to three words), the light head.
_LIGHT = re.compile(r"^(?:(?:the|my|our|that|this|all\s+(?:the|that|this))\s+)?"
                    r"(?:(?:whole|entire)\s+)?(?P<x>[\w'-]+(?:\s+[\w'-]+){0,2}?)\s+"
                    r"(?P<head>[a-z]+)$", re.I)
#: Modifiers that are themselves light or only say when or how big.
_EMPTY = frozenset("""the my our that this whole entire old new same other little big
one""".split())


def modifier_of_light(thing: str) -> str:
    """What modifies ``thing``'s light head ("the low-carb thing" -> "low-carb", "the whole
    vegan lark" -> "vegan"), else "" (a head that names a thing: "the gym membership")."""
    m = _LIGHT.match(thing.strip(" ."))
    if m is None or m["head"].lower() not in LIGHT_HEADS:
        return ""
    words = m["x"].split()
    return "" if all(w.lower() in _EMPTY for w in words) else m["x"]
