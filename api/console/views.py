"""The console's pages and forms: each one op call (or a few reads) through ``element.invoke``.

Pages are GET and only read. Forms POST to an action, which runs exactly one op with the
signed-in principal and redirects back to the page it came from (post/redirect/get), with the
op's answer or its error message (the API's, verbatim) shown once at the top. Write
controls are left out of the page for a role that lacks the op's level; the op path
refuses them anyway when a form is forged.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from urllib.parse import urlencode

from flask import (Blueprint, Response, abort, current_app, flash, redirect, render_template,
                   request, url_for)
from flask_wtf.csrf import generate_csrf
from werkzeug.wrappers import Response as BaseResponse

from element import (ElementError, Home, Invocation, Principal, error_body, invoke,
                     session_principal)
from index import StoreError
from source import SourceError

from ..errors import STATUS, ApiError
from ..events import event_stream
from .session import check_csrf, current, current_session, sign_in, sign_out

__all__ = ["blueprint"]

blueprint = Blueprint("console", __name__, url_prefix="/console",
                      template_folder="templates", static_folder="static")
ERRORS = (ElementError, StoreError, SourceError)
LEVELS = {"viewer": {"read"}, "member": {"read", "write", "execute"},
          "admin": {"read", "write", "execute", "admin"}}
TABS = ("memories", "spec", "source", "activity")


def _home() -> Home:
    found: Home = current_app.extensions["triform"]
    return found


def _op(path: str, op: str, *, body: Mapping[str, Any] | None = None,
        query: Mapping[str, str] | None = None, params: Mapping[str, str] | None = None,
        headers: Mapping[str, str] | None = None) -> Any:
    """One op as the signed-in user (its answer). :raise ElementError...: the op's error."""
    # No session: no principal, and invoke answers 401 as for a missing token.
    return invoke(_home(), Invocation(path, op=op, principal=current(), body=body,
                                      query=query or {}, params=params or {},
                                      headers=headers or {})).body


def _message(exc: BaseException) -> str:
    error = error_body(exc)["error"]
    return f"{error['code']}: {error['message']}"


@blueprint.before_request
def _guard() -> BaseResponse | None:
    if request.endpoint in ("console.login", "console.static"):
        return None
    if current() is None:
        flash("Sign in with a token.", "error")
        return redirect(url_for("console.login"))
    if request.method == "POST":
        check_csrf()
    return None


@blueprint.after_request
def _headers(response: Response) -> Response:
    # Pages show memories: never cached, framed or sent a referrer; scripts only our own.
    response.headers["Cache-Control"] = "no-store"
    response.headers["X-Frame-Options"] = "DENY"
    response.headers["Referrer-Policy"] = "no-referrer"
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Content-Security-Policy"] = (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; "
        "form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
    return response


@blueprint.app_context_processor
def _csrf() -> dict[str, Any]:
    return {"csrf_token": generate_csrf}


@blueprint.app_template_global()
def eval_score(value: float | None) -> str:
    """An eval score as the page shows it (``-`` when there was nothing to score)."""
    return "-" if value is None else f"{value:.2f}"


@blueprint.app_template_global()
def eval_delta(value: float | None) -> str:
    """A difference of scores, signed (draft minus live)."""
    return "-" if value is None else f"{value:+.2f}"


@blueprint.app_template_global()
def may(level: str) -> bool:
    """Whether the signed-in role holds ``level`` (shows or hides a control; the op path
    decides)."""
    signed = current()
    return bool(signed and level in LEVELS.get(signed.role, set()))


def _page(template: str, status: int = 200, **values: Any) -> tuple[str, int]:
    principal: Principal | None = current()
    return render_template(f"console/{template}", principal=principal, **values), status


@blueprint.errorhandler(ApiError)
def _failed(exc: BaseException) -> tuple[str, int]:
    error = error_body(exc)["error"]
    return _page("error.html", STATUS[error["class"]], error=error)


# -- signing in ------------------------------------------------------------------------------

@blueprint.route("/login", methods=["GET", "POST"])
def login() -> Any:
    if request.method == "GET":
        return _page("login.html")
    check_csrf()
    try:
        principal = sign_in(request.form.get("token", ""))
    except ERRORS as exc:
        return _page("login.html", 401, error=_message(exc))
    return redirect(url_for("console.circle", circle=principal.circle))


@blueprint.post("/logout")
def logout() -> BaseResponse:
    sign_out()
    return redirect(url_for("console.login"))


@blueprint.get("/")
def index() -> BaseResponse:
    signed = current()
    assert signed is not None       # _guard
    return redirect(url_for("console.circle", circle=signed.circle))


@blueprint.get("/events")
def events() -> Response:
    """The activity stream of ``/api/events``, for the signed-in session (checked again
    as the stream runs: signing out or revoking the token ends it)."""
    session_id, catalog = current_session(), _home().catalog
    return event_stream(lambda: session_principal(catalog, session_id))


# -- pages -----------------------------------------------------------------------------------

@blueprint.get("/c/<circle>")
def circle(circle: str) -> Any:
    try:
        stats = _op(circle, "batch_stats")
    except ERRORS as exc:
        return _failed(exc)
    return _page("circle.html", circle=circle, stats=stats)


def _filters() -> dict[str, str]:
    names = ("subject_type", "subject_id", "category", "cursor", "include_superseded")
    return {k: request.args[k] for k in names if request.args.get(k)}


def _memories_tab(path: str) -> dict[str, Any]:
    values: dict[str, Any] = {"filters": _filters(), "query": request.args.get("q", "")}
    listing = _op(path, "list", query=values["filters"])
    if request.args.get("history"):
        # One memory's versions (issue 23), from the ``history`` op.
        values["history"] = _op(path, "history",
                                params={"memory_id": request.args["history"]})
    groups: dict[tuple[str, str] | None, list[dict[str, Any]]] = {}
    for memory in listing["memories"]:
        key = (memory["subject_type"], memory["subject_id"]) if memory.get("subject_id") \
            else None
        groups.setdefault(key, []).append(memory)
    values["groups"] = sorted(groups.items(), key=lambda g: ("" if g[0] is None else "~",
                                                             g[0] or ("", "")))
    if listing["next_cursor"]:
        values["older"] = "?" + urlencode({"tab": "memories", **values["filters"],
                                           "cursor": listing["next_cursor"]})
    if values["query"]:
        body = {"query": values["query"]}
        for field in ("context", "intention"):
            if request.args.get(field):
                body[field] = request.args[field]
        for field in ("subject_type", "subject_id"):
            if values["filters"].get(field):
                body[field] = values["filters"][field]
        values["search"] = _op(path, "search", body=body)
    return values


def _source_tab(path: str) -> dict[str, Any]:
    branches = _op(path, "source_branches")
    diffs = {}
    for step in branches["promotions"]:
        if branches["branches"][step["from"]]["commit"] and \
                branches["branches"][step["to"]]["commit"]:
            diffs[step["to"]] = _op(path, "source_diff3", query={
                "theirs": step["from"], "ours": step["to"]})
    return {"branches": branches, "diffs": diffs}


@blueprint.get("/e/<circle>/<slug>")
def element(circle: str, slug: str) -> Any:
    path = f"{circle}/{slug}"
    try:
        spec = _op(path, "spec")
        kind = spec["spec"]["element_type"]
        tabs = [t for t in TABS if t != "memories" or kind == "memory"]
        tab = request.args.get("tab", tabs[0])
        if tab not in tabs:
            abort(404)
        values: dict[str, Any] = {}
        if tab == "memories":
            values = _memories_tab(path)
        elif tab == "spec":
            values = {"versions": _op(path, "version", query={"history": "true"})}
        elif tab == "source":
            values = _source_tab(path)
        else:
            values = {"activity": _op(path, "activity", query={"limit": "50"})}
    except ERRORS as exc:
        return _failed(exc)
    return _page("element.html", path=path, circle=circle, slug=slug, spec=spec, kind=kind,
                 tabs=tabs, tab=tab, **values)


# -- actions: one op each, then back to the page ---------------------------------------------

def _back(circle: str, slug: str, tab: str) -> BaseResponse:
    kept = {k: v for k, v in request.form.items() if k.startswith("keep_") and v}
    query = {"tab": tab, **{k[5:]: v for k, v in kept.items()}}
    return redirect(url_for("console.element", circle=circle, slug=slug) + "?" +
                    urlencode(query), code=303)


def _act(circle: str, slug: str, tab: str, op: str, done: str, **call: Any) -> BaseResponse:
    try:
        _op(f"{circle}/{slug}", op, **call)
    except ERRORS as exc:
        flash(_message(exc), "error")
    else:
        flash(done, "ok")
    return _back(circle, slug, tab)


@blueprint.post("/e/<circle>/<slug>/memories/<memory_id>/update")
def update(circle: str, slug: str, memory_id: str) -> BaseResponse:
    body = {k: request.form[k] for k in ("content", "category") if k in request.form}
    return _act(circle, slug, "memories", "update", "Memory updated.", body=body,
                params={"memory_id": memory_id})


@blueprint.post("/e/<circle>/<slug>/memories/<memory_id>/delete")
def delete(circle: str, slug: str, memory_id: str) -> BaseResponse:
    return _act(circle, slug, "memories", "delete", "Memory deleted.",
                params={"memory_id": memory_id})


@blueprint.post("/e/<circle>/<slug>/forget")
def forget(circle: str, slug: str) -> BaseResponse:
    subject_id = request.form.get("subject_id", "")
    # The typed confirmation is the op's own X-Confirm: without the subject typed out, the
    # op answers MEMORY_CONFIRM_REQUIRED and deletes nothing.
    typed = request.form.get("confirm", "").strip()
    headers = {"X-Confirm": "destructive"} if typed and typed == subject_id else {}
    return _act(circle, slug, "memories", "forget_subject",
                f"Forgot every memory about {subject_id}.", headers=headers,
                body={"subject_type": request.form.get("subject_type", ""),
                      "subject_id": subject_id})


@blueprint.post("/e/<circle>/<slug>/restore")
def restore(circle: str, slug: str) -> BaseResponse:
    version = request.form.get("version", "")
    return _act(circle, slug, "spec", "restore", f"Restored version {version}.",
                body={"version": version})


@blueprint.post("/e/<circle>/<slug>/promote")
def promote(circle: str, slug: str) -> BaseResponse:
    to = request.form.get("to", "")
    body: dict[str, Any] = {"to": to}
    if request.form.get("reason", "").strip():
        body["reason"] = request.form["reason"]
    if request.form.get("force") == "true":
        body["force"] = True
    return _act(circle, slug, "source", "source_promote", f"Promoted to {to}.", body=body)


@blueprint.post("/e/<circle>/<slug>/eval")
def run_eval(circle: str, slug: str) -> BaseResponse:
    """The ``eval`` op on a branch; its scores are then the branch's last eval on the page,
    and the flash names the failing cases."""
    branch = request.form.get("branch", "draft")
    try:
        answer = _op(f"{circle}/{slug}", "eval", body={"branch": branch})
    except ERRORS as exc:
        flash(_message(exc), "error")
        return _back(circle, slug, "source")
    summary = answer["summary"]
    rate = "-" if summary["pass_rate"] is None else f"{summary['pass_rate']:.2f}"
    failing = f"; failing: {', '.join(summary['failing'])}" if summary["failing"] else ""
    flash(f"Evals of {branch}: {summary['passed']} of {summary['cases']} cases passed "
          f"(pass rate {rate}){failing}.", "ok" if not summary["failed"] else "error")
    return _back(circle, slug, "source")
