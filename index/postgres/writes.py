"""What each write of the PostgreSQL backend runs, inside the element's locked transaction.

The counterpart of the file store's ``writes.py``: the decisions are every backend's
(``decisions.py``: idempotency, eviction, what an update re-embeds); this module reads
what they need from the rows and writes the outcome. The caller
(``store.PostgresMemoryStore``) holds the element's advisory lock around each function
that writes, so capacity, eviction, sequence numbers and idempotency keys are decided
serially across every worker; a transaction that does not commit leaves nothing.

Each memory is one BM25 document (``lexical.term_counts``): its terms are kept three
ways, written together with the row: its own ``lex_terms``/``lex_tf`` arrays, its
records in the postings blocks (``memory_postings``, through ``bm25.postings_add`` and
``bm25.postings_remove``), and the element's document frequencies (``memory_term_df``)
and counters (``memory_elements.lex_docs``/``lex_total``).
"""

from __future__ import annotations

import json
import uuid
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import psycopg

from ..backend import Memory, StoreResult
from ..decisions import KeyedMemory, earlier_result, erased_texts, evictions
from ..errors import EmbeddingFailed, MemoryNotFound
from ..lexical import scheme_of, term_counts
from ..recall import LANES
from ..records import MemoryRecord
from ..validation import NewMemory
from ..settings import MemorySettings
from ..validity import (Change, check_supersedes, retire_record, supersede_record,
                        updated_record)
from .bm25 import postings_add, postings_rebuild_sql, postings_remove
from .rows import FIELDS, PUBLIC, Table, pool_sql, public, record, vector_text

__all__ = ["earlier", "insert", "delete_rows", "read_record", "apply_update", "retire",
           "public_of", "recount_df", "rebuild_postings", "reterm",
           "scheme_behind"]

Cursor = psycopg.Cursor[Any]
Vectors = dict[str, np.ndarray]


def earlier(cur: Cursor, t: Table, new: NewMemory) -> StoreResult | None:
    """The first result of ``new``'s key (``decisions.earlier_result``).

    :raise IdempotencyKeyReused: the key stored a memory from a different request.
    """
    if new.key is None:
        return None
    cur.execute(f"SELECT {PUBLIC}, key_fingerprint, key_evicted, key_warnings "
                "FROM memories WHERE element = %s AND idem_key = %s", (t.element, new.key))
    row = cur.fetchone()
    if row is None:
        return None
    fingerprint, evicted, warnings = row[len(FIELDS):]
    return earlier_result(KeyedMemory(public(row[:len(FIELDS)]), fingerprint,
                                      evicted or [], warnings or []), new)


def insert(cur: Cursor, t: Table, new: NewMemory, vectors: Vectors | None,
           settings: MemorySettings, *, now: str, situated: bool,
           kept: Mapping[str, Any] | None = None, pending: bool = False) -> StoreResult:
    """Insert one validated memory under the element's lock, evicting first (or return
    the earlier result of its key).

    ``kept``: an imported memory's record, whose id, times and access statistics the row
    keeps instead of minting new ones. ``pending``: without vectors on purpose (embedded
    behind), so no embedding-failure warning.
    """
    found = earlier(cur, t, new)
    if found is not None:
        return found
    # The sequence number and the element's size in one statement. Every memory is one
    # BM25 document: the counter is the element's size, kept under the element's lock (a
    # count(*) per store would grow with the element).
    cur.execute("UPDATE memory_elements SET next_seq = next_seq + 1 WHERE element = %s "
                "RETURNING next_seq - 1, lex_docs", (t.element,))
    seq_row = cur.fetchone()
    assert seq_row is not None
    # Checked before any eviction, as the file store does (an evicted one is then skipped).
    ended = [] if kept is not None else check_supersedes(
        new.supersedes, new.subject, lambda i: _maybe_record(cur, t, i))
    evicted = _evictions(cur, t, new.subject, settings, int(seq_row[1]))
    memory_id, created, occurred = uuid.uuid4().hex, now, new.occurred_at or now
    updated, accessed, count = now, None, 0
    valid: dict[str, Any] = {}
    if kept is not None:
        memory_id, created = str(kept["id"]), str(kept["created_at"])
        occurred = str(kept.get("occurred_at") or created)
        updated = kept.get("updated_at") or created
        accessed, count = kept.get("last_accessed_at"), int(kept.get("access_count") or 0)
        valid = {name: kept.get(name) for name in ("valid_from", "valid_until",
                                                    "superseded_by", "history")}
    warnings = [] if vectors is not None or pending else [EmbeddingFailed.code]
    counts = term_counts(new.content, new.context, situated)
    times = MemoryRecord.from_json({"id": memory_id, "seq": 0, "content": "",
                                    "category": "fact", "created_at": created,
                                    "occurred_at": occurred, **valid})
    vec = vectors or {}
    words = sorted(counts)
    keyed = new.key is not None
    conn = cur.connection
    # The row and its postings are sent together (one round trip), inside the
    # transaction; an error in either fails the call as before.
    with conn.pipeline(), conn.cursor() as terms_cur:
        cur.execute(
            "INSERT INTO memories (element, id, seq, content, category, subject_type, "
            "subject_id, context, intention, agent, source, metadata, created_at, "
            "updated_at, occurred_at, created_ts, occurred_ts, embedded, model, dim, "
            "v_content, v_context, v_intention, lex_len, lex_terms, lex_tf, idem_key, "
            "key_fingerprint, key_evicted, key_warnings, last_accessed_at, "
            "access_count, valid_from, valid_from_ts, valid_until, valid_until_ts, "
            "superseded_by, history) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, "
            "%s, %s, %s, %s, %s, %s, %s, %s, %s, %s::vector, %s::vector, %s::vector, %s, "
            f"%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s) RETURNING {PUBLIC}",
            (t.element, memory_id, int(seq_row[0]), new.content, new.category,
             new.subject[0] if new.subject else None,
             new.subject[1] if new.subject else None, new.context, new.intention,
             new.agent, new.source, json.dumps(new.metadata), created, updated, occurred,
             times.created_ts, times.occurred_ts, vectors is not None,
             t.model_id if vectors is not None else None,
             t.dim if vectors is not None else None,
             *[vector_text(vec[lane]) if lane in vec else None for lane in LANES],
             sum(counts.values()), words, [counts[w] for w in words], new.key,
             new.fingerprint if keyed else None, json.dumps(evicted) if keyed else None,
             json.dumps(warnings) if keyed else None, accessed, count,
             times.valid_from, times.valid_from_ts, times.valid_until,
             None if times.current else times.valid_until_ts, times.superseded_by,
             json.dumps(times.history) if times.history else None))
        _index_terms(terms_cur, t, int(seq_row[0]), counts)
    row = cur.fetchone()
    assert row is not None
    stored = StoreResult(public(row), evicted, warnings)
    if ended:
        newer = record(row, 0)
        for old in ended:
            if old.id not in evicted:
                supersede_record(old, newer)
                _save_validity(cur, t, old)
    return stored


def _maybe_record(cur: Cursor, t: Table, memory_id: str) -> MemoryRecord | None:
    try:
        return read_record(cur, t, memory_id)
    except MemoryNotFound:
        return None


def retire(cur: Cursor, t: Table, found: MemoryRecord, change: Change, until: str) -> Memory:
    """End ``found``'s validity at ``until`` (``validity.retire_record``), no successor."""
    retire_record(found, change, until)
    _save_validity(cur, t, found)
    return public_of(cur, t, found.id)


def _save_validity(cur: Cursor, t: Table, found: MemoryRecord) -> None:
    cur.execute("UPDATE memories SET valid_until = %s, valid_until_ts = %s, "
                "superseded_by = %s, history = %s WHERE element = %s AND id = %s",
                (found.valid_until, found.valid_until_ts, found.superseded_by,
                 json.dumps(found.history), t.element, found.id))


def _index_terms(cur: Cursor, t: Table, seq: int, counts: Counter[str]) -> None:
    """Postings, document frequencies and the element's counters of one memory (its row
    holds the same terms in ``lex_terms``/``lex_tf``)."""
    words = sorted(counts)
    cur.execute("WITH d AS (INSERT INTO memory_term_df (element, term, df) SELECT %s, t, 1 "
                "FROM unnest(%s::text[]) AS t ON CONFLICT (element, term) DO UPDATE "
                "SET df = memory_term_df.df + 1) "
                "UPDATE memory_elements SET lex_docs = lex_docs + 1, "
                "lex_total = lex_total + %s WHERE element = %s",
                (t.element, words, sum(counts.values()), t.element))
    postings_add(cur, t, [(seq, words, [counts[w] for w in words])])


def erased_rows_texts(cur: Cursor, t: Table, condition: str,
                      params: Sequence[Any]) -> set[str]:
    """The texts of the element's rows matching ``condition`` that the embedding cache may
    hold (``decisions.erased_texts``): read in the transaction that deletes them, under
    the element's lock, so no row is missed."""
    cur.execute(f"SELECT content, context, intention, history FROM memories WHERE "
                f"element = %s AND ({condition})", (t.element, *params))
    return set().union(*(erased_texts(*row) for row in cur.fetchall()))


def delete_rows(cur: Cursor, t: Table, condition: str,
                params: Sequence[Any]) -> list[str]:
    """Delete the element's rows matching ``condition``; their ids, oldest first."""
    # Each term of a deleted memory loses one document, and its record in the block.
    cur.execute(f"WITH gone AS (DELETE FROM memories WHERE element = %s AND ({condition}) "
                "RETURNING id, seq, lex_len, lex_terms), "
                "d AS (UPDATE memory_term_df f SET df = f.df - c.n FROM (SELECT term, "
                "count(*) AS n FROM gone, unnest(gone.lex_terms) AS term GROUP BY term) c "
                "WHERE f.element = %s AND f.term = c.term) "
                "SELECT id, seq, lex_len, lex_terms FROM gone", (t.element, *params, t.element))
    rows = sorted(cur.fetchall(), key=lambda r: int(r[1]))
    if rows:
        cur.execute("UPDATE memory_elements SET lex_docs = lex_docs - %s, "
                    "lex_total = lex_total - %s WHERE element = %s",
                    (len(rows), sum(int(r[2]) for r in rows), t.element))
        postings_remove(cur, t, [(int(r[1]), list(r[3] or [])) for r in rows])
    return [str(r[0]) for r in rows]


def _evictions(cur: Cursor, t: Table, subject: tuple[str, str] | None,
               settings: MemorySettings, total: int) -> list[str]:
    """Evict what capacity calls for before one more store (``decisions.evictions``),
    ``total`` memories being in the element.

    :raise MemoryCapacity: the pool that must give way is empty.
    """
    own_sql, own_params = pool_sql(subject)

    def pool_size() -> int:
        cur.execute(f"SELECT count(*) FROM memories WHERE element = %s AND {own_sql}",
                    (t.element, *own_params))
        row = cur.fetchone()
        return int(row[0]) if row else 0

    def victims(everyone: bool, count: int) -> list[str]:
        where, params = ("true", ()) if everyone else (own_sql, own_params)
        # Memories no longer current go first, oldest first (kept for history only).
        cur.execute(f"SELECT id FROM memories WHERE element = %s AND {where} "
                    "ORDER BY valid_until IS NULL, CASE WHEN valid_until IS NULL THEN "
                    "access_count ELSE 0 END, seq LIMIT %s", (t.element, *params, count))
        chosen = [str(r[0]) for r in cur.fetchall()]
        order = {memory_id: i for i, memory_id in enumerate(chosen)}
        deleted = delete_rows(cur, t, "id = ANY(%s)", (chosen,))
        return sorted(deleted, key=order.__getitem__)
    return evictions(subject, settings, total, pool_size, victims)


def read_record(cur: Cursor, t: Table, memory_id: str) -> MemoryRecord:
    """One memory as a record (an update's). :raise MemoryNotFound: none has this id."""
    row = _row(cur, t, memory_id, ", seq, history")
    found = record(row[:-2], int(row[-2]))
    found.history = list(row[-1] or [])
    return found


def public_of(cur: Cursor, t: Table, memory_id: str) -> Memory:
    """One memory's public form. :raise MemoryNotFound: none has this id."""
    return public(_row(cur, t, memory_id))


def _row(cur: Cursor, t: Table, memory_id: str, more: str = "") -> Any:
    cur.execute(f"SELECT {PUBLIC}{more} FROM memories WHERE element = %s AND id = %s",
                (t.element, memory_id))
    row = cur.fetchone()
    if row is None:
        raise MemoryNotFound(memory_id)
    return row


def apply_update(cur: Cursor, t: Table, found: MemoryRecord, fields: dict[str, Any],
                 vectors: Vectors | None, to_embed: dict[str, str], to_drop: list[str], *,
                 now: str, situated: bool, change: Change) -> Memory:
    """Change a memory's ``fields`` (``core.Edit.apply``); a changed content or context
    is indexed again for BM25; its history grows by the version ``change`` made."""
    embedded = vectors is not None and (found.embedded or bool(to_embed))
    sets = [f"{name} = %s" for name in fields]
    params: list[Any] = [json.dumps(v) if name == "metadata" else v
                         for name, v in fields.items()]
    updated_record(found, change, fields)
    sets.extend(["updated_at = %s", "embedded = %s", "history = %s"])
    params.extend([now, embedded, json.dumps(found.history)])
    if embedded:
        assert vectors is not None
        for lane, vector in vectors.items():
            sets.append(f"v_{lane} = %s::vector")
            params.append(vector_text(vector))
        sets.extend(f"v_{lane} = NULL" for lane in to_drop)
        sets.extend(["model = %s", "dim = %s"])
        params.extend([t.model_id, t.dim])
    else:
        sets.extend(["v_content = NULL", "v_context = NULL", "v_intention = NULL",
                     "model = NULL", "dim = NULL"])
    if "content" in fields or "context" in fields:
        content = fields.get("content", found.content)
        context = fields["context"] if "context" in fields else found.context
        counts = term_counts(content, context, situated)
        cur.execute("WITH old AS (SELECT lex_len, lex_terms FROM memories WHERE "
                    "element = %s AND id = %s), "
                    "d AS (UPDATE memory_term_df SET df = df - 1 WHERE element = %s AND "
                    "term IN (SELECT unnest(lex_terms) FROM old)) "
                    "UPDATE memory_elements SET lex_docs = lex_docs - 1, lex_total = "
                    "lex_total - (SELECT lex_len FROM old) WHERE element = %s "
                    "RETURNING (SELECT lex_terms FROM old)",
                    (t.element, found.id, t.element, t.element))
        old = cur.fetchone()
        postings_remove(cur, t, [(found.seq, list(old[0] or []) if old else [])])
        _index_terms(cur, t, found.seq, counts)
        words = sorted(counts)
        sets.extend(["lex_len = %s", "lex_terms = %s", "lex_tf = %s"])
        params.extend([sum(counts.values()), words, [counts[w] for w in words]])
    cur.execute(f"UPDATE memories SET {', '.join(sets)} WHERE element = %s AND id = %s",
                (*params, t.element, found.id))
    return public_of(cur, t, found.id)


def recount_df(cur: Cursor, t: Table) -> None:
    """The element's BM25 counters and document frequencies counted again from its rows
    (terms no memory holds any more are dropped)."""
    cur.execute("INSERT INTO memory_elements (element) VALUES (%s) ON CONFLICT DO NOTHING",
                (t.element,))
    cur.execute("UPDATE memory_elements SET lex_docs = (SELECT count(*) FROM memories "
                "WHERE element = %s), lex_total = (SELECT coalesce(sum(lex_len), 0) FROM "
                "memories WHERE element = %s) WHERE element = %s", (t.element,) * 3)
    cur.execute("DELETE FROM memory_term_df WHERE element = %s", (t.element,))
    cur.execute("INSERT INTO memory_term_df (element, term, df) SELECT element, term, "
                "count(*) FROM memories, unnest(lex_terms) AS term WHERE element = %s "
                "GROUP BY element, term", (t.element,))


def scheme_behind(cur: Cursor, t: Table, situated: bool) -> bool:
    """Whether the element's terms were written under another lexical scheme than this
    code's (``lexical.SCHEME``; ``situated``: the context as a second field or not)."""
    cur.execute("SELECT lex_scheme FROM memory_elements WHERE element = %s", (t.element,))
    found = cur.fetchone()
    return found is None or found[0] != scheme_of(situated)


def reterm(cur: Cursor, t: Table, situated: bool) -> None:
    """The element's terms written again under this code's lexical scheme, when it was
    written under another (:func:`scheme_behind`): each row's terms, then the counters and
    the postings from them. Under the element's lock; a no-op for an element already
    under the scheme."""
    if not scheme_behind(cur, t, situated):
        return
    cur.execute("SELECT id, content, context FROM memories WHERE element = %s",
                (t.element,))
    rows = []
    for memory_id, content, context in cur.fetchall():
        counts = term_counts(content, context, situated)
        words = sorted(counts)
        rows.append((sum(counts.values()), words, [counts[w] for w in words], t.element,
                     memory_id))
    if rows:
        cur.executemany("UPDATE memories SET lex_len = %s, lex_terms = %s, lex_tf = %s "
                        "WHERE element = %s AND id = %s", rows)
    recount_df(cur, t)
    rebuild_postings(cur, t)
    cur.execute("UPDATE memory_elements SET lex_scheme = %s WHERE element = %s",
                (scheme_of(situated), t.element))


def rebuild_postings(cur: Cursor, t: Table) -> None:
    """The element's postings written again from its rows' own terms."""
    cur.execute("DELETE FROM memory_postings WHERE element = %s", (t.element,))
    cur.execute(postings_rebuild_sql("m.element = %s"), (t.element,))
