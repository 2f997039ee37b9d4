"""The op path reads the token, the element, its attachments and its spec mirror once per
request and keeps none of them between requests: what changes is seen by the very next one."""

from __future__ import annotations

from element import create_token
from tests.helpers import HttpClient, assert_error, create

SEARCH = "/api/demo/memory/ops/search"
QUERY = {"query": "tea", "limit": 3}


def test_the_next_request_sees_a_revoked_token_and_a_changed_or_deleted_element(
        server) -> None:
    admin = server.client(live=True)
    token = create_token(server.home.catalog, "demo", "member", "soon-revoked")
    member = HttpClient("127.0.0.1", server.port, token)
    assert member.post(SEARCH, QUERY).status == 200
    server.home.catalog.revoke_token(next(t["id"] for t in server.home.catalog.tokens("demo")
                                          if t["name"] == "soon-revoked"))
    assert_error(member.post(SEARCH, QUERY), 401, "UNAUTHORIZED")

    member = server.client("member", live=True)
    assert member.post(SEARCH, QUERY).status == 200
    assert admin.post("/api/demo/memory/ops/disable", {}).status == 200
    assert_error(member.post(SEARCH, QUERY), 409, "ELEMENT_DISABLED")
    assert admin.post("/api/demo/memory/ops/enable", {}).status == 200
    assert member.post(SEARCH, QUERY).status == 200

    create(admin, "auth-policy", "no-reads", deny=[{"role": "member"}])
    create(admin, "project", "proj", members=["memory"])
    reply = admin.post("/api/demo/proj/ops/compose",
                       {"add": [{"ref": "no-reads", "cascade": "members"}]})
    assert reply.status == 200, reply.body
    assert_error(member.post(SEARCH, QUERY), 403, "POLICY_DENIED")   # cascaded at once
    detached = admin.post("/api/demo/proj/ops/remove-modifier",
                          {"attachment_id": reply.body["added"][0]["attachment_id"]})
    assert detached.status == 200 and member.post(SEARCH, QUERY).status == 200

    memory = server.home.catalog.element_at("demo/memory")
    server.home.catalog.update_element(memory.id, state="deleted")
    assert member.post(SEARCH, QUERY).status != 200
    server.home.catalog.delete_element(memory.id)
    assert_error(member.post(SEARCH, QUERY), 404, "ELEMENT_NOT_FOUND")
