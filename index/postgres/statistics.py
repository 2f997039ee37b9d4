"""The planner's statistics of the memory tables, refreshed right after a bulk write.

A search is planned from ``pg_class.reltuples`` and ``pg_statistic``; a table filled by a
bulk load (``store_many``, an import, ``triform migrate``, a restore: every one is
``store_many`` or ``import_memories``) keeps the statistics of its size before until
autovacuum analyses it, a minute or more later on a busy server, and a search in that
time is planned for the wrong table (at 100k memories never analysed, 1.8-2.2 s against
0.3-0.5 s: ``bench/hop_plan.py``). So a bulk write that adds as large a share of the
table as would make autovacuum analyse it runs that ``ANALYZE`` itself, at once: the
server's own rule (``autovacuum_analyze_threshold`` + ``autovacuum_analyze_scale_factor``
x the estimated rows, 50 + 10% by default; a table never analysed, ``reltuples = -1``,
counts as empty), so an administrator's tuning holds and nothing is fitted here. The rows
changed are this write's or, when more, those the table has grown by since its last
``ANALYZE`` (``reltuples`` scaled by its pages now over ``relpages`` then, as the planner
scales it: every session's inserts, read at once), so a load in many batches, each a
small share, is analysed as it grows too. Not ``n_mod_since_analyze``: it lags up to a
second behind each commit, so a batch flushed after an ``ANALYZE`` counted again, and a
load in batches of 500 analysed after nearly every one (19 times in 20).

Where it runs (``bench/analyze_cost.py``: a median of 0.15-0.65 s at 10k rows, 1.6-2.2 s
at 100k on the shared 2-core machine, a sample of at most 30k rows): when this write's own
rows are the share, in the request, after its commit: the request wrote at least a tenth
of the table, which took far longer (1000 memories at 10k, 4-12 s; 10k at 100k,
70-120 s), so the wait adds a few percent and the caller's next search is planned from
the new size for sure. When the table's growth since the last ``ANALYZE`` tipped it (a
load in batches), in a thread behind the request: that batch alone would wait 2 s at
100k on top of its own 2-6 s. One such thread per database at a time; ``SKIP_LOCKED``:
a session that finds another analysing the tables does not wait for it.
"""

from __future__ import annotations

import logging
import threading

from ..errors import StoreError
from .db import Database

__all__ = ["TABLES", "analyze_after", "due"]

logger = logging.getLogger(__name__)

#: What a bulk write fills: the rows, their postings, their words' document frequencies.
TABLES = ("memories", "memory_postings", "memory_term_df")


def due(changed: int, reltuples: float, threshold: int, scale: float) -> bool:
    """Whether ``changed`` rows call for ``ANALYZE`` now: autovacuum's rule for a
    table of ``reltuples`` estimated rows (``-1``: never analysed, so empty)."""
    return changed >= threshold + scale * max(reltuples, 0.0)


def analyze_after(db: Database, written: int) -> str | None:
    """``ANALYZE`` the memory tables when ``written`` rows just committed, or the rows
    the table grew by since its last ``ANALYZE``, are a large share of it (:func:`due`): at
    once when ``written`` alone is, else behind (the module docstring). Which it did
    (``"now"``, ``"behind"``) or ``None``. A failure is logged, never raised: the write
    has committed, and autovacuum analyses the tables later anyway."""
    if written <= 0:
        return None
    try:
        with db.autocommit() as conn:
            row = conn.execute(
                "SELECT c.reltuples, c.relpages, pg_relation_size(c.oid) / "
                "current_setting('block_size')::int, "
                "current_setting('autovacuum_analyze_threshold')::int, "
                "current_setting('autovacuum_analyze_scale_factor')::float8 "
                "FROM pg_class c WHERE c.oid = 'memories'::regclass").fetchone()
            if row is None:
                return None
            reltuples, relpages, pages = float(row[0]), int(row[1]), int(row[2])
            threshold, scale = int(row[3]), float(row[4])
            grown = (reltuples * pages / relpages - reltuples
                     if reltuples > 0 and relpages > 0 else 0.0)
            if due(written, reltuples, threshold, scale):
                conn.execute(ANALYZE)
                return "now"
    except StoreError as exc:     # the database's errors, mapped by ``Database``
        logger.warning("ANALYZE after a bulk write of %d memories failed: %s", written, exc)
        return None
    if not due(int(grown), reltuples, threshold, scale):
        return None
    with _BEHIND_LOCK:
        if id(db) in _behind:
            return None
        _behind.add(id(db))
    threading.Thread(target=_analyze_behind, args=(db,), daemon=True,
                     name="triform-analyze").start()
    return "behind"


ANALYZE = f"ANALYZE (SKIP_LOCKED) {', '.join(TABLES)}".encode()
# The databases with an ``ANALYZE`` running behind a request (by ``id``): one at a time.
_behind: set[int] = set()
_BEHIND_LOCK = threading.Lock()


def _analyze_behind(db: Database) -> None:
    try:
        with db.autocommit() as conn:
            conn.execute(ANALYZE)
    except StoreError as exc:     # the pool closed meanwhile, the server went away
        logger.warning("ANALYZE behind a bulk write failed: %s", exc)
    finally:
        with _BEHIND_LOCK:
            _behind.discard(id(db))
