"""The PostgreSQL + pgvector memory backend (``PostgresMemoryStore``, a ``MemoryBackend``).

Imported only when a home is configured with a database URL, so the embedded default
never loads psycopg. ``db.py`` holds the pool, errors and migrations; ``store.py`` the
store's primitives under the one core (``index/core.py``), cut along the file store's
seams: ``rows.py`` (the counterpart of ``state.py``), ``writes.py`` (a delete's
predecessors: ``successors.py``), ``search.py`` (with ``bm25.py``), ``listing.py``,
``health.py``.
"""

from .db import SCHEMA_VERSION, Database
from .store import PostgresMemoryStore

__all__ = ["Database", "PostgresMemoryStore", "SCHEMA_VERSION"]
