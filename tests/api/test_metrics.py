"""``GET /metrics`` (Prometheus text) and the JSON log: closed without the scrape token,
numbers that move as a journey goes, nothing of a subject, a token or a memory's text in
either; every worker's series its own."""

from __future__ import annotations

import http.client
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import yaml
from prometheus_client.parser import text_string_to_metric_families

from api.access_log import classify
from api.app import create_app
from element import Home, create_token
from index import HashingEmbedder, MemorySettings
from tests.helpers import (ROOT, HttpClient, Outage, Served, assert_error, create, running,
                           serve)

SCRAPE = "s3cret-scrape-token-0123456789"
Series = dict[tuple[str, tuple[tuple[str, str], ...]], float]


def parse(text: str) -> Series:
    """Every sample of a scrape, by name and labels (``worker`` left out)."""
    found: Series = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            labels = tuple(sorted((k, v) for k, v in sample.labels.items() if k != "worker"))
            found[(sample.name, labels)] = sample.value
    return found


def value(series: Series, name: str, **labels: str) -> float:
    return series.get((name, tuple(sorted(labels.items()))), 0.0)


def scrape(client: Any, token: str = SCRAPE) -> tuple[Series, str]:
    reply = client.get("/metrics", token=token)
    assert reply.status == 200, reply.raw[:300]
    assert reply.headers["Content-Type"].startswith("text/plain; version=0.0.4")
    text = reply.raw.decode()
    return parse(text), text


def test_closed_by_default_even_to_an_admin(server: Any) -> None:
    for role in ("admin", None):
        error = assert_error(server.client(role).get("/metrics"), 404, "METRICS_DISABLED")
        assert "TRIFORM_METRICS_TOKEN" in error["message"]


def test_only_its_own_token_opens_it(tmp_path: Path) -> None:
    with Home(tmp_path / "home", HashingEmbedder) as home:
        home.init("demo")
        admin = create_token(home.catalog, "demo", "admin", "admin")
        app = create_app({"EMBEDDER": "hashing", "METRICS_TOKEN": SCRAPE}, home=home)
        client = app.test_client()
        for header in ({}, {"Authorization": f"Bearer {admin}"},
                       {"Authorization": f"Bearer {SCRAPE}x"},
                       {"Authorization": f"Basic {SCRAPE}"}):
            reply = client.get("/metrics", headers=header)
            assert reply.status_code == 401, header
            assert reply.json["error"]["code"] == "METRICS_UNAUTHORIZED"
            assert reply.headers["WWW-Authenticate"].startswith("Bearer")
        assert client.get("/metrics", headers={
            "Authorization": f"Bearer {SCRAPE}"}).status_code == 200
        app.extensions["triform.mcp"].close()


@pytest.mark.parametrize("token", ["short", 12345678901234567890])
def test_a_weak_scrape_token_stops_the_start(tmp_path: Path, token: Any) -> None:
    with Home(tmp_path / "home", HashingEmbedder) as home, \
            pytest.raises(ValueError, match="METRICS_TOKEN must be text of at least 16"):
        create_app({"EMBEDDER": "hashing", "METRICS_TOKEN": token}, home=home)


def test_serve_with_a_weak_scrape_token_exits_2_with_one_line(tmp_path: Path) -> None:
    """A TRIFORM_METRICS_TOKEN too short for a scrape token is the operator's mistake: the
    start ends with exit 2 and one line saying so, not a traceback."""
    done = subprocess.run(
        [sys.executable, "-m", "api.cli", "--home", str(tmp_path / "home"), "--embedder",
         "hashing", "serve", "--port", "0", "--sweep-seconds", "0"],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
        env={**os.environ, "TRIFORM_METRICS_TOKEN": "short"})
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("triform: serve: TRIFORM_METRICS_TOKEN must be text of "
                                  "at least 16 characters")
    assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr
    assert "serving" not in done.stdout


def test_ops_are_named_from_the_registry_and_stay_a_bounded_set() -> None:
    assert classify("POST", "/api/demo/memory/ops/store") == ("store", "demo/memory")
    assert classify("POST", f"/api/demo/memory/ops/memories/{'a' * 32}/update").op == "update"
    assert classify("GET", f"/api/demo/memory/ops/memories/{'a' * 32}").op == "get"
    assert classify("GET", "/api/demo/ops/tree") == ("tree", "demo")
    assert classify("GET", "/api/demo/memory/ops/store").op == "store"   # a 405, named
    assert classify("GET", "/api/demo/memory/ops/no/such/op") == ("unknown", "demo/memory")
    assert classify("GET", "/api/../x/ops/stats") == ("stats", None)
    assert classify("POST", "/mcp/demo/bot") == ("mcp", "demo/bot")
    assert classify("GET", "/git/demo/memory.git/info/refs") == ("git", "demo/memory")
    assert classify("GET", "/console/demo") == ("console", None)
    assert classify("GET", "/api/events") == ("events", None)
    assert classify("GET", "/anything/else?x") == ("other", None)


def _stream_events(port: int, token: str) -> http.client.HTTPConnection:
    """An event stream, held open until the connection is closed."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("GET", "/api/events?keepalive=1", headers={
        "Authorization": f"Bearer {token}", "Accept": "text/event-stream"})
    assert conn.getresponse().status == 200
    return conn


def test_a_journey_moves_the_numbers_and_leaks_nothing(tmp_path: Path) -> None:
    served = Served(tmp_path / "home", args=("--log-format", "json"),
                    env={"TRIFORM_METRICS_TOKEN": SCRAPE, "TRIFORM_METRICS_WORKER": "w1"})
    served.start()
    try:
        _journey(served)
    finally:
        served.stop()
    _check_json_log(served)


SECRET_TEXT = "Ana keeps the spare key under the blue flowerpot"
SUBJECT = "ana-subject-7f3e"


def _journey(served: Served) -> None:
    admin = served.client()
    before, _ = scrape(admin)
    create(admin, "memory", "capped", max_memories=2)
    for i in range(3):
        assert admin.post("/api/demo/capped/ops/store", {
            "content": f"fact {i}", "category": "fact"}).status == 201
    assert admin.post("/api/demo/capped/ops/store_batch", {"memories": [
        {"content": "batch a", "category": "fact"},
        {"content": "batch b", "category": "fact"}]}).status == 201
    assert admin.post("/api/demo/memory/ops/store", {
        "content": SECRET_TEXT, "category": "fact", "subject_type": "guest",
        "subject_id": SUBJECT}).status == 201
    assert admin.post("/api/demo/memory/ops/search", {
        "query": "where is the key?", "subject_type": "guest",
        "subject_id": SUBJECT}).status == 200
    assert admin.get(f"/api/demo/memory/ops/memories/{'0' * 32}").status == 404
    assert admin.get("/api/demo/memory/ops/stats", token="tfm_wrong").status == 401
    assert admin.post("/mcp/demo/memory", {"jsonrpc": "2.0", "id": 1,
                                           "method": "tools/list"}, headers={
        "Accept": "application/json, text/event-stream"}).status == 200
    stream = _stream_events(served.port, admin.token or "")
    try:
        during, text = scrape(admin)
    finally:
        stream.close()
    assert value(during, "triform_sse_streams_open") == 1
    assert value(during, "triform_requests_in_flight", op="events") == 1
    for secret in (SECRET_TEXT, SUBJECT, "flowerpot", admin.token or "tfm_", SCRAPE):
        assert secret not in text
    assert set(re.findall(r'worker="([^"]*)"', text)) == {"w1"}

    def moved(name: str, **labels: str) -> float:
        return value(during, name, **labels) - value(before, name, **labels)

    assert moved("triform_requests_total", op="store", status="201") == 4
    assert moved("triform_requests_total", op="store_batch", status="201") == 1
    assert moved("triform_requests_total", op="search", status="200") == 1
    assert moved("triform_requests_total", op="get", status="404") == 1
    assert moved("triform_requests_total", op="stats", status="401") == 1
    assert moved("triform_requests_total", op="mcp", status="200") == 1
    assert moved("triform_requests_total", op="metrics", status="200") == 1   # the first
    assert moved("triform_request_duration_seconds_count", op="store") == 4
    assert moved("triform_request_duration_seconds_sum", op="store") > 0
    # Five memories into room for two: three evicted, counted once each.
    assert value(during, "triform_evictions_total", element="demo/capped") == 3
    assert value(during, "triform_memories", element="demo/capped") == 2
    assert value(during, "triform_memories", element="demo/memory") == 1
    assert value(during, "triform_memories_unembedded", element="demo/memory") == 0
    assert value(during, "triform_memory_stores_open") == 2
    assert moved("triform_model_batch_seconds_count") >= 2
    assert moved("triform_model_texts_total") >= 6
    assert value(during, "triform_model_load_seconds") > 0
    assert value(during, "process_resident_memory_bytes") > 0
    after, _ = scrape(admin)
    assert value(after, "triform_sse_streams_open") == 0 or _settles(admin)
    assert value(after, "triform_requests_total", op="metrics", status="200") == 2


def _settles(admin: Any) -> bool:
    """The server notices a closed stream at its next write: wait for it."""
    for _ in range(50):
        if value(scrape(admin)[0], "triform_sse_streams_open") == 0:
            return True
        time.sleep(0.1)
    return False


def _check_json_log(served: Served) -> None:
    lines = [line for line in served.log.splitlines() if line.strip()]
    records = [json.loads(line) for line in lines]    # every line is one JSON object
    access = [r for r in records if r["logger"] == "triform.access"]
    stores = [r for r in access if r["op"] == "store" and r["element"] == "demo/capped"]
    assert len(stores) == 3
    for record in stores:
        assert record["status"] == 201 and record["method"] == "POST"
        assert record["path"] == "/api/demo/capped/ops/store"
        assert re.fullmatch(r"[0-9a-f]{32}", record["request_id"])
        assert record["duration_ms"] > 0 and record["time"].endswith("Z")
    assert len({r["request_id"] for r in access}) == len(access)
    assert any(r["op"] == "stats" and r["status"] == 401 for r in access)
    log = "\n".join(lines)
    for secret in (SECRET_TEXT, SUBJECT, "flowerpot", served.token or "tfm_", SCRAPE,
                   "tfm_wrong"):
        assert secret not in log


def test_a_client_request_id_is_kept_and_answered(server: Any) -> None:
    client = server.client()
    reply = client.get("/healthz", headers={"X-Request-ID": "trace-42.a_b"})
    assert reply.headers["X-Request-ID"] == "trace-42.a_b"
    odd = client.get("/healthz", headers={"X-Request-ID": "no spaces\tor tabs"})
    assert re.fullmatch(r"[0-9a-f]{32}", odd.headers["X-Request-ID"])


def test_the_embedding_backlog_and_its_age(tmp_path: Path) -> None:
    model = Outage(64)
    with Home(tmp_path / "home", lambda: model) as home:
        memory = home.init("demo").memory
        app = create_app({"EMBEDDER": "hashing", "METRICS_TOKEN": SCRAPE}, home=home)
        client = app.test_client()

        def series() -> Series:
            reply = client.get("/metrics", headers={"Authorization": f"Bearer {SCRAPE}"})
            return parse(reply.get_data(as_text=True))

        model.failing = True
        with home.memory_store(memory) as store:
            for i in range(3):
                store.store(content=f"note {i}", category="fact", settings=MemorySettings())
        time.sleep(1.1)
        down = series()
        assert value(down, "triform_memories_unembedded", element="demo/memory") == 3
        age = value(down, "triform_oldest_unembedded_age_seconds", element="demo/memory")
        assert 1.0 <= age < 60
        model.failing = False
        with home.memory_store(memory) as store:
            assert store.repair_embeddings() == 3
        up = series()
        assert value(up, "triform_memories_unembedded", element="demo/memory") == 0
        assert value(up, "triform_oldest_unembedded_age_seconds", element="demo/memory") == 0
        app.extensions["triform.mcp"].close()


def test_each_worker_keeps_its_own_series(tmp_path: Path) -> None:
    """Two servers of one home in one process (as two workers would be): each counts what
    it served, under its own worker label (host:pid unless named)."""
    srv = serve(tmp_path / "home")
    try:
        other = create_app({"EMBEDDER": "hashing", "METRICS_TOKEN": SCRAPE}, home=srv.home)
        srv.app.config["METRICS_TOKEN"] = SCRAPE
        with running(other) as second:
            assert srv.client(live=True).post("/api/demo/memory/ops/store", {
                "content": "one", "category": "fact"}).status == 201
            first_text = srv.client().get("/metrics", token=SCRAPE).raw.decode()
            second_text = HttpClient("127.0.0.1", second.port).get(
                "/metrics", token=SCRAPE).raw.decode()
        other.extensions["triform.mcp"].close()
    finally:
        srv.close()
    assert value(parse(first_text), "triform_requests_total", op="store", status="201") == 1
    assert value(parse(second_text), "triform_requests_total", op="store", status="201") == 0
    workers = {w for t in (first_text, second_text) for w in re.findall(r'worker="([^"]+)"', t)}
    assert len(workers) == 1 and re.fullmatch(r".+:\d+", workers.pop())   # same process


def test_the_database_pool(tmp_path: Path, pg_server: Any) -> None:
    url = pg_server.create_database("metrics_pool")
    with Home(tmp_path / "home", HashingEmbedder, database=url) as home:
        home.init("demo")
        token = create_token(home.catalog, "demo", "admin", "admin")
        app = create_app({"EMBEDDER": "hashing", "METRICS_TOKEN": SCRAPE}, home=home)
        client = app.test_client()
        assert client.post("/api/demo/memory/ops/store", json={
            "content": "pooled", "category": "fact"},
            headers={"Authorization": f"Bearer {token}"}).status_code == 201
        found = parse(client.get("/metrics", headers={
            "Authorization": f"Bearer {SCRAPE}"}).get_data(as_text=True))
        app.extensions["triform.mcp"].close()
    assert value(found, "triform_db_pool_max") == 16
    assert value(found, "triform_db_pool_connections", state="idle") + \
        value(found, "triform_db_pool_connections", state="in_use") >= 1
    assert value(found, "triform_db_pool_requests_total") > 0
    assert value(found, "triform_memories", element="demo/memory") == 1


def test_evictions_and_expiries_count_from_the_activity_of_any_entry_point(
        server: Any) -> None:
    """The retention sweep records ``expire`` like the stats op does; an observe records
    its decisions' evictions: both are counted from the activity feed."""
    server.app.config["METRICS_TOKEN"] = SCRAPE
    memory = server.home.catalog.element_at("demo/memory")
    server.home.catalog.record_activity(memory, "expire", "retention-sweep",
                                        {"expired": ["a" * 32, "b" * 32]})
    server.home.catalog.record_activity(memory, "observe", "agent",
                                        {"decision": "add", "evicted": ["c" * 32]})
    found, _ = scrape(server.client())
    assert value(found, "triform_expired_memories_total", element="demo/memory") == 2
    assert value(found, "triform_evictions_total", element="demo/memory") == 1


def test_the_docs_list_every_series() -> None:
    documented = (ROOT / "docs" / "api.md").read_text()
    for name in ("triform_requests_total", "triform_request_duration_seconds",
                 "triform_requests_in_flight", "triform_evictions_total",
                 "triform_expired_memories_total", "triform_memories",
                 "triform_memories_unembedded", "triform_oldest_unembedded_age_seconds",
                 "triform_memory_stores_open", "triform_model_load_seconds",
                 "triform_model_batch_seconds", "triform_model_texts_total",
                 "triform_embed_cache_hits_total", "triform_embed_cache_misses_total",
                 "triform_db_pool_connections", "triform_db_pool_max",
                 "triform_db_pool_waiting", "triform_db_pool_requests_total",
                 "triform_db_pool_wait_seconds_total", "triform_db_pool_errors_total",
                 "triform_sse_streams_open", "triform_mcp_requests_in_flight"):
        assert f"`{name}`" in documented, name


def test_the_scraping_commands_of_deploy_md(tmp_path: Path) -> None:
    """docs/deploy.md's two blocks, as a reader runs them: the first starts a server with
    a fresh scrape token (the real model), the second scrapes it from the same folder."""
    reason = "needs a server started with its metrics token: tests/api/test_metrics.py " \
             "runs these commands against one"
    text = (ROOT / "docs" / "deploy.md").read_text()
    start, scrape_block = re.findall(f"<!-- not run: {re.escape(reason)} -->\n```sh\n(.*?)```",
                                     text, re.S)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {**os.environ, "TRIFORM_HOME": str(tmp_path / "home"),
           "PATH": f"{ROOT / '.venv' / 'bin'}:{os.environ['PATH']}"}
    server = subprocess.Popen(["bash", "-e", "-c", start.replace("8765", str(port))],
                              cwd=tmp_path, env=env, stdout=subprocess.PIPE, text=True,
                              start_new_session=True)
    try:
        assert server.stdout is not None
        for line in server.stdout:
            if line.startswith("serving "):
                break
        done = subprocess.run(["bash", "-e", "-o", "pipefail", "-c",
                               scrape_block.replace("8765", str(port))], cwd=tmp_path,
                              env=env, capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        assert "triform_memory_stores_open{" in done.stdout
        assert all(line.startswith("triform_") for line in done.stdout.splitlines())
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(60)
    log = [json.loads(line) for line in (tmp_path / "triform.log").read_text().splitlines()]
    assert any(r.get("op") == "metrics" and r.get("status") == 200 for r in log)
    config = yaml.safe_load(re.findall(r"```yaml\n(.*?)```", text, re.S)[-1])
    assert config["scrape_configs"][0]["authorization"]["credentials_file"]
