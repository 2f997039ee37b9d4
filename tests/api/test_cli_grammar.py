"""The command line's one grammar: the home's options before or after any command (restore
included), the vocabularies of its choices equal to the layers' own, the memory commands
a user needs from a shell, and a start that loads nothing heavy for ``--help``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from api.cli import build_parser
from api.options import BRANCHES, CATEGORIES, ROLES, SUBJECT_TYPES
from tests.helpers import ROOT, run_cli

#: Every command, down to its action, with the arguments it needs to parse.
COMMANDS = [
    ["init"], ["serve"], ["token", "create", "--circle", "c", "--role", "admin"],
    ["token", "list"], ["token", "revoke", "x"], ["model", "provision"],
    ["element", "create", "--circle", "c", "--type", "memory"], ["element", "list"],
    ["memory", "store", "c/m", "--content", "x", "--category", "fact"],
    ["memory", "search", "c/m", "q"], ["memory", "list", "c/m"], ["memory", "get", "c/m", "i"],
    ["memory", "update", "c/m", "i", "--content", "y"], ["memory", "delete", "c/m", "i"],
    ["memory", "forget-subject", "c/m", "--subject-type", "guest", "--subject-id", "g"],
    ["export", "c/m"], ["import", "f", "--into", "c"], ["backup", "--to", "b"],
    ["restore", "--from", "b"], ["migrate", "--to", "files"], ["reindex", "--all"],
    ["mcp", "--agent", "c/bot"],
]
#: Modules a command that neither opens a home nor serves must never load.
HEAVY = ("numpy", "hnswlib", "fastembed", "onnxruntime", "psycopg", "flask", "mcp",
         "dulwich", "pygit2", "element", "index", "source")


def test_the_vocabularies_are_the_layers_own() -> None:
    import element
    import index
    import source
    assert CATEGORIES == index.CATEGORIES and SUBJECT_TYPES == index.SUBJECT_TYPES
    assert BRANCHES == source.BRANCHES and ROLES == tuple(sorted(element.ROLES))


@pytest.mark.parametrize("argv", COMMANDS, ids=lambda argv: " ".join(argv[:2]))
def test_home_options_go_before_or_after_every_command(argv: list[str]) -> None:
    options = ["--home", "/h", "--database", "postgresql://db", "--model-cache", "/m"]
    for line in ([*options, *argv], [*argv, *options]):
        args = build_parser().parse_args(line)
        assert (args.home, args.database, args.model_cache) == \
            ("/h", "postgresql://db", "/m"), line
    # Given only before the command, a command's own copy does not reset it.
    assert build_parser().parse_args(["--home", "/h", *argv]).database is None


def test_version() -> None:
    done = run_cli(None, "--version", embedder=None)
    assert done.returncode == 0 and done.stdout.startswith("triform 0.")


def test_restore_takes_the_new_home_before_or_after_the_command(tmp_path: Path) -> None:
    home = tmp_path / "home"
    assert run_cli(home, "init").returncode == 0
    stored = run_cli(home, "memory", "store", "demo/memory", "--content", "Ivo rows",
                     "--category", "fact")
    assert stored.returncode == 0, stored.stderr
    assert run_cli(home, "backup", "--to", str(tmp_path / "b")).returncode == 0
    before = run_cli(tmp_path / "new", "restore", "--from", str(tmp_path / "b"))
    after = run_cli(None, "restore", "--from", str(tmp_path / "b"), "--home",
                    str(tmp_path / "alias"))
    for done, new in ((before, "new"), (after, "alias")):
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout)["home"] == str(tmp_path / new)
        listed = run_cli(tmp_path / new, "memory", "list", "demo/memory")
        assert [m["content"] for m in json.loads(listed.stdout)["memories"]] == ["Ivo rows"]
    nowhere = run_cli(None, "restore", "--from", str(tmp_path / "b"))
    assert nowhere.returncode == 2 and "--home NEW" in nowhere.stderr


def test_memory_commands_change_and_forget(tmp_path: Path) -> None:
    home = tmp_path / "home"
    assert run_cli(home, "init").returncode == 0

    def memory(*argv: str) -> subprocess.CompletedProcess[str]:
        return run_cli(home, "memory", argv[0], "demo/memory", *argv[1:])

    done = memory("store", "--content", "Rita moved to Porto", "--category", "fact",
                  "--occurred-at", "2024-03-01", "--subject-type", "guest",
                  "--subject-id", "rita")
    assert done.returncode == 0, done.stderr
    first = json.loads(done.stdout)["memory"]
    assert first["occurred_at"].startswith("2024-03-01")
    general = json.loads(memory("store", "--content", "The office closes at six",
                                "--category", "fact").stdout)["memory"]

    rita = ("--subject-type", "guest", "--subject-id", "rita")
    found = json.loads(memory("search", "Porto", *rita, "--occurred-before",
                              "2024-06-01").stdout)
    assert [r["memory"]["id"] for r in found["results"]] == [first["id"]]
    later = json.loads(memory("search", "Porto", *rita, "--occurred-after",
                              "2024-06-01").stdout)
    assert later["results"] == []

    changed = memory("update", first["id"], "--content", "Rita moved to Lisbon",
                     "--context", "")
    assert changed.returncode == 0, changed.stderr
    assert json.loads(changed.stdout)["memory"]["content"] == "Rita moved to Lisbon"
    assert json.loads(memory("get", first["id"]).stdout)["memory"]["content"] == \
        "Rita moved to Lisbon"
    nothing = memory("update", first["id"])
    assert nothing.returncode == 2 and "--content" in nothing.stderr
    slashed = memory("get", "x/delete")
    assert slashed.returncode == 2 and "not a memory id" in slashed.stderr

    unconfirmed = memory("forget-subject", "--subject-type", "guest", "--subject-id", "rita")
    assert unconfirmed.returncode == 1
    assert json.loads(unconfirmed.stderr)["error"]["code"] == "MEMORY_CONFIRM_REQUIRED"
    forgot = memory("forget-subject", "--subject-type", "guest", "--subject-id", "rita",
                    "--yes")
    assert json.loads(forgot.stdout)["ids"] == [first["id"]]

    deleted = memory("delete", general["id"])
    assert json.loads(deleted.stdout) == {"deleted": general["id"]}
    gone = memory("get", general["id"])
    assert gone.returncode == 1 and json.loads(gone.stderr)["error"]["code"] == \
        "MEMORY_NOT_FOUND"


def loaded(argv: list[str], **kw: object) -> tuple[subprocess.CompletedProcess[str], set[str]]:
    """Run ``triform ARGV`` in a fresh interpreter; answer it and the heavy top-level
    modules it had loaded when it ended."""
    program = ("import sys, atexit, json\n"
               "atexit.register(lambda: sys.__stderr__.write('\\nLOADED ' + json.dumps("
               "sorted({m.split('.')[0] for m in sys.modules})) + '\\n'))\n"
               "from api.cli import main\n"
               f"sys.exit(main({argv!r}))\n")
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True,
                          cwd=ROOT, timeout=60, **kw)   # type: ignore[call-overload]
    line = done.stderr.rsplit("LOADED ", 1)[1]
    return done, set(json.loads(line)) & set(HEAVY)


def test_help_loads_no_layer_and_no_heavy_library() -> None:
    for argv in (["--help"], ["memory", "store", "--help"], ["restore", "--help"],
                 ["mcp", "--help"]):
        done, heavy = loaded(argv)
        assert done.returncode == 0 and heavy == set(), (argv, heavy)


def test_database_without_the_driver_says_what_to_install(tmp_path: Path) -> None:
    """Without psycopg (the postgres extra), --database fails in one clear line set, and
    the files home is untouched."""
    program = ("import sys; sys.modules['psycopg'] = None\n"
               "from api.cli import main\n"
               f"sys.exit(main(['--home', {str(tmp_path / 'h')!r}, '--embedder', 'hashing', "
               "'--database', 'postgresql://u@127.0.0.1:9/db', 'init']))\n")
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True,
                          cwd=ROOT, timeout=60)
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    error = json.loads(done.stderr)["error"]
    assert error["code"] == "DATABASE_DRIVER_MISSING" and error["retryable"] is False
    assert "triform-memory[postgres]" in error["message"]
