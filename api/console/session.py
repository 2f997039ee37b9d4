"""Who uses the console: a token kept in the session cookie, and CSRF on every form.

Signing in checks the token (``element.authenticate``, the op path's first step) and keeps
it in Flask's session: a cookie signed with the app's ``SECRET_KEY``, ``HttpOnly`` (no
script can read it), ``SameSite=Strict`` (no other site's page sends it) and scoped to
``/console`` (the API, MCP and git never read it: they take bearer tokens only). Every page
reads the token again and every action runs ``element.invoke`` with it, so a revoked token
ends the console session at its next click.

Every form carries Flask-WTF's CSRF token, checked before any POST is handled.

``SECRET_KEY`` comes from the configuration (``TRIFORM_SECRET_KEY``); without one it is read
from ``<home>/console.key``, made once (mode 0600) so that every worker of a home and every
restart sign the same cookies.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

from flask import Flask, current_app, request, session
from flask_wtf.csrf import CSRFError, validate_csrf
from wtforms import ValidationError

from element import ElementError, Home, Principal, authenticate

from ..errors import ApiError

__all__ = ["configure", "sign_in", "sign_out", "current", "check_csrf", "secret_key"]

KEY_FILE = "console.key"


def secret_key(home_path: Path) -> str:
    """The home's console key, made on first use (readable by its owner only)."""
    path = Path(home_path) / KEY_FILE
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        pass
    key = secrets.token_hex(32)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:         # another worker made it first: use theirs
        return path.read_text().strip()
    with os.fdopen(fd, "w") as out:
        out.write(key)
        out.flush()
        os.fsync(out.fileno())
    return key


def configure(app: Flask, home: Home) -> None:
    """Cookie and CSRF settings of the console (defaults; the app's config may override)."""
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = secret_key(home.path)
    app.config.setdefault("SESSION_COOKIE_NAME", "triform_console")
    app.config.update(SESSION_COOKIE_HTTPONLY=True, SESSION_COOKIE_SAMESITE="Strict",
                      SESSION_COOKIE_PATH="/console")


def _home() -> Home:
    found: Home = current_app.extensions["triform"]
    return found


def sign_in(token: str) -> Principal:
    """Keep ``token`` for this browser. :raise Unauthorized: not a valid token."""
    principal = authenticate(_home().catalog, token.strip() or None)
    session.clear()
    session["token"] = token.strip()
    return principal


def sign_out() -> None:
    session.clear()


def current() -> tuple[str, Principal] | None:
    """The signed-in token and its principal, or None (no token, or no longer valid)."""
    token = session.get("token")
    if not isinstance(token, str):
        return None
    try:
        return token, authenticate(_home().catalog, token)
    except ElementError:
        session.clear()
        return None


def check_csrf() -> None:
    """:raise ApiError: the form's CSRF token is missing, expired or not this session's."""
    try:
        validate_csrf(request.form.get("csrf_token"))
    except (ValidationError, CSRFError) as exc:
        raise ApiError("CSRF_INVALID", "forbidden",
                       f"this form cannot be accepted ({exc}): reload the page and try "
                       "again") from None
