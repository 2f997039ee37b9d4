"""The Flask application factory.

``create_app(config)`` applies defaults, then ``TRIFORM_*`` environment variables, then the
given overrides (tests), opens the data home once, and mounts the op routes, health check
and git smart-HTTP. There is no module-level app.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Callable

from flask import Flask
from werkzeug.middleware.dispatcher import DispatcherMiddleware

import element.element_ops  # noqa: F401  (registers ops)
import element.memory_ops  # noqa: F401  (registers ops)
import element.platform_ops  # noqa: F401  (registers ops)
import element.bundles  # noqa: F401  (registers ops)
import element.source_ops  # noqa: F401  (registers ops)
import element.versions  # noqa: F401  (registers ops)
import api.mcp_server  # noqa: F401  (registers element.agent_ops; LLM keys: TRIFORM_LLM_*)
from element.home import ENVS, Home
from index.embed import Embedder, HashingEmbedder
from index.model import default_cache_dir

from .errors import register_error_handlers
from .events import blueprint as events_blueprint
from .events import init_events
from .git_mount import git_app
from .limits import init_limits
from .openapi import blueprint as openapi_blueprint
from .routes import blueprint

__all__ = ["create_app", "default_home", "default_model_cache", "embedder_factory"]

DEFAULTS: dict[str, Any] = {
    "HOME": None,               # data home; else TRIFORM_HOME; else ~/.triform
    "ENV": "draft",             # which branch's spec governs runtime ops
    "EMBEDDER": "fastembed",    # fastembed | hashing (hashing: tests that don't test meaning)
    "MODEL_CACHE": None,        # else TRIFORM_MODEL_CACHE; else ~/.cache/triform/models
    "MAX_CONTENT_LENGTH": 32 * 1024 * 1024,   # any other Flask route (docs/api.md, Limits)
    "MAX_JSON_BODY": 1024 * 1024,             # a JSON op's body
    "MAX_BUNDLE_BODY": 64 * 1024 * 1024,      # import_bundle's body (base64 bundle)
    "EVENTS_MAX_SUBSCRIBERS": 16,             # open SSE streams (each holds a thread)
    "EVENTS_QUEUE_SIZE": 1000,                # events a stream may lag before it is dropped
    "EVENTS_KEEPALIVE": 15.0,                 # seconds between SSE keepalive comments
    "PUBLIC_URL": None,         # how clients reach us, for clone URLs; else from the request
}


def default_home() -> Path:
    return Path(os.environ.get("TRIFORM_HOME") or Path.home() / ".triform")


def default_model_cache() -> Path:
    """``$TRIFORM_MODEL_CACHE``, else ``~/.cache/triform/models`` (one rule, in index.model)."""
    return default_cache_dir()


def embedder_factory(kind: str, model_cache: Path | None) -> Callable[[], Embedder]:
    """A function that builds the configured embedder when first needed."""
    if kind == "hashing":
        return HashingEmbedder
    if kind != "fastembed":
        raise ValueError(f"EMBEDDER must be fastembed or hashing, not {kind!r}")

    def load() -> Embedder:
        from index.model import load_embedder
        return load_embedder(model_cache or default_model_cache())
    return load


def create_app(config: dict[str, Any] | None = None, *, home: Home | None = None) -> Flask:
    app = Flask("triform")
    app.config.from_mapping(DEFAULTS)
    app.config.from_prefixed_env("TRIFORM")
    app.config.from_mapping(config or {})
    if app.config["ENV"] not in ENVS:
        raise ValueError(f"ENV must be one of {', '.join(ENVS)}")
    if home is None:
        cache = app.config["MODEL_CACHE"]
        home = Home(Path(app.config["HOME"] or default_home()),
                    embedder_factory(app.config["EMBEDDER"], Path(cache) if cache else None))
    app.extensions["triform"] = home
    home.public_url = app.config["PUBLIC_URL"]
    register_error_handlers(app)
    init_limits(app)
    init_events(app, home.catalog)
    app.register_blueprint(blueprint)
    app.register_blueprint(openapi_blueprint)
    app.register_blueprint(events_blueprint)
    app.wsgi_app = DispatcherMiddleware(  # type: ignore[method-assign]
        app.wsgi_app, {"/git": git_app(home)})
    return app
