"""What a ``triform memory`` command costs a person at a terminal, in-process (stopped
home) and through a running server (served home), measured side by side in one run.

Each mode runs ``store``, ``search``, ``list`` and ``--help`` as subprocesses,
``--rounds`` times, on a fresh home with the hashing embedder (the model's cost is the
server's, not the command's), and prints the median and the best wall time per command.
The served mode's server is ``triform serve`` itself, started once. Usage::

    .venv/bin/python bench/cli_bench.py [--rounds 9]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COMMANDS = {
    "store": ["memory", "store", "demo/memory", "--content", "Ben lives in Lyon",
              "--category", "fact"],
    "search": ["memory", "search", "demo/memory", "where does Ben live?"],
    "list": ["memory", "list", "demo/memory", "--limit", "5"],
    "help": ["--help"],
}


def triform(home: Path, args: list[str], env: dict[str, str]) -> float:
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "api.cli", "--home", str(home),
                           "--embedder", "hashing", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    elapsed = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"triform {' '.join(args)} failed: {done.stderr}")
    return elapsed


def measure(home: Path, rounds: int, env: dict[str, str]) -> dict[str, list[float]]:
    return {name: [triform(home, args, env) for _ in range(rounds)]
            for name, args in COMMANDS.items()}


def serve(home: Path) -> tuple[subprocess.Popen[str], str]:
    process = subprocess.Popen([sys.executable, "-m", "api.cli", "--home", str(home),
                                "--embedder", "hashing", "serve", "--port", "0",
                                "--sweep-seconds", "0"], cwd=ROOT, stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, text=True)
    token = ""
    assert process.stdout is not None
    for line in process.stdout:
        if line.strip().startswith("tfm_"):
            token = line.strip()
        if line.startswith("serving "):
            break
    threading.Thread(target=process.stdout.read, daemon=True).start()
    return process, token


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=9, help="runs per command and mode")
    args = parser.parse_args()
    print(f"cli_bench: {args.rounds} rounds, load average {os.getloadavg()[0]:.2f}, "
          f"{os.cpu_count()} cores")
    with tempfile.TemporaryDirectory() as scratch:
        stopped = Path(scratch) / "stopped"
        subprocess.run([sys.executable, "-m", "api.cli", "--home", str(stopped), "init"],
                       cwd=ROOT, capture_output=True, check=True)
        local = measure(stopped, args.rounds, dict(os.environ))
        served_home = Path(scratch) / "served"
        process, token = serve(served_home)
        try:
            remote = measure(served_home, args.rounds, {**os.environ, "TRIFORM_TOKEN": token})
        finally:
            process.terminate()
            process.wait(60)
    print(f"{'command':<8} {'in-process median':>18} {'best':>8} {'served median':>15} "
          f"{'best':>8} {'ratio':>6}")
    for name in COMMANDS:
        a, b = statistics.median(local[name]), statistics.median(remote[name])
        print(f"{name:<8} {a * 1000:>15.0f} ms {min(local[name]) * 1000:>5.0f} ms "
              f"{b * 1000:>12.0f} ms {min(remote[name]) * 1000:>5.0f} ms {b / a:>6.2f}")
    print(f"load average at the end {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
