"""POST ops/observe through the real server: the rule evaluator, the LLM evaluator against a
real OpenAI-compatible HTTP stand-in on 127.0.0.1, fallbacks, activity, subject scoping, and
two triformers sharing one memory.

The stand-in (``ChatStandIn``) is the one thing that is not ours: no LLM runs here, so a
small werkzeug app speaks the chat-completions protocol and answers decisions computed
from the prompt it receives. Everything of ours is real.
"""

from __future__ import annotations

import json
import re
import threading
import time
from typing import Any
from collections.abc import Callable, Iterator

import pytest
from werkzeug.wrappers import Request, Response

from tests.helpers import Client, Server, running

MEMORY = "/api/demo/memory/ops"
ANA = {"subject_type": "guest", "subject_id": "ana"}
BOB = {"subject_type": "guest", "subject_id": "bob"}


def turns(*texts: str) -> list[dict[str, str]]:
    out: list[dict[str, str]] = []
    for text in texts:
        if out:
            out.append({"role": "assistant", "content": "Noted."})
        out.append({"role": "user", "content": text})
    return out


def make_triformer(client: Client, slug: str, bonds: Any = "memory",
                   evaluator: dict[str, Any] | None = None) -> None:
    props: dict[str, Any] = {"subconscious": {"memory": {"element": bonds}}}
    if evaluator is not None:
        props["evaluator"] = evaluator
    reply = client.post("/api/demo/ops/create", {"element_type": "triformer", "slug": slug,
                                                 "properties": props})
    assert reply.status == 201, reply.body


def set_props(client: Client, path: str, **props: Any) -> None:
    reply = client.post(f"/api/{path}/ops/spec_update", {"properties": props})
    assert reply.status == 200, reply.body


def observe(client: Client, path: str, *texts: str, **extra: Any) -> Any:
    return client.post(f"/api/{path}/ops/observe", {"turns": turns(*texts), **extra})


def memories(client: Client, **query: str) -> list[dict[str, Any]]:
    q = "&".join(f"{k}={v}" for k, v in query.items())
    return client.get(f"{MEMORY}/memories?limit=500&{q}").body["memories"]


def observe_events(client: Client, path: str) -> list[dict[str, Any]]:
    events = client.get(f"/api/{path}/ops/activity?limit=1000").body["events"]
    return [e for e in events if e["op"] == "observe"]


@pytest.fixture
def bot(server: Server) -> Client:
    client = server.client("member")
    make_triformer(server.client(), "bot")
    return client


# -- the rule evaluator over HTTP --------------------------------------------------------------

def test_observe_adds_a_memory_with_context_intention_and_activity(server: Server,
                                                                  bot: Client) -> None:
    reply = observe(bot, "demo/bot", "Can you suggest a dinner recipe? I'm vegetarian.")
    assert reply.status == 200, reply.body
    assert reply.body["evaluator"] == "rules" and reply.body["memories"] == ["demo/memory"]
    [decision] = reply.body["decisions"]
    assert decision["action"] == "add" and decision["category"] == "fact"
    assert decision["memory"] == "demo/memory" and decision["reason"]
    memory = bot.get(f"{MEMORY}/memories/{decision['memory_id']}").body["memory"]
    assert memory["content"] == "User is vegetarian"
    assert memory["source"] == "subconscious" and memory["agent"] == "demo/bot"
    assert memory["intention"] == "suggest a dinner recipe"
    assert "I'm vegetarian" in memory["context"]
    [event] = observe_events(bot, "demo/memory")
    assert event["detail"] == {"decision": "add", "memory_id": decision["memory_id"],
                               "category": "fact", "evaluator": "rules", "agent": "demo/bot"}
    assert event["principal"] == "member"
    [summary] = observe_events(bot, "demo/bot")
    assert summary["detail"]["decisions"] == {"add": 1}
    # Recall finds it by the situation it was formed in (its text shares no word with it).
    set_props(server.client(), "demo/memory", relevance_threshold=0.2)
    found = bot.post(f"{MEMORY}/search", {"query": "what to cook",
                                          "context": "suggest a dinner recipe",
                                          "intention": "suggest a dinner recipe"})
    assert found.body["results"][0]["memory"]["id"] == decision["memory_id"]


def test_observe_duplicate_supersede_retire_and_forget(bot: Client) -> None:
    added = observe(bot, "demo/bot", "I live in Paris").body["decisions"][0]
    resent = observe(bot, "demo/bot", "I live in Paris").body["decisions"]
    assert resent == [{"action": "nothing", "memory": "demo/memory",
                       "reason": "already observed: no user turn is new"}]
    same = observe(bot, "demo/bot", "I live in Paris",
                   conversation_id="another day").body["decisions"][0]
    assert (same["action"], same["memory_id"]) == ("nothing", added["memory_id"])
    moved = observe(bot, "demo/bot", "Actually, I live in Berlin now").body["decisions"][0]
    assert (moved["action"], moved["memory_id"], moved["content"]) == (
        "supersede", added["memory_id"], "User lives in Berlin")
    [berlin] = memories(bot)
    assert (berlin["id"], berlin["content"]) == (moved["superseded_by"], "User lives in Berlin")
    gone = observe(bot, "demo/bot", "I no longer live in Berlin").body["decisions"][0]
    assert (gone["action"], gone["memory_id"]) == ("retire", berlin["id"])
    assert memories(bot) == []
    observe(bot, "demo/bot", "I work at Acme")
    erased = observe(bot, "demo/bot", "Please forget that I work at Acme").body["decisions"]
    assert erased[0]["action"] == "forget" and memories(bot) == []
    kinds = [e["detail"]["decision"] for e in observe_events(bot, "demo/memory")]
    assert kinds == ["forget", "add", "retire", "supersede", "nothing", "nothing",
                     "add"]       # newest first


def test_observe_directly_on_a_memory(server: Server) -> None:
    client = server.client("member")
    reply = observe(client, "demo/memory", "I prefer tea over coffee", agent="helper")
    assert reply.status == 200
    assert "memory" not in reply.body["decisions"][0]
    [memory] = memories(client)
    assert (memory["content"], memory["category"], memory["agent"]) == (
        "User prefers tea over coffee", "preference", "helper")
    assert "agent" not in observe_events(client, "demo/memory")[0]["detail"]


def test_nothing_worth_remembering_is_recorded_too(bot: Client) -> None:
    reply = observe(bot, "demo/bot", "What's the weather like?")
    assert reply.body["decisions"] == [{"action": "nothing", "memory": "demo/memory",
                                        "reason": "no memory-worthy content in the turns"}]
    assert observe_events(bot, "demo/memory")[0]["detail"]["decision"] == "nothing"
    assert memories(bot) == []


@pytest.mark.parametrize("body,status,code", [
    ({}, 400, "INVALID_REQUEST"),
    ({"turns": []}, 400, "INVALID_REQUEST"),
    ({"turns": "I live in Paris"}, 400, "INVALID_REQUEST"),
    ({"turns": [{"role": "robot", "content": "x"}]}, 400, "INVALID_REQUEST"),
    ({"turns": [{"role": "user", "content": None}]}, 400, "INVALID_REQUEST"),
    ({"turns": [{"role": "user", "content": "I live in Paris"}], "mood": 1}, 400,
     "INVALID_REQUEST"),
    ({"turns": [{"role": "user", "content": "I live in Paris"}], "subject_type": "guest"},
     400, "MEMORY_SUBJECT_INCOMPLETE"),
    ({"turns": [{"role": "user", "content": "I live in Paris"}], "subject_type": "alien",
      "subject_id": "x"}, 400, None),
    ({"turns": [{"role": "user", "content": "I live in Paris"}], "agent": 7}, 400,
     "INVALID_REQUEST"),
])
def test_bad_observations_are_400_and_store_nothing(bot: Client, body: dict[str, Any],
                                                    status: int, code: str | None) -> None:
    reply = bot.post("/api/demo/bot/ops/observe", body)
    assert reply.status == status, reply.body
    assert set(reply.body["error"]) == {"code", "class", "retryable", "message"}
    if code:
        assert reply.body["error"]["code"] == code
    assert memories(bot) == []


def test_observe_needs_write_and_a_bonded_memory(server: Server) -> None:
    admin = server.client()
    make_triformer(admin, "bot")
    assert observe(server.client("viewer"), "demo/bot", "I live in Paris").status == 403
    assert observe(server.client("other"), "demo/bot", "I live in Paris").status == 403
    make_triformer(admin, "lonely", bonds=["nothing-here", "other/memory", "demo"])
    reply = observe(admin, "demo/lonely", "I live in Paris")
    assert reply.status == 409 and reply.body["error"]["code"] == "AGENT_NO_MEMORY"
    assert "nothing-here" in reply.body["error"]["message"]
    assert observe(admin, "demo", "I live in Paris").status == 404   # circles have no observe


def test_a_disabled_bonded_memory_is_skipped(server: Server) -> None:
    admin = server.client()
    admin.post("/api/demo/ops/create", {"element_type": "memory", "slug": "notes"})
    make_triformer(admin, "bot", bonds=["memory", "notes"])
    assert admin.post("/api/demo/notes/ops/disable", {}).status == 200
    reply = observe(admin, "demo/bot", "I live in Paris")
    assert reply.status == 200
    assert reply.body["memories"] == ["demo/memory"]
    assert reply.body["skipped"] == [{"memory": "demo/notes", "state": "disabled"}]


def test_every_bonded_memory_observes(server: Server) -> None:
    admin = server.client()
    admin.post("/api/demo/ops/create", {"element_type": "memory", "slug": "notes"})
    make_triformer(admin, "bot", bonds=["memory", "demo/notes", "memory"])
    reply = observe(admin, "demo/bot", "I live in Paris")
    assert [d["memory"] for d in reply.body["decisions"]] == ["demo/memory", "demo/notes"]
    assert len(admin.get("/api/demo/notes/ops/memories").body["memories"]) == 1


# -- subject scoping -----------------------------------------------------------------------------

@pytest.mark.parametrize("scoping", [True, False])
def test_a_subject_never_revises_another_subjects_memories(server: Server, bot: Client,
                                                           scoping: bool) -> None:
    set_props(server.client(), "demo/memory", subject_scoping=scoping)
    ana = observe(bot, "demo/bot", "I live in Paris. I like tea.", **ANA).body["decisions"]
    assert [d["action"] for d in ana] == ["add", "add"]
    bob = observe(bot, "demo/bot", "I moved to Rome", **BOB).body["decisions"]
    assert bob[0]["action"] == "add"
    for text in ("Forget that I live in Paris", "I don't like tea anymore",
                 "Actually, I live in Madrid"):
        for d in observe(bot, "demo/bot", text, **BOB).body["decisions"]:
            assert d.get("memory_id") not in {a["memory_id"] for a in ana}, (text, d)
    anas = memories(bot, subject_type="guest", subject_id="ana")
    assert sorted(m["content"] for m in anas) == ["User likes tea", "User lives in Paris"]
    bobs = memories(bot, subject_type="guest", subject_id="bob")
    # Bob's own ending of what he was never heard to like is his (kept as said), and
    # Ana's tea stays hers.
    assert sorted(m["content"] for m in bobs) == ["User does not like tea anymore",
                                                  "User lives in Madrid"]
    # Nothing a subject said reaches the activity feed.
    feed = json.dumps(observe_events(bot, "demo/memory"))
    for word in ("Paris", "tea", "Rome", "Madrid"):
        assert word not in feed


def test_scoped_recall_after_observe(server: Server, bot: Client) -> None:
    set_props(server.client(), "demo/memory", subject_scoping=True)
    observe(bot, "demo/bot", "I'm allergic to peanuts", **ANA)
    search = {"query": "allergic to peanuts"}
    assert bot.post(f"{MEMORY}/search", {**search, **ANA}).body["results"]
    assert bot.post(f"{MEMORY}/search", {**search, **BOB}).body["results"] == []
    assert bot.post(f"{MEMORY}/search", search).body["results"] == []


# -- two agents, one memory -----------------------------------------------------------------------

def test_two_triformers_bonding_one_memory_share_it(server: Server) -> None:
    admin, member = server.client(), server.client("member")
    set_props(admin, "demo/memory", conscious_access="read")
    make_triformer(admin, "alpha")
    make_triformer(admin, "beta", bonds=["demo/memory"])
    observe(member, "demo/alpha", "My favorite color is green", **ANA)
    recalled = member.post("/api/demo/beta/ops/tools/call", {
        "name": "memory_recall", "arguments": {"query": "the user's favorite color"}, **ANA})
    assert recalled.status == 200, recalled.body
    [hit] = recalled.body["result"]["results"]
    assert hit["memory"]["content"] == "User's favorite color is green"
    assert hit["memory"]["agent"] == "demo/alpha"
    # ...and what beta observes, alpha's subconscious then sees as already remembered.
    again = observe(member, "demo/beta", "my favorite color is green", **ANA)
    assert again.body["decisions"][0]["action"] == "nothing"


# -- the LLM evaluator ----------------------------------------------------------------------------

class ChatStandIn:
    """An OpenAI-compatible ``POST /v1/chat/completions`` on 127.0.0.1 (werkzeug).

    ``answer(prompt)`` turns the prompt our evaluator sent (the JSON of its user message)
    into the decisions to return; ``mode`` makes it fail instead.
    """

    def __init__(self, answer: Callable[[dict[str, Any]], list[dict[str, Any]]]) -> None:
        self.answer = answer
        self.mode = "ok"
        self.requests: list[dict[str, Any]] = []
        self.lock = threading.Lock()

    def __call__(self, environ: Any, start_response: Any) -> Any:
        request = Request(environ)
        if request.method != "POST" or request.path != "/v1/chat/completions":
            return Response("not found", 404)(environ, start_response)
        body = json.loads(request.get_data())
        with self.lock:
            self.requests.append({"body": body,
                                  "authorization": request.headers.get("Authorization")})
        if self.mode == "error":
            return Response('{"error": {"message": "overloaded"}}', 500,
                            content_type="application/json")(environ, start_response)
        if self.mode == "slow":
            time.sleep(3)
        prompt = json.loads(body["messages"][-1]["content"])
        content = "this is not JSON" if self.mode == "garbage" else \
            "```json\n" + json.dumps({"decisions": self.answer(prompt)}) + "\n```"
        completion = {"id": "chatcmpl-1", "object": "chat.completion", "model": body["model"],
                      "choices": [{"index": 0, "finish_reason": "stop",
                                   "message": {"role": "assistant", "content": content}}]}
        return Response(json.dumps(completion), 200,
                        content_type="application/json")(environ, start_response)


def scripted(prompt: dict[str, Any]) -> list[dict[str, Any]]:
    """Deterministic decisions: a fact per "I live in X", forget on "forget", and an
    attempt on any memory id the test planted in the text ("forget id <id>")."""
    said = " ".join(t["content"] for t in prompt["turns"] if t["role"] == "user")
    decisions: list[dict[str, Any]] = []
    if "forget id " in said:
        decisions.append({"action": "forget", "memory_id": said.split("forget id ")[1].split()[0],
                          "reason": "asked"})
    elif "forget" in said.lower():
        decisions += [{"action": "forget", "memory_id": m["id"], "reason": "asked"}
                      for m in prompt["memories"]]
    elif "live in" in said:
        place = said.split("live in ")[1].split()[0].strip(".")
        for m in prompt["memories"]:
            if "lives in" in m["content"]:
                return [{"action": "update", "memory_id": m["id"],
                         "content": f"The user lives in {place}", "reason": "moved"}]
        decisions.append({"action": "add", "category": "fact",
                          "content": f"The user lives in {place}", "intention": "small talk",
                          "reason": "where the user lives"})
    decisions += [{"action": "nothing", "reason": "greeting"}, {"action": "explode"},
                  {"action": "add", "category": "gossip", "content": "x"}]
    return decisions


@pytest.fixture
def llm(server: Server, monkeypatch: pytest.MonkeyPatch) -> Iterator[ChatStandIn]:
    monkeypatch.setenv("TRIFORM_LLM_TEST_KEY", "sk-test-123")
    stand_in = ChatStandIn(scripted)
    with running(stand_in) as srv:
        make_triformer(server.client(), "sage", evaluator={
            "kind": "llm", "base_url": f"http://127.0.0.1:{srv.port}/v1", "model": "tiny-1",
            "api_key_env": "TRIFORM_LLM_TEST_KEY", "timeout": 1})
        yield stand_in


def test_llm_evaluator_decides_through_a_real_chat_endpoint(server: Server,
                                                           llm: ChatStandIn) -> None:
    member = server.client("member")
    reply = observe(member, "demo/sage", "Hi! I live in Lisbon.", **ANA)
    assert reply.status == 200, reply.body
    assert reply.body["evaluator"] == "llm" and "fallback" not in reply.body
    actions = [(d["action"], d["reason"]) for d in reply.body["decisions"]]
    assert actions[0] == ("add", "where the user lives")
    assert actions[1] == ("nothing", "greeting")
    assert actions[2] == ("nothing", "rejected: unknown action")
    assert actions[3][1].startswith("rejected: category")
    [memory] = memories(member)
    assert memory["content"] == "The user lives in Lisbon"
    assert memory["source"] == "subconscious" and memory["subject_id"] == "ana"
    assert memory["intention"] == "small talk" and "Lisbon" in memory["context"]
    assert memory["metadata"] == {"observe": {"evaluator": "llm"}}
    sent = llm.requests[-1]
    assert sent["authorization"] == "Bearer sk-test-123"
    assert sent["body"]["model"] == "tiny-1"
    assert sent["body"]["response_format"] == {"type": "json_object"}
    assert sent["body"]["messages"][0]["role"] == "system"
    prompt = json.loads(sent["body"]["messages"][1]["content"])
    assert prompt["subject"] == ["guest", "ana"] and prompt["memories"] == []
    # Next time the memory is in the prompt, and the endpoint's update lands on it.
    moved = observe(member, "demo/sage", "I live in Porto now", **ANA).body["decisions"][0]
    assert (moved["action"], moved["memory_id"]) == ("update", memory["id"])
    assert memories(member)[0]["content"] == "The user lives in Porto"
    details = [e["detail"] for e in observe_events(member, "demo/memory")]
    assert {d["evaluator"] for d in details} == {"llm"}
    assert "Porto" not in json.dumps(details) and "greeting" not in json.dumps(details)


def test_llm_decisions_cannot_reach_another_subjects_memories(server: Server,
                                                             llm: ChatStandIn) -> None:
    member = server.client("member")
    set_props(server.client(), "demo/memory", subject_scoping=True)
    bobs = observe(member, "demo/sage", "I live in Oslo", **BOB).body["decisions"][0]
    general = member.post(f"{MEMORY}/store", {"content": "Office is closed on Fridays",
                                              "category": "fact"}).body["memory"]
    for target in (bobs["memory_id"], general["id"], "f" * 32):
        reply = observe(member, "demo/sage", f"please forget id {target}", **ANA)
        assert reply.body["decisions"][0] == {
            "action": "nothing", "memory": "demo/memory",
            "reason": "rejected: forget of a memory that is not among this subject's "
                      "memories"}
    prompt = json.loads(llm.requests[-1]["body"]["messages"][1]["content"])
    assert prompt["memories"] == []                 # Bob's memory was never shown for Ana
    assert len(memories(member)) == 2
    gone = observe(member, "demo/sage", "forget everything", **BOB).body["decisions"]
    assert gone[0]["action"] == "forget" and gone[0]["memory_id"] == bobs["memory_id"]
    assert [m["id"] for m in memories(member)] == [general["id"]]


@pytest.mark.parametrize("mode,reason", [("error", "HTTP 500"), ("garbage", "no JSON object"),
                                         ("slow", "timed out")])
def test_a_failing_llm_falls_back_to_the_rules(server: Server, llm: ChatStandIn, mode: str,
                                               reason: str) -> None:
    llm.mode = mode
    member = server.client("member")
    reply = observe(member, "demo/sage", "I live in Lisbon")
    assert reply.status == 200, reply.body
    assert reply.body["evaluator"] == "rules"
    assert reply.body["fallback"].startswith("llm: ") and reason in reply.body["fallback"]
    assert [d["action"] for d in reply.body["decisions"]] == ["add"]
    assert memories(member)[0]["content"] == "User lives in Lisbon"
    events = observe_events(member, "demo/memory")
    fallback = [e["detail"] for e in events if e["detail"]["decision"] == "fallback"]
    assert fallback and fallback[0]["evaluator"] == "llm"
    assert observe_events(member, "demo/sage")[0]["detail"]["fallback"] is True


def test_a_malformed_evaluator_setting_falls_back_and_says_why(server: Server) -> None:
    admin = server.client()
    make_triformer(admin, "odd", evaluator={"kind": "llm", "base_url": "http://127.0.0.1:9",
                                            "model": "m", "api_key_env": "HOME"})
    reply = observe(admin, "demo/odd", "I live in Lisbon")
    assert reply.body["evaluator"] == "rules"
    assert "api_key_env" in reply.body["fallback"]
    assert reply.body["decisions"][0]["action"] == "add"


# -- identity, dates and names over HTTP (issue 15) -----------------------------------------------

def test_turn_ids_and_conversations_identify_turns(bot: Client) -> None:
    body = {"conversation_id": "chat-7", "turns": [
        {"id": "1", "role": "user", "content": "I went hiking with my brother yesterday."},
        {"id": "2", "role": "assistant", "content": "Nice! Where?"},
        {"id": "3", "role": "user", "content": "We hiked up Mount Tam in the fog."}]}
    first = bot.post("/api/demo/bot/ops/observe", body).body["decisions"]
    assert [d["action"] for d in first] == ["add", "add"]
    assert bot.post("/api/demo/bot/ops/observe", body).body["decisions"][0]["reason"] == \
        "already observed: no user turn is new"
    # The same words as another conversation's turn are another turn.
    other = dict(body, conversation_id="chat-8", turns=body["turns"][:1])
    assert bot.post("/api/demo/bot/ops/observe", other).body["decisions"][0]["action"] in (
        "nothing", "update")
    assert len(memories(bot)) == 2


def test_session_date_and_subject_name_shape_the_memory(bot: Client) -> None:
    reply = observe(bot, "demo/bot", "I lost my job at the bank last month.",
                    session_date="2023-05-08T13:56:00Z", subject_name="Jon", **ANA)
    [decision] = reply.body["decisions"]
    assert decision["occurred_at"] == "2023-04-08T13:56:00Z"
    [memory] = memories(bot)
    assert memory["content"] == "Jon lost their job at the bank last month."
    assert memory["metadata"]["observe"]["occurred_at"] == "2023-04-08T13:56:00Z"


@pytest.mark.parametrize("extra,field", [
    ({"session_date": "last Tuesday"}, "session_date"),
    ({"session_date": 20230508}, "session_date"),
    ({"conversation_id": ""}, "conversation_id"),
    ({"conversation_id": "x" * 201}, "conversation_id"),
    ({"subject_name": 7}, "subject_name"),
    ({"turns": [{"role": "user", "content": "a", "id": "1"},
                {"role": "user", "content": "b", "id": "1"}]}, "turns[1].id"),
    ({"turns": [{"role": "user", "content": "a", "id": ["1"]}]}, "turns[0].id"),
])
def test_bad_identity_and_date_fields_are_400(bot: Client, extra: dict[str, Any],
                                              field: str) -> None:
    body = {"turns": turns("I live in Paris"), **extra}
    reply = bot.post("/api/demo/bot/ops/observe", body)
    assert reply.status == 400, reply.body
    assert reply.body["error"]["code"] == "INVALID_REQUEST"
    assert field in reply.body["error"]["message"]
    assert memories(bot) == []


@pytest.mark.parametrize("content", [
    "x" * 16000, "I " * 8000, "my " * 5333, "🙂" * 16000, "\x01\x02\x03" * 5000,
    ("I went to Rome. " * 1000)[:16000], "Я живу в Москве и работаю в банке.",
    "我住在北京，我喜欢喝茶。", "Ich wohne in Berlin und arbeite bei einer Bank.",
])
def test_turns_of_any_size_and_language_never_fail(bot: Client, content: str) -> None:
    reply = bot.post("/api/demo/bot/ops/observe",
                     {"turns": [{"role": "user", "content": content, "name": "Ana"}]})
    assert reply.status == 200, reply.body
    for memory in memories(bot):
        assert not re.search(r"[\u0400-\u04ff\u4e00-\u9fff]", memory["content"]), memory


def test_a_turn_holding_a_nul_is_a_400(bot: Client) -> None:
    """No text with a NUL is stored on either backend (issue 26): 400, naming the turn."""
    reply = bot.post("/api/demo/bot/ops/observe",
                     {"turns": [{"role": "user", "content": "I live in Paris\x00"}]})
    assert reply.status == 400 and "turns[0].content" in reply.body["error"]["message"]
    assert memories(bot) == []


def test_forget_subject_forgets_which_turns_were_heard(server: Server, bot: Client) -> None:
    assert observe(bot, "demo/bot", "I live in Paris", **ANA).body["decisions"][0][
        "action"] == "add"
    gone = server.client().post(f"{MEMORY}/forget_subject", ANA,
                                headers={"X-Confirm": "destructive"})
    assert gone.status == 200, gone.body
    again = observe(bot, "demo/bot", "I live in Paris", **ANA).body["decisions"][0]
    assert again["action"] == "add"


# -- embedded behind the observe (the real model; file and PostgreSQL homes) ------------------

class GatedModel:
    """The real model, whose calls from a store's background embedder wait at a gate until
    the test opens it: the test sees the memory *before* its vectors land, without
    racing the thread or sleeping."""

    def __init__(self, model: Any) -> None:
        self.model, self.model_id, self.dim = model, model.model_id, model.dim
        self.gate = threading.Event()

    def embed(self, texts: Any) -> Any:
        return self.embed_lanes(["content"] * len(texts), texts)

    def embed_lanes(self, lanes: Any, texts: Any) -> Any:
        """Each lane by its model, as the runtime's embedder does (``index.embed_for_lanes``)."""
        from index import embed_for_lanes
        if threading.current_thread().name.startswith("embed-behind:"):
            assert self.gate.wait(120), "the test never opened the gate"
        return embed_for_lanes(self.model, lanes, texts)


@pytest.fixture(scope="module")
def model(model_cache: Any) -> Any:
    from index import load_embedder
    return load_embedder(model_cache, log=lambda *_: None)


@pytest.fixture(params=["file", "postgres"])
def behind_server(request: pytest.FixtureRequest, tmp_path: Any,
                  model: Any) -> Iterator[tuple[Server, GatedModel]]:
    from api.app import create_app
    from element import Home, create_token
    database = None
    if request.param == "postgres":
        database = request.getfixturevalue("pg_server").create_database("observe_behind")
    gated = GatedModel(model)
    home = Home(tmp_path / "home", lambda: gated, database=database)
    home.init("demo")
    tokens = {"member": create_token(home.catalog, "demo", "member", "member")}
    srv = Server(home, create_app({"EMBEDDER": "fastembed"}, home=home), tokens)
    yield srv, gated
    gated.gate.set()
    srv.close()


def test_observe_answers_before_the_vectors_then_a_paraphrase_finds_the_memory(
        behind_server: tuple[Server, GatedModel]) -> None:
    server, gated = behind_server
    member = server.client("member")
    reply = observe(member, "demo/memory", "I'm allergic to peanuts.")
    assert reply.status == 200, reply.body
    [decision] = reply.body["decisions"]
    assert decision["action"] == "add"
    # The answer came before any vector: the memory is durable, not embedded yet.
    memory = member.get(f"{MEMORY}/memories/{decision['memory_id']}").body["memory"]
    assert memory["content"] == "User is allergic to peanuts" and not memory["embedded"]
    # A search right after finds it by its words (text fallback, and says so) ...
    by_text = member.post(f"{MEMORY}/search", {"query": "allergic to peanuts"}).body
    assert by_text["fallback"] == "text"
    assert [r["memory"]["id"] for r in by_text["results"]] == [decision["memory_id"]]
    # ... but not yet by a paraphrase that shares no word with it.
    paraphrase = {"query": "nut allergy"}
    assert member.post(f"{MEMORY}/search", paraphrase).body["results"] == []
    gated.gate.set()
    element = server.home.catalog.element_at("demo/memory")
    with server.home.memory_store(element) as store:
        assert store.flush_embeddings(60)
    assert member.get(f"{MEMORY}/memories/{decision['memory_id']}").body["memory"][
        "embedded"]
    found = member.post(f"{MEMORY}/search", paraphrase).body
    assert found.get("fallback") is None
    assert found["results"][0]["memory"]["id"] == decision["memory_id"]
