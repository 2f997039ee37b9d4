"""The op route's plain requests served outside Flask's dispatch (``api/routes.py``,
``OpRoutes``) answer what Flask's route answers: the same status, headers and body, for
answers and for every error; the others still go through Flask."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import flask
import pytest
from flask import Flask
from hypothesis import given, settings
from hypothesis import strategies as st
from werkzeug.test import Client

from tests.helpers import Server, serve


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = serve(tmp_path_factory.mktemp("op-routes") / "home")
    member = srv.client("member")
    for i in range(3):
        stored = member.post("/api/demo/memory/ops/store",
                             {"content": f"Maria likes tea number {i}", "category": "fact",
                              "subject_type": "guest", "subject_id": "maria"})
        assert stored.status == 201, stored.body
    yield srv
    srv.close()


def _both(srv: Server, method: str, path: str, *, role: str | None = "viewer",
          body: bytes | None = None, headers: dict[str, str] | None = None,
          ) -> tuple[tuple[int, dict[str, str], bytes], tuple[int, dict[str, str], bytes], bool]:
    """The answer through the app as served (the op route's plain requests outside Flask's
    dispatch), through Flask's own WSGI app, and whether the first went through Flask."""
    sent = dict(headers or {})
    if role is not None:
        sent["Authorization"] = f"Bearer {srv.tokens[role]}"
    dispatched: list[object] = []

    def seen(sender: Any, **_: Any) -> None:
        dispatched.append(sender)

    answers = []
    for wsgi in (srv.app, lambda e, s: Flask.wsgi_app(srv.app, e, s)):
        dispatched.clear()
        with flask.request_started.connected_to(seen, srv.app):
            response = Client(wsgi).open(path, method=method, data=body, headers=sent)
        if not answers:
            through_flask = bool(dispatched)
        heads = {k: v for k, v in response.headers.items() if k != "X-Request-ID"}
        answers.append((response.status_code, heads, response.get_data()))
    return answers[0], answers[1], through_flask


def _json(value: Any) -> bytes:
    return json.dumps(value).encode()


_JSON = {"Content-Type": "application/json"}
CASES = [
    ("GET", "/api/demo/memory/ops/memories", None, {}, "viewer"),
    ("GET", "/api/demo/memory/ops/memories?limit=2&subject_type=guest&subject_id=maria",
     None, {}, "viewer"),
    ("GET", "/api/demo/memory/ops/memories?limit=x", None, {}, "viewer"),
    ("GET", "/api/demo/memory/ops/memories?nope=1", None, {}, "viewer"),
    ("GET", "/api/demo/memory/ops/stats", None, {}, "viewer"),
    ("GET", "/api/demo/memory/ops/memories/m_missing", None, {}, "viewer"),
    ("POST", "/api/demo/memory/ops/search", _json({"query": "tea"}), _JSON, None),
    ("POST", "/api/demo/memory/ops/search", _json({"query": "tea"}), _JSON, "other"),
    ("POST", "/api/demo/memory/ops/search", b"{not json", _JSON, "viewer"),
    ("POST", "/api/demo/memory/ops/search", b"[1, 2]", _JSON, "viewer"),
    ("POST", "/api/demo/memory/ops/search", b"[" * 100 + b"]" * 100, _JSON, "viewer"),
    ("POST", "/api/demo/memory/ops/search", _json({"query": "tea", "nope": 1}), _JSON,
     "viewer"),
    ("POST", "/api/demo/memory/ops/search", _json({"query": 7}), _JSON, "viewer"),
    ("POST", "/api/demo/memory/ops/search", _json({"query": "tea", "limit": 0}), _JSON,
     "viewer"),
    ("POST", "/api/demo/memory/ops/search", _json({"query": "x" * 2_000_000}), _JSON,
     "viewer"),
    ("POST", "/api/demo/memory/ops/search", b"", _JSON, "viewer"),
    ("POST", "/api/demo/memory/ops/search", _json({"query": "tea"}),
     {**_JSON, "X-Triform-Env": "nowhere"}, "viewer"),
    ("POST", "/api/demo/memory/ops/store", _json({"content": "x", "category": "fact"}),
     _JSON, "viewer"),
    ("PUT", "/api/demo/memory/ops/search", _json({"query": "tea"}), _JSON, "viewer"),
    ("DELETE", "/api/demo/memory/ops/nothing-here", None, {}, "viewer"),
    ("POST", "/api/demo/nothing/ops/search", _json({"query": "tea"}), _JSON, "viewer"),
    ("POST", "/api/other/memory/ops/search", _json({"query": "tea"}), _JSON, "viewer"),
    ("POST", "/api/demo/memory/ops/import_memories", b'{"a": 1}\n',
     {"Content-Type": "application/x-ndjson"}, "viewer"),
    # The request as werkzeug reads it: a content type with parameters and in capitals,
    # none, a repeated and a percent-encoded query parameter, a header the op reads.
    ("POST", "/api/demo/memory/ops/import_memories", b'{"a": 1}\n',
     {"Content-Type": "Application/X-NDJSON ; charset=utf-8"}, "viewer"),
    ("POST", "/api/demo/memory/ops/search", _json({"query": "tea"}),
     {"Content-Type": "application/json; charset=utf-8"}, "viewer"),
    ("POST", "/api/demo/memory/ops/search", _json({"query": "tea"}), {}, "viewer"),
    ("GET", "/api/demo/memory/ops/memories?limit=1&limit=3&subject_type=gu%65st&subject_id="
     "maria&", None, {}, "viewer"),
    ("GET", "/api/demo/memory/ops/memories?limit=%FF", None, {}, "viewer"),
    ("POST", "/api/demo/memory/ops/search", _json({"query": "tea"}),
     {**_JSON, "X-Triform-Env": "demo"}, "viewer"),
]


@pytest.mark.parametrize("method,path,body,headers,role", CASES)
def test_a_plain_op_request_answers_as_flask_does(served: Server, method: str, path: str,
                                                  body: bytes | None,
                                                  headers: dict[str, str],
                                                  role: str | None) -> None:
    served_answer, flask_answer, through_flask = _both(served, method, path, role=role,
                                                       body=body, headers=headers)
    assert not through_flask, "a plain op request went through Flask's dispatch"
    assert served_answer == flask_answer


def test_a_search_answers_as_flask_does(served: Server) -> None:
    # count_access would make the second search's counts differ: compare all but them.
    served_answer, flask_answer, through_flask = _both(
        served, "POST", "/api/demo/memory/ops/search",
        body=_json({"query": "Maria likes tea number 1", "subject_type": "guest",
                    "subject_id": "maria"}), headers=_JSON)
    assert not through_flask
    assert served_answer[:2] == flask_answer[:2]
    strip = [{**r, "memory": {k: v for k, v in r["memory"].items()
                              if k not in ("access_count", "last_accessed_at")}}
             for r in json.loads(served_answer[2])["results"]]
    again = [{**r, "memory": {k: v for k, v in r["memory"].items()
                              if k not in ("access_count", "last_accessed_at")}}
             for r in json.loads(flask_answer[2])["results"]]
    assert strip == again and len(strip) == 3


@pytest.mark.parametrize("method,path", [
    ("HEAD", "/api/demo/memory/ops/memories"), ("OPTIONS", "/api/demo/memory/ops/search"),
    ("GET", "/api/demo/memory/ops/memories/"), ("GET", "/api/demo//memory/ops/memories"),
    ("GET", "/api/demo/memory/ops/x/ops/y"), ("GET", "/api/demo/mem%20ory/ops/stats"),
    ("GET", "/api/demo/memory/ops/ops/memories"), ("GET", "/api/ops/memory/ops/stats"),
    ("POST", "/api/demo/memory/ops/"), ("GET", "/healthz")])
def test_other_requests_go_through_flask(served: Server, method: str, path: str) -> None:
    served_answer, flask_answer, through_flask = _both(served, method, path)
    assert through_flask
    assert served_answer == flask_answer


def test_a_chunked_body_goes_through_flask_and_its_limit(served: Server) -> None:
    served_answer, flask_answer, through_flask = _both(
        served, "POST", "/api/demo/memory/ops/search", body=_json({"query": "tea"}),
        headers={**_JSON, "Transfer-Encoding": "chunked"})
    assert through_flask
    assert served_answer[0] == flask_answer[0]


_SEGMENT = st.sampled_from(["demo", "memory", "other", "x", "ops", "memories", "search",
                            "stats", "m_1", "a.b", "~", "-", "é", "%41", " ", ""])


@settings(max_examples=150, deadline=None)
@given(method=st.sampled_from(["GET", "POST", "PATCH", "PUT", "DELETE"]),
       element=st.lists(_SEGMENT, min_size=1, max_size=3),
       op=st.lists(_SEGMENT, min_size=1, max_size=3),
       body=st.one_of(st.none(), st.binary(max_size=40),
                      st.dictionaries(st.sampled_from(["query", "limit", "content", "x"]),
                                      st.one_of(st.integers(-2, 200), st.text(max_size=5),
                                                st.none()), max_size=3).map(_json)),
       role=st.sampled_from([None, "viewer", "other"]))
def test_any_request_answers_as_flask_does(served: Server, method: str, element: list[str],
                                           op: list[str], body: bytes | None,
                                           role: str | None) -> None:
    """Whatever the path, method, body and caller, the status and the body are Flask's
    (a viewer writes nothing, so no answer depends on the order of the two)."""
    path = f"/api/{'/'.join(element)}/ops/{'/'.join(op)}"
    served_answer, flask_answer, _ = _both(served, method, path, role=role, body=body,
                                           headers=_JSON)
    if path.endswith("/ops/search") and served_answer[0] == 200:
        assert flask_answer[0] == 200      # access counts differ between the two
        return
    assert served_answer == flask_answer


def test_the_fast_path_mirrors_every_hook_the_app_has(served: Server) -> None:
    """``OpRoutes`` mirrors the one request hook that reaches the op route (the body
    limit, ``check_length``) and nothing else: a hook added later for the whole app or the
    ops blueprint would be skipped by the op route's plain requests, so adding one must
    fail here until ``OpRoutes`` mirrors it too. (The console's hooks are its own.)"""
    app = served.app
    scopes = (None, "ops")
    hooks = {name: [f.__name__ for scope in scopes for f in registry.get(scope, [])]
             for name, registry in (("before", app.before_request_funcs),
                                    ("after", app.after_request_funcs),
                                    ("teardown", app.teardown_request_funcs),
                                    ("url_value", app.url_value_preprocessors))}
    assert hooks == {"before": ["_check_body_size"], "after": [], "teardown": [],
                     "url_value": []}
