"""Files of an element's repository: ``readme``, ``readme_update``, ``source``, and the
element's ``intention`` (what it is for, with what it inherits)."""

from __future__ import annotations

import base64
from pathlib import Path
from typing import Any

from source import BRANCHES, branch_tips, commit_files, read_file, resolve_rev

from ..errors import ElementError, InvalidRequest
from ..spec.types import TYPES
from .registry import Activity, OpCall, OpResult, OpTable
from .schemas import BOOLEAN, BRANCH, COMMIT, MESSAGE, STRING, integer, nullable, obj

__all__ = ["ops", "README", "MAX_README_BYTES", "CATEGORY_INTENTIONS", "repo_of",
           "branch_of"]

ops = OpTable()

README = "README.md"
MAX_README_BYTES = 512 * 1024

#: What an element of each type category is for; inherited by ``intention``.
CATEGORY_INTENTIONS = {
    "namespace": "Gathers one circle's elements and people under one name and one set of "
                 "permissions.",
    "composition": "Composes member elements into something promoted and shipped together.",
    "data": "Keeps knowledge that agents and other elements read and write.",
    "actor": "Acts: converses, decides and uses the elements bonded to it.",
    "modifier": "Changes how the element it attaches to may be used.",
    "resource": "Supplies content that other elements use.",
}


def repo_of(call: OpCall) -> Path:
    return Path(call.home.repo_path(call.element))


def branch_of(value: Any) -> str:
    """A branch name for file reads: commits by id are not served (a refused push leaves
    its objects behind until repair prunes them; they must not be readable)."""
    if value is None or value == "":
        return "draft"
    if value not in BRANCHES:
        raise InvalidRequest("branch", "must be draft, demo or live")
    return str(value)


def _decode(data: bytes) -> tuple[str, str]:
    """``(content, encoding)``: UTF-8 text when it decodes, else base64."""
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        return base64.b64encode(data).decode("ascii"), "base64"


@ops.op("readme", "GET", "readme", "read", summary="Get README.md", when_disabled=True,
        query={"branch": BRANCH},
        response=obj({"path": STRING, "branch": BRANCH, "format": {"const": "markdown"},
                      "exists": BOOLEAN, "content": STRING},
                     ["path", "branch", "format", "exists", "content"]),
        description="README.md of a branch (default draft); empty content, not an error, "
                    "when absent.")
def readme(call: OpCall) -> OpResult:
    branch = branch_of(call.query.get("branch"))
    data = read_file(repo_of(call), README, branch=branch)
    return OpResult({"path": README, "branch": branch, "format": "markdown",
                     "exists": data is not None,
                     "content": data.decode("utf-8", "replace") if data else ""})


@ops.op("readme_update", "POST", "readme_update", "write", summary="Update README.md on draft",
        request=obj({"content": STRING, "message": MESSAGE}, ["content"]),
        body_required=True,
        response=obj({"path": STRING, "branch": {"const": "draft"}, "commit": COMMIT,
                      "changed": BOOLEAN}, ["path", "branch", "commit", "changed"]),
        description=f"Commits README.md (at most {MAX_README_BYTES} bytes) to draft.")
def readme_update(call: OpCall) -> OpResult:
    data = call.body["content"].encode("utf-8")
    if len(data) > MAX_README_BYTES:
        raise InvalidRequest("content", f"must be at most {MAX_README_BYTES} bytes")
    message = call.body.get("message") or "Update README.md"
    if len(message) > 500:
        raise InvalidRequest("message", "must be a string of at most 500 characters")
    repo = repo_of(call)
    before = branch_tips(repo)["draft"]
    commit = commit_files(repo, {README: data}, message=message)
    changed = commit != before
    return OpResult({"path": README, "branch": "draft", "commit": commit, "changed": changed},
                    activity=[Activity({"commit": commit, "bytes": len(data)})]
                    if changed else ())


@ops.op("source", "GET", "source", "read", summary="Read one file from a branch",
        query={"path": {**STRING, "description": "a file path relative to the repo root"},
               "branch": BRANCH},
        response=obj({"path": STRING, "branch": BRANCH, "commit": nullable(COMMIT),
                      "exists": BOOLEAN, "size": integer(0),
                      "encoding": {"type": "string", "enum": ["utf-8", "base64"]},
                      "content": STRING},
                     ["path", "branch", "commit", "exists", "size", "encoding", "content"]),
        description="'..', a leading '/' and NUL are refused; a missing file is empty "
                    "content with exists: false.")
def source_file(call: OpCall) -> OpResult:
    path = call.query.get("path")
    if not path:
        raise InvalidRequest("path", "is required (a file path relative to the repo root)")
    branch = branch_of(call.query.get("branch"))
    repo = repo_of(call)
    data = read_file(repo, path, branch=branch)
    content, encoding = _decode(data) if data is not None else ("", "utf-8")
    return OpResult({"path": path, "branch": branch, "commit": resolve_rev(repo, branch),
                     "exists": data is not None, "size": len(data) if data else 0,
                     "encoding": encoding, "content": content})


@ops.op("intention", "GET", "intention", "read",
        summary="Intention with its inheritance chain",
        response=obj({"direct": nullable(obj({"source": STRING, "text": STRING},
                                              ["source", "text"])),
                      "inherited": {"type": "array", "items": {"type": "object"}},
                      "resolved": STRING}, ["direct", "inherited", "resolved"]),
        description="direct: the element's own intention property, else its description "
                    "property, else its description. inherited: its type category's "
                    "intention, then the circle root's. resolved: all of them, nearest "
                    "first.")
def intention(call: OpCall) -> OpResult:
    element = call.element
    direct = None
    for source, value in (("properties.intention", element.properties.get("intention")),
                          ("properties.description", element.properties.get("description")),
                          ("description", element.description)):
        if isinstance(value, str) and value.strip():
            direct = {"source": source, "text": value.strip()}
            break
    category = TYPES[element.element_type].category
    inherited: list[dict[str, Any]] = [{"level": "category", "name": category,
                                        "text": CATEGORY_INTENTIONS.get(category, "")}]
    if element.element_type != "circle":
        try:
            root = call.home.catalog.element_at(element.circle)
        except ElementError:
            root = None
        text = (root.description or "").strip() if root else ""
        if text:
            inherited.append({"level": "root", "path": element.circle, "text": text})
    parts = ([direct["text"]] if direct else []) + [i["text"] for i in inherited if i["text"]]
    return OpResult({"direct": direct, "inherited": inherited, "resolved": " ".join(
        p if p.endswith((".", "!", "?")) else p + "." for p in parts)})
