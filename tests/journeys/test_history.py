"""Journey: a memory keeps its history (issue 23), over HTTP on ``triform serve``.

Maria lives in Porto; a month later the agent stores that she lives in Lisbon, naming the
Porto memory in ``supersedes``. Search answers Lisbon; ``as_of`` a day before answers
Porto; the history of the Porto memory shows both versions; a retire ends the Lisbon one;
bad input is refused in the one error shape and writes nothing; deleting the Lisbon
memory hands its end back to the Porto one; a delete erases the memory with its history.
"""

from __future__ import annotations

import json

from collections.abc import Callable
from pathlib import Path

from tests.helpers import HttpClient, Served, run_cli
from tests.pg import PgServer

MEMORY = "/api/demo/memory/ops"
MARIA = {"subject_type": "guest", "subject_id": "maria"}
JOAO = {"subject_type": "guest", "subject_id": "joao"}


def test_porto_then_lisbon_keeps_history(serve: Callable[..., Served]) -> None:
    client = serve().client()
    porto = client.post(f"{MEMORY}/store", {"content": "Maria lives in Porto",
                                            "category": "fact", **MARIA,
                                            "occurred_at": "2024-01-10"})
    assert porto.status == 201, porto.body
    porto_id = porto.body["memory"]["id"]
    assert porto.body["memory"]["valid_from"] == "2024-01-10T00:00:00.000000Z"
    assert porto.body["memory"]["valid_until"] is None
    lisbon = client.post(f"{MEMORY}/store", {"content": "Maria lives in Lisbon",
                                             "category": "fact", **MARIA,
                                             "occurred_at": "2024-02-21",
                                             "supersedes": [porto_id]})
    assert lisbon.status == 201, lisbon.body
    lisbon_id = lisbon.body["memory"]["id"]

    def found(**extra: object) -> list[str]:
        reply = client.post(f"{MEMORY}/search", {"query": "Maria lives in", **MARIA,
                                                 **extra})
        assert reply.status == 200, reply.body
        return [hit["memory"]["content"] for hit in reply.body["results"]]
    assert found() == ["Maria lives in Lisbon"]
    assert found(as_of="2024-02-01") == ["Maria lives in Porto"]
    assert sorted(found(include_superseded=True)) == ["Maria lives in Lisbon",
                                                      "Maria lives in Porto"]
    listed = client.get(f"{MEMORY}/memories?subject_type=guest&subject_id=maria"
                        "&as_of=2024-02-01").body["memories"]
    assert [m["id"] for m in listed] == [porto_id]

    history = client.get(f"{MEMORY}/memories/{porto_id}/history")
    assert history.status == 200, history.body
    assert [(v["op"], v["content"], v["valid_until"]) for v in history.body["versions"]] == [
        ("store", "Maria lives in Porto", None),
        ("supersede", "Maria lives in Porto", "2024-02-21T00:00:00.000000Z")]
    assert history.body["versions"][1]["superseded_by"] == lisbon_id

    # Bad input: one error shape, nothing written.
    joao = client.post(f"{MEMORY}/store", {"content": "Joao lives in Braga",
                                           "category": "fact", **JOAO}).body["memory"]["id"]
    before = client.get(f"{MEMORY}/memories?include_superseded=true").body
    for body, status, code in [
            ({"supersedes": [joao]}, 404, "MEMORY_NOT_FOUND"),
            ({"supersedes": ["f" * 32]}, 404, "MEMORY_NOT_FOUND"),
            ({"supersedes": [porto_id]}, 409, "MEMORY_NOT_CURRENT"),
            ({"supersedes": "nope"}, 400, None)]:
        reply = client.post(f"{MEMORY}/store", {"content": "Maria lives in Faro",
                                                "category": "fact", **MARIA, **body})
        assert reply.status == status, reply.body
        assert set(reply.body["error"]) >= {"code", "class", "retryable", "message"}
        assert code is None or reply.body["error"]["code"] == code
    bad_time = client.post(f"{MEMORY}/search", {"query": "x", "as_of": "last tuesday"})
    assert bad_time.status == 400 and bad_time.body["error"]["code"] == "MEMORY_INVALID"
    assert client.get(f"{MEMORY}/memories?as_of=soon").status == 400
    assert client.get(f"{MEMORY}/memories?include_superseded=true").body == before

    unreasoned = client.post(f"{MEMORY}/memories/{lisbon_id}/update", {"retire": True})
    assert unreasoned.status == 400, unreasoned.body
    retired = client.post(f"{MEMORY}/memories/{lisbon_id}/update",
                          {"retire": True, "reason": "moved abroad", "at": "2024-06-01"})
    assert retired.status == 200, retired.body
    assert retired.body["memory"]["valid_until"] == "2024-06-01T00:00:00.000000Z"
    assert found() == []
    mixed = client.post(f"{MEMORY}/memories/{lisbon_id}/update",
                        {"retire": True, "reason": "x", "content": "y"})
    assert mixed.status == 400, mixed.body
    again = client.post(f"{MEMORY}/memories/{lisbon_id}/update",
                        {"retire": True, "reason": "again"})
    assert again.status == 409 and again.body["error"]["code"] == "MEMORY_NOT_CURRENT"
    last = client.get(f"{MEMORY}/memories/{lisbon_id}/history").body["versions"][-1]
    assert (last["op"], last["reason"]) == ("retire", "moved abroad")

    # Deleting the retired Lisbon memory takes it back: Porto takes over its end.
    assert client.post(f"{MEMORY}/memories/{lisbon_id}/delete", {}).status == 200
    porto_now = client.get(f"{MEMORY}/memories/{porto_id}").body["memory"]
    assert (porto_now["valid_until"], porto_now["superseded_by"]) == (
        "2024-06-01T00:00:00.000000Z", None)
    last = client.get(f"{MEMORY}/memories/{porto_id}/history").body["versions"][-1]
    assert last["op"] == "delete" and lisbon_id in last["reason"]
    assert client.post(f"{MEMORY}/memories/{porto_id}/delete", {}).status == 200
    gone = client.get(f"{MEMORY}/memories/{porto_id}/history")
    assert gone.status == 404 and gone.body["error"]["code"] == "MEMORY_NOT_FOUND"


def test_migrate_and_backup_carry_history(serve: Callable[..., Served], tmp_path: Path,
                                          pg_server: PgServer) -> None:
    """A backup verified and restored, and ``triform migrate`` to PostgreSQL and back,
    keep each memory's validity and history."""
    url = pg_server.create_database("history_home")
    srv = serve("home")
    client = srv.client()
    porto = client.post(f"{MEMORY}/store", {"content": "Maria lives in Porto",
                                            "category": "fact", **MARIA}).body["memory"]
    client.post(f"{MEMORY}/memories/{porto['id']}/update",
                {"content": "Maria lives in Porto, Ribeira"})
    lisbon = client.post(f"{MEMORY}/store", {"content": "Maria lives in Lisbon",
                                             "category": "fact", **MARIA,
                                             "supersedes": [porto["id"]]}).body["memory"]

    def seen(c: HttpClient) -> dict[str, object]:
        return {m: (c.get(f"{MEMORY}/memories/{m}").body["memory"],
                    c.get(f"{MEMORY}/memories/{m}/history").body["versions"])
                for m in (porto["id"], lisbon["id"])}
    before = seen(client)
    backup = run_cli(srv.home, "backup", "--to", str(tmp_path / "backup"))
    assert backup.returncode == 0, backup.stderr
    assert srv.stop() == 0
    verified = run_cli(None, "backup", "--verify", str(tmp_path / "backup"))
    assert verified.returncode == 0, verified.stderr
    restored = run_cli(None, "restore", "--from", str(tmp_path / "backup"), "--home",
                       str(tmp_path / "restored"))
    assert restored.returncode == 0, restored.stderr
    again = serve("restored")
    assert seen(again.client(srv.token)) == before
    assert again.stop() == 0
    moved = run_cli(srv.home, "migrate", "--to", url)
    assert moved.returncode == 0, moved.stderr
    on_pg = serve("home", args=("--database", url))
    pg = on_pg.client(srv.token)
    assert seen(pg) == before
    # Stored on PostgreSQL, then back to files: their history comes along, and so does
    # the supersede of a memory the files held already (migrate replaces the files'
    # older version of it).
    faro = pg.post(f"{MEMORY}/store", {"content": "Maria lives in Faro", "category": "fact",
                                       **MARIA, "supersedes": [lisbon["id"]]}
                   ).body["memory"]["id"]
    braga = pg.post(f"{MEMORY}/store", {"content": "Maria lives in Braga", "category": "fact",
                                        **MARIA, "supersedes": [faro]}).body["memory"]["id"]
    pg.post(f"{MEMORY}/memories/{braga}/update", {"retire": True, "reason": "left"})
    # Porto too: replacing Lisbon's older version in the files is no takeback, so the
    # memory Lisbon superseded is not handed Lisbon's end (``hand_on=False``).
    made = {m: (pg.get(f"{MEMORY}/memories/{m}").body["memory"],
                pg.get(f"{MEMORY}/memories/{m}/history").body["versions"])
            for m in (porto["id"], lisbon["id"], faro, braga)}
    assert made[lisbon["id"]][0]["superseded_by"] == faro
    assert [v["op"] for v in made[braga][1]] == ["store", "retire"]
    assert on_pg.stop() == 0
    back = run_cli(srv.home, "--database", url, "migrate", "--to", "files")
    assert back.returncode == 0, back.stderr
    (element,) = json.loads(back.stdout)["elements"]
    assert (element["imported"], element["replaced"], element["conflicts"]) == (2, 1, [])
    files = serve("home").client(srv.token)
    assert {m: (files.get(f"{MEMORY}/memories/{m}").body["memory"],
                files.get(f"{MEMORY}/memories/{m}/history").body["versions"])
            for m in made} == made
