"""One BLAS thread for a server (index/blas.py)."""

from __future__ import annotations

import pytest

from index import limit_blas_threads
from index.blas import blas_threads


def test_the_thread_count_is_set_and_read_back():
    before = blas_threads()
    if before is None:
        pytest.skip("numpy is not linked with OpenBLAS here")
    try:
        assert limit_blas_threads(1) is True
        assert blas_threads() == 1
        assert limit_blas_threads(2) is True
        assert blas_threads() == 2
    finally:
        limit_blas_threads(before)
