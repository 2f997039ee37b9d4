"""The Flask application factory.

``create_app(config)`` applies the defaults (``api/config.py``), then ``TRIFORM_*``
environment variables, then the given overrides (tests), opens the data home once (or takes
the one given), checks that every op of the sheet has its handler (``element.registry``:
a process with an op missing refuses to start), and mounts the op routes, the health check,
the API document, server-sent events, MCP over streamable HTTP, the web console and git
smart-HTTP, and logs one access line per request (``api/access_log.py``). Its answers'
JSON is orjson's (``api/json_answer.py``). It gives numpy's BLAS one thread
(``index/blas.py``). There is no module-level app.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import Flask
from werkzeug.middleware.dispatcher import DispatcherMiddleware

from element import Home, registry
from index import limit_blas_threads
from source import BRANCHES

from .access_log import AccessLog
from .config import DEFAULTS, SettingInvalid, open_home
from .console import init_console
from .errors import register_error_handlers
from .events import blueprint as events_blueprint
from .events import init_events
from .git_mount import git_app
from .json_answer import FastJSONProvider
from .limits import init_limits
from .mcp_http import blueprint as mcp_blueprint
from .mcp_http import init_mcp
from .metrics import init_metrics
from .openapi import blueprint as openapi_blueprint
from .routes import OpRoutes, blueprint

__all__ = ["create_app"]

def create_app(config: dict[str, Any] | None = None, *, home: Home | None = None) -> Flask:
    """The WSGI app serving ``home`` (opened from the configuration when not given).

    :raise SettingInvalid: a setting is out of its range (ENV, EMBEDDER, METRICS_TOKEN).
    :raise RuntimeError: an op of the sheet has no handler.
    """
    registry()
    # Requests run in parallel on the server's threads: a search's exact matrix-vector
    # product must not also wait for a second core (index/blas.py).
    limit_blas_threads(1)
    app = Flask("triform")
    app.json = FastJSONProvider(app)    # answers' JSON through orjson (api/json_answer.py)
    app.config.from_mapping(DEFAULTS)
    app.config.from_prefixed_env("TRIFORM")
    app.config.from_mapping(config or {})
    if app.config["ENV"] not in BRANCHES:
        raise SettingInvalid(f"ENV must be one of {', '.join(BRANCHES)}")
    if home is None:
        cache = app.config["MODEL_CACHE"]
        home = open_home(app.config["HOME"], embedder=app.config["EMBEDDER"],
                         model_cache=Path(cache) if cache else None)
    # The app's settings govern the home it serves.
    home.env = app.config["ENV"]
    home.public_url = app.config["PUBLIC_URL"]
    home.max_elements_per_circle = int(app.config["MAX_ELEMENTS_PER_CIRCLE"])
    app.extensions["triform"] = home
    register_error_handlers(app)
    init_limits(app)
    init_events(app, home)
    app.register_blueprint(blueprint)
    app.register_blueprint(openapi_blueprint)
    app.register_blueprint(events_blueprint)
    init_mcp(app, home)
    app.register_blueprint(mcp_blueprint)
    init_console(app, home)
    metrics = init_metrics(app, home)
    # The op route's plain requests first (api/routes.py), before the git mount's prefix
    # walk, which never matches an /api/ path.
    app.wsgi_app = AccessLog(OpRoutes(  # type: ignore[method-assign]
        app, DispatcherMiddleware(app.wsgi_app, {"/git": git_app(home)})), observer=metrics)
    return app

