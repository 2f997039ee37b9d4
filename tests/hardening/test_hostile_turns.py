"""Turns shaped to make the rules' patterns backtrack are read in bounded work (hardening).

Before, a member's one observe held a core for seconds to forever: "aaa, " * 3,200 was
exponential in an it-cleft's pattern (``inverted._CLEFT``), sixteen thousand "?" or "."
quadratic in sentence splitting, a 16,000-character word in the abbreviation check and
an adverb's pattern, a thousand sentences in a topic's lookup (each sentence split the
whole turn again), and 200 turns of 16,000 characters were read whole. Now the rules read
sentences of at most ``MAX_SENTENCE`` characters, at most ``MAX_SENTENCES`` of them (the
last ones), and those patterns read each run once (``readable.py``; the patterns' own
comments).
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

from element.agents.observation import Observation, Turn
from element.agents.readable import MAX_SENTENCE, MAX_SENTENCES, MAX_WORDS, PIECE, pieces, readable
from element.agents.subconscious import RuleEvaluator, observe
from index import HashingEmbedder, MemorySettings, MemoryStore

REPO = Path(__file__).resolve().parents[2]
HOSTILE = {
    "clauses": "aaa, " * 3200,
    "questions": "?" * 16000,
    "periods": "." * 16000,
    "titles": "Dr. " * 4000,
    "one word": "x" * 16000,
    "a long name": "I live in " + "A" * 15990,
    "many sentences": ("I went to Rome. " * 1000)[:16000],
    "emoji": "\U0001f642" * 16000,
}
#: Far above what any of them takes now (well under a second each) and far below what
#: they took before (the clauses never ended): only a runaway pattern exceeds it.
RUNAWAY_SECONDS = 60


def test_hostile_turns_are_read_in_bounded_work() -> None:
    # In a process of its own: a pattern that never returns fails the test, not the run.
    script = textwrap.dedent("""
        import json, sys, tempfile, time
        from pathlib import Path
        from element.agents.subconscious import Observation, RuleEvaluator, Turn, observe
        from index import HashingEmbedder, MemorySettings, MemoryStore
        hostile = json.loads(sys.stdin.read())
        for name, text in hostile.items():
            with tempfile.TemporaryDirectory() as tmp, \
                    MemoryStore(Path(tmp) / "m", HashingEmbedder()) as store:
                obs = Observation((Turn("user", text),), ("guest", "ana"), subject_name="Ana")
                start = time.perf_counter()
                observe(store, MemorySettings(), obs, RuleEvaluator())
                print(json.dumps([name, time.perf_counter() - start]), flush=True)
    """)
    done = subprocess.run([sys.executable, "-c", script], input=json.dumps(HOSTILE), cwd=REPO,
                          capture_output=True, text=True,
                          timeout=RUNAWAY_SECONDS * len(HOSTILE))
    assert done.returncode == 0, done.stderr[-2000:]
    took = dict(json.loads(line) for line in done.stdout.splitlines())
    assert set(took) == set(HOSTILE)
    assert all(seconds < RUNAWAY_SECONDS for seconds in took.values()), took


def _observation(*contents: str) -> Observation:
    return Observation(tuple(Turn("user", c) for c in contents), ("guest", "ana"),
                       subject_name="Ana")


def test_an_observe_within_the_bounds_is_read_untouched() -> None:
    obs = _observation("I live in Porto. I work at a bakery!", "My cat is called Miso.")
    assert readable(obs) == (obs, 0)
    assert readable(obs)[0] is obs


def test_a_sentence_longer_than_the_rules_read_is_left_out_and_said(tmp_path: Path) -> None:
    pasted = "word " * (MAX_SENTENCE // 5 + 10)
    obs = _observation(f"{pasted.strip()}. I live in Porto.")
    read, left_out = readable(obs)
    assert left_out == 1 and read.turns[0].content == "I live in Porto."
    with MemoryStore(tmp_path / "m", HashingEmbedder()) as store:
        decisions = [d.public() for d in
                     observe(store, MemorySettings(), obs, RuleEvaluator()).decisions]
        kept = store.list(subject_type="guest", subject_id="ana", limit=10)[0]
        assert [m["content"] for m in kept] == ["Ana lives in Porto"]
    assert any("sentences left out: 1" in d["reason"] for d in decisions), decisions


def test_a_run_on_transcript_is_read_in_pieces_of_its_clauses(tmp_path: Path) -> None:
    # A voice transcript with no stops, over the longest sentence read whole: before, it
    # wrote nothing; its clauses are read as sentences now, and what it says is kept.
    filler = "and the weather was lovely so we walked along the river for a while "
    spoken = ("so um I wanted to say " + filler * 8 + "and my daughter is called Ines "
              "and I work at the bakery on the corner now " + filler * 6).strip()
    assert len(spoken) > MAX_SENTENCE and "." not in spoken
    cut = list(pieces(spoken))
    assert all(len(p) <= PIECE for p in cut)
    linking = {"so", "and", "but"}                # a piece opens without its conjunction
    words = [w for w in " ".join(cut).split() if w not in linking]
    assert words == [w for w in spoken.split() if w not in linking]   # in order, once
    read, left_out = readable(_observation(spoken))
    assert left_out == 0 and read.turns[0].content.split("\n") == cut
    with MemoryStore(tmp_path / "m", HashingEmbedder()) as store:
        observe(store, MemorySettings(), _observation(spoken), RuleEvaluator())
        kept = store.list(subject_type="guest", subject_id="ana", limit=20)[0]
    assert any("bakery" in m["content"] for m in kept), [m["content"] for m in kept]


def test_a_sentence_of_too_many_words_is_read_in_pieces_too() -> None:
    spoken = ("we went to the coast for the weekend and the kids loved the beach " * 5 +
              "and I started a new job at the library on Monday").strip()
    assert len(spoken) < MAX_SENTENCE and len(spoken.split()) > MAX_WORDS
    cut = list(pieces(spoken))
    assert len(cut) > 1 and cut[-1].endswith("the library on Monday")
    short = "I live in Porto and I work at a bakery, which I love."
    assert list(pieces(short)) == [short]


def test_the_last_sentences_are_read_and_earlier_turns_are_as_heard() -> None:
    early = "I live in Porto."
    late = " ".join(f"I like colour {n}." for n in range(MAX_SENTENCES))
    read, left_out = readable(_observation(early, "Hello there.", late))
    assert left_out == 2
    assert not read.is_fresh(0) and not read.is_fresh(1) and read.is_fresh(2)
    assert read.turns[2].content == _observation(late).turns[0].content

    over = " ".join(f"I like colour {n}." for n in range(MAX_SENTENCES + 5))
    read, left_out = readable(_observation(over))
    kept = read.turns[0].content.split("\n")
    assert left_out == 5 and len(kept) == MAX_SENTENCES
    assert kept[0] == "I like colour 5." and kept[-1] == f"I like colour {MAX_SENTENCES + 4}."
