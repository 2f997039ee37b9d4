"""The subconscious: evaluators that read conversation turns and decide what one memory
element should add, update, forget or leave alone, and the pipeline that applies those
decisions through the memory runtime (design.md section 7; ``docs/agents.md``).

One observation on one memory element::

    Observation(turns, subject, agent)
      -> Pool(store, settings, subject)       the memories it may revise: exactly its
                                              subject's (or, without one, the general ones)
      -> Evaluator.evaluate(observation, pool) yields Decision(add|update|supersede|retire|
                                              forget|nothing)
      -> apply(): MemoryStore.store/update/delete with source="subconscious", so caps,
         embeddings and subject scoping are those of every other write; the writes are
         embedded behind (``embed_later``): acknowledged durable without vectors, given
         them by the store's background embedder, found by text until then

Evaluators are pluggable (:class:`Evaluator`). :class:`RuleEvaluator` (pattern rules over
the user's sentences, no network) is the default and the fallback; :class:`LlmEvaluator` asks an
OpenAI-compatible chat endpoint and raises :class:`EvaluatorFailed` on any failure, before
any decision is applied, so the caller can fall back to the rules.

The parts: ``observation.py`` (the input), ``decisions.py`` (decisions and the pool),
``rule_evaluator.py``, ``llm.py``, and this module, the pipeline. Nothing here knows Flask
or the catalog; the op handler (``element/ops/agents.py``) records activity.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from index import (MAX_REASON_CHARS, CachedEmbedder, MemoryBackend, MemoryNotCurrent,
                   MemoryNotFound, MemorySettings, StoreError, StoreFailed, StoreResult)

from .decisions import (ACTIONS, WRITES, Decision, Evaluator, EvaluatorFailed, Pool,
                        observe_metadata)
from .llm import LlmConfig, LlmEvaluator, evaluator_from, json_object_in
from .observation import WINDOW_TURNS, WINDOW_WORDS, Observation, Turn, parse_observation
from .observed import Ledger, MemoryLedger
from .rule_evaluator import RuleEvaluator
from .goals import goal_of
from .rules import Candidate, extract, norm

# The subconscious's surface: its pipeline, and the names of its parts callers use.
__all__ = ["Turn", "Observation", "Decision", "Evaluator", "Pool", "RuleEvaluator",
           "Candidate", "extract", "goal_of", "norm", "LlmConfig", "LlmEvaluator",
           "EvaluatorFailed", "parse_observation", "json_object_in",
           "evaluator_from", "observe", "Outcome", "ACTIONS", "WINDOW_TURNS", "WINDOW_WORDS",
           "apply_supersede", "apply_retire", "STORED_ALONE"]


# -- the pipeline -----------------------------------------------------------------------------

@dataclass
class Outcome:
    decisions: list[Decision]
    evaluator: str
    fallback: str | None = None     # why the configured evaluator was not used


#: The warning of a supersede whose old memory was gone or ended meanwhile: the new memory
#: is stored alone, linked to nothing.
STORED_ALONE = "stored_alone"


def apply_supersede(store: MemoryBackend, settings: MemorySettings, old_id: str, *,
                    content: str, category: str, subject: dict[str, str],
                    context: str | None, intention: str | None, agent: str | None,
                    metadata: dict[str, Any], occurred_at: str | None,
                    embed_later: bool, reason: str | None = None) -> StoreResult:
    """Replace memory ``old_id`` by a new memory saying ``content``; the new one's result.

    The one place a supersede touches storage: ``store(..., supersedes=[old_id])``, one
    durable write in which the old memory gets ``valid_until`` (the new one's
    ``valid_from``) and ``superseded_by``, kept for history and ``as_of`` (issue 23). An
    old memory deleted, superseded or retired meanwhile leaves the new one stored alone.
    ``reason`` (the evaluator's) goes with the evaluator in the new memory's ``observe``
    metadata, where the old one's history reads why it was superseded.
    """
    why = (reason or "").strip()[:MAX_REASON_CHARS]
    if why and isinstance(metadata.get("observe"), dict):
        metadata = {**metadata, "observe": {**metadata["observe"], "reason": why}}
    fields: dict[str, Any] = dict(content=content, category=category, **subject,
                                  context=context, intention=intention, agent=agent,
                                  source="subconscious", metadata=metadata,
                                  occurred_at=occurred_at, settings=settings,
                                  embed_later=embed_later)
    try:
        return store.store(**fields, supersedes=[old_id])
    except (MemoryNotFound, MemoryNotCurrent):
        alone = store.store(**fields)
        return replace(alone, warnings=[*alone.warnings, STORED_ALONE])


def apply_retire(store: MemoryBackend, memory_id: str, *, reason: str | None,
                 evaluator: str | None = None, at: str | None = None) -> None:
    """Memory ``memory_id`` no longer holds (``reason`` says why) and nothing replaces it.

    The one place a retire touches storage: the memory is kept for history with
    ``valid_until`` = ``at`` (when the observation says it stopped; default now) and the
    reason, out of default recall (issue 23); one gone or ended already is left as it is.
    """
    try:
        why = (reason or "").strip()[:MAX_REASON_CHARS] or "no longer holds"
        store.retire(memory_id, reason=why, source="subconscious", evaluator=evaluator,
                     at=at)
    except (MemoryNotFound, MemoryNotCurrent):
        pass


def _apply(store: MemoryBackend, settings: MemorySettings, pool: Pool, decision: Decision,
           observation: Observation, evaluator: str, behind: bool) -> Decision:
    """Carry one decision out (source="subconscious"); a refusal becomes "nothing".

    :raise StoreFailed: the runtime could not write (the op fails; earlier decisions stay).
    """
    subject = {"subject_type": observation.subject[0], "subject_id": observation.subject[1]} \
        if observation.subject else {}
    if decision.action in WRITES and not decision.content or \
            decision.action == "add" and not decision.category or \
            decision.action in ("update", "supersede", "retire", "forget") and \
            not decision.memory_id:
        return Decision("nothing", f"{decision.action} refused: incomplete decision",
                        category=decision.category)
    try:
        if decision.action == "add":
            result = store.store(content=str(decision.content),
                                 category=str(decision.category),
                                 **subject, context=decision.context,
                                 intention=decision.intention, agent=observation.agent,
                                 source="subconscious",
                                 metadata=observe_metadata(None, evaluator, decision.key,
                                                           decision.occurred_at),
                                 occurred_at=decision.occurred_at,
                                 settings=settings, embed_later=behind)
            decision.memory_id, decision.evicted = result.memory["id"], result.evicted
            pool.drop(result.evicted)
            pool.keep(result.memory)
        elif decision.action == "update":
            memory = store.update(str(decision.memory_id), content=decision.content,
                                  category=decision.category, context=decision.context,
                                  intention=decision.intention,
                                  metadata=observe_metadata(pool.holds(decision.memory_id),
                                                     evaluator, decision.key,
                                                     decision.occurred_at),
                                  settings=settings, embed_later=behind,
                                  source="subconscious", agent=observation.agent,
                                  reason=(decision.reason or "").strip()[:MAX_REASON_CHARS]
                                  or None)
            pool.keep(memory)
        elif decision.action == "supersede":
            old = pool.holds(decision.memory_id)
            if old is None:
                return Decision("nothing", "supersede refused: the memory is gone",
                                category=decision.category, memory_id=decision.memory_id)
            result = apply_supersede(
                store, settings, old["id"], content=str(decision.content),
                category=str(decision.category or old["category"]), subject=subject,
                context=decision.context, intention=decision.intention,
                agent=observation.agent,
                metadata=observe_metadata(None, evaluator, decision.key,
                                          decision.occurred_at),
                occurred_at=decision.occurred_at, embed_later=behind,
                reason=decision.reason)
            decision.category = decision.category or old["category"]
            decision.evicted = result.evicted
            if STORED_ALONE in result.warnings:
                # Gone or ended meanwhile: the decision says what was written, an add.
                decision.action, decision.memory_id = "add", result.memory["id"]
                decision.reason = "the memory it replaced was no longer current: stored alone"
            else:
                decision.superseded_by = result.memory["id"]
            pool.drop([old["id"], *result.evicted])
            pool.keep(result.memory)
        elif decision.action == "retire":
            apply_retire(store, str(decision.memory_id), reason=decision.reason,
                         evaluator=evaluator, at=decision.occurred_at)
            pool.drop([str(decision.memory_id)])
        elif decision.action == "forget":
            # A request to forget a value is no takeback: what it superseded stays ended.
            store.delete(str(decision.memory_id), hand_on=False)
            pool.drop([str(decision.memory_id)])
    except StoreFailed:
        raise
    except StoreError as exc:
        return Decision("nothing", f"{decision.action} refused: {exc.code}",
                        category=decision.category, memory_id=decision.memory_id)
    return decision


def _prefetch(store: MemoryBackend, writes: list[list[str]]) -> None:
    """Embed the texts of an observe's writes (``writes``: each write's content, context
    and intention, "" for none) in one call (one per lane model), into the store's
    embedding cache, so each write finds its vectors there.

    Each store call embeds its own lanes, so an observe that writes several memories (a
    keyed fact and an episode, or a batch of new turns) would call the model once per
    write; one write's texts are already one call, so then nothing is done. A failure is
    left to the writes, which embed again and degrade as they always do.
    """
    embedder = getattr(store, "embedder", None)
    if len(writes) < 2 or not isinstance(embedder, CachedEmbedder):
        return
    pairs = dict.fromkeys((lane, text) for texts in writes
                          for lane, text in zip(("content", "context", "intention"), texts,
                                                strict=False) if text)
    try:
        embedder.embed_lanes([lane for lane, _ in pairs], [text for _, text in pairs])
    except Exception:   # the writes embed again and report their own failures
        pass


def _one_ending(decisions: list[Decision]) -> list[Decision]:
    """An evaluator's decisions with no retire of a memory that one of them supersedes: the
    supersede says both and links the old memory to the new (a retire applied first would
    leave the new one stored alone, no link). The rule evaluator does so per turn
    (``afterwards.one_replacement``)."""
    replaced = {d.memory_id for d in decisions if d.action == "supersede" and d.memory_id}
    return [Decision("nothing", "retired and replaced at once: the replacement says both",
                     category=d.category, memory_id=d.memory_id)
            if d.action == "retire" and d.memory_id in replaced else d for d in decisions]


def observe(store: MemoryBackend, settings: MemorySettings, observation: Observation,
            evaluator: Evaluator, *, fallback_reason: str | None = None,
            ledger: Ledger | None = None, prefetch: bool = True,
            embed_behind: bool = True) -> Outcome:
    """Evaluate ``observation`` against the store and apply each decision as it comes.

    Turns the memory observed before (``ledger``: the memory element's record in the
    catalog, ``observed.py``) are context only; when no user turn is new, nothing changes.
    The turns are recorded as observed once their decisions are applied. Without a ledger
    (a library caller with no catalog), one kept in memory for the store object.

    When ``evaluator`` raises :class:`EvaluatorFailed` (before anything is applied) the rule
    evaluator decides instead and ``Outcome.fallback`` says why; ``fallback_reason`` is a
    failure found earlier (a malformed evaluator setting), reported the same way.
    ``embed_behind`` (the default) writes without calling the model: each add or update
    is acknowledged once durable without vectors, and the store's background embedder
    embeds it shortly after (``index/behind.py``), so an observe costs the rules and a
    log fsync, not a model call; a search meanwhile finds the memory by text. Off, the
    writes embed inline, and ``prefetch`` embeds the texts of all of them in one model
    call first (off too: one call per write). ``bench/observe_bench.py`` compares them
    (``--compare-behind``, ``--compare-prefetch``).
    """
    book: Ledger = ledger if ledger is not None else MemoryLedger.of(store)
    identities = observation.identities()
    seen = book.seen(identities)
    fresh = tuple(d not in seen for d in identities)
    observation = replace(observation, fresh=fresh)
    if not any(new and t.role == "user"
               for new, t in zip(fresh, observation.turns, strict=True)):
        book.record(observation.recordable(), observation.subject)
        return Outcome([Decision("nothing", "already observed: no user turn is new")],
                       evaluator.name if fallback_reason is None else "rules",
                       fallback_reason)
    pool = Pool(store, settings, observation.subject)
    used, reason = evaluator, fallback_reason
    try:
        proposed: Iterable[Decision] = evaluator.evaluate(observation, pool)
        if not isinstance(evaluator, RuleEvaluator):
            proposed = _one_ending(list(proposed))
    except EvaluatorFailed as exc:
        used, reason = RuleEvaluator(), f"{evaluator.name}: {exc.reason}"
        proposed = used.evaluate(observation, pool)
    if prefetch and not embed_behind:
        if isinstance(used, RuleEvaluator):
            _prefetch(store, used.lane_texts(observation, pool))
        else:
            proposed = list(proposed)
            _prefetch(store, [[d.content or "", d.context or "", d.intention or ""]
                              for d in proposed if d.action in WRITES])
    applied = [_apply(store, settings, pool, d, observation, used.name, embed_behind)
               for d in proposed]
    book.record(observation.recordable(), observation.subject)
    return Outcome(applied, used.name, reason)
