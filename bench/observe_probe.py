"""What the subconscious stores of one turn (issue 23, "not stored"): a probe of written
first-person news in varied grammar and of turns that should store nothing.

Each item of ``bench/data/observe-probe.yaml`` is one user turn, observed over HTTP by a
real ``triform serve`` (a fresh home, the default rule evaluator; ``updates_bench``'s
server) on a subject of its own, so nothing said before weighs on it. A news item counts
as stored when a memory the observe wrote holds its fact (the item's pattern,
case-insensitive); a "nothing" item counts as kept quiet when the observe wrote nothing.
Half ``a`` is read (its items are printed); half ``b`` is held out: counts only.

    .venv/bin/python bench/observe_probe.py [--cases bench/data/observe-probe.yaml]
        [--embedder hashing]
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.updates_bench import MEMORY, Server  # noqa: E402

CASES = ROOT / "bench" / "data" / "observe-probe.yaml"
WHEN = datetime(2024, 3, 4, 10, 0, tzinfo=UTC)
WRITES = ("add", "update", "supersede")


def written(server: Server, item: dict[str, Any]) -> list[str]:
    """The contents the observe of the item's turn wrote."""
    answer = server.call("POST", f"{MEMORY}/observe", {
        "turns": [{"role": "user", "content": item["said"]}],
        "subject_type": "guest", "subject_id": f"probe-{item['id']}",
        "subject_name": "Robin", "conversation_id": f"probe-{item['id']}",
        "session_date": WHEN.strftime("%Y-%m-%dT%H:%M:%SZ")})
    return [d.get("content", "") for d in answer["decisions"] if d["action"] in WRITES]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=Path, default=CASES)
    parser.add_argument("--embedder", choices=("hashing",),
                        help="serve with the hashing embedder (the rules decide alone)")
    args = parser.parse_args()
    data = yaml.safe_load(args.cases.read_text())
    counts: dict[tuple[str, str], list[bool]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        server = Server(Path(tmp) / "home", args.embedder)
        try:
            for kind in ("news", "nothing"):
                for item in data[kind]:
                    wrote = written(server, item)
                    ok = any(re.search(item["fact"], w, re.I) for w in wrote) \
                        if kind == "news" else not wrote
                    counts.setdefault((kind, item["half"]), []).append(ok)
                    if item["half"] == "a":
                        mark = "ok  " if ok else "MISS"
                        print(f"{mark} {kind:7} {item['said']!r} -> {wrote}")
        finally:
            server.stop()
    print()
    for half in ("a", "b"):
        news, quiet = counts.get(("news", half), []), counts.get(("nothing", half), [])
        print(f"half {half}: news stored {sum(news)}/{len(news)}, "
              f"nothing kept quiet {sum(quiet)}/{len(quiet)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
