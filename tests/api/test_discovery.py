"""``<home>/server.json``: how the command line finds the server holding its home.

A live server's file is found; one left by a killed server is stale (nobody holds its lock)
and ignored; a clean stop removes it; a second server leaves the first one's in place.
Processes are real: the lock is the kernel's, held by another process.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

from api.discovery import DISCOVERY_FILE, advertise, find_server

HOLDER = """
import sys, time
from pathlib import Path
from api.discovery import advertise
with advertise(Path(sys.argv[1]), sys.argv[2], "draft") as other:
    print("other" if other else "announced", flush=True)
    time.sleep(60)
"""
ROOT = Path(__file__).resolve().parents[2]


def hold(home: Path, url: str) -> subprocess.Popen[str]:
    process = subprocess.Popen([sys.executable, "-c", HOLDER, str(home), url], cwd=ROOT,
                               stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None
    assert process.stdout.readline().strip() == "announced"
    return process


def test_a_live_server_is_found_and_a_clean_stop_removes_the_file(tmp_path: Path) -> None:
    assert find_server(tmp_path) is None
    with advertise(tmp_path, "http://127.0.0.1:9999", "demo") as other:
        assert other is None
        found = find_server(tmp_path)
        assert found is not None and found.url == "http://127.0.0.1:9999"
        assert found.pid == os.getpid() and found.env == "demo"
    assert not (tmp_path / DISCOVERY_FILE).exists()
    assert find_server(tmp_path) is None


def test_a_killed_servers_file_is_stale(tmp_path: Path) -> None:
    process = hold(tmp_path, "http://127.0.0.1:1234")
    try:
        found = find_server(tmp_path)
        assert found is not None and found.pid == process.pid
    finally:
        process.send_signal(signal.SIGKILL)
        process.wait(10)
    assert (tmp_path / DISCOVERY_FILE).exists()      # nobody removed it...
    assert find_server(tmp_path) is None             # ...but nobody holds it either
    with advertise(tmp_path, "http://127.0.0.1:5678", "draft") as other:
        assert other is None                          # a new server takes its place
        found = find_server(tmp_path)
        assert found is not None and found.url.endswith(":5678")


def test_a_second_server_leaves_the_first_ones_file(tmp_path: Path) -> None:
    process = hold(tmp_path, "http://127.0.0.1:1111")
    try:
        with advertise(tmp_path, "http://127.0.0.1:2222", "draft") as other:
            assert other is not None and other.url.endswith(":1111")
        found = find_server(tmp_path)                # leaving did not remove theirs
        assert found is not None and found.url.endswith(":1111")
    finally:
        process.send_signal(signal.SIGKILL)
        process.wait(10)


def test_garbage_in_the_file_is_no_server(tmp_path: Path) -> None:
    (tmp_path / DISCOVERY_FILE).write_text("not json")
    assert find_server(tmp_path) is None
    (tmp_path / DISCOVERY_FILE).write_text(json.dumps({"url": "x"}))
    assert find_server(tmp_path) is None
