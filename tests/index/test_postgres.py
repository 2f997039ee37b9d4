"""What the PostgreSQL backend adds to the shared contract: many writers from several
processes, subject filters that still return complete top-k, an unreachable database as
a clear retryable error, refusals that write nothing, migrations that run twice."""

from __future__ import annotations

import multiprocessing
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from index import (
    DatabaseUnavailable,
    HashingEmbedder,
    IdempotencyKeyReused,
    InvalidCategory,
    MemoryCapacity,
    MemorySettings,
)
from index.postgres import SCHEMA_VERSION, Database, PostgresMemoryStore
from tests.pg import PgServer, start_server
from tests.index.import_cases import refused_part_way

SCOPED = MemorySettings(subject_scoping=True, max_memories=30, max_per_subject=8,
                        relevance_threshold=0.0)


@pytest.fixture
def db(pg_database: Database) -> Database:
    return pg_database


def _store(db: Database | str, element: str, **kw: Any) -> PostgresMemoryStore:
    return PostgresMemoryStore(db, element, HashingEmbedder(256), **kw)


def _postings(db: Database, element: str) -> dict[int, dict[str, tuple[int, int]]]:
    """The element's postings blocks read record by record (the layout of
    ``postgres/bm25.py``, decoded here on its own): ``{seq: {term: (tf, length)}}``;
    fails on a memory twice in a term's postings."""
    import struct
    from index.postgres.bm25 import BLOCK
    found: dict[int, dict[str, tuple[int, int]]] = {}
    with db.transaction() as cur:
        cur.execute("SELECT term, block, records FROM memory_postings WHERE element = %s",
                    (element,))
        for term, block, records in cur.fetchall():
            assert records and len(records) % 8 == 0, "an empty or torn block"
            for (value,) in struct.iter_unpack(">Q", bytes(records)):
                seq = block * BLOCK + (value >> 48)
                assert term not in found.get(seq, {}), (seq, term)
                found.setdefault(seq, {})[term] = ((value >> 24) & 0xFFFFFF,
                                                   value & 0xFFFFFF)
    return found


def _row_terms(db: Database, element: str) -> dict[int, dict[str, tuple[int, int]]]:
    """What the postings hold, from each row's own terms: ``{seq: {term: (tf, length)}}``."""
    with db.transaction() as cur:
        cur.execute("SELECT seq, lex_terms, lex_tf, lex_len FROM memories WHERE "
                    "element = %s AND cardinality(lex_terms) > 0", (element,))
        return {int(seq): {t: (f, int(length)) for t, f in zip(terms, tfs, strict=True)}
                for seq, terms, tfs, length in cur.fetchall()}


def _writer(url: str, element: str, worker: int, count: int) -> None:
    store = _store(url, element)
    try:
        for i in range(count):
            store.store(content=f"worker {worker} note {i}", category="fact",
                        subject_type="guest", subject_id=f"g{(worker + i) % 3}",
                        settings=SCOPED)
            store.store(content=f"general {worker}.{i}", category="fact", settings=SCOPED)
    finally:
        store.close()


def test_concurrent_writers_in_several_processes_keep_the_caps_and_the_pools(
        db: Database, tmp_path: Path) -> None:
    element = str(tmp_path)
    store = _store(db, element)
    ctx = multiprocessing.get_context("spawn")
    workers = [ctx.Process(target=_writer, args=(db.url, element, w, 25)) for w in range(4)]
    for p in workers:
        p.start()
    for p in workers:
        p.join(120)
        assert p.exitcode == 0
    stats = store.stats(settings=SCOPED)
    # 200 stores against a cap of 30: the total never passes the cap, no subject passes
    # its own, and sequence numbers stayed unique (the unique index would have refused).
    assert stats["total"] == 30
    assert all(s["count"] <= 8 for s in stats["by_subject"])
    assert stats["general"] == 30 - sum(s["count"] for s in stats["by_subject"])
    assert len(store) == 30
    # Every write appended to or rewrote shared postings blocks: none lost a record or
    # kept one of an evicted memory.
    assert _postings(db, element) == _row_terms(db, element)
    assert store.verify() == []


def _keyed_writer(url: str, element: str, worker: int, count: int, out: str) -> None:
    """Store ``count`` memories past the caps of ``element`` and ``count`` under keys every
    worker shares into ``element + "/keys"`` (no cap reached there: a key lives in its
    memory, so an evicted memory's key is free again); write what each call acknowledged."""
    import json
    store, keyed = _store(url, element), _store(url, element + "/keys")
    stored, evicted, keys = [], [], {}
    try:
        for i in range(count):
            subject = {"subject_type": "guest", "subject_id": f"g{(worker + i) % 3}"} \
                if i % 3 else {}
            result = store.store(content=f"worker {worker} note {i}", category="fact",
                                 settings=SCOPED, **subject)
            stored.append(result.memory["id"])
            evicted.extend(result.evicted)
            key = f"shared-{(i + worker) % count}"
            keys[key] = keyed.store(content=f"keyed note {key}", category="fact",
                                    idempotency_key=key,
                                    settings=MemorySettings()).memory["id"]
    finally:
        store.close()
        keyed.close()
    Path(out).write_text(json.dumps({"stored": stored, "evicted": evicted, "keys": keys}))


def test_writers_in_several_processes_lose_nothing_and_share_their_keys(
        db: Database, tmp_path: Path) -> None:
    """Three processes store into one element at once, past its caps (30, 8 a subject),
    and under idempotency keys all of them use into another: every acknowledged memory is
    either still there or was reported evicted by exactly one call, the caps hold, and
    each key names one memory, the same for every process."""
    import json
    element = str(tmp_path)
    store = _store(db, element)
    ctx = multiprocessing.get_context("spawn")
    outs = [str(tmp_path / f"w{w}.json") for w in range(3)]
    workers = [ctx.Process(target=_keyed_writer, args=(db.url, element, w, 40, outs[w]))
               for w in range(3)]
    for p in workers:
        p.start()
    for p in workers:
        p.join(180)
        assert p.exitcode == 0
    runs = [json.loads(Path(out).read_text()) for out in outs]
    stored = [i for run in runs for i in run["stored"]]
    evicted = [i for run in runs for i in run["evicted"]]
    present = {m["id"] for m in store.iter_memories()}
    assert len(stored) == len(set(stored)) == 120
    assert len(evicted) == len(set(evicted)), "a memory was reported evicted twice"
    assert set(evicted) <= set(stored)
    assert present == set(stored) - set(evicted), "an acknowledged memory went missing"
    stats = store.stats(settings=SCOPED)
    assert stats["total"] == len(present) == SCOPED.max_memories
    assert all(s["count"] <= SCOPED.max_per_subject for s in stats["by_subject"])
    # One memory per key, whichever process stored it first; the others got its id.
    for key in runs[0]["keys"]:
        assert len({run["keys"][key] for run in runs}) == 1, key
    assert len(_store(db, element + "/keys")) == 40
    assert _postings(db, element) == _row_terms(db, element)


def test_fair_eviction_takes_the_least_accessed_oldest_of_the_own_pool(db: Database,
                                                                       tmp_path: Path) -> None:
    store = _store(db, str(tmp_path))
    settings = MemorySettings(subject_scoping=True, max_memories=100, max_per_subject=3,
                              relevance_threshold=0.0)
    first = [store.store(content=f"alice fact {i}", category="fact", subject_type="guest",
                         subject_id="alice", settings=settings).memory["id"] for i in range(3)]
    bob = store.store(content="bob fact", category="fact", subject_type="guest",
                      subject_id="bob", settings=settings).memory["id"]
    store.search(query="alice fact 0", subject_type="guest", subject_id="alice", limit=1,
                 settings=settings)   # first[0] is now accessed once
    result = store.store(content="alice fact 3", category="fact", subject_type="guest",
                         subject_id="alice", settings=settings)
    assert result.evicted == [first[1]]
    assert store.get(bob)["id"] == bob
    full = MemorySettings(subject_scoping=True, max_memories=4, relevance_threshold=0.0)
    with pytest.raises(MemoryCapacity):
        store.store(content="a general memory", category="fact", settings=full)
    assert len(store) == 4


def test_an_idempotency_key_is_unique_and_a_refusal_writes_nothing(db: Database,
                                                                   tmp_path: Path) -> None:
    store = _store(db, str(tmp_path))
    settings = MemorySettings()
    one = store.store(content="x", category="fact", idempotency_key="k1", settings=settings)
    again = store.store(content="x", category="fact", idempotency_key="k1", settings=settings)
    assert again.memory["id"] == one.memory["id"] and len(store) == 1
    with pytest.raises(IdempotencyKeyReused):
        store.store(content="y", category="fact", idempotency_key="k1", settings=settings)
    with pytest.raises(InvalidCategory):
        store.store_many([{"content": "fine", "category": "fact"},
                          {"content": "bad", "category": "nope"}], settings=settings)
    assert len(store) == 1
    # Reopened (another worker): the key still answers with the first memory.
    other = _store(db, str(tmp_path))
    assert other.store(content="x", category="fact", idempotency_key="k1",
                       settings=settings).memory["id"] == one.memory["id"]


def test_retention_and_forget_subject(db: Database, tmp_path: Path) -> None:
    now = [1_700_000_000.0]
    store = PostgresMemoryStore(db, str(tmp_path), HashingEmbedder(256), clock=lambda: now[0])
    settings = MemorySettings(retention={"context": 1})
    old = store.store(content="old context", category="context", settings=settings)
    keep = store.store(content="a fact", category="fact", subject_type="guest",
                       subject_id="zoe", settings=settings)
    now[0] += 2 * 86_400
    assert store.reap(settings=settings) == [old.memory["id"]]
    assert store.forget_subject("guest", "zoe", confirm=True) == {
        "deleted": 1, "ids": [keep.memory["id"]]}
    assert len(store) == 0
    assert store.verify() == []


def test_a_delete_vacuums_before_it_answers(pg_server: PgServer) -> None:
    """A delete is erasure (issue 26): after the DELETE, a ``VACUUM`` prunes the deleted
    row from the table's pages before the call answers, as forget_subject's does (what
    PostgreSQL then leaves on disk: docs/deploy.md). Seen in the table's vacuum count,
    which a VACUUM command updates in the server's shared statistics as it ends."""
    db = Database(pg_server.create_database("delete_vacuums"))
    try:
        db.migrate()
        store = _store(db, "element")
        ids = [store.store(content=f"note {i}", category="fact",
                           settings=MemorySettings()).memory["id"] for i in range(3)]

        def vacuums() -> dict[str, int]:
            with db.transaction() as cur:
                cur.execute("SELECT relname, vacuum_count FROM pg_stat_user_tables "
                            "WHERE relname IN ('memories', 'memory_postings')")
                return {name: int(count) for name, count in cur.fetchall()}
        before = vacuums()
        assert set(before) == {"memories", "memory_postings"}
        with db.transaction() as cur:
            cur.execute("SELECT seq FROM memories WHERE id = %s", (ids[0],))
            seq = int(cur.fetchone()[0])
        assert seq in _postings(db, "element")
        store.delete(ids[0])
        after = vacuums()
        # The postings blocks the memory was in were rewritten without it, and their old
        # versions pruned with the row.
        assert all(after[table] == before[table] + 1 for table in before), (before, after)
        assert seq not in _postings(db, "element")
        assert [m["id"] for m in store.iter_memories()] == ids[:0:-1]
        store.close()
    finally:
        db.close()


def _unit(rng: np.random.Generator, n: int, dim: int) -> np.ndarray:
    x = rng.standard_normal((n, dim)).astype(np.float32)
    return x / np.linalg.norm(x, axis=1, keepdims=True)


def test_a_selective_subject_filter_returns_complete_top_k(db: Database,
                                                           tmp_path: Path) -> None:
    store = _store(db, str(tmp_path))
    settings = MemorySettings(subject_scoping=True, max_memories=100_000,
                              max_per_subject=100_000, relevance_threshold=0.0)
    items = [{"content": f"note {i} on topic {i % 97}", "category": "fact",
              "subject_type": "guest", "subject_id": f"g{i % 40}"} for i in range(2000)]
    items += [{"content": f"carol detail {i}", "category": "fact",
               "subject_type": "circle_member", "subject_id": "carol"} for i in range(12)]
    store.store_many(items, settings=settings)
    found = store.search(query="note on topic", subject_type="circle_member",
                         subject_id="carol", limit=10, settings=settings)
    # General pool is empty: every result is carol's, and there are ten of them.
    assert len(found.results) == 10
    assert {r["memory"]["subject_id"] for r in found.results} == {"carol"}


def test_migrations_run_twice_change_nothing(pg_server: PgServer) -> None:
    url = pg_server.create_database("migrate_twice")
    db = Database(url)
    try:
        assert db.migrate() == list(range(1, SCHEMA_VERSION + 1))
        assert db.migrate() == []
        assert db.version() == SCHEMA_VERSION
    finally:
        db.close()


def _back_to(db: Database, version: int) -> None:
    """The memory tables as schema ``version`` (2 or 3) left them, holding what that
    version wrote for the memories there now (none of step 5's validity columns, nor step
    6's lexical scheme): version 3 kept one row per posting in ``memory_terms`` (no
    blocks), version 2 had neither the document frequencies nor each row's own terms."""
    with db.transaction() as cur:
        cur.execute("""
            CREATE TABLE memory_terms (
                element text NOT NULL, id text NOT NULL, term text NOT NULL,
                tf integer NOT NULL, len integer NOT NULL,
                PRIMARY KEY (element, term, id) INCLUDE (tf, len),
                FOREIGN KEY (element, id) REFERENCES memories (element, id)
                    ON DELETE CASCADE);
            CREATE INDEX memory_terms_memory ON memory_terms (element, id);
            INSERT INTO memory_terms SELECT m.element, m.id, u.term, u.tf, m.lex_len
                FROM memories m, unnest(m.lex_terms, m.lex_tf) AS u(term, tf);
            DROP TABLE memory_postings;
            ALTER TABLE memories DROP COLUMN valid_from, DROP COLUMN valid_from_ts,
                DROP COLUMN valid_until, DROP COLUMN valid_until_ts,
                DROP COLUMN superseded_by, DROP COLUMN history;
            ALTER TABLE memory_elements DROP COLUMN lex_scheme;
            DELETE FROM schema_version WHERE version >= 4;""")
        if version == 2:
            cur.execute("""
                ALTER TABLE memory_terms DROP CONSTRAINT memory_terms_pkey,
                    ADD CONSTRAINT memory_terms_pkey PRIMARY KEY (element, term, id);
                DROP TABLE memory_term_df;
                ALTER TABLE memories DROP COLUMN lex_terms, DROP COLUMN lex_tf;
                DELETE FROM schema_version WHERE version = 3;""")


def _budget_memories(store: PostgresMemoryStore, settings: MemorySettings) -> None:
    for i in range(12):
        store.store(content=f"lunch with the budget committee {i}", category="fact",
                    context="planning the spring budget" if i % 2 else None,
                    settings=settings)
    store.store(content="walking the dog by the river", category="fact",
                settings=settings)


@pytest.mark.parametrize("version", [2, 3])
def test_a_database_of_an_older_schema_upgrades_in_place(
        pg_server: PgServer, monkeypatch: pytest.MonkeyPatch, version: int) -> None:
    """Migrations 3 (document frequencies, each row's own terms) and 4 (postings in
    blocks) fill what they add from the memories already there: the same search, the
    same scores, on either plan (a pool scored whole, a pool walked through the
    postings), and verify finds nothing to fix."""
    from index.postgres import search as pg_search
    url = pg_server.create_database(f"migrate_from_{version}")
    db = Database(url)
    try:
        db.migrate()
        store = _store(db, "e")
        settings = MemorySettings(relevance_threshold=0.0)
        _budget_memories(store, settings)
        searches = {}
        for exact_max in (1024, 0):
            monkeypatch.setattr(pg_search, "EXACT_MAX", exact_max)
            searches[exact_max] = store.search(query="budget river", limit=5,
                                               settings=settings)
        _back_to(db, version)
        assert db.migrate() == list(range(version + 1, SCHEMA_VERSION + 1))
        # Migration 3 rebuilds the lane indexes of the default size; a store of another
        # size builds its own on open (a worker migrates on open, then opens its stores).
        store = _store(db, "e")
        for exact_max, before in searches.items():
            monkeypatch.setattr(pg_search, "EXACT_MAX", exact_max)
            after = store.search(query="budget river", limit=5, settings=settings)
            assert [r["memory"]["id"] for r in after.results] == \
                [r["memory"]["id"] for r in before.results]
            assert [r["score"] for r in after.results] == \
                pytest.approx([r["score"] for r in before.results])
        assert store.verify() == []
        # And the upgraded element keeps taking writes.
        store.store(content="a budget for the river walk", category="fact",
                    settings=settings)
        assert store.verify() == []
    finally:
        db.close()


def test_migration_4_writes_the_postings_the_code_writes() -> None:
    """A released migration never changes: the postings it fills are those the code
    writes now (bm25.postings_rebuild_sql). A new layout of the postings needs a new
    migration; this fails until it has one."""
    from index.postgres import bm25, db as pg_db
    assert pg_db._POSTINGS_FROM_ROWS == bm25.postings_rebuild_sql()


def test_an_unreachable_database_is_a_retryable_error_and_reconnects() -> None:
    server = start_server("fsync=off")
    try:
        store = _store(server.url, "outage", index_params=None)
        store.store(content="before", category="fact", settings=MemorySettings())
        server.halt()
        with pytest.raises(DatabaseUnavailable) as caught:
            store.store(content="during", category="fact", settings=MemorySettings())
        assert caught.value.retryable and caught.value.error_class == "unavailable"
        server.start("fsync=off")
        assert len(store) == 1   # the pool reconnected on its own; nothing half-written
        store.close()
    finally:
        server.stop()
    with pytest.raises(DatabaseUnavailable):
        _store("postgresql://postgres@127.0.0.1:1/none", "nowhere")


def test_term_statistics_follow_every_write(db: Database, tmp_path: Path) -> None:
    """Document frequencies and each row's own terms (what search scores BM25 from) agree
    with the postings after stores, updates, evictions, deletes and forget_subject."""
    element = str(tmp_path)
    store = _store(db, element)
    settings = MemorySettings(subject_scoping=True, max_memories=12, max_per_subject=4,
                              relevance_threshold=0.0)
    ids = []
    for i in range(20):
        subject = ("guest", f"g{i % 3}") if i % 2 else (None, None)
        ids.append(store.store(content=f"the budget meeting {i} by the river",
                               context="planning the budget" if i % 4 == 0 else None,
                               category="fact", subject_type=subject[0],
                               subject_id=subject[1], settings=settings).memory["id"])
    alive = [m["id"] for m in store.iter_memories()]
    store.update(alive[0], content="a walk in the mountains", settings=settings)
    store.update(alive[1], context="a new window about coffee", settings=settings)
    store.delete(alive[2])
    store.forget_subject("guest", "g1", confirm=True)

    def statistics() -> tuple[dict[str, int], dict[str, int], dict[str, dict[str, int]]]:
        with db.transaction() as cur:
            cur.execute("SELECT term, df FROM memory_term_df WHERE element = %s AND df <> 0",
                        (element,))
            kept = {str(t): int(n) for t, n in cur.fetchall()}
            cur.execute("SELECT term, count(*) FROM memories, unnest(lex_terms) AS term "
                        "WHERE element = %s GROUP BY term", (element,))
            counted = {str(t): int(n) for t, n in cur.fetchall()}
            cur.execute("SELECT id, lex_terms, lex_tf FROM memories WHERE element = %s",
                        (element,))
            rows = {str(i): dict(zip(t, f, strict=True)) for i, t, f in cur.fetchall()}
        return kept, counted, rows

    kept, counted, rows = statistics()
    assert kept == counted and len(counted) > 5
    assert _postings(db, element) == _row_terms(db, element)
    assert store.verify() == []


def _rewrite_record(db: Database, element: str, change: Any) -> None:
    """Rewrite the first record of one postings block (the layout of ``bm25.py``):
    ``change(record) -> bytes`` (8 bytes, 16 for an extra one, 0 for none)."""
    with db.transaction() as cur:
        cur.execute("SELECT term, block, records FROM memory_postings WHERE element = %s "
                    "ORDER BY term, block LIMIT 1", (element,))
        term, block, records = cur.fetchone()
        records = bytes(records)
        cur.execute("UPDATE memory_postings SET records = %s WHERE element = %s AND "
                    "term = %s AND block = %s",
                    (change(records[:8]) + records[8:], element, term, block))


@pytest.mark.parametrize("damage", ["tf", "length", "lost", "repeated", "block"])
def test_verify_finds_postings_that_disagree_with_the_rows_and_rebuilds_them(
        db: Database, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        damage: str) -> None:
    """One record of the postings wrong in any field, lost, repeated, or a whole block
    gone: verify reports it, repair rebuilds the postings, and the search scores what it
    scored before. (Counting the records alone, as before, missed a wrong field.)"""
    from index.postgres import search as pg_search
    element = str(tmp_path)
    store = _store(db, element)
    settings = MemorySettings(relevance_threshold=0.0)
    _budget_memories(store, settings)
    monkeypatch.setattr(pg_search, "EXACT_MAX", 0)   # every search from the postings
    before = store.search(query="budget river", limit=5, settings=settings)

    def bump(field: int) -> Any:
        return lambda r: (int.from_bytes(r, "big") + (1 << field)).to_bytes(8, "big")

    if damage == "block":
        with db.transaction() as cur:
            cur.execute("DELETE FROM memory_postings WHERE element = %s AND term = %s",
                        (element, "budget"))
    else:
        _rewrite_record(db, element, {"tf": bump(24), "length": bump(0),
                                      "lost": lambda r: b"",
                                      "repeated": lambda r: r + r}[damage])
    found = store.verify()
    assert [i["problem"] for i in found] == \
        ["the lexical postings disagree with the memories' terms"]
    assert [i.get("fixed") for i in store.verify(repair=True)] == [True]
    assert store.verify() == []
    assert _postings(db, element) == _row_terms(db, element)
    after = store.search(query="budget river", limit=5, settings=settings)
    assert [(r["memory"]["id"], r["score"]) for r in after.results] == \
        [(r["memory"]["id"], pytest.approx(r["score"])) for r in before.results]


def test_an_element_written_under_another_lexical_scheme_is_indexed_again_on_open(
        db: Database, tmp_path: Path) -> None:
    """Terms written before an apostrophe's ending was folded into its word ("Abe's"
    as "abe" and "s"), or with the context as a field when the store now leaves it out:
    the next store to open the element writes every row's terms again, under its lock,
    and searches as a file store of the same memories does (the file store re-indexes
    its records the same way)."""
    from index import IndexParams, MemoryStore
    from index.lexical import term_counts
    element = str(tmp_path / "pg")
    settings = MemorySettings(relevance_threshold=0.0)
    texts = [("Abe's cousin's wedding was lovely", "we're talking about Abe's family"),
             ("Abe works as the head chef", None), ("Maria's dog can't swim", "the dog")]
    store = _store(db, element)
    for content, context in texts:
        store.store(content=content, context=context, category="fact", settings=settings)
    store.close()
    # As the code before schemes wrote them: every apostrophe's ending a word.
    with db.transaction() as cur:
        cur.execute("SELECT id, content, context FROM memories WHERE element = %s",
                    (element,))
        for memory_id, content, context in cur.fetchall():
            old = term_counts(content.replace("'", " "),
                              context.replace("'", " ") if context else None, True)
            old.update({"s": 1})
            cur.execute("UPDATE memories SET lex_terms = %s, lex_tf = %s, lex_len = %s "
                        "WHERE element = %s AND id = %s",
                        (sorted(old), [old[w] for w in sorted(old)], sum(old.values()),
                         element, memory_id))
        cur.execute("UPDATE memory_elements SET lex_scheme = NULL WHERE element = %s",
                    (element,))
    for situated in (True, False):
        params = IndexParams(situated_lexical=situated)
        store = _store(db, element, index_params=params)
        file_store = MemoryStore(tmp_path / f"file-{situated}", HashingEmbedder(256),
                                 index_params=params)
        try:
            for content, context in texts:
                file_store.store(content=content, context=context, category="fact",
                                 settings=settings)
            assert "s" not in {t for terms in _row_terms(db, element).values()
                               for t in terms}
            assert _postings(db, element) == _row_terms(db, element)
            assert store.verify() == []
            for query in ("What is Abe's job?", "Maria's dog"):
                want = file_store.search(query=query, settings=settings).results
                got = store.search(query=query, settings=settings).results
                assert [(r["memory"]["content"], pytest.approx(r["score"], abs=1e-5))
                        for r in got] == [(r["memory"]["content"], r["score"])
                                          for r in want], query
        finally:
            store.close()
            file_store.close()


@pytest.mark.parametrize("damage", ["counters", "lane index"])
def test_verify_finds_bm25_counters_and_lane_indexes_astray_and_fixes_them(
        pg_server: PgServer, damage: str) -> None:
    db = Database(pg_server.create_database(f"verify_{damage.replace(' ', '_')}"))
    try:
        db.migrate()
        store = _store(db, "e")
        settings = MemorySettings(relevance_threshold=0.0)
        _budget_memories(store, settings)
        with db.transaction() as cur:
            if damage == "counters":
                cur.execute("UPDATE memory_elements SET lex_docs = lex_docs + 1")
            else:
                cur.execute("DROP INDEX memories_hnsw_context_256")
        problem = {"counters": "the lexical index counters disagree with the memories",
                   "lane index": "lane indexes for 256-dimensional vectors are missing"}
        assert [i["problem"] for i in store.verify()] == [problem[damage]]
        assert [i.get("fixed") for i in store.verify(repair=True)] == [True]
        assert store.verify() == []
        store.close()
    finally:
        db.close()


def test_an_import_refused_part_way_leaves_no_postings(db: Database, tmp_path: Path) -> None:
    """The contract's all-or-nothing import (tests/index/test_backend.py), seen in the
    postings: the records the accepted items appended to the blocks go with them."""
    from index import MemoryCapacity
    element = str(tmp_path)
    store = _store(db, element)
    full, items = refused_part_way()
    with pytest.raises(MemoryCapacity):
        store.import_memories(items, model_id=None, settings=full)
    assert _postings(db, element) == {}
    store.import_memories(items[:5], model_id=None, settings=full)
    assert _postings(db, element) == _row_terms(db, element) and len(_row_terms(db, element)) == 5
    assert store.verify() == []
