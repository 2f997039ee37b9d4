"""The git smart-HTTP mount: ``/git/<circle>/<slug>.git``, clone with Read, push with Write.

Tokens come as a Bearer header or as the password of Basic auth (what ``git clone
http://x:TOKEN@host/...`` sends). The push policy itself lives in ``source.smart_http``;
on top of it a pushed ``.triform/spec.yaml`` must fit the element's type
(``element.versions.push_reasons``: the git client shows the reason), and once a push has
landed its spec is mirrored into the catalog as a version (``element.versions.after_push``).
A token of the circle whose role is too low answers 403 (git does not ask again); no or a
bad token answers 401.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Callable

from element.access import authenticate, authorize
from element.errors import ElementError, Forbidden
from element.home import Home
from element.versions import after_push, push_reasons
from source.smart_http import make_git_app

__all__ = ["git_app", "token_from_environ"]

_REPO_IN_PATH = re.compile(r"^/?(.+?)\.git(?:/|$)")


def token_from_environ(environ: dict[str, Any]) -> str | None:
    header = environ.get("HTTP_AUTHORIZATION", "")
    scheme, _, value = header.partition(" ")
    if scheme.lower() == "bearer":
        return value.strip() or None
    if scheme.lower() == "basic":
        try:
            decoded = base64.b64decode(value.strip(), validate=True).decode()
        except (binascii.Error, UnicodeDecodeError):
            return None
        return decoded.partition(":")[2] or None
    return None


def git_app(home: Home) -> Callable[..., Any]:
    def authorize_git(environ: dict[str, Any], is_push: bool) -> bool | str:
        found = _REPO_IN_PATH.match(environ.get("PATH_INFO", ""))
        if not found:
            return False
        try:
            principal = authenticate(home.catalog, token_from_environ(environ))
            element = home.catalog.element_at(found.group(1))
            authorize(principal, element, "write" if is_push else "read")
        except Forbidden:
            return "forbidden"
        except ElementError:
            return False
        environ["triform.principal"] = principal.label
        return True

    def validate_push(repo_path: Path, _ref: str, new: str) -> list[str]:
        return push_reasons(home, repo_path, new)

    git = make_git_app(home.resolve_repo, authorize_git, validate_push)

    def app(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterator[bytes]:
        try:
            yield from git(environ, start_response)
        finally:
            if environ.get("REQUEST_METHOD") == "POST" and "triform.principal" in environ \
                    and environ.get("PATH_INFO", "").endswith("/git-receive-pack"):
                after_push(home, environ["triform.element_path"], environ["triform.principal"])

    return app
