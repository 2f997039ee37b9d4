"""One BLAS thread: the matrix-vector products of a search must not fan out.

numpy's OpenBLAS splits a product over every core once it is large enough: an exact search
over a pool of more than about 1,100 rows (``Lane.exact_search``, up to ``sqrt(800 n)``
rows) crosses that line. On a quiet machine the split saves a fraction of a millisecond;
on a busy one the product waits for a second core that is running something else, and
a 2,800 x 384 product measured 30-40 ms at the median and 80-100 ms at p95 instead of
0.3 / 9 ms with one thread (2 cores, load average 10). A server already runs requests
in parallel on its own threads, so it gives BLAS one thread (``api/app.py``).

The thread count is set through OpenBLAS's own ``*set_num_threads*`` entry point, found in
the library numpy loaded (as threadpoolctl does); with another BLAS, or none found, nothing
changes and :func:`limit_blas_threads` answers False.
"""

from __future__ import annotations

import ctypes
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["limit_blas_threads", "blas_threads"]

_GETTERS = ("scipy_openblas_get_num_threads64_", "scipy_openblas_get_num_threads",
            "openblas_get_num_threads64_", "openblas_get_num_threads")
_SETTERS = ("scipy_openblas_set_num_threads64_", "scipy_openblas_set_num_threads",
            "openblas_set_num_threads64_", "openblas_set_num_threads")


def _openblas_paths() -> list[str]:
    """Paths of the OpenBLAS libraries mapped into this process (Linux)."""
    np.ones(1) @ np.ones(1)          # numpy has loaded its BLAS by now
    try:
        maps = Path("/proc/self/maps").read_text()
    except OSError:
        return []
    found = []
    for line in maps.splitlines():
        path = line.split(maxsplit=5)[-1] if line.count(" ") >= 5 else ""
        if "openblas" in Path(path).name.lower() and path not in found:
            found.append(path)
    return found


def _entry_points(names: tuple[str, ...]) -> Iterator[Any]:
    """Per mapped OpenBLAS library, the first of ``names`` it exports."""
    for path in _openblas_paths():
        try:
            library = ctypes.CDLL(path)
        except OSError:
            continue
        found = next((f for f in (getattr(library, n, None) for n in names) if f), None)
        if found is not None:
            yield found


def limit_blas_threads(threads: int = 1) -> bool:
    """Let OpenBLAS use ``threads`` threads in this process; True when it was set."""
    done = False
    for setter in _entry_points(_SETTERS):
        setter(ctypes.c_int(threads))
        done = True
    return done


def blas_threads() -> int | None:
    """The threads OpenBLAS may use in this process (None: no OpenBLAS found)."""
    return next((int(getter()) for getter in _entry_points(_GETTERS)), None)
