"""The one op path: every entry point calls :func:`invoke`.

HTTP routes, the command line, agent tools (over HTTP and MCP), fixtures and whatever comes
later only translate their input into an :class:`Invocation` and the :class:`OpResult` into
their output. Everything that makes an op safe happens here, once, in this order:

1. who calls: a bearer token's principal, an already admitted principal (an op calling
   another op), or the home's operator (the CLI on its own home);
2. the element: another circle's path is refused before it is looked up, so a token
   cannot learn which elements another circle holds;
3. the op, by name or by method and path (404 ``OP_NOT_FOUND``, 405 with ``Allow``);
4. the principal's role must grant the op's level in the element's circle;
5. a disabled or deleted element answers only the ops marked ``when_disabled``;
6. the modifiers attached to the element: auth-policies, then rate-limits;
7. the request's shape, against the op's declared schema: unknown fields and query
   parameters, missing required fields and values of the wrong JSON type are refused;
8. the handler runs;
9. the activity events it returned are recorded. The op has succeeded by then (a memory
   is durable once its log line is fsynced), so a failure to record is logged and the
   answer still says what is stored: a client never retries a write that happened.

:func:`admit` is steps 4 to 6 alone, for a stream that checks each element it shows (SSE
events) and for tools that act on several bonded elements.

A handler that calls another op, or checks another element, does it through the call it
was given (``OpCall.nested``: this path, lent as the same caller), never by importing this
module: the handlers are what this module runs, so it is the one that knows them.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from source import BRANCHES

from .catalog import Element
from .errors import ElementDisabled, Forbidden, InvalidRequest, OpNotFound
from .governance.access import Principal, authenticate, authorize
from .governance.enforce import enforce_modifiers
from .home import Home
from .ops import registry
from .ops.op import Env, Invocation, Op, OpCall, OpResult, Schema
from .schema import check, text_problem

__all__ = ["Invocation", "invoke", "admit", "readable", "check_query"]

log = logging.getLogger("triform.invoke")


def _circle_of(path: str) -> str:
    return path.split("/", 1)[0]


def _caller(home: Home, call: Invocation) -> Principal:
    if call.principal is not None:
        return call.principal
    if call.operator is not None:
        return Principal.operator(_circle_of(call.path), call.operator)
    return authenticate(home.catalog, call.token)


def _env(home: Home, raw: str | None) -> Env:
    env = home.env if raw is None else raw
    if env not in BRANCHES:
        raise InvalidRequest("X-Triform-Env", f"must be one of {', '.join(BRANCHES)}")
    return env  # type: ignore[return-value]  # checked against BRANCHES just above


def _element(home: Home, principal: Principal, path: str) -> Element:
    if _circle_of(path) != principal.circle:
        raise Forbidden(f"this token has no access to circle {_circle_of(path)!r}")
    # With its spec mirror's state: the draft spec's check (``spec/mirror.py``) reads no
    # row again.
    return home.catalog.element_at_mirrored(path)


def admit(home: Home, principal: Principal, element: Element, op: Op, *,
          count_rate: bool = True) -> None:
    """Steps 4 to 6: the level, the element's state and its modifiers.

    :raise Forbidden / PolicyDenied: the role or an auth-policy refuses.
    :raise ElementDisabled: the element is not ready and the op needs it to be.
    :raise RateLimited: a rate-limit window is full.
    """
    authorize(principal, element, op.level)
    if element.state != "ready" and not op.when_disabled:
        raise ElementDisabled(element.path, element.state)
    enforce_modifiers(home.catalog, home.limiter, principal, element, op, count=count_rate)


def check_query(schemas: Mapping[str, Schema], query: Mapping[str, str]) -> dict[str, Any]:
    """Query parameters, typed as declared: integers and numbers parsed, booleans only
    ``true``/``false`` (or 1/0); an undeclared parameter is refused. As for bodies, the values'
    meaning (ranges, enums) is the op's to check.

    :raise InvalidRequest: naming the parameter.
    """
    typed: dict[str, Any] = {}
    for name, raw in query.items():
        problem = text_problem(name) or (text_problem(raw) if isinstance(raw, str) else None)
        if problem:
            raise InvalidRequest(name, problem)
        schema = schemas.get(name)
        if schema is None:
            known = ", ".join(sorted(schemas)) or "none"
            raise InvalidRequest(name, f"is not a parameter of this op (parameters: {known})")
        kind = schema.get("type", "string")
        value: Any = raw
        try:
            if kind == "integer":
                value = int(raw)
            elif kind == "number":
                value = float(raw)
        except ValueError:
            raise InvalidRequest(name, "must be an integer" if kind == "integer"
                                 else "must be a number") from None
        if kind == "boolean":
            if raw not in ("true", "false", "1", "0"):
                raise InvalidRequest(name, "must be true or false")
            value = raw in ("true", "1")
        typed[name] = value
    return typed


def _check_body(op: Op, body: Mapping[str, Any] | None) -> dict[str, Any]:
    if op.request is None:
        if body:
            raise InvalidRequest(next(iter(body)), "is not a field: this op takes no body")
        return {}
    body = body or {}
    problem = check(dict(body), op.request, "", types=not op.checks_types)
    if problem:
        raise InvalidRequest(*problem)
    return dict(body)


def invoke(home: Home, call: Invocation) -> OpResult:
    """Run one op through every check of the op path (see the module docstring).

    :raise ElementError / StoreError / SourceError: in the one error shape.
    """
    principal = _caller(home, call)
    env = _env(home, call.env)
    element = _element(home, principal, call.path)
    ops = registry()
    if call.op is not None:
        op, params = ops[call.op], dict(call.params)
        if not op.applies_to(element.element_type):
            raise OpNotFound(element.element_type, op.method, op.path)
    else:
        op, params = ops.find(element.element_type, call.method or "GET", call.op_path or "")
    admit(home, principal, element, op, count_rate=call.count_rate)
    # An op that reads a non-JSON body itself (NDJSON) gets it raw, whatever the
    # Content-Type said (curl --data-binary sends form encoding).
    body = None if op.request_content is not None else \
        call.body() if callable(call.body) else call.body
    request = OpCall(home=home, element=element, principal=principal, op=op,
                     nested=_Nested(home, principal), body=_check_body(op, body),
                     query=check_query(op.query, call.query), headers=call.headers,
                     params=params, env=env, raw_body=call.raw_body, subject=call.subject)
    result = op.handler(request)
    for event in result.activity:
        try:
            home.catalog.record_activity(event.element or element, event.op or op.name,
                                         principal.label, event.detail)
        except Exception:   # the op succeeded; its answer must say so (module docstring)
            log.exception("recording activity of %s on %s failed", op.name, element.path)
    return result


def readable(home: Home, principal: Principal, elements: list[Element]) -> set[str]:
    """The ids of those ``elements`` whose activity ``principal`` may read: its role and
    every auth-policy attached to each (no rate-limit window is spent). What a circle-wide
    view shows (events, activity, per-child stats) is filtered through this, so a policy
    that denies one element hides it there too."""
    op = registry()["activity"]
    allowed: set[str] = set()
    for element in elements:
        try:
            admit(home, principal, element, op, count_rate=False)
        except (Forbidden, ElementDisabled):
            continue
        allowed.add(element.id)
    return allowed


@dataclass(frozen=True)
class _Nested:
    """The op path lent to one handler (``ops.op.Nested``): as its caller, on its home."""

    home: Home
    principal: Principal

    def invoke(self, call: Invocation) -> OpResult:
        return invoke(self.home, call)

    def admit(self, element: Element, op: Op, *, count_rate: bool = True) -> None:
        admit(self.home, self.principal, element, op, count_rate=count_rate)

    def readable(self, elements: Sequence[Element]) -> set[str]:
        return readable(self.home, self.principal, list(elements))
