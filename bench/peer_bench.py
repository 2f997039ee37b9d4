"""Bulk ingest beside Chroma: ``store_batch`` over HTTP against Chroma's ``add``, same model.

    .venv/bin/python bench/peer_bench.py                  # 4 rounds of 2 batches of 256
    .venv/bin/python bench/peer_bench.py --rounds 2 --no-chroma

Memories are LoCoMo turns (``"<speaker>: <text>"``, content lane only, the dev split of
``shared/eval``), new texts each round. Each round, alternating so the machine's drift hits
all alike, the same batches go to:

- **triform**: ``POST .../ops/store_batch`` of 256 memories to ``triform serve``'s app on
  waitress (8 threads) in a process of its own, over a home of this tree with the real model
  (``index.load_embedder``: by default MiniLM's same weights in INT8 for content;
  ``TRIFORM_LANE_MODELS=minilm,static,static`` for float32, Chroma's precision);
- **chroma**: ``collection.add(ids, documents)`` of the same 256 texts to a Chroma
  ``PersistentClient`` in a process of its own, its embedding function fastembed 0.9.1 over
  the same provisioned all-MiniLM-L6-v2 folder (what a Chroma user with this model writes:
  ``list(TextEmbedding(...).embed(texts))``). Chroma lives in a throwaway venv
  ``bench/out/peer-venv`` that this script makes once (``chromadb==1.5.9``, pinned);
- **model alone**: the runtime's embedder on the same texts in this process (the ceiling).

Prints memories/s per system per round, the medians and the ratios.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

OUT = ROOT / "bench" / "out"
PEER_VENV = OUT / "peer-venv"
PEER_PACKAGES = ("chromadb==1.5.9", "fastembed==0.9.1", "onnxruntime==1.32.0")
DATA = ROOT.parent / "shared" / "eval" / "locomo-dev.json"
CIRCLE = "bench"
BATCH = 256

CHROMA_CHILD = r'''
import json, sys, time
import chromadb
from chromadb.api.types import EmbeddingFunction
from fastembed import TextEmbedding

class MiniLM(EmbeddingFunction):
    def __init__(self, path):
        self.model = TextEmbedding("sentence-transformers/all-MiniLM-L6-v2", cache_dir=path,
                                   local_files_only=True, specific_model_path=path)
    def __call__(self, input):
        return [v for v in self.model.embed(list(input))]
    @staticmethod
    def name():
        return "bench-minilm"

client = chromadb.PersistentClient(path=sys.argv[1])
ef = MiniLM(sys.argv[2])
coll = client.create_collection("bench", embedding_function=ef,
                                configuration={"hnsw": {"space": "cosine"}})
ef(["warm up"])
print(json.dumps({"ready": True}), flush=True)
for line in sys.stdin:
    batch = json.loads(line)
    started = time.perf_counter()
    coll.add(ids=[b["id"] for b in batch], documents=[b["text"] for b in batch])
    print(json.dumps({"seconds": time.perf_counter() - started}), flush=True)
'''


def peer_python() -> Path:
    """The throwaway venv's interpreter, made once (pip takes a few minutes)."""
    python = PEER_VENV / "bin" / "python"
    if not (PEER_VENV / ".installed").exists():
        shutil.rmtree(PEER_VENV, ignore_errors=True)
        print(f"making {PEER_VENV} ({' '.join(PEER_PACKAGES)})", flush=True)
        subprocess.run([sys.executable, "-m", "venv", str(PEER_VENV)], check=True)
        subprocess.run([str(python), "-m", "pip", "install", "-q", *PEER_PACKAGES], check=True)
        (PEER_VENV / ".installed").write_text("")
    return python


def turns(n: int, data: Path = DATA) -> list[str]:
    """The first ``n`` LoCoMo dev turns as memory contents."""
    out = []
    for sample in json.loads(data.read_text()):
        conv = sample["conversation"]
        for key in sorted(k for k in conv if k.startswith("session_") and
                          not k.endswith("date_time")):
            for turn in conv[key]:
                out.append(f"{turn['speaker']}: {turn['text']}")
    if len(out) < n:
        raise SystemExit(f"only {len(out)} turns in {data}")
    return out[:n]


def serve(home: Any, wrap: Any = None) -> None:
    """Serve ``home`` as ``triform serve`` does (its server, 8 threads) on a free port, printed
    as a JSON line, until SIGTERM; its memory element opened first. ``wrap``: a function of
    the WSGI app that returns the app to serve (``bench/stages.py``'s timers)."""
    from api.app import create_app
    from api.server import make_server
    with home.memory_store(home.catalog.element_at(f"{CIRCLE}/memory")):
        pass
    app = create_app({"ENV": "draft"}, home=home)
    server = make_server(wrap(app) if wrap else app, host="127.0.0.1", port=0, threads=8)
    print(json.dumps({"port": server.effective_port}), flush=True)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    try:
        server.run()
    finally:
        home.close()


def _child_serve(argv: list[str]) -> None:
    """``_serve <home>``: serve the home (this tree, the real model)."""
    from element import Home
    from index import load_embedder
    home = Home(Path(argv[0]), lambda: load_embedder(log=lambda *_: None))
    home.embedder.embed(["warm up"])
    serve(home)


def make_home(path: Path, properties: dict[str, Any] | None = None) -> str:
    """A home with the memory element ``bench/memory``; returns an admin token."""
    from element import Home, create_token
    from index import HashingEmbedder
    home = Home(path, HashingEmbedder)
    root = home.create_element(circle=CIRCLE, element_type_name="circle", slug=None)
    home.create_element(circle=CIRCLE, element_type_name="memory", slug="memory", parent=root,
                        properties=properties or {"max_memories": 10_000_000})
    token = create_token(home.catalog, CIRCLE, "admin", "bench")
    home.close()
    return token


class Child:
    def __init__(self, cmd: list[str], **kw: Any) -> None:
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True, **kw)
        line = self.proc.stdout.readline() if self.proc.stdout else ""
        if not line:
            err = self.proc.stderr.read()[-3000:] if self.proc.stderr else ""
            raise RuntimeError(f"{cmd[:3]} did not start: {err}")
        self.ready = json.loads(line)

    def stop(self) -> None:
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--batches", type=int, default=2, help="batches per round")
    parser.add_argument("--batch", type=int, default=BATCH, help="memories per batch")
    parser.add_argument("--no-chroma", action="store_true")
    parser.add_argument("--data", type=Path, default=DATA,
                        help="the LoCoMo dev split (default: ../shared/eval/locomo-dev.json)")
    args = parser.parse_args()
    import http.client

    from index import load_embedder
    from index.provision import provision_model
    size = args.batch
    texts = turns(args.rounds * args.batches * size, args.data)
    work = Path(tempfile.mkdtemp(prefix="triform-peer-"))
    children: list[Child] = []
    try:
        token = make_home(work / "home")
        ours = Child([sys.executable, str(Path(__file__).resolve()), "_serve",
                      str(work / "home")], cwd=ROOT)
        children.append(ours)
        headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
        chroma = None
        if not args.no_chroma:
            chroma = Child([str(peer_python()), "-c", CHROMA_CHILD, str(work / "chroma"),
                            str(provision_model(log=lambda *_: None))])
            children.append(chroma)
        model = load_embedder(log=lambda *_: None)
        model.embed(["warm up"])
        rates: dict[str, list[float]] = {"triform": [], "chroma": [], "model alone": []}
        print(f"# peer_bench: {args.rounds} rounds x {args.batches} batches of {size} "
              f"LoCoMo turns, content only; load average {os.getloadavg()[0]:.1f}")
        for r in range(args.rounds):
            chunk = texts[r * args.batches * size:(r + 1) * args.batches * size]
            batches = [chunk[i:i + size] for i in range(0, len(chunk), size)]
            order = ["triform", "chroma", "model alone"] if r % 2 == 0 else \
                ["model alone", "chroma", "triform"]
            for system in order:
                seconds = 0.0
                for b, batch in enumerate(batches):
                    if system == "triform":
                        body = json.dumps({"memories": [{"content": t, "category": "context"}
                                                        for t in batch]}).encode()
                        # A connection per batch: waitress closes one idle for 120 s, as
                        # it may be while the others run on a loaded machine.
                        conn = http.client.HTTPConnection("127.0.0.1", ours.ready["port"],
                                                          timeout=600)
                        started = time.perf_counter()
                        conn.request("POST", f"/api/{CIRCLE}/memory/ops/store_batch",
                                     body=body, headers=headers)
                        resp = conn.getresponse()
                        raw = resp.read()
                        seconds += time.perf_counter() - started
                        conn.close()
                        if resp.status != 201:
                            raise RuntimeError(f"store_batch: {resp.status} {raw[:300]!r}")
                    elif system == "chroma" and chroma is not None:
                        assert chroma.proc.stdin and chroma.proc.stdout
                        chroma.proc.stdin.write(json.dumps(
                            [{"id": f"{r}-{b}-{i}", "text": t}
                             for i, t in enumerate(batch)]) + "\n")
                        chroma.proc.stdin.flush()
                        seconds += json.loads(chroma.proc.stdout.readline())["seconds"]
                    elif system == "model alone":
                        started = time.perf_counter()
                        model.embed(batch)
                        seconds += time.perf_counter() - started
                if seconds:
                    rates[system].append(len(chunk) / seconds)
            print(f"round {r + 1}: " + ", ".join(f"{s} {v[-1]:.0f}" for s, v in rates.items()
                                                 if v) + " memories/s", flush=True)
        med = {s: statistics.median(v) for s, v in rates.items() if v}
        print("median memories/s: " + ", ".join(f"{s} {v:.0f}" for s, v in med.items()))
        if "chroma" in med:
            print(f"triform / chroma: {med['triform'] / med['chroma']:.2f}x")
        print(f"triform / model alone: {med['triform'] / med['model alone']:.2f}x; "
              f"load average {os.getloadavg()[0]:.1f}")
    finally:
        for child in children:
            child.stop()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "_serve":
        _child_serve(sys.argv[2:])
    else:
        main()
