"""A search's situation over HTTP: a context or an intention of any size, empty, blank or
not English is answered 200 (a text past its cap is cut: the newest end of a window, the
start of a goal; ``index.query.situation``), and never returns fewer memories than the
query alone (issue 29: a strong content match hid by a situation that differs)."""

from __future__ import annotations

from typing import Any

import pytest

from index import MAX_CONTEXT_BYTES, MAX_INTENTION_BYTES

SEARCH = "/api/demo/memory/ops/search"
MEMORIES = [
    ("Dana loves spicy Sichuan food and hates olives", "talking about travel plans", None),
    ("Dana is allergic to peanuts", "a doctor's appointment", "remember health facts"),
    ("The team dinner is at the ramen place on Friday", "planning the week", None),
    ("Dana's favourite café serves matcha", None, None),
    ("Budget for the Tokyo trip is 2000 euros", "trip planning", "keep costs down"),
]
SITUATIONS = [
    ("", ""), ("   ", "\n\t"), (None, ""),
    ("planning a dinner", "pick a restaurant"),
    ("東京で夕食の計画", "レストランを選ぶ"),
    ("ужин в ресторане 🍣", "выбрать ресторан"),
    # Past the caps: cut, never refused (the JSON body stays under MAX_JSON_BODY).
    ("we talked about dinner. " * (MAX_CONTEXT_BYTES // 10), "寿司 " * MAX_INTENTION_BYTES),
]


@pytest.mark.parametrize(("context", "intention"), SITUATIONS)
def test_any_situation_is_answered_and_hides_nothing_the_query_finds(
        server: Any, context: str | None, intention: str | None) -> None:
    admin = server.client()
    for content, stored_context, stored_intention in MEMORIES:
        stored = admin.post("/api/demo/memory/ops/store", {
            "content": content, "category": "fact", "context": stored_context,
            "intention": stored_intention})
        assert stored.status == 201, stored.body
    query = {"query": "what food does Dana like?", "limit": 100}
    alone = admin.post(SEARCH, query)
    assert alone.status == 200, alone.body
    situated = admin.post(SEARCH, {**query, "context": context, "intention": intention})
    assert situated.status == 200, situated.body
    alone_ids = {r["memory"]["id"] for r in alone.body["results"]}
    assert alone_ids                  # the law is not empty here
    assert alone_ids <= {r["memory"]["id"] for r in situated.body["results"]}
