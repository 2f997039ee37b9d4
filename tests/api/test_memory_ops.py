"""The memory ops of the reference sheet over real HTTP: each at its path and auth level,
with the sheet's error codes. The runtime's finer semantics are tested in tests/index."""

from __future__ import annotations

from tests.helpers import assert_error, files_holding

OPS = "/api/demo/memory/ops"


def scoped(server, **properties) -> None:
    reply = server.client().post(f"{OPS}/spec_update", {"properties": properties})
    assert reply.status == 200, reply.body


def store(client, content: str, **fields):
    reply = client.post(f"{OPS}/store", {"content": content, "category": "fact", **fields})
    assert reply.status == 201, reply.body
    return reply.body["memory"]


def test_store_get_update_delete_round_trip(server) -> None:
    client = server.client("member")
    memory = store(client, "Ana prefers tea", context="breakfast chat",
                   intention="plan the meeting", agent="bot-1", metadata={"turn": 3})
    assert {"id", "content", "category", "subject_type", "subject_id", "context",
            "intention", "agent", "source", "metadata", "created_at", "updated_at",
            "last_accessed_at", "access_count", "embedded"} <= set(memory)
    got = client.get(f"{OPS}/memories/{memory['id']}").body["memory"]
    assert got["context"] == "breakfast chat" and got["intention"] == "plan the meeting"
    updated = client.post(f"{OPS}/memories/{memory['id']}/update",
                          {"content": "Ana prefers green tea"}).body["memory"]
    assert updated["content"] == "Ana prefers green tea"
    assert updated["context"] == "breakfast chat"          # kept unless new text is given
    assert client.post(f"{OPS}/memories/{memory['id']}/delete", {}).status == 200
    assert_error(client.get(f"{OPS}/memories/{memory['id']}"), 404, "MEMORY_NOT_FOUND")
    assert_error(client.post(f"{OPS}/memories/{memory['id']}/update", {"content": "x"}),
                 404, "MEMORY_NOT_FOUND")


def test_sheet_error_codes(server) -> None:
    client = server.client("member")
    assert_error(client.post(f"{OPS}/store", {"content": "x", "category": "rumour"}),
                 400, "MEMORY_INVALID_CATEGORY")
    assert_error(client.post(f"{OPS}/store", {"content": "x", "category": "fact",
                                              "subject_type": "guest"}),
                 400, "MEMORY_SUBJECT_INCOMPLETE")
    assert_error(client.post(f"{OPS}/store", {"content": "", "category": "fact"}), 400)
    assert_error(client.post(f"{OPS}/forget_subject",
                             {"subject_type": "guest", "subject_id": "g1"}),
                 400, "MEMORY_CONFIRM_REQUIRED")
    assert client.get(f"{OPS}/memories").body["memories"] == []


def test_subject_scoping_over_http(server) -> None:
    scoped(server, subject_scoping=True, relevance_threshold=0.0)
    client = server.client("member")
    ana = store(client, "Ana is allergic to peanuts", subject_type="guest", subject_id="ana")
    store(client, "Bo is allergic to peanuts", subject_type="guest", subject_id="bo")
    general = store(client, "The office kitchen has peanut-free snacks")
    found = client.post(f"{OPS}/search", {"query": "peanut allergy", "subject_type": "guest",
                                          "subject_id": "ana"}).body["results"]
    assert {r["memory"]["id"] for r in found} == {ana["id"], general["id"]}
    nobody = client.post(f"{OPS}/search", {"query": "peanut allergy"}).body["results"]
    assert {r["memory"]["id"] for r in nobody} == {general["id"]}


def test_forget_subject_erases_from_disk(server) -> None:
    scoped(server, subject_scoping=True)
    client = server.client("member")
    store(client, "Zelda's secret code is 4417", subject_type="circle_member",
          subject_id="zelda")
    keep = store(client, "Team standup is at nine")
    reply = client.post(f"{OPS}/forget_subject", {"subject_type": "circle_member",
                                                  "subject_id": "zelda"},
                        headers={"X-Confirm": "destructive"})
    assert reply.status == 200 and reply.body["deleted"] == 1
    listed = client.get(f"{OPS}/memories").body["memories"]
    assert [m["id"] for m in listed] == [keep["id"]]
    for word in ("Zelda", "secret"):
        assert not _runtime_holds(server, "demo/memory", word), word


def _runtime_holds(server, path: str, word: str) -> list[str]:
    """The runtime files of the element at ``path`` that hold ``word`` (a word no random
    id or checksum can spell: ``files_holding``)."""
    return files_holding(server.home.runtime_path(server.home.catalog.element_at(path)),
                         word)


def test_delete_and_the_subconscious_forget_erase_from_disk(server) -> None:
    """Issue 26: a deleted memory's text stayed in memories.jsonl (and the checkpoint)
    until a later compaction; the sheet says delete "permanently removes"."""
    client = server.client("member")
    secret = store(client, "Ivan's door code is 5550")
    store(client, "Team standup is at nine")
    assert _runtime_holds(server, "demo/memory", "Ivan")
    assert client.post(f"{OPS}/memories/{secret['id']}/delete", {}).status == 200
    assert not _runtime_holds(server, "demo/memory", "Ivan")
    said = client.post(f"{OPS}/observe", {"turns": [
        {"role": "user", "content": "I live in Reykjavik."}]})
    assert said.body["decisions"][0]["action"] == "add"
    assert _runtime_holds(server, "demo/memory", "Reykjavik")
    forgot = client.post(f"{OPS}/observe", {"turns": [
        {"role": "user", "content": "Forget that I live in Reykjavik."}]})
    assert forgot.body["decisions"][0]["action"] == "forget", forgot.body
    assert not _runtime_holds(server, "demo/memory", "Reykjavik")


def test_forget_subject_on_a_circle_forgets_the_person_everywhere_it_may(server) -> None:
    """Copies made by export/import in other elements kept a forgotten person: one call
    on the circle forgets them in every memory element the token may write."""
    admin, member = server.client(), server.client("member")
    zelda = {"subject_type": "guest", "subject_id": "zelda"}
    store(member, "Zelda's locker is 4417", **zelda)
    for slug in ("copy", "locked"):
        assert admin.post("/api/demo/ops/create", {"element_type": "memory",
                                                   "slug": slug}).status == 201
        assert admin.post(f"/api/demo/{slug}/ops/store", {
            "content": f"Zelda's locker is 4417 ({slug})", "category": "fact",
            **zelda}).status == 201
    admin.post("/api/demo/ops/create", {"element_type": "auth-policy", "slug": "lock",
                                        "properties": {"deny": [{"role": "member"}]}})
    admin.post("/api/demo/locked/ops/compose", {"add": [{"ref": "lock"}]})
    assert_error(member.post("/api/demo/ops/forget_subject", zelda), 400,
                 "MEMORY_CONFIRM_REQUIRED")
    reply = member.post("/api/demo/ops/forget_subject", zelda,
                        headers={"X-Confirm": "destructive"})
    assert reply.status == 200, reply.body
    assert reply.body["deleted"] == 2
    assert {e["path"]: e["deleted"] for e in reply.body["elements"]} == \
        {"demo/memory": 1, "demo/copy": 1}
    assert [(s["path"], s["code"]) for s in reply.body["skipped"]] == \
        [("demo/locked", "POLICY_DENIED")]
    for path in ("demo/memory", "demo/copy"):
        assert not _runtime_holds(server, path, "locker"), path
    assert _runtime_holds(server, "demo/locked", "locker")      # the policy's to lift
    events = admin.get("/api/demo/copy/ops/activity").body["events"]
    assert events[0]["op"] == "forget_subject"
    assert_error(member.post("/api/demo/ops/forget_subject", {"subject_type": "guest"},
                             headers={"X-Confirm": "destructive"}), 400,
                 "MEMORY_SUBJECT_INCOMPLETE")


def test_list_filters_and_cursor(server) -> None:
    client = server.client("member")
    for i in range(5):
        store(client, f"fact number {i}", agent="a" if i % 2 else "b")
    client.post(f"{OPS}/store", {"content": "likes jazz", "category": "preference"})
    page = client.get(f"{OPS}/memories?limit=2").body
    seen = [m["id"] for m in page["memories"]]
    while page["next_cursor"]:
        page = client.get(f"{OPS}/memories?limit=2&cursor={page['next_cursor']}").body
        seen += [m["id"] for m in page["memories"]]
    assert len(seen) == len(set(seen)) == 6
    prefs = client.get(f"{OPS}/memories?category=preference").body["memories"]
    assert [m["content"] for m in prefs] == ["likes jazz"]
    assert len(client.get(f"{OPS}/memories?agent=a").body["memories"]) == 2
    assert_error(client.get(f"{OPS}/memories?limit=lots"), 400)


def test_idempotency_key_header(server) -> None:
    client = server.client("member")
    body = {"content": "Deploys happen on Fridays", "category": "procedure"}
    first = client.post(f"{OPS}/store", body, headers={"Idempotency-Key": "abc"})
    second = client.post(f"{OPS}/store", body, headers={"Idempotency-Key": "abc"})
    assert first.body["memory"]["id"] == second.body["memory"]["id"]
    assert len(client.get(f"{OPS}/memories").body["memories"]) == 1


def test_capacity_eviction_and_stats(server) -> None:
    scoped(server, max_memories=2, retention={"context": 1})
    client = server.client("member")
    first = store(client, "one")
    store(client, "two")
    third = client.post(f"{OPS}/store", {"content": "three", "category": "context"}).body
    assert third["evicted"] == [first["id"]]
    stats = client.get(f"{OPS}/stats").body
    assert stats["total"] == 2 and stats["expired"] == []
    assert stats["capacity"]["max_memories"] == 2
    viewer = server.client("viewer")
    assert viewer.get(f"{OPS}/stats").status == 200
    assert_error(viewer.post(f"{OPS}/memories/{third['memory']['id']}/delete", {}), 403)


def test_occurred_at_over_http(server) -> None:
    scoped(server, relevance_threshold=0.0)
    client = server.client("member")
    may = store(client, "Ana ran a charity race", occurred_at="2023-05-21")
    assert may["occurred_at"] == "2023-05-21T00:00:00.000000Z"
    now = store(client, "Ana ran a charity race again")
    assert now["occurred_at"] == now["created_at"]
    batch = client.post(f"{OPS}/store_batch", {"memories": [
        {"content": "Ana painted a sunrise", "category": "fact",
         "occurred_at": "2022-07-01T10:00:00+02:00"}]})
    assert batch.status == 201, batch.body
    assert batch.body["results"][0]["memory"]["occurred_at"] == "2022-07-01T08:00:00.000000Z"
    found = client.post(f"{OPS}/search", {"query": "charity race",
                                          "occurred_after": "2023-01-01T00:00:00Z",
                                          "occurred_before": "2023-06-01T00:00:00Z"})
    assert [r["memory"]["id"] for r in found.body["results"]] == [may["id"]]
    listed = client.get(f"{OPS}/memories?occurred_after=2023-01-01").body["memories"]
    assert {m["id"] for m in listed} == {may["id"], now["id"]}
    assert_error(client.post(f"{OPS}/store", {"content": "x", "category": "fact",
                                              "occurred_at": "last Tuesday"}),
                 400, "MEMORY_INVALID")
    assert_error(client.post(f"{OPS}/search", {"query": "x", "occurred_after": 5}),
                 400, "MEMORY_INVALID")
