"""How the command line finds the server that holds its home: ``<home>/server.json``.

A running ``triform serve`` holds its home's memory stores open (one writer per element
across processes), so ``triform memory``, ``reindex`` and ``mcp`` must then go through it
over HTTP. The server announces itself in a discovery file in the home::

    {"url": "http://127.0.0.1:8765", "pid": 4242, "env": "draft", "started_at": "..."}

The server holds an exclusive ``flock`` on that file for as long as it runs, and removes it
on a clean stop. The kernel drops the lock when its holder dies, so a file nobody holds is
stale (the server was killed): :func:`find_server` ignores it, whatever pid it names (a pid
may have been reused since). A second server of a home whose memories are in PostgreSQL
serves too (workers, docs/deploy.md), but the first one keeps the file; a home whose
memories are files has one server (``serve`` refuses a second).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import fcntl
import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["DISCOVERY_FILE", "ServerInfo", "advertise", "find_server"]

DISCOVERY_FILE = "server.json"


@dataclass(frozen=True)
class ServerInfo:
    """A live server of a home: where it answers and which process it is."""

    url: str
    pid: int
    env: str


def _read(handle: Any) -> ServerInfo | None:
    try:
        data = json.loads(handle.read())
        return ServerInfo(str(data["url"]), int(data["pid"]), str(data.get("env", "draft")))
    except (ValueError, KeyError, TypeError):
        return None


def find_server(home: Path) -> ServerInfo | None:
    """The server that holds ``home`` now, or None (none announced, or a stale file)."""
    try:
        handle = open(Path(home) / DISCOVERY_FILE, encoding="utf-8")
    except OSError:
        return None
    with handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            return _read(handle)     # the server holds it: it runs
        except OSError:
            return None
        fcntl.flock(handle, fcntl.LOCK_UN)
        return None                   # nobody holds it: left by a server that was killed


@contextlib.contextmanager
def advertise(home: Path, url: str, env: str) -> Iterator[ServerInfo | None]:
    """Announce this process as the server of ``home`` while the block runs.

    Yields the server already announced there instead (and writes nothing) when another
    live process holds the file. The file is written whole under a temporary name, locked,
    then renamed into place, so a reader never sees half of it.
    """
    home = Path(home)
    target = home / DISCOVERY_FILE
    other = find_server(home)
    if other is not None:
        yield other
        return
    info = ServerInfo(url, os.getpid(), env)
    temporary = home / f".{DISCOVERY_FILE}.{os.getpid()}"
    handle = open(temporary, "w", encoding="utf-8")   # held while serving
    try:
        fcntl.flock(handle, fcntl.LOCK_EX)
        handle.write(json.dumps({"url": url, "pid": info.pid, "env": env,
                                 "started_at": dt.datetime.now(dt.UTC).isoformat()}))
        handle.flush()
        os.fsync(handle.fileno())
        os.replace(temporary, target)
        try:
            yield None
        finally:
            # Only our own file: a server that started after we were presumed dead may
            # have put its own in place.
            with contextlib.suppress(OSError):
                if os.stat(target).st_ino == os.fstat(handle.fileno()).st_ino:
                    target.unlink()
    finally:
        with contextlib.suppress(OSError):
            temporary.unlink()
        handle.close()
