"""What the MCP HTTP bridge costs: one tool call three ways, interleaved, on waitress.

    .venv/bin/python bench/mcp_bench.py [--calls 300]

Each round calls ``memory_search`` once through each path, in turn, on one server
(waitress on 127.0.0.1, a fresh home, the hashing embedder, 200 memories):

- ``ops``: ``POST /api/demo/bot/ops/tools/call`` (plain HTTP, the op directly);
- ``mcp-raw``: ``POST /mcp/demo/bot`` with the JSON-RPC message, read as JSON (the bridge:
  the admission, a2wsgi, the SDK's stateless transport, the same op);
- ``mcp-sdk``: the SDK's own client (``mcp.Client``) over streamable HTTP, one session.

Prints the median and 90th percentile of each, and the ratios to ``ops``.
"""

from __future__ import annotations

import argparse
import http.client
import json
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import anyio
import httpx2
import waitress
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.helpers import serve


def post(port: int, path: str, body: Any, token: str) -> Any:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("POST", path, body=json.dumps(body), headers={
            "Authorization": f"Bearer {token}", "Content-Type": "application/json",
            "Accept": "application/json, text/event-stream"})
        response = conn.getresponse()
        payload = json.loads(response.read())
        assert response.status == 200, payload
        return payload
    finally:
        conn.close()


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--calls", type=int, default=300)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        server = serve(Path(tmp) / "home")
        admin = server.client()
        admin.post("/api/demo/memory/ops/spec_update", {"properties": {
            "conscious_access": "read_write"}})
        admin.post("/api/demo/ops/create", {"element_type": "triformer", "slug": "bot",
                                            "properties": {"subconscious": {"memory": {
                                                "element": "memory"}}}})
        for i in range(200):
            admin.post("/api/demo/memory/ops/store", {"content": f"fact number {i}",
                                                      "category": "fact"})
        wsgi = waitress.create_server(server.app, host="127.0.0.1", port=0, threads=4)
        port = wsgi.effective_port  # type: ignore[union-attr]
        thread = threading.Thread(target=wsgi.run, daemon=True)
        thread.start()
        token = server.tokens["member"]
        arguments = {"query": "fact number 7"}
        times: dict[str, list[float]] = {"ops": [], "mcp-raw": [], "mcp-sdk": []}

        async def run() -> None:
            headers = {"Authorization": f"Bearer {token}"}
            async with httpx2.AsyncClient(headers=headers, timeout=30) as http, \
                    Client(streamable_http_client(f"http://127.0.0.1:{port}/mcp/demo/bot",
                                                  http_client=http), mode="legacy") as sdk:
                for n in range(args.calls):
                    started = time.perf_counter()
                    post(port, "/api/demo/bot/ops/tools/call",
                         {"name": "memory_search", "arguments": arguments}, token)
                    times["ops"].append(time.perf_counter() - started)
                    started = time.perf_counter()
                    post(port, "/mcp/demo/bot", {"jsonrpc": "2.0", "id": n,
                                                  "method": "tools/call", "params": {
                                                      "name": "memory_search",
                                                      "arguments": arguments}}, token)
                    times["mcp-raw"].append(time.perf_counter() - started)
                    started = time.perf_counter()
                    result = await sdk.call_tool("memory_search", arguments)
                    times["mcp-sdk"].append(time.perf_counter() - started)
                    assert not result.is_error

        try:
            anyio.run(run)
        finally:
            wsgi.close()
            thread.join(10)
            server.close()
    base = statistics.median(times["ops"])
    print(f"memory_search, {args.calls} calls each, interleaved, waitress on 127.0.0.1")
    for name, values in times.items():
        values.sort()
        median = statistics.median(values)
        p90 = values[int(len(values) * 0.9) - 1]
        print(f"  {name:8s} median {median * 1000:6.2f} ms   p90 {p90 * 1000:6.2f} ms   "
              f"x{median / base:4.2f} of ops")
    return 0


if __name__ == "__main__":
    sys.exit(main())
