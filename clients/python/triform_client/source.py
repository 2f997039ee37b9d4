"""The git side of an element (docs/source-ops.md): ``element.source.<op>()``.

Each method is one op under ``/api/<path>/ops/source...``. Reports are answered as the
server gives them (:data:`JSON`); a merge with conflicts raises :class:`Conflict` whose
``body`` holds ``conflicts``, ``ours`` and ``theirs``.
"""

from __future__ import annotations

from typing import Literal

from .models import JSON
from .transport import Transport, op_url

__all__ = ["Source"]

Branch = Literal["draft", "demo", "live"]


class Source:
    """Source control ops of one element."""

    def __init__(self, transport: Transport, path: str) -> None:
        self._t = transport
        self.path = path

    def _get(self, op: str, **params: object) -> JSON:
        answer: JSON = self._t.call("GET", op_url(self.path, op), params=params, safe=True)
        return answer

    def _post(self, op: str, body: JSON, *, safe: bool) -> JSON:
        answer: JSON = self._t.call("POST", op_url(self.path, op), safe=safe,
                                    json={k: v for k, v in body.items() if v is not None})
        return answer

    def status(self) -> JSON:
        """Branches, clone URL and checkout lines, findings, files (``source_status``)."""
        return self._get("source/status")

    def branches(self) -> JSON:
        """Each branch's tip and the promotion steps' ahead/behind (``source_branches``)."""
        return self._get("source/branches")

    def file(self, path: str, branch: Branch | None = None) -> JSON:
        """One file of a branch (``source``): ``exists``, ``content``, ``encoding``."""
        return self._get("source", path=path, branch=branch)

    def diff3(self, theirs: str, ours: str | None = None) -> JSON:
        """Preview merging ``theirs`` into ``ours`` (default the draft tip); writes nothing."""
        return self._get("source/diff3", theirs=theirs, ours=ours)

    def merge(self, theirs: str, message: str | None = None) -> JSON:
        """Merge a commit into draft.

        :raise Conflict: the merge has conflicts (``error.body["conflicts"]``); nothing
            was written.
        """
        # Merging the same commit again finds draft up to date: safe to repeat.
        return self._post("source/merge", {"theirs": theirs, "message": message}, safe=True)

    def promote(self, to: Literal["demo", "live"], *, force: bool = False,
                reason: str | None = None) -> JSON:
        """Fast-forward demo to draft, or live to demo, past the element's promotion gates
        (docs/evals.md); ``gates`` in the answer says what they checked. ``reason`` is
        recorded in activity: needed to change a protected property, and with ``force``
        (an admin passing failing eval gates).

        :raise Conflict: the target has diverged, or an eval gate failed
            (``PROMOTION_GATE_FAILED``, naming the failing cases); nothing moved.
        :raise Forbidden: a protected property changes and the token is not an admin's.
        """
        return self._post("source/promote", {"to": to, "force": force or None,
                                             "reason": reason}, safe=True)

    def validate(self, branch: str | None = None) -> JSON:
        """Validate a branch (default draft): ``ok`` and ``findings``."""
        return self._post("source/validate", {"branch": branch}, safe=True)

    def repair(self, *, dry_run: bool = True, prune_age: str | None = None) -> JSON:
        """Check (and with ``dry_run=False`` fix) refs, objects, spec, memory runtime."""
        return self._post("source/repair", {"dry_run": dry_run, "prune_age": prune_age},
                          safe=True)

    def fixtures(self, *, dry_run: bool = True, confirm: bool = False,
                 branch: str | None = None) -> JSON:
        """Report (or apply, with ``dry_run=False, confirm=True``) the branch's fixtures;
        applying twice stores nothing new (each record's key is its idempotency key)."""
        return self._post("source/fixtures", {"dry_run": dry_run, "confirm": confirm,
                                              "branch": branch}, safe=True)
