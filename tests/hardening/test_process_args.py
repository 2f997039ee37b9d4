"""A database password given on the command line does not stay in the process's arguments
(issue 26, Low 17): ``ps`` showed ``serve --database postgresql://u:PASSWORD@...`` to
every local user. The command moves it into the environment (``PGPASSWORD``) and starts
again without it."""

from __future__ import annotations

from pathlib import Path

from tests.helpers import Served

SECRET = "s3cret-Pa55word"


def test_serve_hides_the_database_password_from_ps(tmp_path: Path, pg_server) -> None:
    url = pg_server.create_database("argv_password")
    with_password = url.replace("postgres@", f"postgres:{SECRET}@", 1)
    served = Served(tmp_path / "home", args=("--database", with_password)).start()
    try:
        assert served.process is not None
        cmdline = Path(f"/proc/{served.process.pid}/cmdline").read_bytes()
        assert b"--database" in cmdline and SECRET.encode() not in cmdline
        assert served.client().get("/healthz").status == 200
        assert SECRET not in (tmp_path / "home" / "database.json").read_text()
    finally:
        served.stop()


def test_the_password_is_taken_out_of_every_url_form() -> None:
    from api.cli.main import without_passwords
    argv = ["--database", "postgresql://u:p%40ss@db:5432/x", "migrate",
            "--to=postgres://u:other@[::1]:5432/y"]
    cleaned, password = without_passwords(argv)
    assert password is None and cleaned == argv         # two passwords: left as given
    cleaned, password = without_passwords(argv[:3])
    assert password == "p@ss" and cleaned == ["--database", "postgresql://u@db:5432/x",
                                              "migrate"]
    assert without_passwords(["--to", "postgresql://u@db/x"]) == \
        (["--to", "postgresql://u@db/x"], None)
