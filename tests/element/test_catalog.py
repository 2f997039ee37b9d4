"""The catalog and the rate-limit windows answer the same on both backends (a SQLite file of
the home, or PostgreSQL), and hold across processes sharing them: every test runs on each
(the ``catalog_at`` fixture), each "process" a catalog object of its own over the same
file or database. Real SQLite, real PostgreSQL (tests/pg.py); nothing mocked."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from element.catalog import Catalog, Element, now_iso
from element.errors import SlugTaken
from element.governance.ratelimit import SlidingWindowLimiter

Opener = Callable[[Path], Catalog]


def element(slug: str | None, circle: str = "demo", **fields: Any) -> Element:
    stamp = now_iso()
    return Element(**{
        "id": f"id-{circle}-{slug or 'root'}", "path": f"{circle}/{slug}" if slug else circle,
        "circle": circle, "slug": slug, "name": slug or circle,
        "element_type": "memory" if slug else "circle", "form": "atom", "parent_id": None,
        "state": "ready", "description": None, "properties": {"scope": "private"},
        "meta": {"a": 1}, "version": 1, "created_at": stamp, "updated_at": stamp,
        **fields})


def test_elements_versions_and_their_conflicts(catalog_at: Opener, tmp_path: Path) -> None:
    catalog = catalog_at(tmp_path / "home")
    root, memory = element(None), element("memory", parent_id="id-demo-root")
    catalog.insert_element(root, {"name": "demo"}, "v1: created")
    catalog.insert_element(memory, {"name": "memory", "n": [1, "é"]}, "v1: created")
    with pytest.raises(SlugTaken):
        catalog.insert_element(element("memory", id="other"), {}, "v1")
    assert catalog.element_at("demo/memory") == memory
    assert catalog.element_id_at("demo/nothing") is None
    assert [e.path for e in catalog.elements("demo")] == ["demo", "demo/memory"]
    assert catalog.count_elements("demo") == 2
    assert [e.id for e in catalog.children(root)] == [memory.id]
    merged = catalog.merge_meta(memory.id, {"b": 2}, drop=("a",), state="disabled")
    assert (merged.meta, merged.state, merged.version) == ({"b": 2}, "disabled", 1)
    assert catalog.add_version(memory.id, {"name": "memory", "v": 2}, "v2: spec",
                               description="two") == 2
    assert [v["label"] for v in catalog.versions(memory.id)] == ["v2", "v1"]
    assert catalog.spec_at(memory.id, 1) == {"name": "memory", "n": [1, "é"]}
    assert catalog.element(memory.id).description == "two"
    # The spec mirror's compare-and-swap: one of two writers expecting the same blob wins.
    assert catalog.set_mirror(memory.id, "c1", "blob1")
    assert catalog.mirror_version(memory.id, "blob1", "c2", "blob2",
                                  {"name": "m", "description": None, "properties": {}},
                                  "v3: pushed") == 3
    assert catalog.mirror_version(memory.id, "blob1", "c3", "blob3",
                                  {"name": "x", "description": None, "properties": {}},
                                  "v4: lost") is None
    assert not catalog.set_mirror(memory.id, "c4", "blob4", expect="blob1")
    assert catalog.mirror_state(memory.id)["blob"] == "blob2"  # type: ignore[index]
    # The element and its mirror's state in one read, as the two reads give them.
    assert catalog.element_mirrored(memory.id) == (catalog.element(memory.id),
                                                    catalog.mirror_state(memory.id))
    assert catalog.element_mirrored(root.id) == (catalog.element(root.id), None)
    counts = catalog.element_counts([memory.id])[memory.id]
    assert (counts["versions"], counts["children"]) == (3, 0)


def test_attachments_keep_their_order_and_refuse_a_second_copy(
        catalog_at: Opener, tmp_path: Path) -> None:
    catalog = catalog_at(tmp_path / "home")
    for slug in (None, "memory", "limit-a", "limit-b", "limit-c"):
        catalog.insert_element(element(slug), {}, "v1")
    target = "id-demo-memory"

    def row(n: int, source: str, priority: int) -> dict[str, Any]:
        return {"id": f"att-{n}", "target_id": target, "source_id": f"id-demo-{source}",
                "source_version": None, "priority": priority, "cascade_policy": "none",
                "is_modifier": True, "created_by": None, "created_at": now_iso()}

    catalog.change_attachments(target, [row(1, "limit-c", 5), row(2, "limit-a", 5),
                                        row(3, "limit-b", 1)], [])
    assert [a["id"] for a in catalog.attachments(target_id=target)] == \
        ["att-3", "att-1", "att-2"]            # priority, then attach order
    with pytest.raises(ValueError):
        catalog.change_attachments(target, [row(4, "limit-a", 0)], ["att-1"])
    with pytest.raises(KeyError):
        catalog.change_attachments(target, [], ["att-9"])
    assert len(catalog.attachments(circle="demo")) == 3    # nothing of either changed
    assert set(catalog.attachments(target_id=target)[0]) == {
        "id", "target_id", "source_id", "source_version", "priority", "cascade_policy",
        "is_modifier", "created_by", "created_at"}
    # What governs the memory in one read: its own rows, then the circle's cascading rows
    # on other elements, each as the two lists the method above gives.
    catalog.change_attachments("id-demo-limit-a", [
        {**row(5, "limit-b", 7), "target_id": "id-demo-limit-a", "cascade_policy": "members"},
        {**row(6, "limit-c", 0), "target_id": "id-demo-limit-a"}], [])
    catalog.change_attachments(target, [{**row(7, "root", 2), "cascade_policy": "members"}],
                               [])
    memory = catalog.element(target)
    assert catalog.governing_attachments(memory) == (
        catalog.attachments(target_id=target),
        [r for r in catalog.attachments(circle="demo", cascading=True)
         if r["target_id"] != target])
    assert [r["id"] for r in catalog.governing_attachments(memory)[1]] == ["att-5"]


def test_tokens_activity_observed_and_forgotten(catalog_at: Opener, tmp_path: Path) -> None:
    catalog = catalog_at(tmp_path / "home")
    other = catalog_at(tmp_path / "home")      # another process on the same catalog
    memory = element("memory")
    catalog.insert_element(memory, {}, "v1")
    catalog.add_token("t1", "hash1", "demo", "admin", "init")
    assert other.token_by_hash("hash1")["role"] == "admin"  # type: ignore[index]
    assert other.revoke_token("t1") and not other.revoke_token("t1")
    assert catalog.token_by_hash("hash1") is None
    heard: list[dict[str, Any]] = []
    catalog.listeners.append(heard.append)
    first = catalog.record_activity(memory, "store", "t1", {"memory_id": "m1"})
    second = other.record_activity(memory, "update", None)
    assert heard == [first] and second["seq"] > first["seq"]
    assert catalog.last_seq() == second["seq"]
    assert [e["op"] for e in catalog.events_after("demo", None, 0, 10)] == ["store", "update"]
    assert catalog.events_after(None, memory.id, first["seq"], 10) == [
        {**second, "path": "demo/memory"}]
    assert [e["op"] for e in other.activity(circle="demo", before=second["seq"])] == ["store"]
    catalog.record_observed(memory.id, ["d1", "d2"], "guest:ana")
    other.record_observed(memory.id, ["d2", "d3"], "guest:ben")
    assert catalog.observed(memory.id, ["d1", "d3", "d4"]) == {"d1", "d3"}
    assert other.forget_observed(memory.id, "guest:ana") == 2
    catalog.record_forgotten(memory.id, "guest", "ana", "2026-01-02T00:00:00.000Z")
    other.record_forgotten(memory.id, "guest", "ana", "2026-01-01T00:00:00.000Z")  # older
    assert [f["at"] for f in catalog.forgotten(memory.id)] == ["2026-01-02T00:00:00.000Z"]


def test_a_follower_never_skips_an_event_committed_by_another_worker(
        catalog_at: Opener, tmp_path: Path) -> None:
    """Two workers (catalog objects of their own), four writer threads each, and a
    follower that reads ``events_after`` its last seq over and over, as the SSE feed
    does: it must see every event. A seq handed out before a slower transaction commits
    would be skipped forever once a later seq was read."""
    workers = [catalog_at(tmp_path / "home") for _ in range(2)]
    memory = element("memory")
    workers[0].insert_element(memory, {}, "v1")
    follower = catalog_at(tmp_path / "home")
    seen: list[int] = []
    stop = threading.Event()

    def follow() -> None:
        after = 0
        while True:
            last_round = stop.is_set()
            for event in follower.events_after(None, None, after, 500):
                seen.append(event["seq"])
                after = event["seq"]
            if last_round:
                return

    def write(catalog: Catalog) -> None:
        for n in range(25):
            catalog.record_activity(memory, "store", None, {"n": n})

    reader = threading.Thread(target=follow)
    reader.start()
    writers = [threading.Thread(target=write, args=(w,)) for w in workers for _ in range(4)]
    for thread in writers:
        thread.start()
    for thread in writers:
        thread.join(120)
    stop.set()
    reader.join(60)
    committed = [e["seq"] for e in follower.events_after(None, None, 0, 1000)]
    assert len(committed) == 200
    assert seen == committed        # every one, once, in order


@pytest.mark.parametrize("catalog_at", ["postgresql"], indirect=True)
def test_a_commit_wakes_the_listeners_of_other_workers(catalog_at: Opener,
                                                       tmp_path: Path) -> None:
    one, two = catalog_at(tmp_path / "home"), catalog_at(tmp_path / "home")
    memory = element("memory")
    one.insert_element(memory, {}, "v1")
    listener = two.activity_listener()
    try:
        assert not listener.wait(0.05)            # nothing yet: it waited the timeout
        one.record_activity(memory, "store", None)
        started = time.monotonic()
        assert listener.wait(10)
        assert time.monotonic() - started < 1.0   # woken, not timed out
    finally:
        listener.close()


def limiter_at(catalog_at: Opener, folder: Path, clock: Callable[[], float]
               ) -> SlidingWindowLimiter:
    catalog = catalog_at(folder)
    if catalog.in_database:
        return SlidingWindowLimiter(clock=clock,
                                    database=catalog.sql.database)  # type: ignore[attr-defined]
    return SlidingWindowLimiter(folder / "ratelimits.db", clock)


def test_rate_windows_count_every_worker_together(catalog_at: Opener, tmp_path: Path) -> None:
    now = [1000.0]
    one = limiter_at(catalog_at, tmp_path / "home", lambda: now[0])
    two = limiter_at(catalog_at, tmp_path / "home", lambda: now[0])
    key = (("att-1", "demo/memory", "token-a"), 3, 60.0)
    other = (("att-1", "demo/memory", "token-b"), 3, 60.0)
    assert [w.acquire([key]) for w in (one, two, one)] == [None, None, None]
    assert two.acquire([other]) is None             # another caller's own window
    now[0] += 10
    refused = one.acquire([other, key])
    assert refused == (50.0, 1)                     # the full one, freeing in 50 s
    assert two.acquire([other]) is None             # a refused request counted nowhere
    now[0] += 50.5
    assert two.acquire([key]) is None               # the oldest hit left the window
    one.forget("att-1")
    assert [two.acquire([key]) for _ in range(3)] == [None, None, None]
    assert one.acquire([key]) is not None


def test_rate_windows_hold_under_concurrent_workers(catalog_at: Opener,
                                                    tmp_path: Path) -> None:
    limiters = [limiter_at(catalog_at, tmp_path / "home", time.time) for _ in range(2)]
    key = (("att-1", "demo/memory", "token-a"), 10, 300.0)
    granted: list[bool] = []

    def hammer(limiter: SlidingWindowLimiter) -> None:
        for _ in range(8):
            granted.append(limiter.acquire([key]) is None)

    threads = [threading.Thread(target=hammer, args=(w,)) for w in limiters for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert (len(granted), sum(granted)) == (48, 10)


def test_read_then_write_transactions_are_serial_across_workers(
        catalog_at: Opener, tmp_path: Path) -> None:
    """Merges of different meta keys all survive, versions are numbered once each, and of
    the mirror's compare-and-swaps from the same blob exactly one wins, with writers in
    two workers at once."""
    workers = [catalog_at(tmp_path / "home") for _ in range(2)]
    memory = element("memory", meta={})
    workers[0].insert_element(memory, {}, "v1")
    workers[0].set_mirror(memory.id, "c0", "blob0")
    won: list[int | None] = []

    def work(catalog: Catalog, n: int) -> None:
        catalog.merge_meta(memory.id, {f"k{n}": n})
        catalog.add_version(memory.id, {"n": n}, f"by {n}")
        won.append(catalog.mirror_version(
            memory.id, "blob0", f"c{n}", f"new{n}",
            {"name": "m", "description": None, "properties": {}}, f"mirror {n}"))

    threads = [threading.Thread(target=work, args=(workers[n % 2], n)) for n in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    final = workers[1].element(memory.id)
    assert final.meta == {f"k{n}": n for n in range(6)}
    assert final.version == 8 and len([w for w in won if w is not None]) == 1
    assert [v["version"] for v in workers[0].versions(memory.id)] == list(range(8, 0, -1))


def test_a_catalog_file_of_the_last_version_keeps_what_its_ledger_heard(
        tmp_path: Path) -> None:
    """Observed turns' subject keys held a NUL, which PostgreSQL text cannot hold; a file
    written before keeps working: its keys are rewritten once when it opens."""
    import sqlite3

    from element.agents.observed import TurnLedger
    Catalog(tmp_path / "catalog.db").close()
    with sqlite3.connect(tmp_path / "catalog.db") as old:
        old.execute("INSERT INTO observed_turns VALUES ('m', 'd1', ?, 'x')",
                    ("guest\x00ana",))
        old.execute("PRAGMA user_version = 0")
    ledger = TurnLedger(Catalog(tmp_path / "catalog.db"), "m")
    assert ledger.seen(["d1"]) == {"d1"}
    assert ledger.forget_subject(("guest", "ana")) == 1
    assert ledger.seen(["d1"]) == set()


def test_console_sessions_on_both_backends(catalog_at: Opener, tmp_path: Path) -> None:
    """The console's server-side sessions have their table on each backend (PostgreSQL:
    the catalog's step 3, after the evals' step 2): a session stands for its token until
    it expires, ends, or the token is revoked; another process reads the same sessions."""
    from element import create_token, end_session, open_session, session_principal
    from element.errors import Unauthorized

    catalog = catalog_at(tmp_path / "home")
    catalog.insert_element(element(None), {"name": "demo"}, "v1: created")
    token = create_token(catalog, "demo", "member", "viewer")
    session, principal = open_session(catalog, token)
    other = catalog_at(tmp_path / "home")
    assert session_principal(other, session) == principal
    expired, _ = open_session(catalog, token, seconds=-1)
    with pytest.raises(Unauthorized):
        session_principal(catalog, expired)
    end_session(other, session)
    with pytest.raises(Unauthorized):
        session_principal(catalog, session)
    again, _ = open_session(catalog, token)
    assert catalog.revoke_token(principal.token_id)
    with pytest.raises(Unauthorized):
        session_principal(other, again)
