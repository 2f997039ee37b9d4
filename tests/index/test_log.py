"""The JSONL op log: round trip, torn-line repair, corruption, compaction (index/log.py)."""

from __future__ import annotations

import json
import os
import resource
import signal

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from index.errors import LogCorrupt, StoreFailed
from index.log import MemoryLog, decode_line, encode_line


def open_log(path):
    return MemoryLog(path, model_id="m", dim=4)


def test_new_log_starts_with_a_header(tmp_path):
    log = open_log(tmp_path / "m.jsonl")
    entries = list(log.entries())
    assert len(entries) == 1
    header, end = entries[0]
    assert header["op"] == "header" and header["model_id"] == "m" and header["dim"] == 4
    assert end == log.size == (tmp_path / "m.jsonl").stat().st_size
    log.close()


def test_lines_round_trip_with_vectors_last(tmp_path):
    log = open_log(tmp_path / "m.jsonl")
    vec = np.array([0.5, -0.25, 1.0, 0.0], dtype=np.float32)
    entry = {"op": "store", "record": {"id": "x", "content": "héllo \u2603"},
             "vectors": {"content": vec, "context": None}}
    log.append([entry, {"op": "delete", "ids": ["x"], "reason": "delete"}])
    raw = (tmp_path / "m.jsonl").read_bytes().splitlines()[1]
    assert raw.index(b'"vectors"') > raw.index(b'"record"')
    got = [e for e, _ in log.entries()][1:]
    assert got[0]["record"] == entry["record"]
    assert np.array_equal(got[0]["vectors"]["content"], vec)
    assert got[0]["vectors"]["context"] is None
    assert got[1]["ids"] == ["x"]
    log.close()


@settings(settings.get_profile("triform-index"))
@given(st.recursive(st.none() | st.booleans() | st.integers(-2**53, 2**53) | st.text(),
                    lambda kids: st.lists(kids, max_size=3)
                    | st.dictionaries(st.text(max_size=5), kids, max_size=3), max_leaves=10))
def test_any_json_payload_round_trips(payload):
    entry = {"op": "x", "payload": payload}
    line = encode_line(entry)
    assert line.endswith(b"\n") and line.count(b"\n") == 1
    assert decode_line(line) == entry


@pytest.mark.parametrize("tail", [b'{"op":"delete","ids":["a"', b"\x00" * 300,
                                  b'{"op":"del\n', b"garbage\n"])
def test_torn_last_line_is_truncated_and_reported(tmp_path, tail):
    path = tmp_path / "m.jsonl"
    log = open_log(path)
    log.append([{"op": "delete", "ids": ["a"], "reason": "delete"}])
    good = log.size
    log.close()
    with open(path, "ab") as f:
        f.write(tail)
    log = open_log(path)
    assert log.torn_bytes == len(tail)
    assert path.stat().st_size == good == log.size
    assert [e["op"] for e, _ in log.entries()] == ["header", "delete"]
    log.append([{"op": "access", "ids": [], "at": "t"}])   # appends after a clean line
    assert [e["op"] for e, _ in log.entries()][-1] == "access"
    log.close()


def test_a_torn_header_gives_a_fresh_log(tmp_path):
    path = tmp_path / "m.jsonl"
    path.write_bytes(b'{"op":"hea')
    log = open_log(path)
    assert log.torn_bytes == 10
    assert [e["op"] for e, _ in log.entries()] == ["header"]
    log.close()


def test_damage_before_the_last_line_is_corruption(tmp_path):
    path = tmp_path / "m.jsonl"
    log = open_log(path)
    log.append([{"op": "delete", "ids": ["a"], "reason": "delete"}] * 3)
    log.close()
    lines = path.read_bytes().splitlines(keepends=True)
    lines[2] = b"not json\n"
    path.write_bytes(b"".join(lines))
    log = open_log(path)
    with pytest.raises(LogCorrupt) as info:
        list(log.entries())
    assert info.value.offset == len(lines[0]) + len(lines[1])
    log.close()
    path.write_bytes(b'{"op":"store"}\n')
    with pytest.raises(LogCorrupt):
        open_log(path)


def test_rewrite_replaces_the_log_atomically(tmp_path):
    path = tmp_path / "m.jsonl"
    log = open_log(path)
    old_id = log.log_id
    log.append([{"op": "delete", "ids": [str(i)], "reason": "delete"} for i in range(50)])
    log.rewrite([{"op": "access", "ids": ["k"], "at": "t"}], model_id="m2", dim=4,
                next_seq=7)
    entries = [e for e, _ in log.entries()]
    assert [e["op"] for e in entries] == ["header", "access"]
    assert entries[0]["log_id"] != old_id and entries[0]["next_seq"] == 7
    assert log.log_id == entries[0]["log_id"] and log.size == path.stat().st_size
    log.append([{"op": "delete", "ids": ["z"], "reason": "delete"}])
    assert len(list(log.entries())) == 3
    assert not (tmp_path / "m.jsonl.compact").exists()
    log.close()


def test_a_leftover_compaction_file_is_removed_on_open(tmp_path):
    path = tmp_path / "m.jsonl"
    open_log(path).close()
    (tmp_path / "m.jsonl.compact").write_bytes(b'{"op":"header"')
    open_log(path).close()
    assert not (tmp_path / "m.jsonl.compact").exists()


def test_line_starts(tmp_path):
    log = open_log(tmp_path / "m.jsonl")
    first = log.size
    log.append([{"op": "delete", "ids": ["a"], "reason": "delete"}])
    assert log.is_line_start(0) and log.is_line_start(first) and log.is_line_start(log.size)
    assert not log.is_line_start(first + 3) and not log.is_line_start(log.size + 1)
    log.close()


def test_a_failed_append_is_cut_back(tmp_path):
    """A write that fails half way (file size limit) leaves the log as it was."""
    path = tmp_path / "m.jsonl"
    log = open_log(path)
    log.close()
    pid = os.fork()
    if pid == 0:   # child: limit the file size so the big append fails mid-write
        code = 1
        try:
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            child = open_log(path)
            before = child.size
            resource.setrlimit(resource.RLIMIT_FSIZE, (before + 100, resource.RLIM_INFINITY))
            try:
                child.append([{"op": "access", "ids": ["x" * 5000], "at": "t"}])
            except StoreFailed:
                resource.setrlimit(resource.RLIMIT_FSIZE,
                                   (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
                if path.stat().st_size == before:
                    child.append([{"op": "access", "ids": ["y"], "at": "t"}])
                    code = 0
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    log = open_log(path)
    assert log.torn_bytes == 0
    assert [e.get("ids") for e, _ in log.entries()][1:] == [["y"]]
    log.close()


def test_header_is_json_with_format(tmp_path):
    open_log(tmp_path / "m.jsonl").close()
    header = json.loads((tmp_path / "m.jsonl").read_bytes().splitlines()[0])
    assert header["format"] == 1 and len(header["log_id"]) == 32
