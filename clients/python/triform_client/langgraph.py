"""A LangGraph store backed by a memory element: ``TriformStore(tf.memory("demo/memory"))``.

Needs the ``langgraph`` extra (``pip install 'triform-client[langgraph]'``); the rest of
the client never imports it.

How an item maps onto a memory (clients/python/README.md, "LangGraph"):

* **one item, one memory**, whose ``metadata`` holds the item exactly:
  ``langgraph_namespace`` (the labels), ``langgraph_key`` and ``langgraph_value`` (the
  value); ``created_at`` and ``updated_at`` are the memory's;
* **the subject**: the label at ``subject_at`` (default 1, as in ``("memories",
  user_id)``) is the memory's ``subject_id``, with the store's ``subject_type`` (default
  ``guest``); a namespace too short to have it holds general memories. So the element's
  subject scoping, ``max_per_subject`` and ``forget_subject`` apply to a user's items;
* **the agent**: the namespace's labels joined with ``.`` (LangGraph forbids ``.`` in a
  label, so the join is unambiguous) are the memory's ``agent``, so one namespace's items
  are listed by one exact filter (a join longer than the server's 200 characters becomes
  ``langgraph-ns-<digest>``);
* **the text** that recall embeds and ranks: the strings of the value at the store's
  ``fields`` (or a put's ``index``; LangGraph's path syntax), else every string in the
  value, joined by newlines; ``index=False`` still stores it (a memory always has text);
* **the key**: a put sends an ``Idempotency-Key`` made from the namespace and the key, so
  the element holds one memory per item whichever process puts it, and a put repeated
  (a retry, a replayed graph step) stores nothing new. A put that changes a value updates
  that memory in place (``created_at`` kept, ``updated_at`` moved).

Reads: ``get`` and ``delete`` find an item by the namespace's agent filter (the memory id
of an item this store wrote or read is kept, so the next call goes straight to it);
``search`` with a ``query`` is the element's recall (subject-scoped when the prefix reaches
the subject label), best first with its score, then filtered by prefix and ``filter`` over
the 100 best; without a query it lists newest first. ``list_namespaces`` reads every item
of the element. ``abatch`` runs ``batch`` on a worker thread. TTLs are not supported
(retention is per category, set on the element).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import threading
from collections.abc import Iterable, Iterator, Mapping
from datetime import datetime
from typing import Any

try:
    from langgraph.store.base import (
        BaseStore,
        GetOp,
        InvalidNamespaceError,
        Item,
        ListNamespacesOp,
        MatchCondition,
        Op,
        PutOp,
        Result,
        SearchItem,
        SearchOp,
        get_text_at_path,
        tokenize_path,
        validate_op_namespace,
    )
except ImportError as exc:   # pragma: no cover - exercised in a venv without the extra
    raise ImportError("triform_client.langgraph needs langgraph: "
                      "pip install 'triform-client[langgraph]'") from exc

from .errors import NotFound, TriformError
from .memory import MemoryElement
from .models import Category, Memory, SubjectType

__all__ = ["TriformStore"]

NAMESPACE, KEY, VALUE = "langgraph_namespace", "langgraph_key", "langgraph_value"
#: The server's longest ``agent``; a longer namespace join is replaced by its digest.
MAX_AGENT_CHARS = 200
#: The most a search asks the element for; the prefix and filter are applied to these.
SEARCH_POOL = 100
_CONTENT_BYTES = 16 * 1024


def _digest(*parts: object) -> str:
    return hashlib.sha256(json.dumps(parts, ensure_ascii=False).encode()).hexdigest()


def _time(text: Any) -> datetime:
    return datetime.fromisoformat(str(text).replace("Z", "+00:00"))


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def _compare(item: Any, wanted: Any) -> bool:
    """LangGraph's filter semantics: equality, nested objects, ``$eq``/``$ne``/``$gt``/
    ``$gte``/``$lt``/``$lte``."""
    if isinstance(wanted, dict):
        if any(k.startswith("$") for k in wanted):
            return all(_operator(item, op, operand) for op, operand in wanted.items())
        return isinstance(item, dict) and all(_compare(item.get(k), v)
                                              for k, v in wanted.items())
    if isinstance(wanted, (list, tuple)):
        return isinstance(item, (list, tuple)) and len(item) == len(wanted) and all(
            _compare(i, w) for i, w in zip(item, wanted, strict=True))
    return bool(item == wanted)


def _operator(value: Any, op: str, operand: Any) -> bool:
    if op == "$eq":
        return bool(value == operand)
    if op == "$ne":
        return bool(value != operand)
    if op not in ("$gt", "$gte", "$lt", "$lte"):
        raise ValueError(f"unsupported filter operator: {op}")
    try:
        left, right = float(value), float(operand)
    except (TypeError, ValueError):
        return False
    return {"$gt": left > right, "$gte": left >= right, "$lt": left < right,
            "$lte": left <= right}[op]


def _matches(condition: MatchCondition, namespace: tuple[str, ...]) -> bool:
    path = tuple(condition.path)
    if len(namespace) < len(path):
        return False
    if condition.match_type == "suffix":
        namespace, path = namespace[::-1], path[::-1]
    return all(want == "*" or have == want
               for have, want in zip(namespace, path, strict=False))


class TriformStore(BaseStore):
    """A LangGraph ``BaseStore`` over one memory element (see the module docstring).

    :param memory: the element, ``client.memory("demo/memory")``; the client's token
        needs Read for gets and searches, Write for puts and deletes.
    :param subject_type: the subject type of the namespace label at ``subject_at``.
    :param subject_at: which label is the subject's id (None: items have no subject).
    :param category: the category of every memory this store writes.
    :param fields: the value's paths whose text is embedded (default: every string).
    """

    supports_ttl = False

    def __init__(self, memory: MemoryElement, *, subject_type: SubjectType = "guest",
                 subject_at: int | None = 1, category: Category = "fact",
                 fields: list[str] | None = None) -> None:
        self.memory = memory
        self.subject_type: SubjectType = subject_type
        self.subject_at = subject_at
        self.category: Category = category
        self.fields = fields
        self._ids: dict[tuple[tuple[str, ...], str], str] = {}
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"TriformStore({self.memory.path!r})"

    # -- the mapping ------------------------------------------------------------------------

    def _subject(self, namespace: tuple[str, ...]) -> dict[str, Any]:
        at = self.subject_at
        if at is None or len(namespace) <= at:
            return {}
        return {"subject_type": self.subject_type, "subject_id": namespace[at]}

    @staticmethod
    def _agent(namespace: tuple[str, ...]) -> str:
        joined = ".".join(namespace)
        return joined if len(joined) <= MAX_AGENT_CHARS else f"langgraph-ns-{_digest(joined)[:40]}"

    def _text(self, value: Mapping[str, Any], index: list[str] | bool | None) -> str:
        paths = index if isinstance(index, list) else self.fields
        texts = [t for path in paths for t in get_text_at_path(value, tokenize_path(path))] \
            if paths else list(_strings(value))
        text = "\n".join(t for t in texts if t.strip()) or _canonical(value)
        return text.encode()[:_CONTENT_BYTES].decode("utf-8", "ignore")

    @staticmethod
    def _item_of(memory: Memory) -> tuple[tuple[str, ...], str, dict[str, Any]] | None:
        """The item a memory holds, or None for a memory this store did not write."""
        meta = memory.get("metadata") or {}
        namespace, key, value = meta.get(NAMESPACE), meta.get(KEY), meta.get(VALUE)
        if not isinstance(namespace, list) or not isinstance(key, str) \
                or not isinstance(value, dict):
            return None
        return tuple(str(label) for label in namespace), key, value

    def _search_item(self, memory: Memory, score: float | None) -> SearchItem:
        """The item of a memory this store wrote (its id kept for the next call)."""
        found = self._item_of(memory)
        if found is None:
            raise ValueError(f"memory {memory['id']} holds no LangGraph item")
        namespace, key, value = found
        with self._lock:
            self._ids[(namespace, key)] = memory["id"]
        return SearchItem(namespace, key, value, _time(memory["created_at"]),
                          _time(memory["updated_at"]), score)

    def _item(self, memory: Memory) -> Item:
        found = self._search_item(memory, None)
        return Item(value=found.value, key=found.key, namespace=found.namespace,
                    created_at=found.created_at, updated_at=found.updated_at)

    # -- finding an item's memory -----------------------------------------------------------

    def _memories(self, **filters: Any) -> Iterator[Memory]:
        return self.memory.list(page_size=500, **filters)

    def _find(self, namespace: tuple[str, ...], key: str) -> Memory | None:
        with self._lock:
            known = self._ids.get((namespace, key))
        if known is not None:
            try:
                memory = self.memory.get(known)
            except NotFound:
                memory = None
            found = None if memory is None else self._item_of(memory)
            if memory is not None and found is not None and found[:2] == (namespace, key):
                return memory
            with self._lock:
                self._ids.pop((namespace, key), None)
        for memory in self._memories(agent=self._agent(namespace), **self._subject(namespace)):
            found = self._item_of(memory)
            if found is not None and found[:2] == (namespace, key):
                return memory
        return None

    # -- the ops ----------------------------------------------------------------------------

    def _get(self, op: GetOp) -> Item | None:
        memory = self._find(tuple(op.namespace), op.key)
        return None if memory is None else self._item(memory)

    def _put(self, op: PutOp) -> None:
        namespace, key = tuple(op.namespace), op.key
        if op.value is None:
            self._delete(namespace, key)
            return
        if not namespace or namespace[0] == "langgraph":
            raise InvalidNamespaceError(f"cannot put into namespace {namespace!r}: it must "
                                        "be non-empty and not start with 'langgraph'")
        value = dict(op.value)
        content = self._text(value, op.index)
        metadata = {NAMESPACE: list(namespace), KEY: key, VALUE: value}
        with self._lock:
            known = self._ids.get((namespace, key))
        if known is not None:
            try:
                self.memory.update(known, content=content, metadata=metadata)
                return
            except NotFound:
                with self._lock:
                    self._ids.pop((namespace, key), None)
        try:
            stored = self.memory.store(
                content, self.category, agent=self._agent(namespace), metadata=metadata,
                idempotency_key=f"langgraph-{_digest(list(namespace), key)[:48]}",
                **self._subject(namespace))["memory"]
        except TriformError as error:
            if error.code != "IDEMPOTENCY_KEY_REUSED":
                raise
            # The item was first put with another value: it is there, update it.
            found = self._find(namespace, key)
            if found is None:
                raise
            stored = found
        with self._lock:
            self._ids[(namespace, key)] = stored["id"]
        held = (stored.get("metadata") or {}).get(VALUE)
        if stored["content"] != content or _canonical(held) != _canonical(value):
            # An earlier put's answer replayed, the item having changed since.
            self.memory.update(stored["id"], content=content, metadata=metadata)

    def _delete(self, namespace: tuple[str, ...], key: str) -> None:
        memory = self._find(namespace, key)
        with self._lock:
            self._ids.pop((namespace, key), None)
        if memory is None:
            return
        try:
            self.memory.delete(memory["id"])
        except NotFound:
            pass        # deleted meanwhile: what was asked

    def _search(self, op: SearchOp) -> list[SearchItem]:
        prefix = tuple(op.namespace_prefix)
        subject = self._subject(prefix)
        wanted = op.offset + op.limit
        found: list[SearchItem] = []

        def keep(memory: Memory, score: float | None) -> bool:
            item = self._item_of(memory)
            if item is None or item[0][:len(prefix)] != prefix:
                return False
            if op.filter and not all(_compare(item[2].get(k), v)
                                     for k, v in op.filter.items()):
                return False
            found.append(self._search_item(memory, score))
            return len(found) >= wanted

        if op.query:
            hits = self.memory.search(op.query, limit=SEARCH_POOL, **subject)["results"]
            for hit in hits:
                if keep(hit["memory"], float(hit["score"])):
                    break
        else:
            for memory in self._memories(**subject):
                if keep(memory, None):
                    break
        return found[op.offset:wanted]

    def _namespaces(self, op: ListNamespacesOp) -> list[tuple[str, ...]]:
        every = {item[0] for memory in self._memories()
                 if (item := self._item_of(memory)) is not None}
        chosen = [ns for ns in every
                  if all(_matches(c, ns) for c in op.match_conditions or ())]
        if op.max_depth is not None:
            chosen = list({ns[:op.max_depth] for ns in chosen})
        return sorted(chosen)[op.offset:op.offset + op.limit]

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        """Run ``ops`` in order, each seeing what the ones before it wrote.

        :raise InvalidNamespaceError: a label is empty, not a string, or holds a ``.``.
        :raise TriformError: the server refused a call (the one error shape).
        """
        results: list[Result] = []
        for op in ops:
            validate_op_namespace(op)
            if isinstance(op, GetOp):
                results.append(self._get(op))
            elif isinstance(op, SearchOp):
                results.append(self._search(op))
            elif isinstance(op, PutOp):
                self._put(op)
                results.append(None)
            elif isinstance(op, ListNamespacesOp):
                results.append(self._namespaces(op))
            else:
                raise ValueError(f"unknown operation: {op!r}")
        return results

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        """:meth:`batch` on a worker thread (the client is synchronous)."""
        return await asyncio.to_thread(self.batch, list(ops))
