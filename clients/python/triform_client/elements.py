"""Handles on elements: what every element answers, and what a circle adds.

A handle is a path and the client's transport; making one sends nothing. Ops that change
something say whether repeating them is harmless (``safe``): only those are tried again
after an answer that may have been lost.
"""

from __future__ import annotations

import base64
from collections.abc import Iterator, Sequence
from typing import IO, Any, cast

from .models import JSON, ActivityPage, ElementInfo, Event, SpecAnswer, SpecUpdate
from .source import Source
from .transport import Transport, op_url

__all__ = ["Element", "Circle"]


class Element:
    """Any element (``<circle>/<slug>``, or ``<circle>`` for a circle)."""

    def __init__(self, transport: Transport, path: str) -> None:
        self._t = transport
        self.path = path.strip("/")
        self.source = Source(transport, self.path)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.path!r})"

    # -- plumbing ---------------------------------------------------------------------------

    def _get(self, op: str, **params: object) -> Any:
        return self._t.call("GET", op_url(self.path, op), params=params, safe=True)

    def _post(self, op: str, body: JSON, *, safe: bool,
              headers: dict[str, str] | None = None) -> Any:
        return self._t.call("POST", op_url(self.path, op), safe=safe, headers=headers,
                            json={k: v for k, v in body.items() if v is not None})

    # -- spec and versions ------------------------------------------------------------------

    def spec(self) -> SpecAnswer:
        """The spec and its version number."""
        return cast(SpecAnswer, self._get("spec"))

    def spec_update(self, properties: JSON | None = None, *, name: str | None = None,
                    description: str | None = None, message: str | None = None) -> SpecUpdate:
        """Merge ``properties`` into the spec (a None value resets one to its default),
        commit it to draft and record a version; ``changed`` False when nothing changed."""
        return cast(SpecUpdate, self._post("spec_update", {
            "properties": properties, "name": name, "description": description,
            "message": message}, safe=True))

    def version(self, *, history: bool = False, limit: int | None = None) -> JSON:
        """The current version (``version``, ``label``, ``current``), with ``history``."""
        return cast(JSON, self._get("version", history=history or None, limit=limit))

    def restore(self, version: int | str) -> JSON:
        """Make version ``version`` (``3`` or ``"v3"``) current again, as a new version."""
        return cast(JSON, self._post("restore", {"version": version}, safe=False))

    def readme(self, branch: str | None = None) -> JSON:
        """README.md of a branch (default draft): ``content``, ``exists``."""
        return cast(JSON, self._get("readme", branch=branch))

    def readme_update(self, content: str, message: str | None = None) -> JSON:
        """Commit README.md to draft; ``changed`` False when it already said that."""
        return cast(JSON, self._post("readme_update", {"content": content,
                                                       "message": message}, safe=True))

    # -- lifecycle and children -------------------------------------------------------------

    def enable(self, reason: str | None = None) -> JSON:
        """Set ``ready`` (admin); ``changed`` False when it already was."""
        return cast(JSON, self._post("enable", {"reason": reason}, safe=True))

    def disable(self, reason: str | None = None) -> JSON:
        """Set ``disabled`` (admin): every op but a few answers 409 until enabled."""
        return cast(JSON, self._post("disable", {"reason": reason}, safe=True))

    def create(self, element_type: str, slug: str, *, name: str | None = None,
               description: str | None = None,
               properties: JSON | None = None) -> ElementInfo:
        """Create a child element (flat under the circle) and answer it.

        :raise Conflict: the slug is taken.
        """
        answer = self._post("create", {"element_type": element_type, "slug": slug,
                                       "name": name, "description": description,
                                       "properties": properties}, safe=False)
        return cast(ElementInfo, answer["element"])

    def update_meta(self, meta: JSON) -> ElementInfo:
        """Shallow-merge ``meta`` into the element's meta."""
        answer = self._t.call("PATCH", op_url(self.path, "update_meta"), safe=True,
                              json={"meta": meta})
        return cast(ElementInfo, answer["element"])

    # -- activity ---------------------------------------------------------------------------

    def activity_page(self, *, limit: int | None = None,
                      cursor: str | None = None) -> ActivityPage:
        """One page of activity, newest first; pass ``next_cursor`` for the next."""
        return cast(ActivityPage, self._get("activity", limit=limit, cursor=cursor))

    def activity(self, *, page_size: int = 200) -> Iterator[Event]:
        """Every activity event of this element (a circle: of the circle), newest first,
        fetched a page at a time as the iteration goes."""
        cursor: str | None = None
        while True:
            page = self.activity_page(limit=page_size, cursor=cursor)
            yield from page["events"]
            cursor = page["next_cursor"]
            if cursor is None:
                return

    # -- composition and graph --------------------------------------------------------------

    def attachments(self) -> JSON:
        """Attached modifiers and resources, own and ``inherited``."""
        return cast(JSON, self._get("attachments"))

    def compose(self, add: Sequence[JSON] = (), remove: Sequence[JSON] = ()) -> JSON:
        """Attach (``{"ref", "priority"?, "cascade"?}``) and detach (``{"attachment_id"}``)
        in one transaction."""
        return cast(JSON, self._post("compose", {"add": list(add), "remove": list(remove)},
                                     safe=False))

    def remove_modifier(self, attachment_id: str) -> JSON:
        """Detach one attachment of this element."""
        return cast(JSON, self._post("remove-modifier", {"attachment_id": attachment_id},
                                     safe=False))

    def schema(self) -> JSON:
        """The type's property schema, ports and (memories, agents) tools."""
        return cast(JSON, self._get("schema"))

    def tree(self, *, depth: int | None = None, include_metadata: bool = False) -> JSON:
        """Ancestors, children, members and attachments."""
        return cast(JSON, self._get("tree", depth=depth,
                                    include_metadata=include_metadata or None))

    def context(self, *, depth: int | None = None,
                types: Sequence[str] | None = None) -> JSON:
        """Connected elements, breadth first over every kind of edge."""
        return cast(JSON, self._get("context", depth=depth,
                                    types=",".join(types) if types else None))

    def intention(self) -> JSON:
        """The element's intention with its inheritance chain."""
        return cast(JSON, self._get("intention"))

    def batch_stats(self) -> JSON:
        """Per-child statistics and an aggregate."""
        return cast(JSON, self._get("batch_stats"))

    # -- bundles ----------------------------------------------------------------------------

    def export_bundle(self, out: IO[bytes]) -> int:
        """Write the element's git bundle (``git clone FILE`` works) into ``out``,
        streamed; answer its size in bytes."""
        return self._t.download(op_url(self.path, "export/bundle"), out)


class Circle(Element):
    """A circle: the root namespace of its elements; bundles are imported here."""

    def export_envelope(self) -> JSON:
        """Every child element as a JSON envelope of base64 git bundles."""
        return cast(JSON, self._get("export/bundle"))

    def import_bundle(self, bundle: bytes, *, slug: str | None = None,
                      overwrite: bool = False) -> JSON:
        """Import one git bundle as a new element; ``imported``/``skipped``/``errors``.

        :raise ValidationError: nothing was imported or skipped (``body`` has the report).
        """
        return cast(JSON, self._post("import/bundle", {
            "bundle_base64": base64.b64encode(bundle).decode("ascii"), "slug": slug,
            "overwrite": overwrite or None}, safe=False))

    def import_envelope(self, envelope: JSON, *, overwrite: bool = False) -> JSON:
        """Import what :meth:`export_envelope` answered, element by element."""
        return cast(JSON, self._post("import/bundle", {"envelope": envelope,
                                                       "overwrite": overwrite or None},
                                     safe=False))
