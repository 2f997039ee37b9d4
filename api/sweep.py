"""The background retention sweep: the reaper runs on a timer, not only when someone asks
for ``stats``, so expired memories leave even an element nobody reads."""

from __future__ import annotations

import logging
import threading

from element import Home

__all__ = ["start_retention_sweep"]

log = logging.getLogger("triform.sweep")


def start_retention_sweep(home: Home, env: str, every: float) -> threading.Event:
    """Reap every memory element each ``every`` seconds in a daemon thread.

    Returns the event that stops it. A failing sweep is logged and retried at the next tick:
    the sweep must never take the server down.
    """
    stop = threading.Event()

    def loop() -> None:
        while not stop.wait(every):
            try:
                for path, ids in home.reap_all(env).items():
                    log.info("retention: %d memories expired in %s", len(ids), path)
            except Exception:
                log.exception("retention sweep failed")

    threading.Thread(target=loop, name="retention-sweep", daemon=True).start()
    return stop
