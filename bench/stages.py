"""Per-stage timers of a served search, for the benches that serve one (``--stages``).

:func:`install` wraps, in the server's process, the parts of a search's request with
wall-clock timers (``time.perf_counter``, no profiler: its overhead would move the figures):

- ``app``: the WSGI app, from the request handed over by waitress to the last byte of the
  answer (Flask, the access log, routing, the op path, the answer's JSON);
- ``invoke``: ``element.invoke`` (authentication, the catalog, the element's spec, the
  op's checks and the op);
- ``embed``: the store's embedding of the query's lane texts (all its models);
- ``recall``: the store's search once the vectors are there (under its lock), of which
  ``gather`` (candidates, their similarities and BM25, the calibration's background) and
  ``rank`` (boosts, neighbours, calibration, threshold);
- ``read``: waitress, from the start of the socket read that completed the request to
  the app (the head parsed, the task handed to a worker thread, the WSGI environ built);
- ``write``: waitress, from the app's end to its task's end (the status line and headers
  built, the answer sent from the worker thread, and whatever time that thread then
  waits for a core: on a loaded machine the client its send woke may run first). What is
  left of the client's time (``client - read - app - write``) is the client's own
  (``http.client`` writing the request, reading the answer) and the kernel's (the
  loopback, waking the server's loop thread and the client).

Each search request's timings (milliseconds) are kept in order and written as a JSON list
to ``path`` when the process exits. :func:`table` pairs them with the client's own
timings of the same requests (the server answers one request at a time in these benches)
and prints medians and p95: what the model costs, and where the time above it goes;
``spans`` (``search_http_bench.py --spans``) time any other functions of the search the same
way (a timer costs about a microsecond a call).
"""

from __future__ import annotations

import atexit
import functools
import json
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["install", "table"]

_current = threading.local()


def _timed(name: str, func: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(func)
    def timed(*args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            return func(*args, **kwargs)
        finally:
            record = getattr(_current, "record", None)
            if record is not None:
                record[name] = record.get(name, 0.0) + (time.perf_counter() - started) * 1e3
    return timed


def _time_waitress() -> None:
    """Mark on waitress's channel when the read that completed a request began
    (``_stage_read``), and time a timed request's task from its app's end to its own end
    (``write``: waitress 3 sends from the worker thread as the task writes)."""
    from waitress.channel import HTTPChannel
    from waitress.task import WSGITask

    handle_read, execute = HTTPChannel.handle_read, WSGITask.execute

    def timed_read(channel: Any) -> None:
        started = time.perf_counter()
        waiting = len(channel.requests)
        handle_read(channel)
        if len(channel.requests) > waiting:
            channel._stage_read = started

    def timed_execute(task: Any) -> None:
        try:
            execute(task)
        finally:
            record = getattr(task, "environ", None) or {}
            record = record.get("bench.stages")
            if record is not None and "_ended" in record:
                record["write"] = (time.perf_counter() - record.pop("_ended")) * 1e3

    HTTPChannel.handle_read = timed_read            # type: ignore[method-assign]
    WSGITask.execute = timed_execute                # type: ignore[method-assign]


def install(path: Path, spans: Iterable[str] = ()) -> Callable[[Any], Any]:
    """Wrap the stages with timers (call before the app is made); returns a function that
    puts the request's timer around a Flask app's WSGI stack and returns the app.

    :param spans: more functions to time, each ``module:name`` or ``module:Class.name``
        (``index.search:_lexical``, ``index.lanes:Lane.search``), where the code
        that calls it looks it up (a module's global, a class's attribute); :func:`table`
        prints each one's time per search under its name.
    """
    import importlib

    import api.routes
    import index.core
    import index.ranking
    import index.store
    invoke_module = importlib.import_module("element.invoke")
    api.routes.invoke = _timed("invoke", invoke_module.invoke)    # type: ignore[attr-defined]
    store = index.store.MemoryStore
    store._recall = _timed("recall", store._recall)               # type: ignore[method-assign]
    index.store.gather = _timed("gather", index.store.gather)     # type: ignore[attr-defined]
    index.ranking.Ranking.rank = _timed("rank", index.ranking.Ranking.rank)  # type: ignore
    core = index.core.MemoryCore
    core._embed_lanes = _timed("embed", core._embed_lanes)        # type: ignore[method-assign]
    for span in spans:
        module, _, attribute = span.partition(":")
        owner = importlib.import_module(module)
        *parts, last = attribute.split(".")
        for part in parts:
            owner = getattr(owner, part)
        setattr(owner, last, _timed(span, getattr(owner, last)))
    _time_waitress()
    records: list[dict[str, float]] = []
    atexit.register(lambda: path.write_text(json.dumps(
        [{k: v for k, v in r.items() if not k.startswith("_")} for r in records])))

    def wrap(app: Any) -> Any:
        inner = app.wsgi_app

        def wsgi(environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
            if not environ.get("PATH_INFO", "").endswith("/ops/search"):
                return inner(environ, start_response)   # type: ignore[no-any-return]
            _current.record = record = {}
            started = time.perf_counter()
            # waitress's channel (the environ carries a method bound to it) says when
            # the request's read began; its task's timer reads the record from the environ.
            channel = getattr(environ.get("waitress.client_disconnected"), "__self__", None)
            read = getattr(channel, "_stage_read", None)
            if read is not None:
                record["read"] = (started - read) * 1e3
                environ["bench.stages"] = record
            try:
                return list(inner(environ, start_response))
            finally:
                ended = time.perf_counter()
                record["app"] = (ended - started) * 1e3
                if read is not None:
                    record["_ended"] = ended
                _current.record = None
                records.append(record)
        app.wsgi_app = wsgi
        return app
    return wrap


def table(client: dict[str, list[float]], server: dict[str, list[dict[str, float]]]) -> str:
    """A Markdown table: per server, the client's time of each search and its stages."""
    rows = [
        ("client: the whole request", lambda c, r: c),
        ("waitress and the socket (client - app)", lambda c, r: c - r["app"]),
        ("  waitress: the request's read to the app", lambda c, r: r.get("read", 0.0)),
        ("  waitress: the app's end to its task's end (the answer sent)",
         lambda c, r: r.get("write", 0.0)),
        ("  the client and the kernel (the rest)",
         lambda c, r: c - r["app"] - r.get("read", 0.0) - r.get("write", 0.0)),
        ("Flask, access log, routing, JSON (app - invoke)", lambda c, r: r["app"] - r["invoke"]),
        ("op path outside the store (invoke - embed - recall)",
         lambda c, r: r["invoke"] - r.get("embed", 0.0) - r.get("recall", 0.0)),
        ("the query's embedding (all lanes' models)", lambda c, r: r.get("embed", 0.0)),
        ("the store's search (under its lock)", lambda c, r: r.get("recall", 0.0)),
        ("  gather", lambda c, r: r.get("gather", 0.0)),
        ("  rank", lambda c, r: r.get("rank", 0.0)),
        ("  the rest (newer first, access count, results)",
         lambda c, r: r.get("recall", 0.0) - r.get("gather", 0.0) - r.get("rank", 0.0)),
    ]
    names = list(server)
    spans = sorted({key for records in server.values() for r in records for key in r
                    if ":" in key})
    rows += [(f"  span {span}", lambda c, r, span=span: r.get(span, 0.0)) for span in spans]
    out = ["| ms, p50 / p95 | " + " | ".join(names) + " |",
           "|---|" + "---|" * len(names)]
    for label, value in rows:
        cells = []
        for name in names:
            pairs = list(zip(client[name], server[name], strict=True))
            values = [value(c, r) for c, r in pairs]
            cells.append(f"{np.percentile(values, 50):.2f} / {np.percentile(values, 95):.2f}")
        out.append(f"| {label} | " + " | ".join(cells) + " |")
    return "\n".join(out)
