"""``GET /metrics``: what an operator scrapes, in the Prometheus text format.

Closed by default. It opens when the server is given a scrape token (``METRICS_TOKEN``,
from ``TRIFORM_METRICS_TOKEN``, at least 16 characters), and answers only a request that
carries that token as its bearer token: 404 ``METRICS_DISABLED`` without one configured,
401 ``METRICS_UNAUTHORIZED`` with a wrong or missing one, both in the one error shape.
Why a token of its own rather than an API token or a second listening address: an API
token in a scraper's configuration would let whoever reads that file write memories (the
scrape token reads counts, nothing else), and a second address needs a second socket per
worker, while every worker already has one that a scraper (or a proxy in front of several)
reaches with a bearer credential, which Prometheus sends from a file
(``authorization: credentials_file``). docs/api.md (Metrics) lists every series.

Nothing here names a subject, a token or a memory's text: labels are op names (a bounded
set, ``api/access_log.py``), HTTP statuses and element paths. Each worker (``triform
serve`` process) keeps its own series, each labelled ``worker`` (``METRICS_WORKER``, else
``<host>:<pid>``), so several workers behind one address or federated never merge;
counters start at zero when a worker starts. Counts read from the memories (how many,
how many wait for their vectors) are read when scraped, from the memory stores this
worker holds open (the elements it served lately, up to ``MAX_OPEN_STORES``).
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import os
import socket
import time
from collections.abc import Iterable, Iterator
from datetime import datetime
from typing import Any

from flask import Blueprint, Flask, Response, current_app, request
from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    ProcessCollector,
    disable_created_metrics,
    generate_latest,
)
from prometheus_client.exposition import CONTENT_TYPE_PLAIN_0_0_4
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from element import Home
from index import CachedEmbedder, CacheStats, MemoryBackend, MemorySettings, pool_stats

from .access_log import Route
from .config import SettingInvalid
from .errors import ApiError
from .routes import bearer_token

__all__ = ["blueprint", "Metrics", "init_metrics", "MIN_TOKEN_CHARS", "UNEMBEDDED_SCAN"]

log = logging.getLogger("triform.metrics")
blueprint = Blueprint("metrics", __name__)

MIN_TOKEN_CHARS = 16
#: Memories read, newest first, to find the oldest one still waiting for its vectors
#: (those written behind are the newest); past this many the age given is a lower bound.
UNEMBEDDED_SCAN = 5000
# A ``_created`` series beside every counter doubles the page for nothing a scraper needs.
disable_created_metrics()  # type: ignore[no-untyped-call]
_MODEL_BUCKETS = (.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1.0, 2.5, 5.0, 10.0, 30.0)


class Metrics:
    """One server's metrics: counters fed as requests and activity happen, and gauges read
    when scraped. The registry is the app's own (never the library's global one), so
    several apps in one process (the tests) keep their series apart."""

    def __init__(self, home: Home, broadcaster: Any, worker: str) -> None:
        self.home, self.broadcaster, self.worker = home, broadcaster, worker
        self.registry = CollectorRegistry(auto_describe=False)
        r = self.registry
        self.requests = Counter("triform_requests", "HTTP requests answered, by op and "
                                "status", ["op", "status"], registry=r)
        self.latency = Histogram("triform_request_duration_seconds", "Seconds from a "
                                 "request's start to its response sent whole (an event "
                                 "stream: its life), by op", ["op"], registry=r)
        self.in_flight = Gauge("triform_requests_in_flight", "Requests being served now, "
                               "by op", ["op"], registry=r)
        self.evictions = Counter("triform_evictions", "Memories evicted to make room "
                                 "(max_memories, max_per_subject), by memory element",
                                 ["element"], registry=r)
        self.expired = Counter("triform_expired_memories", "Memories deleted by their "
                               "retention, by memory element", ["element"], registry=r)
        self.batches = Histogram("triform_model_batch_seconds", "Seconds of each call of "
                                 "the embedding model (texts the cache did not have)",
                                 buckets=_MODEL_BUCKETS, registry=r)
        self.texts = Counter("triform_model_texts", "Texts the embedding model embedded",
                             registry=r)
        self._per_op: dict[str, tuple[Any, Any]] = {}
        self._answered: dict[tuple[str, str], Any] = {}
        self.mcp = Gauge("triform_mcp_requests_in_flight", "MCP exchanges in progress (the "
                         "transport is stateless: each POST is a whole session)", registry=r)
        ProcessCollector(registry=r)
        r.register(_ReadWhenScraped(self))
        home.catalog.listeners.append(self.on_activity)
        home.model_listeners.append(self.on_model_call)

    # -- fed as things happen (never raising into the caller) ------------------------------

    def request_started(self, route: Route) -> None:
        self._series(route.op)[0].inc()
        if route.op == "mcp":
            self.mcp.inc()

    def request_finished(self, route: Route, status: str, seconds: float) -> None:
        in_flight, latency = self._series(route.op)
        in_flight.dec()
        if route.op == "mcp":
            self.mcp.dec()
        answered = self._answered.get((route.op, status))
        if answered is None:
            answered = self._answered[route.op, status] = self.requests.labels(route.op,
                                                                               status)
        answered.inc()
        latency.observe(seconds)

    def _series(self, op: str) -> tuple[Any, Any]:
        """``op``'s in-flight gauge and latency histogram, looked up by label once (ops and
        statuses are bounded sets; the library's lookup takes a lock each time)."""
        found = self._per_op.get(op)
        if found is None:
            found = self._per_op[op] = (self.in_flight.labels(op), self.latency.labels(op))
        return found

    def on_activity(self, event: dict[str, Any]) -> None:
        detail, path = event.get("detail") or {}, event.get("path")
        if not isinstance(detail, dict) or not isinstance(path, str):
            return
        evicted, expired = detail.get("evicted"), detail.get("expired")
        if isinstance(evicted, list) and evicted:
            self.evictions.labels(path).inc(len(evicted))
        if event.get("op") == "expire" and isinstance(expired, list) and expired:
            self.expired.labels(path).inc(len(expired))

    def on_model_call(self, texts: int, seconds: float) -> None:
        self.batches.observe(seconds)
        self.texts.inc(texts)

    # -- the scrape -------------------------------------------------------------------------

    def exposition(self) -> bytes:
        """The text format of every series, each labelled with this worker."""
        return generate_latest(_Labelled(self.registry, self.worker))


class _Labelled:
    """A registry's series with one label more (``worker``)."""

    def __init__(self, registry: CollectorRegistry, worker: str) -> None:
        self.registry, self.worker = registry, worker

    def collect(self) -> Iterator[Metric]:
        for metric in self.registry.collect():
            metric.samples = [s._replace(labels={**s.labels, "worker": self.worker})
                              for s in metric.samples]
            yield metric


def _age_of_oldest_unembedded(store: MemoryBackend, pending: int, now: float) -> float:
    """Seconds since the oldest memory without vectors was created, found by reading the
    newest memories first (at most :data:`UNEMBEDDED_SCAN`)."""
    seen, oldest = 0, None
    for scanned, memory in enumerate(store.iter_memories(), 1):
        if not memory.get("embedded", True):
            seen += 1
            oldest = memory.get("created_at")
        if seen >= pending or scanned >= UNEMBEDDED_SCAN:
            break
    if not isinstance(oldest, str):
        return 0.0
    created = datetime.fromisoformat(oldest.replace("Z", "+00:00")).timestamp()
    return max(0.0, now - created)


class _ReadWhenScraped(Collector):
    """The gauges read at each scrape: memory counts, the model, the pool, open streams."""

    def __init__(self, metrics: Metrics) -> None:
        self.metrics = metrics

    def collect(self) -> Iterable[Metric]:
        home = self.metrics.home
        yield from self._memories(home)
        yield GaugeMetricFamily("triform_memory_stores_open", "Memory stores this worker "
                                "holds open", value=home.open_stores())
        if home.model_load_seconds is not None:
            yield GaugeMetricFamily("triform_model_load_seconds", "Seconds the embedding "
                                    "model took to load", value=home.model_load_seconds)
            embedder = home.embedder
            cache = embedder.stats() if isinstance(embedder, CachedEmbedder) \
                else CacheStats(0, 0, 0)
            yield CounterMetricFamily("triform_embed_cache_hits", "Texts answered from the "
                                      "embedding cache", value=cache.hits)
            yield CounterMetricFamily("triform_embed_cache_misses", "Texts the cache sent "
                                      "to the model", value=cache.misses)
        if home.database_url is not None:
            yield from self._pool(pool_stats(home.memory_database()))
        yield GaugeMetricFamily("triform_sse_streams_open", "Event streams (GET /api/events)"
                                " open on this worker", value=len(self.metrics.broadcaster))

    def _memories(self, home: Home) -> Iterator[Metric]:
        labels = ["element"]
        memories = GaugeMetricFamily("triform_memories", "Memories of each memory element "
                                     "this worker holds open", labels=labels)
        pending = GaugeMetricFamily("triform_memories_unembedded", "Memories waiting for "
                                    "their vectors (the embed-behind backlog)", labels=labels)
        age = GaugeMetricFamily("triform_oldest_unembedded_age_seconds", "Age of the oldest "
                                "memory waiting for its vectors (0: none waits)",
                                labels=labels)
        now = time.time()
        with home.stores_held_open() as held:
            for element_id, store in held:
                try:
                    path = home.catalog.element(element_id).path
                    counts = store.stats(settings=MemorySettings())   # no retention: reads
                    waiting = int(counts.get("unembedded") or 0)
                    oldest = _age_of_oldest_unembedded(store, waiting, now) if waiting \
                        else 0.0
                except Exception as exc:   # a store closed meanwhile, the database down
                    log.warning("metrics: memory counts stopped at element %s: %s: %s",
                                element_id, type(exc).__name__, exc)
                    break          # the next store would wait as long for the same reason
                memories.add_metric([path], int(counts["total"]))
                pending.add_metric([path], waiting)
                age.add_metric([path], oldest)
        yield from (memories, pending, age)

    @staticmethod
    def _pool(stats: dict[str, int]) -> Iterator[Metric]:
        size, idle = stats.get("pool_size", 0), stats.get("pool_available", 0)
        connections = GaugeMetricFamily("triform_db_pool_connections", "Database "
                                        "connections of this worker's pool, by state",
                                        labels=["state"])
        connections.add_metric(["in_use"], max(0, size - idle))
        connections.add_metric(["idle"], idle)
        yield connections
        yield GaugeMetricFamily("triform_db_pool_max", "Connections the pool may open",
                                value=stats.get("pool_max", 0))
        yield GaugeMetricFamily("triform_db_pool_waiting", "Calls waiting for a "
                                "connection now", value=stats.get("requests_waiting", 0))
        yield CounterMetricFamily("triform_db_pool_requests", "Connections lent by the "
                                  "pool", value=stats.get("requests_num", 0))
        yield CounterMetricFamily("triform_db_pool_wait_seconds", "Seconds calls waited for "
                                  "a connection", value=stats.get("requests_wait_ms", 0) / 1000)
        yield CounterMetricFamily("triform_db_pool_errors", "Calls that got no connection "
                                  "in time", value=stats.get("requests_errors", 0))


def _digest(text: str) -> bytes:
    return hashlib.sha256(text.encode()).digest()


def init_metrics(app: Flask, home: Home) -> Metrics:
    """Make the app's metrics (``app.extensions["triform.metrics"]``) and its route.

    :raise SettingInvalid: ``METRICS_TOKEN`` is set but shorter than :data:`MIN_TOKEN_CHARS`.
    """
    token = app.config.get("METRICS_TOKEN") or None
    if token is not None and (not isinstance(token, str) or len(token) < MIN_TOKEN_CHARS):
        raise SettingInvalid(f"TRIFORM_METRICS_TOKEN must be text of at least "
                             f"{MIN_TOKEN_CHARS} characters (make one with: python3 -c "
                             "'import secrets; print(secrets.token_urlsafe(32))')")
    worker = app.config.get("METRICS_WORKER") or f"{socket.gethostname()}:{os.getpid()}"
    metrics = Metrics(home, app.extensions["triform.events"], str(worker))
    app.extensions["triform.metrics"] = metrics
    app.register_blueprint(blueprint)
    return metrics


@blueprint.get("/metrics")
def scrape() -> Response:
    token = current_app.config.get("METRICS_TOKEN") or None
    if token is None:
        raise ApiError("METRICS_DISABLED", "not_found", "metrics are off on this server: "
                       "start it with TRIFORM_METRICS_TOKEN set (docs/api.md, Metrics)")
    given = bearer_token(request.headers.get("Authorization"))
    if given is None or not hmac.compare_digest(_digest(given), _digest(str(token))):
        raise ApiError("METRICS_UNAUTHORIZED", "unauthorized", "GET /metrics needs the "
                       "server's metrics token as its bearer token")
    metrics: Metrics = current_app.extensions["triform.metrics"]
    # The classic text format (0.0.4), which every Prometheus reads; the names need nothing
    # newer.
    return Response(metrics.exposition(), content_type=CONTENT_TYPE_PLAIN_0_0_4)
