"""One of several: an ending that names one of the things a memory holds together.

"We have two rabbits, Flopsy and Bun" is one memory of two; "Flopsy died last week", "a
fox got Flopsy" end Flopsy only, and the memory, which holds Bun too, stays true of the
other. Superseding it would lose Bun. The thing ended is told by a name the memory lists
beside another name ("Flopsy and Bun", "Mog, Tigger and Sooty"). Pure function over
texts; no case, no name.
"""

from __future__ import annotations

import re

__all__ = ["one_of_several"]

#: A name: a capitalised word (not the sentence's first word alone: the caller passes the
#: thing, whose names keep their capitals).
_NAME = re.compile(r"(?-i:[A-Z])[\w'-]+")
#: Words capitalised that are no name of a thing held.
_NOT_NAMES = frozenset("the my our a an i we".split())
#: Names listed together: "Mog and Tigger", "Mog, Tigger".
_JOIN = r"(?:,\s*|\s+(?:and|&)\s+)"


def one_of_several(thing: str, memory: str) -> bool:
    """Whether ``thing`` names one of several things ``memory`` lists by name ("Flopsy"
    and "has two rabbits, Flopsy and Bun"): its name beside another joined by "and" or a
    comma."""
    names = [n for n in _NAME.findall(thing) if n.lower() not in _NOT_NAMES]
    for name in names:
        said = re.escape(name)
        listed = re.compile(rf"\b{said}\b{_JOIN}(?P<a>(?-i:[A-Z])[\w'-]+)|"
                            rf"(?P<b>(?-i:[A-Z])[\w'-]+){_JOIN}{said}\b")
        # The other name one the thing says too is one name ("Marks and Spencer").
        if any((m["a"] or m["b"]) not in names for m in listed.finditer(memory)):
            return True
    return False
