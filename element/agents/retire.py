"""A statement that something no longer holds ("I'm not drinking coffee anymore", "I no
longer work at Google"): which memory it retires, or, when no memory held it, what is kept
of it.
"""

from __future__ import annotations

import re

from .decisions import Decision, Pool
from .endings import ended_memory
from .episodes import narrate
from .rules import Candidate
from .slots import single_slot, slot_target
from .updates import MENTION_MIN, key_target, mentions, value_target

__all__ = ["retire_decision"]

#: Where a sentence's clauses part: a comma or semicolon, or "but"/"so" between them.
_CLAUSE_END = re.compile(r"\s*[,;]\s+|\s+(?:but|so)\s+", re.I)


def retire_decision(cand: Candidate, pool: Pool, who: str, context: str | None,
                    goal: str | None) -> Decision:
    """"I'm not X anymore": the memory saying X retires (its attribute's, naming the value
    when the attribute holds one value; else the one naming X). When none says it, what no
    longer holds is itself worth keeping ("Bo is not drinking coffee anymore" answers "what
    does Bo drink?", as a correction of something not remembered is kept): the clause
    that says it, in the third person."""
    target = None
    if cand.key:
        target = pool.by_key(cand.key) or key_target(cand.key, pool.memories(), who)
        if target is not None and cand.slot and \
                mentions(target["content"], cand.query or cand.content, who) < MENTION_MIN:
            return Decision("nothing", "said a value no longer holds that is remembered "
                            "differently", category=target["category"],
                            memory_id=target["id"])
    if target is None and cand.query:
        # "I don't drink coffee anymore": coffee, not any drink ("drinks rooibos").
        query = cand.query.split(None, 1)[-1] \
            if (cand.key or "").startswith("fact:does:") else cand.query
        target = value_target([query], pool.memories(), who)
        if target is None and (core := _core(query)) != query:
            target = value_target([core], pool.memories(), who)
    if target is None and cand.source and single_slot(cand.source):
        # "I don't have a car anymore" after "I drive a Prius": the attribute by its
        # words, when it holds one value (a drink ended names the one it means).
        target = slot_target(cand.source, "", False, pool.memories(), who)
    if target is None and cand.source and not cand.slot:
        # "I'm not drinking anymore" after "I have a glass of red wine with dinner": the
        # thing ended in other words than the memory's, by meaning; not an attribute of
        # one value the rules name and no memory holds ("I no longer work at the bakery"
        # with no employer stored is not about volunteering at the food bank).
        target = ended_memory(cand.source, pool, who)
    if target is not None:
        return Decision("retire", "the user said it no longer holds",
                        category=target["category"], memory_id=target["id"])
    clause = _clause_with(cand.source, cand.query)
    if clause is None:
        return Decision("nothing", "said something no longer holds that is not remembered",
                        category=cand.category)
    return Decision("add", "said something no longer holds that is not remembered",
                    category=cand.category, content=narrate(clause, who), context=context,
                    intention=goal)


#: What stands between "not" and "anymore" besides the thing ended: hedges ("really",
#: "much", "that often") and a reason ("because of my shoulder", "what with the baby").
_HEDGE = re.compile(r"\b(?:really|much|that\s+much|so\s+much|as\s+much|very|that\s+often|"
                    r"often|a\s+lot|all\s+that|actually|even|properly|regularly|honestly)\b",
                    re.I)
_REASON = re.compile(r"\s+(?:because|cause|cos|due\s+to|now\s+that|what\s+with|thanks\s+to|"
                     r"given)\b.*$", re.I)


def _core(query: str) -> str:
    """The thing a statement says ended, without hedges or a reason between "not" and
    "anymore" ("really do the CrossFit thing much because of my shoulder" -> "do
    CrossFit"): the words a memory of it shares."""
    core = _HEDGE.sub(" ", _REASON.sub("", query))
    core = re.sub(r"\bthe\s+([\w-]+)\s+thing\b", r"\1", core, flags=re.I)
    return " ".join(core.split()).strip(" ,;") or query


def _clause_with(sentence: str, words: str | None) -> str | None:
    """The clause of ``sentence`` that holds ``words``: "I am not drinking coffee anymore"
    out of "I am not drinking coffee anymore, it is green tea for me these days" (the other
    clause is read on its own)."""
    if not sentence or not words:
        return None
    for part in _CLAUSE_END.split(sentence):
        if words.lower() in part.lower():
            return part.strip(" .!")
    return None
