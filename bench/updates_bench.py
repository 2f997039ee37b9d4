"""Knowledge updates through ``observe`` (issue 23): does memory stay true when a person
says something has changed?

Each case of ``bench/data/updates.yaml`` is an old statement and a newer one weeks later
(two observes, each its own conversation with its ``session_date``; each a string, one
user turn, or a list of turns ``{user: ...}`` / ``{assistant: ...}``: an exchange), about
its own subject, after the file's ``background`` statements (a week before: so the newer
one meets a memory of several things; ``--alone`` leaves them out), sent over HTTP to a
real ``triform serve`` on 127.0.0.1 (a fresh home, the default rule evaluator, the real
model) on ``demo/memory``. Once the writes have their vectors, the case's question is
searched (the subject's scope, the default limit and threshold). Scored per kind:

- **update**: *newer first*: the first result holds the new value (``new``); *newer
  before old*: of the results holding either value, the first holds the new one (what the
  update decides, whatever unrelated memories the search ranks above it); *old absent*: no
  result holds the old value (``old``) as current: without the new one, and without saying
  it ended ("Carlos quit Amazon" is true, not stale).
- **retire** (the newer statement says the old one no longer holds): *old absent*: no
  result holds the old value unless it also says it ended ("no longer", "quit" ...).
- **control** (not an update: another person's fact, a second pet, "also", a visit):
  *both kept*: the subject's memories still hold the old value and now hold the new one.
- **as of** (updates, retires): what was current before the update, asked with
  ``as_of`` a minute after the older statement (``as_of_answer``; not a moment before the
  newer one: "moved to Leeds last weekend" says the change began before it was said): the
  first result holds the old value.

The cases are split into dev and held-out (``split``, assigned before the rules were
tuned); the rules are tuned on dev only and both halves are reported.

    .venv/bin/python bench/updates_bench.py [--split dev|held-out|all] [--show]
        [--cases bench/data/updates.yaml] [--only ID,ID] [--alone] [--embedder hashing]
        [--batch 50] [--dump cases.jsonl]

``--dump`` writes each case's decisions and scores as a JSON line, to count the misses by
class (what the write time decided, where the newer value ranked). The summary ends with
the misses by stage and, of the updates whose values are "both current", why the ranking
kept the newer second (:data:`WHY_BOTH`), how many controls' newer value ranks above
the old, and of the newer values not among the results, what inheriting the old one's
score would need (:data:`WHY_UNFOUND`), and how the rules read each ending whose old value
is still answered (:data:`READ_AS`): counts only, so a set nobody may read prints them
too.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections import defaultdict
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np
import yaml

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from element.agents.meaning import SIMILAR_WORDS, clauses  # noqa: E402
from element.agents.profile import values, whose  # noqa: E402
from element.agents.sentences import split_sentences  # noqa: E402
from element.agents.updates import is_event  # noqa: E402
from index import TOLD_ADDITION, TOLD_NOT_NOW, TOLD_NOW, TOLD_PAST  # noqa: E402
from index import HashingEmbedder, load_embedder  # noqa: E402
from index.embed import Embedder, embed_for_lanes  # noqa: E402
from index.profile_bank import ATTRIBUTES, attribute_scores, question_vectors  # noqa: E402
from index.recency import (  # noqa: E402
    ASKED_MIN, ASKED_SINGLE_MIN, PROFILE_CATEGORIES, VALUES_TIE, answering, aside, asked)
from bench.crowd import CROWD_FROM, crowd_for, crowd_line, false_changes  # noqa: E402
CASES = ROOT / "bench" / "data" / "updates.yaml"
MEMORY = "/api/demo/memory/ops"
#: Cases per fresh home: 50 cases' memories (each with its background) stay well under
#: the element's default max_memories (1000).
BATCH = 50
#: When the first sessions start; case ``i`` begins ``i`` days later.
EPOCH = datetime(2024, 1, 8, 10, 0, tzinfo=UTC)
#: A retired statement may still be remembered as having ended.
ENDED = re.compile(r"\b(?:no longer|not|anymore|any more|quit|quitting|stopped|left|sold|"
                   r"gave up|given up|broke up|split up|passed away|died|outgrew|got rid of|"
                   r"cancell?ed|used to|no more|gave)\b", re.I)


class Server:
    """``triform serve`` on a fresh home in a subprocess: the real model, or ``embedder``
    ("hashing": only for trying the bench out; updates found by meaning need the model)."""

    def __init__(self, home: Path, embedder: str | None = None) -> None:
        chosen = ["--embedder", embedder] if embedder else []
        self.process = subprocess.Popen(
            [sys.executable, "-m", "api.cli", "--home", str(home), *chosen, "serve", "--port",
             "0", "--sweep-seconds", "0"], cwd=ROOT, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL, text=True,
            start_new_session=True)
        self.token, self.url = "", ""
        assert self.process.stdout is not None
        for line in self.process.stdout:
            stripped = line.strip()
            if stripped.startswith("tfm_") and not self.token:
                self.token = stripped
            if stripped.startswith("serving ") and " on http://" in stripped:
                self.url = stripped.split(" on ", 1)[1].split(" ", 1)[0]
                break
        if not self.url:
            self.stop()
            raise SystemExit("the server did not start")
        threading.Thread(target=self.process.stdout.read, daemon=True).start()

    def call(self, method: str, path: str, body: Any = None) -> Any:
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(
            self.url + path, data=data, method=method,
            headers={"Authorization": f"Bearer {self.token}",
                     "Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=120) as response:
            return json.loads(response.read())

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(60)


def subject(case: dict[str, Any]) -> dict[str, str]:
    return {"subject_type": "guest", "subject_id": case["id"]}


def weeks(case: dict[str, Any]) -> int:
    """How many weeks after the old statement the newer one comes: 3 to 10, by case."""
    return 3 + int(hashlib.sha256(case["id"].encode()).hexdigest(), 16) % 8


def turns(said: str | list[dict[str, str]]) -> list[dict[str, str]]:
    """A statement as the turns of one conversation: a string is one user turn; a list is
    an exchange, each item ``{user: ...}`` or ``{assistant: ...}`` (the other person's reply
    in between, as when a change is told across turns)."""
    if isinstance(said, str):
        return [{"role": "user", "content": said}]
    return [{"role": role, "content": text} for turn in said for role, text in turn.items()]


def observe(server: Server, case: dict[str, Any], said: str | list[dict[str, str]],
            when: datetime, session: int) -> list[dict[str, Any]]:
    answer = server.call("POST", f"{MEMORY}/observe", {
        "turns": turns(said), **subject(case),
        "subject_name": case["name"], "conversation_id": f"{case['id']}-{session}",
        "session_date": when.strftime("%Y-%m-%dT%H:%M:%SZ")})
    return list(answer["decisions"])


def as_of_answer(server: Server, case: dict[str, Any], before: datetime) -> bool | None:
    """Whether a search ``as_of`` a time before the update (``before``) answers the old
    value first (the store keeps superseded and retired memories for history: issue 23)."""
    found = server.call("POST", f"{MEMORY}/search", {
        "query": case["query"], **subject(case),
        "as_of": before.strftime("%Y-%m-%dT%H:%M:%SZ")})
    results = [r["memory"]["content"] for r in found["results"]]
    AS_OF_SEEN[case["id"]] = results
    AS_OF_FOUND[case["id"]] = found["results"]
    return bool(results) and bool(re.search(case["old"], results[0], re.I))


#: What each case's ``as_of`` search answered (``--show``).
AS_OF_SEEN: dict[str, list[str]] = {}
#: ... each result whole (memory and score: :func:`as_of_first_line`).
AS_OF_FOUND: dict[str, list[dict[str, Any]]] = {}


def run_case(server: Server, case: dict[str, Any], index: int,
             background: list[str], crowd: list[str] | None = None) -> dict[str, Any]:
    """One case's statements: the background a week before, the old statement, then
    (``crowd``, ``--crowd``) other things the subject says, spread evenly over the weeks
    between, each its own conversation, and the newer statement."""
    first = EPOCH + timedelta(days=index)
    second = first + timedelta(weeks=weeks(case))
    earlier = [d for said in background
               for d in observe(server, case, said, first - timedelta(weeks=1), 0)]
    told = observe(server, case, case["before"], first, 1)
    among: list[dict[str, Any]] = []
    for j, said in enumerate(crowd or []):
        when = first + (second - first) * (j + 1) / (len(crowd or []) + 1)
        among += observe(server, case, said, when, 10 + j)
    newer = observe(server, case, case["after"], second, 2)
    return {"case": case, "decisions": told + newer, "first": first, "second": second,
            "earlier": earlier + told + among, "crowd": among, "background": earlier,
            "told": told, "newer": newer}


def wait_embedded(server: Server, timeout: float = 300) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.call("GET", f"{MEMORY}/stats").get("unembedded", 0) == 0:
            return
        time.sleep(0.2)
    raise SystemExit("the memories were not embedded in time")


def score(server: Server, run: dict[str, Any]) -> dict[str, Any]:
    case = run["case"]
    old = re.compile(case["old"], re.I)
    new = re.compile(case["new"], re.I) if case.get("new") else None
    found = server.call("POST", f"{MEMORY}/search", {"query": case["query"], **subject(case)})
    results = [r["memory"]["content"] for r in found["results"]]
    scores = [round(float(r.get("score", 0.0)), 3) for r in found["results"]]
    listed = server.call("GET", f"{MEMORY}/memories?limit=100&subject_type=guest&"
                         f"subject_id={case['id']}")["memories"]
    kept = [m["content"] for m in listed]
    out: dict[str, Any] = {"results": results, "scores": scores, "kept": kept,
                           "kept_kinds": [m["category"] for m in listed],
                           "found": [r["memory"] for r in found["results"]]}
    if case["kind"] == "update":
        assert new is not None
        out["newer_first"] = bool(results) and bool(new.search(results[0]))
        either = [r for r in results if new.search(r) or old.search(r) and not ENDED.search(r)]
        out["newer_before"] = bool(either) and bool(new.search(either[0]))
        out["old_absent"] = not any(old.search(r) and not new.search(r) and not ENDED.search(r)
                                    for r in results)
    elif case["kind"] == "retire":
        out["old_absent"] = not any(old.search(r) and not ENDED.search(r) for r in results)
    else:
        assert new is not None
        out["old_kept"] = any(old.search(m) for m in kept)
        out["both_kept"] = out["old_kept"] and any(new.search(m) for m in kept)
    # A time before the update: just after the older statement. (A moment before the
    # newer statement is not: "moved to Leeds last weekend" began before it was said.)
    out["as_of"] = None if case["kind"] == "control" else \
        as_of_answer(server, case, run["first"] + timedelta(minutes=1))
    return out


def share(flags: list[bool]) -> str:
    return f"{sum(flags)}/{len(flags)} = {sum(flags) / len(flags):.0%}" if flags else "-"


def report(label: str, scored: list[tuple[dict[str, Any], dict[str, Any]]]) -> None:
    by: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for case, result in scored:
        by[case["kind"]].append(result)
    updates, retires, controls = by["update"], by["retire"], by["control"]
    as_of = [r["as_of"] for r in updates + retires if r["as_of"] is not None]
    print(f"| {label} | {share([r['newer_first'] for r in updates])} | "
          f"{share([r['newer_before'] for r in updates])} | "
          f"{share([r['old_absent'] for r in updates])} | "
          f"{share([r['old_absent'] for r in retires])} | "
          f"{share([r['old_absent'] for r in updates + retires])} | "
          f"{share([r['both_kept'] for r in controls])} | "
          f"{share([r['old_kept'] for r in controls])} | "
          f"{share(as_of) if as_of else 'not measured'} |")


#: Where a miss was lost, per kind, in the order a miss is assigned (the first that holds).
STAGES = {
    "update": ("not stored", "both current", "wrong one superseded", "another first"),
    "retire": ("not stored", "ending not recognised", "ended in other words"),
    "control": ("superseded by mistake", "new not stored", "old not stored"),
}


def stage(run: dict[str, Any], result: dict[str, Any]) -> str | None:
    """Which stage lost a missed case, from its decisions and its current memories (None
    when it was not missed): so a set nobody may read can say where it fails, in counts.

    An update whose newer value is not first: the newer statement stored nothing holding
    it; or the old value is still current (nothing replaced, or a memory other than the
    old one replaced: the wrong one); or the old is gone and another memory ranks first.
    A retire whose old value is still answered: the ending stored nothing, or was stored
    without ending the old, or ended it and says so in words ``ENDED`` lacks. A control
    that lost one of its two: the old replaced by mistake, the new never stored, the old
    never stored."""
    case = run["case"]
    old = re.compile(case["old"], re.I)
    new = re.compile(case["new"], re.I) if case.get("new") else None
    kept, newer = result["kept"], run["newer"]
    # What each memory said when written: a replaced memory is no longer listed.
    said = {d["memory_id"]: d.get("content", "") for d in run["earlier"]
            if d["action"] in ("add", "update") and d.get("memory_id")}
    said |= {d["superseded_by"]: d.get("content", "") for d in run["earlier"]
             if d.get("superseded_by")}
    ended = [said.get(d.get("memory_id", ""), "") for d in newer
             if d["action"] in ("update", "supersede", "retire", "forget")]
    old_current = any(old.search(m) and not (new and new.search(m)) and not ENDED.search(m)
                      for m in kept)
    if case["kind"] == "update":
        assert new is not None
        if result["newer_first"]:
            return None
        if not any(new.search(m) for m in kept):
            return "not stored"
        if old_current:
            return "wrong one superseded" if any(not old.search(m) for m in ended) \
                else "both current"
        return "another first"
    if case["kind"] == "retire":
        if result["old_absent"]:
            return None
        if not any(d["action"] != "nothing" for d in newer):
            return "not stored"
        # The old memory was replaced, yet the answer naming it says the ending in words
        # ``ENDED`` lacks ("deleted my Instagram"): the judge's miss more than the rules'.
        held = [m for m in said.values() if old.search(m)]
        return "ended in other words" if held and all(m in ended for m in held) \
            else "ending not recognised"
    if result["both_kept"]:
        return None
    if any(old.search(m) for m in said.values()) and not result["old_kept"]:
        return "superseded by mistake"
    assert new is not None
    return "new not stored" if not any(new.search(m) for m in kept) else "old not stored"


def stages_line(runs: list[dict[str, Any]], results: dict[str, dict[str, Any]]) -> str:
    """The misses by stage, counts only (no case's id or words: blind sets print it)."""
    counts: dict[str, dict[str, int]] = {kind: dict.fromkeys(names, 0)
                                         for kind, names in STAGES.items()}
    for run in runs:
        lost = stage(run, results[run["case"]["id"]])
        if lost:
            counts[run["case"]["kind"]][lost] += 1
    parts = [f"{label} {sum(counts[kind].values())}: "
             + ", ".join(f"{name} {n}" for name, n in counts[kind].items())
             for kind, label in (("update", "updates, newer not first"),
                                 ("retire", "retires, old answered"),
                                 ("control", "controls, one lost"))]
    return "misses by stage: " + " | ".join(parts)


#: Why an update's newer value is second though both values are current ("both current"),
#: in the order a miss is assigned, from what the ranking (``index/recency.py``) reads of
#: the query and the results: the newer not among the results; another memory first (the
#: newer is above the old); no attribute asked clearly (none near enough, or two as near);
#: a many-valued one (never grouped);
#: the newer names a person of the subject's the query does not; the newer, or the old,
#: not read as a value of the attribute; one of them not a fact or preference; the two
#: further apart than the tie; grouped, yet second all the same.
WHY_BOTH = ("new not found", "another first", "no attribute near", "two attributes alike",
            "many-valued",
            "new names another", "new not a value", "old not a value", "not facts",
            "apart > tie", "grouped, still second")


def why_both(run: dict[str, Any], result: dict[str, Any], embedder: Embedder,
             questions: np.ndarray) -> str:
    """Which of :data:`WHY_BOTH` kept a "both current" update's newer value second."""
    case = run["case"]
    old, new = re.compile(case["old"], re.I), re.compile(case["new"], re.I)
    found, scores = result["found"], result["scores"]
    contents = [m["content"] for m in found]
    at_new = [i for i, c in enumerate(contents) if new.search(c)]
    if not at_new:
        return "new not found"
    if result["newer_before"]:
        return "another first"
    at_old = next(i for i, c in enumerate(contents)
                  if old.search(c) and not new.search(c) and not ENDED.search(c))
    vectors = embed_for_lanes(embedder, ["content"] * (len(contents) + 1),
                              [case["query"], *contents])
    vectors = vectors / np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
    question = asked(vectors[0], case["query"], questions)
    if question is None:
        row = attribute_scores(vectors[:1], questions)[0]
        least = ASKED_SINGLE_MIN if ATTRIBUTES[int(row.argmax())].single else ASKED_MIN
        return "no attribute near" if row.max() < least else "two attributes alike"
    if not question.single:
        return "many-valued"
    owners = [(m["subject_type"], m["subject_id"]) if m["subject_type"] else None
              for m in found]
    kinds = [m["category"] for m in found]
    values, _ = answering(list(vectors[1:]), owners, contents, kinds, question)
    n = at_new[0]
    if not values[n]:
        return "new names another" if answering(list(vectors[1:]), owners, contents, kinds,
                                                question, anyone=True)[0][n] \
            else "new not a value"
    if not values[at_old]:
        return "old not a value"
    if kinds[n] not in PROFILE_CATEGORIES or kinds[at_old] not in PROFILE_CATEGORIES:
        return "not facts"
    if abs(scores[n] - scores[at_old]) > VALUES_TIE:
        return "apart > tie"
    return "grouped, still second"


#: Of the "new not found" misses (the newer stored, current, not among the results), what
#: a newer value under the threshold or past the limit would need to inherit the score of
#: its subject's older value among the results (as a current memory inherits a superseded
#: one's, ``index/lend.py``): a single-valued attribute asked; the old a result answering
#: it best; the newer no past or wish (``recency.aside``); the newer answering it best
#: too. The first that is missing names the miss; "best answer too" lacks none.
WHY_UNFOUND = ("no single asked", "old not first", "past or wish", "best answer too",
               "a value, not best", "no value")


def why_unfound(run: dict[str, Any], result: dict[str, Any], embedder: Embedder,
                questions: np.ndarray) -> str:
    """Which of :data:`WHY_UNFOUND` a "new not found" miss is."""
    case = run["case"]
    old, new = re.compile(case["old"], re.I), re.compile(case["new"], re.I)
    kept, kinds = result["kept"], result.get("kept_kinds") or ["fact"] * len(result["kept"])
    at_new = next((i for i, c in enumerate(kept) if new.search(c)), None)
    if at_new is None:      # listed past the listing's limit: nothing to read
        return "no value"
    found = result["found"]
    at_old = next((i for i, m in enumerate(found) if old.search(m["content"]) and
                   not new.search(m["content"]) and not ENDED.search(m["content"])), None)
    texts = [case["query"], kept[at_new]] + ([] if at_old is None else
                                             [found[at_old]["content"]])
    vectors = embed_for_lanes(embedder, ["content"] * len(texts), texts)
    vectors = vectors / np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
    question = asked(vectors[0], case["query"], questions)
    if question is None or not question.single:
        return "no single asked"
    if at_old is None:
        return "old not first"
    values, best = answering(list(vectors[1:]), ["subject"] * 2, texts[1:],
                             [kinds[at_new], found[at_old]["category"]], question)
    if not best[1]:
        return "old not first"
    if aside(kept[at_new]):
        return "past or wish"
    return "best answer too" if best[0] else "a value, not best" if values[0] else "no value"


#: Of the misses whose newer statement holds no memory with the new value ("not stored",
#: "new not stored"): the statement wrote nothing at all; wrote only memories without the
#: value (garbled, or another sentence of the turn); or changed an older memory instead
#: (an update or supersede whose content lacks the value).
WHY_UNSTORED = ("wrote nothing", "wrote without the value", "changed another")


def unstored_line(runs: list[dict[str, Any]], results: dict[str, dict[str, Any]]) -> str:
    """The statements stored without their value, by :data:`WHY_UNSTORED`, counts only."""
    counts = dict.fromkeys(WHY_UNSTORED, 0)
    for run in runs:
        if stage(run, results[run["case"]["id"]]) not in ("not stored", "new not stored"):
            continue
        acted = [d["action"] for d in run["newer"] if d["action"] != "nothing"]
        counts["wrote nothing" if not acted else "wrote without the value"
               if set(acted) <= {"add"} else "changed another"] += 1
    return "not stored, why: " + ", ".join(f"{name} {n}" for name, n in counts.items())


#: Why a search ``as_of`` a time before the update missed the old value: the older statement
#: wrote no memory holding it; the search answered nothing; the old value was stored but not
#: among the answers; or it was, below another memory.
WHY_AS_OF = ("old never stored", "nothing answered", "old not found", "old not first")


def as_of_line(runs: list[dict[str, Any]], results: dict[str, dict[str, Any]]) -> str:
    """The ``as_of`` misses by :data:`WHY_AS_OF`, counts only."""
    counts = dict.fromkeys(WHY_AS_OF, 0)
    for run in runs:
        case = run["case"]
        if results[case["id"]].get("as_of") is not False:
            continue
        old = re.compile(case["old"], re.I)
        seen = AS_OF_SEEN.get(case["id"], [])
        stored = any(old.search(d.get("content") or "") for d in run["earlier"]
                     if d["action"] in ("add", "update", "supersede"))
        counts["old never stored" if not stored else "nothing answered" if not seen
               else "old not found" if not any(old.search(r) for r in seen)
               else "old not first"] += 1
    return "as of missed, why: " + ", ".join(f"{name} {n}" for name, n in counts.items())


#: How a statement's decisions read it, by words of their reason (no words of the case:
#: blind sets print it); the first that matches names a decision.
READ_AS = (("said something no longer holds", "an ending, no memory found"),
           ("said a value no longer holds", "an ending, the value held otherwise"),
           ("the user said it no longer holds", "retired another"),
           ("told by the speaker", "an episode, linked to nothing"),
           ("goes on about", "goes on"),
           ("repeats what is remembered", "a repeat"),
           ("already remembered", "already remembered"),
           ("changes what it says", "superseded another"),
           ("replaces the value held", "superseded another"),
           ("supersedes the earlier", "superseded another"),
           ("new ", "a fact, linked to nothing"))


def read_as(decisions: list[dict[str, Any]]) -> str:
    """How the rules read a statement, by its first decision with a reason of
    :data:`READ_AS`: an ending that found no memory, a fact linked to nothing, one that
    changed another."""
    for d in decisions:
        reason = d.get("reason", "")
        label = next((label for words, label in READ_AS if words in reason), None)
        if label is not None:
            return label
    return "other" if any(d["action"] != "nothing" for d in decisions) else "wrote nothing"


def retires_line(runs: list[dict[str, Any]], results: dict[str, dict[str, Any]]) -> str:
    """The retires whose old value is still answered, by how the ending was read (counts
    only): the ending's reading failed, or its link to the memory it ends did."""
    counts: dict[str, int] = {}
    for run in runs:
        if run["case"]["kind"] == "retire" and not results[run["case"]["id"]]["old_absent"]:
            label = read_as(run["newer"])
            counts[label] = counts.get(label, 0) + 1
    return "retires missed, read as: " + (", ".join(
        f"{label} {counts[label]}" for label in sorted(counts)) or "none")


#: Of the "old not first" misses of a search ``as_of``: which memory ranked first, by when
#: it holds from against the old value's memory (told before it, "background"; with it, of
#: one statement, "same statement"; after it: the newer statement's, valid from before the
#: time asked); and how it got there: scored above the old value ("by score"), or moved
#: above it by the read-time order ("moved", ``recency.newer_first``).
WHY_AS_OF_FIRST = ("background", "same statement", "told later")


def as_of_first_line(runs: list[dict[str, Any]], results: dict[str, dict[str, Any]]) -> str:
    """The ``as_of`` "old not first" misses by :data:`WHY_AS_OF_FIRST` and how, counts
    only."""
    counts = {f"{how} {kind}": 0 for how in ("by score", "moved") for kind in WHY_AS_OF_FIRST}
    for run in runs:
        case = run["case"]
        found = AS_OF_FOUND.get(case["id"], [])
        if results[case["id"]].get("as_of") is not False or not found:
            continue
        old = re.compile(case["old"], re.I)
        at_old = next((i for i, r in enumerate(found) if old.search(r["memory"]["content"])),
                      None)
        if at_old is None:
            continue
        first, held = found[0], found[at_old]
        since = parse(first["memory"].get("valid_from")) - parse(held["memory"].get("valid_from"))
        kind = "same statement" if since == 0 else "background" if since < 0 else "told later"
        how = "by score" if float(first.get("score", 0)) >= float(held.get("score", 0)) \
            else "moved"
        counts[f"{how} {kind}"] += 1
    return "as of not first, why: " + ", ".join(f"{name} {n}" for name, n in counts.items())


def parse(when: object) -> float:
    """An ISO time's POSIX seconds (0 when none)."""
    if not isinstance(when, str) or not when:
        return 0.0
    return datetime.fromisoformat(when.replace("Z", "+00:00")).timestamp()


def why_both_line(runs: list[dict[str, Any]], results: dict[str, dict[str, Any]],
                  embedder: Embedder) -> str:
    """The "both current" misses by why the ranking kept the newer second, counts only."""
    questions = question_vectors(embedder)
    counts, unfound = dict.fromkeys(WHY_BOTH, 0), dict.fromkeys(WHY_UNFOUND, 0)
    for run in runs:
        result = results[run["case"]["id"]]
        if stage(run, result) == "both current":
            why = why_both(run, result, embedder, questions)
            counts[why] += 1
            if why == "new not found":
                unfound[why_unfound(run, result, embedder, questions)] += 1
    # A control's newer statement is no update ("visited Bergen", "grew up in Cork", a
    # second dog): where both are found, a ranking that moves the newer above the old
    # has read it as one (compare runs: the bench scores what is kept, not this order).
    pairs = [_newer_above(run["case"], results[run["case"]["id"]]["results"])
             for run in runs if run["case"]["kind"] == "control"]
    both = [p for p in pairs if p is not None]
    return f"both current {sum(counts.values())}, why: " + \
        ", ".join(f"{name} {n}" for name, n in counts.items()) + \
        f" | controls, new above old {sum(both)} of {len(both)} with both found" + \
        " | new not found: " + ", ".join(f"{name} {n}" for name, n in unfound.items())


def _newer_above(case: dict[str, Any], results: list[str]) -> bool | None:
    """Whether a control's first result holding either value holds only the newer (None:
    not both found)."""
    old, new = re.compile(case["old"], re.I), re.compile(case["new"], re.I)
    if not any(old.search(r) for r in results) or not any(new.search(r) for r in results):
        return None
    first = next(r for r in results if old.search(r) or new.search(r))
    return not old.search(first)


def kept_both_line(runs: list[dict[str, Any]], results: dict[str, dict[str, Any]]) -> str:
    """The updates whose newer value is stored while the old value is still current (a
    link not made, whatever the ranking then does), by the decision that stored the newer
    value: its action and reason, counts only. A reason is the rules' own fixed text (no
    case's words); digits are masked and it is cut short all the same, as blind sets
    print the line."""
    counts: dict[str, int] = defaultdict(int)
    for run in runs:
        case = run["case"]
        if case["kind"] != "update":
            continue
        old, new = re.compile(case["old"], re.I), re.compile(case["new"], re.I)
        kept = results[case["id"]]["kept"]
        if not any(new.search(m) for m in kept) or \
                not any(old.search(m) and not new.search(m) and not ENDED.search(m)
                        for m in kept):
            continue
        holding = [d for d in run["newer"] if new.search(d.get("content") or "")]
        decision = holding[0] if holding else None
        label = "none holds it" if decision is None else \
            re.sub(r"\d+", "N", f"{decision['action']}: {decision['reason']}")[:60]
        if decision is not None and decision["action"] == "add":
            label += f" [{_shape(case['after'], new, case['name'])}]"
        counts[label] += 1
    return f"kept both {sum(counts.values())}, newer's decision: " + \
        (", ".join(f"{label} {n}" for label, n in sorted(counts.items(),
                                                         key=lambda kv: (-kv[1], kv[0])))
         or "none")


def _shape(said: str | list[dict[str, str]], new: re.Pattern[str], who: str) -> str:
    """What the sentence telling the newer value is, as the change finders' gates read it
    (a word of shape, no case's words): a question, a story (longer than a statement), a
    past or a plan, an event, another's, one more, naming no value; with a now word or
    not ("plain"); "clause" when only a clause of it is a plain statement."""
    text = said if isinstance(said, str) else " ".join(
        t for turn in said for role, t in turn.items() if role == "user")
    sentence = next((s for s in split_sentences(text) if new.search(s)), text)
    def gate(part: str) -> str:
        if part.rstrip().endswith("?"):
            return "question"
        if len(part.split()) > SIMILAR_WORDS:
            return "story"
        if TOLD_PAST.search(part) or TOLD_NOT_NOW.search(part):
            return "past or plan"
        if is_event(part):
            return "event"
        if whose(part) not in ("",):
            return "another's"
        if TOLD_ADDITION.search(part):
            return "one more"
        if not values(part, who):
            return "no value"
        return "now" if TOLD_NOW.search(part) else "plain"
    whole = gate(sentence)
    if whole in ("now", "plain"):
        return whole
    parts = [gate(c) for c in clauses(sentence) if new.search(c)]
    return f"{whole}, clause {parts[0]}" if parts else whole


def failed(case: dict[str, Any], result: dict[str, Any]) -> bool:
    return not all(result.get(k, True) for k in ("newer_first", "old_absent", "both_kept")) \
        or result.get("as_of") is False


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=Path, default=CASES)
    parser.add_argument("--split", choices=("dev", "held-out", "fresh", "all"), default="all",
                        help="which cases (fresh: those of bench/data/updates-fresh.yaml)")
    parser.add_argument("--only", default="", help="comma-separated case ids")
    parser.add_argument("--batch", type=int, default=BATCH,
                        help=f"cases per fresh home (default {BATCH})")
    parser.add_argument("--embedder", choices=("hashing",),
                        help="serve with the hashing embedder (a dry run: no meaning)")
    parser.add_argument("--alone", action="store_true",
                        help="without the background statements (the old memory alone)")
    parser.add_argument("--crowd", type=int, default=0,
                        help="the subject says this many other things (real conversation "
                             "turns, --crowd-from) between the old and the newer statement")
    parser.add_argument("--crowd-from", type=Path, default=CROWD_FROM,
                        help="LoCoMo-style conversations the crowd's turns come from")
    parser.add_argument("--dump", type=Path,
                        help="write each case's decisions and scores as JSON lines here")
    parser.add_argument("--show", action="store_true",
                        help="print each failed case: decisions, results, memories")
    args = parser.parse_args()
    data = yaml.safe_load(args.cases.read_text())
    cases, background = data["cases"], [] if args.alone else data.get("background", [])
    chosen = [c for c in cases if args.split in ("all", c["split"])
              and (not args.only or c["id"] in args.only.split(","))]
    load = os.getloadavg()
    crowds = crowd_for(chosen, args.crowd, args.crowd_from) if args.crowd else {}
    print(f"updates_bench  {datetime.now():%Y-%m-%d %H:%M}  {len(chosen)} cases "
          f"(split {args.split})  load average {load[0]:.2f}"
          + (f"  crowd {args.crowd}" if args.crowd else ""))
    started = time.perf_counter()
    runs: list[dict[str, Any]] = []
    scored: list[tuple[dict[str, Any], dict[str, Any]]] = []
    # A fresh home per batch of cases: the element's capacity (max_memories) is never what
    # a case measures, and every case stores its background too.
    for start in range(0, len(chosen), max(1, args.batch)):
        with tempfile.TemporaryDirectory() as tmp:
            server = Server(Path(tmp) / "home", args.embedder)
            try:
                batch = [run_case(server, case, start + i, background,
                                  crowds.get(case["id"]))
                         for i, case in enumerate(chosen[start:start + max(1, args.batch)])]
                wait_embedded(server)
                scored += [(run["case"], score(server, run)) for run in batch]
                runs += batch
            finally:
                server.stop()
    print("\n| split | newer first (update) | newer before old (update) | old absent (update) "
          "| old absent (retire) | old absent (all) | controls: both kept "
          "| controls: old kept | as of |")
    print("|---|---|---|---|---|---|---|---|---|")
    for split in dict.fromkeys(c["split"] for c, _ in scored):
        part = [(c, r) for c, r in scored if c["split"] == split]
        if part:
            report(split, part)
    if args.split == "all":
        report("all", scored)
    print("\n" + stages_line(runs, {c["id"]: r for c, r in scored}))
    print(unstored_line(runs, {c["id"]: r for c, r in scored}))
    print(as_of_line(runs, {c["id"]: r for c, r in scored}))
    print(retires_line(runs, {c["id"]: r for c, r in scored}))
    print(kept_both_line(runs, {c["id"]: r for c, r in scored}))
    print(as_of_first_line(runs, {c["id"]: r for c, r in scored}))
    embedder = HashingEmbedder() if args.embedder == "hashing" else \
        load_embedder(log=lambda _: None)
    print(why_both_line(runs, {c["id"]: r for c, r in scored}, embedder))
    changes = false_changes(runs)
    print(crowd_line(changes))
    misses = [(c, r) for c, r in scored if failed(c, r)]
    named = ", ".join(f"{c['id']} ({c['split']})" for c, _ in misses) or "none"
    print(f"\nfailed cases: {named}  ({time.perf_counter() - started:.0f} s)")
    if args.dump:
        decided = {run["case"]["id"]: run["decisions"] for run in runs}
        with args.dump.open("w") as out:
            for case, result in scored:
                out.write(json.dumps({"case": case, "result": result,
                                      "decisions": decided[case["id"]]}) + "\n")
    if args.show:
        runs_by_id = {run["case"]["id"]: run for run in runs}
        for case, result in misses:
            print(f"\n- {case['id']} [{case['kind']}, {case['split']}] "
                  f"{case['before']!r} -> {case['after']!r}")
            for d in runs_by_id[case["id"]]["decisions"]:
                print(f"    {d['action']}: {d.get('content', '')} ({d['reason']})")
            print(f"    search {case['query']!r}: {result['results']}")
            print(f"    memories: {result['kept']}")
            if result.get("as_of") is False:
                print(f"    as of before the newer statement: {AS_OF_SEEN[case['id']]}")
        if changes:
            print("\nfalse supersedes and retires (case, by whom: ended <- told, reason):")
        for change in changes:
            print(f"- {change['case']} [{change['by']}] {change['action']}: "
                  f"{change['old']!r} <- {change['new']!r} ({change['reason']})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
