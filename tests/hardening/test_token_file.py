"""The admin token can go to a 0600 file instead of stdout (issue 9, Low)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from element import Home, authenticate
from index import HashingEmbedder
from tests.helpers import run_cli


def test_init_writes_the_admin_token_to_a_private_file(tmp_path: Path) -> None:
    home, token_file = tmp_path / "home", tmp_path / "admin.token"
    old = os.umask(0)            # whatever the umask, the file is the owner's alone
    try:
        done = run_cli(home, "init", "--token-file", str(token_file))
    finally:
        os.umask(old)
    assert done.returncode == 0, done.stderr
    token = token_file.read_text().strip()
    assert token.startswith("tfm_") and token not in done.stdout
    assert f"written to {token_file} (0600)" in done.stdout
    assert f"export TOKEN=$(cat {token_file})" in done.stdout
    assert stat.S_IMODE(token_file.stat().st_mode) == 0o600
    with Home(home, HashingEmbedder) as opened:
        assert authenticate(opened.catalog, token).role == "admin"
