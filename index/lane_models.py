"""Which model embeds which lane: one embedder per lane, one model id naming them all.

A memory has three lanes (content, context, intention), each searched against the same lane
of the query, so a lane's memory vectors and query vectors must come from the same model,
but two lanes need not share one. :class:`LaneEmbedder` holds a model per lane and embeds a
call's texts with their lanes' models, one call per distinct model. Its ``model_id`` names
every lane's model (``content=A;context=B;intention=B``), and a store records one model
id: a store whose lanes were embedded under another assignment sees another id and
re-embeds itself, as it does for any change of model (``docs/embeddings.md``).

Stores embed through :func:`index.embed.embed_for_lanes`, which passes each text's lane to
an embedder that has ``embed_lanes`` and calls plain ``embed`` otherwise.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import numpy as np

from .embed import Embedder, embed_for_lanes, lane_of

__all__ = ["LaneEmbedder", "LANE_NAMES", "lane_model_id", "load_embedder", "parse_lane_models",
           "lane_models", "LANE_MODELS_ENV", "DEFAULT_LANE_MODELS"]

LANE_NAMES = ("content", "context", "intention")
#: The environment variable that overrides :data:`DEFAULT_LANE_MODELS`.
LANE_MODELS_ENV = "TRIFORM_LANE_MODELS"
#: MiniLM with INT8 weights for content, the static model distilled from MiniLM for the
#: situation's lanes: see docs/embeddings.md (Lanes and models) for the measurements.
DEFAULT_LANE_MODELS = "minilm8,static,static"
#: ``minilm``: MiniLM's float32 weights; ``minilm8``: the same weights quantized to INT8
#: (``int8_provision.py``); ``static``: the static model distilled from them.
MODEL_NAMES = ("minilm", "minilm8", "static")


def parse_lane_models(spec: str) -> dict[str, str]:
    """``"minilm8,static,static"`` (content, context, intention) or one name for every lane.

    :raise ValueError: not one or three of :data:`MODEL_NAMES`.
    """
    names = [name.strip().lower() for name in spec.split(",")]
    if len(names) == 1:
        names *= len(LANE_NAMES)
    if len(names) != len(LANE_NAMES) or any(name not in MODEL_NAMES for name in names):
        raise ValueError(f"{LANE_MODELS_ENV} must be one model or three (content, context, "
                         f"intention), each of {', '.join(MODEL_NAMES)}; got {spec!r}")
    return dict(zip(LANE_NAMES, names, strict=True))


def lane_models(spec: str | None = None) -> dict[str, str]:
    """Each lane's model name: ``spec``, else ``$TRIFORM_LANE_MODELS``, else the default.

    :raise ValueError: a bad spec.
    """
    return parse_lane_models(spec if spec is not None else
                             os.environ.get(LANE_MODELS_ENV) or DEFAULT_LANE_MODELS)


def load_embedder(cache_dir: Path | None = None, *, log: Callable[[str], None] = print,
                  threads: int | None = None, lanes: str | None = None) -> Embedder:
    """The embedder of a store's lanes: each lane's model provisioned if needed, then loaded.

    ``lanes``: a :func:`parse_lane_models` spec; default ``$TRIFORM_LANE_MODELS``, else
    :data:`DEFAULT_LANE_MODELS`. One model for every lane returns that model's embedder.

    :raise ModelUnavailable: a model can be neither provisioned nor loaded.
    :raise ValueError: a bad spec.
    """
    from .int8_provision import load_minilm_int8
    from .provision import load_minilm
    from .static_model import StaticEmbedder
    from .static_provision import provision_static_model

    spec = lane_models(lanes)
    loaded: dict[str, Embedder] = {}
    for name in dict.fromkeys(spec.values()):
        if name == "static":
            loaded[name] = StaticEmbedder(provision_static_model(cache_dir, log=log))
        else:
            load = load_minilm if name == "minilm" else load_minilm_int8
            loaded[name] = load(cache_dir, log=log, threads=threads)
    if len(loaded) == 1:
        return next(iter(loaded.values()))
    return LaneEmbedder({lane: loaded[name] for lane, name in spec.items()})


def lane_model_id(models: Mapping[str, str]) -> str:
    """The model id of a lane assignment: the lanes' model ids, or the one id they share."""
    ids = {models[lane] for lane in LANE_NAMES}
    if len(ids) == 1:
        return ids.pop()
    return ";".join(f"{lane}={models[lane]}" for lane in LANE_NAMES)


class LaneEmbedder:
    """An :class:`~index.embed.Embedder` with a model per lane.

    :param lanes: an embedder for each of content, context and intention (of one
        dimension). Lanes given the same embedder share its calls.

    ``embed_lanes(lanes, texts)`` embeds each text with its lane's model. ``embed(texts)``,
    for callers that know no lane, embeds with the content lane's model. With one model for
    every lane, its ``model_id`` is that model's, so stores embedded before lanes could
    differ stay valid.
    """

    def __init__(self, lanes: Mapping[str, Embedder]) -> None:
        unknown = set(lanes) - set(LANE_NAMES)
        if unknown or len(lanes) != len(LANE_NAMES):
            raise ValueError(f"LaneEmbedder needs exactly the lanes {LANE_NAMES}, "
                             f"got {sorted(lanes)}")
        dims = {int(lanes[lane].dim) for lane in LANE_NAMES}
        if len(dims) != 1:
            raise ValueError(f"every lane's model must have one dimension, got {sorted(dims)}")
        self.lanes = {lane: lanes[lane] for lane in LANE_NAMES}
        self.dim = dims.pop()
        self.model_id = lane_model_id({lane: str(e.model_id) for lane, e in self.lanes.items()})
        # With two models, the situation's (when it is not content's) embeds on a thread of
        # its own while content's runs on the caller's (``embed_lanes``).
        models = {id(e): e for e in self.lanes.values()}
        self._side_model: Embedder | None = self.lanes["context"] \
            if len(models) == 2 and self.lanes["context"] is self.lanes["intention"] else None
        self._pool = ThreadPoolExecutor(1, thread_name_prefix="triform-lanes")

    def lane_model(self, lane: str) -> str:
        """The model id of ``lane`` (an unknown lane is embedded as content)."""
        return str(self.lanes.get(lane, self.lanes["content"]).model_id)

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Embed ``texts`` with the content lane's model."""
        return self.lanes["content"].embed(texts)

    def embed_lanes(self, lanes: Sequence[str], texts: Sequence[str]) -> np.ndarray:
        """Embed ``texts[i]`` with the model of ``lanes[i]``, one call per model."""
        if isinstance(texts, str):
            raise TypeError("embed_lanes takes a sequence of texts, not one str")
        texts = list(texts)
        if len(lanes) != len(texts):
            raise ValueError(f"{len(lanes)} lanes for {len(texts)} texts")
        groups: dict[int, tuple[Embedder, list[int]]] = {}
        for i, lane in enumerate(lanes):
            model = self.lanes.get(lane_of(lane), self.lanes["content"])
            groups.setdefault(id(model), (model, []))[1].append(i)
        out = np.empty((len(texts), self.dim), dtype=np.float32)

        def run(model: Embedder, rows: list[int]) -> None:
            out[rows] = embed_for_lanes(model, [lanes[i] for i in rows],
                                        [texts[i] for i in rows])

        calls = sorted(groups.values(), key=lambda group: group[0] is not self._side_model)
        side: Future[None] | None = None
        if len(calls) == 2 and calls[0][0] is self._side_model:
            # The situation's texts on the side while the content's model runs here (it
            # leaves the interpreter lock while it computes): a live search waits for
            # the slower of the two, not for their sum.
            side = self._pool.submit(run, *calls.pop(0))
        for model, rows in calls:
            run(model, rows)
        if side is not None:
            if side.cancel():           # its thread was not scheduled meanwhile: here
                run(*next(group for group in groups.values()
                          if group[0] is self._side_model))
            else:
                side.result()
        return out

    def __repr__(self) -> str:
        return f"LaneEmbedder({self.lanes!r})"
