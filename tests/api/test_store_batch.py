"""store_batch: many memories, one embedding pass, one fsync; all-or-nothing validation."""

from __future__ import annotations

from tests.helpers import assert_error

OPS = "/api/demo/memory/ops"


def test_batch_stores_every_memory_and_search_finds_them(server) -> None:
    client = server.client("member")
    batch = [{"content": f"Ana's project {name} ships in {month}", "category": "fact",
              "context": "quarterly planning call", "idempotency_key": f"k-{name}"}
             for name, month in (("atlas", "May"), ("borealis", "June"), ("cirrus", "July"))]
    reply = client.post(f"{OPS}/store_batch", {"memories": batch})
    assert reply.status == 201, reply.body
    ids = [r["memory"]["id"] for r in reply.body["results"]]
    assert len(set(ids)) == 3
    assert all(r["memory"]["embedded"] and r["warnings"] == [] for r in reply.body["results"])
    again = client.post(f"{OPS}/store_batch", {"memories": batch[:1]})
    assert again.body["results"][0]["memory"]["id"] == ids[0]      # idempotency keys hold
    found = client.post(f"{OPS}/search", {"query": "project borealis ships in June"}).body
    assert found["results"][0]["memory"]["id"] == ids[1]
    assert len(client.get(f"{OPS}/memories").body["memories"]) == 3


def test_one_bad_memory_rejects_the_batch(server) -> None:
    client = server.client("member")
    good = {"content": "fine", "category": "fact"}
    assert_error(client.post(f"{OPS}/store_batch",
                             {"memories": [good, {"content": "x", "category": "gossip"}]}),
                 400, "MEMORY_INVALID_CATEGORY")
    assert_error(client.post(f"{OPS}/store_batch", {"memories": [good, {"content": "x"}]}),
                 400)
    assert_error(client.post(f"{OPS}/store_batch", {"memories": []}), 400)
    assert_error(client.post(f"{OPS}/store_batch", {"memories": [good] * 257}), 400)
    assert_error(client.post(f"{OPS}/store_batch", {"memories": ["text"]}), 400)
    assert client.get(f"{OPS}/memories").body["memories"] == []
