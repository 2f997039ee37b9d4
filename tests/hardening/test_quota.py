"""A member cannot grow a circle without bound (issue 9, Medium 11): ``create`` and
``import_bundle`` stop at the circle's element quota with a clear 409, and other circles
are not affected."""

from __future__ import annotations

import base64

from tests.helpers import assert_error, create


def test_create_and_import_stop_at_the_circle_quota(server) -> None:
    member, other = server.client("member"), server.client("other")
    # demo holds the circle and its memory: two more fill a quota of four.
    server.home.max_elements_per_circle = 4
    create(member, "prompt", "one", text="1")
    create(member, "prompt", "two", text="2")
    refused = member.post("/api/demo/ops/create", {"element_type": "prompt", "slug": "three"})
    error = assert_error(refused, 409, "CIRCLE_QUOTA_EXCEEDED")
    assert "quota of 4" in error["message"]
    assert server.home.catalog.count_elements("demo") == 4
    data = base64.b64encode(member.get("/api/demo/one/ops/export/bundle").raw).decode()
    imported = member.post("/api/demo/ops/import/bundle", {"bundle_base64": data,
                                                           "slug": "three"})
    assert imported.body["errors"][0]["code"] == "CIRCLE_QUOTA_EXCEEDED"
    # An overwrite replaces an element: it does not grow the circle.
    again = member.post("/api/demo/ops/import/bundle", {"bundle_base64": data, "slug": "one",
                                                        "overwrite": True})
    assert again.body["counts"]["imported"] == 1, again.body
    assert len(list((server.home.path / "repos").iterdir())) == 5   # 4 + circle other
    create(other, "prompt", "elsewhere", parent="other")   # another circle has its own quota
