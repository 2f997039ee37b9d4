"""Agent ops: the subconscious (``observe``) and conscious access (``tools``, ``tools_call``).

Everything here works on a triformer (over its bonded memories, ``agents/bonds.py``) or on
a memory element directly (over itself). ``observe`` runs the subconscious pipeline
(``agents/subconscious.py``) once per bonded memory and records every decision in that
memory's activity (kinds, ids and categories only: never what a memory says, so a
subject's memories do not leak into the activity feed). See ``docs/agents.md``.
"""

from __future__ import annotations

import dataclasses
import threading
from collections import Counter
from typing import Any

from index import MemorySettings, validate_subject

from ..agents.bonds import NoMemoryBonded, bonded_memories
from ..agents.observed import TurnLedger
from ..agents.subconscious import RuleEvaluator, evaluator_from, observe, parse_observation
from ..agents.tools import agent_tools, call_agent_tool, tool_access
from .op import AGENTS, Activity, OpCall, OpResult, OpTable
from .schemas import OBJECT, STRING, SUBJECT, TEXT, array, nullable, obj

__all__ = ["ops"]

ops = OpTable()

_observe_locks: dict[str, threading.Lock] = {}
_observe_guard = threading.Lock()


def _observe_lock(memory_id: str) -> threading.Lock:
    """One observe at a time per memory, so two cannot both add the same new memory."""
    with _observe_guard:
        return _observe_locks.setdefault(memory_id, threading.Lock())


_TURN = obj({"role": {"type": "string", "enum": ["user", "assistant"]}, "content": STRING,
             "name": nullable(TEXT),
             "id": nullable({**TEXT, "description": "the client's id of the turn: a re-sent "
                                                     "turn with the same id changes nothing"})},
            ["role", "content"])


@ops.op("observe", "POST", "observe", "write", types=AGENTS,
        summary="The subconscious: observe conversation turns",
        request=obj({"turns": array(_TURN, minItems=1), **SUBJECT,
                     "agent": nullable(STRING),
                     "conversation_id": nullable({**TEXT, "description": "scopes turn "
                                                  "identities to one conversation"}),
                     "session_date": nullable({**STRING, "description": "when the "
                                               "conversation took place (ISO-8601); dates "
                                               "in turns are taken relative to it"}),
                     "subject_name": nullable({**TEXT, "description": "the subject's name, "
                                               "for memories in the third person"})},
                    ["turns"]),
        body_required=True,
        response=obj({"decisions": array(OBJECT),
                      "evaluator": {"type": "string", "enum": ["rules", "llm"]},
                      "memories": array(STRING), "fallback": STRING,
                      "skipped": array(OBJECT), "unresolved": array(STRING)},
                     ["decisions", "evaluator", "memories"]),
        description="The evaluator (rules, or the triformer's LLM) decides add, update, "
                    "forget or nothing for each bonded memory; every decision is recorded "
                    "in activity. A turn observed before changes nothing (docs/agents.md, "
                    "idempotency).")
def observe_op(call: OpCall) -> OpResult:
    observation = parse_observation(call.body)
    element = call.element
    memories, unresolved = bonded_memories(call.home, element, call.env)
    via = element.path if element.element_type == "triformer" else None
    if via is not None:
        if not memories:
            raise NoMemoryBonded(element.path, unresolved)
        props = call.home.properties_for(element, call.env)
        evaluator, problem = evaluator_from(props.get("evaluator"), call.home.secrets)
        if observation.agent is None:
            observation = dataclasses.replace(observation, agent=element.path)
    else:
        evaluator, problem = RuleEvaluator(), None
    decisions: list[dict[str, Any]] = []
    skipped: list[dict[str, str]] = []
    used: set[str] = set()
    fallbacks: list[str] = []
    counts: Counter[str] = Counter()
    events: list[Activity] = []
    for memory in memories:
        if memory.state != "ready":
            skipped.append({"memory": memory.path, "state": memory.state})
            continue
        if via is not None:
            call.nested.admit(memory, call.op)
        settings = MemorySettings.from_properties(call.home.properties_for(memory, call.env))
        with _observe_lock(memory.id), call.home.memory_store(memory) as store:
            outcome = observe(store, settings, observation, evaluator,
                              fallback_reason=problem,
                              ledger=TurnLedger(call.home.catalog, memory.id))
        used.add(outcome.evaluator)
        tag = {"agent": via} if via else {}
        if outcome.fallback:
            fallbacks.append(outcome.fallback)
            events.append(Activity({"decision": "fallback", "evaluator": evaluator.name,
                                    "reason": outcome.fallback, **tag}, memory))
        for decision in outcome.decisions:
            counts[decision.action] += 1
            detail: dict[str, Any] = {"decision": decision.action,
                                      "memory_id": decision.memory_id,
                                      "category": decision.category,
                                      "evaluator": outcome.evaluator, **tag}
            if decision.evicted:
                detail["evicted"] = decision.evicted
            events.append(Activity(detail, memory))
            shown = decision.public()
            if via is not None:
                shown["memory"] = memory.path
            decisions.append(shown)
    answer: dict[str, Any] = {"decisions": decisions,
                              "evaluator": "llm" if used == {"llm"} else "rules",
                              "memories": [m.path for m in memories if m.state == "ready"]}
    if fallbacks:
        answer["fallback"] = fallbacks[0]
    if skipped:
        answer["skipped"] = skipped
    if unresolved:
        answer["unresolved"] = unresolved
    if via is not None:
        events.append(Activity({"memories": answer["memories"], "decisions": dict(counts),
                                "evaluator": answer["evaluator"],
                                **({"fallback": True} if fallbacks else {})}))
    return OpResult(answer, activity=events)


@ops.op("tools", "GET", "tools", "read", types=AGENTS,
        summary="Conscious memory tools (MCP tools/list)",
        response=obj({"tools": array(OBJECT), "memories": array(OBJECT),
                      "unresolved": array(STRING)}, ["tools", "memories"]))
def tools_op(call: OpCall) -> OpResult:
    memories, unresolved = bonded_memories(call.home, call.element, call.env)
    listed = [{"path": m.path, "state": m.state,
               "conscious_access": tool_access(call.home, m, call.env)} for m in memories]
    answer: dict[str, Any] = {"tools": agent_tools(call.home, call.element, call.env),
                              "memories": listed}
    if unresolved:
        answer["unresolved"] = unresolved
    return OpResult(answer)


@ops.op("tools_call", "POST", "tools/call", "read", types=AGENTS,
        summary="Call one conscious memory tool (writes need Write)",
        request=obj({"name": STRING, "arguments": nullable(OBJECT), **SUBJECT}, ["name"]),
        body_required=True,
        response=obj({"tool": STRING, "result": OBJECT}, ["tool", "result"]),
        description="The body's subject is the conversation's, fixed for the call: the "
                    "tool reads and writes only general memories and that subject's.")
def tools_call_op(call: OpCall) -> OpResult:
    body = call.body
    subject = validate_subject(body.get("subject_type"), body.get("subject_id"))
    result = call_agent_tool(call.home, call.element, body["name"], body.get("arguments"),
                             env=call.env, principal=call.principal, subject=subject,
                             invoke=call.nested.invoke)
    return OpResult({"tool": body["name"], "result": result})
