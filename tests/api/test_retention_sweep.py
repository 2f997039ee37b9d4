"""Retention: the reaper runs on a timer (the background sweep) as well as on stats."""

from __future__ import annotations

import time

from api.sweep import start_retention_sweep

OPS = "/api/demo/memory/ops"
TINY = 0.5 / 86400            # half a second, in days


def test_background_sweep_expires_by_category(server) -> None:
    client = server.client()
    assert client.post(f"{OPS}/spec_update",
                       {"properties": {"retention": {"context": TINY}}}).status == 200
    short = client.post(f"{OPS}/store", {"content": "we are in room 4",
                                         "category": "context"}).body["memory"]
    kept = client.post(f"{OPS}/store", {"content": "Ana is vegetarian",
                                        "category": "fact"}).body["memory"]
    stop = start_retention_sweep(server.home, "draft", every=0.2)
    try:
        # Wait for the sweep's own event: ``list`` hides an expired memory by itself, so
        # its absence there does not say the sweep ran. A loaded machine is slow.
        deadline = time.monotonic() + 60
        expired: list[dict] = []
        while not expired and time.monotonic() < deadline:
            events = client.get(f"{OPS}/activity").body["events"]
            expired = [e for e in events if e["op"] == "expire"]
            time.sleep(0.1)
    finally:
        stop.set()
    assert expired and expired[0]["detail"]["expired"] == [short["id"]]
    assert expired[0]["principal"] == "retention-sweep"
    ids = [m["id"] for m in client.get(f"{OPS}/memories").body["memories"]]
    assert ids == [kept["id"]]


def test_reap_all_leaves_elements_without_retention_alone(server) -> None:
    client = server.client()
    client.post(f"{OPS}/store", {"content": "old news", "category": "context"})
    assert server.home.reap_all("draft") == {}
    assert len(client.get(f"{OPS}/memories").body["memories"]) == 1
