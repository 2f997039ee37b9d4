"""The web console in a real browser: Debian's headless Chromium, driven by Playwright,
against the server on 127.0.0.1. Nothing is downloaded: Playwright drives
``/usr/bin/chromium`` (``make test`` installs it with apt; without it these tests skip and
say why).

Each test also saves a screenshot; with ``TRIFORM_CONSOLE_SHOTS`` naming a folder they are
written there (how docs/console/*.png were made).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.helpers import Server

CHROMIUM = "/usr/bin/chromium"
pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists(),
    reason=f"{CHROMIUM} is not installed (Debian package chromium; `make test` installs it "
           "when it may run apt-get)")
# The flags that keep Chromium off the network and quiet on a machine with no display.
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage"]


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                             args=FLAGS)
        yield browser
        browser.close()


@pytest.fixture
def page(chromium: Any) -> Iterator[Any]:
    context = chromium.new_context(viewport={"width": 1200, "height": 860})
    context.set_default_timeout(20_000)
    tab = context.new_page()
    yield tab
    context.close()


def shot(page: Any, tmp_path: Path, name: str) -> None:
    path = tmp_path / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    folder = os.environ.get("TRIFORM_CONSOLE_SHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        shutil.copy(path, Path(folder) / path.name)


def sign_in(page: Any, server: Server, role: str) -> None:
    page.goto(f"{server.url}/console/")
    assert page.url.endswith("/console/login")
    page.get_by_label("Token").fill(server.tokens[role])
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(f"{server.url}/console/c/demo")


def seed(server: Server) -> None:
    admin = server.client()
    for subject, content, context in (
            ("ana", "Ana likes green tea", "chat about breakfast"),
            ("ana", "Ana is vegetarian", "planning a dinner"),
            ("bob", "Bob prefers espresso", "chat about breakfast")):
        assert admin.post("/api/demo/memory/ops/store", {
            "content": content, "category": "preference", "subject_type": "guest",
            "subject_id": subject, "context": context,
            "intention": "plan a morning meeting"}).status == 201
    assert admin.post("/api/demo/memory/ops/store", {
        "content": "The office opens at 9", "category": "fact"}).status == 201


def flash(page: Any) -> str:
    return str(page.locator(".flash").first.inner_text())


def test_sign_in_find_edit_and_forget(server: Server, page: Any, tmp_path: Path) -> None:
    seed(server)
    page.goto(f"{server.url}/console/login")
    shot(page, tmp_path, "sign-in")
    sign_in(page, server, "member")
    shot(page, tmp_path, "circle")
    page.get_by_role("link", name="demo/memory").click()
    # Find a memory: search shows each lane's score.
    search = page.locator("form[aria-label='search memories']")
    search.get_by_label("Search", exact=True).fill("Ana likes green tea")
    search.get_by_label("Context").fill("chat about breakfast")
    # demo/memory scopes by subject: a search sees general memories and one subject's.
    search.get_by_label("Subject type").fill("guest")
    search.get_by_label("Subject id").fill("ana")
    search.get_by_role("button", name="Search").click()
    hit = page.locator("tr.result").first
    assert "Ana likes green tea" in hit.inner_text()
    assert len(hit.locator("td.lane").all()) == 3
    shot(page, tmp_path, "search")
    # Edit it.
    memory = page.locator("li.memory", has_text="Ana likes green tea")
    memory.get_by_text("Edit").click()
    memory.locator("textarea[name=content]").fill("Ana likes jasmine tea")
    memory.get_by_role("button", name="Save").click()
    assert flash(page) == "Memory updated."
    assert page.locator("li.memory", has_text="Ana likes jasmine tea").count() == 1
    # An invalid edit shows the API's message and changes nothing.
    memory = page.locator("li.memory", has_text="Ana likes jasmine tea")
    memory.get_by_text("Edit").click()
    memory.locator("textarea[name=content]").fill("x" * 17_000)
    memory.get_by_role("button", name="Save").click()
    assert "MEMORY_" in flash(page) or "INVALID" in flash(page)
    assert page.locator("li.memory", has_text="Ana likes jasmine tea").count() == 1
    # Forget a subject: the button waits for the subject typed out.
    forget = page.locator("form.confirm[aria-label='forget bob']")
    button = forget.get_by_role("button", name="Forget subject")
    # The page's script disables it once the document is parsed: wait for that (under
    # load the check can come first), rather than read the state once.
    expect(button).to_be_disabled()
    forget.get_by_label("Forget everything about bob").fill("bo")
    expect(button).to_be_disabled()
    forget.get_by_label("Forget everything about bob").fill("bob")
    shot(page, tmp_path, "memories")
    button.click()
    assert flash(page) == "Forgot every memory about bob."
    assert page.locator("article.subject[data-subject=bob]").count() == 0
    assert page.locator("article.subject[data-subject=ana]").count() == 1
    listed = server.client().get("/api/demo/memory/ops/memories?subject_type=guest"
                                 "&subject_id=bob").body
    assert listed["memories"] == []


def test_promote_with_ahead_and_behind(server: Server, page: Any, tmp_path: Path) -> None:
    assert server.client().post("/api/demo/memory/ops/spec_update", {"properties": {
        "max_memories": 500}}).status == 200
    sign_in(page, server, "member")
    page.goto(f"{server.url}/console/e/demo/memory?tab=source")
    step = page.locator("article.promotion[data-to=demo]")
    assert step.locator(".ahead").inner_text() == "1 ahead"
    assert ".triform/spec.yaml" in step.locator("ul.changes").inner_text()
    shot(page, tmp_path, "source")
    step.get_by_role("button", name="Promote draft → demo").click()
    assert flash(page) == "Promoted to demo."
    assert page.locator("article.promotion[data-to=demo] .ahead").inner_text() == "0 ahead"
    page.goto(f"{server.url}/console/e/demo/memory?tab=spec")
    assert "max_memories" in page.locator("table.properties").inner_text()
    shot(page, tmp_path, "spec")


def test_a_viewers_write_is_refused(server: Server, page: Any) -> None:
    seed(server)
    sign_in(page, server, "viewer")
    page.goto(f"{server.url}/console/e/demo/memory?tab=memories")
    assert page.locator("li.memory").count() == 4
    assert page.get_by_text("Edit").count() == 0
    assert page.locator("form.confirm").count() == 0
    # A forged form (what a viewer could craft by hand) is refused by the op path.
    memory_id = page.locator("li.memory").first.get_attribute("data-id")
    page.evaluate("""([action, token]) => {
        const form = document.createElement("form");
        form.method = "post"; form.action = action;
        for (const [name, value] of [["csrf_token", token], ["content", "hacked"],
                                     ["category", "fact"]]) {
            const input = document.createElement("input");
            input.type = "hidden"; input.name = name; input.value = value;
            form.append(input);
        }
        document.body.append(form); form.submit();
    }""", [f"/console/e/demo/memory/memories/{memory_id}/update",
           page.locator("input[name=csrf_token]").first.get_attribute("value")])
    page.wait_for_selector(".flash")
    assert flash(page).startswith("FORBIDDEN:")
    assert "hacked" not in page.content()


def test_live_activity(server: Server, page: Any, tmp_path: Path) -> None:
    sign_in(page, server, "member")
    page.goto(f"{server.url}/console/e/demo/memory?tab=activity")
    page.wait_for_selector(".live.on")
    assert server.client().post("/api/demo/memory/ops/store", {
        "content": "Ana likes tea", "category": "preference"}).status == 201
    fresh = page.locator("#activity li.fresh").first
    fresh.wait_for()
    assert "store" in fresh.inner_text()
    shot(page, tmp_path, "activity")
