"""The op registry: which ops an element type answers, at which path, with which auth level.

Every op of the reference sheet (``SHEET``) is registered at start with a handler that raises
:class:`NotImplementedOp`; the modules that build an op replace that handler with
:func:`implements`. So an op that is not built yet answers a clear error, never a fake
success, and the sheet and the routes cannot drift apart.

Handlers take an :class:`OpCall` and return an :class:`OpResult`: plain data, no Flask, so
the HTTP layer stays a thin parse-authorize-call-serialize step.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from .errors import NotImplementedOp, OpNotFound

__all__ = ["LEVELS", "Op", "OpCall", "OpResult", "SHEET", "REGISTRY", "OpRegistry", "implements"]

#: Auth levels, weakest first. A role grants a set of them (see ``access.py``).
LEVELS = ("read", "write", "execute", "admin")

MEMORY_TYPES = frozenset({"memory"})


@dataclass
class OpCall:
    """One invocation of an op, as the HTTP layer (or the CLI) parsed it."""

    home: Any                    # element.home.Home
    element: Any                 # element.catalog.Element
    principal: Any               # element.access.Principal | None
    body: dict[str, Any] = field(default_factory=dict)
    query: Mapping[str, str] = field(default_factory=dict)
    headers: Mapping[str, str] = field(default_factory=dict)
    params: dict[str, str] = field(default_factory=dict)
    env: str = "draft"
    raw_body: bytes = b""


@dataclass
class OpResult:
    """What an op answers: a JSON body (dict) or raw bytes with a content type."""

    body: dict[str, Any] | bytes
    status: int = 200
    content_type: str = "application/json"
    headers: dict[str, str] = field(default_factory=dict)


Handler = Callable[[OpCall], OpResult]


@dataclass
class Op:
    name: str
    method: str
    path: str                     # relative to /ops/, e.g. "memories/{memory_id}/delete"
    level: str
    summary: str
    types: frozenset[str] | None = None   # element types that have it; None means all
    handler: Handler | None = None

    def __post_init__(self) -> None:
        pattern = re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>[^/]+)", re.escape(self.path))
        self._regex = re.compile(f"^{pattern}$")

    def match(self, method: str, path: str) -> dict[str, str] | None:
        if method != self.method:
            return None
        found = self._regex.match(path)
        return found.groupdict() if found else None

    def applies_to(self, element_type: str) -> bool:
        return self.types is None or element_type in self.types

    def call(self, request: OpCall) -> OpResult:
        if self.handler is None:
            raise NotImplementedOp(self.name)
        return self.handler(request)


# The reference sheet (seed-memory-element.md) plus our additions (design.md section 4).
# (name, method, path, level, types, summary)
SHEET: list[tuple[str, str, str, str, frozenset[str] | None, str]] = [
    ("activity", "GET", "activity", "read", None, "Get activity events for this element"),
    ("attachments", "GET", "attachments", "read", None, "List attached modifiers and resources"),
    ("batch_stats", "GET", "batch_stats", "read", None, "Per-child statistics and an aggregate"),
    ("compose", "POST", "compose", "execute", None, "Batch add and remove modifiers"),
    ("context", "GET", "context", "read", None, "Connected elements (graph traversal)"),
    ("create", "POST", "create", "write", None, "Create a child element"),
    ("delete", "POST", "memories/{memory_id}/delete", "write", MEMORY_TYPES, "Delete a memory"),
    ("disable", "POST", "disable", "admin", None, "Disable the element"),
    ("enable", "POST", "enable", "admin", None, "Enable the element"),
    ("export_bundle", "GET", "export/bundle", "read", None, "Export as a git bundle"),
    ("forget_subject", "POST", "forget_subject", "write", MEMORY_TYPES,
     "Delete all memories about a subject"),
    ("get", "GET", "memories/{memory_id}", "read", MEMORY_TYPES, "Get one memory"),
    ("import_bundle", "POST", "import/bundle", "write", None, "Import a git bundle"),
    ("intention", "GET", "intention", "read", None, "Intention with its inheritance chain"),
    ("list", "GET", "memories", "read", MEMORY_TYPES, "List memories with filters"),
    ("promote", "POST", "promote", "admin", frozenset({"project"}),
     "Promote a project's configuration to an environment"),
    ("readme", "GET", "readme", "read", None, "Get README.md"),
    ("readme_update", "POST", "readme_update", "write", None, "Update README.md on draft"),
    ("remove-modifier", "POST", "remove-modifier", "execute", None, "Remove an attachment"),
    ("restore", "POST", "restore", "admin", None, "Restore the element to a version"),
    ("schema", "GET", "schema", "read", None, "Port schemas (MCP tools/list compatible)"),
    ("search", "POST", "search", "read", MEMORY_TYPES, "Blended-association recall"),
    ("source", "GET", "source", "read", None, "Read one file from a branch"),
    ("source_branches", "GET", "source/branches", "read", None, "draft/demo/live tips"),
    ("source_diff3", "GET", "source/diff3", "read", None, "Preview a three-way merge"),
    ("source_fixtures", "POST", "source/fixtures", "write", None, "Dry-run or apply fixtures"),
    ("source_merge", "POST", "source/merge", "write", None, "Merge a commit into draft"),
    ("source_promote", "POST", "source/promote", "write", None, "Promote a Source branch"),
    ("source_repair", "POST", "source/repair", "write", None, "Inspect or repair Source"),
    ("source_status", "GET", "source/status", "read", None, "Source control status"),
    ("source_validate", "POST", "source/validate", "read", None, "Validate a branch"),
    ("stats", "GET", "stats", "read", MEMORY_TYPES, "Counts, capacity, retention reaper"),
    ("store", "POST", "store", "write", MEMORY_TYPES, "Store a new memory"),
    ("tree", "GET", "tree", "read", None, "Position in the graph"),
    ("update", "POST", "memories/{memory_id}/update", "write", MEMORY_TYPES,
     "Update a memory's content"),
    ("update_meta", "PATCH", "update_meta", "write", None, "Shallow merge into meta"),
    ("version", "GET", "version", "read", None, "Current version or history"),
    # Additions of ours (design.md section 4).
    ("store_batch", "POST", "store_batch", "write", MEMORY_TYPES,
     "Store up to 256 memories with one embedding pass and one fsync"),
    ("spec", "GET", "spec", "read", None, "The element's spec"),
    ("spec_update", "POST", "spec_update", "write", None, "Merge properties into the spec"),
    ("observe", "POST", "observe", "write", frozenset({"memory", "triformer"}),
     "The subconscious: observe conversation turns"),
    ("tools", "GET", "tools", "read", frozenset({"memory", "triformer"}),
     "Conscious memory tools (MCP tools/list)"),
    ("tools_call", "POST", "tools/call", "read", frozenset({"memory", "triformer"}),
     "Call one conscious memory tool (writes need Write)"),
]


class OpRegistry:
    """Ops by name; lookup by element type, method and path."""

    def __init__(self) -> None:
        self.ops: dict[str, Op] = {}
        for name, method, path, level, types, summary in SHEET:
            self.ops[name] = Op(name, method, path, level, summary, types)

    def find(self, element_type: str, method: str, path: str) -> tuple[Op, dict[str, str]]:
        """The op answering ``method /ops/path`` on this element type, with path params.

        :raise OpNotFound: no op of this type answers there.
        """
        for op in self.ops.values():
            params = op.match(method, path)
            if params is not None and op.applies_to(element_type):
                return op, params
        raise OpNotFound(element_type, method, path)

    def implements(self, name: str) -> Callable[[Handler], Handler]:
        """Decorator: make ``handler`` the implementation of the sheet op ``name``."""
        def register(handler: Handler) -> Handler:
            self.ops[name].handler = handler
            return handler
        return register


REGISTRY = OpRegistry()
implements = REGISTRY.implements
