"""Principals, roles and bearer tokens.

A token belongs to a principal with a role in one circle. Roles grant op levels:
viewer -> read; member -> read, write, execute; admin -> all. Tokens are random, shown once
at creation, and stored only as a SHA-256 hash (they are 256-bit random, so a fast hash is
enough: there is nothing to brute-force).

The home's *operator* is the one principal without a token: whoever runs ``triform`` on the
data home itself (the CLI, a local MCP server) acts as an admin of the element's circle,
recorded in activity under its own name, and is not subject to modifiers (those govern
callers of the service, not the owner of its files).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
import uuid
from dataclasses import dataclass
from typing import Literal

from ..catalog import Catalog, Element, now_iso
from ..errors import Forbidden, InvalidRequest, Unauthorized

__all__ = ["LEVELS", "Level", "ROLES", "Principal", "create_token", "authenticate",
           "authorize", "TOKEN_PREFIX", "open_session", "session_principal", "end_session",
           "SESSION_SECONDS"]

Level = Literal["read", "write", "execute", "admin"]
#: Auth levels, weakest first.
LEVELS: tuple[Level, ...] = ("read", "write", "execute", "admin")
ROLES: dict[str, frozenset[str]] = {
    "viewer": frozenset({"read"}),
    "member": frozenset({"read", "write", "execute"}),
    "admin": frozenset({"read", "write", "execute", "admin"}),
}

TOKEN_PREFIX = "tfm_"
_OPERATOR = "operator"
#: How long a console session lasts after sign-in.
SESSION_SECONDS = 12 * 3600


@dataclass(frozen=True)
class Principal:
    """Who calls: a token's holder (its id, circle, role and name), or the operator."""

    token_id: str
    circle: str
    role: str
    name: str | None = None

    @property
    def label(self) -> str:
        """How activity names the principal: the token's name, else its id's start."""
        return self.name or f"token:{self.token_id[:8]}"

    @property
    def is_operator(self) -> bool:
        return self.token_id == _OPERATOR

    @classmethod
    def operator(cls, circle: str, name: str = "cli") -> Principal:
        """The home's operator, acting in ``circle`` (see the module docstring)."""
        return cls(_OPERATOR, circle, "admin", name)


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def create_token(catalog: Catalog, circle: str, role: str, name: str | None = None) -> str:
    """Make a token for ``circle`` with ``role``; returns the plaintext, shown only now.

    :raise InvalidRequest: an unknown role.
    :raise ElementNotFound: the circle does not exist (a token for a circle someone might
        create later would silently become its admin).
    """
    if role not in ROLES:
        raise InvalidRequest("role", f"must be one of {', '.join(ROLES)}")
    if catalog.element_at(circle).element_type != "circle":
        raise InvalidRequest("circle", f"{circle!r} is not a circle")
    token = TOKEN_PREFIX + secrets.token_urlsafe(32)
    catalog.add_token(uuid.uuid4().hex, _hash(token), circle, role, name)
    return token


def authenticate(catalog: Catalog, token: str | None) -> Principal:
    """The principal holding ``token``.

    :raise Unauthorized: no token, or one that is unknown or revoked.
    """
    if not token:
        raise Unauthorized()
    token_hash = _hash(token)
    row = catalog.token_by_hash(token_hash)
    # The lookup is by hash, so timing reveals nothing of the token; compare anyway.
    if row is None or not hmac.compare_digest(row["token_hash"], token_hash):
        raise Unauthorized("the bearer token is not valid")
    return Principal(row["id"], row["circle"], row["role"], row["name"])


def open_session(catalog: Catalog, token: str | None, *,
                 seconds: float = SESSION_SECONDS) -> tuple[str, Principal]:
    """A console session for ``token``: ``(session id, principal)``. The id is random and
    stored hashed; it stands for the token for ``seconds``, until :func:`end_session`,
    or until the token is revoked, so a browser never holds the token itself.

    :raise Unauthorized: not a valid token.
    """
    principal = authenticate(catalog, token)
    session_id = secrets.token_urlsafe(32)
    catalog.add_session(_hash(session_id), principal.token_id,
                        now_iso(time.time() + seconds))
    return session_id, principal


def session_principal(catalog: Catalog, session_id: str | None) -> Principal:
    """Who a console session stands for.

    :raise Unauthorized: no such session, it expired or ended, or its token is revoked.
    """
    row = catalog.session_token(_hash(session_id)) if session_id else None
    if row is None:
        raise Unauthorized("the console session has ended: sign in again")
    return Principal(row["id"], row["circle"], row["role"], row["name"])


def end_session(catalog: Catalog, session_id: str | None) -> None:
    """End a console session (sign-out): every copy of its cookie stops working."""
    if session_id:
        catalog.end_session(_hash(session_id))


def authorize(principal: Principal, element: Element, level: str) -> None:
    """:raise Forbidden: the principal's role in the element's circle lacks ``level``."""
    if principal.circle != element.circle:
        raise Forbidden(f"this token has no access to circle {element.circle!r}")
    if level not in ROLES[principal.role]:
        raise Forbidden(f"role {principal.role!r} cannot perform {level} ops")
