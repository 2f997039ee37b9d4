"""Source control of an element: status, branches, diff3, merge, promote, validate.

Each op is a thin adapter over ``source/`` (the git library) plus what only this layer knows:
the element's catalog row, its spec mirror and the request's host (clone URLs).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from index import InvalidMemory
from source import (SPEC_PATH, MergeConflict, SourceError, branches, diff3, export_findings,
                    history, list_files, merge, promote, read_spec, resolve_rev, validate)

from ..errors import ElementError, InvalidRequest, error_body
from ..evals import check_promotion, eval_reasons, eval_status
from ..evals.gates import MAX_REASON
from ..governance.guard import may_govern
from ..spec.mirror import sync_spec
from ..spec.spec_file import normalize_spec
from .files import repo_of
from .op import Activity, OpCall, OpResult, OpTable
from .schemas import (BOOLEAN, COMMIT, MESSAGE, OBJECT, REV, STRING, array, integer,
                      nullable, obj)

__all__ = ["ops", "clone_url", "spec_findings", "eval_findings", "rev_of"]

ops = OpTable()

_HOST = re.compile(r"[A-Za-z0-9.-]{1,253}(:[0-9]{1,5})?|\[[0-9A-Fa-f:.]{2,45}\](:[0-9]{1,5})?")


def rev_of(value: Any, name: str, default: str | None = "draft") -> str:
    """A branch name or commit id from a request; ``default`` when absent.

    :raise InvalidRequest: absent without a default, or not a plausible rev.
    """
    if value is None or value == "":
        if default is None:
            raise InvalidRequest(name, "is required (a branch draft/demo/live or a commit id)")
        return default
    if not isinstance(value, str) or len(value) > 64:
        raise InvalidRequest(name, "must be a branch (draft, demo, live) or a commit id")
    return value




def _with_token(url: str) -> str:
    """The clone URL with ``$TOKEN`` as the password, for a shell to expand."""
    scheme, _, rest = url.partition("://")
    return f"{scheme}://triform:$TOKEN@{rest}"


def clone_url(call: OpCall) -> str:
    """``<base>/git/<path>.git``: base is ``PUBLIC_URL`` when configured, else
    ``http://<Host header>`` (a malformed Host falls back to localhost)."""
    base = call.home.public_url
    if not base:
        host = str(call.headers.get("Host") or "")
        base = f"http://{host if _HOST.fullmatch(host) else 'localhost'}"
    return f"{base.rstrip('/')}/git/{call.element.path}.git"


def eval_findings(call: OpCall, rev: str) -> list[dict[str, Any]]:
    """Eval files of ``rev`` that pass the validator but hold what a store or a search
    would refuse (``element/evals/cases.py``), as findings."""
    found = []
    for problem in eval_reasons(repo_of(call), rev):
        path, _, reason = problem.partition(": ")
        found.append({"path": path, "kind": "eval", "reason": reason})
    return found


def spec_findings(call: OpCall, rev: str) -> list[dict[str, Any]]:
    element = call.element
    try:
        raw = read_spec(repo_of(call), branch=rev)
        if raw is None:
            return [{"path": SPEC_PATH, "kind": "spec", "reason": "missing"}]
        normalize_spec(raw, circle=element.circle, element_type_name=element.element_type,
                       slug=element.slug)
    except (ElementError, SourceError, InvalidMemory) as exc:
        return [{"path": SPEC_PATH, "kind": "spec", "reason": str(exc)}]
    return []


@ops.op("source_status", "GET", "source/status", "read", summary="Source control status",
        response=obj({"element": STRING, "clone_url": STRING, "checkout": array(STRING),
                      "branches": OBJECT, "promotions": array(OBJECT),
                      "draft_commit": nullable(COMMIT), "draft": nullable(OBJECT),
                      "spec": OBJECT, "child_source_links": integer(0), "export": OBJECT,
                      "health": OBJECT, "warnings": array(STRING), "auth": OBJECT},
                     ["element", "clone_url", "checkout", "branches", "promotions",
                      "draft_commit", "draft", "spec", "child_source_links", "export",
                      "health", "warnings", "auth"]),
        description="The clone URL, checkout commands, branch tips, promotion state, the "
                    "portable export summary, health findings and auth hints.")
def source_status(call: OpCall) -> OpResult:
    synced = sync_spec(call.home, call.element, principal=call.who)
    element, repo = synced.element, repo_of(call)
    url = clone_url(call)
    folder = element.slug or element.circle
    info = branches(repo)
    tip = info["branches"]["draft"]
    last = history(repo, branch="draft", limit=1)[0] if tip else None
    warnings: list[str] = [synced.warning] if synced.warning else []
    for step in info["promotions"]:
        if step["behind"]:
            warnings.append(f"{step['to']} has diverged from {step['from']} "
                            f"({step['behind']} commits): promotion is refused")
    findings = validate(repo, "draft") + spec_findings(call, "draft") \
        + eval_findings(call, "draft") if tip else []
    # Portable means importable: the import's own check, over every commit of every branch.
    portable = not export_findings(repo) and not spec_findings(call, "draft") if tip else False
    files = list_files(repo, branch="draft") if tip else []
    children = [c for c in call.home.catalog.children(element)
                if Path(call.home.repo_path(c)).is_dir()]
    kind = "json envelope (one git bundle per child element)" \
        if element.element_type == "circle" else "git bundle v2 (draft, demo, live, HEAD)"
    return OpResult({
        "element": element.path, "clone_url": url,
        "checkout": [f"git clone {_with_token(url)} {folder}", f"cd {folder}",
                     "git checkout draft   # the only branch that accepts pushes",
                     "git push origin draft"],
        "branches": info["branches"], "promotions": info["promotions"],
        "draft_commit": tip,
        "draft": {"commit": last["commit"], "message": last["message"].strip(),
                  "author": last["author"], "time": last["time"]} if last else None,
        "spec": {"version": element.version, "mirrored": synced.warning is None},
        "child_source_links": len(children),
        "export": {"op": f"GET /api/{element.path}/ops/export/bundle", "format": kind,
                   "files": len(files), "bytes": sum(f["size"] for f in files),
                   "portable": portable},
        "health": {"ok": not findings and not warnings, "checked": "draft",
                   "findings": findings},
        "warnings": warnings,
        "auth": {"clone": "a Read token (viewer, member or admin of the circle) as the "
                          "password of any user name, or an 'Authorization: Bearer' header",
                 "push": "a Write token (member or admin); only draft accepts pushes, demo "
                         "and live move through source_promote",
                 "example": f'git -c http.extraHeader="Authorization: Bearer $TOKEN" '
                            f"clone {url}"},
    })


@ops.op("source_branches", "GET", "source/branches", "read", summary="draft/demo/live tips",
        response=obj({"branches": OBJECT, "promotions": array(OBJECT), "policy": OBJECT,
                      "evals": nullable(obj({"last": OBJECT, "draft_vs_live": nullable(
                          OBJECT)}, ["last", "draft_vs_live"]))},
                     ["branches", "promotions", "policy"]),
        description="Each branch's tip; on a memory element also each branch's last "
                    "recorded eval (current: it ran at the tip) and draft's scores minus "
                    "live's (docs/evals.md).")
def source_branches(call: OpCall) -> OpResult:
    repo = repo_of(call)
    info = branches(repo)
    heads = {}
    for name, tip in info["branches"].items():
        top = history(repo, branch=name, limit=1)[0] if tip else None
        heads[name] = {"commit": tip, "message": top["message"].strip() if top else None,
                       "time": top["time"] if top else None}
    answer: dict[str, Any] = {
        "branches": heads, "promotions": info["promotions"],
        "policy": {"draft": "git push, source_merge, readme_update, spec_update",
                   "demo": "source_promote from draft", "live": "source_promote from demo"}}
    if call.element.element_type == "memory":
        answer["evals"] = eval_status(call.home.catalog, call.element.id,
                                      info["branches"])
    return OpResult(answer)


_DIFF3 = obj({"clean": BOOLEAN, "fast_forward": BOOLEAN, "conflicts": array(OBJECT)},
             ["clean", "fast_forward", "conflicts"], closed=False)


@ops.op("source_diff3", "GET", "source/diff3", "read", summary="Preview a three-way merge",
        query={"theirs": {**REV, "description": "the commit to merge (required)"},
               "ours": {**REV, "description": "default: the draft tip"}},
        response=_DIFF3,
        description="Read-only: what merging theirs into ours would give, per file, with "
                    "conflicts (base, ours, theirs, merged with markers).")
def source_diff3(call: OpCall) -> OpResult:
    theirs = rev_of(call.query.get("theirs"), "theirs", None)
    ours = rev_of(call.query.get("ours"), "ours")
    return OpResult(diff3(repo_of(call), theirs, ours))


@ops.op("source_merge", "POST", "source/merge", "write", summary="Merge a commit into draft",
        request=obj({"theirs": REV, "message": nullable(MESSAGE)}, ["theirs"]),
        body_required=True,
        response=obj({"merged": BOOLEAN, "up_to_date": BOOLEAN, "fast_forward": BOOLEAN,
                      "commit": nullable(COMMIT), "spec_version": integer(1),
                      "warnings": array(STRING)}, ["merged"], closed=False),
        description="A clean merge commits and advances draft; conflicts write nothing and "
                    "answer 409 with the conflict set (the error shape plus ours, theirs "
                    "and conflicts).")
def source_merge(call: OpCall) -> OpResult:
    """Merge ``theirs`` into draft; on conflicts 409 with the conflict set, nothing written."""
    theirs = rev_of(call.body.get("theirs"), "theirs", None)
    message = call.body.get("message")
    if message is not None and len(message) > 500:
        raise InvalidRequest("message", "must be a string of at most 500 characters")
    try:
        result = merge(repo_of(call), theirs, message=message)
    except MergeConflict as exc:
        return OpResult({**error_body(exc), "merged": False, "ours": exc.ours,
                         "theirs": exc.theirs, "conflicts": exc.conflicts}, status=409)
    synced = sync_spec(call.home, call.element, principal=call.who, via="merge",
                       admin=may_govern(call.principal))
    result.update(spec_version=synced.element.version,
                  warnings=[synced.warning] if synced.warning else [])
    return OpResult(result, activity=() if result["up_to_date"] else [Activity(
        {"theirs": theirs, "commit": result["commit"],
         "fast_forward": result["fast_forward"]})])


@ops.op("source_promote", "POST", "source/promote", "write", summary="Promote a Source branch",
        request=obj({"to": {"type": "string", "enum": ["demo", "live"]},
                     "force": {**BOOLEAN, "default": False,
                               "description": "an admin passes failing eval gates (with a "
                                              "reason)"},
                     "reason": {"type": "string", "minLength": 1, "maxLength": MAX_REASON,
                                "pattern": r"\S",
                                "description": "why; recorded in activity (needed with "
                                               "force, and to change a protected "
                                               "property)"}},
                    ["to"]),
        body_required=True,
        response=obj({"promoted": BOOLEAN, "to": STRING, "commit": nullable(COMMIT),
                      "previous": nullable(COMMIT), "gates": OBJECT}, ["promoted"],
                     closed=False),
        description="Fast-forwards demo to draft or live to demo; from then on that "
                    "branch's spec governs runtime ops in that environment. A memory "
                    "element's promotion_gates are checked first (docs/evals.md): a "
                    "protected property needs an admin, a failing eval gate answers 409 "
                    "PROMOTION_GATE_FAILED naming the failing cases.")
def source_promote(call: OpCall) -> OpResult:
    """Fast-forward demo to draft or live to demo; from then on that branch's spec governs
    runtime ops in that environment (``X-Triform-Env`` or the server's ``--env``). The
    element's promotion gates are checked first, and the commit they checked is the one
    that moves."""
    to = call.body["to"]
    if to not in ("demo", "live"):
        raise InvalidRequest("to", "must be 'demo' (from draft) or 'live' (from demo)")
    reason = call.body.get("reason")
    if reason is not None and (len(reason) > MAX_REASON or not reason.strip()):
        raise InvalidRequest("reason", f"must be text of 1 to {MAX_REASON} characters")
    checked = check_promotion(call.home, call.element, call.principal, to,
                              force=call.body.get("force", False), reason=reason)
    result = promote(repo_of(call), to, commit=checked.commit)
    detail: dict[str, Any] = {"to": to, "commit": result["commit"],
                              "previous": result["previous"]}
    if checked.report:
        result["gates"] = checked.report
        detail["gates"] = {**checked.report, "eval": _brief(checked.report["eval"])}
    if reason is not None:
        detail["reason"] = reason
    return OpResult(result, activity=[Activity(detail)] if result["promoted"] else ())


def _brief(verdict: dict[str, Any] | None) -> dict[str, Any] | None:
    """A gate's eval as activity keeps it: the scores and the first failing cases."""
    if verdict is None:
        return None
    return {k: v[:50] if isinstance(v, list) else v for k, v in verdict.items()
            if k != "problems"}


@ops.op("source_validate", "POST", "source/validate", "read", summary="Validate a branch",
        request=obj({"branch": REV}),
        response=obj({"branch": STRING, "commit": nullable(COMMIT), "ok": BOOLEAN,
                      "findings": array(OBJECT)}, ["branch", "commit", "ok", "findings"]),
        description="Runtime data, generated output, secret material, unreadable objects "
                    "and a spec that does not fit the type, each with path and reason.")
def source_validate(call: OpCall) -> OpResult:
    branch = rev_of(call.body.get("branch"), "branch")
    repo = repo_of(call)
    commit = resolve_rev(repo, branch)
    findings = validate(repo, commit) + spec_findings(call, commit) \
        + eval_findings(call, commit)
    return OpResult({"branch": branch, "commit": commit, "ok": not findings,
                     "findings": findings})
