"""Journey: a person's memory stays true (issue 23), with the real model, through ``observe``
over HTTP on ``triform serve`` and the default rule evaluator. Maria says she lives in
Porto and is allergic to shellfish; weeks later "Quick update: I live in Lisbon now." and
"Actually, I'm not allergic to shellfish anymore." The search of where she lives answers
Lisbon first and no Porto; the allergy is no longer recalled."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from tests.helpers import HttpClient, Served

MEMORY = "/api/demo/memory/ops"
MARIA = {"subject_type": "guest", "subject_id": "maria"}


def observe(client: HttpClient, day: str, *turns: tuple[str, str]) -> list[dict[str, Any]]:
    reply = client.post(f"{MEMORY}/observe", {
        "turns": [{"role": role, "content": text} for role, text in turns], **MARIA,
        "subject_name": "Maria", "conversation_id": day, "session_date": day})
    assert reply.status == 200, reply.body
    return list(reply.body["decisions"])


def search(client: HttpClient, query: str) -> list[str]:
    # Recall by meaning: wait for the vectors observe's writes get behind it.
    deadline = time.monotonic() + 60
    while client.get(f"{MEMORY}/stats").body["unembedded"] and time.monotonic() < deadline:
        time.sleep(0.1)
    reply = client.post(f"{MEMORY}/search", {"query": query, **MARIA})
    assert reply.status == 200, reply.body
    return [hit["memory"]["content"] for hit in reply.body["results"]]


def test_an_update_supersedes_and_a_negation_retires(serve: Callable[..., Served]) -> None:
    srv = serve(embedder=None)
    client = srv.client()
    first = observe(client, "2024-01-10",
                    ("user", "Hi, I'm Maria. I live in Porto with my husband."),
                    ("assistant", "Nice to meet you, Maria!"),
                    ("user", "I'm allergic to shellfish, so no prawns for me please."))
    assert [d["action"] for d in first if d["action"] != "nothing"] == ["add", "add"]
    assert search(client, "where does Maria live?")[0] == \
        "Maria lives in Porto with Maria's husband"

    moved = observe(client, "2024-02-21", ("user", "Quick update: I live in Lisbon now."))
    assert [(d["action"], d["content"]) for d in moved] == [
        ("supersede", "Maria lives in Lisbon")]
    assert moved[0]["occurred_at"] == "2024-02-21T00:00:00Z"
    found = search(client, "where does Maria live?")
    assert found[0] == "Maria lives in Lisbon"
    assert not any("Porto" in text for text in found), found

    retired = observe(client, "2024-03-06",
                      ("user", "Actually, I'm not allergic to shellfish anymore."))
    assert [d["action"] for d in retired] == ["retire"]
    assert not any("shellfish" in text for text in search(client, "what is Maria allergic to?"))
    listed = client.get(f"{MEMORY}/memories?subject_type=guest&subject_id=maria").body
    assert [m["content"] for m in listed["memories"]] == ["Maria lives in Lisbon"]
