"""The memory runtime: durable long-term memories of one element, as a plain library.

``from index import MemoryStore`` needs no Flask, git or catalog. See
``docs/memory-runtime.md`` for the on-disk layout and the rules (recall, eviction,
retention, fallback).
"""

from .embed import Embedder, HashingEmbedder
from .embed_cache import CachedEmbedder, CacheStats
from .errors import (ConfirmRequired, EmbeddingFailed, InvalidCategory, InvalidMemory,
                     LogCorrupt, MemoryCapacity, MemoryNotFound, StoreClosed, StoreError,
                     StoreFailed, StoreLocked, SubjectIncomplete)
from .lanes import IndexParams
from .records import CATEGORIES, SOURCES, SUBJECT_TYPES
from .recall import DEFAULT_WEIGHTS, LANES
from .settings import MemorySettings
from .store import MemoryStore, SearchResult, StoreResult
from .timespan import TimeSpan, query_span

__all__ = [
    "MemoryStore", "MemorySettings", "StoreResult", "SearchResult", "IndexParams",
    "Embedder", "HashingEmbedder", "CachedEmbedder", "CacheStats", "CATEGORIES", "SOURCES", "SUBJECT_TYPES", "LANES",
    "DEFAULT_WEIGHTS", "StoreError", "StoreFailed", "StoreLocked", "StoreClosed",
    "LogCorrupt", "EmbeddingFailed", "MemoryNotFound", "InvalidCategory",
    "SubjectIncomplete", "ConfirmRequired", "InvalidMemory", "MemoryCapacity",
    "TimeSpan", "query_span",
]
