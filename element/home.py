"""The data home: one folder holding the catalog, the element repos and the memory runtime.

Layout (design.md section 2)::

    catalog.db                 SQLite (WAL): elements, versions, tokens, activity
    ratelimits.db              SQLite (WAL): the rate-limit windows
    database.json              only on a database home: which database holds it
    repos/<element-id>.git     bare repo per element; HEAD -> draft
    runtime/<element-id>/      memories.jsonl + hnswlib sidecar (never in git)

With a database URL, the catalog, the rate-limit windows and the memories live in that
PostgreSQL database instead, opened (and migrated) with the home, and only ``repos/``
stays in the folder: workers on several machines share a home through the database and
a network volume for the repositories (docs/deploy.md). A folder set up, served or
migrated so says it in ``database.json`` (the URL without its password), and opening it
without a URL is refused: its own SQLite files would be an empty or stale catalog, silently.

``Home`` is the element layer's entry point: it creates elements (git and catalog written
together), resolves paths, leases one :class:`index.MemoryStore` per memory element to the ops
using it (at most ``MAX_OPEN_STORES`` open at once; idle ones close), and
holds what every op shares: the rate-limit windows (on an injectable clock), the source of
secrets (evaluator API keys: the element layer reads no environment variable; the API
layer hands it ``environment_secret``) and the default
environment. Use it as a context manager, or call :meth:`Home.close`.
"""

from __future__ import annotations

import logging
import re
import shutil
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import TracebackType
from typing import Any, NamedTuple

from index import (
    CachedEmbedder,
    Embedder,
    MemoryBackend,
    MemorySettings,
    MemoryStore,
    open_database,
    postgres_store,
)
from source import BRANCHES, SPEC_PATH, create_repo, read_spec

from .catalog import Catalog, Element, now_iso
from .errors import ElementError, ElementNotFound, InvalidRequest, SlugTaken
from .governance.ratelimit import RATE_LIMITS_FILE, SlidingWindowLimiter
from .home_folder import (DATABASE_MARKER, DatabaseRequired, mark_backend, marked_database,
                          private_home)
from .spec.mirror import sync_spec
from .spec.spec_file import spec_of, spec_yaml
from .spec.types import element_type, validate_properties

__all__ = ["Home", "Initialized", "SLUG_RE", "RESERVED_SLUGS", "check_slug", "CircleFull",
           "DatabaseRequired", "MAX_ELEMENTS_PER_CIRCLE", "MAX_OPEN_STORES", "DATABASE_MARKER",
           "MAX_EVAL_WORK",
           "mark_backend", "marked_database"]

logger = logging.getLogger(__name__)

SLUG_RE = re.compile(r"^[a-z0-9][a-z0-9-]{0,62}$")
#: Texts whose vectors the home keeps for reuse (about 1.5 KiB each at 384 dimensions).
EMBED_CACHE_ENTRIES = 16384
#: Slugs that would make an element path ambiguous with the API's own path segments.
RESERVED_SLUGS = frozenset({"ops", "events", "git", "api"})
#: Elements one circle may hold (each is a repo, and a memory element two open files and
#: its graphs in RAM): a member's ``create`` or import stops here, with a clear error.
MAX_ELEMENTS_PER_CIRCLE = 1000
#: Memory stores a home keeps open at once. Each holds two open files and its graphs in
#: RAM, and a circle may hold a thousand elements: past this many, the least recently used
#: store that no op is using is closed (checkpointed first), to open again when asked for.
MAX_OPEN_STORES = 64
#: Case x memory pairs one recall eval may search (docs/evals.md): past it the eval is
#: refused before it runs, rather than holding a worker for minutes.
MAX_EVAL_WORK = 10_000_000


class CircleFull(ElementError):
    """The circle holds as many elements as its quota allows."""

    code = "CIRCLE_QUOTA_EXCEEDED"
    error_class = "conflict"

    def __init__(self, circle: str, limit: int) -> None:
        super().__init__(f"circle {circle!r} holds its quota of {limit} elements; remove "
                         "some or raise MAX_ELEMENTS_PER_CIRCLE")
        self.circle = circle


def _readme(element: Element) -> str:
    about = element.description or f"A {element.element_type} element."
    return (f"# {element.name}\n\n{about}"
            f"\n\nPath: `{element.path}` - type `{element.element_type}`.\n")


def check_slug(slug: Any, field: str = "slug") -> str:
    if not isinstance(slug, str) or not slug:
        raise InvalidRequest(field, "is required and must be a non-empty string")
    if not SLUG_RE.match(slug) or slug in RESERVED_SLUGS:
        raise InvalidRequest(field, "must match [a-z0-9][a-z0-9-]{0,62} and not be one of "
                             + ", ".join(sorted(RESERVED_SLUGS)))
    return slug


class Initialized(NamedTuple):
    """What :meth:`Home.init` found or made: the circle, its memory element, and whether
    this call created the circle (the caller that did mints its first admin token;
    workers that found it, or lost the race to create it, mint none)."""

    root: Element
    memory: Element
    created: bool


class Home:
    """One data home. Thread-safe; open it once per process."""

    def __init__(self, path: Path, embedder_factory: Callable[[], Embedder], *,
                 env: str = "draft", public_url: str | None = None,
                 secrets: Callable[[str], str | None] = lambda name: None,
                 clock: Callable[[], float] = time.time,
                 database: str | None = None, repair_on_open: bool = True,
                 leaving_database: bool = False) -> None:
        """``leaving_database``: open the files of a home marked as living in a database
        (``triform migrate --to files`` does, to fill them; see :func:`mark_backend`).

        :raise DatabaseRequired: ``database`` is None on a home that lives in one.
        """
        if env not in BRANCHES:
            raise ValueError(f"env must be one of {', '.join(BRANCHES)}, not {env!r}")
        self.path = Path(path)
        if database is None and not leaving_database:
            marked = marked_database(self.path)
            if marked is not None:
                raise DatabaseRequired(self.path, marked)
        private_home(self.path, files=database is None)
        #: The PostgreSQL URL the catalog, the rate windows and every memory element's
        #: memories live in (None: the files of the home).
        self.database_url = database
        self._database: Any = None
        if database is not None:
            # Opened and migrated now: the catalog needs it for the first call.
            # :raise DatabaseUnavailable: unreachable (a clear error, no half-open home).
            self._database = open_database(database)
            try:
                self.catalog = Catalog(database=self._database)
                self.limiter = SlidingWindowLimiter(clock=clock, database=self._database)
            except BaseException:
                self._database.close()
                raise
        else:
            self.catalog = Catalog(self.path / "catalog.db")
            self.limiter = SlidingWindowLimiter(self.path / RATE_LIMITS_FILE, clock)
        #: Which branch's spec governs runtime ops when a call names none.
        self.env = env
        #: How clients reach the server (``PUBLIC_URL``), for clone URLs; else the request's.
        self.public_url = public_url
        #: Looks up a secret by variable name (an evaluator's ``api_key_env``).
        self.secrets = secrets
        #: ``self.limiter``: the rate-limit windows, shared with every process serving
        #: this home.
        self._embedder_factory = embedder_factory
        self._embedder: Embedder | None = None
        #: Seconds the embedder took to build (load the model), once built.
        self.model_load_seconds: float | None = None
        #: Told ``(texts, seconds)`` after each model call (the server's metrics).
        self.model_listeners: list[Callable[[int, float], None]] = []
        #: Open stores by element id, least recently used first (a use moves one last).
        self._stores: dict[str, MemoryBackend] = {}
        #: Ops using each store now: a leased store is never closed under them.
        self._leases: dict[str, int] = {}
        #: Stores being closed outside the lock: opening one again waits for its close,
        #: which releases the element's file lock.
        self._closing: dict[str, threading.Event] = {}
        self.max_open_stores = MAX_OPEN_STORES
        self._lock = threading.RLock()
        #: Elements one circle may hold (``create`` and ``import_bundle`` stop there).
        self.max_elements_per_circle = MAX_ELEMENTS_PER_CIRCLE
        #: Case x memory pairs one eval may search (``element/evals/runner.py``).
        self.max_eval_work = MAX_EVAL_WORK
        #: Stores embed, in the background, the memories they find without vectors when
        #: they open (an observe's, written behind before a crash or an idle close; an
        #: outage's; another model's). ``triform reindex`` on a stopped home turns it off:
        #: it does that work itself, in the foreground, and reports it.
        self.repair_on_open = repair_on_open

    def __enter__(self) -> Home:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self.close()

    # -- paths ------------------------------------------------------------------------
    def repo_path(self, element: Element) -> Path:
        return Path(self.repo_dir(element))

    def repo_dir(self, element: Element) -> str:
        """``repo_path`` as a string: the per-request spec check stats files in it, and
        joining ``Path`` objects cost more than the ``stat`` calls."""
        return f"{self.path}/repos/{element.id}.git"

    def runtime_path(self, element: Element) -> Path:
        return self.path / "runtime" / element.id

    def resolve_repo(self, element_path: str) -> Path | None:
        """The bare repo of the element at ``element_path``, or None (for the git mount)."""
        element_id = self.catalog.element_id_at(element_path)
        if element_id is None:
            return None
        repo = self.path / "repos" / f"{element_id}.git"
        return repo if repo.is_dir() else None

    # -- elements ---------------------------------------------------------------------
    def check_quota(self, circle: str) -> None:
        """:raise CircleFull: one more element would pass the circle's quota."""
        if self.catalog.count_elements(circle) >= self.max_elements_per_circle:
            raise CircleFull(circle, self.max_elements_per_circle)

    def create_element(self, *, circle: str, element_type_name: str, slug: str | None,
                       name: str | None = None, description: str | None = None,
                       properties: dict[str, Any] | None = None,
                       parent: Element | None = None) -> Element:
        """Create an element: its bare repo (draft/demo/live) and its catalog row, together.

        The repo is written first under a fresh id, then the row; if the row cannot be
        written (the slug was taken meanwhile) the repo is removed, so neither is left alone.
        """
        kind = element_type(element_type_name)
        if kind.name == "circle":
            path, slug = check_slug(circle, "circle"), None
        else:
            path = f"{circle}/{check_slug(slug)}"
            self.check_quota(circle)
        if name is not None and (not isinstance(name, str) or not name.strip()):
            raise InvalidRequest("name", "must be a non-empty string")
        if description is not None and not isinstance(description, str):
            raise InvalidRequest("description", "must be a string")
        props = validate_properties(kind.name, {} if properties is None else properties)
        if kind.name == "memory":
            MemorySettings.from_properties(props)   # semantic checks, e.g. weights not all 0
        stamp = now_iso()
        element = Element(
            id=str(uuid.uuid4()), path=path, circle=circle, slug=slug,
            name=name or (slug or circle).replace("-", " ").title(),
            element_type=kind.name, form=kind.form,
            parent_id=parent.id if parent else None, state="ready",
            description=description, properties=props, meta={}, version=1,
            created_at=stamp, updated_at=stamp)
        spec = spec_of(element)
        files = {SPEC_PATH: spec_yaml(spec),
                 "README.md": _readme(element).encode(),
                 ".triform/fixtures/.gitkeep": b""}
        repo = self.repo_path(element)
        create_repo(repo, files, message=f"Create {kind.name} {path}")
        try:
            self.catalog.insert_element(element, spec, "v1: created")
        except BaseException:
            shutil.rmtree(repo, ignore_errors=True)
            raise
        return element

    def adopt_repo(self, element: Element, spec: dict[str, Any], message: str, *,
                   replace: Element | None = None) -> Element:
        """Register the repo already built at ``repo_path(element)`` (an import) as a new
        element with its own id.

        With ``replace`` (the element now at the same path) the old row is moved aside, the
        new one inserted, then the old row, versions and repo are removed; its children and
        its attachments (both ways) move to the new element, and a memory element's runtime
        moves with it when both are memory elements, so its memories survive (runtime data
        is never in a bundle). On any failure the new repo is removed and the old element
        stays as it was.
        """
        try:
            if replace is None:
                self.check_quota(element.circle)
                self.catalog.insert_element(element, spec, message)
                return element
            self.catalog.update_element(replace.id, path=f"{replace.path}~{replace.id}")
            try:
                self.catalog.insert_element(element, spec, message)
            except BaseException:
                self.catalog.update_element(replace.id, path=replace.path)
                raise
        except BaseException:
            shutil.rmtree(self.repo_path(element), ignore_errors=True)
            raise
        for child in self.catalog.children(replace):
            self.catalog.update_element(child.id, parent_id=element.id)
        self.catalog.move_attachments(replace.id, element.id)
        with self._lock:
            store = self._stores.pop(replace.id, None)
            if store is not None:
                store.close()
            closing = self._closing.get(replace.id)
        if closing is not None:
            closing.wait()      # closed as idle meanwhile: let it finish before the move
        old_runtime = self.runtime_path(replace)
        if replace.element_type == element.element_type == "memory" and old_runtime.exists():
            try:
                old_runtime.rename(self.runtime_path(element))
            except OSError:
                pass   # the new element's runtime was opened meanwhile; the old one stays
        self.catalog.delete_element(replace.id)
        shutil.rmtree(self.repo_path(replace), ignore_errors=True)
        return element

    def init(self, circle: str = "demo", memory_slug: str = "memory") -> Initialized:
        """Make ``circle`` and a memory element in it, unless they exist.

        Workers that start together on one empty database all run this: the one whose
        element row lands second takes the first one's (``SlugTaken``), so every worker
        starts, the catalog holds each element once, and exactly one call says
        ``created``.
        """
        root, created = self._element_or(circle, lambda: self.create_element(
            circle=circle, element_type_name="circle", slug=None,
            description=f"The {circle} circle"))
        memory, _ = self._element_or(
            f"{circle}/{memory_slug}", lambda: self.create_element(
                circle=circle, element_type_name="memory", slug=memory_slug, parent=root,
                description="Long-term memory for this circle's agents",
                properties={"subject_scoping": True}))
        return Initialized(root, memory, created)

    def _element_or(self, path: str,
                    create: Callable[[], Element]) -> tuple[Element, bool]:
        """The element at ``path``, created by ``create`` when there is none; whether this
        call created it."""
        try:
            return self.catalog.element_at(path), False
        except ElementNotFound:
            pass
        try:
            return create(), True
        except SlugTaken:
            return self.catalog.element_at(path), False

    # -- spec per environment -----------------------------------------------------------
    def properties_for(self, element: Element, env: str) -> dict[str, Any]:
        """The properties that govern runtime ops in ``env``.

        draft is the catalog row (it mirrors the draft spec: a spec pushed to draft is
        mirrored first, see ``versions.sync_spec``); demo and live read the spec from their
        branch, which only moves by promotion.
        """
        if env == "draft":
            return sync_spec(self, element).element.properties
        spec = read_spec(self.repo_path(element), branch=env)
        if spec is None:
            return element.properties
        return validate_properties(element.element_type, spec.get("properties") or {})

    # -- memory runtime -----------------------------------------------------------------
    @property
    def embedder(self) -> Embedder:
        """The home's embedder, built when first needed, with one cache of recent texts'
        vectors shared by every memory element (an observe's window is the same text for
        each bonded memory and each search of that turn)."""
        with self._lock:
            if self._embedder is None:
                started = time.perf_counter()
                built = self._embedder_factory()
                self.model_load_seconds = time.perf_counter() - started
                cached = built if isinstance(built, CachedEmbedder) \
                    else CachedEmbedder(built, max_entries=EMBED_CACHE_ENTRIES)
                cached.on_model_call = self._model_called
                self._embedder = cached
            return self._embedder

    def _model_called(self, texts: int, seconds: float) -> None:
        for listener in list(self.model_listeners):
            listener(texts, seconds)

    @contextmanager
    def memory_store(self, element: Element, *,
                     restore_log: bool = False) -> Iterator[MemoryBackend]:
        """The open runtime of a memory element, leased for the ``with`` block.

        A store opens on first use and stays open while ops use it; the home keeps at most
        :attr:`max_open_stores` open, closing the least recently used idle ones. Hold the
        lease for as long as you use the store (a stream's generator holds it until it
        ends or is closed).

        :param restore_log: when its log is gone beside a checkpoint, write the log back
            from the checkpoint (``source_repair`` does, when asked to repair).
        :raise LogMissing: the log is gone and ``restore_log`` is off.
        """
        store = self._lease(element, restore_log)
        try:
            yield store
        finally:
            self._release(element.id)

    def _lease(self, element: Element, restore_log: bool) -> MemoryBackend:
        while True:
            with self._lock:
                closing = self._closing.get(element.id)
                if closing is None:
                    store = self._stores.pop(element.id, None)
                    # ``repair_on_open``: memories an observe wrote without vectors
                    # (embedded behind) before a crash or an idle close get them now.
                    if store is None and self.database_url is not None:
                        store = postgres_store(self.memory_database(), element.id,
                                               self.embedder,
                                               repair_on_open=self.repair_on_open)
                    elif store is None:
                        store = MemoryStore(self.runtime_path(element), self.embedder,
                                            restore_log=restore_log,
                                            repair_on_open=self.repair_on_open)
                    self._stores[element.id] = store
                    self._leases[element.id] = self._leases.get(element.id, 0) + 1
                    break
            closing.wait()
        self._close_idle()
        return store

    def _release(self, element_id: str) -> None:
        with self._lock:
            self._leases[element_id] -= 1
            if not self._leases[element_id]:
                del self._leases[element_id]
        self._close_idle()

    def _close_idle(self) -> None:
        """Close the least recently used idle stores past :attr:`max_open_stores`. The
        close (a checkpoint can take seconds) runs outside the lock, so other elements'
        ops go on; only this element's next open waits for it."""
        with self._lock:
            excess = len(self._stores) - self.max_open_stores
            if excess <= 0:         # every op passes here: the common case costs nothing
                return
            idle = [key for key in self._stores if key not in self._leases][:excess]
            victims = [(key, self._stores.pop(key)) for key in idle]
            for key, _ in victims:
                self._closing[key] = threading.Event()
        for key, store in victims:
            try:
                store.close()
            except Exception:   # its log is the truth; a lost checkpoint is rebuilt on open
                logger.exception("closing the idle memory store of %s failed", key)
            finally:
                with self._lock:
                    self._closing.pop(key).set()

    def open_stores(self) -> int:
        """How many memory stores this process holds open now."""
        with self._lock:
            return len(self._stores)

    @contextmanager
    def stores_held_open(self) -> Iterator[list[tuple[str, MemoryBackend]]]:
        """``(element id, store)`` of every memory store this process holds open, leased
        for the block (none closes under the caller) without counting as a use."""
        with self._lock:
            held = [(key, store) for key, store in self._stores.items()
                    if key not in self._closing]
            for key, _ in held:
                self._leases[key] = self._leases.get(key, 0) + 1
        try:
            yield held
        finally:
            for key, _ in held:
                self._release(key)

    @contextmanager
    def held_store(self, element_id: str) -> Iterator[MemoryStore | None]:
        """The file-backed memory store of an element, leased for the block, if this
        process has it open, else None (a backup copies an open store's log under its
        lock, another's from the file). A database home's memories are read in the
        backup's snapshot instead (``transfer/backup.py``)."""
        with self._lock:
            store = self._stores.get(element_id)
            if not isinstance(store, MemoryStore) or element_id in self._closing:
                store = None
            else:
                self._leases[element_id] = self._leases.get(element_id, 0) + 1
        if store is None:
            yield None
            return
        try:
            yield store
        finally:
            self._release(element_id)

    def memory_database(self) -> Any:
        """The home's PostgreSQL database (opened and migrated with the home; re-running
        the migrations changes nothing)."""
        with self._lock:
            if self._database is None:
                raise ValueError("this home keeps its memories in files, not a database")
            return self._database

    def reap_all(self, env: str = "draft") -> dict[str, list[str]]:
        """Run the retention reaper on every ready memory element that has a retention.

        Returns the expired ids per element path; each element with expiries gets one
        ``expire`` activity event (ids only: the memories are gone).
        """
        reaped: dict[str, list[str]] = {}
        for element in self.catalog.elements():
            if element.element_type != "memory" or element.state != "ready":
                continue
            settings = MemorySettings.from_properties(self.properties_for(element, env))
            if not settings.retention:
                continue
            with self.memory_store(element) as store:
                ids = store.reap(settings=settings)
            if ids:
                self.catalog.record_activity(element, "expire", "retention-sweep",
                                             {"expired": ids})
                reaped[element.path] = ids
        return reaped

    def close(self) -> None:
        with self._lock:
            for store in self._stores.values():
                store.close()
            self._stores.clear()
            self.limiter.close()
            self.catalog.close()
            if self._database is not None:
                self._database.close()
                self._database = None
