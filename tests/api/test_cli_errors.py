"""The command line meets a user's mistakes with one clear line and the documented exit
code, never a traceback: a port in use, a model that cannot be had, a missing file, a home
that cannot be one, a reader that leaves (``| head``), a served home without a token.
Every option says what it does (``--help``)."""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from api.cli import build_parser
from api.discovery import advertise
from element import DatabaseRequired, Home, create_token, mark_backend
from api.config import embedder_factory
from tests.helpers import ROOT, Served, run_cli


def no_traceback(run: subprocess.CompletedProcess[str]) -> None:
    assert "Traceback" not in run.stderr and "Traceback" not in run.stdout, run.stderr


def parsers(parser: argparse.ArgumentParser, name: str = "triform"
            ) -> Iterator[tuple[str, argparse.ArgumentParser]]:
    yield name, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub_name, sub in action.choices.items():
                yield from parsers(sub, f"{name} {sub_name}")


def test_every_option_and_argument_has_help() -> None:
    missing = [f"{name} {action.dest}" for name, parser in parsers(build_parser())
               for action in parser._actions
               if not isinstance(action, (argparse._HelpAction, argparse._SubParsersAction))
               and action.help is None]
    assert missing == []


@pytest.fixture
def busy_port() -> Iterator[int]:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        yield taken.getsockname()[1]


def test_a_port_in_use_is_one_line_and_mints_no_token(tmp_path: Path, busy_port: int) -> None:
    home = tmp_path / "home"
    run = run_cli(home, "serve", "--port", str(busy_port), "--sweep-seconds", "0")
    no_traceback(run)
    assert run.returncode == 2
    assert f"cannot listen on 127.0.0.1:{busy_port}" in run.stderr and "--port" in run.stderr
    assert "tfm_" not in run.stdout
    with Home(home, embedder_factory("hashing", None)) as opened:
        assert opened.catalog.elements() == []      # the next start sets it up, token and all


def test_a_model_that_cannot_be_had_stops_serve_before_the_token(tmp_path: Path) -> None:
    home = tmp_path / "home"
    run = run_cli(home, "--model-cache", str(tmp_path / "empty"), "serve", "--port", "0",
                  embedder=None, env={"TRIFORM_MODEL_SOURCE": "nowhere"})
    no_traceback(run)
    assert run.returncode == 1 and "tfm_" not in run.stdout
    error = json.loads(run.stderr.strip().splitlines()[-1])["error"]
    assert error["code"] == "MODEL_UNAVAILABLE"
    with Home(home, embedder_factory("hashing", None)) as opened:
        assert opened.catalog.elements() == [] and opened.catalog.tokens() == []
    model = run_cli(None, "--model-cache", str(tmp_path / "empty"), "model", "provision",
                    embedder=None, env={"TRIFORM_MODEL_SOURCE": "nowhere"})
    no_traceback(model)
    assert model.returncode == 1 and "MODEL_UNAVAILABLE" in model.stderr


def test_a_missing_bundle_file_is_one_line(tmp_path: Path) -> None:
    home = tmp_path / "home"
    assert run_cli(home, "init").returncode == 0
    run = run_cli(home, "import", str(tmp_path / "nope.bundle"), "--into", "demo")
    no_traceback(run)
    assert run.returncode == 1 and run.stdout == ""
    assert run.stderr.strip() == f"triform: {tmp_path / 'nope.bundle'}: No such file or " \
                                 "directory"


@pytest.mark.parametrize("kind", ["file", "missing-parent", "not-a-catalog"])
def test_a_home_that_cannot_be_one_is_a_usage_error(tmp_path: Path, kind: str) -> None:
    home = tmp_path / "home"
    if kind == "file":
        home.write_text("")
    elif kind == "missing-parent":
        home = Path("/proc/no/such/home")
    else:
        home.mkdir()
        (home / "catalog.db").write_text("this is not SQLite, but long enough to be read" * 9)
    run = run_cli(home, "token", "list")
    no_traceback(run)
    assert run.returncode == 2
    assert run.stderr.startswith(f"triform: {home} cannot be a data home:"), run.stderr


def test_a_home_that_lives_in_a_database_refuses_to_open_its_own_files(
        tmp_path: Path) -> None:
    """A database home's folder keeps an old (or empty) SQLite catalog: a command without
    the URL is refused, naming the database (never its password), instead of answering
    from those files; moved back to files (``mark_backend(home, None)``), it opens."""
    home = tmp_path / "home"
    assert run_cli(home, "init").returncode == 0
    mark_backend(home, "postgresql://triform:s3cret@db.internal:5432/memories"
                       "?password=s3cret&sslmode=require")
    marker = home / "database.json"
    assert oct(marker.stat().st_mode & 0o777) == "0o600"
    assert "s3cret" not in marker.read_text()
    for command in (("token", "list"), ("init",), ("serve", "--port", "0")):
        run = run_cli(home, *command)
        no_traceback(run)
        assert run.returncode == 2, (command, run.stderr)
        assert "postgresql://triform@db.internal:5432/memories?sslmode=require" in run.stderr
        assert "pass --database URL or set TRIFORM_DATABASE_URL" in run.stderr
        assert "s3cret" not in run.stderr
    with pytest.raises(DatabaseRequired):
        Home(home, embedder_factory("hashing", None))
    # migrate --to files opens the folder on purpose, to fill it.
    with Home(home, embedder_factory("hashing", None), leaving_database=True) as opened:
        assert opened.database_url is None
    mark_backend(home, None)
    assert not marker.exists()
    assert run_cli(home, "token", "list").returncode == 0


def test_a_reader_that_leaves_ends_the_command_quietly(tmp_path: Path) -> None:
    home = tmp_path / "home"
    assert run_cli(home, "init").returncode == 0
    # More than a pipe holds (64 KiB), so the writer meets the closed pipe for certain.
    with Home(home, embedder_factory("hashing", None)) as opened:
        for i in range(600):
            create_token(opened.catalog, "demo", "viewer", f"token {i}")
    piped = subprocess.run(
        f"{sys.executable} -m api.cli --home {home} --embedder hashing token list "
        "| head -n 1; echo \"status ${PIPESTATUS[0]}\"", shell=True, executable="/bin/bash",
        cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert piped.stdout.splitlines() == ["[", "status 141"], piped.stdout
    assert piped.stderr == ""


def test_a_served_home_without_a_token_says_how_to_get_one(tmp_path: Path) -> None:
    home = tmp_path / "home"
    assert run_cli(home, "init").returncode == 0
    with advertise(home, "http://127.0.0.1:9", "draft"):
        for args in (["memory", "list", "demo/memory"], ["reindex", "--all"],
                     ["mcp", "--agent", "demo/memory"]):
            run = run_cli(home, *args, env={"TRIFORM_TOKEN": ""})
            no_traceback(run)
            assert run.returncode == 2 and run.stdout == ""
            assert "is served at http://127.0.0.1:9" in run.stderr
            assert "TRIFORM_TOKEN" in run.stderr


def test_a_served_home_that_does_not_answer_is_a_refusal(tmp_path: Path) -> None:
    """The server announced itself but its port is dead (hung, firewalled): exit 1 with
    the error shape, as for any op that could not run."""
    home = tmp_path / "home"
    assert run_cli(home, "init").returncode == 0
    with socket.socket() as unused:
        unused.bind(("127.0.0.1", 0))
        port = unused.getsockname()[1]
    with advertise(home, f"http://127.0.0.1:{port}", "draft"):
        run = run_cli(home, "memory", "list", "demo/memory", "--token", "tfm_x")
    no_traceback(run)
    assert run.returncode == 1 and run.stdout == ""
    assert json.loads(run.stderr)["error"]["code"] == "CONNECTION_FAILED"


def test_init_on_a_served_home_prints_the_servers_url(tmp_path: Path) -> None:
    home = tmp_path / "home"
    assert run_cli(home, "init").returncode == 0
    with advertise(home, "http://127.0.0.1:40123", "draft"):
        run = run_cli(home, "init", "--circle", "acme")
    assert run.returncode == 0, run.stderr
    assert "http://127.0.0.1:40123/api/acme/memory/ops/store" in run.stdout
    assert "@127.0.0.1:40123/git/acme/memory.git" in run.stdout and ":8765" not in run.stdout


def test_a_second_server_of_a_file_backed_home_is_refused(tmp_path: Path) -> None:
    """Its memories have one writer: a second server would hang on every store's lock."""
    first = Served(tmp_path / "home").start()
    try:
        run = run_cli(tmp_path / "home", "serve", "--port", "0", "--sweep-seconds", "0")
        no_traceback(run)
        assert run.returncode == 2
        assert f"already served at {first.url}" in run.stderr
        assert "--database" in run.stderr and "docs/deploy.md" in run.stderr
        assert first.client().get("/api/demo/memory/ops/memories").status == 200
    finally:
        first.kill()


def test_ctrl_c_stops_serve_cleanly(tmp_path: Path) -> None:
    srv = Served(tmp_path / "home").start()
    try:
        assert srv.process is not None
        os.killpg(srv.process.pid, signal.SIGINT)     # at once: during the ready line
        assert srv.process.wait(60) == 0
    finally:
        srv.kill()
    assert "Traceback" not in srv.log
    assert not (tmp_path / "home" / "server.json").exists()


@pytest.mark.parametrize("option,value,says", [
    ("--port", "99999", "99999 is not between 0 and 65535"),
    ("--threads", "0", "0 is not between 1 and 256"),
    ("--sweep-seconds", "-5", "-5 is not at least 0"),
    ("--port", "http", "not a number: 'http'"),
    ("--host", "nosuchhost.invalid", "cannot listen on nosuchhost.invalid:"),
])
def test_serve_options_out_of_range_are_usage_errors(tmp_path: Path, option: str, value: str,
                                                     says: str) -> None:
    run = run_cli(tmp_path / "home", "serve", option, value)
    no_traceback(run)
    assert run.returncode == 2 and says in run.stderr, run.stderr
