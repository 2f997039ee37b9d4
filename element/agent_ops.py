"""Agent ops: the subconscious (``observe``) and conscious access (the memory tools).

A triformer bonds memory elements through ``properties.subconscious.memory.element`` (one
ref or a list; ``graph.reference_refs``), resolved in its own circle. Everything here works
on a triformer (over its bonded memories) or on a memory element directly (over itself).

``observe`` runs the subconscious pipeline (``subconscious.py``) once per bonded memory and
records every decision in that memory's activity (kinds, ids and categories only: never
what a memory says, so a subject's memories do not leak into the activity feed).

Conscious access: a memory's ``conscious_access`` decides its tools (``platform_ops``'s
``memory_tools``: none / read / read_write). :func:`call_tool` runs one tool through the
memory op it maps to (``TOOL_OPS``), with ``source="conscious"`` for writes, so a tool call
is exactly an op call; the ``tools`` and ``tools_call`` ops and the MCP server
(``api/mcp_server.py``) all go through it. See ``docs/agents.md``.
"""

from __future__ import annotations

import copy
import dataclasses
import threading
from collections import Counter
from typing import Any, Callable, Mapping

from index import MemorySettings
from index.errors import MemoryNotFound
from index.records import validate_subject

from .access import Principal, authorize
from .catalog import Element
from .errors import ElementDisabled, ElementError, ElementNotFound, InvalidRequest
from .graph import RefError, parse_ref, reference_refs
from .memory_ops import known_fields
from .modifiers import PolicyDenied, attachments_of, enforce_modifiers, policy_verdict
from .ops import REGISTRY, OpCall, OpResult, implements
from .platform_ops import MEMORY_TOOLS, TOOL_OPS, memory_tools
from .subconscious import RuleEvaluator, evaluator_from, observe, parse_observation

__all__ = ["ToolForbidden", "UnknownTool", "ToolSubjectMismatch", "NoMemoryBonded",
           "set_secret_source", "bonded_memories", "agent_tools", "call_tool",
           "call_agent_tool", "MEMORY_ARGUMENT"]

#: The extra tool argument that picks one memory when an agent bonds several.
MEMORY_ARGUMENT = "memory"


class ToolForbidden(ElementError):
    """The memory's ``conscious_access`` does not give the agent this tool."""

    code = "MEMORY_TOOL_FORBIDDEN"
    error_class = "forbidden"

    def __init__(self, tool: str, where: str, access: str) -> None:
        super().__init__(f"tool {tool!r} is not allowed on {where}: conscious_access is "
                         f"{access!r} (read gives memory_search and memory_recall; "
                         "read_write adds memory_store, memory_update and memory_delete)")
        self.tool = tool


class UnknownTool(ElementError):
    """No memory tool has this name."""

    code = "MEMORY_TOOL_UNKNOWN"
    error_class = "not_found"

    def __init__(self, tool: Any) -> None:
        super().__init__(f"there is no memory tool {tool!r} (tools: "
                         f"{', '.join(TOOL_OPS)})")
        self.tool = tool


class ToolSubjectMismatch(ElementError):
    """A tool call names another subject than the conversation's, which the caller fixed."""

    code = "MEMORY_TOOL_SUBJECT"
    error_class = "forbidden"

    def __init__(self) -> None:
        super().__init__("this conversation's subject is fixed by the caller; a tool call "
                         "may not name another subject")


class NoMemoryBonded(ElementError):
    """The triformer bonds no usable memory element."""

    code = "AGENT_NO_MEMORY"
    error_class = "conflict"

    def __init__(self, path: str, unresolved: list[str]) -> None:
        extra = f" (unresolved: {', '.join(map(repr, unresolved))})" if unresolved else ""
        super().__init__(f"triformer {path!r} bonds no memory element of its circle in "
                         f"properties.subconscious.memory.element{extra}")
        self.unresolved = unresolved


# -- secrets -------------------------------------------------------------------------------
# Only the API layer reads the environment: it installs the source of secrets here (the LLM
# evaluator's api_key_env). Until it does, no key is found and the evaluator sends none.
_secret_source: Callable[[str], str | None] = lambda name: None


def set_secret_source(source: Callable[[str], str | None]) -> None:
    """Install how evaluator API keys are looked up by variable name (the API layer's)."""
    global _secret_source
    _secret_source = source


def _secret(name: str) -> str | None:
    return _secret_source(name)


# -- bonds ---------------------------------------------------------------------------------
def bonded_memories(home: Any, element: Element, env: str) -> tuple[list[Element], list[str]]:
    """The memory elements ``element`` bonds, in bond order, and the refs that name none.

    A memory element bonds itself. A triformer's bonds come from the governing
    environment's spec; a ref to another circle, to nothing or to a non-memory element is
    unresolved. A version pin (``@vN``) does not matter here: memories are runtime data.
    """
    if element.element_type == "memory":
        return [element], []
    props = home.properties_for(element, env)
    found: list[Element] = []
    unresolved: list[str] = []
    for raw in reference_refs(dataclasses.replace(element, properties=props)):
        try:
            ref = parse_ref(raw, element.circle)
            if ref.circle != element.circle:
                raise ElementNotFound(ref.path)
            memory = home.catalog.element_at(ref.path)
        except (RefError, ElementNotFound):
            unresolved.append(raw)
            continue
        if memory.element_type != "memory":
            unresolved.append(raw)
        elif all(m.id != memory.id for m in found):
            found.append(memory)
    return found, unresolved


def _access(home: Any, memory: Element, env: str) -> str:
    return str(home.properties_for(memory, env).get("conscious_access", "none"))


def _allowed(access: str) -> set[str]:
    return {tool["name"] for tool in memory_tools(access)}


# -- observe -------------------------------------------------------------------------------
_observe_locks: dict[str, threading.Lock] = {}
_observe_guard = threading.Lock()


def _observe_lock(memory_id: str) -> threading.Lock:
    """One observe at a time per memory, so two cannot both add the same new memory."""
    with _observe_guard:
        return _observe_locks.setdefault(memory_id, threading.Lock())


def _policies(home: Any, principal: Principal, element: Element, op: Any) -> None:
    """The auth-policies of ``element`` for ``op``, without counting a rate-limit hit."""
    for a in sorted(attachments_of(home.catalog, element), key=lambda a: a.priority):
        if a.is_modifier and a.source.state == "ready" and \
                a.source.element_type == "auth-policy":
            reason = policy_verdict(a.properties(home.catalog), principal, op.level, op.name)
            if reason:
                raise PolicyDenied(a.source.path, reason)


def _label(call: OpCall) -> str | None:
    return call.principal.label if call.principal else None


@implements("observe")
def observe_op(call: OpCall) -> OpResult:
    """``POST ops/observe {turns, subject_type?, subject_id?, agent?, conversation_id?,
    session_date?, subject_name?}``: the subconscious."""
    observation = parse_observation(known_fields(call.body, {
        "turns", "subject_type", "subject_id", "agent", "conversation_id", "session_date",
        "subject_name"}))
    element = call.element
    memories, unresolved = bonded_memories(call.home, element, call.env)
    via = element.path if element.element_type == "triformer" else None
    if via is not None:
        if not memories:
            raise NoMemoryBonded(element.path, unresolved)
        props = call.home.properties_for(element, call.env)
        evaluator, problem = evaluator_from(props.get("evaluator"), _secret)
        if observation.agent is None:
            observation = dataclasses.replace(observation, agent=element.path)
    else:
        evaluator, problem = RuleEvaluator(), None
    decisions: list[dict[str, Any]] = []
    skipped: list[dict[str, str]] = []
    used: set[str] = set()
    fallbacks: list[str] = []
    counts: Counter[str] = Counter()
    for memory in memories:
        if memory.state != "ready":
            skipped.append({"memory": memory.path, "state": memory.state})
            continue
        if via is not None and call.principal is not None:
            authorize(call.principal, memory, "write")
            enforce_modifiers(call.home, call.principal, memory, REGISTRY.ops["observe"])
        settings = MemorySettings.from_properties(call.home.properties_for(memory, call.env))
        with _observe_lock(memory.id):
            outcome = observe(call.home.memory_store(memory), settings, observation,
                              evaluator, fallback_reason=problem)
        used.add(outcome.evaluator)
        tag = {"agent": via} if via else {}
        if outcome.fallback:
            fallbacks.append(outcome.fallback)
            call.home.catalog.record_activity(memory, "observe", _label(call), {
                "decision": "fallback", "evaluator": evaluator.name,
                "reason": outcome.fallback, **tag})
        for decision in outcome.decisions:
            counts[decision.action] += 1
            detail: dict[str, Any] = {"decision": decision.action,
                                      "memory_id": decision.memory_id,
                                      "category": decision.category,
                                      "evaluator": outcome.evaluator, **tag}
            if decision.evicted:
                detail["evicted"] = decision.evicted
            call.home.catalog.record_activity(memory, "observe", _label(call), detail)
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
        call.home.catalog.record_activity(element, "observe", _label(call), {
            "memories": answer["memories"], "decisions": dict(counts),
            "evaluator": answer["evaluator"], **({"fallback": True} if fallbacks else {})})
    return OpResult(answer)


# -- conscious tools -------------------------------------------------------------------------
def agent_tools(home: Any, element: Element, env: str) -> list[dict[str, Any]]:
    """MCP ``tools/list`` entries for an agent (a triformer or a memory).

    One bonded memory: its tools, per its ``conscious_access``. Several: each tool any of
    them allows, with an optional ``memory`` argument naming which (an enum of the memories
    that allow it).
    """
    memories = [m for m in bonded_memories(home, element, env)[0] if m.state == "ready"]
    if len(memories) == 1:
        return memory_tools(_access(home, memories[0], env))
    allowed = [(m, _allowed(_access(home, m, env))) for m in memories]
    tools = []
    for tool in MEMORY_TOOLS:
        paths = [m.path for m, names in allowed if tool["name"] in names]
        if paths:
            entry = copy.deepcopy(tool)
            entry["inputSchema"]["properties"][MEMORY_ARGUMENT] = {
                "type": "string", "enum": paths,
                "description": "Which memory (default: every one for a search, the first "
                               "for a store, the one holding memory_id otherwise)"}
            tools.append(entry)
    return tools


def _check_arguments(name: str, arguments: Any) -> dict[str, Any]:
    if arguments is None:
        arguments = {}
    if not isinstance(arguments, dict):
        raise InvalidRequest("arguments", "must be an object")
    schema = next(t["inputSchema"] for t in MEMORY_TOOLS if t["name"] == name)
    for key in arguments:
        if key not in schema["properties"]:
            raise InvalidRequest(f"arguments.{key}", f"is not an argument of {name} "
                                 f"({', '.join(sorted(schema['properties']))})")
    for key in schema["required"]:
        if arguments.get(key) is None:
            raise InvalidRequest(f"arguments.{key}", "is required")
    if "memory_id" in arguments and not isinstance(arguments["memory_id"], str):
        raise InvalidRequest("arguments.memory_id", "must be a string")
    return dict(arguments)


def _subject_of(arguments: Mapping[str, Any]) -> tuple[str, str] | None:
    return validate_subject(arguments.get("subject_type"), arguments.get("subject_id"))


def call_tool(home: Any, memory: Element, name: Any, arguments: Any, *, env: str = "draft",
              principal: Principal | None = None, subject: tuple[str, str] | None = None,
              agent: str | None = None, actor: str = "operator",
              policies_only: bool = False) -> dict[str, Any]:
    """Run one conscious tool on one memory element; returns the op's answer.

    :param principal: the caller; None acts with the operator's authority (the MCP server
        on its own home), recorded in activity as ``actor``. A principal must hold the level
        of the op the tool maps to (a viewer may search, not store) and pass the memory's
        auth-policies and rate-limits (only its policies with ``policies_only``: the HTTP
        op has counted the rate-limit hit already).
    :param subject: the conversation's subject, fixed by the caller. Reads default to it
        and may not name another; writes are about it unless they name it explicitly; with
        subject scoping on, update and delete reach only general memories and its own.
        None: the arguments' subject, if any, is used as given.
    :raise UnknownTool: ``name`` is no memory tool.
    :raise ToolForbidden: ``conscious_access`` does not give this tool.
    :raise ToolSubjectMismatch: the arguments name a subject other than ``subject``.
    :raise InvalidRequest: an unknown or missing argument; the op's own errors otherwise.
    """
    if not isinstance(name, str) or name not in TOOL_OPS:
        raise UnknownTool(name)
    access = _access(home, memory, env)
    if name not in _allowed(access):
        raise ToolForbidden(name, memory.path, access)
    if memory.state != "ready":
        raise ElementDisabled(memory.path, memory.state)
    op = REGISTRY.ops[TOOL_OPS[name]]
    if principal is not None:
        authorize(principal, memory, op.level)
        if policies_only:
            _policies(home, principal, memory, op)
        else:
            enforce_modifiers(home, principal, memory, op)
    if isinstance(arguments, dict):
        arguments = {k: v for k, v in arguments.items() if k != MEMORY_ARGUMENT}
    args = _check_arguments(name, arguments)
    given = _subject_of(args)
    if subject is not None:
        if given is not None and given != subject:
            raise ToolSubjectMismatch()
        args["subject_type"], args["subject_id"] = subject
    params: dict[str, str] = {}
    if name in ("memory_update", "memory_delete"):
        params["memory_id"] = args.pop("memory_id")
        settings = MemorySettings.from_properties(home.properties_for(memory, env))
        if subject is not None and settings.subject_scoping:
            # Not found rather than forbidden: the agent could never have seen it.
            found = home.memory_store(memory).get(params["memory_id"])
            owner = (found["subject_type"], found["subject_id"]) \
                if found["subject_type"] is not None else None
            if owner not in (None, subject):
                raise MemoryNotFound(params["memory_id"])
        args.pop("subject_type", None)
        args.pop("subject_id", None)
    elif name == "memory_store":
        args.update(source="conscious", agent=agent)
        args = {k: v for k, v in args.items() if v is not None}
    elif name == "memory_recall" and args.get("query") is None:
        if args.get("context") is None:
            raise InvalidRequest("arguments.query", "or arguments.context is required")
        args["query"] = args["context"]
    who = principal or Principal("operator", memory.circle, "admin", actor)
    result = op.call(OpCall(home=home, element=memory, principal=who, body=args,
                            params=params, env=env))
    return dict(result.body) if isinstance(result.body, dict) else {}


def call_agent_tool(home: Any, element: Element, name: Any, arguments: Any, *,
                    env: str = "draft", principal: Principal | None = None,
                    subject: tuple[str, str] | None = None,
                    actor: str = "operator") -> dict[str, Any]:
    """Run one tool for an agent (a triformer over its bonded memories, or a memory).

    With several bonded memories, the ``memory`` argument picks one; without it, a search
    or recall asks every memory that allows it and merges the results best first (each
    result names its ``element``), a store goes to the first that allows it, and an update
    or delete to the one holding ``memory_id``.

    :raise NoMemoryBonded: a triformer without a usable memory.
    :raise ToolForbidden: no bonded memory gives this tool (or the one named does not).
    """
    if not isinstance(name, str) or name not in TOOL_OPS:
        raise UnknownTool(name)
    memories, unresolved = bonded_memories(home, element, env)
    memories = [m for m in memories if m.state == "ready"]
    if not memories:
        raise NoMemoryBonded(element.path, unresolved)
    agent = element.path if element.element_type == "triformer" else None
    own = [m for m in memories if m.id == element.id]
    kw: dict[str, Any] = dict(env=env, principal=principal, subject=subject, agent=agent,
                              actor=actor)

    def run(memory: Element, args: Any, tag: bool = False) -> dict[str, Any]:
        answer = call_tool(home, memory, name, args, policies_only=bool(own), **kw)
        if not tag:
            return answer
        if "results" in answer:
            answer["results"] = [{**r, "element": memory.path} for r in answer["results"]]
        return {**answer, "element": memory.path}

    args = arguments if isinstance(arguments, dict) else {}
    if arguments is not None and not isinstance(arguments, dict):
        raise InvalidRequest("arguments", "must be an object")
    picked = args.get(MEMORY_ARGUMENT)
    if picked is not None:
        match = [m for m in memories if m.path == picked]
        if not match:
            raise InvalidRequest(f"arguments.{MEMORY_ARGUMENT}",
                                 f"must be one of {', '.join(m.path for m in memories)}")
        return run(match[0], args, tag=True)
    if len(memories) == 1:
        return run(memories[0], args)
    able = [m for m in memories if name in _allowed(_access(home, m, env))]
    if not able:
        raise ToolForbidden(name, element.path, "none on every bonded memory")
    if name in ("memory_search", "memory_recall"):
        merged: list[dict[str, Any]] = []
        fallback = None
        for memory in able:
            answer = run(memory, args, tag=True)
            merged += answer["results"]
            fallback = fallback or answer.get("fallback")
        merged.sort(key=lambda r: -r["score"])
        limit = args.get("limit")
        out: dict[str, Any] = {"results": merged[:limit if isinstance(limit, int) else 10]}
        if fallback:
            out["fallback"] = fallback
        return out
    if name == "memory_store":
        return run(able[0], args, tag=True)
    memory_id = args.get("memory_id")
    for memory in able:
        try:
            home.memory_store(memory).get(memory_id)
        except Exception:   # MemoryNotFound, or a malformed id the op will report
            continue
        return run(memory, args, tag=True)
    return run(able[0], args)       # answers the op's own MEMORY_NOT_FOUND


# -- HTTP ops ----------------------------------------------------------------------------------
def _fixed_subject(body: Mapping[str, Any]) -> tuple[str, str] | None:
    return validate_subject(body.get("subject_type"), body.get("subject_id"))


@implements("tools")
def tools_op(call: OpCall) -> OpResult:
    """``GET ops/tools``: the agent's conscious tools (MCP ``tools/list``) and its memories."""
    known_fields(dict(call.query), set())
    memories, unresolved = bonded_memories(call.home, call.element, call.env)
    listed = [{"path": m.path, "state": m.state,
               "conscious_access": _access(call.home, m, call.env)} for m in memories]
    answer: dict[str, Any] = {"tools": agent_tools(call.home, call.element, call.env),
                              "memories": listed}
    if unresolved:
        answer["unresolved"] = unresolved
    return OpResult(answer)


@implements("tools_call")
def tools_call_op(call: OpCall) -> OpResult:
    """``POST ops/tools/call {name, arguments?, subject_type?, subject_id?}``: one tool call.

    The body's subject is the conversation's, fixed for the call (see :func:`call_tool`).
    """
    body = known_fields(call.body, {"name", "arguments", "subject_type", "subject_id"})
    if not isinstance(body.get("name"), str):
        raise InvalidRequest("name", "is required: the tool's name")
    result = call_agent_tool(call.home, call.element, body["name"], body.get("arguments"),
                             env=call.env, principal=call.principal,
                             subject=_fixed_subject(body))
    return OpResult({"tool": body["name"], "result": result})
