"""What the rule evaluator does with one candidate statement against the pool: add it,
supersede or update the memory it changes, retire one, forget one, or nothing (a repeat).

A keyed statement replaces the memory of its attribute (:func:`keyed_target`), else the
one its change finds by meaning; an episode refreshes what it repeats, supersedes what it
changes, or replaces the value a present state gives anew (``present.py``, ``role.py``,
``begun.py``, ``theirs.py``); an episode that tells the thing a memory holds as over
retires it (``bygone.py``). Kept apart from ``rule_evaluator.py``, which reads the turns
into candidates: finding what is said and deciding what it does are two steps.
"""

from __future__ import annotations

import re
from typing import Any

from .result_target import begun_target
from .cues import scheduled
from .linked import linked_target
from .bygone import episode_ending
from .present import present_target
from .decisions import Decision, Pool
from .observation import Observation
from .restated import as_attribute, replacing
from .role import role_target
from .theirs import theirs_target
from .retire import retire_decision
from .stale import change_target
from .stays import stay_beside
from .passing import passing
from .lasted import no_age
from .rules import Candidate, norm
from .named import may_end, predates
from .meaning import by_meaning
from .profile import same_value
from .updates import key_target, signals, single_valued

__all__ = ["decide", "keyed_target", "same_turn"]


def _described(cand: Candidate) -> bool:
    """"My family is awesome", "my manager is on holiday now": a "my X is Y" that judges X
    or says where X is at the moment rather than naming its value ("my manager is Dev",
    "my favourite food is ramen"); judgements add up, values replace."""
    if not ((cand.key or "").startswith("fact:my:") or
            re.match(r"(?:my|our)\s", cand.source or "", re.I)):
        return False
    m = re.search(r"\b(?:is|are|was)\s+(?:now\s+)?(?P<y>[\w']+)", cand.source)
    return m is not None and m["y"].lower() in _JUDGEMENTS


#: Words that open a judgement ("... is awesome", "... is so supportive").
_JUDGEMENTS = frozenset("""
awesome amazing great cool nice good fun wonderful fantastic incredible beautiful lovely
sweet super best better bad terrible awful important everything so very really such too
pretty quite always never not kind sort just truly totally honestly supportive
on in at away off out sick ill busy asleep home back
""".split())



def same_turn(pool: Pool, context: str | None) -> list[str]:
    """The memories written from the turn being read (its window as their context): a
    present state beside them ("I retrained as a midwife, I've been on the maternity ward
    since March") is more of the same news, not a newer value."""
    return [m["id"] for m in pool.memories() if context and m.get("context") == context]



def keyed_target(cand: Candidate, pool: Pool, who: str) -> dict[str, Any] | None:
    """The pool memory of the same attribute a keyed statement updates, if any."""
    if not cand.key or cand.kind not in ("add", "correct"):
        return None
    existing = pool.by_key(cand.key) or key_target(cand.key, pool.memories(), who)
    if existing is None or norm(existing["content"]) == norm(cand.content):
        return None
    sig = signals(cand.source or cand.content)
    if (sig.addition or sig.not_now or stay_beside(cand.source or "", existing["content"])) \
            and cand.kind != "correct":
        return None     # one more, or not (or no longer) the present, or a stay (stays.py)
    if not sig.change and cand.kind != "correct" and \
            same_value(existing["content"], cand.content, who):
        return None     # the same value said again, with more about it
    if single_valued(cand.key, cand.slot) and not _described(cand) or \
            cand.key.startswith(("preference:", "procedure:", "fact:is:")) or \
            cand.kind == "correct" or sig.strong and sig.replaces:
        return existing
    return None


def _left_true(cand: Candidate, memory: dict[str, Any]) -> bool:
    """Whether what ``cand`` tells leaves ``memory`` true: dated by a year before it ("quit
    coffee back in 2015", ``named.predates``), or a span counted up to now beside an age
    ("been on the same allotment for forty years now", ``lasted.py``)."""
    said = cand.source or cand.content
    return predates(said, memory) or no_age(said, memory)


def decide(cand: Candidate, obs: Observation, pool: Pool, evaluator: type) -> Decision:
    context, goal = obs.window(cand.turn), obs.goal(cand.turn)
    who = obs.speaker(cand.turn)
    if cand.kind == "forget":
        target = pool.by_key(cand.key) if cand.key else None
        if target is not None and cand.slot and norm(target["content"]) != norm(cand.content):
            return Decision("nothing", "asked to forget a value that is remembered "
                            "differently", category=target["category"],
                            memory_id=target["id"])
        if target is None and not cand.slot:
            hits = pool.similar(cand.query or cand.content, 1)
            target = hits[0][0] if hits else None
        if target is None:
            return Decision("nothing", "asked to forget something not remembered",
                            category=cand.category)
        return Decision("forget", "the user asked to forget it",
                        category=target["category"], memory_id=target["id"])
    if cand.kind == "retire":
        return retire_decision(cand, pool, who, context, goal)
    if cand.kind == "change":
        target = (pool.holds(cand.target) if cand.target else None) or \
            begun_target(cand.source or "", pool, who, same_turn(pool, context))
        if target is not None and not _left_true(cand, target):
            return Decision("supersede", "a later statement changes what it says",
                            category=target["category"], memory_id=target["id"],
                            content=cand.content, context=context, intention=goal,
                            key=cand.key)
        return Decision("add", "new fact", category=cand.category, content=cand.content,
                        context=context, intention=goal)
    if cand.kind == "follow":
        return Decision("update", "goes on about the speaker's previous memory",
                        category=cand.category, memory_id=cand.target,
                        content=cand.content, context=context, intention=goal)
    if cand.kind == "episode":
        same = pool.by_content(cand.content)
        if same is not None:
            return Decision("nothing", "already remembered", category=same["category"],
                            memory_id=same["id"])
        repeat = pool.repeat_of(cand.content, ignore=[obs.speaker(cand.turn)])
        sig = signals(cand.source or cand.content)
        if repeat is not None and sig.replaces and \
                (sig.change or sig.ended or may_end(cand.source or cand.content)) and \
                not _left_true(cand, repeat):
            # Mostly the same words with a change ("The band broke up, so I'm not
            # playing bass these days" after "I play bass in a band"): what was true
            # before is kept for history, not overwritten; so with an ending
            # ("I let my ... membership lapse", ``named.ENDING``).
            return Decision("supersede", "a later statement changes what it says",
                            category=repeat["category"], memory_id=repeat["id"],
                            content=cand.content, context=context, intention=goal)
        # A break, a request, a thing got only for a purpose or one occasion
        # (``passing.py``) gives no held value a new one, nor ends one.
        lasting = not passing(cand.source or "")
        if repeat is None and not scheduled(cand.source or "") and lasting and \
                (held := theirs_target(cand.source or "", pool, who, (), evaluator) or
                 present_target(cand.source or "", pool, who,
                                same_turn(pool, context)) or
                 role_target(cand.source or "", pool, who, same_turn(pool, context)) or
                 begun_target(cand.source or "", pool, who, same_turn(pool, context)) or
                 linked_target(cand.source or "", pool, who, same_turn(pool, context),
                               obs.turns[cand.turn].content)) \
                is not None \
                and not _left_true(cand, held):
            # A present state of the speaker's own ("I'm a health visitor these days",
            # "Finally caved and got an iPhone"): the value held before is kept for
            # history, no longer current (``present.py``).
            return Decision("supersede", "a present state replaces the value held",
                            category=held["category"], memory_id=held["id"],
                            content=cand.content, context=context, intention=goal)
        if repeat is None and lasting and \
                (ended := episode_ending(cand, obs, pool, who)) is not None:
            return ended    # the thing a memory holds told as over (``bygone.py``)
        if repeat is not None:
            return Decision("update", "repeats what is remembered: refreshed",
                            category=cand.category, memory_id=repeat["id"],
                            content=cand.content, context=context, intention=goal)
        return Decision("add", f"new {cand.category}: told by the speaker",
                        category=cand.category, content=cand.content, context=context,
                        intention=goal)
    if cand.kind == "correct" and cand.key is None:
        query = obs.previous_assistant(cand.turn) or cand.query or cand.content
        hits = pool.similar(query, 1)
        if hits:
            old = hits[0][0]
            return Decision("update", "correction of the closest memory",
                            category="correction", memory_id=old["id"],
                            content=f"{old['content']} (corrected: {cand.content})",
                            context=context, intention=goal)
        return Decision("add", "correction of something not remembered",
                        category="correction", content=f"Correction: {cand.content}",
                        context=context, intention=goal)
    same = pool.by_content(cand.content)
    if same is not None:
        return Decision("nothing", "already remembered", category=same["category"],
                        memory_id=same["id"])
    existing = keyed_target(cand, pool, who)
    if existing is None and cand.key is not None and not _described(cand):
        sig = signals(cand.source or cand.content)
        if sig.replaces and (sig.ended or sig.change):
            existing = change_target(cand.source, cand.content, sig, pool, who, [],
                                           keyed=True)
        if existing is None and sig.replaces and cand.source and cand.kind == "add":
            # A value of an attribute no rule keys alike ("I'm seeing Dr. Okonkwo now"
            # after "my primary care doctor is Dr. Feldman"): by meaning.
            existing = by_meaning(cand.source, cand.content, sig, pool, who, [])
            if existing is not None and not sig.change and \
                    same_value(existing["content"], cand.content, who):
                existing = None     # the same value said again, with more about it
        if existing is None and cand.source and cand.kind == "add":
            # A present state naming no value ("I'm vegan these days"): ``present.py``.
            existing = theirs_target(cand.source, pool, who, (), evaluator) \
                or present_target(cand.source, pool, who, same_turn(pool, context)) \
                or role_target(cand.source, pool, who, same_turn(pool, context)) \
                or begun_target(cand.source, pool, who, same_turn(pool, context))
    if existing is not None:
        reason = "correction: supersedes the earlier memory" if cand.kind == "correct" \
            else "supersedes the earlier memory on the same point"
        key, content = replacing(cand, who, existing)
        return Decision("supersede", reason, category=cand.category,
                        memory_id=existing["id"], content=content, context=context,
                        intention=goal, key=key)
    reason = "correction of something not remembered" if cand.kind == "correct" \
        else f"new {cand.category}"
    return Decision("add", reason, category=cand.category,
                    content=as_attribute(cand, who, ""), context=context, intention=goal,
                    key=cand.key)
