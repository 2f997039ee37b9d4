"""The web console at ``/console``: one more entry point, server-rendered.

Pages and forms translate to ``element.invoke`` calls with the signed-in token and back
(``views.py``); who is signed in and CSRF are ``session.py``. No logic of its own: what a
role may do, what a memory may say, what promotion allows, is the op path's. See
docs/console.md.
"""

from __future__ import annotations

from flask import Flask

from element import Home

from .session import configure
from .views import blueprint

__all__ = ["init_console"]


def init_console(app: Flask, home: Home) -> None:
    """Mount the console on ``app`` (cookie and CSRF settings, then the routes)."""
    configure(app, home)
    app.register_blueprint(blueprint)
