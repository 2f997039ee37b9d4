"""The memory runtime: durable long-term memories of one element, as a plain library.

``from index import MemoryStore`` needs no Flask, git or catalog. See
``docs/memory-runtime.md`` for the on-disk layout and the rules (recall, eviction,
retention, fallback).

This module is the whole public surface: other layers import from ``index`` only, never
from its modules, and never name its files or formats. ``MemoryBackend`` is the interface
a memory backend implements (``MemoryStore`` is the file-backed one); the limits and
validators let callers check input before a call, with the same errors.
"""

from .backend import HealthItem, Memory, MemoryBackend, SearchResult, StoreResult
from .embed import Embedder, HashingEmbedder
from .embed_cache import CachedEmbedder, CacheStats
from .errors import (
    ConfirmRequired,
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
from .provision import load_embedder, provision_model
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
from .transfer import copy_log_file, validate_imported

__all__ = [
    # the backend interface and its file-backed implementation
    "MemoryBackend", "MemoryStore", "Memory", "StoreResult", "SearchResult", "HealthItem",
    "MemorySettings", "IndexParams",
    # embedders
    "Embedder", "HashingEmbedder", "FastEmbedEmbedder", "load_embedder", "provision_model",
    "default_cache_dir", "CachedEmbedder", "CacheStats",
    # transfer: export/import of memories kept whole, log copies for backups
    "ImportedMemory", "ImportResult", "validate_imported", "copy_log_file", "encode_vector",
    # time
    "TimeSpan", "query_span",
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
