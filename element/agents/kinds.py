"""Two things of one kind: "the tennis club" and "the golf club", "the London office" and
"the Leeds office". A statement that one ended says nothing of the other (issue 23: "I quit
the tennis club" never retires "is a member of the golf club"), though by meaning the two
are near. Read by grammar, not words: a head noun both texts name, each right after a
modifier of its own the other text never says. A pure function over two texts.
"""

from __future__ import annotations

import re

__all__ = ["other_of_kind", "other_named", "TIMES"]

#: Words that are no thing's name: determiners, pronouns, prepositions, auxiliaries.
_FUNCTION = frozenset("""a an the my our your his her their its this that these those i we
you he she they it me us him them of in on at to for with from by about as and or but
is am are was were be been being have has had do does did 's 're 've not no n't every each
some any all one own very so too just also""".split())


#: What opens a noun phrase: a determiner, a possessive, a preposition ("to" is also the
#: infinitive's, before a verb: left out).
_OPENS_NOUN = frozenset("""a an the my our your his her their this that these those of in
on at for with from by about into""".split())


def _compounds(text: str) -> dict[str, str]:
    """Each noun of ``text`` named with a modifier, and the modifier: two content words
    right after a determiner or preposition ("the golf club" -> {"club": "golf"}); a verb
    and its object ("wear glasses") follow a subject, not a determiner, and are none, nor
    is a participle after a noun ("a kitten called Pepper")."""
    words = re.findall(r"[a-z][a-z'-]*", text.lower())
    return {head: mod for opener, mod, head in zip(words, words[1:], words[2:], strict=False)
            if opener in _OPENS_NOUN and mod not in _FUNCTION and head not in _FUNCTION
            and not mod.endswith("'s") and not head.endswith("ed")}


def other_of_kind(clause: str, memory: str) -> bool:
    """Whether ``clause`` and ``memory`` name two things of one kind: a head noun both
    have, each right after a word of its own that the other text lacks ("quit the tennis
    club" / "member of the golf club"), and nothing else of the memory's named ("Bubbles
    died, we've got a kitten called Pepper" names the goldfish Bubbles: the same thing),
    so what one says of its thing is not said of the other's."""
    said, held = _compounds(clause), _compounds(memory)
    said_words = set(re.findall(r"[a-z][a-z'-]*", clause.lower()))
    held_words = set(re.findall(r"[a-z][a-z'-]*", memory.lower()))
    for head, mod in said.items():
        if head in held and mod != held[head] and mod not in held_words and \
                held[head] not in said_words:
            shared = (said_words & held_words) - _FUNCTION - {head}
            return not shared
    return False


#: Capitalised words that name a time, not a thing: the months and days (closed classes)
#: and the feasts a year is counted by.
TIMES = frozenset("""monday tuesday wednesday thursday friday saturday sunday january
february march april may june july august september october november december christmas
easter new year eve halloween day""".split())


def _names(text: str) -> set[str]:
    """The proper names of ``text``: runs of capitalised words not opening a sentence or
    clause, not "I", not a time ("New Year's Day", "Boxing Day")."""
    out: set[str] = set()
    pattern = r"(?<![.!?,;:]\s)(?<!^)\b[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)*"
    for m in re.finditer(pattern, text.strip()):
        words = [re.sub(r"'s$", "", w).lower() for w in m.group(0).split()]
        if m.start() > 0 and words != ["i"] and not set(words) & TIMES:
            out.update(w for w in words if w != "i")
    return out


def other_named(clause: str, memory: str) -> bool:
    """Whether ``clause`` and ``memory`` each name a proper name and share none: "I
    haven't been to London in years" is of another place than "lives in Leeds"."""
    said, held = _names(clause), _names(memory)
    return bool(said) and bool(held) and not said & held
