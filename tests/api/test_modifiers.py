"""Attached modifiers bite (429, 403) and lift when removed; the pure parts underneath."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from element import Principal
from element.governance.policy import policy_verdict
from element.governance.ratelimit import SlidingWindowLimiter
from tests.helpers import assert_error, create

MEMORY = "/api/demo/memory/ops"
LIST = f"{MEMORY}/memories"


def attach(client: Any, target: str, ref: str, **entry: Any) -> str:
    reply = client.post(f"/api/{target}/ops/compose", {"add": [{"ref": ref, **entry}]})
    assert reply.status == 200, reply.body
    return reply.body["added"][0]["attachment_id"]


def detach(client: Any, target: str, attachment_id: str) -> None:
    reply = client.post(f"/api/{target}/ops/remove-modifier", {"attachment_id": attachment_id})
    assert reply.status == 200, reply.body


# -- rate-limit -------------------------------------------------------------------------------
def test_rate_limit_answers_429_with_retry_after_and_lifts_when_removed(server) -> None:
    admin, member = server.client(), server.client("member")
    create(admin, "rate-limit", "two-a-minute", requests=2, per_seconds=60)
    attachment_id = attach(admin, "demo/memory", "two-a-minute")
    assert [member.get(LIST).status for _ in range(2)] == [200, 200]
    refused = member.get(LIST)
    assert_error(refused, 429, "RATE_LIMITED")
    assert refused.body["error"]["retryable"] is True
    assert 1 <= int(refused.headers["Retry-After"]) <= 60
    assert member.post(f"{MEMORY}/store", {"content": "x", "category": "fact"}).status == 429
    assert admin.get(LIST).status == 200          # counted per principal: admin has its own
    assert server.client("viewer").get(LIST).status == 200
    detach(admin, "demo/memory", attachment_id)   # an admin's governance op is never limited
    assert member.get(LIST).status == 200


class Clock:
    """A clock the test moves by hand (the home's limiter takes any clock)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_rate_limit_window_slides(server) -> None:
    clock = Clock()
    server.home.limiter = SlidingWindowLimiter(server.home.path / "ratelimits.db", clock)
    admin, member = server.client(), server.client("member")
    create(admin, "rate-limit", "fast", requests=1, per_seconds=0.4)
    attach(admin, "demo/memory", "fast")
    assert member.get(LIST).status == 200
    refused = member.get(LIST)
    assert refused.status == 429 and refused.headers["Retry-After"] == "1"   # never 0
    clock.now += 0.39
    assert member.get(LIST).status == 429
    clock.now += 0.02
    assert member.get(LIST).status == 200


def test_a_version_pin_governs_and_a_disabled_limit_does_not_bite(server) -> None:
    admin, member = server.client(), server.client("member")
    rl = create(admin, "rate-limit", "rl", requests=1, per_seconds=60)
    server.home.catalog.add_version(rl["id"], {"properties": {"requests": 3,
                                                              "per_seconds": 60}}, "v2")
    attach(admin, "demo/memory", "rl@v2")
    assert [member.get(LIST).status for _ in range(4)] == [200, 200, 200, 429]
    assert admin.post("/api/demo/rl/ops/disable", {}).status == 200
    assert member.get(LIST).status == 200


def test_rate_limit_counts_exactly_under_concurrency(server) -> None:
    admin, member = server.client(), server.client("member")
    create(admin, "rate-limit", "five", requests=5, per_seconds=60)
    attach(admin, "demo/memory", "five")
    statuses: list[int] = []
    threads = [threading.Thread(target=lambda: statuses.append(member.get(LIST).status))
               for _ in range(12)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(statuses) == [200] * 5 + [429] * 7


# -- auth-policy ------------------------------------------------------------------------------
def test_auth_policy_deny_answers_403_and_lifts_when_removed(server) -> None:
    admin, member, viewer = (server.client(r) for r in ("admin", "member", "viewer"))
    create(admin, "auth-policy", "no-member-writes",
           deny=[{"role": "member", "levels": ["write"]}])
    attachment_id = attach(admin, "demo/memory", "no-member-writes")
    store = {"content": "Ana likes tea", "category": "preference"}
    reply = member.post(f"{MEMORY}/store", store)
    assert_error(reply, 403, "POLICY_DENIED")
    assert "demo/no-member-writes" in reply.body["error"]["message"]
    assert member.get(LIST).status == 200              # reads are not covered
    assert admin.post(f"{MEMORY}/store", store).status == 201
    assert viewer.get(LIST).body["memories"][0]["content"] == "Ana likes tea"
    detach(admin, "demo/memory", attachment_id)
    assert member.post(f"{MEMORY}/store", store).status == 201


def test_auth_policy_allow_list_by_principal_name(server) -> None:
    admin, member, viewer = (server.client(r) for r in ("admin", "member", "viewer"))
    create(admin, "auth-policy", "only-viewer-reads", allow=[{"principal": "viewer",
                                                              "levels": ["read"]}])
    attach(admin, "demo/memory", "only-viewer-reads")
    assert viewer.get(LIST).status == 200
    assert_error(member.get(LIST), 403, "POLICY_DENIED")
    assert_error(admin.get(LIST), 403, "POLICY_DENIED")      # the policy binds admins too
    assert member.post(f"{MEMORY}/store", {"content": "x", "category": "fact"}).status == 201


def test_a_denied_request_spends_no_rate_budget(server) -> None:
    admin, member = server.client(), server.client("member")
    create(admin, "auth-policy", "deny-stats", deny=[{"ops": ["stats"]}])
    create(admin, "rate-limit", "one", requests=1, per_seconds=60)
    attach(admin, "demo/memory", "deny-stats")
    attach(admin, "demo/memory", "one")
    for _ in range(3):
        assert_error(member.get(f"{MEMORY}/stats"), 403, "POLICY_DENIED")
    assert member.get(LIST).status == 200
    assert member.get(LIST).status == 429


def test_members_cannot_route_around_a_policy_that_denies_execute(server) -> None:
    admin, member = server.client(), server.client("member")
    create(admin, "auth-policy", "locked", deny=[{"role": "member",
                                                  "levels": ["write", "execute"]}])
    attachment_id = attach(admin, "demo/memory", "locked")
    reply = member.post(f"{MEMORY}/remove-modifier", {"attachment_id": attachment_id})
    assert_error(reply, 403, "POLICY_DENIED")
    assert len(admin.get(f"{MEMORY}/attachments").body["attachments"]) == 1


# -- cascade ----------------------------------------------------------------------------------
def test_a_project_modifier_cascades_to_members_only_when_asked(server) -> None:
    admin, member = server.client(), server.client("member")
    create(admin, "project", "proj", members=["memory"])
    create(admin, "memory", "outsider")
    create(admin, "auth-policy", "read-only", deny=[{"levels": ["write"]}])
    local = attach(admin, "demo/proj", "read-only")
    store = {"content": "x", "category": "fact"}
    assert member.post(f"{MEMORY}/store", store).status == 201      # cascade none
    detach(admin, "demo/proj", local)
    cascading = attach(admin, "demo/proj", "read-only", cascade="members")
    assert_error(member.post(f"{MEMORY}/store", store), 403, "POLICY_DENIED")
    assert member.post("/api/demo/outsider/ops/store", store).status == 201
    inherited = member.get(f"{MEMORY}/attachments").body["inherited"]
    assert [(a["via"], a["attachment_id"]) for a in inherited] == [("demo/proj", cascading)]
    detach(admin, "demo/proj", cascading)
    assert member.post(f"{MEMORY}/store", store).status == 201


def test_a_cascading_rate_limit_counts_each_member_apart(server) -> None:
    admin, member = server.client(), server.client("member")
    create(admin, "memory", "second")
    create(admin, "project", "proj", members=["memory", "demo/second"])
    create(admin, "rate-limit", "one", requests=1, per_seconds=60)
    attach(admin, "demo/proj", "one", cascade="members")
    assert member.get(LIST).status == 200
    assert member.get("/api/demo/second/ops/memories").status == 200
    assert member.get(LIST).status == 429
    assert member.get("/api/demo/second/ops/memories").status == 429


# -- pure parts ---------------------------------------------------------------------------------
def principal(role: str = "member", name: str = "ana") -> Principal:
    return Principal("tok-" + name, "demo", role, name)


@pytest.mark.parametrize("policy,who,level,op,denied", [
    ({}, principal(), "write", "store", False),
    ({"deny": [{"role": "member"}]}, principal(), "read", "list", True),
    ({"deny": [{"role": "member"}]}, principal("admin"), "read", "list", False),
    ({"deny": [{"principal": "ana", "ops": ["store"]}]}, principal(), "write", "store", True),
    ({"deny": [{"principal": "tok-ana"}]}, principal(), "read", "list", True),
    ({"deny": [{"principal": "bo"}]}, principal(), "read", "list", False),
    ({"allow": [{"role": "admin", "levels": ["write"]}]}, principal(), "write", "store", True),
    ({"allow": [{"role": "admin", "levels": ["write"]}]}, principal(), "read", "list", False),
    ({"allow": [{"role": "member"}], "deny": [{"principal": "ana"}]}, principal(), "read",
     "list", True),
    ({"deny": "everyone"}, principal(), "read", "list", True),           # fails closed
    ({"deny": [{"levels": ["root"]}]}, principal(), "read", "list", True),
])
def test_policy_verdict(policy: dict[str, Any], who: Principal, level: str, op: str,
                        denied: bool) -> None:
    assert (policy_verdict(policy, who, level, op) is not None) is denied


def test_sliding_window_limiter_with_a_fake_clock(tmp_path) -> None:
    now = [100.0]
    limiter = SlidingWindowLimiter(tmp_path / "windows.db", clock=lambda: now[0])
    wanted = [(("a", "p", "e"), 2, 10.0)]
    assert limiter.acquire(wanted) is None
    now[0] = 104.0
    assert limiter.acquire(wanted) is None
    assert limiter.acquire(wanted) == (6.0, 0)          # the first hit frees at 110
    now[0] = 110.0
    assert limiter.acquire(wanted) is None
    both = [(("b", "p", "e"), 5, 10.0), (("a", "p", "e"), 2, 10.0)]
    assert limiter.acquire(both) == (4.0, 1)            # all or nothing: b not counted
    limiter.forget("a")
    assert limiter.acquire(both) is None


def test_processes_sharing_a_home_count_against_one_window(tmp_path) -> None:
    """Two workers of one home (two limiters on one file, as two processes open it) and
    threads in each: exactly ``requests`` hits are granted per window, all told."""
    now = [500.0]
    workers = [SlidingWindowLimiter(tmp_path / "windows.db", clock=lambda: now[0])
               for _ in range(2)]
    wanted = [(("limit", "token", "element"), 7, 60.0)]
    granted: list[bool] = []

    def hammer(limiter: SlidingWindowLimiter) -> None:
        for _ in range(10):
            granted.append(limiter.acquire(wanted) is None)

    threads = [threading.Thread(target=hammer, args=(w,)) for w in workers for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert granted.count(True) == 7 and len(granted) == 60
    assert workers[1].acquire(wanted) == (60.0, 0)
    now[0] += 60
    assert workers[0].acquire(wanted) is None      # the window slid for both
