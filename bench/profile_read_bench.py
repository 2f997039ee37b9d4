"""What the profile bank reads of an update's two memories (issue 23): counts only.

Every update finder and recall's ordering asks the profile bank (``index/profile_bank.py``)
which attribute of a person a text answers. For each case of ``bench/updates_bench.py``
dumps (``--dump``, one JSON line a case: its decisions, its current memories), the old
statement's memory and the newer one's are read twice, as each layer reads them:

- **observe** (``element/agents/profile.py``, :func:`profiles`): the texts with the
  subject's name and the words of change and time stripped;
- **recall** (``index/asked.py`` / ``recency.answering``): the memory's whole content
  vector, the subject's name in it, read by :func:`index.read_memory` when the bank has one.

An update is read *together* when both answer best the same single-valued attribute,
clearly (``ANSWERS_MIN``, ``ANSWERS_MARGIN``), and *with room* when both do so by
:data:`ROOM` above ``ANSWERS_MIN``; a control is read *apart* when not together (other
attributes, a many-valued one, or none clearly). Recall reads a value of an attribute
when it answers it ``recency.ANSWERS_Z`` above its mean answer and best of the bank.

    .venv/bin/python bench/profile_read_bench.py --collect /tmp/dumps   # ~5 min: runs
        updates_bench --dump over the read sets and every half a
    .venv/bin/python bench/profile_read_bench.py /tmp/dumps [--show]   # seconds
    .venv/bin/python bench/profile_read_bench.py --probe bench/data/profile-probe.yaml [--show]
    .venv/bin/python bench/profile_read_bench.py --pairs      # seconds

``--pairs``: every update and control of the read sets and halves a (their yaml, no
server), its old and newer statement told in the third person as a memory says them
(``episodes.tell``): updates read together, controls read apart (not another's), as
observe reads them; seconds.

``--probe``: ordinary first-person statements, each with the attribute a person would say
it answers (or ``none``), told in the third person as a memory says them
(``episodes.tell``) and read as observe reads them: the top attribute *right and clear*,
*right* but not clear, or *wrong* (another attribute read clearly; for ``none``, any
attribute read clearly).

Only read sets are collected (never a blind set nor a half b); ``--show`` lists the
cases read wrongly, for tuning on read sets.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from element.agents.holders import same_holder  # noqa: E402
from element.agents.profile import ANSWERS_MIN, profiles, whose  # noqa: E402
from element.agents.updates import first_person  # noqa: E402
from index import ATTRIBUTES, load_embedder  # noqa: E402
from index.embed import Embedder, embed_for_lanes, normalize_rows  # noqa: E402
from index.profile_bank import attribute_scores, question_vectors  # noqa: E402
from index.recency import ANSWERS_Z  # noqa: E402

#: How far above ``ANSWERS_MIN`` both readings must be to count as read with room.
ROOM = 0.03
#: The read sets (anyone may read them), and every half a.
READ = ("updates updates-dev2 updates-fresh updates-fresh2 updates-fresh3 updates-fresh4 "
        "updates-fresh5 updates-fresh6 updates-fresh8 updates-fresh12 updates-fresh13").split()
DATA = ROOT / "bench" / "data"


def read_sets() -> list[str]:
    halves = sorted((p.stem for p in DATA.glob("updates-fresh*a.yaml")
                     if re.fullmatch(r"updates-fresh\d+a", p.stem)),
                    key=lambda s: int(re.sub(r"\D", "", s)))
    return READ + halves


def collect(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for name in read_sets():
        subprocess.run([sys.executable, str(ROOT / "bench" / "updates_bench.py"), "--cases",
                        str(DATA / f"{name}.yaml"), "--split", "all", "--dump",
                        str(out / f"{name}.jsonl")], stdout=subprocess.DEVNULL, check=True)


def memories(line: dict[str, Any]) -> tuple[str | None, str | None]:
    """The old statement's memory and the newer one's: the first stored content holding
    the old value (and not the new), the last holding the new one."""
    case = line["case"]
    old = re.compile(case["old"], re.I)
    new = re.compile(case["new"], re.I)
    stored = [d.get("content") or "" for d in line["decisions"]
              if d.get("action") in ("add", "update", "supersede", "correct")]
    stored += line["result"].get("kept", [])
    olds = [c for c in stored if old.search(c) and not new.search(c)]
    news = [c for c in stored if new.search(c) and not old.search(c)]
    return (olds[0] if olds else None), (news[-1] if news else None)


def _holder(content: str, who: str) -> str:
    """Whose fact a memory's first sentence tells (``profile.whose``)."""
    said = first_person(content, who)
    return whose(said[0]) if said else ""


def observe_read(texts: list[str], who: str, embedder: Embedder) -> list[tuple[int, float, bool]]:
    """Each text's best attribute, its answer, and whether it answers it clearly, as
    ``profile.profiles`` reads it."""
    read = profiles(texts, who, embedder)
    out = []
    for p in read:
        assert p.scores is not None
        best = int(np.argmax(p.scores))
        out.append((best, float(p.scores[best]), p.attribute is not None))
    return out


def recall_read(texts: list[str], embedder: Embedder, questions: np.ndarray,
                who: str = "") -> list[tuple[int, float]]:
    """Each whole memory's best attribute and its z above the mean answer, as recall
    reads a stored content vector."""
    vectors = normalize_rows(embed_for_lanes(embedder, ["content"] * len(texts), texts))
    rows = attribute_scores(vectors, questions)
    out = []
    for row in rows:
        best = int(row.argmax())
        out.append((best, float((row[best] - row.mean()) / max(row.std(), 1e-6))))
    return out


def measure(folder: Path, show: bool) -> None:
    embedder = load_embedder(log=lambda _: None)
    questions = question_vectors(embedder)
    counts: Counter[str] = Counter()
    why: Counter[str] = Counter()
    shown: list[str] = []
    for path in sorted(folder.glob("*.jsonl")):
        if not re.fullmatch(r"updates(-dev2|-fresh\d*a?)?", path.stem) or \
                path.stem in ("updates-fresh7", "updates-fresh9", "updates-fresh10",
                              "updates-fresh11"):
            continue    # never a blind set nor a half b
        for raw in path.read_text().splitlines():
            line = json.loads(raw)
            case = line["case"]
            if case["kind"] not in ("update", "control") or not case.get("new"):
                continue
            kind = case["kind"]
            old, new = memories(line)
            counts[f"{kind} cases"] += 1
            if old is None or new is None:
                counts[f"{kind} not stored"] += 1
                continue
            counts[f"{kind} read"] += 1
            (ob, os_, oc), (nb, ns, nc) = observe_read([old, new], case["name"], embedder)
            together = oc and nc and ob == nb and ATTRIBUTES[ob].single
            room = together and min(os_, ns) >= ANSWERS_MIN + ROOM
            (rb, rz), (qb, qz) = recall_read([old, new], embedder, questions, case["name"])
            recalled = rb == qb and ATTRIBUTES[rb].single and min(rz, qz) >= ANSWERS_Z
            if kind == "update":
                counts["update together (observe)"] += together
                counts["update with room (observe)"] += room
                counts["update together (recall)"] += recalled
                if not together:
                    reason = ("old unclear" if not oc else "new unclear" if not nc else
                              "two attributes" if ob != nb else "many-valued")
                    why[reason] += 1
                    shown.append(f"  {case['id']}: {reason}: old {old!r} "
                                 f"{ATTRIBUTES[ob].name} {os_:.2f} | new {new!r} "
                                 f"{ATTRIBUTES[nb].name} {ns:.2f} | recall "
                                 f"{ATTRIBUTES[rb].name} {rz:.1f} / {ATTRIBUTES[qb].name} "
                                 f"{qz:.1f}")
            elif not same_holder(_holder(old, case["name"]), _holder(new, case["name"])):
                counts["control another's"] += 1     # the holder guard's, not the bank's
            else:
                counts["control apart (observe)"] += not together
                counts["control apart (recall)"] += not recalled
                if together:
                    shown.append(f"  {case['id']}: control read together: {old!r} / {new!r} "
                                 f"{ATTRIBUTES[ob].name} {os_:.2f} {ns:.2f}")
    u, c = counts["update read"], counts["control read"]
    print(f"updates {counts['update cases']} (both stored {u}): together (observe) "
          f"{counts['update together (observe)']}/{u}, with room "
          f"{counts['update with room (observe)']}/{u}, together (recall) "
          f"{counts['update together (recall)']}/{u}")
    others = counts["control another's"]
    c -= others
    print(f"controls {counts['control cases']} (both stored "
          f"{counts['control read']}, another's {others}): apart "
          f"(observe) {counts['control apart (observe)']}/{c}, apart (recall) "
          f"{counts['control apart (recall)']}/{c}")
    print("updates not together, why: " + ", ".join(f"{k} {n}" for k, n in why.most_common()))
    if show:
        print("\n".join(shown))


def probe(path: Path, show: bool) -> None:
    """The bank's reading of a probe list (module doc, ``--probe``): counts, and with
    ``show`` every statement not read right and clear."""
    import yaml

    from element.agents.episodes import tell
    rows = yaml.safe_load(path.read_text())["statements"]
    who = "Sam"
    told = [tell(text, who) or text for text, _ in rows]
    embedder = load_embedder(log=lambda _: None)
    read = profiles(told, who, embedder)
    counts: Counter[str] = Counter()
    shown = []
    for (_, meant), said, p in zip(rows, told, read, strict=True):
        assert p.scores is not None
        order = np.argsort(-p.scores)
        best = ATTRIBUTES[int(order[0])].name
        clear = p.attribute is not None
        if meant == "none":
            verdict = "wrong" if clear else "right and clear"
        else:
            verdict = ("right and clear" if best == meant and clear else
                       "right" if best == meant else "wrong" if clear else "unclear")
        counts[verdict] += 1
        if verdict != "right and clear":
            second = ATTRIBUTES[int(order[1])].name
            shown.append(f"  {verdict:6} {said!r} meant {meant}: {best} "
                         f"{p.scores[order[0]]:.2f}, {second} {p.scores[order[1]]:.2f}")
    print(f"probe {len(rows)}: right and clear {counts['right and clear']}, right (unclear) "
          f"{counts['right']}, unclear {counts['unclear']}, wrong {counts['wrong']}")
    if show:
        print("\n".join(shown))


def _last_said(said: Any) -> str:
    """A case's statement: its text, or the user's last turn of a conversation."""
    if isinstance(said, list):
        said = said[-1] if said else ""
    if isinstance(said, dict):
        said = said.get("user") or ""
    return said if isinstance(said, str) else ""


def pairs() -> None:
    """The bank's reading of the read sets' and halves a's statement pairs (``--pairs``)."""
    import yaml

    from element.agents.episodes import tell
    embedder = load_embedder(log=lambda _: None)
    counts: Counter[str] = Counter()
    for name in read_sets():
        for case in yaml.safe_load((DATA / f"{name}.yaml").read_text())["cases"]:
            kind, who = case.get("kind"), case.get("name", "")
            before, after = _last_said(case.get("before")), _last_said(case.get("after"))
            if kind not in ("update", "control") or not before or not after:
                continue
            old, new = tell(before, who) or before, tell(after, who) or after
            if kind == "control" and not same_holder(whose(before), whose(after)):
                continue    # another's: the holder guard's, not the bank's
            o, n = profiles([old, new], who, embedder)
            together = o.attribute is not None and o.attribute is n.attribute and \
                o.attribute.single
            counts[kind] += 1
            counts[f"{kind} together"] += together
    print(f"pairs: updates read together {counts['update together']}/{counts['update']}, "
          f"controls read together {counts['control together']}/{counts['control']} "
          f"(fewer is better)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path, nargs="?", help="the dumps' folder")
    parser.add_argument("--probe", type=Path, help="a probe list of statements (module doc)")
    parser.add_argument("--pairs", action="store_true",
                        help="the read sets' and halves a's statement pairs (module doc)")
    parser.add_argument("--collect", action="store_true",
                        help="run updates_bench --dump over the read sets into the folder")
    parser.add_argument("--show", action="store_true", help="list the cases read wrongly")
    args = parser.parse_args()
    if args.probe or args.pairs:
        if args.probe:
            probe(args.probe, args.show)
        if args.pairs:
            pairs()
        return 0
    if args.folder is None:
        parser.error("a dumps' folder, or --probe")
    if args.collect:
        collect(args.folder)
    measure(args.folder, args.show)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
