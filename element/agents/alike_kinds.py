"""Alike in kind: which one of the speaker's memories a bare value answers, by what its
nouns name (the lexicon), where the store's model cannot tell (issue 23: a fragment such
as "Fountain pen user now" of "writes with a biro" wrote nothing).

``fragments._meant`` completes a verbless value in the frame of the one memory whose
value is alike in kind, by the cosine of the two value phrases; a small model holds many
pairs of one kind apart ("fountain pen" / "biro" .24, "Quakers" / "Methodist", "day
routes" / "night bus route"). WordNet knows them as one kind: a deep shared kind (a pen, a
Christian, a road) says the fragment gives that memory's attribute a new value. Only the
speaker's own memories, only one of them (two of one kind: which is meant, the words do
not say), only a deep kind (``DEEP``: cat and dog share "carnivore" at depth 4, an
instrument and a vehicle "instrumentality" at 3). Without the lexicon, or for words it
does not know (brands, slang), nothing is read: the model's reading stands.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from index import lexicon

__all__ = ["one_of_a_kind", "DEEP", "NEAR"]

#: The least depth of the kind two nouns share for them to be of one kind.
DEEP = 5
#: The most steps between them through that kind.
NEAR = 6
_WORD = re.compile(r"[A-Za-z][A-Za-z-]+")
#: Words of a value phrase that name no thing of it.
_SMALL = frozenset("""a an the of on in at to for with and or by from as my our their his her
now these days nowadays again mostly just still very all""".split())


#: A preposition after a noun phrase's head ("Evenings for the dog walk": evenings).
_AFTER_HEAD = re.compile(r"\s+(?:for|with|at|of|in|on|to|from|by|about|as)\s+.*$", re.I)


def _nouns(phrase: str) -> list[str]:
    """The words of ``phrase`` before a preposition that may name its thing, its last (its
    head) first."""
    head = _AFTER_HEAD.sub("", phrase.strip())
    words = [w.lower() for w in _WORD.findall(head) if w.lower() not in _SMALL]
    return words[::-1]


def one_of_a_kind(value: str, others: Sequence[str]) -> int | None:
    """The index of the one value of ``others`` whose thing is of one kind with ``value``'s
    (a noun of each sharing a kind at least ``DEEP`` deep, within ``NEAR`` steps), or
    None: none, several, or no lexicon."""
    lex = lexicon()
    if lex is None:
        return None
    mine = _nouns(value)[:2]
    if not mine or lex.is_a(mine[0], "person"):
        return None     # what the speaker is ("Cubs leader now"): ``said_plainly``'s
    found: list[int] = []
    for k, other in enumerate(others):
        theirs = _nouns(other)[:3]
        for a in mine:
            if any(a == b or (kin := lex.kinship(a, b)) is not None and
                   kin.depth >= DEEP and kin.steps <= NEAR for b in theirs):
                found.append(k)
                break
    return found[0] if len(found) == 1 else None
