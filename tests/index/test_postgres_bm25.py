"""The PostgreSQL backend's best BM25 matches from its postings blocks (``postgres/bm25.py``)
are exactly those of scoring every row: the same memories, the same order (equal scores:
the older first), the same floats, on random small corpora after stores, updates and
deletes, with blocks of a few memories so every corpus spans several."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from index import HashingEmbedder, MemorySettings
from index.lexical import LexicalIndex, terms
from index.postgres import Database, PostgresMemoryStore, bm25
from index.postgres.rows import Table, pool_sql

# Few words, so memories share terms and tie often; "zebra" is in no memory.
WORDS = ["budget", "river", "coffee", "garden", "doctor", "budgets", "rivers"]
SETTINGS = MemorySettings(relevance_threshold=0.0, max_memories=1000,
                          max_per_subject=1000, subject_scoping=True)
_elements = itertools.count()

texts = st.lists(st.sampled_from(WORDS), min_size=1, max_size=6).map(" ".join)
memories = st.lists(st.tuples(texts, st.none() | texts, st.booleans()), min_size=1,
                    max_size=30)


@pytest.fixture
def db(pg_database: Database) -> Database:
    return pg_database


def _exact(db: Database, t: Table, words: list[str], scope: tuple[str, tuple[Any, ...]],
           want: int) -> list[tuple[float, str]]:
    """Every row of the scope scored by ``bm25.row_sql``, ranked by score then sequence
    number: the reference."""
    score, params = bm25.row_sql(t, words, "m")
    with db.transaction() as cur:
        cur.execute(f"SELECT {score}, m.seq, m.id FROM memories m WHERE m.element = %s "
                    f"AND m.v_content IS NOT NULL AND ({scope[0]})",
                    (*params, t.element, *scope[1]))
        rows = [(float(s), int(seq), str(i)) for s, seq, i in cur.fetchall() if s > 0]
    rows.sort(key=lambda r: (-r[0], r[1]))
    return [(s, i) for s, _, i in rows[:want]]


@settings(settings.get_profile("triform-index"))
@given(corpus=memories, query=st.lists(st.sampled_from([*WORDS, "zebra"]), min_size=1,
                                       max_size=4).map(" ".join),
       changes=st.lists(st.tuples(st.integers(0, 29), st.none() | texts), max_size=8),
       want=st.integers(1, 12), block=st.sampled_from([2, 4, 1024]),
       scoped=st.booleans(), sparse=st.booleans())
def test_the_best_matches_from_the_postings_are_those_of_every_row(
        db: Database, monkeypatch: pytest.MonkeyPatch, corpus: list[tuple[str, str | None,
                                                                          bool]],
        query: str, changes: list[tuple[int, str | None]], want: int, block: int,
        scoped: bool, sparse: bool) -> None:
    monkeypatch.setattr(bm25, "BLOCK", block)
    # Scores summed over the matches alone, as when sequence numbers are far apart.
    monkeypatch.setattr(bm25, "_DENSE_SLACK", -10**9 if sparse else 4096)
    store = PostgresMemoryStore(db, f"bm25-{next(_elements)}", HashingEmbedder(64))
    try:
        ids = [r.memory["id"] for r in store.store_many(
            [{"content": content, "context": context, "category": "fact",
              **({"subject_type": "guest", "subject_id": "a"} if guest else {})}
             for content, context, guest in corpus], settings=SETTINGS)]
        t = Table(store.element, store._model_id, store._dim)
        words = sorted(set(terms(query)))
        # A copy of the blocks decoded before the changes, read through after them: it
        # is sent again what changed, and drops what is gone.
        postings = bm25.Postings()
        with db.autocommit() as conn, conn.cursor() as cur:
            postings.scores(cur, postings.send(cur, t, words))
        # Updates and deletes take records out of blocks and put new ones in.
        for at, content in changes:
            if at < len(ids) and ids[at] is not None:
                if content is None:
                    store.delete(ids[at])
                    ids[at] = None
                else:
                    store.update(ids[at], content=content, settings=SETTINGS)
        scope = pool_sql(("guest", "a")) if scoped else ("true", ())
        with db.autocommit() as conn:
            with conn.cursor() as cur:
                matches = postings.scores(cur, postings.send(cur, t, words))
            got = bm25.top(conn, t, matches, scope, ("", ()), want)
        assert got == _exact(db, t, words, scope, want)
        # And the scores are BM25 as the file store computes it (float32 lengths there).
        lexical = LexicalIndex()
        with db.transaction() as cur:
            cur.execute("SELECT id, seq, content, context FROM memories WHERE element = %s",
                        (t.element,))
            rows = cur.fetchall()
        for _, seq, content, context in rows:
            lexical.add(int(seq), content, context)
        file_scores = lexical.scores(query, max((int(r[1]) for r in rows), default=0) + 1)
        seq_of = {str(r[0]): int(r[1]) for r in rows}
        for score, memory_id in got:
            assert score == pytest.approx(file_scores[seq_of[memory_id]], rel=1e-5)
        assert store.verify() == []
    finally:
        store.close()


def _sent(db: Database, t: Table, postings: bm25.Postings, words: list[str]) -> int:
    """How many blocks one search's postings statement was sent with their records."""
    before = postings.decoded
    with db.autocommit() as conn, conn.cursor() as cur:
        postings.scores(cur, postings.send(cur, t, words))
    return postings.decoded - before


def test_a_search_is_sent_only_the_blocks_that_changed_since_it_last_read_them(
        db: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bm25, "BLOCK", 4)
    now = [0.0]
    store = PostgresMemoryStore(db, f"bm25-{next(_elements)}", HashingEmbedder(64))
    try:
        store.store_many([{"content": f"budget river {i}", "category": "fact"}
                          for i in range(10)], settings=SETTINGS)
        t = Table(store.element, store._model_id, store._dim)
        words = ["budget", "river"]
        postings = bm25.Postings(clock=lambda: now[0])
        assert _sent(db, t, postings, words) == 6   # 3 blocks of 4 per term
        assert _sent(db, t, postings, words) == 0
        store.store(content="budget coffee", category="fact", settings=SETTINGS)
        assert _sent(db, t, postings, words) == 1   # budget's newest block
        now[0] += bm25.CACHE_SECONDS + 1   # trusted no longer: read again whole
        assert _sent(db, t, postings, words) == 6
        # 11 budget postings, 10 river: one term held, the one read last.
        small = bm25.Postings(limit=12)
        _sent(db, t, small, ["budget"])
        assert _sent(db, t, small, ["budget"]) == 0
        assert _sent(db, t, small, ["river"]) == 3
        assert _sent(db, t, small, ["budget"]) == 3
    finally:
        store.close()
