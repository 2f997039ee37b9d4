"""What the element layer records about its own work, beside the elements.

* the **spec mirror**: the draft spec blob last mirrored into the catalog for each element
  (``spec/mirror.py``), claimed by compare-and-swap so one worker records each change;
* **observed turns**: the digests of conversation turns a memory element's subconscious
  has observed (``agents/observed.py``), so a turn observed again changes nothing;
* **forgotten subjects**: each ``forget_subject`` of a memory element, which memory
  import and restore honour (``docs/backup.md``).
"""

from __future__ import annotations

import json
from typing import Any

from .sql import Tables, Tx, now_iso

__all__ = ["Bookkeeping"]


class Bookkeeping(Tables):
    """The bookkeeping part of the :class:`~element.catalog.Catalog`."""

    # -- spec mirror ------------------------------------------------------------------
    def mirror_state(self, element_id: str) -> dict[str, Any] | None:
        """The draft spec blob last mirrored for an element (``spec/mirror.py``)."""
        rows = self._query("SELECT * FROM spec_mirror WHERE element_id = ?", (element_id,))
        return dict(rows[0]) if rows else None

    def set_mirror(self, element_id: str, commit: str | None, blob: str | None,
                   status: str = "mirrored", *, expect: Any = ...) -> bool:
        """Record the mirrored blob. With ``expect`` (the blob read before), only if the row
        still holds it: a compare-and-swap, so one worker wins. Returns whether it was
        written."""
        with self._transaction() as tx:
            tx.lock(f"element:{element_id}")
            if expect is not ... and _mirrored_blob(tx, element_id) != expect:
                return False
            _upsert_mirror(tx, element_id, blob, commit, status, now_iso())
        return True

    def mirror_version(self, element_id: str, expect: str | None, commit: str,
                       blob: str | None, spec: dict[str, Any], message: str) -> int | None:
        """Claim the mirror row (compare-and-swap on ``expect``) and record ``spec`` as a new
        version in ONE transaction, so no reader sees the row ahead of the version and two
        workers never both record it. Returns the version, or None when another worker got
        there first."""
        stamp = now_iso()
        with self._transaction() as tx:
            tx.lock(f"element:{element_id}")
            if _mirrored_blob(tx, element_id) != expect:
                return None
            version = int(tx.execute("SELECT version FROM elements WHERE id = ?",
                                     (element_id,)).fetchone()["version"]) + 1
            tx.execute("INSERT INTO versions VALUES (?,?,?,?,?)",
                       (element_id, version, json.dumps(spec), message, stamp))
            tx.execute("UPDATE elements SET name = ?, description = ?, properties = ?, "
                       "version = ?, updated_at = ? WHERE id = ?",
                       (spec["name"], spec["description"], json.dumps(spec["properties"]),
                        version, stamp, element_id))
            _upsert_mirror(tx, element_id, blob, commit, "mirrored", stamp)
        return version


    # -- observed turns ---------------------------------------------------------------
    def observed(self, element_id: str, digests: list[str]) -> set[str]:
        """Those of ``digests`` recorded as observed by a memory element."""
        found: set[str] = set()
        for start in range(0, len(digests), 500):
            chunk = digests[start:start + 500]
            rows = self._query(f"SELECT digest FROM observed_turns WHERE element_id = ? AND "
                               f"digest IN ({','.join('?' * len(chunk))})",
                               (element_id, *chunk))
            found.update(str(r["digest"]) for r in rows)
        return found

    def record_observed(self, element_id: str, digests: list[str], subject: str) -> None:
        """Record turn digests as observed by a memory element, for one subject."""
        if not digests:
            return
        at = now_iso()
        with self._transaction() as tx:
            tx.executemany("INSERT INTO observed_turns VALUES (?,?,?,?) "
                           "ON CONFLICT(element_id, digest) DO NOTHING",
                           [(element_id, d, subject, at) for d in digests])

    def forget_observed(self, element_id: str, subject: str) -> int:
        """Drop one subject's observed turns of a memory element; returns how many."""
        with self._transaction() as tx:
            return tx.execute("DELETE FROM observed_turns WHERE element_id = ? AND "
                              "subject = ?", (element_id, subject)).rowcount

    # -- forgotten subjects (import and restore honour them) --------------------------
    def record_forgotten(self, element_id: str, subject_type: str, subject_id: str,
                         at: str) -> None:
        """Record that a memory element forgot a subject at ``at`` (ISO-8601; a later
        forget moves it on): an import or a restore drops that subject's memories
        created until then."""
        with self._transaction() as tx:
            tx.execute("INSERT INTO forgotten_subjects VALUES (?,?,?,?) ON CONFLICT("
                       "element_id, subject_type, subject_id) DO UPDATE SET at = "
                       "CASE WHEN excluded.at > forgotten_subjects.at THEN excluded.at ELSE "
                       "forgotten_subjects.at END", (element_id, subject_type, subject_id, at))

    def forgotten(self, element_id: str | None = None) -> list[dict[str, str]]:
        """The forgotten subjects of one element (None: of every element), oldest first."""
        where, args = ("WHERE element_id = ?", (element_id,)) if element_id else ("", ())
        rows = self._query("SELECT element_id, subject_type, subject_id, at FROM "
                           f"forgotten_subjects {where} ORDER BY at", args)
        return [dict(row) for row in rows]


def _mirrored_blob(tx: Tx, element_id: str) -> str | None:
    row = tx.execute("SELECT blob FROM spec_mirror WHERE element_id = ?",
                     (element_id,)).fetchone()
    return row["blob"] if row else None


def _upsert_mirror(tx: Tx, element_id: str, blob: str | None,
                   commit: str | None, status: str, at: str) -> None:
    tx.execute("INSERT INTO spec_mirror VALUES (?,?,?,?,?) ON CONFLICT(element_id) DO "
               "UPDATE SET blob = excluded.blob, commit_id = excluded.commit_id, "
               "status = excluded.status, at = excluded.at",
               (element_id, blob, commit, status, at))
