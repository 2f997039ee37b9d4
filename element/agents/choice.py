"""The speaker's choice told with "it" as its subject ("it's green tea for me these days"),
and the clauses told beside a keyed ending ("I'm not drinking coffee anymore, it's green tea
for me these days"): the new value beside the old one's end. Split from ``endings.py``,
which reads the grammar of an ending; this reads what is chosen instead. Pure functions
over texts and an embedding function; no case, no benchmark, no name.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .decisions import Pool
from .ending_grammar import clauses
from .episodes import tell
from .holders import subject_first
from .meant import ended_by_meaning
from .observation import Observation
from .restated import introduced
from .rules import Candidate
from .updates import ADDITION, NOT_NOW

__all__ = ["choice_change", "beside_ending"]


#: The speaker's choice told with "it" as its subject: "it's green tea for me these days",
#: "it's decaf for me from now on", "it's the bus for us now" (the value, then who holds it).
_CHOICE = re.compile(r"^(?:it|that)(?:'s|\s+is|\s+has\s+been|\s+will\s+be)\s+(?:just\s+|only\s+|"
                     r"strictly\s+|all\s+)?(?P<x>[^,;.!?]{1,40}?)\s+for\s+(?:me|us)\b"
                     r"(?P<rest>[^,;.!?]*)", re.I)
#: Said to hold from now on, not for one time ("it's pizza for me tonight").
_FROM_NOW = re.compile(r"\b(?:now|these\s+days|nowadays|from\s+now\s+on|at\s+the\s+moment|"
                       r"lately|going\s+forward|any\s?more|these\s+days)\b", re.I)


#: Beside the speaker's ending ("I don't do CrossFit anymore, it's mostly yoga these days"),
#: the choice is the speaker's without "for me": the clause names what replaced the ended.
_CHOICE_BESIDE = re.compile(r"^(?:it|that)(?:'s|\s+is|\s+has\s+been)\s+(?:just\s+|only\s+|"
                            r"mostly\s+|all\s+|more\s+)?(?P<x>[^,;.!?]{1,40}?)"
                            r"(?P<rest>(?:\s+for\s+(?:me|us))?\s+(?:now|these\s+days|nowadays|"
                            r"at\s+the\s+moment|instead))\W*$", re.I)


def choice_change(sentence: str, pool: Pool, who: str, turn: int, observation: Observation,
                  taken: list[str], beside: Sequence[str] = ()) -> Candidate | None:
    """"It's green tea for me these days": the speaker's value of what the sentence
    leaves unnamed, said to hold from now on. It replaces the speaker's memory the value
    names by meaning (``ended_by_meaning``: "green tea" and "drinks black coffee all
    day"), else it is kept as said: a statement of the speaker's present, not chatter."""
    # The choice may be the sentence or a clause of it, beside its reason ("my doctor
    # told me to cut caffeine, so it's decaf for me from now on"): the sentence is told.
    m = next((m for c in [sentence, *clauses(sentence)]
              if (m := _CHOICE.match(subject_first(c))) is not None), None)
    if m is None and beside:
        m = _CHOICE_BESIDE.match(subject_first(sentence))
    if m is None or not _FROM_NOW.search(m["rest"]) or ADDITION.search(sentence) or \
            NOT_NOW.search(sentence):
        return None
    # Beside an ending, told with it: "it's mostly yoga these days" alone says not whose.
    content = tell(", ".join([*beside, sentence]), who, observation.others(turn))
    if not content:
        return None
    if beside:      # the ending retires the old value: this is the new one, added
        return Candidate("fact", content, None, turn, "change",
                         source=", ".join([*beside, sentence]))
    target = None
    embedder = pool.embedder()
    if embedder is not None:
        try:
            target = ended_by_meaning(m["x"], pool.nearest(m["x"], 10), who, embedder.embed,
                                      taken, chosen=True)
        except Exception:   # a failing model finds nothing: the statement is added
            target = None
    if target is not None:
        taken.append(target["id"])
        content = introduced(content, target["content"], who)
    return Candidate("fact", content, None, turn, "change", source=sentence,
                     target=target["id"] if target else None)


#: Where a statement's clauses part (as ``retire.py`` reads them).
_CLAUSE_END = re.compile(r"\s*[,;]\s+|\s+(?:but|so)\s+", re.I)


def beside_ending(keyed: Sequence[Candidate]) -> list[tuple[list[str], list[str]]]:
    """The clauses a keyed ending read with its own ("I'm not drinking coffee anymore, it's
    green tea for me these days": the rule read the whole sentence, its ending is the first
    clause): the others, each to be read alone as beside an ending, and the ending's clause
    (the shape of ``change_statements._units``)."""
    out = []
    for cand in keyed:
        if cand.kind != "retire" or not cand.source or not cand.query:
            continue
        parts = [p.strip(" .!") for p in _CLAUSE_END.split(cand.source) if p.strip(" .!")]
        own = [p for p in parts if cand.query.lower() in p.lower()]
        rest = [p for p in parts if p not in own and len(p.split()) >= 3]
        if own and rest:
            out.append((rest, own))
    return out
