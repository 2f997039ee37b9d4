"""How long the rules take to read turns shaped to make their patterns backtrack
(hardening; figures for docs/security.md). Side by side with another revision.

    .venv/bin/python bench/hostile_turns.py                  # this checkout
    .venv/bin/python bench/hostile_turns.py --before <rev>   # and <rev>, in a snapshot
    .venv/bin/python bench/hostile_turns.py --quick          # small turns (~seconds)

Each turn (one user turn of at most 16,000 characters, the most an observe takes) is
observed once, in-process, on a file store with the hashing embedder (the rules' cost is
the point, not the model's), in a process of its own per revision; a turn that takes
longer than ``--limit`` seconds is cut there and printed as ``> limit``. Prints each
turn's seconds for each revision and their ratio.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: The shapes (found by sweeping every pattern of element/ and index/ with repeated
#: units, and turns of them): an it-cleft's clauses, runs of marks, titles, one long
#: word, a long name, many sentences, emoji.
TURNS = {
    "clauses 'aaa, ' x 3200": ("aaa, ", 3200),
    "'?' x 16000": ("?", 16000),
    "'.' x 16000": (".", 16000),
    "'Dr. ' x 4000": ("Dr. ", 4000),
    "'x' x 16000": ("x", 16000),
    "'I live in ' + 'A' x 15990": ("A", 15990),
    "'I went to Rome. ' x 1000": ("I went to Rome. ", 1000),
    "emoji x 16000": ("\U0001f642", 16000),
}

_RUN = textwrap.dedent("""
    import json, sys, tempfile, time
    from pathlib import Path
    sys.path.insert(0, sys.argv[1])
    from element.agents.subconscious import Observation, RuleEvaluator, Turn, observe
    from index import HashingEmbedder, MemorySettings, MemoryStore
    name, text = json.loads(sys.stdin.read())
    with tempfile.TemporaryDirectory() as tmp, \\
            MemoryStore(Path(tmp) / "m", HashingEmbedder()) as store:
        obs = Observation((Turn("user", text),), ("guest", "ana"), subject_name="Ana")
        start = time.perf_counter()
        observe(store, MemorySettings(), obs, RuleEvaluator())
        print(time.perf_counter() - start)
""")


def text_of(name: str, quick: bool) -> str:
    unit, times = TURNS[name]
    if quick:
        times = max(1, times // 40)
    return ("I live in " if unit == "A" else "") + unit * times


def seconds(checkout: Path, name: str, text: str, limit: float) -> float | None:
    """One turn observed in a process of its own on ``checkout``'s code (None: cut at
    ``limit``)."""
    try:
        done = subprocess.run([sys.executable, "-c", _RUN, str(checkout)],
                              input=json.dumps([name, text[:16000]]), capture_output=True,
                              text=True, timeout=limit + 30, cwd=checkout)
    except subprocess.TimeoutExpired:
        return None
    if done.returncode != 0:
        raise SystemExit(f"{name}: {done.stderr[-1500:]}")
    took = float(done.stdout.split()[-1])
    return None if took > limit else took


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", help="a revision to time beside this checkout")
    parser.add_argument("--quick", action="store_true", help="turns 40 times smaller")
    parser.add_argument("--limit", type=float, default=60.0, help="seconds per turn at most")
    args = parser.parse_args()
    sides: list[tuple[str, Path]] = [("this checkout", ROOT)]
    snapshot = None
    if args.before:
        snapshot = Path(tempfile.mkdtemp(prefix="hostile-")) / "before"
        subprocess.run(["git", "worktree", "add", "-q", "--detach", str(snapshot),
                        args.before], cwd=ROOT, check=True)
        sides.insert(0, (args.before, snapshot))
    try:
        print("| turn | " + " | ".join(label for label, _ in sides) +
              (" | ratio |" if len(sides) == 2 else " |"))
        print("|---" * (len(sides) + 1 + (len(sides) == 2)) + "|")
        for name in TURNS:
            text = text_of(name, args.quick)
            took = [seconds(path, name, text, args.limit) for _, path in sides]
            cells = [f"{t:.2f} s" if t is not None else f"> {args.limit:.0f} s" for t in took]
            ratio = ""
            if len(took) == 2:
                before, after = took
                # (a turn cut at the limit took longer: its ratio is a floor, ">")
                ratio = f" | {'>' if before is None else ''}" \
                    f"{(before or args.limit) / max(after or args.limit, 0.01):.0f}x"
            print(f"| {name} | " + " | ".join(cells) + ratio + " |", flush=True)
    finally:
        if snapshot is not None:
            subprocess.run(["git", "worktree", "remove", "--force", str(snapshot)], cwd=ROOT)
    return 0


if __name__ == "__main__":
    sys.exit(main())
