"""The console's cookie holds an opaque session id, not the bearer token (issue 26, Medium 9).

It held the raw token (signed, not encrypted) under Flask's default name ``session`` with
``Path=/console``, so any other service on 127.0.0.1 under ``/console`` received it. Now the
cookie names a server-side session, which sign-out ends for every copy of the cookie.
"""

from __future__ import annotations

import base64
import json
import zlib

from tests.api.test_console import Browser
from tests.helpers import Server


def _cookie(response) -> tuple[str, str]:
    header = response.headers["Set-Cookie"]
    name, value = header.split(";", 1)[0].split("=", 1)
    return name, value


def _payload(value: str) -> str:
    """What a Flask session cookie says (its signature aside): readable by anyone."""
    compressed = value.startswith(".")
    data = value.lstrip(".").split(".")[0]
    raw = base64.urlsafe_b64decode(data + "=" * (-len(data) % 4))
    return (zlib.decompress(raw) if compressed else raw).decode()


def test_the_cookie_is_named_for_the_console_and_holds_no_token(server: Server) -> None:
    browser = Browser(server)
    token = server.tokens["member"]
    signed = browser.sign_in(token)
    name, value = _cookie(signed)
    assert name == "triform_console"
    payload = _payload(value)
    assert token not in payload and token[4:20] not in payload
    assert "sid" in json.loads(payload)


def test_sign_out_ends_the_session_for_every_copy_of_the_cookie(server: Server) -> None:
    browser = Browser(server)
    signed = browser.sign_in(server.tokens["member"])
    name, value = _cookie(signed)
    stolen = server.app.test_client()
    stolen.set_cookie(name, value, path="/console")
    assert stolen.get("/console/c/demo").status_code == 200      # a copy works...
    browser.get("/console/c/demo")
    browser.post("/console/logout")
    replay = stolen.get("/console/c/demo")                         # ...until sign-out
    assert replay.status_code == 302 and "/console/login" in replay.headers["Location"]


def test_a_revoked_token_ends_its_console_sessions(server: Server) -> None:
    browser = Browser(server)
    browser.sign_in(server.tokens["member"])
    assert browser.get("/console/c/demo").status_code == 200
    member = next(t for t in server.home.catalog.tokens("demo") if t["name"] == "member")
    server.home.catalog.revoke_token(member["id"])
    assert browser.get("/console/c/demo").status_code == 302


def test_the_console_cookie_opens_nothing_outside_the_console(server: Server) -> None:
    """A script that sends the signed-in cookie to the API is not signed in by it: the API
    takes bearer tokens only, and outside ``/console`` no session is even read (nor a
    cookie set)."""
    browser = Browser(server)
    name, value = _cookie(browser.sign_in(server.tokens["member"]))
    script = server.app.test_client()
    script.set_cookie(name, value, path="/")
    answer = script.post("/api/demo/memory/ops/search", json={"query": "anything"})
    assert answer.status_code == 401 and "Set-Cookie" not in answer.headers
    assert script.get("/console/c/demo").status_code == 200       # the console reads it
