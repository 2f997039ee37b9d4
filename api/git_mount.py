"""The git smart-HTTP mount: ``/git/<circle>/<slug>.git``, clone with Read, push with Write.

Tokens come as a Bearer header or as the password of Basic auth (what ``git clone
http://x:TOKEN@host/...`` sends). The push policy itself lives in ``source.smart_http``.
"""

from __future__ import annotations

import base64
import binascii
import re
from typing import Any, Callable

from element.access import authenticate, authorize
from element.errors import ElementError
from element.home import Home
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
    def authorize_git(environ: dict[str, Any], is_push: bool) -> bool:
        found = _REPO_IN_PATH.match(environ.get("PATH_INFO", ""))
        if not found:
            return False
        try:
            principal = authenticate(home.catalog, token_from_environ(environ))
            element = home.catalog.element_at(found.group(1))
            authorize(principal, element, "write" if is_push else "read")
        except ElementError:
            return False
        return True

    return make_git_app(home.resolve_repo, authorize_git)
