"""The rule evaluator: the subconscious without a network (the default, and the fallback).

Keyed sentence rules (``rules.py``: facts, preferences, procedures, corrections, forgets)
and episodes (``episodes.py``: what a speaker tells about themselves) over the user's new
turns, decided against the pool.
"""

from __future__ import annotations

from collections.abc import Iterator


from .dates import iso, occurred_at
from .decisions import Decision, Pool
from .episodes import episode, is_english
from .observation import Observation
from .rules import Candidate, extract, norm

__all__ = ["RuleEvaluator"]


# -- the rule evaluator -----------------------------------------------------------------------

#: Statements one observe reads (the last ones: a later statement supersedes an earlier
#: one). Each is decided against the pool and may write; thousands in one request cost a
#: minute of CPU (issue 26). What is left out is said in a "nothing" decision.
MAX_STATEMENTS = 64


class RuleEvaluator:
    """Pattern rules over the user's turns (:func:`extract`); needs no network.

    Candidates come from user turns only, in order; of several candidates with one key the
    last wins (the earlier ones are "superseded by a later statement"). A keyed candidate
    updates the pool's memory with that key (or is a duplicate of it); an unkeyed one is
    added unless the same content is stored. A correction without a key revises the memory
    closest to what was corrected (the previous assistant turn); a "forget" without a key
    deletes the closest memory, if one is close enough (``SIMILAR_MIN``).
    """

    name = "rules"

    def __init__(self) -> None:
        # The candidates of the last observation read: the pipeline asks for the texts to
        # embed before it asks for decisions, and the rules need not run twice.
        self._read: tuple[Observation, list[Candidate], list[int]] | None = None
        self._left_out = 0

    def lane_texts(self, observation: Observation, pool: Pool) -> list[list[str]]:
        """Per write ``observation`` will likely make, the texts it embeds (content,
        context, intention), so the pipeline can embed them all in one model call. A
        candidate stored word for word, superseded or a forget writes nothing: left out."""
        found, _ = self._candidates(observation)
        last = {c.key: i for i, c in enumerate(found) if c.key}
        writes: list[list[str]] = []
        for i, cand in enumerate(found):
            if cand.kind == "forget" or cand.key and last[cand.key] != i or \
                    pool.by_content(cand.content) is not None:
                continue
            writes.append([t for t in (cand.content, observation.window(cand.turn),
                                       observation.goal(cand.turn)) if t])
        return writes

    def _candidates(self, observation: Observation) -> tuple[list[Candidate], list[int]]:
        if self._read is None or self._read[0] is not observation:
            found, skipped = self.candidates(observation)
            self._left_out = max(0, len(found) - MAX_STATEMENTS)
            self._read = (observation, found[self._left_out:], skipped)
        return self._read[1], self._read[2]

    def candidates(self, observation: Observation) -> tuple[list[Candidate], list[int]]:
        """The candidates of the fresh user turns, in order, and the turns skipped as not
        English. Each turn gives its keyed statements (``rules.extract``) and at most one
        episode of what else it tells (``episodes.episode``); a loose keyed statement
        (a preference, a possession, "my X is Y") of a turn that gives an episode is told
        in the episode instead."""
        found: list[Candidate] = []
        skipped: list[int] = []
        for i, turn in enumerate(observation.turns):
            if turn.role != "user" or not observation.is_fresh(i):
                continue
            if not is_english(turn.content):
                skipped.append(i)
                continue
            who = observation.speaker(i)
            keyed = extract(turn.content, i, who,
                            answers_question=observation.answers_question(i))
            strong = [c for c in keyed if not c.loose]
            told = episode(turn.content, who, addressee=observation.others(i),
                           consumed=[norm(c.source) for c in strong])
            if told is None:
                found.extend(keyed)
                continue
            # A turn that tells more than a loose statement ("I love all dances, but ...")
            # is one memory: split, its parts would each say less than the whole.
            found.extend(strong)
            found.append(Candidate(told.category, told.content, None, i, "episode",
                                   source=" ".join(told.sentences)))
        return found, skipped

    def evaluate(self, observation: Observation, pool: Pool) -> Iterator[Decision]:
        found, skipped = self._candidates(observation)
        for i in skipped:
            yield Decision("nothing", f"turn {i} skipped: not English (the rules read English "
                           "only)")
        if self._left_out:
            yield Decision("nothing", f"{self._left_out} earlier statements left out: one "
                           f"observe reads at most {MAX_STATEMENTS}")
        if not found:
            if not skipped:
                yield Decision("nothing", "no memory-worthy content in the turns")
            return
        last = {c.key: i for i, c in enumerate(found) if c.key}
        for i, cand in enumerate(found):
            if cand.key and last[cand.key] != i:
                yield Decision("nothing", "superseded by a later statement in the same turns",
                               category=cand.category)
                continue
            decision = self.decide(cand, observation, pool)
            if decision.action in ("add", "update"):
                when = occurred_at(cand.source, observation.session_date)
                decision.occurred_at = iso(when) if when else None
            yield decision

    def decide(self, cand: Candidate, obs: Observation, pool: Pool) -> Decision:
        context, goal = obs.window(cand.turn), obs.goal(cand.turn)
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
            return Decision("forget", "the user asked to forget it, or said it no longer "
                            "holds", category=target["category"], memory_id=target["id"])
        if cand.kind == "episode":
            same = pool.by_content(cand.content)
            if same is not None:
                return Decision("nothing", "already remembered", category=same["category"],
                                memory_id=same["id"])
            repeat = pool.repeat_of(cand.content, ignore=[obs.speaker(cand.turn)])
            if repeat is not None:
                return Decision("update", "repeats what is remembered: refreshed",
                                category=cand.category, memory_id=repeat["id"],
                                content=cand.content, context=context, intention=goal)
            return Decision("add", f"new {cand.category}: told by the speaker",
                            category=cand.category, content=cand.content, context=context,
                            intention=goal)
        existing = pool.by_key(cand.key) if cand.key else None
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
        if existing is None and cand.key is None:
            existing = pool.by_content(cand.content)
        if existing is not None and norm(existing["content"]) == norm(cand.content):
            return Decision("nothing", "already remembered", category=existing["category"],
                            memory_id=existing["id"])
        if existing is not None:
            reason = "correction: supersedes the earlier memory" if cand.kind == "correct" \
                else "supersedes the earlier memory on the same point"
            return Decision("update", reason, category=cand.category,
                            memory_id=existing["id"], content=cand.content, context=context,
                            intention=goal, key=cand.key)
        reason = "correction of something not remembered" if cand.kind == "correct" \
            else f"new {cand.category}"
        return Decision("add", reason, category=cand.category, content=cand.content,
                        context=context, intention=goal, key=cand.key)
