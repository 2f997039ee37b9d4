"""The LLM evaluator on its protocol: ``POST ops/observe`` through the real server, against a
real HTTP server on 127.0.0.1 speaking OpenAI chat-completions.

No LLM runs here, so the stand-in (``ChatServer``) answers what real servers answer: a
clean JSON object, JSON inside prose, an answer cut off by the token limit, HTTP 429 with
an OpenAI error body, HTTP 500, and silence past the timeout. Each ends in the right
decisions or in a fallback to the rules that says why. Everything of ours is real.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from werkzeug.wrappers import Request, Response

from tests.helpers import Client, Server, running

DOCS = Path(__file__).resolve().parents[2] / "docs" / "agents.md"
MEMORY = "/api/demo/memory/ops"
ANA = {"subject_type": "guest", "subject_id": "ana"}


class ChatServer:
    """``POST /v1/chat/completions`` on 127.0.0.1 answering ``self.content`` (a string the
    model "wrote"), or failing as ``self.mode`` says."""

    def __init__(self) -> None:
        self.content = ""
        self.mode = "ok"
        self.finish_reason = "stop"
        self.requests: list[dict[str, Any]] = []
        self.lock = threading.Lock()

    def __call__(self, environ: Any, start_response: Any) -> Any:
        request = Request(environ)
        if request.method != "POST" or request.path != "/v1/chat/completions":
            return Response("not found", 404)(environ, start_response)
        body = json.loads(request.get_data())
        with self.lock:
            self.requests.append(body)
        if self.mode == "429":
            error = {"error": {"message": "Rate limit reached", "type": "requests",
                               "code": "rate_limit_exceeded"}}
            return Response(json.dumps(error), 429, headers={"Retry-After": "20"},
                            content_type="application/json")(environ, start_response)
        if self.mode == "500":
            error = {"error": {"message": "The server had an error", "type": "server_error"}}
            return Response(json.dumps(error), 500,
                            content_type="application/json")(environ, start_response)
        if self.mode == "slow":
            time.sleep(2.5)
        completion = {
            "id": "chatcmpl-9", "object": "chat.completion", "created": 1700000000,
            "model": body["model"],
            "choices": [{"index": 0, "finish_reason": self.finish_reason,
                         "message": {"role": "assistant", "content": self.content}}],
            "usage": {"prompt_tokens": 412, "completion_tokens": 57, "total_tokens": 469}}
        return Response(json.dumps(completion), 200,
                        content_type="application/json")(environ, start_response)

    def prompt(self, index: int = -1) -> dict[str, Any]:
        return json.loads(self.requests[index]["messages"][-1]["content"])


def documented_properties() -> dict[str, Any]:
    """The triformer properties docs/agents.md gives for a local server."""
    section = DOCS.read_text().split("#### Pointing it at a local server", 1)[1]
    block = re.search(r"```json\n(.*?)```", section, re.S)
    assert block is not None, "docs/agents.md lost its local-server example"
    return dict(json.loads(block.group(1)))


@pytest.fixture
def chat() -> Iterator[tuple[ChatServer, int]]:
    stand_in = ChatServer()
    with running(stand_in) as srv:
        yield stand_in, srv.port


@pytest.fixture
def sage(server: Server, chat: tuple[ChatServer, int]) -> ChatServer:
    """A triformer made from the documented config, pointed at the stand-in's port."""
    stand_in, port = chat
    props = documented_properties()
    props["evaluator"]["base_url"] = re.sub(r":\d+/", f":{port}/",
                                            props["evaluator"]["base_url"])
    props["evaluator"]["timeout"] = 1
    reply = server.client().post("/api/demo/ops/create", {
        "element_type": "triformer", "slug": "sage", "properties": props})
    assert reply.status == 201, reply.body
    return stand_in


def observe(client: Client, *texts: str, **extra: Any) -> Any:
    turns = []
    for i, text in enumerate(texts):
        turns.append({"role": "user" if i % 2 == 0 else "assistant", "content": text})
    return client.post("/api/demo/sage/ops/observe", {"turns": turns, **ANA, **extra})


def memories(client: Client) -> list[dict[str, Any]]:
    return list(client.get(f"{MEMORY}/memories?limit=100").body["memories"])


ADD = {"decisions": [{"action": "add", "category": "fact",
                      "content": "Ana adopted a puppy named Rex",
                      "reason": "a new family member"},
                     {"action": "nothing", "reason": "greeting"}]}


def test_the_documented_config_drives_a_real_exchange(server: Server, sage: ChatServer) -> None:
    sage.content = json.dumps(ADD)
    member = server.client("member")
    reply = observe(member, "Hi! We adopted a puppy named Rex last week.",
                    session_date="2023-05-08")
    assert reply.status == 200, reply.body
    assert reply.body["evaluator"] == "llm" and "fallback" not in reply.body
    assert [(d["action"], d["reason"]) for d in reply.body["decisions"]] == [
        ("add", "a new family member"), ("nothing", "greeting")]
    [memory] = memories(member)
    assert memory["content"] == "Ana adopted a puppy named Rex"
    assert memory["metadata"]["observe"] == {"evaluator": "llm",
                                             "occurred_at": "2023-05-08T00:00:00Z"}
    sent = sage.requests[-1]
    assert sent["model"] == "llama3.1:8b" and sent["temperature"] == 0
    assert sent["response_format"] == {"type": "json_object"}
    prompt = sage.prompt()
    assert prompt["session_date"] == "2023-05-08T00:00:00Z"
    assert prompt["turns"] == [{"role": "user", "content": "Hi! We adopted a puppy named Rex "
                                "last week.", "new": True}]


def test_json_inside_prose_is_found(server: Server, sage: ChatServer) -> None:
    sage.content = ("Sure! Here are my decisions:\n\n" + json.dumps(ADD, indent=2)
                    + "\n\nLet me know if you need anything else.")
    reply = observe(server.client("member"), "We adopted a puppy named Rex.")
    assert reply.body["evaluator"] == "llm"
    assert reply.body["decisions"][0]["action"] == "add"


def test_a_fenced_block_inside_prose_is_found(server: Server, sage: ChatServer) -> None:
    sage.content = "I will remember this.\n```json\n" + json.dumps(ADD) + "\n```\nDone."
    reply = observe(server.client("member"), "We adopted a puppy named Rex.")
    assert reply.body["evaluator"] == "llm"
    assert [m["content"] for m in memories(server.client())] == [
        "Ana adopted a puppy named Rex"]


@pytest.mark.parametrize("mode,content,finish,reason", [
    ("ok", json.dumps(ADD)[:60], "length", "cut off before its JSON object ended"),
    ("ok", "I'm sorry, I can't help with that.", "stop", "holds no JSON object"),
    ("ok", json.dumps({"memories": []}), "stop", "no decisions list"),
    ("429", "", "stop", "HTTP 429 (rate limited)"),
    ("500", "", "stop", "HTTP 500"),
    ("slow", json.dumps(ADD), "stop", "timed out"),
])
def test_a_failed_exchange_falls_back_to_the_rules_and_says_why(
        server: Server, sage: ChatServer, mode: str, content: str, finish: str,
        reason: str) -> None:
    sage.mode, sage.content, sage.finish_reason = mode, content, finish
    member = server.client("member")
    reply = observe(member, "I live in Lisbon.")
    assert reply.status == 200, reply.body
    assert reply.body["evaluator"] == "rules"
    assert reply.body["fallback"].startswith("llm: ") and reason in reply.body["fallback"], \
        reply.body["fallback"]
    assert [(d["action"], d.get("content")) for d in reply.body["decisions"]] == [
        ("add", "User lives in Lisbon")]
    events = server.client().get("/api/demo/memory/ops/activity?limit=50").body["events"]
    assert any(e["detail"].get("decision") == "fallback" and reason in e["detail"]["reason"]
               for e in events if e["op"] == "observe")


def test_a_resent_window_does_not_ask_again(server: Server, sage: ChatServer) -> None:
    sage.content = json.dumps(ADD)
    member = server.client("member")
    observe(member, "We adopted a puppy named Rex.")
    again = observe(member, "We adopted a puppy named Rex.")
    assert again.body["decisions"] == [{"action": "nothing", "memory": "demo/memory",
                                        "reason": "already observed: no user turn is new"}]
    assert len(sage.requests) == 1
    # A longer window: the old turns are marked as seen, the new one as new.
    sage.content = json.dumps({"decisions": [{"action": "nothing", "reason": "small talk"}]})
    observe(member, "We adopted a puppy named Rex.", "How lovely!", "Thanks, bye!")
    assert [t["new"] for t in sage.prompt()["turns"]] == [False, True, True]
    assert len(memories(member)) == 1


# -- keeping memories true: supersede and retire ------------------------------------------------

def stored(client: Client, content: str, subject: dict[str, str] = ANA) -> str:
    reply = client.post(f"{MEMORY}/store", {"content": content, "category": "fact", **subject})
    assert reply.status == 201, reply.body
    return str(reply.body["memory"]["id"])


def test_a_supersede_replaces_the_memory_it_names(server: Server, sage: ChatServer) -> None:
    member = server.client("member")
    porto = stored(member, "Ana lives in Porto")
    sage.content = json.dumps({"decisions": [
        {"action": "supersede", "memory_id": porto, "content": "Ana lives in Lisbon",
         "reason": "she moved"}]})
    reply = observe(member, "Quick update: I live in Lisbon now.", session_date="2024-03-01")
    assert reply.status == 200 and reply.body["evaluator"] == "llm", reply.body
    [decision] = reply.body["decisions"]
    assert (decision["action"], decision["memory_id"], decision["content"],
            decision["reason"]) == ("supersede", porto, "Ana lives in Lisbon", "she moved")
    [memory] = memories(member)
    assert (memory["id"], memory["content"]) == (decision["superseded_by"],
                                                 "Ana lives in Lisbon")
    assert memory["occurred_at"].startswith("2024-03-01")
    # The model was told what supersede means and shown the memory with its id.
    system = sage.requests[-1]["messages"][0]["content"]
    assert '"action": "supersede"' in system and '"action": "retire"' in system
    assert {"id": porto, "category": "fact", "content": "Ana lives in Porto"} in \
        sage.prompt()["memories"]


def test_a_retire_ends_the_memory_it_names(server: Server, sage: ChatServer) -> None:
    member = server.client("member")
    shellfish = stored(member, "Ana is allergic to shellfish")
    kept = stored(member, "Ana is allergic to peanuts")
    sage.content = json.dumps({"decisions": [
        {"action": "retire", "memory_id": shellfish, "reason": "no longer allergic"}]})
    reply = observe(member, "Actually, I'm not allergic to shellfish anymore.")
    assert [(d["action"], d["memory_id"], d["reason"]) for d in reply.body["decisions"]] == [
        ("retire", shellfish, "no longer allergic")]
    assert [m["id"] for m in memories(member)] == [kept]


@pytest.mark.parametrize("item,why", [
    ({"action": "supersede", "memory_id": "BOB", "content": "Bob lives in Rome"},
     "rejected: supersede of a memory that is not among this subject's memories"),
    ({"action": "supersede", "memory_id": "nope", "content": "Ana lives in Rome"},
     "rejected: supersede of a memory that is not among this subject's memories"),
    ({"action": "supersede", "memory_id": "ANA"},
     "rejected: supersede without valid content"),
    ({"action": "supersede", "memory_id": "ANA", "content": "Ana lives in Rome",
      "category": "rumour"}, "rejected: category must be one of"),
    ({"action": "retire", "memory_id": "BOB"},
     "rejected: retire of a memory that is not among this subject's memories"),
    ({"action": "retire", "memory_id": ["ANA"]},
     "rejected: retire of a memory that is not among this subject's memories"),
])
def test_a_supersede_or_retire_outside_the_pool_is_rejected_and_changes_nothing(
        server: Server, sage: ChatServer, item: dict[str, Any], why: str) -> None:
    member = server.client("member")
    ids = {"ANA": stored(member, "Ana lives in Porto"),
           "BOB": stored(member, "Bob lives in Porto", {"subject_type": "guest",
                                                       "subject_id": "bob"})}
    raw = json.dumps(item)
    for name, memory_id in ids.items():
        raw = raw.replace(f'"{name}"', json.dumps(memory_id))
    sage.content = json.dumps({"decisions": [json.loads(raw)]})
    reply = observe(member, "I live in Rome now.")
    assert reply.status == 200 and reply.body["evaluator"] == "llm"
    [decision] = reply.body["decisions"]
    assert decision["action"] == "nothing" and decision["reason"].startswith(why), decision
    everything = member.get(f"{MEMORY}/memories?limit=100").body["memories"]
    assert sorted(m["content"] for m in everything) == ["Ana lives in Porto",
                                                        "Bob lives in Porto"]
