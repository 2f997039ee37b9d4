"""The new value told in the sentence after an ending, for the updates: "The Skoda got
written off in a crash. I've been driving my dad's old Volvo since." The first sentence
ends the speaker's car (``named.py``, ``endings.py``), the second gives the car its new
value without a word of change of its own ("since" points back at the crash). Read alone,
the second finds no memory (the ended one is taken) and would be kept beside an ending
that names only the old car: the reader asked "what does Theo drive?" meets the Skoda.

So a statement of the speaker's right after an ending of the same turn that leans on it
("since", "instead"), about the ended memory's attribute (by the attribute's words,
``slots.py``, else the ended memory the nearest by meaning, ``updates.nearest_attribute``),
is told with the ending as one memory replacing the old: the ending, then the new value.
A sentence that stands on its own ("We've got a cockatiel now") stays a memory of its own
(one fact per memory). Not an addition ("I've got a bike too"), not a plan or a wish
("I'll get a Volvo"), and never another person's statement ("my sister drives a Kia"); a
new thing introduced as the subject ("A Volvo estate is sat on the drive instead") is the
speaker's.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from .decisions import Decision, Pool
from .episode_words import STOP
from .episodes import tell
from .holders import UNKNOWN, holder_of
from .observation import Observation
from .rules import Candidate, clean, norm
from .slots import slot_keys
from .updates import (ADDITION, MARGIN_CLEAR, NOT_NOW, SIMILAR_MIN, SIMILAR_MIN_CLEAR, is_event,
                      key_target, nearest_attribute, signals)

__all__ = ["new_after_ending", "one_replacement"]

#: A new thing introduced as the subject, after the old one ended ("Biscuit was put to
#: sleep. A spaniel puppy called Mabel is running the house now"): the speaker's.
_INTRODUCED = re.compile(r"^(?:a|an)\s+(?!lot\b|few\b|bit\b|couple\b)", re.I)
#: A word pointing back at the ending ("I've been driving a Volvo since", "I got a
#: bike instead"): without the ending, the sentence says not since when or instead of
#: what. A sentence standing on its own ("We've got a cockatiel now") is its own memory:
#: one fact per memory.
_LEANS_BACK = re.compile(r"\b(?:since(?=\s*[.!]?\s*$)|ever\s+since\b|since\s+then\b|"
                         r"instead\b|in\s+its\s+place\b|to\s+replace\s+(?:it|him|her|them)\b|"
                         r"as\s+a\s+replacement\b|after\s+that\b)", re.I)
#: A sentence longer than this is a story, not the statement of a new value.
NEW_WORDS = 20


def new_after_ending(ending: Candidate, sentence: str, pool: Pool, who: str, turn: int,
                     observation: Observation) -> Candidate | None:
    """``ending`` (a change of this turn that ended a memory and named no new value) told
    with ``sentence``, the turn's next one, when that gives the ended memory's attribute
    its new value; else None."""
    target = pool.holds(ending.target) if ending.target else None
    holder = holder_of(sentence)
    if holder == UNKNOWN and _INTRODUCED.match(sentence):
        holder = ""     # "A spaniel puppy called Mabel is running the house now"
    if target is None or len(sentence.split()) > NEW_WORDS or holder != "" or \
            ADDITION.search(sentence) or NOT_NOW.search(sentence) or is_event(sentence):
        return None
    sig = signals(sentence)
    if sig.ended or sig.not_now or not _LEANS_BACK.search(sentence):
        return None     # another ending, or a sentence that stands on its own
    told = tell(sentence, who, observation.others(turn))
    if not told or not (slot_keys(sentence, target["content"], who) or
                        _nearest(told, target, pool, who)):
        return None
    content = f"{ending.content.rstrip(' .')}. {told}"
    return replace(ending, content=content, source=f"{ending.source} {sentence}")


def _nearest(told: str, target: dict[str, Any], pool: Pool, who: str) -> bool:
    """Whether the ended memory is, of the pool's memories nearest ``told`` (the sentence
    in the third person), the one whose attribute is nearest by meaning: ``SIMILAR_MIN``
    at least, or clearly the nearest (as ``updates.similar_target`` reads "clear")."""
    embedder = pool.embedder()
    if embedder is None:
        return False
    near = [m for m in pool.nearest(told, 10) if m["id"] != target["id"]] + [target]
    try:
        best, score, second = nearest_attribute(told, near, who, embedder.embed)
    except Exception:   # a failing model finds nothing: the sentence is told alone
        return False
    return best["id"] == target["id"] and (score >= SIMILAR_MIN or score >= SIMILAR_MIN_CLEAR
                                           and score - second >= MARGIN_CLEAR)


def one_replacement(decided: list[tuple[Candidate, Decision]], text: str, pool: Pool,
                    who: str) -> list[tuple[Candidate, Decision]]:
    """One turn's supersedes of the same memory told as one: "Dundee is behind me now, I
    relocated to Inverness" reads the ending and the new value each as a statement that
    replaces "lives in Dundee". Written apart, the second would replace an old memory the
    first already replaced, and the ending would stay current beside the new value, the
    old value's words with it. So the statements are one memory, in the order they were
    said (the ending, then the new value), keyed as the keyed one is (a later change of
    the attribute finds it), dated when the first says (when the old value stopped
    holding); the old memory is kept for history as before. ``decided`` holds the
    turn's candidates with their decisions, in order; ``text`` is the turn as read.

    So is an ending of the speaker's kept as a memory of its own ("I stopped teaching last
    summer, I'm a librarian now": the ending replaced nothing, the librarian replaced
    "teaches maths"), when what it says ended is named in the memory the turn's new value
    replaced (a word of the same stem): one memory, not an ending left current beside it;
    and so is a new value kept alone beside the ending that replaced the old one.
    """
    first: dict[str, int] = {}
    out: list[tuple[Candidate, Decision] | None] = list(decided)
    replaced: dict[str, int] = {d.memory_id: i for i, (_, d) in enumerate(decided)
                if d.action == "supersede" and d.memory_id and d.content}
    kept_alone: set[int] = set()    # the endings kept alone, now read as replacing
    # The memories an ending of the turn replaced ("I stopped teaching last summer").
    endings = {d.memory_id for c, d in decided if d.memory_id in replaced and
               signals(c.source or "").ended}
    for i, (cand, decision) in enumerate(decided):
        if decision.action == "add" and decision.content and \
                (ended := _ends(cand, replaced, pool, who, endings)) is not None:
            decision = replace(decision, action="supersede", memory_id=ended)
            out[i] = (cand, decision)
            kept_alone.add(i)
        if decision.action != "supersede" or not decision.memory_id or not decision.content:
            continue
        j = first.setdefault(decision.memory_id, i)
        kept = out[j]
        if j == i or kept is None:
            continue
        other, earlier = kept
        pair = sorted([(other, earlier), (cand, decision)],
                      key=lambda cd: _said_at(cd[0], text))
        contents = [d.content or "" for _, d in pair]
        if norm(contents[0]) in norm(contents[1]) or norm(contents[1]) in norm(contents[0]):
            content = max(contents, key=len)    # one already says the other
        else:
            content = f"{contents[0].rstrip(' .,;')}. {contents[1]}"
        # The decision written: the one keyed, else the first; never an ending kept alone
        # (its reason and key are a new fact's).
        keyed = decision if j in kept_alone or decision.key and not earlier.key and \
            i not in kept_alone else earlier
        key = decision.key if j in kept_alone else earlier.key or \
            (None if i in kept_alone else decision.key)
        when = next((d.occurred_at for _, d in pair if d.occurred_at), None)
        out[j] = (other, replace(keyed, content=content, occurred_at=when, key=key))
        kept_alone -= {i, j}
        out[i] = None
    for i in kept_alone:    # never met its new value (not expected): as decided
        out[i] = decided[i]
    # A retire of a memory the turn also replaces ("I'm not at H&M anymore, I work at IKEA
    # now"): the replacement says both, and keeps the link from the old to the new, which
    # a retire applied first would leave out (the old memory gone from what it replaces).
    return [(c, d) if d.action != "retire" or d.memory_id not in replaced else
            (c, Decision("nothing", "retired and replaced in one turn: the replacement says "
                         "both", category=d.category, memory_id=d.memory_id))
            for pair in out if pair is not None for c, d in (pair,)]


#: A word of what ended, to be looked for in the replaced memory: its stem's length.
_STEM = 5


def _ends(cand: Candidate, replaced: dict[str, int], pool: Pool, who: str,
          endings: set[str]) -> str | None:
    """The memory, of those the turn replaces, that the speaker's ending ``cand`` names
    what ended of (a word of the same stem); or, for a new value of the speaker's kept
    alone ("I'm a librarian now"), the memory an ending of the turn replaced (``endings``)
    when the new value is of its attribute (as ``new_after_ending`` reads it); else None."""
    source = cand.source or ""
    sig = signals(source)
    if not replaced or sig.holder or holder_of(source) != "":
        return None
    if not sig.ended:
        if not cand.key or ADDITION.search(source) or NOT_NOW.search(source) or \
                is_event(source) or len(source.split()) > NEW_WORDS:
            return None
        for memory_id in endings:
            old = pool.holds(memory_id)
            if old is not None and (key_target(cand.key, [old], who) is not None or
                                    slot_keys(source, old["content"], who) or
                                    _nearest(cand.content, old, pool, who)):
                return memory_id
        return None
    stems = {w[:_STEM] for e in sig.ended for w in re.findall(r"[a-z]+", e.lower())
             if len(w) >= 4 and w not in STOP}
    for memory_id in replaced:
        old = pool.holds(memory_id)
        if old is not None and stems & {w[:_STEM] for w in
                                        re.findall(r"[a-z]+", old["content"].lower())}:
            return memory_id
    return None


def _said_at(cand: Candidate, text: str) -> int:
    """Where in the turn ``cand``'s sentence was said (its first words), else the end."""
    words = " ".join(norm(cand.source or "").split()[:4])
    for said in (norm(text), norm(clean(text))):   # the source is cleaned ("I have")
        if words and (at := said.find(words)) >= 0:
            return at
    return len(text)
