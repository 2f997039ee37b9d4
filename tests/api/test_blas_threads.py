"""The server gives numpy's BLAS one thread (api/app.py, index/blas.py)."""

from __future__ import annotations

import pytest

from api.app import create_app
from index import limit_blas_threads
from index.blas import blas_threads


def test_the_server_gives_blas_one_thread(tmp_path):
    before = blas_threads()
    if before is None:
        pytest.skip("numpy is not linked with OpenBLAS here")
    try:
        limit_blas_threads(2)
        create_app({"HOME": str(tmp_path / "home"), "EMBEDDER": "hashing"})
        assert blas_threads() == 1
    finally:
        limit_blas_threads(before)
