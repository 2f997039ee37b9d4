"""GET /api/events through the client: replay from an id, live events, limits, and a
stream that breaks and resumes with Last-Event-ID, losing and repeating nothing."""

from __future__ import annotations

from typing import Any

import pytest
from triform_client import Client, Forbidden

from tests.client.proxy import Proxy

MEMORY = "demo/memory"


def last_seq(tf: Client) -> int:
    events = tf.circle("demo").activity_page(limit=1)["events"]
    return events[0]["seq"] if events else 0


def test_replays_after_an_id_then_goes_live(tf: Client, connect: Any) -> None:
    start = last_seq(tf)
    memory = tf.memory(MEMORY)
    first = memory.store("before the stream", "fact")["memory"]
    with connect("viewer").events(path=MEMORY, last_event_id=start, limit=2) as stream:
        replayed = next(stream)
        assert replayed["op"] == "store" and replayed["detail"]["memory_id"] == first["id"]
        second = memory.store("while streaming", "fact")["memory"]
        live = next(stream)
        assert live["detail"]["memory_id"] == second["id"] and live["seq"] > replayed["seq"]
        assert list(stream) == [] and stream.last_event_id == live["seq"]


def test_a_saved_id_resumes_a_later_stream(tf: Client) -> None:
    memory = tf.memory(MEMORY)
    start = last_seq(tf)
    memory.store("one", "fact")
    with tf.events(last_event_id=start, timeout=0.5) as stream:
        seen = [e["detail"]["memory_id"] for e in stream]
    assert len(seen) == 1
    memory.store("two", "fact")
    memory.store("three", "fact")
    later = list(tf.events(last_event_id=stream.last_event_id, limit=2))
    assert [e["op"] for e in later] == ["store", "store"]
    assert [memory.get(e["detail"]["memory_id"])["content"] for e in later] == ["two", "three"]


def test_a_broken_stream_reconnects_with_last_event_id(tf: Client, connect: Any,
                                                       proxy: Proxy) -> None:
    memory = tf.memory(MEMORY)
    start = last_seq(tf)
    ids = [memory.store(f"m{i}", "fact")["memory"]["id"] for i in range(2)]
    stream = connect("viewer", url=proxy.url).events(path=MEMORY, last_event_id=start,
                                                     limit=4, reconnect_delay=0.05)
    got = [next(stream)["detail"]["memory_id"]]
    proxy.cut()                               # the network drops the stream
    ids += [memory.store(f"m{i}", "fact")["memory"]["id"] for i in range(2, 4)]
    got += [e["detail"]["memory_id"] for e in stream]
    assert got == ids                         # each once, in order, none lost
    assert stream.reconnects >= 1 and proxy.connections >= 2
    stream.close()


def test_another_circle_is_refused(connect: Any) -> None:
    with pytest.raises(Forbidden):
        next(connect("member").events(circle="other"))
