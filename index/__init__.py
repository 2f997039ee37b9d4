"""The memory runtime: durable long-term memories of one element, as a plain library.

``from index import MemoryStore`` needs no Flask, git or catalog. See
``docs/memory-runtime.md`` for the on-disk layout and the rules (recall, eviction,
retention, fallback).

This module is the whole public surface: other layers import from ``index`` only, never
from its modules, and never name its files or formats. ``MemoryBackend`` is the interface
a memory backend implements (``MemoryStore`` is the file-backed one); the limits and
validators let callers check input before a call, with the same errors.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .backend import HealthItem, Memory, MemoryBackend, SearchResult, StoreResult
from .embed import Embedder, HashingEmbedder, embed_for_lanes
from .embed_cache import CachedEmbedder, CacheStats
from .errors import (
    ConfirmRequired,
    DatabaseUnavailable,
    EmbeddingFailed,
    IdempotencyKeyReused,
    InvalidCategory,
    InvalidMemory,
    LogCorrupt,
    LogMissing,
    MemoryCapacity,
    MemoryNotFound,
    ModelUnavailable,
    StorageFull,
    StoreClosed,
    StoreError,
    StoreFailed,
    StoreLocked,
    SubjectIncomplete,
)
from .lanes import IndexParams
from .listing import LIST_LIMIT_MAX
from .model import FastEmbedEmbedder, default_cache_dir
from .lane_models import LaneEmbedder, load_embedder
from .provision import provision_model
from .static_model import StaticEmbedder
from .static_provision import provision_static_model
from .lexical import terms
from .recall import DEFAULT_WEIGHTS, LANES
from .records import (
    CATEGORIES,
    MAX_AGENT_CHARS,
    MAX_CONTENT_BYTES,
    MAX_CONTEXT_BYTES,
    MAX_INTENTION_BYTES,
    MAX_KEY_CHARS,
    MAX_METADATA_BYTES,
    MAX_QUERY_BYTES,
    MAX_SUBJECT_ID_CHARS,
    SOURCES,
    SUBJECT_TYPES,
    NewMemory,
    validate_new,
    validate_subject,
)
from .search import SEARCH_LIMIT_MAX
from .settings import MemorySettings
from .store import MemoryStore
from .timespan import TimeSpan, query_span
from .log import encode_vector
from .backend import ImportedMemory, ImportResult
from .files import DIR_MODE, FILE_MODE, replace_private
from .blas import limit_blas_threads
from .transfer import copy_log_file, validate_imported

if TYPE_CHECKING:
    from .postgres import Database, PostgresMemoryStore


def open_database(url: str) -> Database:
    """The PostgreSQL memory database at ``url``, migrated to this version (re-runnable).

    Imported on demand: a home without a database never loads psycopg.

    :raise DatabaseUnavailable: it cannot be reached.
    """
    from .postgres import Database
    database = Database(url)
    try:
        database.migrate()
    except BaseException:
        database.close()
        raise
    return database


def postgres_store(database: Database, element: str, embedder: Embedder, *,
                   repair_on_open: bool = False) -> PostgresMemoryStore:
    """The memories of ``element`` in ``database`` (a :class:`MemoryBackend`)."""
    from .postgres import PostgresMemoryStore
    return PostgresMemoryStore(database, element, embedder, migrate=False,
                               repair_on_open=repair_on_open)

__all__ = [
    # the backend interface and its file-backed implementation
    "MemoryBackend", "MemoryStore", "Memory", "StoreResult", "SearchResult", "HealthItem",
    "MemorySettings", "IndexParams",
    # the PostgreSQL + pgvector backend (loaded on demand)
    "open_database", "postgres_store", "DatabaseUnavailable",
    # embedders
    "Embedder", "HashingEmbedder", "FastEmbedEmbedder", "load_embedder", "provision_model",
    "default_cache_dir", "CachedEmbedder", "CacheStats", "LaneEmbedder", "StaticEmbedder",
    "provision_static_model", "embed_for_lanes",
    # transfer: export/import of memories kept whole, log copies for backups
    "ImportedMemory", "ImportResult", "validate_imported", "copy_log_file", "encode_vector",
    "FILE_MODE", "DIR_MODE", "replace_private",
    # time
    "TimeSpan", "query_span",
    # one BLAS thread for a server's searches
    "limit_blas_threads",
    # vocabularies, limits and validation
    "CATEGORIES", "SOURCES", "SUBJECT_TYPES", "LANES", "DEFAULT_WEIGHTS",
    "MAX_CONTENT_BYTES", "MAX_CONTEXT_BYTES", "MAX_INTENTION_BYTES", "MAX_QUERY_BYTES",
    "MAX_METADATA_BYTES", "MAX_AGENT_CHARS", "MAX_KEY_CHARS", "MAX_SUBJECT_ID_CHARS",
    "LIST_LIMIT_MAX", "SEARCH_LIMIT_MAX", "NewMemory", "validate_new", "validate_subject",
    # the lexical index's tokens (Snowball stems), for callers that compare texts alike
    "terms",
    # errors
    "StoreError", "StoreFailed", "StorageFull", "StoreLocked", "StoreClosed", "LogCorrupt",
    "LogMissing", "EmbeddingFailed", "MemoryNotFound", "InvalidCategory",
    "SubjectIncomplete", "ConfirmRequired", "InvalidMemory", "MemoryCapacity",
    "IdempotencyKeyReused", "ModelUnavailable",
]
