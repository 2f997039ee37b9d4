"""The LLM evaluator: asks an OpenAI-compatible chat endpoint what to remember.

Any failure of the exchange raises :class:`EvaluatorFailed` before a decision is applied,
so the pipeline falls back to the rules. ``evaluator_from`` builds the evaluator a
triformer's spec names.
"""

from __future__ import annotations

import itertools
import json
import re
import socket
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from index import CATEGORIES, MAX_CONTENT_BYTES

from .dates import iso
from .decisions import ACTIONS, WRITES, Decision, Evaluator, EvaluatorFailed, Pool
from .observation import Observation
from .rule_evaluator import RuleEvaluator

__all__ = ["LlmConfig", "LlmEvaluator", "evaluator_from", "json_object_in",
           "LLM_PROMPT_MEMORIES", "LLM_MAX_RESPONSE", "KEY_ENV_PREFIX", "DEFAULT_KEY_ENV"]

LLM_PROMPT_MEMORIES = 40
LLM_MAX_RESPONSE = 1024 * 1024


# -- the LLM evaluator --------------------------------------------------------------------------

_SYSTEM = """You are the subconscious memory of an AI agent. Read the conversation turns and \
decide what long-term memory should change. Remember durable things about the user: facts, \
preferences, procedures (how they want things done), useful context, and corrections. Ignore \
small talk and anything already remembered. Only the memories listed may be changed, by \
their id. Turns marked "new": false were observed before: they are context only, decide \
about the new turns.
Keep memories true. When the user gives something a listed memory says a new value (moved, \
changed jobs, a new phone, a child turned a year older), supersede that memory with the new \
statement. When the user says a listed memory no longer holds and nothing replaces it \
("not allergic anymore"), retire it. Something added ("also", another person's fact, a \
second pet, a past visit) supersedes nothing: add it. Forget only what the user asks to \
erase; update only to reword or complete the same fact.
Answer with one JSON object and nothing else:
{"decisions": [{"action": "add", "category": "fact|preference|procedure|context|correction", \
"content": "<one third-person sentence>", "intention": "<the user's goal, optional>", \
"reason": "<why>"}, {"action": "supersede", "memory_id": "<id of the memory it replaces>", \
"content": "<the new statement, one third-person sentence>", "category": "<optional>", \
"reason": "<why>"}, {"action": "retire", "memory_id": "<id>", "reason": "<why it no \
longer holds>"}, {"action": "update", "memory_id": "<id>", "content": "<new content>", \
"category": "<optional>", "reason": "<why>"}, {"action": "forget", "memory_id": "<id>", \
"reason": "<why>"}, {"action": "nothing", "reason": "<why>"}]}"""


def json_object_in(text: str) -> dict[str, Any] | None:
    """The JSON object a model's answer holds: the whole text, a fenced block, or the first
    complete ``{...}`` inside prose ("Here you go: {...} Hope this helps"); None if none
    parses (e.g. the answer was cut off mid-object)."""
    candidates = [text.strip()]
    candidates += re.findall(r"```(?:json)?\s*(.*?)```", text, re.S)
    decoder = json.JSONDecoder()
    for candidate in candidates:
        try:
            value = json.loads(candidate)
        except ValueError:
            continue
        if isinstance(value, dict):
            return value
    # Only the first few openings: a hostile answer full of "{" must not cost n^2.
    for start in itertools.islice((m.start() for m in re.finditer(r"\{", text)), 20):
        try:
            value, _ = decoder.raw_decode(text, start)
        except ValueError:
            continue
        if isinstance(value, dict):
            return value
    return None


@dataclass(frozen=True)
class LlmConfig:
    """The triformer's ``evaluator: {kind: llm, base_url, model, api_key_env?, timeout?,
    json_mode?}``, with the key already looked up by the caller."""

    base_url: str
    model: str
    api_key: str | None = None
    timeout: float = 20.0
    json_mode: bool = True


#: ``api_key_env`` must name a variable of this prefix, so a spec writer cannot point the
#: evaluator at any secret of the server's environment and send it to a URL of their choice.
KEY_ENV_PREFIX = "TRIFORM_LLM_"
DEFAULT_KEY_ENV = "TRIFORM_LLM_API_KEY"


def evaluator_from(spec: Any, secret: Callable[[str], str | None]
                   ) -> tuple[Evaluator, str | None]:
    """The evaluator a triformer's ``evaluator`` property asks for, and why not, if not.

    Absent or ``{kind: rules}``: the rule evaluator. ``{kind: llm, ...}``: an
    :class:`LlmEvaluator`; a malformed one gives the rule evaluator and the problem (the
    caller records it as a fallback). ``secret(name)`` reads an environment variable; only
    the API layer may, so it is passed in.
    """
    if spec is None or (isinstance(spec, dict) and spec.get("kind", "rules") == "rules"):
        return RuleEvaluator(), None
    problem = None
    if not isinstance(spec, dict) or spec.get("kind") != "llm":
        problem = "evaluator.kind must be rules or llm"
    elif not isinstance(spec.get("base_url"), str) or \
            not re.match(r"^https?://[^\s/]+", spec["base_url"]):
        problem = "evaluator.base_url must be an http(s) URL"
    elif not isinstance(spec.get("model"), str) or not spec["model"].strip():
        problem = "evaluator.model must be a non-empty string"
    elif spec.get("api_key_env") is not None and (
            not isinstance(spec["api_key_env"], str)
            or not re.match(rf"^{KEY_ENV_PREFIX}[A-Z0-9_]+$", spec["api_key_env"])):
        problem = f"evaluator.api_key_env must name a variable {KEY_ENV_PREFIX}..."
    elif spec.get("timeout") is not None and (
            isinstance(spec["timeout"], bool) or not isinstance(spec["timeout"], (int, float))
            or not 0 < spec["timeout"] <= 120):
        problem = "evaluator.timeout must be a number of seconds in (0, 120]"
    elif not isinstance(spec.get("json_mode", True), bool):
        problem = "evaluator.json_mode must be true or false"
    unknown = set(spec) - {"kind", "base_url", "model", "api_key_env", "timeout",
                           "json_mode"} if isinstance(spec, dict) else set()
    if problem is None and unknown:
        problem = f"evaluator.{sorted(unknown)[0]} is not a setting of the evaluator"
    if problem is not None:
        return RuleEvaluator(), problem
    config = LlmConfig(base_url=spec["base_url"].rstrip("/"), model=spec["model"],
                       api_key=secret(spec.get("api_key_env") or DEFAULT_KEY_ENV),
                       timeout=float(spec.get("timeout", 20.0)),
                       json_mode=spec.get("json_mode", True))
    return LlmEvaluator(config), None


class LlmEvaluator:
    """Asks an OpenAI-compatible ``POST {base_url}/chat/completions`` for decisions.

    The prompt holds the turns, the subject and up to ``LLM_PROMPT_MEMORIES`` memories of
    the pool (closest to the user's turns, then newest). Items are checked one by one: an
    unknown action, a bad category, or a memory id outside the pool becomes a "nothing"
    (rejected) decision. Anything wrong with the exchange itself raises
    :class:`EvaluatorFailed` before a decision is applied.
    """

    name = "llm"

    def __init__(self, config: LlmConfig) -> None:
        self.config = config
        # No proxies: the endpoint is what the spec names (often 127.0.0.1), and reading
        # proxy settings would read the environment below the API layer.
        self._opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))

    def _shown(self, observation: Observation, pool: Pool) -> list[dict[str, Any]]:
        said = " ".join(t.content for t in observation.turns if t.role == "user").strip()
        shown: dict[str, dict[str, Any]] = {}
        if said:
            for memory, _ in pool.similar(said, LLM_PROMPT_MEMORIES):
                shown[memory["id"]] = memory
        for memory in pool.recent(LLM_PROMPT_MEMORIES):
            if len(shown) >= LLM_PROMPT_MEMORIES:
                break
            shown.setdefault(memory["id"], memory)
        return [{"id": m["id"], "category": m["category"], "content": m["content"]}
                for m in shown.values()]

    def _ask(self, messages: list[dict[str, str]]) -> Any:
        cfg = self.config
        payload: dict[str, Any] = {"model": cfg.model, "messages": messages,
                                   "temperature": 0}
        if cfg.json_mode:
            payload["response_format"] = {"type": "json_object"}
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if cfg.api_key:
            headers["Authorization"] = f"Bearer {cfg.api_key}"
        request = urllib.request.Request(f"{cfg.base_url}/chat/completions",
                                         data=json.dumps(payload).encode(), headers=headers,
                                         method="POST")
        try:
            with self._opener.open(request, timeout=cfg.timeout) as response:
                raw = response.read(LLM_MAX_RESPONSE + 1)
        except urllib.error.HTTPError as exc:
            busy = " (rate limited)" if exc.code == 429 else ""
            raise EvaluatorFailed(f"the endpoint answered HTTP {exc.code}{busy}") from None
        except (urllib.error.URLError, TimeoutError, OSError) as exc:
            reason = getattr(exc, "reason", exc)
            kind = "timed out" if isinstance(reason, (socket.timeout, TimeoutError)) \
                else "unreachable"
            raise EvaluatorFailed(f"the endpoint is {kind}: {reason}") from None
        if len(raw) > LLM_MAX_RESPONSE:
            raise EvaluatorFailed("the endpoint's answer is too large")
        try:
            choice = json.loads(raw)["choices"][0]
            text = choice["message"]["content"]
            if not isinstance(text, str):
                raise TypeError
        except (ValueError, KeyError, IndexError, TypeError):
            raise EvaluatorFailed("the answer is not a chat completion") from None
        found = json_object_in(text)
        if found is None:
            cut = choice.get("finish_reason") == "length" if isinstance(choice, dict) else False
            raise EvaluatorFailed("the answer was cut off before its JSON object ended "
                                  "(finish_reason length)" if cut else
                                  "the answer holds no JSON object")
        return found

    def evaluate(self, observation: Observation, pool: Pool) -> list[Decision]:
        shown = self._shown(observation, pool)
        prompt: dict[str, Any] = {
                  "subject": list(observation.subject) if observation.subject else None,
                  "turns": [{"role": t.role, "content": t.content,
                             **({"name": t.name} if t.name else {}),
                             "new": observation.is_fresh(i)}
                            for i, t in enumerate(observation.turns)],
                  "memories": shown}
        if observation.session_date is not None:
            prompt["session_date"] = iso(observation.session_date)
        answer = self._ask([{"role": "system", "content": _SYSTEM},
                            {"role": "user", "content": json.dumps(prompt)}])
        items = answer.get("decisions") if isinstance(answer, dict) else None
        if not isinstance(items, list):
            raise EvaluatorFailed("the answer has no decisions list")
        last_user = max((i for i, t in enumerate(observation.turns) if t.role == "user"),
                        default=len(observation.turns) - 1)
        context, goal = observation.window(last_user), observation.goal(last_user)
        decisions = [self._check(item, pool, context, goal) for item in items[:50]]
        when = iso(observation.session_date) if observation.session_date else None
        for decision in decisions:
            if decision.action in WRITES:
                decision.occurred_at = when
        return decisions or [Decision("nothing", "the evaluator proposed no change")]

    def _check(self, item: Any, pool: Pool, context: str | None,
               goal: str | None) -> Decision:
        if not isinstance(item, dict):
            return Decision("nothing", "rejected: a decision is not an object")
        action, reason = item.get("action"), item.get("reason")
        reason = reason[:300] if isinstance(reason, str) and reason.strip() else None
        content, category = item.get("content"), item.get("category")
        intention = item.get("intention")
        if not isinstance(intention, str) or not intention.strip():
            intention = goal
        if action not in ACTIONS:
            return Decision("nothing", "rejected: unknown action")
        if action == "nothing":
            return Decision("nothing", reason or "nothing to remember")
        text = content.strip() if isinstance(content, str) else ""
        if action in WRITES and (not text or len(text.encode()) > MAX_CONTENT_BYTES):
            return Decision("nothing", f"rejected: {action} without valid content")
        if category is not None and category not in CATEGORIES or \
                action == "add" and category is None:
            return Decision("nothing", "rejected: category must be one of "
                            + ", ".join(CATEGORIES))
        if action == "add":
            if pool.by_content(text) is not None:
                return Decision("nothing", "already remembered", category=category)
            return Decision("add", reason or f"new {category}", category=category,
                            content=text, context=context, intention=intention)
        target = pool.holds(item.get("memory_id"))
        if target is None:
            return Decision("nothing", f"rejected: {action} of a memory that is not among "
                            "this subject's memories")
        if action == "forget":
            return Decision("forget", reason or "asked to forget it",
                            category=target["category"], memory_id=target["id"])
        if action == "retire":
            return Decision("retire", reason or "no longer holds",
                            category=target["category"], memory_id=target["id"])
        if action == "supersede":
            return Decision("supersede", reason or "a later statement changes what it says",
                            category=category or target["category"], memory_id=target["id"],
                            content=text, context=context, intention=intention)
        return Decision("update", reason or "revised",
                        category=category or target["category"], memory_id=target["id"],
                        content=text, context=context, intention=intention)
