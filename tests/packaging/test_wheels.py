"""The wheels are the product: built from the tree a clean clone holds, installed in a fresh
virtualenv outside the checkout (no extras: no PostgreSQL driver), and used as a new user
uses them: ``triform --version``, ``init``, ``serve``, a memory stored and found, the
console's page and its static files, and ``triform_client`` against the server. A module,
template or dependency the wheels forget fails here, not on a user's machine.

The wheels and one virtualenv serve every test of the module, made once per run (``pip
install`` of both wheels and their dependencies takes a minute or two) by whichever test
worker asks first, and only read afterwards.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import subprocess
import sys
import threading
import urllib.request
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.helpers import ROOT

LAYERS = ("api", "element", "source", "index")
#: The files besides modules that the server's wheel must hold (the console's).
DATA = ("api/console/templates/console/*.html", "api/console/static/*")


def clean_env(**extra: str) -> dict[str, str]:
    """This environment without anything that would let the checkout leak into the
    installed programs."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "VIRTUAL_ENV", "TRIFORM_HOME", "TRIFORM_DATABASE_URL",
                        "TRIFORM_TOKEN", "PYTHONSTARTUP")}
    return {**env, **extra}


def run(argv: list[str | Path], cwd: Path, timeout: float = 600,
        **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(a) for a in argv], cwd=cwd, capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=timeout, env=clean_env(**env))


def clean_clone(dest: Path) -> Path:
    """The working tree as a clean clone would hold it: the files git tracks and the new
    ones it does not ignore (so a file forgotten in ``git add`` is not in the wheel either
    way, and nothing a build left in the checkout is)."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others",
                             "--exclude-standard"], cwd=ROOT, capture_output=True, check=True)
    for name in filter(None, listed.stdout.decode().split("\0")):
        source = ROOT / name
        if source.is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, dest / name)
    return dest


def once(work: Path, name: str, make: Callable[[], None]) -> None:
    """Run ``make`` once per test run, whichever worker gets here first; the others wait
    for it (an flock) and find its marker. A failed ``make`` leaves none: they try again."""
    with open(work / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (work / f"{name}.done").exists():
            make()
            (work / f"{name}.done").touch()


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder every test worker of this run shares (xdist gives each its own below)."""
    base = tmp_path_factory.getbasetemp()
    where = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "wheels"
    where.mkdir(exist_ok=True)
    return where


@pytest.fixture(scope="module")
def wheels(work: Path) -> dict[str, Path]:
    def build() -> None:
        tree = clean_clone(work / "clone")
        for project in (tree, tree / "clients" / "python"):
            done = run([sys.executable, "-m", "build", "--wheel", "--outdir", work / "dist",
                        project], cwd=work)
            assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    once(work, "wheels", build)
    return {"server": next((work / "dist").glob("triform_memory-*.whl")),
            "client": next((work / "dist").glob("triform_client-*.whl"))}


@pytest.fixture(scope="module")
def venv(work: Path, wheels: dict[str, Path]) -> Path:
    """A fresh virtualenv with both wheels and nothing else of ours, outside the checkout."""
    where = work / "venv"

    def install() -> None:
        done = run([sys.executable, "-m", "venv", "--clear", where], cwd=work)
        assert done.returncode == 0, done.stderr
        done = run([where / "bin" / "pip", "install", "--disable-pip-version-check", "-q",
                    wheels["server"], wheels["client"]], cwd=work, timeout=1200)
        assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    once(work, "venv", install)
    return where


def test_the_server_wheel_holds_every_module_and_the_consoles_files(
        wheels: dict[str, Path], work: Path) -> None:
    names = set(zipfile.ZipFile(wheels["server"]).namelist())
    tree = work / "clone"
    modules = {str(p.relative_to(tree)) for layer in LAYERS
               for p in (tree / layer).rglob("*.py")}
    data = {str(p.relative_to(tree)) for pattern in DATA for p in tree.glob(pattern)}
    assert len(modules) > 100 and len(data) >= 7
    assert modules | data <= names, sorted((modules | data) - names)
    top = {name.split("/")[0] for name in names if not name.endswith(".dist-info/RECORD")}
    assert top - {n for n in top if n.endswith(".dist-info")} == set(LAYERS)
    client = {name.split("/")[0] for name in zipfile.ZipFile(wheels["client"]).namelist()}
    assert "triform_client" in client and "triform_client/py.typed" in \
        zipfile.ZipFile(wheels["client"]).namelist()


def test_pip_check_and_version(venv: Path, work: Path) -> None:
    done = run([venv / "bin" / "pip", "check"], cwd=work)
    assert done.returncode == 0, done.stdout + done.stderr
    version = run([venv / "bin" / "triform", "--version"], cwd=work)
    assert version.returncode == 0 and version.stdout.strip() == "triform 0.1.0"
    found = run([venv / "bin" / "python", "-c", "import api, triform_client; "
                 "print(api.__file__, triform_client.__file__)"], cwd=work)
    assert str(ROOT) not in found.stdout and str(venv) in found.stdout, found.stdout


class Serving:
    """``triform serve`` of the installed wheel, on a free port, until :meth:`stop`."""

    def __init__(self, venv: Path, home: Path, cwd: Path, model_cache: Path) -> None:
        self.process = subprocess.Popen(
            [str(venv / "bin" / "triform"), "--home", str(home), "serve", "--port", "0",
             "--sweep-seconds", "0"], cwd=cwd, stdout=subprocess.PIPE,
            stderr=open(cwd / "serve.log", "a"), stdin=subprocess.DEVNULL, text=True,
            env=clean_env(TRIFORM_MODEL_CACHE=str(model_cache)), start_new_session=True)
        self.url = ""
        self.lines: list[str] = []
        ready = threading.Event()

        def read() -> None:
            assert self.process.stdout is not None
            for line in self.process.stdout:
                self.lines.append(line)
                if line.startswith("serving ") and " on http://" in line:
                    self.url = line.split(" on ", 1)[1].split(" ", 1)[0]
                    ready.set()
        threading.Thread(target=read, daemon=True).start()
        if not ready.wait(180):
            self.stop()
            raise AssertionError("".join(self.lines) + (cwd / "serve.log").read_text())

    def stop(self) -> None:
        os.killpg(self.process.pid, 15)
        self.process.wait(60)


@pytest.fixture
def served(venv: Path, tmp_path: Path, model_cache: Path) -> Iterator[tuple[Serving, str]]:
    """A home made by the installed ``triform init``, served by its ``triform serve``."""
    init = run([venv / "bin" / "triform", "--home", tmp_path / "home", "init"], cwd=tmp_path,
               TRIFORM_MODEL_CACHE=str(model_cache))
    assert init.returncode == 0, init.stderr
    token = next(line.strip() for line in init.stdout.splitlines()
                 if line.strip().startswith("tfm_"))
    serving = Serving(venv, tmp_path / "home", tmp_path, model_cache)
    try:
        yield serving, token
    finally:
        serving.stop()


def test_a_new_user_journey_from_the_installed_wheels(
        served: tuple[Serving, str], venv: Path, tmp_path: Path) -> None:
    serving, token = served
    # The command line through the server (triform_client, installed as a dependency).
    stored = run([venv / "bin" / "triform", "--home", tmp_path / "home", "memory", "store",
                  "demo/memory", "--content", "Ana prefers tea over coffee", "--category",
                  "preference", "--context", "chat about breakfast"], cwd=tmp_path,
                 TRIFORM_TOKEN=token)
    assert stored.returncode == 0, stored.stderr
    memory_id = json.loads(stored.stdout)["memory"]["id"]

    request = urllib.request.Request(
        f"{serving.url}/api/demo/memory/ops/search", method="POST",
        data=json.dumps({"query": "what does Ana drink?"}).encode(),
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as answer:
        results = json.loads(answer.read())["results"]
    assert results[0]["memory"]["id"] == memory_id

    with urllib.request.urlopen(f"{serving.url}/console/login", timeout=60) as page:
        html = page.read().decode()
    assert page.status == 200 and "<form" in html
    css = html.split('href="', 1)[1].split('"', 1)[0] if 'href="' in html else ""
    with urllib.request.urlopen(f"{serving.url}{css}", timeout=60) as sheet:
        assert sheet.status == 200 and len(sheet.read()) > 100, css

    program = ("import sys\nfrom triform_client import Client\n"
               "with Client(sys.argv[1], sys.argv[2]) as client:\n"
               "    found = client.memory('demo/memory').search('does Ana drink tea or coffee?')\n"
               "    print(found['results'][0]['memory']['content'])\n")
    client = run([venv / "bin" / "python", "-c", program, serving.url, token], cwd=tmp_path)
    assert client.returncode == 0, client.stderr
    assert client.stdout.strip() == "Ana prefers tea over coffee"


def test_without_the_postgres_extra_a_database_says_what_to_install(
        venv: Path, tmp_path: Path) -> None:
    probe = run([venv / "bin" / "python", "-c", "import psycopg"], cwd=tmp_path)
    assert probe.returncode == 1, "psycopg is installed without the postgres extra"
    done = run([venv / "bin" / "triform", "--home", tmp_path / "home", "--database",
                "postgresql://triform@127.0.0.1:9/triform", "init"], cwd=tmp_path)
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    error = json.loads(done.stderr)["error"]
    assert error["code"] == "DATABASE_DRIVER_MISSING"
    assert "pip install 'triform-memory[postgres]'" in error["message"]
