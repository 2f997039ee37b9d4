"""Errors raised by the Source layer (git).

Same three attributes as every error of the project (``code``, ``error_class``,
``retryable``); ``api/errors.py`` maps them to HTTP once. Each error builds its message in
``__init__`` and keeps the facts as structured fields. Messages never contain absolute
server paths: they are shown to API clients.
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "SourceError",
    "SourceStorageFull",
    "is_disk_full",
    "InvalidArgument",
    "UnsafePath",
    "NotAFile",
    "FileTooLarge",
    "RepoNotFound",
    "RepoExists",
    "BranchNotFound",
    "CommitNotFound",
    "RefMoved",
    "MergeConflict",
    "Diverged",
    "UnrelatedHistories",
    "ValidationFailed",
    "SpecInvalid",
    "FixtureInvalid",
    "EvalInvalid",
    "BundleInvalid",
    "BundleTooLarge",
]


class SourceError(Exception):
    """Base of every Source error."""

    code = "SOURCE_ERROR"
    error_class = "internal"
    retryable = False

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


#: What libgit2 and the OS say when the disk, a quota or the file size limit is full.
_FULL_ERRNOS = frozenset({28, 122, 27})            # ENOSPC, EDQUOT, EFBIG
_FULL_WORDS = ("No space left on device", "Disk quota exceeded", "File too large")


def is_disk_full(exc: BaseException) -> bool:
    """``exc`` (an OSError or a libgit2 error) says the storage is full."""
    if getattr(exc, "errno", None) in _FULL_ERRNOS:
        return True
    return any(word in str(exc) for word in _FULL_WORDS)


class SourceStorageFull(SourceError):
    """A git write failed because the disk (or a quota) is full; nothing moved."""

    code = "SOURCE_STORAGE_FULL"
    error_class = "storage_full"
    retryable = True

    def __init__(self, what: str) -> None:
        super().__init__(f"{what}: the disk is full; free space and retry")


class InvalidArgument(SourceError):
    """A parameter has a value the Source layer does not accept (e.g. a malformed author)."""

    code = "SOURCE_INVALID_ARGUMENT"
    error_class = "validation"

    def __init__(self, field: str, reason: str) -> None:
        super().__init__(f"{field}: {reason}")
        self.field = field
        self.reason = reason


class UnsafePath(SourceError):
    """A path inside a tree is empty, absolute, has ``..``/``.`` segments, NUL or control bytes."""

    code = "SOURCE_UNSAFE_PATH"
    error_class = "validation"

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"unsafe path {path!r}: {reason}")
        self.path = path
        self.reason = reason


class NotAFile(SourceError):
    """The path names a directory, symlink or submodule, not a regular file."""

    code = "SOURCE_NOT_A_FILE"
    error_class = "validation"

    def __init__(self, path: str, kind: str) -> None:
        super().__init__(f"{path!r} is a {kind}, not a regular file")
        self.path = path
        self.kind = kind


class FileTooLarge(SourceError):
    """A file is larger than the limit the caller asked for."""

    code = "SOURCE_FILE_TOO_LARGE"
    error_class = "too_large"

    def __init__(self, path: str, size: int, limit: int) -> None:
        super().__init__(f"{path!r} has {size} bytes, more than the limit of {limit}")
        self.path = path
        self.size = size
        self.limit = limit


class RepoNotFound(SourceError):
    """No git repository exists at the given location (parent directories are never searched)."""

    code = "SOURCE_REPO_NOT_FOUND"
    error_class = "not_found"

    def __init__(self, path: object) -> None:
        super().__init__("element repository not found")
        self.path = path


class RepoExists(SourceError):
    """Something already exists where a new repository was to be created."""

    code = "SOURCE_REPO_EXISTS"
    error_class = "conflict"

    def __init__(self, path: object) -> None:
        super().__init__("element repository already exists")
        self.path = path


class BranchNotFound(SourceError):
    """The branch is not one of draft/demo/live, or its ref is missing from the repo."""

    code = "SOURCE_BRANCH_NOT_FOUND"
    error_class = "not_found"

    def __init__(self, branch: str) -> None:
        super().__init__(f"branch {branch!r} does not exist")
        self.branch = branch


class CommitNotFound(SourceError):
    """A revision names no commit in this repository."""

    code = "SOURCE_COMMIT_NOT_FOUND"
    error_class = "not_found"

    def __init__(self, rev: str) -> None:
        super().__init__(f"commit {rev!r} not found")
        self.rev = rev


class RefMoved(SourceError):
    """A branch kept moving under a compare-and-swap update; retrying may succeed."""

    code = "SOURCE_REF_MOVED"
    error_class = "conflict"
    retryable = True

    def __init__(self, branch: str, attempts: int) -> None:
        super().__init__(f"branch {branch!r} moved concurrently {attempts} times; retry")
        self.branch = branch
        self.attempts = attempts


class MergeConflict(SourceError):
    """A three-way merge has conflicting files; nothing was written to any ref."""

    code = "SOURCE_MERGE_CONFLICT"
    error_class = "conflict"

    def __init__(self, ours: str, theirs: str, conflicts: list[dict[str, Any]]) -> None:
        paths = ", ".join(c["path"] for c in conflicts)
        super().__init__(f"merge of {theirs[:12]} into {ours[:12]} conflicts in: {paths}")
        self.ours = ours
        self.theirs = theirs
        self.conflicts = conflicts


class Diverged(SourceError):
    """A promotion target is not an ancestor of its source, so it cannot fast-forward."""

    code = "SOURCE_DIVERGED"
    error_class = "conflict"

    def __init__(self, source: str, target: str, source_tip: str, target_tip: str) -> None:
        super().__init__(f"{target} has diverged from {source}: cannot fast-forward "
                         f"{target} ({target_tip[:12]}) to {source_tip[:12]}")
        self.source = source
        self.target = target
        self.source_tip = source_tip
        self.target_tip = target_tip


class UnrelatedHistories(SourceError):
    """Two commits share no ancestor, so a three-way merge has no base."""

    code = "SOURCE_UNRELATED_HISTORIES"
    error_class = "conflict"

    def __init__(self, ours: str, theirs: str) -> None:
        super().__init__(f"{theirs[:12]} shares no history with {ours[:12]}: refusing to merge")
        self.ours = ours
        self.theirs = theirs


class ValidationFailed(SourceError):
    """A commit holds content the validator refuses (runtime data, secrets, unsafe paths...)."""

    code = "SOURCE_VALIDATION_FAILED"
    error_class = "validation"

    def __init__(self, commit: str, findings: list[dict[str, str]]) -> None:
        first = "; ".join(f"{f['path']}: {f['reason']}" for f in findings[:3])
        more = f" (+{len(findings) - 3} more)" if len(findings) > 3 else ""
        super().__init__(f"commit {commit[:12]} fails validation: {first}{more}")
        self.commit = commit
        self.findings = findings


class SpecInvalid(SourceError):
    """``.triform/spec.yaml`` is not valid YAML or not a mapping."""

    code = "SOURCE_SPEC_INVALID"
    error_class = "validation"

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.reason = reason


class FixtureInvalid(SourceError):
    """A fixture manifest is malformed; ``file`` names it and ``reason`` says what is wrong."""

    code = "SOURCE_FIXTURE_INVALID"
    error_class = "validation"

    def __init__(self, file: str, reason: str) -> None:
        super().__init__(f"{file}: {reason}")
        self.file = file
        self.reason = reason


class EvalInvalid(SourceError):
    """An eval file is malformed; ``file`` names it, ``reason`` starts with the line."""

    code = "SOURCE_EVAL_INVALID"
    error_class = "validation"

    def __init__(self, file: str, reason: str) -> None:
        super().__init__(f"{file}: {reason}")
        self.file = file
        self.reason = reason


class BundleInvalid(SourceError):
    """A bundle is malformed, incomplete or carries refused content; nothing was imported."""

    code = "SOURCE_BUNDLE_INVALID"
    error_class = "validation"

    def __init__(self, reason: str, findings: list[dict[str, str]] | None = None) -> None:
        super().__init__(f"bundle refused: {reason}")
        self.reason = reason
        self.findings = findings or []


class BundleTooLarge(SourceError):
    """A bundle, its object count or what it inflates to is over an import limit.

    ``what`` names the measured thing ("bundle", "pack", "an object") and ``unit`` what
    ``size`` and ``limit`` count ("bytes", "objects", "bytes once inflated").
    """

    code = "SOURCE_BUNDLE_TOO_LARGE"
    error_class = "too_large"

    def __init__(self, size: int, limit: int, *, what: str = "bundle",
                 unit: str = "bytes") -> None:
        super().__init__(f"{what} has {size} {unit}, more than the limit of {limit}")
        self.size = size
        self.limit = limit
        self.what = what
        self.unit = unit
