"""A full disk is a clear 507 STORAGE_FULL on every element write, never a generic 500
(issue 9, Medium 8), and the home works again once space is back.

The disk is a real 4 MiB tmpfs filled to the last block (needs root to mount; skipped
otherwise, as in tests/index/test_files.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.helpers import assert_error, serve
from tests.index.test_files import fill, tmpfs


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    yield from tmpfs(tmp_path, "4m")


def test_element_writes_on_a_full_disk_answer_storage_full(small_disk: Path) -> None:
    srv = serve(small_disk / "home")
    try:
        admin = srv.client()
        filler = fill(small_disk)
        calls = [("POST", "/api/demo/ops/create", {"element_type": "prompt", "slug": "p"}),
                 ("POST", "/api/demo/memory/ops/readme_update", {"content": "# x\n" * 200}),
                 ("PATCH", "/api/demo/memory/ops/update_meta", {"meta": {"k": "v" * 8000}}),
                 ("POST", "/api/demo/memory/ops/store", {"content": "y" * 8000,
                                                         "category": "fact"})]
        for method, path, body in calls:
            error = assert_error(admin.request(method, path, body), 507)
            assert error["code"] in ("STORAGE_FULL", "SOURCE_STORAGE_FULL"), error
            assert error["class"] == "storage_full" and error["retryable"] is True
        assert not any(p.name.startswith(".") or p.name.endswith(".tmp")
                       for p in (small_disk / "home" / "repos").iterdir())
        assert srv.home.catalog.count_elements("demo") == 2        # no half-made element
        filler.unlink()
        for method, path, body in calls:
            assert admin.request(method, path, body).status in (200, 201)
    finally:
        srv.close()
