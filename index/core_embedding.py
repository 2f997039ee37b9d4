"""How the core embeds: one call's lane texts, a search's query, and the passes that
embed memories behind.

:class:`CoreEmbedding` is the part of :class:`~index.core.MemoryCore` that talks to the
embedder: every op embeds through :meth:`~CoreEmbedding._embed_lanes` (outside any lock
of the storage's; an embedder failure degrades to "not embedded", never fails the op);
a search's vectors come from :meth:`~CoreEmbedding._embed_query`; memories stored without
vectors are embedded by a pass (``REPAIR_BATCH`` per model call), in the background
(``behind.py``) or asked for (``repair_embeddings``), one pass at a time; the background
embedder's first pass warms the names a store knows into the embedding cache; and an
erasure reaches that cache too (``_uncache``). The ops themselves are ``core.py``'s.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

import numpy as np

from .behind import EmbedBehind
from .embed import Embedder, embed_for_lanes, normalize_rows
from .embed_cache import CachedEmbedder
from .errors import EmbeddingFailed
from .lexical import STOPWORDS
from .names import first_name, without_names
from .params import IndexParams
from .storage import Storage, Vectors

__all__ = ["CoreEmbedding", "REPAIR_BATCH", "WARM_NAMES", "WARM_BATCH"]

logger = logging.getLogger(__name__)

# The key of the query without its first name among a search's texts to embed: embedded with
# the content lane's model (``embed.lane_of``), never a lane of its own.
_WITHOUT_NAMES = "without-names:content"
# The key of the query's first name alone (``IndexParams.name_projection``), the same way.
_NAME = "name:content"

# Memories embedded per model call by a repair or background pass.
REPAIR_BATCH = 64
# The names a store knows embedded into the cache after it opens (``_warm_names``): the
# most frequent at most, and how many per model call (a short hold of the model's lock).
WARM_NAMES = 256
WARM_BATCH = 32


class CoreEmbedding(Storage):
    """The embedder of a store, its cache, and its embedding passes (the module docstring).

    :param embedder: turns texts into unit vectors; wrapped in a
        :class:`~index.embed_cache.CachedEmbedder` of ``embed_cache`` texts unless it is
        one already or ``embed_cache`` is 0.
    :param params: the levers a query's vectors follow (``query_without_names``,
        ``name_projection``).
    :param name: the element, for the background embedder's thread name.
    """

    def __init__(self, embedder: Embedder, *, params: IndexParams, embed_cache: int,
                 name: str) -> None:
        if embed_cache > 0 and not isinstance(embedder, CachedEmbedder):
            embedder = CachedEmbedder(embedder, max_entries=embed_cache)
        self._embedder: Embedder = embedder
        self._model_id = str(embedder.model_id)
        self._dim = int(embedder.dim)
        self._params = params
        # One embedding pass at a time, background or asked for: two would embed the same
        # memories twice. Never taken inside a primitive's lock (a pass takes it).
        self._repairing = threading.Lock()
        self._behind = EmbedBehind(self._repair_behind, name)
        self._names_warmed = False

    # -- one call's texts ------------------------------------------------------------------


    def _embed_lanes(self, texts: dict[str, str]) -> Vectors | None:
        """Embed lane texts in one call; None if the embedder fails in any way."""
        names = list(texts)
        if not names:
            return {}
        try:
            out = np.asarray(embed_for_lanes(self._embedder, names,
                                             [texts[n] for n in names]), dtype=np.float32)
            if out.shape != (len(names), self._dim) or not np.all(np.isfinite(out)):
                raise EmbeddingFailed(f"embedder returned shape {out.shape}")
        except Exception as exc:   # any embedder failure degrades, never fails the op
            logger.warning("embedding failed (%s): %s", exc.__class__.__name__, exc)
            return None
        out = normalize_rows(out)
        return {name: out[i].copy() for i, name in enumerate(names)}

    def _embed_query(self, texts: dict[str, str], names: tuple[str, ...]
                     ) -> tuple[Vectors | None, bool, np.ndarray | None]:
        """A search's lane vectors (``_embed_lanes``); whether the content lane's is not
        the query's own: with ``query_without_names``, it is the mean of the query's and
        of the query without its first name (``names.without_names``); and, with
        ``name_projection``, the vector of the query's first name alone (None: not
        asked, or the query says nothing but the name), all embedded in the same call
        (a name recurs: most often its vector comes from the embedding cache)."""
        extra: dict[str, str] = {}
        plain = without_names(texts["content"], names) \
            if self._params.query_without_names else None
        if plain is not None:
            extra[_WITHOUT_NAMES] = plain
        name = first_name(texts["content"], names) if self._params.name_projection > 0 \
            else None
        if name is not None:
            extra[_NAME] = name
        if not extra:
            return self._embed_lanes(texts), False, None
        queries = self._embed_lanes({**texts, **extra})
        if queries is None:
            return None, False, None
        name_vector = queries.pop(_NAME, None)
        unnamed = queries.pop(_WITHOUT_NAMES, None)
        if unnamed is not None:
            queries["content"] = normalize_rows((queries["content"] + unnamed)[None, :])[0]
        return queries, unnamed is not None, name_vector

    # -- the cache and erasure -------------------------------------------------------------

    def _uncache(self, texts: set[str]) -> None:
        """Erasure reaches the embedding cache too: the texts of memories just deleted
        leave it (a pass or a call computing meanwhile caches nothing: ``_erasures``)."""
        if texts and isinstance(self._embedder, CachedEmbedder):
            self._embedder.forget(texts)

    def _erasures(self) -> int:
        """The cache's count of erasures (``CachedEmbedder.erasures``; 0 without one)."""
        return self._embedder.erasures if isinstance(self._embedder, CachedEmbedder) else 0

    # -- embedding passes ------------------------------------------------------------------

    def _repair_behind(self) -> int:
        """The background embedder's pass: stops before a batch once the store closes;
        the first pass then does the work after an open (``_after_open``) and warms the
        names (``_warm_names``)."""
        with self._repairing:
            repaired = self._repair_pass(lambda: self._behind.closing, durable=False)
        if not self._names_warmed:
            self._names_warmed = True
            self._after_open(lambda: self._behind.closing)
            self._warm_names(lambda: self._behind.closing)
        return repaired

    def _after_open(self, stop: Callable[[], bool]) -> None:
        """Work a backend does once after the store opens, on the background embedder's
        first pass (the file store reads its memories' names, ``MemoryStore``); ``stop``
        says the store is closing. Nothing here."""

    def _warm_names(self, stop: Callable[[], bool]) -> None:
        """Embed into the cache the names the store's memories open with, as they write
        them ("Maria"), the most frequent first, at most ``WARM_NAMES``: a search naming
        someone embeds that name alone (``name_projection``), a second text that costs
        the model ~60% more when the cache lacks it; the people a store holds are the
        ones its users ask about, so that name is then a cache hit from the first search
        on. Best effort: a failing model leaves the cache as it was."""
        if not isinstance(self._embedder, CachedEmbedder) or self._params.name_projection <= 0:
            return
        erasures = self._erasures()
        names = [word for word in self._opening_words(2 * WARM_NAMES)
                 if word[0].isupper() and word.lower() not in STOPWORDS][:WARM_NAMES]
        for start in range(0, len(names), WARM_BATCH):
            batch = names[start:start + WARM_BATCH]
            if stop() or self._embed_lanes({f"{i}:content": name
                                            for i, name in enumerate(batch)}) is None:
                return
            if self._erasures() != erasures:
                # A memory was erased since the names were read: it may have been the one
                # a name came from, so the names embedded leave the cache, and warming ends.
                self._uncache(set(names[:start + WARM_BATCH]))
                return

    def _repair_pass(self, stop: Callable[[], bool], *, durable: bool) -> int:
        """One embedding pass (a backend may wrap it, e.g. in a deployment-wide lock)."""
        return self._embed_pending(stop, durable=durable)

    def _embed_pending(self, stop: Callable[[], bool], *, durable: bool) -> int:
        """Embed the memories without vectors, ``REPAIR_BATCH`` per model call, each tried
        once per pass (no endless loop); ``stop`` is checked before each batch.

        :raise EmbeddingFailed: the embedder failed (those embedded before stay so).
        """
        repaired = 0
        attempted: set[str] = set()
        while not stop():
            erasures = self._erasures()
            batch = self._unembedded(attempted, REPAIR_BATCH)
            if not batch:
                return repaired
            flat = {f"{i}:{lane}": text for i, (_, texts) in enumerate(batch)
                    for lane, text in texts.items()}
            vectors = self._embed_lanes(flat)
            if vectors is None:
                raise EmbeddingFailed(f"the embedder failed; {repaired} memories were "
                                      "repaired before it did")
            # ``_save_vectors`` writes none for a memory erased meanwhile (it looks under
            # the storage's lock); the cache is told here, after the model call that may
            # have cached its texts: any erasure since the batch was read drops them.
            repaired += self._save_vectors(
                [(memory_id, texts, {lane: vectors[f"{i}:{lane}"] for lane in texts})
                 for i, (memory_id, texts) in enumerate(batch)], durable=durable)
            if self._erasures() != erasures:
                self._uncache(set(flat.values()))
        return repaired
