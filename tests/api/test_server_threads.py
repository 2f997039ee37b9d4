"""The server's worker threads: a request goes to the worker that went idle last.

waitress wakes the worker idle longest, so requests one after another rotate over every
thread, each on a thread that slept through the others' requests; the served search's model
ran about 1.6x slower that way on the project's loaded machine (``api/server.py``,
``LastIdleFirst``). These tests run the real dispatcher with real threads.
"""

from __future__ import annotations

import threading
import time

from api.server import LastIdleFirst


class Task:
    """A request as the dispatcher sees it: ``service()`` runs it on a worker."""

    def __init__(self, hold: threading.Barrier | None = None) -> None:
        self.hold = hold
        self.thread = ""
        self.done = threading.Event()

    def service(self) -> None:
        self.thread = threading.current_thread().name
        if self.hold is not None:
            self.hold.wait(10)
        self.done.set()


def idle(dispatcher: LastIdleFirst) -> None:
    """Wait until every worker waits for a task (the previous one is finished)."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        with dispatcher.lock:
            if dispatcher.active_count == 0:
                return
        time.sleep(0.001)
    raise AssertionError("the workers never went idle")


def test_requests_one_after_another_stay_on_the_worker_that_just_finished() -> None:
    dispatcher = LastIdleFirst()
    dispatcher.set_thread_count(4)
    try:
        threads = []
        for _ in range(12):
            idle(dispatcher)
            task = Task()
            dispatcher.add_task(task)
            assert task.done.wait(10)
            threads.append(task.thread)
        assert len(set(threads[1:])) == 1, threads     # waitress's own: all four in turn
    finally:
        dispatcher.shutdown()


def test_overlapping_requests_still_get_a_worker_each_and_shutdown_stops_them() -> None:
    dispatcher = LastIdleFirst()
    dispatcher.set_thread_count(4)
    together = threading.Barrier(4)          # passes only when four run at once
    tasks = [Task(together) for _ in range(4)]
    for task in tasks:
        dispatcher.add_task(task)
    assert all(task.done.wait(10) for task in tasks)
    assert len({task.thread for task in tasks}) == 4
    assert dispatcher.shutdown(timeout=10) is True
    assert not dispatcher.threads
