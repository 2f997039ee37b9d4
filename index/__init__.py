"""The memory runtime: durable long-term memories of one element, as a plain library.

``from index import MemoryStore`` needs no Flask, git or catalog. See
``docs/memory-runtime.md`` for the on-disk layout and the rules (recall, eviction,
retention, fallback). Everything another layer may use is exported here; the modules
behind it are private.
"""

from .embed import Embedder, HashingEmbedder
from .errors import (
                     ConfirmRequired,
                     EmbeddingFailed,
                     InvalidCategory,
                     InvalidMemory,
                     LogCorrupt,
                     MemoryCapacity,
                     MemoryNotFound,
                     ModelUnavailable,
                     StoreClosed,
                     StoreError,
                     StoreFailed,
                     StoreLocked,
                     SubjectIncomplete,
)
from .lanes import IndexParams
from .model import FastEmbedEmbedder, default_cache_dir
from .provision import load_embedder, provision_model
from .recall import DEFAULT_WEIGHTS, LANES
from .records import CATEGORIES, SOURCES, SUBJECT_TYPES
from .settings import MemorySettings
from .store import MemoryStore, SearchResult, StoreResult

__all__ = [
    "MemoryStore", "MemorySettings", "StoreResult", "SearchResult", "IndexParams",
    "Embedder", "HashingEmbedder", "FastEmbedEmbedder", "load_embedder", "provision_model",
    "default_cache_dir", "CATEGORIES", "SOURCES", "SUBJECT_TYPES", "LANES",
    "DEFAULT_WEIGHTS", "StoreError", "StoreFailed", "StoreLocked", "StoreClosed",
    "LogCorrupt", "EmbeddingFailed", "MemoryNotFound", "InvalidCategory",
    "SubjectIncomplete", "ConfirmRequired", "InvalidMemory", "MemoryCapacity",
    "ModelUnavailable",
]
