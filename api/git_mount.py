"""The git smart-HTTP mount: ``/git/<circle>/<slug>.git``, clone with Read, push with Write.

Tokens come as a Bearer header or as the password of Basic auth (what ``git clone
http://x:TOKEN@host/...`` sends). The push policy itself lives in ``source.smart_http``;
on top of it a pushed ``.triform/spec.yaml`` must fit the element's type
(``push_reasons``: the git client shows the reason), and once a push has landed its spec is
mirrored into the catalog as a version (``after_push``).
A fetch is admitted as the ``export_bundle`` op and a push as ``source_merge`` (the ops that
do the same), so roles, a disabled element, auth-policies and rate-limits govern git as
they govern every op. A refused token answers 403 (git does not ask again); no or a bad
token answers 401; a token of the circle naming an element that does not exist answers 404
"repository not found" (another circle's path is 403 whether or not it exists).
"""

from __future__ import annotations

import base64
import binascii
import re
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from collections.abc import Callable

from element import (ElementError, ElementNotFound, Home, Unauthorized, admit, after_push,
                     authenticate, push_reasons, registry)
from source import Verdict, make_git_app

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
    # The principal of the request this thread serves: validate_push runs inside the same
    # request, after authorize_git, and needs it (only an admin changes governance).
    current = threading.local()

    def authorize_git(environ: dict[str, Any], is_push: bool) -> Verdict:
        found = _REPO_IN_PATH.match(environ.get("PATH_INFO", ""))
        if not found:
            return Verdict.UNAUTHENTICATED
        try:
            principal = authenticate(home.catalog, token_from_environ(environ))
        except Unauthorized:
            return Verdict.UNAUTHENTICATED
        path = found.group(1)
        if path.split("/", 1)[0] != principal.circle:
            # Whether or not it exists: another circle's elements are not this token's to
            # learn about.
            return Verdict.FORBIDDEN
        try:
            element = home.catalog.element_at(path)
        except ElementNotFound:
            return Verdict.NOT_FOUND
        try:
            # The op path's checks, as the ops that do what git does: a fetch reads the
            # whole repository (export_bundle), a push moves draft (source_merge).
            admit(home, principal, element, registry()["source_merge" if is_push
                                                       else "export_bundle"])
        except ElementError:
            return Verdict.FORBIDDEN
        environ["triform.principal"] = principal.label
        environ["triform.admin"] = principal.role == "admin"
        current.principal = principal
        return Verdict.ALLOW

    def validate_push(repo_path: Path, _ref: str, new: str) -> list[str]:
        return push_reasons(home, repo_path, new, getattr(current, "principal", None))

    git = make_git_app(home.resolve_repo, authorize_git, validate_push)

    def app(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterator[bytes]:
        try:
            yield from git(environ, start_response)
        finally:
            if environ.get("REQUEST_METHOD") == "POST" and "triform.principal" in environ \
                    and environ.get("PATH_INFO", "").endswith("/git-receive-pack"):
                after_push(home, environ["triform.element_path"], environ["triform.principal"],
                           admin=bool(environ.get("triform.admin")))

    return app
