"""Conscious access: the memory ops an agent may call itself, as MCP-compatible tools.

A memory's ``conscious_access`` decides its tools: none (the default: memory stays wholly
subconscious), read (``memory_search``, ``memory_recall``, ``memory_history``),
read_write (also ``memory_store``, ``memory_update``, ``memory_delete``). A tool call
is exactly an op call: :func:`call_tool` maps it to its op (:data:`TOOL_OPS`) and runs
it through the op path (``element.invoke``, which the caller passes in as ``invoke``),
so the caller's role, the memory's state and modifiers, and the one error shape hold for
tools as for every other entry point (the ``tools_call`` op, the MCP server, anything later).

A conversation's subject may be fixed by the caller (the ``tools_call`` body, the MCP
server's ``--subject-*``). Then reads see only general memories and that subject's, and
writes change only those, whatever ``subject_scoping`` says (the op path enforces it:
``Invocation.subject``).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from index import StoreError

from ..catalog import Element
from ..errors import ElementError, InvalidRequest
from ..governance.access import Principal
from ..ops.memory import MEMORY_INPUT, SEARCH_INPUT, SUPERSEDES
from ..ops.op import Invocation, OpResult
from ..schema import check
from .bonds import NoMemoryBonded, bonded_memories

if TYPE_CHECKING:
    from ..home import Home

__all__ = ["MEMORY_TOOLS", "TOOL_OPS", "MEMORY_ARGUMENT", "ToolForbidden", "UnknownTool",
           "ToolSubjectMismatch", "memory_tools", "agent_tools", "call_tool",
           "call_agent_tool", "tool_access"]

#: The extra tool argument that picks one memory when an agent bonds several.
MEMORY_ARGUMENT = "memory"
Subject = tuple[str, str]
Invoke = Callable[[Invocation], OpResult]


class ToolForbidden(ElementError):
    """The memory's ``conscious_access`` does not give the agent this tool."""

    code = "MEMORY_TOOL_FORBIDDEN"
    error_class = "forbidden"

    def __init__(self, tool: str, where: str, access: str) -> None:
        super().__init__(f"tool {tool!r} is not allowed on {where}: conscious_access is "
                         f"{access!r} (read gives memory_search, memory_recall and "
                         "memory_history; read_write adds memory_store, memory_update "
                         "and memory_delete)")
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


def _plain(schema: dict[str, Any]) -> dict[str, Any]:
    """A field schema as a tool shows it: a tool never needs to send null."""
    for alternative in schema.get("anyOf", []):
        if alternative.get("type") != "null":
            return dict(alternative)
    return dict(schema)


def _tool_input(fields: dict[str, Any], required: list[str], **extra: Any) -> dict[str, Any]:
    return {"type": "object", "properties": {k: _plain(v) for k, v in fields.items()},
            "required": required, "additionalProperties": False, **extra}


_SUBJECT = {k: MEMORY_INPUT[k] for k in ("subject_type", "subject_id")}
_READ = {k: SEARCH_INPUT[k] for k in ("limit", "categories", "as_of")}
_MEMORY_ID = {"memory_id": {"type": "string", "description": "Id of the memory"}}

#: MCP ``tools/list`` entries for a memory, per design.md section 7. Their fields are the
#: ops' own (``ops/memory.py``), so a tool and its op cannot drift apart.
MEMORY_TOOLS: list[dict[str, Any]] = [
    {"name": "memory_search",
     "description": "Search long-term memory by meaning: the memories closest to a query.",
     "inputSchema": _tool_input({"query": SEARCH_INPUT["query"], **_SUBJECT, **_READ},
                                ["query"])},
    {"name": "memory_recall",
     "description": "Recall memories by situation: blends the query with the current "
                    "conversation window (context) and the current goal (intention). "
                    "Without a query, the context is the query.",
     "inputSchema": _tool_input({k: SEARCH_INPUT[k] for k in ("query", "context",
                                                              "intention")}
                                | _SUBJECT | _READ, [],
                                anyOf=[{"required": ["query"]}, {"required": ["context"]}])},
    {"name": "memory_store",
     "description": "Store a durable memory: a fact, preference, procedure, context or "
                    "correction, with the situation and goal it was formed in.",
     "inputSchema": _tool_input({**{k: v for k, v in MEMORY_INPUT.items() if k != "agent"},
                                 "supersedes": SUPERSEDES}, ["content", "category"])},
    {"name": "memory_update",
     "description": "Replace a memory's content (it is re-embedded); other fields are kept "
                    "unless given.",
     "inputSchema": _tool_input({**_MEMORY_ID, **{k: MEMORY_INPUT[k] for k in (
         "content", "category", "context", "intention", "metadata")}}, ["memory_id"])},
    {"name": "memory_delete", "description": "Delete one memory permanently.",
     "inputSchema": _tool_input(dict(_MEMORY_ID), ["memory_id"])},
    {"name": "memory_history",
     "description": "Every version of one memory, oldest first: what it said, from when "
                    "until when it held, and what changed it (an update, a newer memory "
                    "that superseded it, a retire) and why.",
     "inputSchema": _tool_input(dict(_MEMORY_ID), ["memory_id"])},
]
#: Which element op serves each tool.
TOOL_OPS = {"memory_search": "search", "memory_recall": "search", "memory_store": "store",
            "memory_update": "update", "memory_delete": "delete",
            "memory_history": "history"}
_ACCESS: dict[str, tuple[str, ...]] = {
    "none": (), "read": ("memory_search", "memory_recall", "memory_history"),
    "read_write": tuple(TOOL_OPS)}


def memory_tools(conscious_access: str) -> list[dict[str, Any]]:
    """The tools a memory's ``conscious_access`` exposes (none: no tools)."""
    allowed = _ACCESS.get(conscious_access, ())
    return [tool for tool in MEMORY_TOOLS if tool["name"] in allowed]


def tool_access(home: Home, memory: Element, env: str) -> str:
    """A memory's ``conscious_access`` in ``env``."""
    return str(home.properties_for(memory, env).get("conscious_access", "none"))


def _allowed(access: str) -> set[str]:
    return set(_ACCESS.get(access, ()))


def agent_tools(home: Home, element: Element, env: str) -> list[dict[str, Any]]:
    """MCP ``tools/list`` entries for an agent (a triformer or a memory).

    One bonded memory: its tools, per its ``conscious_access``. Several: each tool any of
    them allows, with an optional ``memory`` argument naming which (an enum of the memories
    that allow it).
    """
    memories = [m for m in bonded_memories(home, element, env)[0] if m.state == "ready"]
    if len(memories) == 1:
        return memory_tools(tool_access(home, memories[0], env))
    allowed = [(m, _allowed(tool_access(home, m, env))) for m in memories]
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


def _arguments(name: str, arguments: Any) -> dict[str, Any]:
    """The call's arguments, checked against the tool's input schema (shape only; the op
    checks meaning)."""
    if arguments is None:
        arguments = {}
    if not isinstance(arguments, dict):
        raise InvalidRequest("arguments", "must be an object")
    arguments = {k: v for k, v in arguments.items() if k != MEMORY_ARGUMENT}
    schema = next(t["inputSchema"] for t in MEMORY_TOOLS if t["name"] == name)
    problem = check(arguments, schema, "arguments")
    if problem:
        raise InvalidRequest(*problem)
    return dict(arguments)


def call_tool(home: Home, memory: Element, name: Any, arguments: Any, *, env: str,
              principal: Principal, invoke: Invoke, subject: Subject | None = None,
              agent: str | None = None, count_rate: bool = True) -> dict[str, Any]:
    """Run one conscious tool on one memory element; returns the op's answer.

    :param invoke: the op path the tool's op runs through (``OpCall.nested.invoke``).
    :param principal: the caller; it must hold the level of the op the tool maps to (a
        viewer may search, not store) and pass the memory's modifiers.
    :param subject: the conversation's subject, fixed by the caller (module docstring).
        Reads default to it and may not name another; writes are about it.
    :param count_rate: False when the outer op was on this same memory and took its
        rate-limit hit already.
    :raise UnknownTool: ``name`` is no memory tool.
    :raise ToolForbidden: ``conscious_access`` does not give this tool.
    :raise ToolSubjectMismatch: the arguments name a subject other than ``subject``.
    :raise InvalidRequest: an unknown or missing argument; the op's own errors otherwise.
    """
    if not isinstance(name, str) or name not in TOOL_OPS:
        raise UnknownTool(name)
    access = tool_access(home, memory, env)
    if name not in _allowed(access):
        raise ToolForbidden(name, memory.path, access)
    args = _arguments(name, arguments)
    given = (args.get("subject_type"), args.get("subject_id"))
    if subject is not None:
        if given != (None, None) and given != subject:
            raise ToolSubjectMismatch()
        args["subject_type"], args["subject_id"] = subject
    params: dict[str, str] = {}
    if name in ("memory_update", "memory_delete", "memory_history"):
        params["memory_id"] = args.pop("memory_id")
        args.pop("subject_type", None)
        args.pop("subject_id", None)
    elif name == "memory_store":
        args.update(source="conscious", agent=agent)
        args = {k: v for k, v in args.items() if v is not None}
    elif name == "memory_recall" and args.get("query") is None:
        if args.get("context") is None:
            raise InvalidRequest("arguments.query", "or arguments.context is required")
        args["query"] = args["context"]
    result = invoke(Invocation(memory.path, op=TOOL_OPS[name], principal=principal,
                               body=args, params=params, env=env, subject=subject,
                               count_rate=count_rate))
    return dict(result.body) if isinstance(result.body, dict) else {}


def call_agent_tool(home: Home, element: Element, name: Any, arguments: Any, *, env: str,
                    principal: Principal, invoke: Invoke,
                    subject: Subject | None = None) -> dict[str, Any]:
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

    def run(memory: Element, args: Any, tag: bool = False) -> dict[str, Any]:
        answer = call_tool(home, memory, name, args, env=env, principal=principal,
                           invoke=invoke, subject=subject, agent=agent,
                           count_rate=memory.id != element.id)
        if not tag:
            return answer
        if "results" in answer:
            answer["results"] = [{**r, "element": memory.path} for r in answer["results"]]
        return {**answer, "element": memory.path}

    if arguments is not None and not isinstance(arguments, dict):
        raise InvalidRequest("arguments", "must be an object")
    args = arguments or {}
    picked = args.get(MEMORY_ARGUMENT)
    if picked is not None:
        match = [m for m in memories if m.path == picked]
        if not match:
            raise InvalidRequest(f"arguments.{MEMORY_ARGUMENT}",
                                 f"must be one of {', '.join(m.path for m in memories)}")
        return run(match[0], args, tag=True)
    if len(memories) == 1:
        return run(memories[0], args)
    able = [m for m in memories if name in _allowed(tool_access(home, m, env))]
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
        if not isinstance(memory_id, str):
            break
        try:
            with home.memory_store(memory) as store:
                store.get(memory_id)
        except StoreError:   # MemoryNotFound, or a malformed id the op will report
            continue
        return run(memory, args, tag=True)
    return run(able[0], args)       # answers the op's own MEMORY_NOT_FOUND

