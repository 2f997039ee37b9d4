"""GET /api/events: SSE of activity, per circle, over real HTTP (werkzeug and waitress)."""

from __future__ import annotations

import http.client
import json
import queue
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from collections.abc import Callable, Iterator

import pytest

from api.app import create_app
from api.errors import ApiError
from api.events import Broadcaster, _Access, _stream, format_event
from element import authenticate, create_token
from tests.helpers import create, running, start_home

STORE = "/api/demo/memory/ops/store"
MEMORY = {"content": "Ana likes tea", "category": "preference"}


@dataclass
class Stream:
    """What an SSE response carried: messages (id, data) and comment lines."""

    status: int
    headers: dict[str, str]
    events: list[dict[str, Any]] = field(default_factory=list)
    ids: list[int] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)
    body: Any = None


def read_stream(port: int, token: str | None, query: str = "", *,
                headers: dict[str, str] | None = None,
                when_open: Callable[[], None] | None = None) -> Stream:
    """Open /api/events, call ``when_open`` once subscribed, read until the server ends it.

    The server subscribes before it answers, so once the ``: connected`` comment arrived,
    every later event reaches this stream.
    """
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    sent = dict(headers or {})
    if token:
        sent["Authorization"] = f"Bearer {token}"
    conn.request("GET", "/api/events" + (f"?{query}" if query else ""), headers=sent)
    resp = conn.getresponse()
    stream = Stream(resp.status, dict(resp.getheaders()))
    if resp.status != 200:
        stream.body = json.loads(resp.read())
        conn.close()
        return stream
    pending: dict[str, str] = {}
    opened = False
    try:
        for raw in iter(resp.fp.readline, b""):
            line = raw.decode().rstrip("\n")
            if line.startswith(":"):
                stream.comments.append(line[1:].strip())
            elif line.startswith("id: "):
                pending["id"] = line[4:]
            elif line.startswith("data: "):
                pending["data"] = line[6:]
            elif line == "":
                if "data" in pending:
                    stream.events.append(json.loads(pending["data"]))
                    stream.ids.append(int(pending["id"]))
                pending = {}
                if not opened and "connected" in stream.comments:
                    opened = True
                    if when_open:
                        when_open()
    finally:
        conn.close()
    return stream


def test_needs_a_token(server) -> None:
    stream = read_stream(server.port, None)
    assert stream.status == 401 and stream.body["error"]["code"] == "UNAUTHORIZED"


def test_another_circle_is_403(server) -> None:
    stream = read_stream(server.port, server.tokens["other"], "circle=demo&timeout=1")
    assert stream.status == 403 and stream.body["error"]["code"] == "FORBIDDEN"
    stream = read_stream(server.port, server.tokens["viewer"], "path=other&timeout=1")
    assert stream.status == 403


@pytest.mark.parametrize("query", ["limit=x", "limit=0", "timeout=-1", "keepalive=nan",
                                   "last_event_id=abc"])
def test_bad_parameters_are_400(server, query: str) -> None:
    stream = read_stream(server.port, server.tokens["viewer"], query)
    assert stream.status == 400, stream.body
    assert set(stream.body["error"]) == {"code", "class", "retryable", "message"}


def test_store_and_create_are_streamed_to_a_viewer(server) -> None:
    client = server.client("member")

    def act() -> None:
        assert client.post(STORE, MEMORY).status == 201
        assert server.client("admin").post("/api/demo/ops/create", {
            "element_type": "memory", "slug": "notes"}).status == 201

    stream = read_stream(server.port, server.tokens["viewer"], "limit=2&timeout=20",
                         when_open=act)
    assert stream.status == 200
    assert stream.headers["Content-Type"].startswith("text/event-stream")
    assert stream.headers["Cache-Control"] == "no-cache"
    store, create = stream.events
    assert (store["op"], store["path"], store["circle"]) == ("store", "demo/memory", "demo")
    assert store["principal"] == "member" and store["detail"]["memory_id"]
    assert (create["op"], create["path"]) == ("create", "demo/notes")
    assert stream.ids == [store["seq"], create["seq"]] and stream.ids[0] < stream.ids[1]
    assert set(store) == {"seq", "element_id", "path", "circle", "op", "principal",
                          "detail", "at"}


def test_other_circles_events_never_appear(server) -> None:
    def act() -> None:
        assert server.client("other").post("/api/other/ops/create", {
            "element_type": "memory", "slug": "secret"}).status == 201
        assert server.client("admin").post(STORE, MEMORY).status == 201

    demo = read_stream(server.port, server.tokens["viewer"], "limit=1&timeout=20",
                       when_open=act)
    assert [e["op"] for e in demo.events] == ["store"]
    assert all(e["circle"] == "demo" for e in demo.events)
    # The other circle's own stream replays its create, and nothing of demo.
    other = read_stream(server.port, server.tokens["other"], "timeout=0.5",
                        headers={"Last-Event-ID": "0"})
    assert [(e["op"], e["path"]) for e in other.events] == [("create", "other/secret")]


def test_path_narrows_to_one_element(server) -> None:
    def act() -> None:
        assert server.client().post("/api/demo/ops/create", {
            "element_type": "memory", "slug": "noise"}).status == 201
        assert server.client().post(STORE, MEMORY).status == 201

    stream = read_stream(server.port, server.tokens["viewer"],
                         "path=demo/memory&limit=1&timeout=20", when_open=act)
    assert [(e["op"], e["path"]) for e in stream.events] == [("store", "demo/memory")]


def test_last_event_id_replays_from_the_activity_table(server) -> None:
    client = server.client()
    seqs = []
    for i in range(3):
        assert client.post(STORE, {**MEMORY, "content": f"fact {i}"}).status == 201
    everything = read_stream(server.port, server.tokens["viewer"], "timeout=0.3",
                             headers={"Last-Event-ID": "0"})
    seqs = everything.ids
    assert len(seqs) == 3 and seqs == sorted(seqs)
    replay = read_stream(server.port, server.tokens["viewer"], "limit=2&timeout=5",
                         headers={"Last-Event-ID": str(seqs[0])})
    assert replay.ids == seqs[1:]
    assert [e["detail"]["memory_id"] for e in replay.events] == \
        [e["detail"]["memory_id"] for e in everything.events[1:]]
    # The query parameter does the same (EventSource cannot set headers on first connect).
    assert read_stream(server.port, server.tokens["viewer"],
                       f"last_event_id={seqs[1]}&timeout=0.3").ids == seqs[2:]


def test_replay_then_live_without_duplicates(server) -> None:
    client = server.client()
    first = client.post(STORE, MEMORY)
    assert first.status == 201
    start = read_stream(server.port, server.tokens["viewer"], "timeout=0.3",
                        headers={"Last-Event-ID": "0"}).ids[-1]

    stream = read_stream(server.port, server.tokens["viewer"], "limit=2&timeout=20",
                         headers={"Last-Event-ID": str(start - 1)},
                         when_open=lambda: client.post(STORE, {**MEMORY, "content": "b"}))
    assert stream.ids[0] == start and len(set(stream.ids)) == 2


def test_keepalive_comments_and_timeout(server) -> None:
    began = time.monotonic()
    stream = read_stream(server.port, server.tokens["viewer"], "keepalive=0.1&timeout=0.6")
    assert time.monotonic() - began < 5
    assert stream.events == []
    assert "connected" in stream.comments and "keepalive" in stream.comments


def test_too_many_streams_is_503(tmp_path: Path) -> None:
    home = start_home(tmp_path / "home", "hashing")
    home.init("demo")
    token = create_token(home.catalog, "demo", "viewer")
    other = create_token(home.catalog, "demo", "viewer")
    app = create_app({"EMBEDDER": "hashing", "EVENTS_MAX_SUBSCRIBERS": 1}, home=home)
    with running(app) as srv:
        holder = threading.Thread(target=read_stream, args=(srv.port, token, "timeout=1"))
        holder.start()
        deadline = time.monotonic() + 5
        while len(app.extensions["triform.events"]) == 0 and time.monotonic() < deadline:
            time.sleep(0.02)
        busy = read_stream(srv.port, other, "timeout=1")
        again = read_stream(srv.port, token, "timeout=1")     # the same token: its share
        holder.join(10)
        assert again.status == 429 and again.body["error"]["code"] == "EVENTS_TOKEN_BUSY"
        assert busy.status == 503 and busy.body["error"]["code"] == "EVENTS_BUSY"
        assert busy.body["error"]["retryable"] is True and busy.headers["Retry-After"]
        assert len(app.extensions["triform.events"]) == 0   # the holder unsubscribed
        assert read_stream(srv.port, token, "timeout=0.2").status == 200
    home.close()


def test_streams_under_waitress(tmp_path: Path) -> None:
    waitress = pytest.importorskip("waitress")
    home = start_home(tmp_path / "home", "hashing")
    home.init("demo")
    token = create_token(home.catalog, "demo", "admin")
    app = create_app({"EMBEDDER": "hashing"}, home=home)
    server = waitress.create_server(app, host="127.0.0.1", port=0, threads=4)

    def serve() -> None:
        try:
            server.run()
        except OSError:   # close() pulled the socket from under select(); that is the stop
            pass

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        from tests.helpers import Client
        client = Client("127.0.0.1", server.effective_port, token)
        stream = read_stream(server.effective_port, token, "limit=1&timeout=20",
                             when_open=lambda: client.post(STORE, MEMORY))
        assert [e["op"] for e in stream.events] == ["store"]
    finally:
        server.close()
        thread.join(10)
        home.close()


# -- the broadcaster, in-process ------------------------------------------------------------

def event(seq: int, circle: str = "demo", element_id: str = "e") -> dict[str, Any]:
    return {"seq": seq, "element_id": element_id, "path": f"{circle}/m", "circle": circle,
            "op": "store", "principal": None, "detail": {}, "at": "now"}


def test_a_slow_subscriber_is_dropped_and_told_to_reconnect(server) -> None:
    hub = Broadcaster(queue_size=2, max_subscribers=4)
    slow = hub.subscribe("demo")
    memory = server.home.catalog.element_at("demo/memory").id
    for seq in (1, 2, 3):
        hub.publish(event(seq, element_id=memory))
    assert slow.dropped and len(hub) == 0
    access = _Access(server.home,
                     lambda: authenticate(server.home.catalog, server.tokens["viewer"]))
    chunks = list(_stream(server.home, hub, slow, access, after=None, limit=None, timeout=5,
                          keepalive=1))
    event1, event2 = (format_event(event(n, element_id=memory)) for n in (1, 2))
    assert chunks[1:3] == [event1, event2]
    assert "reconnect with Last-Event-ID" in chunks[-1]


def test_publish_filters_by_circle_and_never_raises() -> None:
    hub = Broadcaster(queue_size=10, max_subscribers=2)
    demo, other = hub.subscribe("demo"), hub.subscribe("other")
    hub.publish(event(1, "demo"))
    hub.publish(event(2, "other"))
    hub.publish({"nonsense": True})
    assert demo.queue.get_nowait()["seq"] == 1 and demo.queue.empty()
    assert other.queue.get_nowait()["seq"] == 2 and other.queue.empty()
    with pytest.raises(ApiError):
        hub.subscribe("demo")
    hub.unsubscribe(demo)
    hub.subscribe("demo")


def test_close_ends_every_stream(server) -> None:
    hub = Broadcaster()
    sub = hub.subscribe("demo")
    hub.close()
    started = time.monotonic()
    access = _Access(server.home,
                     lambda: authenticate(server.home.catalog, server.tokens["viewer"]))
    chunks: Iterator[str] = _stream(server.home, hub, sub, access, after=None, limit=None,
                                    timeout=30, keepalive=10)
    assert list(chunks)[0].startswith("retry:")
    assert time.monotonic() - started < 5


# -- the op path's checks hold for streams too ----------------------------------------------

def test_an_auth_policy_hides_an_element_from_the_stream_and_circle_views(server) -> None:
    admin = server.client()
    create(admin, "memory", "secret")
    create(admin, "auth-policy", "no-viewers", deny=[{"role": "viewer"}])
    assert admin.post("/api/demo/secret/ops/compose",
                      {"add": [{"ref": "no-viewers"}]}).status == 200

    def writes() -> None:
        admin.post("/api/demo/secret/ops/store", {"content": "hidden", "category": "fact"})
        admin.post(STORE, MEMORY)

    stream = read_stream(server.port, server.tokens["viewer"], "limit=1&timeout=20",
                         when_open=writes)
    assert [e["path"] for e in stream.events] == ["demo/memory"]
    replayed = read_stream(server.port, server.tokens["viewer"], "timeout=1",
                           headers={"Last-Event-ID": "0"})
    assert "demo/secret" not in {e["path"] for e in replayed.events}
    viewer = server.client("viewer")
    circle = viewer.get("/api/demo/ops/activity?limit=1000").body["events"]
    assert circle and "demo/secret" not in {e["path"] for e in circle}
    children = viewer.get("/api/demo/ops/batch_stats").body["children"]
    assert "demo/secret" not in {c["path"] for c in children}
    assert "demo/secret" in {e["path"] for e in admin.get("/api/demo/ops/activity").body[
        "events"]}


def test_a_revoked_token_loses_its_stream(server) -> None:
    server.app.config["EVENTS_RECHECK"] = 0      # re-read the token before every event
    token = create_token(server.home.catalog, "demo", "viewer", "soon-revoked")
    token_id = next(t["id"] for t in server.home.catalog.tokens("demo")
                    if t["name"] == "soon-revoked")

    def revoke_then_write() -> None:
        server.home.catalog.revoke_token(token_id)
        server.client().post(STORE, MEMORY)

    stream = read_stream(server.port, token, "timeout=30", when_open=revoke_then_write)
    assert stream.events == []
    assert "the token is no longer valid" in stream.comments


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_events_another_process_commits_reach_this_ones_subscribers_once(
        tmp_path: Path, backend: str, request: pytest.FixtureRequest) -> None:
    """Two homes stand for two workers (on one folder, or on two sharing a database):
    what the other commits is followed from the shared activity table; what this one
    commits is delivered at once and not again when the follower reads it back. With
    PostgreSQL the follower polls only every 60 s: the other's event is pushed (NOTIFY)."""
    url = None
    if backend == "postgresql":
        url = request.getfixturevalue("pg_server").create_database("events_follow")
    with start_home(tmp_path / "home", "hashing", database=url) as here, \
            start_home(tmp_path / ("home" if url is None else "other"), "hashing",
                       database=url) as elsewhere:
        here.init("demo")
        memory = here.catalog.element_at("demo/memory")
        hub = Broadcaster(catalog=here.catalog, follow_every=0.05 if url is None else 60)
        here.catalog.listeners.append(hub.publish)
        elsewhere.catalog.record_activity(memory, "store", "before", {})   # not replayed
        sub = hub.subscribe("demo")
        elsewhere.catalog.record_activity(memory, "store", "worker two", {})
        here.catalog.record_activity(memory, "update", "worker one", {})
        received: list[dict[str, Any]] = []
        deadline = time.monotonic() + 10
        while len(received) < 2 and time.monotonic() < deadline:
            try:
                received.append(sub.queue.get(timeout=0.2))
            except queue.Empty:     # the follower has not read it yet
                continue
        time.sleep(0.3)          # a few more follows: nothing comes twice
        while not sub.queue.empty():
            received.append(sub.queue.get_nowait())
        assert sorted((e["op"], e["principal"]) for e in received) == \
            [("store", "worker two"), ("update", "worker one")]
        if url is not None:    # listening by now: a later commit is pushed, not polled
            elsewhere.catalog.record_activity(memory, "delete", "worker two", {})
            assert sub.queue.get(timeout=5)["op"] == "delete"
        hub.unsubscribe(sub)


def test_one_token_cannot_hold_every_stream() -> None:
    """Issue 26, Low 17: one viewer opened every stream the server serves, and everyone
    else got 503. A token holds at most half of them (at least one)."""
    hub = Broadcaster(max_subscribers=8)
    assert hub.max_per_holder == 4
    mine = [hub.subscribe("demo", holder="viewer-token") for _ in range(4)]
    with pytest.raises(ApiError) as refused:
        hub.subscribe("demo", holder="viewer-token")
    assert refused.value.code == "EVENTS_TOKEN_BUSY"
    assert refused.value.error_class == "rate_limited"
    others = [hub.subscribe("demo", holder=f"t{i}") for i in range(4)]
    assert len(hub) == 8
    hub.unsubscribe(mine[0])
    hub.subscribe("demo", holder="viewer-token")            # one closed: room again
    assert len(others) == 4
    assert Broadcaster(max_subscribers=2).max_per_holder == 1
