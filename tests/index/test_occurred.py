"""occurred_at: when a remembered thing happened (store, store_many, list, search, disk)."""

from __future__ import annotations

import json

import pytest

from index import InvalidMemory, MemorySettings
from index.records import iso_utc, parse_time
from index.store import LOG_NAME

EVERYTHING = MemorySettings(relevance_threshold=0.0)
DAY = 86_400.0


def test_occurred_at_defaults_to_the_store_time(make_store, clock):
    memory = make_store().store(content="a", category="fact", settings=EVERYTHING).memory
    assert memory["occurred_at"] == memory["created_at"] == iso_utc(clock())


@pytest.mark.parametrize("given, stored", [
    ("2023-05-08T13:56:00Z", "2023-05-08T13:56:00.000000Z"),
    ("2023-05-08T15:56:00+02:00", "2023-05-08T13:56:00.000000Z"),
    ("2023-05-08 13:56", "2023-05-08T13:56:00.000000Z"),          # naive: UTC
    ("2023-05-08", "2023-05-08T00:00:00.000000Z"),                # a date: its midnight
])
def test_occurred_at_is_normalized_to_utc(make_store, given, stored):
    memory = make_store().store(content="a", category="fact", occurred_at=given,
                                settings=EVERYTHING).memory
    assert memory["occurred_at"] == stored


@pytest.mark.file_only("log and checkpoint files")
@pytest.mark.parametrize("bad", ["yesterday", "2023-13-01", "", 1683550560, ["2023"]])
def test_a_malformed_occurred_at_is_refused_and_writes_nothing(make_store, bad):
    store = make_store()
    before = (store.directory / LOG_NAME).read_bytes()
    with pytest.raises(InvalidMemory) as caught:
        store.store(content="a", category="fact", occurred_at=bad, settings=EVERYTHING)
    assert caught.value.field == "occurred_at"
    assert (store.directory / LOG_NAME).read_bytes() == before
    with pytest.raises(InvalidMemory) as caught:
        store.store_many([{"content": "a", "category": "fact", "occurred_at": bad}],
                         settings=EVERYTHING)
    assert (store.directory / LOG_NAME).read_bytes() == before


@pytest.mark.file_only("log and checkpoint files")
def test_occurred_at_survives_reopen_rebuild_and_compaction(make_store, tmp_path):
    store = make_store()
    kept = store.store(content="kept", category="fact", occurred_at="2022-01-02T03:04:05Z",
                       settings=EVERYTHING).memory
    batch = store.store_many([{"content": "b1", "category": "fact",
                               "occurred_at": "2021-06-01"},
                              {"content": "b2", "category": "fact"}], settings=EVERYTHING)
    expected = {kept["id"]: kept["occurred_at"],
                batch[0].memory["id"]: "2021-06-01T00:00:00.000000Z",
                batch[1].memory["id"]: batch[1].memory["created_at"]}
    assert {r.memory["id"]: r.memory["occurred_at"] for r in batch} == {
        k: v for k, v in expected.items() if k != kept["id"]}
    store.close()

    def occurred(store) -> dict[str, str]:
        page, _ = store.list(limit=10)
        return {m["id"]: m["occurred_at"] for m in page}

    reopened = make_store()                    # from the sidecar
    assert reopened.open_report["sidecar"] == "loaded"
    assert occurred(reopened) == expected
    reopened.compact()
    reopened.close()
    (tmp_path / "mem" / "sidecar.json").unlink()
    rebuilt = make_store()                     # from the (compacted) log alone
    assert rebuilt.open_report["rebuilt"]
    assert occurred(rebuilt) == expected
    hits = rebuilt.search(query="kept", occurred_before="2022-01-03", settings=EVERYTHING)
    assert {r["memory"]["id"] for r in hits.results} == {kept["id"], batch[0].memory["id"]}


@pytest.mark.file_only("log and checkpoint files")
def test_a_log_written_before_occurred_at_still_opens(make_store, tmp_path, clock):
    store = make_store()
    memory = store.store(content="old", category="fact", settings=EVERYTHING).memory
    store.close()
    log = tmp_path / "mem" / LOG_NAME
    lines = log.read_text().splitlines()
    entries = [json.loads(line) for line in lines]
    for entry in entries:
        if entry["op"] == "store":
            del entry["record"]["occurred_at"]          # the format of older logs
    log.write_text("".join(json.dumps(e) + "\n" for e in entries))
    (tmp_path / "mem" / "sidecar.json").unlink()
    old = make_store()
    assert old.get(memory["id"])["occurred_at"] == memory["created_at"]
    hits = old.search(query="old", occurred_after=iso_utc(clock() - 1), settings=EVERYTHING)
    assert [r["memory"]["id"] for r in hits.results] == [memory["id"]]


@pytest.mark.file_only("log and checkpoint files")
def test_a_checkpoint_written_before_occurred_at_still_loads(make_store, tmp_path):
    store = make_store()
    memory = store.store(content="old", category="fact", settings=EVERYTHING).memory
    store.close()
    records = next((tmp_path / "mem").glob("records.g*.json"))
    data = json.loads(records.read_text())
    del data["columns"]["occurred_at"], data["columns"]["occurred_ts"]
    records.write_text(json.dumps(data))
    manifest = json.loads((tmp_path / "mem" / "sidecar.json").read_text())
    import zlib
    body = records.read_bytes()
    manifest["files"][records.name] = {"size": len(body), "crc32": zlib.crc32(body)}
    (tmp_path / "mem" / "sidecar.json").write_text(json.dumps(manifest))
    old = make_store()
    assert old.open_report["sidecar"] == "loaded"
    assert old.get(memory["id"])["occurred_at"] == memory["created_at"]


def _store_days(store, days: list[str]) -> dict[str, str]:
    return {store.store(content=f"went hiking with Sam on {day}", category="fact",
                        occurred_at=day, settings=EVERYTHING).memory["id"]: day
            for day in days}


def test_list_filters_by_occurred_at_with_exclusive_bounds(make_store):
    store = make_store()
    by_id = _store_days(store, ["2023-01-01", "2023-02-01", "2023-03-01", "2023-04-01"])
    page, _ = store.list(occurred_after="2023-01-01", occurred_before="2023-04-01")
    assert sorted(by_id[m["id"]] for m in page) == ["2023-02-01", "2023-03-01"]
    with pytest.raises(InvalidMemory) as caught:
        store.list(occurred_after="soon")
    assert caught.value.field == "occurred_after"


def test_search_filters_by_occurred_at_and_never_comes_back_short(make_store):
    store = make_store()
    days = [f"2023-{month:02d}-{day:02d}" for month in range(1, 13) for day in (3, 17)]
    by_id = _store_days(store, days)
    for i in range(200):                 # many better matches outside the window
        store.store(content="went hiking with Sam", category="fact",
                    occurred_at=f"2020-01-01T00:00:{i % 60:02d}", settings=EVERYTHING)
    found = store.search(query="went hiking with Sam", limit=5,
                         occurred_after="2023-05-31", occurred_before="2023-07-01",
                         settings=EVERYTHING)
    assert sorted(by_id[r["memory"]["id"]] for r in found.results) == [
        "2023-06-03", "2023-06-17"]
    everything = store.search(query="went hiking with Sam", limit=100,
                              occurred_after="2022-12-31", settings=EVERYTHING)
    assert len(everything.results) == len(days)
    with pytest.raises(InvalidMemory) as caught:
        store.search(query="x", occurred_before=12, settings=EVERYTHING)
    assert caught.value.field == "occurred_before"


def test_a_time_the_query_names_boosts_what_happened_then(make_store, clock):
    store = make_store()
    clock.now = parse_time("2023-12-20T12:00:00Z", "now")
    early = store.store(content="Sam cooked a curry for dinner", category="fact",
                        occurred_at="2023-11-02", settings=EVERYTHING).memory
    late = store.store(content="Sam cooked a curry for dinner", category="fact",
                       occurred_at="2023-12-13", settings=EVERYTHING).memory
    assert store.search(query="What did Sam cook last week?",
                        settings=EVERYTHING).results[0]["memory"]["id"] == late["id"]
    assert store.search(query="What did Sam cook in November 2023?",
                        settings=EVERYTHING).results[0]["memory"]["id"] == early["id"]
    plain = store.search(query="What did Sam cook?", settings=EVERYTHING).results
    assert plain[0]["score"] == pytest.approx(plain[1]["score"])
    # ``now``: the same question asked another day (an eval case's ``as_of``).
    in_november = parse_time("2023-11-07T12:00:00Z", "now")
    assert store.search(query="What did Sam cook last week?", settings=EVERYTHING,
                        now=in_november).results[0]["memory"]["id"] == early["id"]

