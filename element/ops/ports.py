"""``schema``: an element type's port schemas and its agent tools (MCP ``tools/list``).

Ports are type-level: what an element of a type accepts and produces, not an instance's
overrides. A memory also lists the tools its ``conscious_access`` gives; a triformer, the
tools of its bonded memories.
"""

from __future__ import annotations

from typing import Any

from ..agents.tools import agent_tools, memory_tools
from ..spec.types import TYPES
from .memory import MEMORY_INPUT, SEARCH_INPUT
from .registry import OpCall, OpResult, OpTable, Schema
from .schemas import OBJECT, STRING, SUBJECT, TEXT, array, obj, ref

__all__ = ["ops", "ports_of"]

ops = OpTable()

_DEFAULT_PORTS: dict[str, dict[str, dict[str, Any]]] = {
    "memory": {
        "store": {"direction": "input", "required": False,
                  "schema": obj(MEMORY_INPUT, ["content", "category"])},
        "search": {"direction": "input", "required": False,
                   "schema": obj(SEARCH_INPUT, ["query"])},
        "memory": {"direction": "output", "required": False,
                   "schema": obj({"memory": ref("Memory")}, ["memory"])},
        "results": {"direction": "output", "required": False,
                    "schema": obj({"results": array(OBJECT)}, ["results"])}},
    "triformer": {
        "turns": {"direction": "input", "required": True, "schema": obj({
            "turns": array(obj({"role": TEXT, "content": TEXT}, ["role", "content"])),
            **SUBJECT}, ["turns"])},
        "decisions": {"direction": "output", "required": False,
                      "schema": obj({"decisions": array(OBJECT)}, ["decisions"])}},
    "prompt": {"text": {"direction": "output", "required": True, "schema": TEXT}},
}


def ports_of(type_name: str) -> list[dict[str, Any]]:
    """A type's port schemas: the registry's, else the defaults here."""
    ports = TYPES[type_name].ports or _DEFAULT_PORTS.get(type_name, {})
    return [{"name": name, "direction": p.get("direction", "input"),
             "required": bool(p.get("required", False)), "schema": p.get("schema", {})}
            for name, p in ports.items()]


_PORT: Schema = obj({"name": STRING, "direction": {"type": "string",
                                                   "enum": ["input", "output"]},
                     "required": {"type": "boolean"}, "schema": OBJECT},
                    ["name", "direction", "required", "schema"])


@ops.op("schema", "GET", "schema", "read", summary="Port schemas (MCP tools/list compatible)",
        response=obj({"element_type": STRING, "form": STRING, "category": STRING,
                      "properties_schema": OBJECT, "ports": array(_PORT),
                      "tools": array(OBJECT)},
                     ["element_type", "form", "category", "properties_schema", "ports",
                      "tools"]))
def schema(call: OpCall) -> OpResult:
    kind = TYPES[call.element.element_type]
    tools: list[dict[str, Any]] = []
    if kind.name == "memory":
        props = call.home.properties_for(call.element, call.env)
        tools = memory_tools(props.get("conscious_access", "none"))
    elif kind.name == "triformer":
        tools = agent_tools(call.home, call.element, call.env)
    return OpResult({"element_type": kind.name, "form": kind.form, "category": kind.category,
                     "properties_schema": kind.json_schema(), "ports": ports_of(kind.name),
                     "tools": tools})
