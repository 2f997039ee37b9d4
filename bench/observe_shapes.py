"""The shapes of what observe stored, against LoCoMo's facts: reads a ``--dump`` of
``observe_bench.py`` and counts its memories matched / stored at 0.6 by shape, so that a
class that matches worse than the whole shows (issue 23, item 4: "one fact per memory").

Classes: sentences per memory (1, 2, 3+); words; how it opens (the speaker's name, the
other person's, a pronoun, another word); whether it names the other person; how many of
LoCoMo's facts cite the turns it was made from (0, 1, 2+: a memory of a turn no fact cites
has no fact of its own to match).

With ``--split`` (loads MiniLM, the bench's yardstick): the dump's memories re-matched as
they would match split one memory per sentence ("every sentence"), and split only where a
sentence opens on the speaker's name (the rest staying with the sentence before it), with
the bench's own matching (``observe_bench.neutral``, ``greedy`` at 0.6); and the pieces'
matched / stored by their place in the memory. It estimates what writing a long episode
as several memories would do before building it.

Counts only: no memory or fact is printed, so a dump of held-out conversations may be read
the same way.

    .venv/bin/python bench/observe_shapes.py DUMP [--split]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

_PRONOUN = re.compile(r"^(?:it|its|they|them|their|he|she|his|her|this|that|these|those|"
                      r"there)\b", re.I)
_TURN = re.compile(r"D\d+:\d+")


def pieces(text: str) -> list[str]:
    """The sentences of a memory, split as the rules split a turn (not at "Dr.")."""
    from element.agents.sentences import split_sentences
    return list(split_sentences(text))


def _turns(value: Any) -> list[str]:
    return _TURN.findall(" ".join(value) if isinstance(value, list) else str(value or ""))


def classes(row: dict[str, Any], other: str, cited: int) -> dict[str, str]:
    """The classes of one memory row of a dump; ``other``: the other person's name,
    ``cited``: how many facts cite its turns."""
    text, who = row["text"], row["speaker"]
    n, words = len(pieces(text)), len(text.split())
    if text.startswith(who):
        opening = "the speaker's name"
    elif other and text.startswith(other):
        opening = "the other's name"
    elif _PRONOUN.match(text):
        opening = "a pronoun"
    else:
        opening = "another word"
    return {"sentences": "3+" if n >= 3 else str(n),
            "words": "<10" if words < 10 else "<20" if words < 20 else "<30" if words < 30
            else "30+",
            "opens on": opening,
            "names the other": "yes" if other and re.search(rf"\b{re.escape(other)}\b", text)
            else "no",
            "facts citing its turns": "2+" if cited >= 2 else str(cited)}


def profile(rows: list[dict[str, Any]]) -> dict[str, dict[str, list[int]]]:
    """Per class kind, per class: [matched, stored]."""
    people: dict[str, set[str]] = defaultdict(set)
    cited: dict[tuple[str, str], int] = defaultdict(int)
    for row in rows:
        people[row["conv"]].add(row["speaker"])
        if row["kind"] == "fact":
            for turn in set(_turns(row["turns"])):
                cited[(row["conv"], turn)] += 1
    out: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    for row in rows:
        if row["kind"] != "memory":
            continue
        others = sorted(people[row["conv"]] - {row["speaker"]})
        n = sum(cited[(row["conv"], t)] for t in set(_turns(row["turns"])))
        for kind, name in classes(row, others[0] if others else "", n).items():
            out[kind][name][0] += bool(row["matched"])
            out[kind][name][1] += 1
    return out


def every_sentence(text: str, who: str) -> list[str]:
    return pieces(text)


def at_the_speaker(text: str, who: str) -> list[str]:
    """Split where a sentence opens on the speaker's name; the others stay with the one
    before them."""
    out: list[str] = []
    for piece in pieces(text):
        if out and not piece.startswith(who):
            out[-1] += " " + piece
        else:
            out.append(piece)
    return out


def rematch(rows: list[dict[str, Any]], split: Callable[[str, str], list[str]],
            embed: Callable[[list[str]], Any]) -> tuple[int, int, int, dict[int, list[int]]]:
    """Facts matched, facts, memories, and per place in its memory [matched, stored] of
    the dump's memories split by ``split``, matched as ``observe_bench`` matches."""
    import numpy as np

    from bench.observe_bench import greedy, neutral

    people: dict[str, set[str]] = defaultdict(set)
    for row in rows:
        people[row["conv"]].add(row["speaker"])
    matched = n_facts = n_memories = 0
    place: dict[int, list[int]] = defaultdict(lambda: [0, 0])
    for conv in sorted(people):
        names = sorted(people[conv])
        for who in names:
            mine = [r for r in rows if r["conv"] == conv and r["speaker"] == who]
            facts = [r["text"] for r in mine if r["kind"] == "fact"]
            split_up = [(j, p) for r in mine if r["kind"] == "memory"
                        for j, p in enumerate(split(r["text"], who))]
            n_facts += len(facts)
            n_memories += len(split_up)
            if not facts or not split_up:
                continue
            fv = np.asarray(embed([neutral(f, names) for f in facts]), dtype=np.float32)
            mv = np.asarray(embed([neutral(p, names) for _, p in split_up]), dtype=np.float32)
            fv /= np.linalg.norm(fv, axis=1, keepdims=True)
            mv /= np.linalg.norm(mv, axis=1, keepdims=True)
            hit = {m for _, m in greedy(fv @ mv.T, 0.6)}
            matched += len(hit)
            for m, (j, _) in enumerate(split_up):
                place[min(j, 2)][0] += m in hit
                place[min(j, 2)][1] += 1
    return matched, n_facts, n_memories, place


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dump", type=Path, help="a file written by observe_bench.py --dump")
    parser.add_argument("--split", action="store_true",
                        help="also re-match the memories split at their sentences (MiniLM)")
    args = parser.parse_args()
    rows = json.loads(args.dump.read_text())
    memories = [r for r in rows if r["kind"] == "memory"]
    hit = sum(bool(r["matched"]) for r in memories)
    print(f"observe_shapes  {args.dump.name}: {len(memories)} memories, {hit} matched at 0.6"
          f" ({hit / max(1, len(memories)):.3f})")
    for kind, by_name in profile(rows).items():
        cells = ", ".join(f"{name} {m} / {n} ({m / n:.2f})"
                          for name, (m, n) in sorted(by_name.items()))
        print(f"  {kind}: {cells}")
    if not args.split:
        return
    from index import load_embedder
    model = load_embedder(log=lambda *a: None, lanes="minilm")
    for label, split in (("as stored", lambda t, w: [t]), ("every sentence", every_sentence),
                         ("at the speaker's name", at_the_speaker)):
        matched, n_facts, n_memories, place = rematch(rows, split, model.embed)
        where = ", ".join(f"{'3rd+' if j == 2 else ('1st', '2nd')[j]} {m} / {n}"
                          for j, (m, n) in sorted(place.items()))
        print(f"  split {label}: {n_memories} memories, recall {matched / max(1, n_facts):.3f}"
              f" precision {matched / max(1, n_memories):.3f} (pieces matched: {where})")


if __name__ == "__main__":
    main()
