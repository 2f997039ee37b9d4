"""Export an element repo as a standard git bundle; import one with every hostile-input check.

Export: a v2 bundle (``# v2 git bundle``) with ``refs/heads/draft``, ``demo``, ``live`` and
``HEAD`` (listed first as draft, so ``git clone x.bundle`` checks out draft). ``git bundle
verify`` accepts it.

Import creates a **new** bare repo at ``dest`` (which must not exist) in a temporary
directory beside it and renames it into place only when every check passed, so on any
failure nothing is left behind and nothing is written outside ``dest.parent``. Checks, in
order (each failure is ``BundleInvalid`` (validation) or ``BundleTooLarge`` (too_large)):

1. size: at most ``max_bytes`` (default ``MAX_BUNDLE_BYTES``, 100 MiB);
2. header: ``# v2``/``# v3 git bundle``, sha1 object format, no prerequisites (a thin
   bundle needs commits we do not have), a ``refs/heads/draft`` ref; refs other than
   draft/demo/live (and ``HEAD``) are dropped and reported; missing demo/live start at draft;
3. pack, before anything is unpacked: ``PACK`` header, at most ``max_objects`` objects, each
   object's inflated size (for deltas, the declared result size) at most ``max_file_bytes``
   and their sum at most ``max_unpacked_bytes`` (no zip bombs), trailing checksum;
4. content: every commit reachable from the kept refs passes ``validate_commits``, the
   same rules as a push (unsafe names, the symlink rule, runtime data, secrets, missing
   objects...); findings are on the error;
5. ``git gc --prune=now`` drops objects of dropped refs, then ``git fsck --full`` must be clean
   (skipped when no ``git`` executable is found).
"""

from __future__ import annotations

import hashlib
import io
import os
import shutil
import subprocess
import tempfile
import zlib
from pathlib import Path
from typing import Any

import pygit2
from dulwich.bundle import create_bundle_from_repo, write_bundle
from dulwich.refs import Ref
from dulwich.repo import Repo

from .errors import BundleInvalid, BundleTooLarge, InvalidArgument, RepoExists, SourceError
from .repo import BRANCHES, MAX_FILE_BYTES, branch_tips, lookup, open_repo
from .validate import Finding, validate_commits

__all__ = ["MAX_BUNDLE_BYTES", "MAX_UNPACKED_BYTES", "MAX_OBJECTS", "export_bundle",
           "export_findings", "import_bundle"]

MAX_BUNDLE_BYTES = 100 * 1024 * 1024
MAX_UNPACKED_BYTES = 1024 * 1024 * 1024
MAX_OBJECTS = 500_000
_KEEP = {f"refs/heads/{b}".encode(): b for b in BRANCHES}
_CHUNK = 64 * 1024
_INFLATED = "bytes once inflated"


def _history_findings(path: Path | str, tips: list[str],
                      max_file_bytes: int) -> list[Finding]:
    """The validator over every commit reachable from ``tips``: the one content check of an
    import, and therefore of whether an export can be imported."""
    return validate_commits(path, sorted(set(tips)), None, max_file_bytes=max_file_bytes)


def export_findings(path: Path | str, *,
                    max_file_bytes: int = MAX_FILE_BYTES) -> list[Finding]:
    """What ``import_bundle`` would refuse in this repo's export; empty when it is portable.

    The same check the import runs (every commit of draft, demo and live through
    ``validate_commits``), so "portable" and "importable" cannot disagree. Missing branches
    are skipped (``repair`` reports them).

    :raise RepoNotFound: not a repository.
    """
    tips = [t for t in branch_tips(path).values() if t is not None]
    return _history_findings(path, tips, max_file_bytes) if tips else []


def export_bundle(path: Path | str) -> bytes:
    """Return a git bundle of draft, demo, live and HEAD (complete: no prerequisites).

    :raise RepoNotFound: not a repository.
    :raise SourceError: the repository has missing objects (run ``repair``).
    """
    with open_repo(path):
        pass
    refs = [Ref(f"refs/heads/{b}".encode()) for b in BRANCHES] + [Ref(b"HEAD")]
    out = io.BytesIO()
    try:
        with Repo(os.fspath(path)) as r:
            with create_bundle_from_repo(r, refs=[x for x in refs if x in r.refs]) as b:
                write_bundle(out, b)
    except (KeyError, OSError, ValueError) as e:
        raise SourceError(f"cannot export: repository is damaged ({type(e).__name__}); "
                          "run source_repair") from None
    return out.getvalue()


def _header(data: bytes) -> tuple[list[bytes], dict[bytes, bytes], int]:
    """(prerequisites, refs, offset of the pack) of a bundle; BundleInvalid if malformed."""
    pos = 0

    def line() -> bytes:
        nonlocal pos
        end = data.find(b"\n", pos, pos + 4096)
        if end < 0:
            raise BundleInvalid("truncated or malformed bundle header")
        out = data[pos:end]
        pos = end + 1
        return out

    first = line() if data.startswith(b"# v") else b""
    if first not in (b"# v2 git bundle", b"# v3 git bundle"):
        raise BundleInvalid("not a git bundle (expected '# v2 git bundle' or '# v3 git bundle')")
    cur = line()
    while first.endswith(b"v3 git bundle") and cur.startswith(b"@"):
        cap = cur[1:]
        if cap.startswith(b"object-format=") and cap != b"object-format=sha1":
            raise BundleInvalid(f"unsupported {cap.decode('ascii', 'replace')}")
        if cap.startswith(b"filter"):
            raise BundleInvalid("partial (filtered) bundles are not supported")
        cur = line()
    prereqs: list[bytes] = []
    while cur.startswith(b"-"):
        prereqs.append(cur[1:41])
        cur = line()
    refs: dict[bytes, bytes] = {}
    while cur != b"":
        sha, _, name = cur.partition(b" ")
        if len(sha) != 40 or not all(c in b"0123456789abcdef" for c in sha) or not name:
            raise BundleInvalid("malformed ref line in bundle header")
        refs[name] = sha
        cur = line()
    return prereqs, refs, pos


def _varint_size(buf: bytes, i: int) -> tuple[int, int]:
    """Git delta header varint (little-endian base-128) at buf[i] -> (value, next index)."""
    value = shift = 0
    while True:
        if i >= len(buf) or shift > 63:
            raise BundleInvalid("malformed delta header in pack")
        c = buf[i]
        i += 1
        value |= (c & 0x7F) << shift
        shift += 7
        if not c & 0x80:
            return value, i


def _scan_pack(data: bytes, start: int, *, max_objects: int, max_object_bytes: int,
               max_total: int) -> int:
    """Walk the pack without storing anything; bound counts and inflated sizes.

    Inflates each object in 64 KiB steps and discards the output, so a zip bomb costs
    time proportional to the limit, never memory. Returns the object count.
    """
    view = memoryview(data)
    if bytes(view[start:start + 4]) != b"PACK" or len(data) < start + 32:
        raise BundleInvalid("bundle has no pack data")
    version = int.from_bytes(view[start + 4:start + 8], "big")
    count = int.from_bytes(view[start + 8:start + 12], "big")
    if version not in (2, 3):
        raise BundleInvalid(f"unsupported pack version {version}")
    if count > max_objects:
        raise BundleTooLarge(count, max_objects, what="pack", unit="objects")
    end = len(data) - 20
    if hashlib.sha1(view[start:end]).digest() != bytes(view[end:]):
        raise BundleInvalid("pack checksum mismatch (truncated or corrupt bundle)")
    pos = start + 12
    total = 0
    for _ in range(count):
        if pos >= end:
            raise BundleInvalid("truncated pack")
        c = data[pos]
        pos += 1
        kind = (c >> 4) & 7
        size = c & 15
        shift = 4
        while c & 0x80:
            if pos >= end or shift > 63:
                raise BundleInvalid("malformed object header in pack")
            c = data[pos]
            pos += 1
            size |= (c & 0x7F) << shift
            shift += 7
        if kind == 6:                                       # OFS_DELTA: base offset
            while True:
                if pos >= end:
                    raise BundleInvalid("malformed delta offset in pack")
                c = data[pos]
                pos += 1
                if not c & 0x80:
                    break
        elif kind == 7:                                     # REF_DELTA: base id
            pos += 20
        elif kind not in (1, 2, 3, 4):
            raise BundleInvalid(f"unknown object type {kind} in pack")
        if size > max_object_bytes * (2 if kind in (6, 7) else 1):
            raise BundleTooLarge(size, max_object_bytes, what="an object", unit=_INFLATED)
        d = zlib.decompressobj()
        produced = 0
        head = b""
        feed = pos
        tail = b""
        while not d.eof:
            if tail:
                chunk = tail
            else:
                chunk = bytes(view[feed:min(feed + _CHUNK, end)])
                feed += len(chunk)
                if not chunk:
                    raise BundleInvalid("truncated object in pack")
            try:
                out = d.decompress(chunk, _CHUNK)
            except zlib.error:
                raise BundleInvalid("corrupt compressed object in pack") from None
            tail = d.unconsumed_tail
            produced += len(out)
            if len(head) < 32:
                head += out[:32]
            if produced > size:
                raise BundleInvalid("object larger than its header says")
        if produced != size:
            raise BundleInvalid("object smaller than its header says")
        # The last input fed (a fresh chunk or the tail of one) ends at ``feed``, and zlib
        # puts what follows the stream in ``unused_data``. Once a bounded decompress hit
        # its output limit, ``unconsumed_tail`` still holds those same bytes at the end of
        # the stream: subtracting it too would step back into this object.
        pos = feed - len(d.unused_data)
        result = size
        if kind in (6, 7):
            _, i = _varint_size(head, 0)
            result, _ = _varint_size(head, i)
        if result > max_object_bytes:
            raise BundleTooLarge(result, max_object_bytes, what="an object", unit=_INFLATED)
        total += result
        if total > max_total:
            raise BundleTooLarge(total, max_total, what="pack", unit=_INFLATED)
    if pos != end:
        raise BundleInvalid("trailing garbage after pack objects")
    return count


def _git(path: str, *args: str) -> subprocess.CompletedProcess[str] | None:
    git = shutil.which("git")
    if git is None:
        return None
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(GIT_CONFIG_NOSYSTEM="1", GIT_TERMINAL_PROMPT="0", LC_ALL="C")
    return subprocess.run([git, "--git-dir", path, *args], capture_output=True, text=True,
                          env=env, timeout=600)


def import_bundle(data: bytes, dest: Path | str, *, max_bytes: int = MAX_BUNDLE_BYTES,
                  max_unpacked_bytes: int = MAX_UNPACKED_BYTES,
                  max_file_bytes: int = MAX_FILE_BYTES,
                  max_objects: int = MAX_OBJECTS) -> dict[str, Any]:
    """Create a new bare element repo at ``dest`` from a bundle, or refuse it cleanly.

    :return: ``{"branches": {draft, demo, live: hex}, "dropped_refs": [names],
        "objects": count}``.
    :raise BundleTooLarge: over ``max_bytes``, ``max_objects``, ``max_unpacked_bytes`` or
        an object over ``max_file_bytes``.
    :raise BundleInvalid: malformed, thin, without draft, or refused content (``findings``).
    :raise RepoExists: ``dest`` exists.
    """
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise InvalidArgument("data", "bundle must be bytes")
    data = bytes(data)
    if len(data) > max_bytes:
        raise BundleTooLarge(len(data), max_bytes)
    dest = Path(dest)
    if dest.exists() or dest.is_symlink():
        raise RepoExists(dest)
    prereqs, refs, offset = _header(data)
    if prereqs:
        raise BundleInvalid(f"thin bundle: it needs {len(prereqs)} prerequisite commit(s) "
                            "it does not contain; create it with 'git bundle create x --all'")
    kept = {_KEEP[name]: sha.decode() for name, sha in refs.items() if name in _KEEP}
    dropped = sorted(n.decode("utf-8", "replace") for n in refs
                     if n not in _KEEP and n != b"HEAD")
    if "draft" not in kept:
        have = ", ".join(sorted(n.decode("utf-8", "replace") for n in refs)) or "none"
        raise BundleInvalid(f"bundle has no refs/heads/draft (refs: {have[:200]})")
    count = _scan_pack(data, offset, max_objects=max_objects, max_object_bytes=max_file_bytes,
                       max_total=max_unpacked_bytes)
    created = [p for p in (dest.parent, *dest.parent.parents) if not p.exists()]
    dest.parent.mkdir(parents=True, exist_ok=True)
    # 0700 whatever the umask (mkdtemp), kept by the rename: element repos are private.
    tmp = tempfile.mkdtemp(prefix=f".{dest.name}.", suffix=".import", dir=dest.parent)

    def cleanup() -> None:
        shutil.rmtree(tmp, ignore_errors=True)
        for p in created:                       # innermost first; only if still empty
            try:
                p.rmdir()
            except OSError:
                break

    try:
        _unpack(tmp, data[offset:])
        tips = {b: kept.get(b, kept["draft"]) for b in BRANCHES}
        with open_repo(tmp) as repo:
            repo.config["core.logAllRefUpdates"] = "always"
            for b, sha in tips.items():
                if sha not in repo:
                    raise BundleInvalid(f"refs/heads/{b} points at {sha}, which the bundle "
                                        "does not contain")
                commit = lookup(repo, sha, pygit2.Commit)
                if commit is None:
                    raise BundleInvalid(f"refs/heads/{b} does not point at a commit")
                repo.create_reference_direct(f"refs/heads/{b}", commit.id, True,
                                             message="import bundle")
            repo.references.create("HEAD", "refs/heads/draft", force=True)
        findings = _history_findings(tmp, list(tips.values()), max_file_bytes)
        if findings:
            first = findings[0]
            raise BundleInvalid(f"{first['path']}: {first['reason']}"
                                + (f" (+{len(findings) - 1} more)" if len(findings) > 1 else ""),
                                findings)
        gc = _git(tmp, "-c", "gc.auto=0", "gc", "--quiet", "--prune=now")
        if gc is not None and gc.returncode != 0:
            raise BundleInvalid(f"git gc failed: {gc.stderr.strip()[:200]}")
        fsck = _git(tmp, "fsck", "--full", "--no-progress", "--no-dangling")
        if fsck is not None and fsck.returncode != 0:
            msg = (fsck.stderr or fsck.stdout).strip().splitlines()
            raise BundleInvalid(f"git fsck: {msg[0][:200] if msg else 'failed'}")
        try:
            os.rename(tmp, dest)
        except OSError:
            raise RepoExists(dest) from None
    except SourceError:
        cleanup()
        raise
    except Exception as e:  # hostile input must never crash the caller
        cleanup()
        raise BundleInvalid(f"unreadable bundle ({type(e).__name__})") from e
    except BaseException:
        cleanup()
        raise
    return {"branches": tips, "dropped_refs": dropped, "objects": count}


def _unpack(tmp: str, pack: bytes) -> None:
    """Store the (already scanned) pack in a fresh bare repo at ``tmp``."""
    with Repo.init_bare(tmp) as r:
        stream = io.BytesIO(pack)
        r.object_store.add_thin_pack(stream.read, None)
