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

from typing import TYPE_CHECKING, Any

from .backend import HealthItem, Memory, MemoryBackend, SearchResult, StoreResult
from .embed import Embedder, HashingEmbedder, embed_for_lanes
from .embed_cache import CachedEmbedder, CacheStats
from .errors import (
    ConfirmRequired,
    DatabaseDriverMissing,
    DatabaseUnavailable,
    EmbeddingFailed,
    IdempotencyKeyReused,
    InvalidCategory,
    InvalidMemory,
    LogCorrupt,
    LogMissing,
    MemoryCapacity,
    MemoryNotCurrent,
    MemoryNotFound,
    ModelUnavailable,
    StorageFull,
    StoreClosed,
    StoreError,
    StoreFailed,
    StoreLocked,
    SubjectIncomplete,
)
from .params import IndexParams
from .profile_bank import (ATTRIBUTES, RELATIONS, ROLES, Attribute, attribute_scores,
                           question_vectors)
# Whether a text names a person of the subject's: recall's and observe's one reading of
# who may answer an attribute asked of another person (Attribute.another).
from .own_answer import names_anyone
from .occupation import job_first, job_title, tells_job
# Which attribute a statement's held nouns name the kind of (WordNet: a cello is a musical
# instrument): observe's profile reading (element/agents/profile.py) and recall's.
from .noun_kinds import held_nouns, kind_first, named_attribute
# Whether a memory tells a change of the subject's own (recall's, and observe's
# element/agents/present_value.py), and whose fact a sentence tells.
from .replaced_ahead import tells_change
# What a sentence's words tell of time: said as now, an addition, not now, a past, a wish
# (recall's readers, and observe's: element/agents/present.py, updates.py); the words that
# say "now", one list for every reader (cues.py, answered.py, inverted.py).
from .told import (ADDITION as TOLD_ADDITION, NOT_NOW as TOLD_NOT_NOW, NOW as TOLD_NOW,
                   NOW_WORD as TOLD_NOW_WORD, NOWISH as TOLD_NOWISH, PAST as TOLD_PAST,
                   PRESENT_TIME as TOLD_PRESENT_TIME, WISH as TOLD_WISH, told_of)
from .query import LIST_LIMIT_MAX, SEARCH_LIMIT_MAX
from .model import FastEmbedEmbedder, default_cache_dir
from .lane_models import LaneEmbedder, lane_models, load_embedder
from .provision import provision_model
from .int8_provision import provision_int8_model
from .static_model import StaticEmbedder
from .static_provision import provision_static_model
# WordNet's nouns: what kind of thing a word names (readings' world knowledge).
from .lexicon import Kinship, Lexicon, lexicon, use_lexicon_at
from .lexicon_provision import provision_lexicon
from .lexical import STOPWORDS, terms
from .recall import DEFAULT_WEIGHTS, LANES
from .records import CATEGORIES, SOURCES, SUBJECT_TYPES
from .validation import (
    MAX_AGENT_CHARS,
    MAX_CONTENT_BYTES,
    MAX_CONTEXT_BYTES,
    MAX_INTENTION_BYTES,
    MAX_KEY_CHARS,
    MAX_METADATA_BYTES,
    MAX_QUERY_BYTES,
    MAX_SUBJECT_ID_CHARS,
    MAX_SUPERSEDES,
    NewMemory,
    validate_new,
    validate_subject,
)
from .settings import MAX_CAP, MemorySettings
from .store import MemoryStore
from .validity import MAX_REASON_CHARS
from .timespan import TimeSpan, query_span
from .log import copy_log_file, encode_vector
from .backend import ImportedMemory, ImportResult
from .files import DIR_MODE, FILE_MODE, replace_private
from .blas import limit_blas_threads
from .transfer import validate_imported

if TYPE_CHECKING:
    from .postgres import Database, PostgresMemoryStore
    from .postgres.snapshot import ElementSnapshot


def open_database(url: str) -> Database:
    """The PostgreSQL memory database at ``url``, migrated to this version (re-runnable).

    Imported on demand: a home without a database never loads psycopg, which is an
    optional dependency (the ``postgres`` extra).

    :raise DatabaseUnavailable: it cannot be reached.
    :raise DatabaseDriverMissing: psycopg is not installed.
    """
    try:
        from .postgres import Database
    except ModuleNotFoundError as exc:
        if exc.name is None or exc.name.split(".")[0] not in ("psycopg", "psycopg_pool"):
            raise
        raise DatabaseDriverMissing(exc.name) from None
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


def snapshot_memories(connection: Any, element: str) -> ElementSnapshot:
    """``element``'s memories (exported form, with vectors) read on ``connection``, a
    PostgreSQL connection inside a ``REPEATABLE READ`` transaction: a backup's snapshot."""
    from .postgres.snapshot import snapshot_memories as read
    return read(connection, element)


def tables_with_rows(url: str, tables: list[str]) -> list[str]:
    """Those of ``tables`` that hold a row in the database at ``url``; nothing created."""
    from .postgres.snapshot import tables_with_rows as found
    return found(url, tables)


#: The memory tables of a PostgreSQL home that a database must not hold rows of to be
#: restored into.
MEMORY_TABLES = ["memories", "memory_elements"]
def pool_stats(database: Database) -> dict[str, int]:
    """The connection pool of ``database`` now: psycopg_pool's counters (``pool_size``,
    ``pool_available``, ``pool_max``, ``requests_waiting``, ``requests_num``,
    ``requests_wait_ms``, ``requests_errors``...), for a server's metrics; read only."""
    pool = getattr(database, "_pool", None)
    return dict(pool.get_stats()) if pool is not None else {}


__all__ = [
    "TOLD_ADDITION", "TOLD_NOT_NOW", "TOLD_NOW", "TOLD_NOW_WORD", "TOLD_NOWISH",
    "TOLD_PAST", "TOLD_PRESENT_TIME", "TOLD_WISH",
    # the backend interface and its file-backed implementation
    "MemoryBackend", "MemoryStore", "Memory", "StoreResult", "SearchResult", "HealthItem",
    "MemorySettings", "MAX_CAP", "IndexParams",
    # the PostgreSQL + pgvector backend (loaded on demand)
    "open_database", "postgres_store", "DatabaseUnavailable", "DatabaseDriverMissing", "pool_stats",
    "snapshot_memories", "tables_with_rows", "MEMORY_TABLES",
    # embedders
    "Embedder", "HashingEmbedder", "FastEmbedEmbedder", "load_embedder", "provision_model",
    "default_cache_dir", "CachedEmbedder", "CacheStats", "LaneEmbedder", "StaticEmbedder",
    "provision_static_model", "provision_int8_model", "embed_for_lanes", "lane_models",
    # the lexicon (WordNet's nouns)
    "Kinship", "Lexicon", "lexicon", "use_lexicon_at", "provision_lexicon",
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
    "MAX_SUPERSEDES", "MAX_REASON_CHARS",
    # the lexical index's tokens (Snowball stems), for callers that compare texts alike
    "terms", "STOPWORDS",
    # a generic person profile as questions (the subconscious's updates, recall's newer first)
    "ATTRIBUTES", "Attribute", "RELATIONS", "ROLES", "attribute_scores", "question_vectors",
    "held_nouns", "job_first", "job_title", "kind_first", "named_attribute", "names_anyone",
    "tells_change", "tells_job", "told_of",
    # errors
    "StoreError", "StoreFailed", "StorageFull", "StoreLocked", "StoreClosed", "LogCorrupt",
    "LogMissing", "EmbeddingFailed", "MemoryNotFound", "InvalidCategory",
    "SubjectIncomplete", "ConfirmRequired", "InvalidMemory", "MemoryCapacity",
    "IdempotencyKeyReused", "ModelUnavailable", "MemoryNotCurrent",
]
