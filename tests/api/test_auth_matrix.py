"""Every op x every kind of caller gets the status class the auth rules promise.

Callers: no token (401), a viewer, member and admin of the element's circle (403 exactly
when the role lacks the op's level, else anything but 401/403), and an admin of another
circle (403). Bodies are minimal but valid-ish, so an allowed call may still answer
400/404/409/501; what matters here is that it was let through.

Also: every op of the reference sheet (``docs/reference/seed-memory-element.md``, the
project's copy of the contract) is in the registry with the sheet's method, path and level.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any
from collections.abc import Iterator

import pytest

from element import ROLES, Op, registry
from tests.helpers import Server, serve

ROOT = Path(__file__).resolve().parents[2]
SHEET_NAME = "seed-memory-element.md"
SHEET = ROOT / "docs" / "reference" / SHEET_NAME
CALLERS = ("none", "viewer", "member", "admin", "other")

#: A minimal body per op that would pass validation where that is cheap.
BODIES: dict[str, dict[str, Any]] = {
    "store": {"content": "matrix", "category": "fact"},
    "search": {"query": "matrix"},
    "update": {"content": "matrix 2"},
    "forget_subject": {"subject_type": "guest", "subject_id": "nobody"},
    "create": {"element_type": "prompt", "slug": "p-{caller}"},
    "spec_update": {"properties": {}},
    "readme_update": {"content": "# matrix\n"},
    "update_meta": {"meta": {"matrix": True}},
    "source_promote": {"to": "demo"},
    "promote": {"to": "demo"},
    "restore": {"version": 1},
    "compose": {"add": [], "remove": []},
    "remove-modifier": {"attachment_id": "none"},
    "observe": {"turns": []},
    "import_bundle": {"bundle_base64": ""},
}

#: Which element each op is called on: memory ops on the memory, project ops on a project.
def element_for(op: Op) -> str:
    if op.applies_to("memory"):
        return "demo/matrix"
    if op.applies_to("project"):
        return "demo/proj"
    return "demo/matrix"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = serve(tmp_path_factory.mktemp("matrix"))
    root = srv.home.catalog.element_at("demo")
    srv.home.create_element(circle="demo", element_type_name="memory", slug="matrix",
                            parent=root)
    srv.home.create_element(circle="demo", element_type_name="project", slug="proj",
                            parent=root)
    yield srv
    srv.close()


def expected(op: Op, caller: str) -> str:
    if caller == "none":
        return "401"
    if caller == "other":
        return "403"
    return "allowed" if op.level in ROLES[caller] else "403"


def call(server: Server, op: Op, caller: str, memory_id: str) -> Any:
    path = f"/api/{element_for(op)}/ops/" + op.path.replace("{memory_id}", memory_id)
    body = {k: (v.format(caller=caller) if isinstance(v, str) else v)
            for k, v in BODIES.get(op.name, {}).items()}
    client = server.client(None if caller == "none" else caller)
    headers = {"X-Confirm": "destructive"} if op.name == "forget_subject" else None
    return client.request(op.method, path, body if op.method != "GET" else None,
                          headers=headers)


# Ops that change the element's state last, so the others see it ready.
_LAST = ("disable", "restore")
ORDER = sorted(registry().ops, key=lambda n: (n in _LAST, n))


@pytest.mark.parametrize("name", ORDER)
def test_auth_matrix(server: Server, name: str) -> None:
    op = registry()[name]
    memory = server.client("admin").post("/api/demo/matrix/ops/store",
                                         {"content": f"for {name}", "category": "fact"})
    assert memory.status == 201, memory.body
    memory_id = memory.body["memory"]["id"]
    seen = {}
    for caller in CALLERS:
        reply = call(server, op, caller, memory_id)
        seen[caller] = reply.status
        want = expected(op, caller)
        if want == "allowed":
            assert reply.status not in (401, 403), (name, caller, reply.status, reply.body)
            assert reply.status < 500, (name, caller, reply.body)
        else:
            assert reply.status == int(want), (name, caller, reply.status, reply.body)
            error = reply.body["error"]
            assert error["code"] == ("UNAUTHORIZED" if want == "401" else "FORBIDDEN")
    if name == "disable" and seen["admin"] == 200:
        server.client("admin").post("/api/demo/matrix/ops/enable", {})


def test_matrix_covers_every_level() -> None:
    assert {op.level for op in registry()} == {"read", "write", "execute",
                                                          "admin"}


# -- the reference sheet --------------------------------------------------------------------

_OP_LINE = re.compile(r"^(Get|Post|Patch|Put|Delete) /ops/(\S+) \| Auth: (\w+)\s*$")


def sheet_ops(text: str) -> dict[str, tuple[str, str, str]]:
    """name -> (METHOD, path under /ops/, level) from the sheet's Operations section."""
    section = text.split("\nOperations\n", 1)[1].split("\nError Codes\n", 1)[0]
    found: dict[str, tuple[str, str, str]] = {}
    previous = ""
    for line in section.splitlines():
        match = _OP_LINE.match(line.strip())
        if match:
            method, path, level = match.groups()
            found[previous] = (method.upper(), path, level.lower())
        elif line.strip():
            previous = line.strip()
    return found


def test_every_sheet_op_is_registered_as_the_sheet_says() -> None:
    ops = sheet_ops(SHEET.read_text())
    assert len(ops) >= 35, sorted(ops)
    for name, (method, op_path, level) in ops.items():
        assert name in registry().ops, f"sheet op {name!r} is not in the registry"
        op = registry()[name]
        assert (op.method, op.path, op.level) == (method, op_path, level), name


def test_the_copy_of_the_sheet_is_the_shared_one() -> None:
    """Where the shared sheet sits beside the repository (a session, CI), the project's
    copy must be it: a changed contract is copied in, and the test above then says what
    the registry lacks."""
    shared = ROOT.parent / "shared" / "docs" / SHEET_NAME
    if not shared.is_file():
        pytest.skip("no shared/docs beside the repository (a clone elsewhere)")
    assert SHEET.read_text() == shared.read_text(), f"copy {shared} to {SHEET}"
