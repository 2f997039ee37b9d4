"""``reindex``: re-embed, with the current model, every memory whose vectors are missing or
stale. Home maintenance: it runs on the home's own stores, not through an op, unless a
server holds them; then each element's ``reindex`` op runs on the server (``remote.py``)."""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from element import Element, Home, InvalidRequest, authenticate
from index import Embedder, embed_for_lanes

from ..config import default_home, embedder_factory, environment_secret
from .common import Progress, UsageError, guarded, home_of, print_json
from .remote import remote_reindex, served, token_of

__all__ = ["cmd_reindex"]


class _CountingEmbedder:
    """Wraps the embedder to report how many texts it has embedded (reindex progress)."""

    def __init__(self, inner: Embedder) -> None:
        self.inner = inner
        self.model_id = inner.model_id
        self.dim = inner.dim
        self.on_embed: Callable[[int], None] = lambda n: None

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        vectors = self.inner.embed(texts)
        self.on_embed(len(texts))
        return vectors

    def embed_lanes(self, lanes: Sequence[str], texts: Sequence[str]) -> np.ndarray:
        vectors = embed_for_lanes(self.inner, lanes, texts)
        self.on_embed(len(texts))
        return vectors

    def lane_model(self, lane: str) -> str:
        lane_model = getattr(self.inner, "lane_model", None)
        return str(lane_model(lane)) if lane_model else str(self.model_id)


def _stale(home: Home, element: Element) -> tuple[int, int, int]:
    """(memories, memories without current vectors, their texts to embed)."""
    memories = stale = texts = 0
    with home.memory_store(element) as store:
        for memory in store.iter_memories():
            memories += 1
            if not memory["embedded"]:
                stale += 1
                texts += sum(1 for lane in ("content", "context", "intention")
                             if memory[lane])
    return memories, stale, texts


def _targets(home: Home, args: argparse.Namespace, circle: str | None) -> list[Element]:
    """The memory elements the command line names (or all of ``circle``'s with --all).

    :raise InvalidRequest: a named element is not a memory element.
    """
    if args.all:
        return [e for e in home.catalog.elements(circle) if e.element_type == "memory"]
    targets = [home.catalog.element_at(path) for path in args.elements]
    for element in targets:
        if element.element_type != "memory":
            raise InvalidRequest("element", f"{element.path} is a "
                                 f"{element.element_type} element, not a memory")
    return targets


@guarded
def cmd_reindex(args: argparse.Namespace) -> int:
    if not args.all and not args.elements:
        raise UsageError("reindex: name memory elements, or pass --all")
    server = served(args)
    if server is not None:
        # The server holds the stores: it re-embeds with its model, element by element.
        with home_of(args) as home:
            token = token_of(args, server)
            circle = args.circle or authenticate(home.catalog, token).circle
            paths = [e.path for e in _targets(home, args, circle)]
        return remote_reindex(args, server, paths)
    factory = embedder_factory(args.embedder,
                               Path(args.model_cache) if args.model_cache else None)
    counter: list[_CountingEmbedder] = []

    def counting() -> Embedder:
        counter.append(_CountingEmbedder(factory()))
        return counter[0]

    # The stores must not start re-embedding in the background as they open: this
    # command is that work, shown with a progress bar and counted in its report.
    with Home(Path(args.home) if args.home else default_home(), counting,
              secrets=environment_secret, repair_on_open=False) as home:
        report = []
        for element in _targets(home, args, args.circle):
            memories, stale, texts = _stale(home, element)   # opening marks stale vectors
            progress = Progress(f"reindex {element.path}", texts)
            home.embedder  # noqa: B018  (built by now: the store was opened above)
            counter[0].on_embed = progress.advance
            started = time.monotonic()
            with home.memory_store(element) as store:
                repaired = store.repair_embeddings() if stale else 0
            progress.finish()
            report.append({"path": element.path, "model": counter[0].model_id,
                           "memories": memories, "reembedded": repaired,
                           "seconds": round(time.monotonic() - started, 3)})
    print_json({"reindexed": report})
    return 0
