"""The op registry: every op, where it answers, its auth level and its request and answer shapes.

An op is declared once, beside its handler, in an op module (``element/ops/<topic>.py``)::

    ops = OpTable()

    @ops.op("store", "POST", "store", "write", types=MEMORY, status=201,
            summary="Store a new memory", request=STORE_REQUEST, response=STORE_ANSWER)
    def store(call: OpCall) -> OpResult: ...

:func:`element.ops.op` builds the :class:`Registry` from the listed op modules and checks
it against the reference sheet (:data:`SHEET`): a sheet op without a handler, or one declared
at another method, path or level, stops the process at start instead of failing at run time.

Handlers take an :class:`OpCall` (already authenticated, authorized and shape-checked by
``element.invoke``) and return an :class:`OpResult`: plain data, no HTTP, so every entry point
(HTTP, CLI, agent tools, MCP) is a thin translation around the same call.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Protocol

from ..errors import MethodNotAllowed, OpNotFound
from ..governance.access import LEVELS, Level, Principal

if TYPE_CHECKING:
    from ..catalog import Element
    from ..home import Home

__all__ = ["LEVELS", "Level", "Env", "Schema", "Header", "Op", "OpCall", "OpResult",
           "Activity", "OpTable", "Registry", "SHEET", "MEMORY", "AGENTS", "Handler",
           "Invocation", "Nested"]

Env = Literal["draft", "demo", "live"]
Schema = dict[str, Any]

MEMORY = frozenset({"memory"})
AGENTS = frozenset({"memory", "triformer"})

#: The reference sheet (seed-memory-element.md) plus our additions (design.md section 4):
#: name -> (method, path, level). Declarations must match it exactly.
SHEET: dict[str, tuple[str, str, Level]] = {
    "activity": ("GET", "activity", "read"),
    "attachments": ("GET", "attachments", "read"),
    "batch_stats": ("GET", "batch_stats", "read"),
    "compose": ("POST", "compose", "execute"),
    "context": ("GET", "context", "read"),
    "create": ("POST", "create", "write"),
    "delete": ("POST", "memories/{memory_id}/delete", "write"),
    "disable": ("POST", "disable", "admin"),
    "enable": ("POST", "enable", "admin"),
    "export_bundle": ("GET", "export/bundle", "read"),
    "forget_subject": ("POST", "forget_subject", "write"),
    "get": ("GET", "memories/{memory_id}", "read"),
    "import_bundle": ("POST", "import/bundle", "write"),
    "intention": ("GET", "intention", "read"),
    "list": ("GET", "memories", "read"),
    "promote": ("POST", "promote", "admin"),
    "readme": ("GET", "readme", "read"),
    "readme_update": ("POST", "readme_update", "write"),
    "remove-modifier": ("POST", "remove-modifier", "execute"),
    "restore": ("POST", "restore", "admin"),
    "schema": ("GET", "schema", "read"),
    "search": ("POST", "search", "read"),
    "source": ("GET", "source", "read"),
    "source_branches": ("GET", "source/branches", "read"),
    "source_diff3": ("GET", "source/diff3", "read"),
    "source_fixtures": ("POST", "source/fixtures", "write"),
    "source_merge": ("POST", "source/merge", "write"),
    "source_promote": ("POST", "source/promote", "write"),
    "source_repair": ("POST", "source/repair", "write"),
    "source_status": ("GET", "source/status", "read"),
    "source_validate": ("POST", "source/validate", "read"),
    "stats": ("GET", "stats", "read"),
    "store": ("POST", "store", "write"),
    "tree": ("GET", "tree", "read"),
    "update": ("POST", "memories/{memory_id}/update", "write"),
    "update_meta": ("PATCH", "update_meta", "write"),
    "version": ("GET", "version", "read"),
    # Additions of ours.
    "store_batch": ("POST", "store_batch", "write"),
    "spec": ("GET", "spec", "read"),
    "spec_update": ("POST", "spec_update", "write"),
    "observe": ("POST", "observe", "write"),
    "tools": ("GET", "tools", "read"),
    "tools_call": ("POST", "tools/call", "read"),
    "reindex": ("POST", "reindex", "write"),
    "export_memories": ("GET", "export/memories", "read"),
    "import_memories": ("POST", "import/memories", "write"),
    "eval": ("POST", "eval", "read"),
    "history": ("GET", "memories/{memory_id}/history", "read"),
}


@dataclass(frozen=True)
class Header:
    """A request header an op reads, for the API document."""

    name: str
    schema: Schema
    description: str
    required: bool = False


@dataclass(frozen=True)
class Activity:
    """One activity event an op asks to record once it has succeeded."""

    detail: dict[str, Any]
    element: Element | None = None     # default: the called element
    op: str | None = None              # default: the op's name


@dataclass
class OpResult:
    """What an op answers: a JSON body (dict), raw bytes with a content type, or a stream
    of byte chunks (an iterator: an export sent as it is read), and the activity events
    to record for it (``element.invoke`` records them)."""

    body: dict[str, Any] | bytes | Iterator[bytes]
    status: int = 200
    content_type: str = "application/json"
    headers: dict[str, str] = field(default_factory=dict)
    activity: Sequence[Activity] = ()


@dataclass(frozen=True)
class Invocation:
    """One call of one op, as an entry point received it.

    The op is named (``op``) or found by ``method`` and ``op_path`` (HTTP). The caller is
    exactly one of ``token`` (checked here), ``principal`` (already authenticated: an op
    calling another op on the caller's behalf) or ``operator`` (the home's owner, by the
    name activity records).
    """

    path: str
    op: str | None = None
    method: str | None = None
    op_path: str | None = None
    token: str | None = None
    principal: Principal | None = None
    operator: str | None = None
    #: The JSON body, or a function that parses it: called only once the caller is
    #: admitted, so a refused caller learns nothing of how its body would be read.
    body: Mapping[str, Any] | Callable[[], Mapping[str, Any] | None] | None = None
    raw_body: bytes = b""
    query: Mapping[str, str] = field(default_factory=dict)
    headers: Mapping[str, str] = field(default_factory=dict)
    params: Mapping[str, str] = field(default_factory=dict)
    env: str | None = None
    #: The conversation's subject, fixed by the caller (agent tools): the memory ops then
    #: read only general memories and this subject's, and write only those.
    subject: tuple[str, str] | None = None
    #: False when an op calls another op on the same element: its rate-limit hit was
    #: taken by the outer call (its policies are still checked).
    count_rate: bool = True


class Nested(Protocol):
    """The op path as a handler may use it, lent by ``element.invoke`` on each call
    (``OpCall.nested``), as the handler's own caller: a handler that runs another op or
    checks another element goes through it, so no handler imports the module that runs
    the handlers."""

    def invoke(self, call: Invocation) -> OpResult:
        """Run another op through every check of the op path (``element.invoke``)."""
        ...

    def admit(self, element: Element, op: Op, *, count_rate: bool = True) -> None:
        """The level, state and modifier checks of ``op`` on another ``element``.

        :raise Forbidden, PolicyDenied, ElementDisabled, RateLimited: it is refused.
        """
        ...

    def readable(self, elements: Sequence[Element]) -> set[str]:
        """The ids of those ``elements`` whose activity the caller may read."""
        ...


@dataclass(frozen=True)
class OpCall:
    """One admitted invocation of an op: who, on what, with which checked input."""

    home: Home
    element: Element
    principal: Principal
    op: Op
    #: The op path, for a handler that calls another op or checks another element.
    nested: Nested
    body: dict[str, Any] = field(default_factory=dict)
    #: Query parameters, typed as the op declares them (``limit`` is an int...).
    query: dict[str, Any] = field(default_factory=dict)
    headers: Mapping[str, str] = field(default_factory=dict)
    params: dict[str, str] = field(default_factory=dict)
    env: Env = "draft"
    raw_body: bytes = b""
    #: The conversation's subject when the caller fixed it (``Invocation.subject``).
    subject: tuple[str, str] | None = None

    @property
    def who(self) -> str:
        """How activity names the caller."""
        return self.principal.label


Handler = Callable[[OpCall], OpResult]


@dataclass(frozen=True)
class Op:
    """An op: where it answers, who may call it, and the shapes of its input and answer.

    ``request`` is the JSON Schema of the body (None: the op takes no body), ``query`` the
    schema of each query parameter; ``element.invoke`` refuses unknown fields and
    parameters and values of the wrong JSON type before the handler runs, and the API
    document publishes the same schemas, so the two cannot disagree.
    """

    name: str
    method: str
    path: str                     # relative to /ops/, e.g. "memories/{memory_id}/delete"
    level: Level
    summary: str
    handler: Handler
    types: frozenset[str] | None = None   # element types that have it; None: all
    request: Schema | None = None
    body_required: bool = False
    query: Mapping[str, Schema] = field(default_factory=dict)
    headers: tuple[Header, ...] = ()
    response: Schema | None = None
    status: int = 200
    #: Success media types other than JSON (export_bundle answers a git bundle).
    content: Mapping[str, Schema] | None = None
    links: tuple[str, ...] = ()   # ops that take the answer's memory id (OpenAPI links)
    description: str = ""
    #: Answers on a disabled element too (so it can be inspected and re-enabled).
    when_disabled: bool = False
    #: The op checks its fields' types itself (the memory runtime does, with the sheet's
    #: error codes); invoke then checks only which fields are given.
    checks_types: bool = False
    #: The config key of a larger body limit than a JSON op's (import_bundle).
    body_limit: str | None = None
    #: A body that is not JSON (media type -> schema, for the API document): the op reads
    #: ``OpCall.raw_body`` itself (import_memories takes NDJSON).
    request_content: Mapping[str, Schema] | None = None

    @property
    def regex(self) -> re.Pattern[str]:
        pattern = re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>[^/]+)", re.escape(self.path))
        return re.compile(f"^{pattern}$")

    def applies_to(self, element_type: str) -> bool:
        return self.types is None or element_type in self.types


class OpTable:
    """The ops of one op module, declared with :meth:`op` beside their handlers."""

    def __init__(self) -> None:
        self.ops: list[Op] = []

    def op(self, name: str, method: str, path: str, level: Level, *, summary: str,
           **details: Any) -> Callable[[Handler], Handler]:
        """Decorator: declare the op ``name`` served by the decorated handler."""
        def declare(handler: Handler) -> Handler:
            self.ops.append(Op(name, method, path, level, summary, handler, **details))
            return handler
        return declare


class Registry:
    """Ops by name; lookup by element type, method and path."""

    def __init__(self, ops: Iterable[Op]) -> None:
        self.ops: dict[str, Op] = {}
        for op in ops:
            if op.name in self.ops:
                raise RuntimeError(f"op {op.name!r} is declared twice")
            self.ops[op.name] = op
        self._routes = [(op, op.regex) for op in self.ops.values()]

    def check_sheet(self) -> None:
        """:raise RuntimeError: a sheet op has no handler or another method, path or level."""
        missing = sorted(set(SHEET) - set(self.ops))
        if missing:
            raise RuntimeError(f"ops of the sheet without a handler: {', '.join(missing)}")
        for name, (method, path, level) in SHEET.items():
            op = self.ops[name]
            if (op.method, op.path, op.level) != (method, path, level):
                raise RuntimeError(f"op {name!r} is declared as {op.method} {op.path} "
                                   f"({op.level}); the sheet says {method} {path} ({level})")

    def __getitem__(self, name: str) -> Op:
        return self.ops[name]

    def __iter__(self) -> Iterator[Op]:
        return iter(sorted(self.ops.values(), key=lambda op: op.name))

    def find(self, element_type: str, method: str, path: str) -> tuple[Op, dict[str, str]]:
        """The op answering ``method /ops/path`` on this element type, with path params.

        :raise MethodNotAllowed: an op of this type answers at ``path``, with other methods.
        :raise OpNotFound: no op of this type answers at ``path``.
        """
        allowed: list[str] = []
        for op, regex in self._routes:
            found = regex.match(path)
            if found is None or not op.applies_to(element_type):
                continue
            if op.method == method:
                return op, found.groupdict()
            allowed.append(op.method)
        if allowed:
            raise MethodNotAllowed(method, path, sorted(set(allowed)))
        raise OpNotFound(element_type, method, path)
