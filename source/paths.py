"""Path rules: what a tree entry may be named, what a caller's path and a symlink may be.

One rule per question, used everywhere it is asked (the push policy, the validator, the
``portable`` verdict, bundle import and export, ``commit_files``, ``read_file``):

* ``check_name``: one tree entry name. Refuses what git's ``verify_path`` and ``fsck``
  (``hasDot``, ``hasDotdot``, ``hasDotgit``, ``fullPathname``) refuse, including every
  look-alike of ``.git`` that a case-insensitive HFS+ or NTFS checkout would write into
  the repository's own ``.git``: any letter case, trailing dots and spaces, ``git~1``,
  NTFS streams (``.git::$INDEX_ALLOCATION``) and code points HFS+ ignores
  (``.g\\u200cit``).
* ``check_relpath``: a path a caller hands in (to read or to commit): every segment passes
  ``check_name``; no control characters, no backslash, no lone surrogates, not absolute.
* ``symlink_problem``: the symlink rule, below.

**Symlinks.** Element repos are bare and never checked out on the server, and the server
reads files only by tree lookup (``read_file``, fixtures, the spec), which never follows a
link: a symlink there is ``NotAFile``, not a way out. The risk is on the clients that check
the tree out, so a symlink is allowed exactly when it cannot point outside the checkout:

* its target is relative, UTF-8, at most ``MAX_SYMLINK_TARGET`` bytes, without NUL,
  control characters, backslashes or a drive-like ``:``, and without empty segments;
* ``..`` appears only as leading segments, no more of them than the link's own depth.
  The link resolves from its real directory, so it climbs through real directories only
  and then descends by names; a descended name that is itself a link obeys the same rule
  from its own real directory, so no chain of links ever leaves the tree (a lexical
  ``normpath`` check does not have this property: ``a/up -> ..`` plus
  ``a/b/out -> ../up/..`` escapes);
* no segment of the target is a ``.git`` look-alike;
* the link itself is not one of git's special files (``.gitmodules``, ``.gitattributes``,
  ``.gitignore``, ``.mailmap`` and their HFS/NTFS look-alikes: git's fsck refuses those
  as symlinks) and is not inside ``.triform/``, whose files the server reads as regular
  files.
"""

from __future__ import annotations

import re

from .errors import UnsafePath

__all__ = ["MAX_SYMLINK_TARGET", "check_name", "check_relpath", "is_dotgit",
           "is_git_special_file", "symlink_problem"]

#: Longest symlink target accepted, in bytes (Linux's PATH_MAX).
MAX_SYMLINK_TARGET = 4096
#: Folder whose files the server reads from the tree as regular files.
_SERVER_READ_DIR = ".triform"

# Code points HFS+ drops when it compares names (git's utf8.c ``next_hfs_char``).
_HFS_IGNORABLE = frozenset(
    "\u200c\u200d\u200e\u200f\u202a\u202b\u202c\u202d\u202e"
    "\u206a\u206b\u206c\u206d\u206e\u206f\ufeff")
# git's path.c ``is_ntfs_dotgit``: the name ends at NUL, ``\``, ``/`` or ``:`` (a stream).
_NTFS_DOTGIT = re.compile(r"(?:\.git|git~1)[. ]*(?:[\\/:]|\Z)", re.IGNORECASE | re.ASCII)
# (name after the dot, NTFS 8.3 short-name prefix) of git's own special files.
_GIT_SPECIAL = (("gitmodules", "gi7eba"), ("gitattributes", "gi7d29"),
                ("gitignore", "gi250a"), ("mailmap", "maba30"))
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def _ascii_eq(c: str, lower: str) -> bool:
    """C ``tolower(c) == lower`` for git's ASCII needles: non-ASCII never matches."""
    return c.isascii() and c.lower() == lower


def _hfs_chars(name: str) -> list[str]:
    """The code points HFS+ compares; git's walk ends at the first malformed UTF-8 byte
    (pygit2 hands those over as ``surrogateescape`` code points), so ``.git\\xff`` is
    ``.git`` to git and to us."""
    out = []
    for c in name:
        if "\udc80" <= c <= "\udcff":
            break
        if c not in _HFS_IGNORABLE:
            out.append(c)
    return out


def _is_hfs_dot(name: str, needle: str) -> bool:
    """git's ``is_hfs_dot_generic``: ``.`` + needle, ignoring what HFS+ ignores."""
    chars = _hfs_chars(name)
    return (len(chars) == len(needle) + 1 and chars[0] == "."
            and all(_ascii_eq(c, n) for c, n in zip(chars[1:], needle, strict=True)))


def _only_spaces_and_periods(name: str, start: int) -> bool:
    for c in name[start:]:
        if c == ":":
            return True
        if c not in " .":
            return False
    return True


def _is_ntfs_dot(name: str, needle: str, short: str) -> bool:
    """git's ``is_ntfs_dot_generic``: ``.needle``, its ``needle[:6]~N`` and 8.3 short names."""
    n = len(needle)
    if name[:1] == "." and len(name) > n and all(
            _ascii_eq(c, x) for c, x in zip(name[1:n + 1], needle, strict=True)):
        return _only_spaces_and_periods(name, n + 1)
    if (len(name) >= 8 and all(_ascii_eq(c, x) for c, x in zip(name[:6], needle[:6],
                                                               strict=True))
            and name[6] == "~" and name[7] in "1234"):
        return _only_spaces_and_periods(name, 8)
    i, saw_tilde = 0, False
    while i < 8:
        if i >= len(name):
            return False
        c = name[i]
        if saw_tilde:
            if c not in "0123456789":
                return False
        elif c == "~":
            i += 1
            if i >= len(name) or not "1" <= name[i] <= "9":
                return False
            saw_tilde = True
        elif i >= 6 or not _ascii_eq(c, short[i]):
            return False
        i += 1
    return _only_spaces_and_periods(name, 8)


def is_dotgit(name: str) -> bool:
    """True if a checkout on HFS+ or NTFS could write ``name`` into ``.git`` (git's fsck
    ``hasDotgit``: ``is_hfs_dotgit || is_ntfs_dotgit``)."""
    return _is_hfs_dot(name, "git") or _NTFS_DOTGIT.match(name) is not None


def is_git_special_file(name: str) -> bool:
    """True for ``.gitmodules``, ``.gitattributes``, ``.gitignore``, ``.mailmap`` and their
    HFS/NTFS look-alikes: files git itself reads from a checkout."""
    return any(_is_hfs_dot(name, needle) or _is_ntfs_dot(name, needle, short)
               for needle, short in _GIT_SPECIAL)


def check_name(name: str) -> str | None:
    """Why one tree entry name is unsafe, or ``None`` (git's ``verify_path`` and fsck)."""
    if name in ("", ".", ".."):
        return f"entry name {name!r} is not allowed"
    if "/" in name or "\\" in name or "\x00" in name:
        return f"entry name {name!r} holds a path separator or NUL"
    if is_dotgit(name):
        return f"entry name {name!r} would write into .git"
    return None


def check_relpath(relpath: object) -> str:
    """Return ``relpath`` if it is a safe relative path inside a tree, else raise.

    Refused: non-strings, empty, NUL or other control characters, lone surrogates (not
    UTF-8), a leading ``/``, backslashes, empty segments (``a//b``, trailing ``/``), ``.``
    and ``..`` segments, and segments ``check_name`` refuses (``.git`` and look-alikes).

    :raise UnsafePath: with the reason.
    """
    if not isinstance(relpath, str):
        raise UnsafePath(repr(relpath), "not a string")
    if relpath == "":
        raise UnsafePath(relpath, "empty path")
    if "\x00" in relpath:
        raise UnsafePath(relpath, "NUL byte")
    if _CONTROL.search(relpath):
        raise UnsafePath(relpath, "control character")
    if not relpath.isascii():
        try:
            relpath.encode("utf-8")
        except UnicodeEncodeError:
            raise UnsafePath(relpath, "not valid UTF-8 (lone surrogate)") from None
    if relpath.startswith("/"):
        raise UnsafePath(relpath, "absolute path")
    if "\\" in relpath:
        raise UnsafePath(relpath, "backslash")
    for seg in relpath.split("/"):
        if seg == "":
            raise UnsafePath(relpath, "empty segment")
        if seg in (".", ".."):
            raise UnsafePath(relpath, f"{seg!r} segment")
        if is_dotgit(seg):
            raise UnsafePath(relpath, f"{seg!r} would write into .git")
    return relpath


def symlink_problem(path: str, target: bytes) -> str | None:
    """Why the symlink at tree path ``path`` pointing at ``target`` is refused, or ``None``.

    The rule is in the module docstring; it is the only symlink rule of the layer.
    """
    segs = path.split("/")
    if is_git_special_file(segs[-1]):
        return f"{segs[-1]} may not be a symlink (git reads it from the checkout)"
    if segs[0] == _SERVER_READ_DIR:
        return f"symlinks inside {_SERVER_READ_DIR}/ are not allowed (read as plain files)"
    if not target:
        return "symlink with an empty target"
    if len(target) > MAX_SYMLINK_TARGET:
        return f"symlink target longer than {MAX_SYMLINK_TARGET} bytes"
    try:
        text = target.decode("utf-8")
    except UnicodeDecodeError:
        return "symlink target is not UTF-8"
    if _CONTROL.search(text) or "\\" in text or ":" in text:
        return f"symlink to {text!r} holds NUL, a control character, '\\' or ':'"
    if text.startswith("/"):
        return f"symlink to {text!r} is absolute"
    parts = text.split("/")
    if "" in parts:
        return f"symlink to {text!r} has an empty segment"
    ups = 0
    while ups < len(parts) and parts[ups] == "..":
        ups += 1
    if ups > len(segs) - 1 or ".." in parts[ups:]:
        return f"symlink to {text!r} leaves the tree"
    if any(is_dotgit(p) for p in parts):
        return f"symlink to {text!r} points into .git"
    return None
