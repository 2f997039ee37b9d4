"""``reindex``: re-embed, with the current model, every memory whose vectors are missing or
stale (home maintenance: it runs on the home's own stores, not through an op)."""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from element import Element, Home, InvalidRequest
from index import Embedder

from ..config import default_home, embedder_factory, environment_secret
from .common import Progress, UsageError, guarded, print_json

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


def _stale(home: Home, element: Element) -> tuple[int, int, int]:
    """(memories, memories without current vectors, their texts to embed)."""
    memories = stale = texts = 0
    for memory in home.memory_store(element).iter_memories():
        memories += 1
        if not memory["embedded"]:
            stale += 1
            texts += sum(1 for lane in ("content", "context", "intention") if memory[lane])
    return memories, stale, texts


@guarded
def cmd_reindex(args: argparse.Namespace) -> int:
    if not args.all and not args.elements:
        raise UsageError("reindex: name memory elements, or pass --all")
    factory = embedder_factory(args.embedder,
                               Path(args.model_cache) if args.model_cache else None)
    counter: list[_CountingEmbedder] = []

    def counting() -> Embedder:
        counter.append(_CountingEmbedder(factory()))
        return counter[0]

    with Home(Path(args.home) if args.home else default_home(), counting,
              secrets=environment_secret) as home:
        if args.all:
            targets = [e for e in home.catalog.elements(args.circle)
                       if e.element_type == "memory"]
        else:
            targets = [home.catalog.element_at(path) for path in args.elements]
        report = []
        for element in targets:
            if element.element_type != "memory":
                raise InvalidRequest("element", f"{element.path} is a "
                                     f"{element.element_type} element, not a memory")
            memories, stale, texts = _stale(home, element)   # opening marks stale vectors
            progress = Progress(f"reindex {element.path}", texts)
            home.embedder  # noqa: B018  (built by now: the store was opened above)
            counter[0].on_embed = progress.advance
            started = time.monotonic()
            repaired = home.memory_store(element).repair_embeddings() if stale else 0
            progress.finish()
            report.append({"path": element.path, "model": counter[0].model_id,
                           "memories": memories, "reembedded": repaired,
                           "seconds": round(time.monotonic() - started, 3)})
    print_json({"reindexed": report})
    return 0
