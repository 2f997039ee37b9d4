"""The Source layer: element repositories in git (draft/demo/live), as a plain library.

Knows nothing of memories, HTTP routes or the catalog; callers pass paths and callbacks.
See ``docs/source.md`` for branches, push policy, validator rules, fixtures and bundles.

This module is the whole public surface: upper layers import from ``source`` only, never
from its modules, and never touch pygit2 or dulwich themselves (no function here hands
out a pygit2 or dulwich object).
"""

from __future__ import annotations

from .backup import copy_repo
from .bundle import MAX_BUNDLE_BYTES, export_bundle, export_findings, import_bundle
from .errors import (
    BranchNotFound,
    BundleInvalid,
    BundleTooLarge,
    CommitNotFound,
    Diverged,
    FileTooLarge,
    FixtureInvalid,
    InvalidArgument,
    MergeConflict,
    NotAFile,
    RefMoved,
    RepoExists,
    RepoNotFound,
    SourceError,
    SourceStorageFull,
    SpecInvalid,
    UnrelatedHistories,
    UnsafePath,
    ValidationFailed,
)
from .evals import EVALS_DIR, EvalInvalid, eval_problems, is_eval_file, parse_eval, read_evals
from .fixtures import FIXTURES_DIR, apply_fixtures, fixture_key, fixtures, read_fixtures
from .merge import diff3, merge
from .paths import check_relpath
from .promote import PROMOTIONS, branches, promote
from .repair import repair, spec_check
from .repo import (
    BRANCHES,
    DEFAULT_AUTHOR,
    MAX_FILE_BYTES,
    SPEC_PATH,
    branch_tips,
    commit_files,
    create_repo,
    history,
    list_files,
    read_file,
    read_spec,
    ref_log,
    resolve_rev,
    spec_blob,
)
from .smart_http import MAX_PUSH_BYTES, Verdict, make_git_app
from .validate import validate, validate_commits

__all__ = [
    # repo
    "BRANCHES", "DEFAULT_AUTHOR", "MAX_FILE_BYTES", "SPEC_PATH", "branch_tips",
    "check_relpath", "commit_files", "create_repo", "history", "list_files", "read_file",
    "read_spec", "ref_log", "resolve_rev", "spec_blob",
    # merge, promote
    "diff3", "merge", "PROMOTIONS", "branches", "promote",
    # validate, repair, fixtures
    "validate", "validate_commits", "repair", "spec_check",
    "FIXTURES_DIR", "read_fixtures", "apply_fixtures", "fixtures", "fixture_key",
    # recall cases
    "EVALS_DIR", "read_evals", "parse_eval", "eval_problems", "is_eval_file",
    # bundles, smart HTTP
    "MAX_BUNDLE_BYTES", "export_bundle", "export_findings", "import_bundle",
    "MAX_PUSH_BYTES", "make_git_app", "Verdict",
    # backups
    "copy_repo",
    # errors
    "SourceError", "SourceStorageFull", "InvalidArgument", "UnsafePath", "NotAFile",
    "FileTooLarge", "RepoNotFound",
    "RepoExists", "BranchNotFound", "CommitNotFound", "RefMoved", "MergeConflict", "Diverged",
    "UnrelatedHistories", "ValidationFailed", "SpecInvalid", "FixtureInvalid", "EvalInvalid",
    "BundleInvalid",
    "BundleTooLarge",
]
