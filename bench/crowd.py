"""A crowded pool for ``bench/updates_bench.py --crowd K`` (issue 23): real people say many
things between an old statement and the one that changes it, so the old memory sits among
many when the newer statement looks for what it changes.

:func:`crowd_for` draws, for each case, ``K`` turns of one LoCoMo dev speaker (real
conversation text, spread over that speaker's sessions) that the case's subject says
between its old and its newer statement; :func:`false_changes` lists every supersede or
retire that ended a memory other than the case's old one (or, in a control, any memory at
all), with who made it (the newer statement or a crowd turn) and the decision's reason
(the finder); :func:`crowd_line` counts them on a line a blind set may print (no case's
words: the rules' own reasons, digits masked, cut short).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

#: LoCoMo's five dev conversations: where the crowd's turns come from (``shared/`` beside
#: the checkout, as ``observe_bench.py`` reads it).
CROWD_FROM = Path(__file__).resolve().parents[2] / "shared/eval/locomo-dev.json"
#: A crowd turn: a statement of some length, in the first person, not a question.
FIRST_PERSON = re.compile(r"\b(?:I|I'm|I've|I'd|I'll|my|me|we|our)\b")
MIN_WORDS, MAX_WORDS = 8, 40
#: What a decision that ends a memory is.
CHANGES = ("supersede", "retire")


def speakers(path: Path) -> list[list[str]]:
    """Each speaker's own statements (:data:`FIRST_PERSON`, :data:`MIN_WORDS` to
    :data:`MAX_WORDS` words, no question), in the order said, one list per speaker of each
    conversation."""
    out: list[list[str]] = []
    for sample in json.loads(path.read_text()):
        conversation = sample["conversation"]
        said: dict[str, list[str]] = {}
        keys = sorted((k for k in conversation if re.fullmatch(r"session_\d+", k)),
                      key=lambda k: int(k.split("_")[1]))
        for key in keys:
            for turn in conversation[key]:
                text = " ".join(str(turn.get("text", "")).split())
                words = len(text.split())
                if MIN_WORDS <= words <= MAX_WORDS and FIRST_PERSON.search(text) \
                        and not text.endswith("?"):
                    said.setdefault(turn["speaker"], []).append(text)
        out += [said[name] for name in sorted(said) if said[name]]
    return out


def crowd_for(cases: list[dict[str, Any]], k: int, path: Path) -> dict[str, list[str]]:
    """``k`` turns for each case (by its id: the same every run): one speaker's, chosen by
    the id's hash, every n-th of their turns from an offset, so they spread over the
    speaker's sessions (weeks of their life)."""
    pool = speakers(path)
    out: dict[str, list[str]] = {}
    for case in cases:
        seed = int(hashlib.sha256(str(case["id"]).encode()).hexdigest(), 16)
        turns = pool[seed % len(pool)]
        step = max(1, len(turns) // max(1, k))
        start = (seed // len(pool)) % step
        out[case["id"]] = [turns[(start + j * step) % len(turns)]
                           for j in range(min(k, len(turns)))]
    return out


def _contents(run: dict[str, Any]) -> dict[str, str]:
    """What each memory of a case said when written, by id (its adds, updates, and a
    supersede's new memory)."""
    said: dict[str, str] = {}
    for d in run.get("background", []) + run["earlier"] + run["newer"]:
        if d["action"] in ("add", "update") and d.get("memory_id"):
            said[d["memory_id"]] = d.get("content") or ""
        if d.get("superseded_by"):
            said[d["superseded_by"]] = d.get("content") or ""
    return said


def false_changes(runs: list[dict[str, Any]]) -> list[dict[str, str]]:
    """Every supersede or retire of a case that ended a memory other than the case's old
    one (a control's: any), by the newer statement or by a crowd turn. The case's old one
    is a memory holding its old value, or any the old statement wrote ("I live downtown in
    Seattle, in a tiny studio" may be told as two)."""
    out: list[dict[str, str]] = []
    for run in runs:
        case = run["case"]
        old = re.compile(case["old"], re.I)
        said = _contents(run)
        own = {d.get("memory_id") for d in run.get("told", []) if d["action"] == "add"} | \
            {d.get("superseded_by") for d in run.get("told", []) if d.get("superseded_by")}
        told = [("crowd", d) for d in run.get("crowd", [])] + \
            [("newer", d) for d in run["newer"]]
        for by, d in told:
            if d["action"] not in CHANGES:
                continue
            ended = said.get(str(d.get("memory_id")), "?")
            if case["kind"] != "control" and by == "newer" and \
                    (old.search(ended) or d.get("memory_id") in own):
                continue
            out.append({"case": case["id"], "by": by, "action": d["action"], "old": ended,
                        "new": d.get("content") or "", "reason": d.get("reason", "")})
    return out


def crowd_line(changes: list[dict[str, str]]) -> str:
    """The false supersedes and retires, counts only: by whom, by the rules' reason (fixed
    text, digits masked, cut short), so a blind set may print it."""
    by = Counter(c["by"] for c in changes)
    reasons = Counter(re.sub(r"\d+", "N", c["reason"])[:60] for c in changes)
    return (f"false supersedes {len(changes)} (newer {by['newer']}, crowd {by['crowd']}), "
            "reasons: " + (", ".join(f"{r} {n}" for r, n in reasons.most_common()) or "none"))
