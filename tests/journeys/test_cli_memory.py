"""Journey: a user keeps memories from a shell while ``triform serve`` holds the home:
store with a date, change, supersede, read the history and what was current then, delete,
forget a subject, each answering what the same command
answers on a stopped home, without loading the layers (the server has them)."""

from __future__ import annotations

import json
import os
from collections.abc import Callable

from tests.api.test_cli_grammar import loaded
from tests.helpers import Served, run_cli


def test_memory_commands_through_the_server(serve: Callable[..., Served]) -> None:
    srv = serve()
    assert srv.token
    env = {"TRIFORM_TOKEN": srv.token}

    def memory(*argv: str) -> dict:
        done = run_cli(srv.home, "memory", argv[0], "demo/memory", *argv[1:], env=env)
        assert done.returncode == 0, done.stderr
        return dict(json.loads(done.stdout))

    stored = memory("store", "--content", "Omar starts at the bakery", "--category",
                    "fact", "--occurred-at", "2023-09-04T08:00:00Z", "--subject-type",
                    "guest", "--subject-id", "omar")["memory"]
    assert stored["occurred_at"].startswith("2023-09-04T08:00:00")
    other = memory("store", "--content", "Deliveries come on Mondays", "--category",
                   "fact")["memory"]
    assert memory("update", stored["id"], "--category", "context")["memory"]["category"] \
        == "context"
    assert memory("get", stored["id"])["memory"]["category"] == "context"
    moved = memory("store", "--content", "Omar starts at the cafe", "--category", "fact",
                   "--occurred-at", "2023-10-02", "--subject-type", "guest", "--subject-id",
                   "omar", "--supersedes", stored["id"])["memory"]
    versions = memory("history", stored["id"])["versions"]
    assert [(v["op"], v["category"]) for v in versions] == [
        ("store", "fact"), ("update", "context"), ("supersede", "context")]
    assert versions[-1]["superseded_by"] == moved["id"]
    assert [m["id"] for m in memory("list", "--subject-type", "guest", "--subject-id", "omar",
                                    "--as-of", "2023-09-10")["memories"]] == [stored["id"]]
    assert len(memory("list", "--include-superseded")["memories"]) == 3
    assert memory("delete", other["id"]) == {"deleted": other["id"]}
    refused = run_cli(srv.home, "memory", "forget-subject", "demo/memory", "--subject-type",
                      "guest", "--subject-id", "omar", env=env)
    assert refused.returncode == 1
    assert json.loads(refused.stderr)["error"]["code"] == "MEMORY_CONFIRM_REQUIRED"
    assert memory("forget-subject", "--subject-type", "guest", "--subject-id", "omar",
                  "--yes")["ids"] == [stored["id"], moved["id"]]
    assert memory("list")["memories"] == []

    done, heavy = loaded(["--home", str(srv.home), "memory", "search", "demo/memory",
                          "bakery"], env={**os.environ, **env})
    assert done.returncode == 0, done.stderr
    assert heavy == set(), f"a command through the server loaded {sorted(heavy)}"
