"""Errors raised by the memory runtime.

Every error carries the three attributes of the one JSON error shape (design.md section 4):
``code`` (the reference sheet's code, verbatim), ``error_class`` (mapped to an HTTP status in
``api/errors.py``, once) and ``retryable``. Add new errors here, close to the code that
raises them, each with a one-line docstring and its message built in ``__init__``.
"""

from __future__ import annotations

__all__ = ["StoreError", "EmbeddingFailed", "MemoryNotFound", "MemoryNotCurrent", "InvalidCategory",
           "SubjectIncomplete", "ConfirmRequired", "InvalidMemory", "StoreFailed",
           "StorageFull", "StoreLocked", "StoreClosed", "LogCorrupt", "LogMissing",
           "MemoryCapacity", "IdempotencyKeyReused", "ModelUnavailable",
           "DatabaseUnavailable", "DatabaseDriverMissing"]


class StoreError(Exception):
    """Base of every memory-runtime error."""

    code = "MEMORY_STORE_FAILED"
    error_class = "internal"
    retryable = True

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class StoreFailed(StoreError):
    """A write to the log or sidecar failed: a transient backend error."""


class StorageFull(StoreFailed):
    """The disk (or the file size limit) is full: nothing of the op was written.

    Raised for ENOSPC, EDQUOT and EFBIG. The log is cut back to where it was, so the op can
    be retried as a whole once space is freed.
    """

    code = "STORAGE_FULL"
    error_class = "storage_full"
    retryable = True

    def __init__(self, doing: str, reason: str) -> None:
        super().__init__(f"no space left to {doing} ({reason}); nothing was written: free "
                         "space and retry")
        self.doing = doing
        self.reason = reason


class StoreLocked(StoreFailed):
    """Another process holds this element's store open (one writer per element)."""

    error_class = "unavailable"
    retryable = True

    def __init__(self, waited: float) -> None:
        super().__init__(f"another process holds this memory store open; gave up after "
                         f"waiting {waited:.1f}s for its lock")
        self.waited = waited


class StoreClosed(StoreFailed):
    """An op was called on a store after ``close()``."""

    retryable = False

    def __init__(self) -> None:
        super().__init__("this memory store is closed")


class LogCorrupt(StoreError):
    """A log line other than the last one cannot be read: the log needs repair by hand.

    Only the *last* line may be torn by a crash (and is truncated on open); damage anywhere
    else is not something a crash produces, so the store refuses to open rather than
    silently dropping memories.
    """

    code = "MEMORY_LOG_CORRUPT"
    error_class = "internal"
    retryable = False

    def __init__(self, offset: int, reason: str) -> None:
        super().__init__(f"memory log is corrupt at byte {offset}: {reason}")
        self.offset = offset
        self.reason = reason


class LogMissing(StoreError):
    """The log is gone but a checkpoint of memories is still there: refuse to start empty.

    Opening would create an empty log, and the next checkpoint would replace the one that
    still holds every memory. Opening with ``restore_log=True`` writes the log back from
    that checkpoint instead (changes made after it are lost); ``unusable`` says why the
    checkpoint itself cannot be read, when that is the case.
    """

    code = "MEMORY_LOG_MISSING"
    error_class = "internal"
    retryable = False

    def __init__(self, memories: int | None, *, unusable: str | None = None) -> None:
        held = f"{memories} memories" if memories is not None else "memories"
        if unusable is None:
            message = (f"the memory log is missing but its checkpoint still holds {held}; "
                       "open the store with restore_log=True (or run the repair op) to "
                       "write the log back from it rather than start empty")
        else:
            message = (f"the memory log is missing and its checkpoint of {held} cannot be "
                       f"used ({unusable}); move the element's runtime directory aside to "
                       "start empty")
        super().__init__(message)
        self.memories = memories
        self.unusable = unusable


class MemoryCapacity(StoreError):
    """The store is full and the pool that would have to give way is empty.

    With subject scoping on, a store may only evict from its own pool (the subject's rows, or
    the general rows for a general memory); when the total cap is reached and that pool
    holds nothing (or too little), the store is refused instead of evicting someone else's
    memories.
    """

    code = "MEMORY_CAPACITY"
    error_class = "conflict"
    retryable = False

    def __init__(self, pool: str, max_memories: int, used: int) -> None:
        super().__init__(
            f"memory store is at max_memories ({used}/{max_memories}) and the {pool} pool "
            "has no memories that may be evicted for this one; raise max_memories, or "
            "delete or forget memories first")
        self.pool = pool
        self.max_memories = max_memories
        self.used = used


class EmbeddingFailed(StoreError):
    """The embedder could not turn texts into vectors."""

    code = "MEMORY_EMBEDDING_FAILED"
    error_class = "internal"
    retryable = True


class MemoryNotFound(StoreError):
    """No memory with this id exists in the element."""

    code = "MEMORY_NOT_FOUND"
    error_class = "not_found"
    retryable = False

    def __init__(self, memory_id: str) -> None:
        super().__init__(f"memory {memory_id!r} does not exist in this element")
        self.memory_id = memory_id


class MemoryNotCurrent(StoreError):
    """The memory was superseded or retired: it is kept for history only and cannot be
    superseded, retired or updated again."""

    code = "MEMORY_NOT_CURRENT"
    error_class = "conflict"
    retryable = False

    def __init__(self, memory_id: str, superseded_by: str | None = None) -> None:
        later = f" (superseded by {superseded_by!r})" if superseded_by else ""
        super().__init__(f"memory {memory_id!r} is no longer current{later}; its history "
                         "is kept, and only a current memory can change")
        self.memory_id = memory_id


class InvalidCategory(StoreError):
    """The category is not one of the five the sheet names."""

    code = "MEMORY_INVALID_CATEGORY"
    error_class = "validation"
    retryable = False

    def __init__(self, category: object) -> None:
        super().__init__(f"category {category!r} is not one of fact, preference, "
                         "procedure, context, correction")
        self.category = category


class SubjectIncomplete(StoreError):
    """Only one of subject_type and subject_id was given."""

    code = "MEMORY_SUBJECT_INCOMPLETE"
    error_class = "validation"
    retryable = False

    def __init__(self) -> None:
        super().__init__("subject_type and subject_id must be provided together")


class ConfirmRequired(StoreError):
    """A destructive op was called without its confirmation."""

    code = "MEMORY_CONFIRM_REQUIRED"
    error_class = "validation"
    retryable = False

    def __init__(self) -> None:
        super().__init__("forget_subject requires the X-Confirm: destructive header")


class InvalidMemory(StoreError):
    """A field of a memory or a search request is malformed."""

    code = "MEMORY_INVALID"
    error_class = "validation"
    retryable = False

    def __init__(self, field: str, reason: str) -> None:
        super().__init__(f"{field}: {reason}")
        self.field = field
        self.reason = reason


class IdempotencyKeyReused(StoreError):
    """An idempotency key came back with a different memory than the one it first stored."""

    code = "IDEMPOTENCY_KEY_REUSED"
    error_class = "unprocessable"
    retryable = False

    def __init__(self, key: str, memory_id: str) -> None:
        super().__init__(f"idempotency key {key!r} was used for a different memory "
                         f"({memory_id}); use a new key for a new memory")
        self.key = key
        self.memory_id = memory_id


class ModelUnavailable(StoreError):
    """The embedding model could not be provisioned or loaded."""

    code = "MODEL_UNAVAILABLE"
    error_class = "unavailable"
    retryable = False

    def __init__(self, model_id: str, reason: str) -> None:
        super().__init__(f"embedding model {model_id} is unavailable: {reason}")
        self.model_id = model_id
        self.reason = reason


class DatabaseUnavailable(StoreFailed):
    """The memory database (PostgreSQL) cannot be reached or dropped the connection.

    Nothing of the call was acknowledged: a transaction that did not commit is rolled
    back by the server. The pool reconnects on its own, so the same call can be retried.
    """

    code = "DATABASE_UNAVAILABLE"
    error_class = "unavailable"
    retryable = True

    def __init__(self, reason: str) -> None:
        super().__init__(f"the database is unavailable ({reason}); retry shortly")
        self.reason = reason


class DatabaseDriverMissing(StoreError):
    """A home names a PostgreSQL database, and the driver (psycopg) is not installed."""

    code = "DATABASE_DRIVER_MISSING"
    error_class = "unavailable"
    retryable = False

    def __init__(self, missing: str) -> None:
        super().__init__(
            f"memories in PostgreSQL need the psycopg driver, and {missing} is not installed "
            "here: install the postgres extra (pip install 'triform-memory[postgres]'; "
            "with pipx: pipx inject triform-memory 'psycopg[binary]' psycopg-pool), or "
            "drop --database and $TRIFORM_DATABASE_URL to keep memories in files")
        self.missing = missing
