"""The benchmark command lines the docs give run, on a tiny conversation set.

``docs/recall.md`` and ``bench/README.md`` show these commands; here each runs end to end
on two made-up conversations in the LoCoMo layout with the hashing embedder (the real
model's figures are the benches' job, not a test's).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]


def conversation(sample_id: str, a: str, b: str) -> dict:
    sessions = {
        "session_1_date_time": "1:56 pm on 8 May, 2023",
        "session_1": [
            {"speaker": a, "dia_id": "D1:1", "text": "I went to a pottery class yesterday."},
            {"speaker": b, "dia_id": "D1:2", "text": "How was it? Did you make a bowl?"},
            {"speaker": a, "dia_id": "D1:3", "text": "Yes, a blue one!",
             "blip_caption": "a photo of a blue bowl"},
        ],
        "session_2_date_time": "10:00 am on 20 May, 2023",
        "session_2": [
            {"speaker": b, "dia_id": "D2:1", "text": "I ran a charity race last Sunday."},
            {"speaker": a, "dia_id": "D2:2", "text": "Congrats! For which charity?"},
            {"speaker": b, "dia_id": "D2:3", "text": "For the animal shelter in town."},
        ],
    }
    qa = [
        {"question": f"What did {a} make at the pottery class?", "answer": "a bowl",
         "evidence": ["D1:3"], "category": 4},
        {"question": f"When did {b} run a charity race?", "answer": "May 2023",
         "evidence": ["D2:1; D2:3"], "category": 2},
        {"question": "What did they discuss on 20 May, 2023?", "answer": "a race",
         "evidence": ["D2:1", "D9:99"], "category": 1},
        {"question": "Unanswerable?", "answer": "", "evidence": ["D1:1"], "category": 5},
    ]
    summaries = {"session_1_summary": f"{a} told {b} about a pottery class.",
                 "session_2_summary": f"{b} ran a race for a charity."}
    observation = {"session_1_observation": {a: [[f"{a} went to a pottery class.", "D1:1"]]},
                   "session_2_observation": {b: [[f"{b} ran a charity race.", "D2:1"]]}}
    return {"sample_id": sample_id, "conversation": {"speaker_a": a, "speaker_b": b,
                                                     **sessions}, "qa": qa,
            "session_summary": summaries, "observation": observation}


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("eval") / "tiny.json"
    path.write_text(json.dumps([conversation("conv-a", "Ana", "Ben"),
                                conversation("conv-b", "Cy", "Dee")]))
    return path


def run(*argv: str) -> str:
    done = subprocess.run([sys.executable, *argv], cwd=ROOT, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


@pytest.mark.parametrize("extra", [
    [], ["--levers", "none", "--window", "0"], ["--levers", "situated_lexical,time"],
    ["--no-occurred"], ["--ablation"], ["--ablation", "--mixed", "300"],
    ["--mixed", "300", "--latency", "1"], ["--variants"],
    ["--variants", "neighbours .5 of the top 5|BM25 b .5", "--mixed", "300"],
    ["--curve"], ["--curve", "--mixed", "300", "--raw"], ["--misses"],
    ["--params", "name_projection=1,name_weight=.5", "--mixed", "300"]])
def test_locomo_bench_command_lines(data: Path, extra: list[str]) -> None:
    out = run("bench/locomo_bench.py", "--data", str(data), "--embedder", "hashing", *extra)
    if "--curve" in extra:
        assert "calibration curve" in out and "evidence" in out and "0.40" in out
        assert ("general" in out) == ("--mixed" in extra)
    elif "--misses" in extra:
        assert "where the evidence turns rank" in out and "past 50" in out
        assert "several evidence turns" in out
    elif "--latency" in extra:
        assert "when -> a time (default)" in out and "p95 ms" in out
    elif "--ablation" in extra:
        assert "when -> a time (default)" in out and "situated lexical only" in out
        assert "query without names (off)" in out
        assert "+ neighbours only" in out and "+ names only" in out
    elif "--variants" in extra:
        assert "neighbours .5 of the top 5" in out and "category 4 single-hop" in out
        assert ("BM25 k1 2.0" in out) == (len(extra) == 1)
    else:
        assert "Triform MemoryStore search" in out and "n=6" in out
        assert "evidence ids dropped (resolve to no turn): 2" in out
        # one line per conversation, as issue 29 asks every lever reported
        assert "conversation conv-a" in out and "conversation conv-b" in out


def test_locomo_bench_lanes_and_query_context(data: Path) -> None:
    """``--lanes`` picks each lane's model (the static model alone here: no MiniLM run),
    ``--query-context summary`` asks with the evidence session's summary."""
    out = run("bench/locomo_bench.py", "--data", str(data), "--lanes", "static",
              "--query-context", "summary")
    assert "model triform/all-MiniLM-L6-v2-static-384" in out and "n=6" in out


def test_lanes_bench_puts_assignments_side_by_side() -> None:
    out = run("bench/lanes_bench.py", "--memories", "300", "--queries", "4", "--stores", "2",
              "--batches", "1", "--assignments", "static|static,static,static")
    assert "| static | " in out and "| static,static,static | " in out


def test_validity_walk_bench_finds_what_the_old_walk_lost() -> None:
    out = run("bench/validity_walk_bench.py", "--memories", "3000", "--queries", "10",
              "--planted", "5", "--crowded", "100")
    assert "before" in out and "current memory found 0/10" in out
    assert "current memory found 10/10" in out


def test_lenders_bench_reads_the_same_lenders_both_ways() -> None:
    out = run("bench/lenders_bench.py", "--sizes", "600", "--shares", "0.2",
              "--subjects", "20", "--queries", "6")
    assert "superseded" in out and "kept pick unscoped" in out and "scan pick scoped" in out


def test_peer_bench_without_chroma(data: Path) -> None:
    out = run("bench/peer_bench.py", "--data", str(data), "--no-chroma", "--rounds", "2",
              "--batches", "1", "--batch", "6")
    assert "median memories/s: triform" in out and "triform / model alone" in out


def test_cache_bench_command_line(data: Path) -> None:
    out = run("bench/cache_bench.py", "--data", str(data), "--embedder", "hashing",
              "--conversations", "2", "--turns", "6")
    assert "hit rate" in out and "texts embedded" in out


def test_updates_bench_command_line(tmp_path: Path) -> None:
    cases = tmp_path / "cases.yaml"
    cases.write_text("""
background: ["I volunteer at the animal shelter on Sundays."]
cases:
- {id: a, split: dev, attribute: home, kind: update, name: Ana, before: "I live in Porto.",
   after: "Quick update: I live in Lisbon now.", query: "Where does Ana live?", old: Porto,
   new: Lisbon}
- {id: b, split: held-out, attribute: allergy, kind: retire, name: Bo,
   before: "I'm allergic to shellfish.", after: "I'm not allergic to shellfish anymore.",
   query: "What is Bo allergic to?", old: shellfish}
- {id: c, split: held-out, attribute: pet, kind: control, name: Cy,
   before: "I have a dog named Rex.", after: "I adopted a second dog named Max.",
   query: "What dogs does Cy have?", old: Rex, new: Max}
""")
    out = run("bench/updates_bench.py", "--cases", str(cases), "--embedder", "hashing",
              "--show")
    assert "| dev | 1/1 = 100% | 1/1 = 100% | 1/1 = 100% | - |" in out, out
    assert "| held-out | - | - | - | 1/1 = 100% | 1/1 = 100% | 1/1 = 100% | 1/1 = 100% |" \
        in out, out
    # as of: the old value answers for a moment before the newer statement (issue 23).
    assert "failed cases: none" in out and "| not measured |" not in out
    assert "| 1/1 = 100% | 2/2 = 100% | 1/1 = 100% | 1/1 = 100% | 2/2 = 100% |" in out, out
    # The misses by stage: counts only, on a line that survives the filter blind sets are
    # run through (grep -v -i "fail\|id": no case's id, no "fail", no "id" in any word).
    stages = [line for line in out.splitlines() if line.startswith("misses by stage:")]
    assert len(stages) == 1 and "fail" not in stages[0].lower() \
        and "id" not in stages[0].lower(), out
    assert "updates, newer not first 0:" in stages[0] and "controls, one lost 0:" in stages[0]
    # Why "both current" updates keep the newer second, and how many controls' newer went
    # above the old: counts only too, on a line the blind filter keeps.
    why = [line for line in out.splitlines() if line.startswith("both current ")]
    assert len(why) == 1 and "fail" not in why[0].lower() and "id" not in why[0].lower(), out
    assert why[0].startswith("both current 0, why: new not found 0,") and \
        "controls, new above old 0 of 1 with both found" in why[0] and \
        "| new not found: no single asked 0, old not first 0," in why[0], why[0]
    # The retires whose old value is still answered, by how the rules read the ending
    # (an episode linked to nothing, an ending that found no memory ...): counts only.
    retired = [line for line in out.splitlines() if line.startswith("retires missed, ")]
    assert retired == ["retires missed, read as: none"], out
    # Two cases per fresh home: the figures are the same, gathered over two servers.
    dump = tmp_path / "cases.jsonl"
    batched = run("bench/updates_bench.py", "--cases", str(cases), "--embedder", "hashing",
                  "--batch", "2", "--dump", str(dump))
    assert "| 1/1 = 100% | 2/2 = 100% | 1/1 = 100% | 1/1 = 100% | 2/2 = 100% |" in batched, \
        batched
    # --dump: each case's decisions and scores, a JSON line each (to count misses by class).
    lines = [json.loads(line) for line in dump.read_text().splitlines()]
    assert [line["case"]["id"] for line in lines] == ["a", "b", "c"]
    assert lines[0]["result"]["newer_first"] is True
    assert "supersede" in [d["action"] for d in lines[0]["decisions"]]


def test_updates_bench_takes_a_statement_told_across_an_exchange(tmp_path: Path) -> None:
    # A newer statement may be an exchange (the other person's reply in between): its
    # turns go to observe as one conversation, and what the user said in it is scored.
    cases = tmp_path / "cases.yaml"
    cases.write_text("""
cases:
- {id: c, split: held-out, attribute: pet, kind: control, name: Cy,
   before: "I have a dog named Rex.",
   after: [{user: "Guess what happened on Saturday."}, {assistant: "No idea, tell me!"},
           {user: "I adopted a second dog named Max."}],
   query: "What dogs does Cy have?", old: Rex, new: Max}
""")
    dump = tmp_path / "cases.jsonl"
    run("bench/updates_bench.py", "--cases", str(cases), "--embedder", "hashing", "--alone",
        "--dump", str(dump))
    line = json.loads(dump.read_text())
    assert line["result"]["both_kept"] is True, line


def test_updates_bench_says_how_a_missed_ending_was_read(tmp_path: Path) -> None:
    # An ending worded unlike its memory (without a model nothing links them): the line
    # names how the rules read it, in counts a blind set may print.
    cases = tmp_path / "cases.yaml"
    cases.write_text("""
cases:
- {id: r, split: held-out, attribute: hobby, kind: retire, name: Di,
   before: "I grow tomatoes on my allotment on Mill Lane.",
   after: "The council took the plot back in March, so that's the end of that.",
   query: "What does Di grow?", old: tomatoes}
""")
    out = run("bench/updates_bench.py", "--cases", str(cases), "--embedder", "hashing",
              "--alone")
    line = next(line for line in out.splitlines() if line.startswith("retires missed, "))
    assert "fail" not in line.lower() and "id" not in line.lower(), line
    counts = [int(n) for n in re.findall(r" (\d+)(?:,|$)", line)]
    assert sum(counts) == 1, line


def test_observe_bench_command_line_dumps_facts_and_memories(data: Path,
                                                             tmp_path: Path) -> None:
    dump = tmp_path / "dump.json"
    out = run("bench/observe_bench.py", "--data", str(data), "--convs", "0,1", "--no-qa",
              "--hashing-store", "--dump", str(dump))
    assert "| 0-2 (tuned on) | 4 |" in out, out
    rows = json.loads(dump.read_text())
    facts = [r for r in rows if r["kind"] == "fact"]
    memories = [r for r in rows if r["kind"] == "memory"]
    assert len(facts) == 4 and memories
    assert {"Ana went to a pottery class.", "Ben ran a charity race."} <= \
        {f["text"] for f in facts}
    pottery = next(m for m in memories if "pottery" in m["text"])
    assert pottery["turns"] == ["D1:1"] and pottery["matched"] and pottery["best"] >= 0.6


def test_transfer_bench_command_line() -> None:
    out = run("bench/transfer_bench.py", "--memories", "300")
    assert "export (vectors)" in out and "import (plain)" in out
    assert "import (vectors) embedded here: 0" in out


def test_pg_bench_quick_puts_both_backends_side_by_side(pg_server, tmp_path: Path) -> None:
    url = pg_server.create_database("pg_bench_quick")
    out = run("bench/pg_bench.py", "--quick", "--database", url, "--files",
              str(tmp_path / "files"))
    assert "| figure | file | postgres |" in out
    assert "filtered recall@10 (iterative_scan relaxed_order) | - | 1.000" in out
    assert "| filtered top-10 = file's | - |" in out and "postgres / file (p50)" in out
    # The postings path is exact BM25 (the property: tests/index/test_postgres_bm25.py).
    assert "| unscoped BM25 top-10 = exact BM25's | - | 1.000 |" in out
    # Both built stores searched again as they are, beside another revision.
    again = run("bench/pg_before_after.py", "--before", "HEAD", "--quick", "--database",
                url, "--element", "bench-500", "--files", str(tmp_path / "files"))
    assert "| search p50 / p95 ms | file | pg HEAD | pg this tree | pg this tree, no " \
        "neighbours |" in again
    agree = next(line for line in again.splitlines() if "top-10 = file's" in line)
    assert agree.split(" | ")[3] == "1.000", again


def test_bm25_bounds_quick_says_what_early_termination_could_skip() -> None:
    out = run("bench/bm25_bounds.py", "--quick")
    assert "MaxScore: share of the postings in essential lists: 0." in out
    assert "block-max, blocks of 64: share of blocks read: 1.000" in out


def test_pg_before_after_quick_puts_two_revisions_side_by_side(pg_server) -> None:
    url = pg_server.create_database("pg_before_after_quick")
    out = run("bench/pg_before_after.py", "--before", "HEAD", "--quick", "--database", url)
    assert "| search p50 / p95 ms | file | file HEAD | pg HEAD | pg this tree | pg this " \
        "tree, no neighbours |" in out
    # With neighbour turns this tree returns the file store's unscoped top-10.
    agree = next(line for line in out.splitlines() if "top-10 = file's" in line)
    assert agree.split(" | ")[4] == "1.000", out
    # The element built there, searched again as it is: no file stores, no build.
    again = run("bench/pg_before_after.py", "--before", "HEAD", "--quick", "--database",
                url, "--element", "before-after-500")
    assert "| search p50 / p95 ms | pg HEAD | pg this tree | pg this tree, no neighbours |" \
        in again
    assert "| build s (batches of 500) | - | - | - |" in again
    agree = next(line for line in again.splitlines() if "top-10 = pg HEAD's" in line)
    assert agree.split(" | ")[2] == "1.000", again


def test_hardening_bench_quick() -> None:
    out = run("bench/hardening.py", "--quick")
    for line in ("sigkill: 2 trials x 4 writers", "leaks: 200 cross-subject searches, 0 ",
                 "hostile: 13 hostile inputs, 13 refused, 0 files written outside the home",
                 "slow: 150 slow-header sockets held", "soak: 300 ops"):
        assert line in out, out
    assert "lost 0" in out and "413" in out
    assert "elements: 20 memory elements" in out and "memories not found again: 0" in out
    assert "connections: 1100 idle + 100 half-sent bodies" in out
    assert "server alive, health check 200" in out
    rounds = [line.split(":", 1)[1] for line in out.splitlines()
              if line.startswith("  round ")]
    assert "poison: 5 imports of 30 good lines and one poison line, 5 refused, 0 memories " \
        "written; after a restart 5/5 elements open" in out
    assert "bodies: 10 connections announcing 100 MiB without a token: HTTP/1.1 401" in out
    assert "deleted texts left in the files: 0" in out
    # Descriptors and mappings flat from round to round (RSS wobbles by a MiB).
    assert len(rounds) == 3 and len({r.split("MiB, ")[1].split(" (")[0]
                                     for r in rounds}) == 1, out


def test_hop_plan_quick_explains_the_hop_before_and_after_analyze(pg_server) -> None:
    url = pg_server.create_database("hop_plan_quick")
    out = run("bench/hop_plan.py", "--quick", "--database", url)
    assert "hop statement after the load: median" in out
    assert "hop statement after ANALYZE: median" in out
    # Each memory the postings name, looked up by its sequence number.
    assert "Index Scan using memories_seq on memories" in out, out


def test_analyze_cost_quick_times_analyze_beside_the_write_that_calls_for_it(
        pg_server) -> None:
    out = run("bench/analyze_cost.py", "--quick")
    # The store analysed the tables during the build (autovacuum is off on its server).
    assert "the store analysed the tables 0 times" not in out, out
    assert "1000 rows: ANALYZE of the 3 tables median" in out, out
    assert "5000 rows: ANALYZE of the 3 tables median" in out, out


def test_workers_bench_quick_puts_one_and_two_workers_side_by_side(pg_server) -> None:
    url = pg_server.create_database("workers_bench_quick")
    out = run("bench/workers_bench.py", "--quick", "--database", url)
    assert "| workers | requests/s | p50 ms | p95 ms | errors |" in out
    rows = [line for line in out.splitlines() if line.startswith(("| 1 |", "| 2 |"))]
    assert len(rows) == 2 and all(line.endswith("| 0 |") for line in rows), out
    assert "two workers / one:" in out


def test_embed_behind_bench_quick_embeds_each_text_once() -> None:
    out = run("bench/embed_behind_bench.py", "--embedder", "hashing", "--quick")
    assert "2 workers x 20 memories" in out
    row = [line.split() for line in out.splitlines() if line.strip().startswith("1 ")]
    assert len(row) == 1 and row[0][1] == "1.00", out


def test_lanes_bench_times_the_stages_beside_another_revision() -> None:
    out = run("bench/lanes_bench.py", "--memories", "300", "--queries", "4", "--stores", "2",
              "--batches", "1", "--assignments", "static", "--base", "HEAD", "--stages")
    assert "| static | " in out and "| static@HEAD | " in out
    assert "by stage" in out and "| the query's embedding (all lanes' models) | " in out


def test_search_http_bench_pre_embedded_searches_by_vector_beside_another_revision() -> None:
    """Every search of both servers finds its texts (the question, its first name alone)
    in the lookup table: one scored by text (its embedding failed) stops the bench."""
    out = run("bench/search_http_bench.py", "--size", "300", "--rounds", "1", "--base", "HEAD")
    assert "query only " in out and "3 lanes " in out and "GET /healthz" in out


def test_search_http_bench_interleaved_times_the_stages_beside_another_revision() -> None:
    """The real model in the servers and in the bench (300 memories; the vectors of
    ``memory_bench.py``'s cache, made by the model on first use)."""
    out = run("bench/search_http_bench.py", "--interleaved", "--size", "300", "--rounds", "1",
              "--base", "HEAD", "--stages", "--tune",
              f"gcfreeze=1,floor=1,python={sys.executable}",
              "--spans", "index.search:_lexical,index.lanes:Lane.search")
    assert "HTTP search at HEAD" in out and "ratio at HEAD" in out
    assert "ratio, gcfreeze=1" in out                 # --tune: this tree served again, tuned
    # floor=1: that server's store answers nothing at no cost (the HTTP stack and the model)
    store = [line for line in out.splitlines()
             if line.startswith("| the store's search (under its lock) | ")]
    assert len(store) == 1 and store[0].split(" | ")[2].startswith("0.0"), out
    assert "by stage" in out and "| the store's search (under its lock) | " in out
    # waitress's own share of the request, apart from the client's and the kernel's
    read = [line for line in out.splitlines()
            if line.startswith("|   waitress: the request's read to the app | ")]
    assert len(read) == 1 and "0.00 / 0.00" not in read[0], out
    assert "|   span index.lanes:Lane.search | " in out     # --spans: each one's time


def test_updates_bench_tells_an_ending_in_other_words_from_one_not_recognised() -> None:
    # A retire whose old memory was replaced by an ending the judge's words do not list
    # ("deleted") is the judge's miss, counted apart from an ending that replaced nothing.
    import importlib.util
    spec = importlib.util.spec_from_file_location("updates_bench", ROOT / "bench" /
                                                  "updates_bench.py")
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    case = {"kind": "retire", "old": "Instagram"}
    earlier = [{"action": "add", "memory_id": "m1", "content": "Uma posts on Instagram."}]
    result = {"kept": ["Uma deleted her Instagram account."], "old_absent": False}
    replaced = {"case": case, "earlier": earlier,
                "newer": [{"action": "supersede", "memory_id": "m1"}]}
    assert bench.stage(replaced, result) == "ended in other words"
    added = {"case": case, "earlier": earlier, "newer": [{"action": "add", "memory_id": "m2"}]}
    kept = {**result, "kept": [*result["kept"], "Uma posts on Instagram."]}
    assert bench.stage(added, kept) == "ending not recognised"
    assert bench.stage({**added, "newer": [{"action": "nothing"}]}, kept) == "not stored"


def test_observe_probe_counts_news_stored_and_chat_kept_quiet(tmp_path: Path) -> None:
    """``bench/observe_probe.py``: half a is printed item by item, half b only counted."""
    cases = tmp_path / "probe.yaml"
    cases.write_text("""
news:
- {id: a-1, half: a, said: "I was promoted to team lead in March.", fact: team lead}
- {id: b-1, half: b, said: "Started a new role at Shopify on Monday.", fact: Shopify}
nothing:
- {id: a-2, half: a, said: "How was your weekend?"}
- {id: b-2, half: b, said: "Cheers, talk soon!"}
""")
    out = run("bench/observe_probe.py", "--cases", str(cases), "--embedder", "hashing")
    assert "half a: news stored 1/1, nothing kept quiet 1/1" in out, out
    assert "half b: news stored 1/1, nothing kept quiet 1/1" in out, out
    assert "team lead" in out and "Shopify" not in out     # b's items are never printed


def test_updates_bench_crowds_the_pool_and_counts_false_supersedes(tmp_path: Path) -> None:
    # --crowd K: between the old and the newer statement the subject says K real turns of
    # one speaker (here a made-up LoCoMo file); a supersede that ends a memory other than
    # the case's old one is a false one, counted by whom on a line blind sets may print,
    # and listed with --show.
    source = tmp_path / "locomo.json"
    turns = ["I finally moved to Madrid now and I love the flat so much.",
             "My sister and I spent the whole weekend painting the kitchen walls.",
             "Honestly I think the new bakery near my work is the best in town."]
    source.write_text(json.dumps([{"sample_id": "s", "conversation": {
        "speaker_a": "Di", "speaker_b": "Ed", "session_1_date_time": "1:56 pm on 8 May, 2023",
        "session_1": [{"speaker": "Di", "dia_id": f"D1:{i}", "text": t}
                      for i, t in enumerate(turns, 1)]}}]))
    cases = tmp_path / "cases.yaml"
    cases.write_text("""
background: ["I live in Porto."]
cases:
- {id: c, split: dev, attribute: pet, kind: control, name: Cy,
   before: "I have a dog named Rex.", after: "I adopted a second dog named Max.",
   query: "What dogs does Cy have?", old: Rex, new: Max}
""")
    out = run("bench/updates_bench.py", "--cases", str(cases), "--embedder", "hashing",
              "--crowd", "3", "--crowd-from", str(source), "--show")
    assert "crowd 3" in out.splitlines()[0], out
    line = next(x for x in out.splitlines() if x.startswith("false supersedes "))
    assert line.startswith("false supersedes 1 (newer 0, crowd 1)"), out
    assert "fail" not in line.lower() and not re.search(r"\bid\b", line, re.I), line
    assert "[crowd] supersede: 'Cy lives in Porto' <- 'Cy lives in Madrid'" in out, out
    plain = run("bench/updates_bench.py", "--cases", str(cases), "--embedder", "hashing")
    assert "false supersedes 0 (newer 0, crowd 0), reasons: none" in plain, plain


def test_observe_shapes_counts_a_dump_by_shape_and_prints_no_text(tmp_path: Path) -> None:
    def row(kind: str, speaker: str, text: str, turns: list[str], matched: bool) -> dict:
        return {"kind": kind, "conv": "c", "speaker": speaker, "text": text, "turns": turns,
                "matched": matched, "best": 0.7 if matched else 0.4, "nearest": ""}
    dump = tmp_path / "dump.json"
    dump.write_text(json.dumps([
        row("fact", "Ana", "Ana went to a pottery class.", ["D1:1"], True),
        row("memory", "Ana", "Ana went to a pottery class. It was fun.", ["D1:1"], True),
        row("memory", "Ana", "It rained all week, Ben.", ["D1:3"], False),
        row("memory", "Ben", "Ben ran a race.", ["D1:2"], False)]))
    out = run("bench/observe_shapes.py", str(dump))
    assert "3 memories, 1 matched at 0.6" in out, out
    assert "sentences: 1 0 / 2 (0.00), 2 1 / 1 (1.00)" in out, out
    assert "a pronoun 0 / 1" in out and "the speaker's name 1 / 2" in out, out
    assert "names the other: no 1 / 2 (0.50), yes 0 / 1 (0.00)" in out, out
    assert "facts citing its turns: 0 0 / 2 (0.00), 1 1 / 1 (1.00)" in out, out
    assert "pottery" not in out and "rained" not in out     # counts only


def test_observe_shapes_splits_a_memory_at_the_speakers_name() -> None:
    from bench.observe_shapes import at_the_speaker, every_sentence
    text = "Ana ran a race. It was hard. Ana's dog Rex came too. Dr. Lee cheered."
    assert every_sentence(text, "Ana") == ["Ana ran a race.", "It was hard.",
                                           "Ana's dog Rex came too.", "Dr. Lee cheered."]
    assert at_the_speaker(text, "Ana") == ["Ana ran a race. It was hard.",
                                           "Ana's dog Rex came too. Dr. Lee cheered."]


def test_hostile_turns_quick_times_each_turn_and_none_is_cut() -> None:
    out = run("bench/hostile_turns.py", "--quick")
    rows = [line for line in out.splitlines() if line.startswith("| ") and " s |" in line]
    assert len(rows) == 8 and "clauses 'aaa, '" in out, out
    assert ">" not in "".join(rows), out


def test_profile_read_probe_reads_every_statement_once() -> None:
    out = run("bench/profile_read_bench.py", "--probe", "bench/data/profile-probe.yaml")
    m = re.search(r"probe (\d+): right and clear (\d+), right \(unclear\) (\d+), "
                  r"unclear (\d+), wrong (\d+)", out)
    assert m, out
    total, *kinds = (int(g) for g in m.groups())
    assert total == len(yaml.safe_load((ROOT / "bench/data/profile-probe.yaml").read_text())
                        ["statements"]) and sum(kinds) == total and kinds[0] > total // 2


def test_profile_read_pairs_reads_the_read_sets_and_halves_a() -> None:
    out = run("bench/profile_read_bench.py", "--pairs")
    m = re.search(r"updates read together (\d+)/(\d+), controls read together (\d+)/(\d+)", out)
    assert m, out
    together, updates, apart, controls = (int(g) for g in m.groups())
    assert updates > 500 and controls > 150 and 0 < together < updates and apart < controls
