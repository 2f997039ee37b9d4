"""Who uses the console: a server-side session named by the cookie, and CSRF on every form.

Signing in checks the token (``element.authenticate``, the op path's first step) and opens
a console session (``element.open_session``): a random id, stored hashed in the catalog,
standing for the token for 12 hours. The browser gets only that id, in Flask's session
cookie ``triform_console``: signed with the app's ``SECRET_KEY``, ``HttpOnly`` (no script
can read it), ``SameSite=Strict`` (no other site's page sends it) and scoped to
``/console`` (the API, MCP and git never read it: they take bearer tokens only). It held
the token itself until issue 26: a cookie is sent to every service on the same host whose
path matches, so another local service under ``/console`` received it. Signing out ends
the session on the server, so every copy of the cookie stops working; revoking the token
ends it too. Every page looks the session up again and every action runs
``element.invoke`` as its principal.

Every form carries Flask-WTF's CSRF token, checked before any POST is handled.

``SECRET_KEY`` comes from the configuration (``TRIFORM_SECRET_KEY``); without one it is read
from ``<home>/console.key``, made once (mode 0600) so that every worker of a home and every
restart sign the same cookies.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

from flask import Flask, Request, current_app, request, session
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface
from flask_wtf.csrf import CSRFError, validate_csrf
from wtforms import ValidationError

from element import ElementError, Home, Principal, end_session, open_session, session_principal

from ..errors import ApiError

__all__ = ["configure", "sign_in", "sign_out", "current", "current_session", "check_csrf",
           "secret_key", "COOKIE_NAME"]

KEY_FILE = "console.key"
COOKIE_NAME = "triform_console"


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


class ConsoleOnlySessions(SecureCookieSessionInterface):
    """Flask's signed cookie sessions, opened only under the cookie's path: a browser
    sends the cookie nowhere else, so every other request (the API, MCP, git) gets the
    empty null session without building the signer (some 50 us of each API call)."""

    def open_session(self, app: Flask, request: Request) -> SecureCookieSession | None:
        path = self.get_cookie_path(app).rstrip("/")
        if request.path != path and not request.path.startswith(path + "/"):
            return self.null_session_class()
        return super().open_session(app, request)


def configure(app: Flask, home: Home) -> None:
    """Cookie and CSRF settings of the console (defaults; the app's config may override)."""
    app.session_interface = ConsoleOnlySessions()
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = secret_key(home.path)
    # Flask sets "session" already: setdefault would never take.
    if app.config.get("SESSION_COOKIE_NAME") in (None, "session"):
        app.config["SESSION_COOKIE_NAME"] = COOKIE_NAME
    app.config.update(SESSION_COOKIE_HTTPONLY=True, SESSION_COOKIE_SAMESITE="Strict",
                      SESSION_COOKIE_PATH="/console")


def _home() -> Home:
    found: Home = current_app.extensions["triform"]
    return found


def sign_in(token: str) -> Principal:
    """Open a console session for ``token``. :raise Unauthorized: not a valid token."""
    session_id, principal = open_session(_home().catalog, token.strip() or None)
    session.clear()
    session["sid"] = session_id
    return principal


def sign_out() -> None:
    end_session(_home().catalog, _session_id())
    session.clear()


def _session_id() -> str | None:
    value = session.get("sid")
    return value if isinstance(value, str) else None


def current() -> Principal | None:
    """The signed-in principal, or None (no session, or it has ended)."""
    session_id = _session_id()
    if session_id is None:
        return None
    try:
        return session_principal(_home().catalog, session_id)
    except ElementError:
        session.clear()
        return None


def current_session() -> str | None:
    """The signed-in session's id (an event stream checks it again as it runs)."""
    return _session_id()


def check_csrf() -> None:
    """:raise ApiError: the form's CSRF token is missing, expired or not this session's."""
    try:
        validate_csrf(request.form.get("csrf_token"))
    except (ValidationError, CSRFError) as exc:
        raise ApiError("CSRF_INVALID", "forbidden",
                       f"this form cannot be accepted ({exc}): reload the page and try "
                       "again") from None
