"""Crash safety: a writer SIGKILLed at random moments never loses an acknowledged change.

A forked child opens the store and loops: store (printing each acknowledged id), delete
(printing it), search, and now and then compact; its checkpoints are frequent so kills land
in every phase (log append, checkpoint, compaction, open/replay). After each kill the parent
reopens the directory: it must open cleanly, hold every acknowledged store that was not
deleted (a delete in flight at the kill may or may not have landed), and none whose delete
was acknowledged.
"""

from __future__ import annotations

import os
import random
import select
import signal
import time

from index import HashingEmbedder, MemorySettings, MemoryStore

TRIALS = 24
ROOMY = MemorySettings(max_memories=1_000_000, relevance_threshold=0.0)


def _child(directory, out) -> None:
    store = MemoryStore(directory, HashingEmbedder(64), checkpoint_every=7, lock_timeout=10)
    rng = random.Random(os.getpid())
    mine: list[str] = []
    i = 0
    while True:
        memory = store.store(content=f"crash {os.getpid()} {i} " + rng.choice(["a", "b", "c"]),
                             category="fact", context=f"round {i % 4}" if i % 2 else None,
                             subject_type="guest" if i % 3 == 0 else None,
                             subject_id=f"g{i % 5}" if i % 3 == 0 else None, settings=ROOMY)
        os.write(out, f"s {memory.memory['id']}\n".encode())
        mine.append(memory.memory["id"])
        if i % 5 == 4:
            victim = mine.pop(rng.randrange(len(mine)))
            os.write(out, f"x {victim}\n".encode())   # a delete in flight may land or not
            store.delete(victim)
            os.write(out, f"d {victim}\n".encode())
        if i % 6 == 0:
            store.search(query="crash a", settings=ROOMY)
        if i % 45 == 44:
            store.compact()
        i += 1


def _run_and_kill(directory, rng: random.Random) -> bytes:
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_end)
        try:
            _child(directory, write_end)
        finally:
            os._exit(1)
    os.close(write_end)
    received = b""
    # The kill's clock starts at the child's first acknowledged write, not at its fork: on
    # a loaded machine (the suite runs on every core) opening the store can take longer
    # than the whole window, and the trial would test nothing.
    started = time.monotonic() + 60
    while b"s " not in received and time.monotonic() < started:
        ready, _, _ = select.select([read_end], [], [], 1.0)
        if ready:
            received += os.read(read_end, 1 << 16)
    deadline = time.monotonic() + rng.uniform(0.03, 0.25)
    while (left := deadline - time.monotonic()) > 0:
        ready, _, _ = select.select([read_end], [], [], left)
        if ready:
            received += os.read(read_end, 1 << 16)
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    while chunk := os.read(read_end, 1 << 16):
        received += chunk
    os.close(read_end)
    return received


def test_sigkill_never_loses_an_acknowledged_write(tmp_path):
    directory = tmp_path / "mem"
    rng = random.Random(20240607)
    stored: set[str] = set()
    deleted: set[str] = set()
    in_flight: set[str] = set()
    torn = 0
    for _ in range(TRIALS):
        received = _run_and_kill(directory, rng)
        for line in received.decode().split("\n")[:-1]:   # the last piece may be partial
            kind, memory_id = line.split(" ")
            {"s": stored, "d": deleted, "x": in_flight}[kind].add(memory_id)
        with MemoryStore(directory, HashingEmbedder(64), lock_timeout=10) as store:
            torn += store.open_report["torn_bytes"] > 0
            present = {m["id"] for m in store.list(limit=500)[0]}
            cursor = store.list(limit=500)[1]
            while cursor:
                page, cursor = store.list(limit=500, cursor=cursor)
                present |= {m["id"] for m in page}
            assert stored - deleted - in_flight <= present
            assert not (deleted & present)
            assert len(store) == len(present)
    assert len(stored) > TRIALS      # the children did real work between kills
    print(f"crash trials: {TRIALS}, acknowledged stores {len(stored)}, deletes {len(deleted)}, "
          f"opens that repaired a torn line: {torn}")
