"""The web console through Flask's test client: sign-in, the cookie, CSRF, and that every
action is the op's (its refusals, its messages, nothing written when it refuses). The same
flows in a real browser are in test_console_browser.py."""

from __future__ import annotations

import re
from typing import Any

import pytest

from source import commit_files
from tests.helpers import Server, serve

CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')


class Browser:
    """A test client that signs in like a person: GET the form, POST it with its token."""

    def __init__(self, server: Server) -> None:
        self.http = server.app.test_client()
        self.csrf = ""

    def get(self, url: str) -> Any:
        response = self.http.get(url)
        found = CSRF.search(response.get_data(as_text=True))
        if found:
            self.csrf = found.group(1)
        return response

    def post(self, url: str, data: dict[str, str] | None = None, *, csrf: bool = True) -> Any:
        sent = dict(data or {})
        if csrf:
            sent["csrf_token"] = self.csrf
        return self.http.post(url, data=sent)

    def sign_in(self, token: str) -> Any:
        self.get("/console/login")
        return self.post("/console/login", {"token": token})

    def page(self, url: str) -> str:
        response = self.get(url)
        assert response.status_code == 200, response.get_data(as_text=True)
        return str(response.get_data(as_text=True))


def store(server: Server, content: str, subject: str | None = None) -> str:
    body: dict[str, Any] = {"content": content, "category": "preference"}
    if subject:
        body.update(subject_type="guest", subject_id=subject)
    reply = server.client().post("/api/demo/memory/ops/store", body)
    assert reply.status == 201, reply.body
    return str(reply.body["memory"]["id"])


def memory(server: Server, memory_id: str) -> Any:
    return server.client().get(f"/api/demo/memory/ops/memories/{memory_id}")


MEMORIES = "/console/e/demo/memory?tab=memories"


def test_sign_in_sets_a_strict_http_only_cookie(server: Server) -> None:
    browser = Browser(server)
    assert browser.get("/console/e/demo/memory").status_code == 302
    refused = browser.sign_in("tfm_not-a-token")
    assert refused.status_code == 401 and "UNAUTHORIZED" in refused.get_data(as_text=True)
    signed = browser.sign_in(server.tokens["member"])
    assert signed.status_code == 302 and signed.headers["Location"] == "/console/c/demo"
    cookie = signed.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie and "Path=/console" in cookie
    page = browser.page("/console/c/demo")
    assert 'href="/console/e/demo/memory">demo/memory</a>' in page and "member" in page
    headers = browser.get("/console/c/demo").headers
    assert "frame-ancestors 'none'" in headers["Content-Security-Policy"]
    assert headers["Cache-Control"] == "no-store" and headers["X-Frame-Options"] == "DENY"
    # The API never takes the console's cookie: only a bearer token.
    assert browser.http.get("/api/demo/memory/ops/memories").status_code == 401
    browser.post("/console/logout")
    assert browser.get("/console/c/demo").status_code == 302


def test_every_form_needs_its_csrf_token(server: Server) -> None:
    memory_id = store(server, "Ana likes tea", "ana")
    browser = Browser(server)
    browser.sign_in(server.tokens["member"])
    browser.page(MEMORIES)
    url = f"/console/e/demo/memory/memories/{memory_id}/delete"
    forged = browser.post(url, csrf=False)
    assert forged.status_code == 403 and "CSRF_INVALID" in forged.get_data(as_text=True)
    assert browser.post(url, {"csrf_token": "x" * 40}, csrf=False).status_code == 403
    assert memory(server, memory_id).status == 200
    other = Browser(server)
    other.sign_in(server.tokens["viewer"])
    assert browser.post(url, {"csrf_token": other.csrf}, csrf=False).status_code == 403
    assert browser.get("/console/login").status_code == 200
    assert Browser(server).post("/console/login", {"token": server.tokens["member"]},
                                csrf=False).status_code == 403


def test_search_shows_each_lanes_score(server: Server) -> None:
    assert server.client().post("/api/demo/memory/ops/store", {
        "content": "Ana likes green tea", "category": "preference", "context": "breakfast",
        "intention": "order a drink"}).status == 201
    browser = Browser(server)
    browser.sign_in(server.tokens["viewer"])
    page = browser.page(MEMORIES + "&q=Ana+likes+green+tea&context=breakfast"
                                   "&intention=order+a+drink")
    results = page.split('<table class="results">', 1)[1].split("</table>", 1)[0]
    assert "Ana likes green tea" in results
    assert re.search(r'class="score">\d\.\d{3}<', results)
    assert len(re.findall(r'class="lane">', results)) == 3


def test_edit_delete_and_the_apis_messages(server: Server) -> None:
    memory_id = store(server, "Ana likes tea", "ana")
    browser = Browser(server)
    browser.sign_in(server.tokens["member"])
    page = browser.page(MEMORIES)
    assert "Ana likes tea" in page and f"edit {memory_id}" in page
    url = f"/console/e/demo/memory/memories/{memory_id}"
    done = browser.post(f"{url}/update", {"content": "Ana likes green tea",
                                          "category": "preference"})
    assert done.status_code == 303
    assert "Memory updated." in browser.page(done.headers["Location"])
    assert memory(server, memory_id).body["memory"]["content"] == "Ana likes green tea"
    bad = browser.post(f"{url}/update", {"content": "x", "category": "gossip"})
    shown = browser.page(bad.headers["Location"])
    assert "MEMORY_INVALID_CATEGORY" in shown
    assert memory(server, memory_id).body["memory"]["category"] == "preference"
    browser.post(f"{url}/delete")
    assert memory(server, memory_id).status == 404
    gone = browser.post(f"{url}/delete")
    assert "MEMORY_NOT_FOUND" in browser.page(gone.headers["Location"])


def test_forget_subject_needs_the_subject_typed(server: Server) -> None:
    kept = store(server, "Bob likes coffee", "bob")
    store(server, "Ana likes tea", "ana")
    browser = Browser(server)
    browser.sign_in(server.tokens["member"])
    browser.page(MEMORIES)
    form = {"subject_type": "guest", "subject_id": "ana"}
    refused = browser.post("/console/e/demo/memory/forget", {**form, "confirm": "bob"})
    assert "MEMORY_CONFIRM_REQUIRED" in browser.page(refused.headers["Location"])
    assert "Ana likes tea" in browser.page(MEMORIES)
    browser.post("/console/e/demo/memory/forget", {**form, "confirm": "ana"})
    page = browser.page(MEMORIES)
    assert "Forgot every memory about ana." in page and "Ana likes tea" not in page
    assert memory(server, kept).status == 200


def test_a_viewer_sees_no_write_controls_and_is_refused_anyway(server: Server) -> None:
    memory_id = store(server, "Ana likes tea", "ana")
    assert server.client().post("/api/demo/memory/ops/spec_update", {"properties": {
        "max_memories": 9}}).status == 200
    browser = Browser(server)
    browser.sign_in(server.tokens["viewer"])
    page = browser.page(MEMORIES)
    assert "Ana likes tea" in page
    assert "/update" not in page and "/delete" not in page and "/forget" not in page
    assert 'action="/console/e/demo/memory/promote"' not in browser.page(
        "/console/e/demo/memory?tab=source")
    url = f"/console/e/demo/memory/memories/{memory_id}"
    forged = browser.post(f"{url}/update", {"content": "hacked", "category": "fact"})
    assert "FORBIDDEN" in browser.page(forged.headers["Location"])
    browser.post(f"{url}/delete")
    browser.post("/console/e/demo/memory/forget", {"subject_type": "guest",
                                                   "subject_id": "ana", "confirm": "ana"})
    browser.post("/console/e/demo/memory/promote", {"to": "demo"})
    assert memory(server, memory_id).body["memory"]["content"] == "Ana likes tea"
    branches = server.client().get("/api/demo/memory/ops/source/branches").body
    assert branches["branches"]["demo"]["commit"] != branches["branches"]["draft"]["commit"]


def test_versions_restore_is_an_admins(server: Server) -> None:
    admin = server.client()
    assert admin.post("/api/demo/memory/ops/spec_update", {"properties": {
        "max_memories": 7}}).status == 200
    member = Browser(server)
    member.sign_in(server.tokens["member"])
    page = member.page("/console/e/demo/memory?tab=spec")
    assert "max_memories" in page and 'aria-label="restore v1"' not in page
    refused = member.post("/console/e/demo/memory/restore", {"version": "1"})
    assert "FORBIDDEN" in member.page(refused.headers["Location"])
    boss = Browser(server)
    boss.sign_in(server.tokens["admin"])
    assert 'aria-label="restore v1"' in boss.page("/console/e/demo/memory?tab=spec")
    boss.post("/console/e/demo/memory/restore", {"version": "1"})
    spec = admin.get("/api/demo/memory/ops/spec").body["spec"]
    assert "max_memories" not in spec["properties"] or spec["properties"]["max_memories"] != 7
    bad = boss.post("/console/e/demo/memory/restore", {"version": "v999"})
    assert "v999" in boss.page(bad.headers["Location"]) or "999" in boss.page(
        "/console/e/demo/memory?tab=spec")


def test_promote_and_the_branches(server: Server) -> None:
    browser = Browser(server)
    browser.sign_in(server.tokens["member"])
    assert server.client().post("/api/demo/memory/ops/spec_update", {"properties": {
        "max_memories": 9}}).status == 200
    page = browser.page("/console/e/demo/memory?tab=source")
    assert re.search(r'class="ahead">1 ahead', page) and ".triform/spec.yaml" in page
    done = browser.post("/console/e/demo/memory/promote", {"to": "demo"})
    assert "Promoted to demo." in browser.page(done.headers["Location"])
    branches = server.client().get("/api/demo/memory/ops/source/branches").body["branches"]
    assert branches["demo"]["commit"] == branches["draft"]["commit"]
    assert re.search(r'data-to="demo">\s*<h3>draft → demo: <span class="ahead">0 ahead',
                     browser.page("/console/e/demo/memory?tab=source"))


@pytest.mark.parametrize("url,status", [("/console/c/other", 403),
                                        ("/console/e/other/memory", 403),
                                        ("/console/e/demo/nobody", 404),
                                        ("/console/e/demo/memory?tab=nope", 404)])
def test_pages_the_token_may_not_see(server: Server, url: str, status: int) -> None:
    browser = Browser(server)
    browser.sign_in(server.tokens["admin"])
    assert browser.get(url).status_code == status


def test_a_revoked_token_ends_the_session(server: Server) -> None:
    browser = Browser(server)
    browser.sign_in(server.tokens["member"])
    browser.page("/console/c/demo")
    listed = server.client().get("/api/demo/ops/activity")  # any admin read works
    assert listed.status == 200
    token_id = next(t["id"] for t in server.home.catalog.tokens("demo")
                    if t["name"] == "member")
    assert server.home.catalog.revoke_token(token_id)
    assert browser.get("/console/c/demo").status_code == 302


def test_behind_tls_the_cookie_is_secure(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TRIFORM_SESSION_COOKIE_SECURE", "true")
    server = serve(tmp_path / "home")
    try:
        cookie = Browser(server).sign_in(server.tokens["viewer"]).headers["Set-Cookie"]
        assert "Secure" in cookie and "HttpOnly" in cookie
    finally:
        server.close()


def test_evals_and_gated_promotions_from_the_source_tab(server: Server) -> None:
    """The source tab runs a branch's evals and shows its last run; its promote form takes
    a reason (and an admin's force) and shows the gates' refusal."""
    element = server.home.catalog.element_at("demo/memory")
    commit_files(server.home.repo_path(element), {".triform/evals/team.yaml": (
        b"k: 1\nseed:\n  - {key: a, content: Ana prefers green tea, category: fact}\n"
        b"  - {key: b, content: Ben lives in Lyon, category: fact}\ncases:\n"
        b"  - {id: ana, query: Ana prefers tea, expect: [{seed: a}]}\n"
        b"  - {id: ben, query: Ben lives in Lyon now, expect: [{seed: b}]}\n")}, message="cases")
    gated = server
    assert gated.client().post("/api/demo/memory/ops/spec_update", {"properties": {
        "promotion_gates": {"protected": ["subject_scoping"]}}}).status == 200
    assert gated.client().post("/api/demo/memory/ops/source/promote", {
        "to": "demo"}).status == 200
    browser = Browser(gated)
    browser.sign_in(gated.tokens["member"])
    page = browser.page("/console/e/demo/memory?tab=source")
    assert "draft vs live:" in page and 'name="reason"' in page and 'name="force"' not in page
    ran = browser.post("/console/e/demo/memory/eval", {"branch": "draft"})
    assert "Evals of draft: 2 of 2 cases passed (pass rate 1.00)." in browser.page(
        ran.headers["Location"])
    assert gated.client().post("/api/demo/memory/ops/spec_update", {"properties": {
        "subject_scoping": False}}).status == 200
    done = browser.post("/console/e/demo/memory/promote", {"to": "demo", "reason": "x"})
    assert "ADMIN_ONLY: " in browser.page(done.headers["Location"])
    admin = Browser(gated)
    admin.sign_in(gated.tokens["admin"])
    assert 'name="force"' in admin.page("/console/e/demo/memory?tab=source")
    done = admin.post("/console/e/demo/memory/promote", {"to": "demo", "reason": "demo"})
    assert "Promoted to demo." in admin.page(done.headers["Location"])
    page = admin.page("/console/e/demo/memory?tab=source")
    assert "pass rate 1.00 (2/2)" in page


def test_a_memorys_history_is_shown(server: Server) -> None:
    porto = store(server, "Ana lives in Porto", "ana")
    lisbon = server.client().post("/api/demo/memory/ops/store", {
        "content": "Ana lives in Lisbon", "category": "fact", "subject_type": "guest",
        "subject_id": "ana", "supersedes": [porto]}).body["memory"]["id"]
    browser = Browser(server)
    browser.sign_in(server.tokens["viewer"])
    assert "Ana lives in Porto" not in browser.page(MEMORIES)      # current ones only
    page = browser.page(MEMORIES + f"&include_superseded=true&history={porto}")
    table = page.split('<table class="history"', 1)[1].split("</table>", 1)[0]
    assert len(re.findall(r'<tr class="version">', table)) == 2
    assert "supersede" in table and lisbon in table
    assert "ended " in page.split("<h2>Memories</h2>", 1)[1]
