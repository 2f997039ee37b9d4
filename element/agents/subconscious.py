"""The subconscious: evaluators that read conversation turns and decide what one memory
element should add, update, forget or leave alone, and the pipeline that applies those
decisions through the memory runtime (design.md section 7; ``docs/agents.md``).

One observation on one memory element::

    Observation(turns, subject, agent)
      -> Pool(store, settings, subject)       the memories it may revise: exactly its
                                              subject's (or, without one, the general ones)
      -> Evaluator.evaluate(observation, pool) yields Decision(add|update|forget|nothing)
      -> apply(): MemoryStore.store/update/delete with source="subconscious", so caps,
         embeddings and subject scoping are those of every other write

Evaluators are pluggable (:class:`Evaluator`). :class:`RuleEvaluator` (pattern rules over
the user's sentences, no network) is the default and the fallback; :class:`LlmEvaluator` asks an
OpenAI-compatible chat endpoint and raises :class:`EvaluatorFailed` on any failure, before
any decision is applied, so the caller can fall back to the rules.

Nothing here knows Flask or the catalog; the op handler (``agent_ops.py``) records activity.
"""

from __future__ import annotations

import json
import re
import socket
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Iterator, Mapping, Protocol

from index import (CATEGORIES, MAX_CONTENT_BYTES, MemoryNotFound, MemorySettings, MemoryStore,
                   StoreError, StoreFailed, validate_subject)

from ..errors import InvalidRequest
from .rules import Candidate, extract, goal_of, norm

__all__ = ["Turn", "Observation", "Decision", "Evaluator", "Pool", "RuleEvaluator",
           "Candidate", "extract", "goal_of", "norm", "LlmConfig", "LlmEvaluator", "EvaluatorFailed", "parse_observation",
           "evaluator_from", "observe", "Outcome", "ACTIONS", "WINDOW_TURNS", "WINDOW_WORDS"]

ACTIONS = ("add", "update", "forget", "nothing")
ROLES = ("user", "assistant")
#: The context captured with a memory: the last turns up to the one it came from, and of
#: those the last words only, so the context lane embeds a situation, not a transcript.
WINDOW_TURNS = 6
WINDOW_WORDS = 64
MAX_TURNS = 200
MAX_TURN_CHARS = 16_000
#: How many of a pool's newest memories are scanned for a candidate's key or duplicate.
KEY_SCAN = 5000
#: The least blended score at which a stored memory counts as "the one meant" by a
#: correction or a "forget ..." that names no key.
SIMILAR_MIN = 0.5
LLM_PROMPT_MEMORIES = 40
LLM_MAX_RESPONSE = 1024 * 1024


# -- input ------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Turn:
    role: str
    content: str
    name: str | None = None


@dataclass(frozen=True)
class Observation:
    """Conversation turns, who is speaking (``subject``) and who stores (``agent``)."""

    turns: tuple[Turn, ...]
    subject: tuple[str, str] | None = None
    agent: str | None = None

    def window(self, upto: int) -> str | None:
        """The last ``WINDOW_TURNS`` turns up to ``upto``, cut to their last ``WINDOW_WORDS``."""
        turns = self.turns[max(0, upto - WINDOW_TURNS + 1):upto + 1]
        words = [(i, w) for i, t in enumerate(turns) for w in f"{t.role}: {t.content}".split()
                 if t.content.strip()]
        lines: dict[int, list[str]] = {}
        for i, word in words[-WINDOW_WORDS:]:
            lines.setdefault(i, []).append(word)
        return "\n".join(" ".join(line) for line in lines.values()) or None

    def goal(self, upto: int) -> str | None:
        """The goal of user turn ``upto``: its request or question, else the latest one in
        the window before it (see :func:`goal_of`)."""
        for i in range(upto, max(-1, upto - WINDOW_TURNS), -1):
            if self.turns[i].role == "user":
                found = goal_of(self.turns[i].content)
                if found:
                    return found
        return None

    def previous_assistant(self, upto: int) -> str | None:
        for i in range(upto - 1, -1, -1):
            if self.turns[i].role == "assistant" and self.turns[i].content.strip():
                return self.turns[i].content
        return None


def parse_observation(body: Mapping[str, Any]) -> Observation:
    """Validate an observe body: ``turns`` plus optional subject and agent.

    :raise InvalidRequest: naming the first bad field (``turns[2].role``...).
    :raise SubjectIncomplete, InvalidMemory: the subject is half given or malformed.
    """
    raw = body.get("turns")
    if not isinstance(raw, list) or not raw:
        raise InvalidRequest("turns", "is required: a non-empty list of {role, content}")
    if len(raw) > MAX_TURNS:
        raise InvalidRequest("turns", f"at most {MAX_TURNS} turns per observe")
    turns = []
    for i, item in enumerate(raw):
        where = f"turns[{i}]"
        if not isinstance(item, dict):
            raise InvalidRequest(where, "must be an object {role, content, name?}")
        for key in item:
            if key not in ("role", "content", "name"):
                raise InvalidRequest(f"{where}.{key}", "is not a field of a turn")
        if item.get("role") not in ROLES:
            raise InvalidRequest(f"{where}.role", "must be user or assistant")
        content = item.get("content")
        if not isinstance(content, str) or len(content) > MAX_TURN_CHARS:
            raise InvalidRequest(f"{where}.content",
                                 f"must be a string of at most {MAX_TURN_CHARS} characters")
        name = item.get("name")
        if name is not None and (not isinstance(name, str) or not name.strip()
                                 or len(name) > 64):
            raise InvalidRequest(f"{where}.name", "must be a non-empty string of at most 64 "
                                 "characters")
        turns.append(Turn(item["role"], content, name.strip() if name else None))
    agent = body.get("agent")
    if agent is not None and not isinstance(agent, str):
        raise InvalidRequest("agent", "must be a string")
    subject = validate_subject(body.get("subject_type"), body.get("subject_id"))
    return Observation(tuple(turns), subject, agent)


# -- decisions --------------------------------------------------------------------------------

@dataclass
class Decision:
    """One evaluator verdict; ``public()`` is its answer form (never vectors, keys or scores)."""

    action: str
    reason: str
    category: str | None = None
    content: str | None = None
    memory_id: str | None = None
    context: str | None = None
    intention: str | None = None
    key: str | None = None
    evicted: list[str] = field(default_factory=list)

    def public(self) -> dict[str, Any]:
        out: dict[str, Any] = {"action": self.action, "reason": self.reason}
        if self.memory_id:
            out["memory_id"] = self.memory_id
        if self.category:
            out["category"] = self.category
        if self.content and self.action in ("add", "update"):
            out["content"] = self.content
        if self.evicted:
            out["evicted"] = list(self.evicted)
        return out


class Pool:
    """The memories an observation may revise, over a live store.

    Exactly the observation's subject's memories, or the general ones (no subject) when
    none is given, whatever ``subject_scoping`` says: the subconscious hears one person and
    changes only what is about that person. Key and duplicate lookups scan the pool's
    ``KEY_SCAN`` newest memories once (``list``: no access counts touched) and keep the scan
    in step with what the pipeline applies; similarity lookups use ``search``, subject-scoped.
    """

    def __init__(self, store: MemoryStore, settings: MemorySettings,
                 subject: tuple[str, str] | None) -> None:
        self.store, self.settings, self.subject = store, settings, subject
        self._rows: dict[str, dict[str, Any]] | None = None

    def owns(self, memory: Mapping[str, Any]) -> bool:
        found = (memory["subject_type"], memory["subject_id"]) \
            if memory.get("subject_type") is not None else None
        return found == self.subject

    def _scan(self) -> dict[str, dict[str, Any]]:
        if self._rows is None:
            rows: dict[str, dict[str, Any]] = {}
            cursor, seen = None, 0
            filters = {"subject_type": self.subject[0], "subject_id": self.subject[1]} \
                if self.subject else {}
            while seen < KEY_SCAN:
                page, cursor = self.store.list(**filters, limit=500, cursor=cursor)
                seen += len(page)
                rows.update((m["id"], m) for m in page if self.owns(m))
                if cursor is None:
                    break
            self._rows = rows
        return self._rows

    def by_key(self, key: str) -> dict[str, Any] | None:
        for memory in self._scan().values():
            if ((memory.get("metadata") or {}).get("observe") or {}).get("key") == key:
                return memory
        return None

    def by_content(self, content: str) -> dict[str, Any] | None:
        wanted = norm(content)
        return next((m for m in self._scan().values() if norm(m["content"]) == wanted), None)

    def holds(self, memory_id: Any) -> dict[str, Any] | None:
        """The memory if it exists and is in this pool, else None."""
        if not isinstance(memory_id, str):
            return None
        try:
            memory = self.store.get(memory_id)
        except MemoryNotFound:
            return None
        return memory if self.owns(memory) else None

    def similar(self, text: str, limit: int = 5) -> list[tuple[dict[str, Any], float]]:
        """Pool memories closest to ``text`` (content lane), best first, >= ``SIMILAR_MIN``.

        A search counts as an access of what it returns (``MemoryStore.search``).
        """
        subject = {"subject_type": self.subject[0], "subject_id": self.subject[1]} \
            if self.subject else {}
        found = self.store.search(query=text[:4000], **subject, limit=20,
                                  settings=self.settings)
        hits = [(r["memory"], r["score"]) for r in found.results
                if self.owns(r["memory"]) and r["score"] >= SIMILAR_MIN]
        return hits[:limit]

    def recent(self, n: int) -> list[dict[str, Any]]:
        return list(self._scan().values())[:n]

    def keep(self, memory: dict[str, Any]) -> None:
        rows = self._scan()
        rows.pop(memory["id"], None)
        self._rows = {memory["id"]: memory, **rows}

    def drop(self, memory_ids: Iterable[str]) -> None:
        rows = self._scan()
        for memory_id in memory_ids:
            rows.pop(memory_id, None)


class Evaluator(Protocol):
    """Reads an observation and yields decisions against a pool.

    Decisions may be yielded lazily: the pipeline applies each before asking for the next,
    so a later decision sees what an earlier one changed.
    """

    name: str

    def evaluate(self, observation: Observation, pool: Pool) -> Iterable[Decision]: ...


class EvaluatorFailed(Exception):
    """An evaluator could not decide (endpoint down, timeout, malformed answer)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


# -- the rule evaluator -----------------------------------------------------------------------

def _metadata(memory: Mapping[str, Any] | None, evaluator: str, key: str | None
              ) -> dict[str, Any]:
    base = dict((memory or {}).get("metadata") or {})
    base["observe"] = {"evaluator": evaluator, **({"key": key} if key else {})}
    return base


class RuleEvaluator:
    """Pattern rules over the user's turns (:func:`extract`); needs no network.

    Candidates come from user turns only, in order; of several candidates with one key the
    last wins (the earlier ones are "superseded by a later statement"). A keyed candidate
    updates the pool's memory with that key (or is a duplicate of it); an unkeyed one is
    added unless the same content is stored. A correction without a key revises the memory
    closest to what was corrected (the previous assistant turn); a "forget" without a key
    deletes the closest memory, if one is close enough (``SIMILAR_MIN``).
    """

    name = "rules"

    def evaluate(self, observation: Observation, pool: Pool) -> Iterator[Decision]:
        found: list[Candidate] = []
        for i, turn in enumerate(observation.turns):
            if turn.role == "user":
                found.extend(extract(turn.content, i, turn.name or "User"))
        if not found:
            yield Decision("nothing", "no memory-worthy content in the turns")
            return
        last = {c.key: i for i, c in enumerate(found) if c.key}
        for i, cand in enumerate(found):
            if cand.key and last[cand.key] != i:
                yield Decision("nothing", "superseded by a later statement in the same turns",
                               category=cand.category)
                continue
            yield self.decide(cand, observation, pool)

    def decide(self, cand: Candidate, obs: Observation, pool: Pool) -> Decision:
        context, goal = obs.window(cand.turn), obs.goal(cand.turn)
        if cand.kind == "forget":
            target = pool.by_key(cand.key) if cand.key else None
            if target is not None and cand.slot and norm(target["content"]) != norm(cand.content):
                return Decision("nothing", "asked to forget a value that is remembered "
                                "differently", category=target["category"],
                                memory_id=target["id"])
            if target is None and not cand.slot:
                hits = pool.similar(cand.query or cand.content, 1)
                target = hits[0][0] if hits else None
            if target is None:
                return Decision("nothing", "asked to forget something not remembered",
                                category=cand.category)
            return Decision("forget", "the user asked to forget it, or said it no longer "
                            "holds", category=target["category"], memory_id=target["id"])
        existing = pool.by_key(cand.key) if cand.key else None
        if cand.kind == "correct" and cand.key is None:
            query = obs.previous_assistant(cand.turn) or cand.query or cand.content
            hits = pool.similar(query, 1)
            if hits:
                old = hits[0][0]
                return Decision("update", "correction of the closest memory",
                                category="correction", memory_id=old["id"],
                                content=f"{old['content']} (corrected: {cand.content})",
                                context=context, intention=goal)
            return Decision("add", "correction of something not remembered",
                            category="correction", content=f"Correction: {cand.content}",
                            context=context, intention=goal)
        if existing is None and cand.key is None:
            existing = pool.by_content(cand.content)
        if existing is not None and norm(existing["content"]) == norm(cand.content):
            return Decision("nothing", "already remembered", category=existing["category"],
                            memory_id=existing["id"])
        if existing is not None:
            reason = "correction: supersedes the earlier memory" if cand.kind == "correct" \
                else "supersedes the earlier memory on the same point"
            return Decision("update", reason, category=cand.category,
                            memory_id=existing["id"], content=cand.content, context=context,
                            intention=goal, key=cand.key)
        reason = "correction of something not remembered" if cand.kind == "correct" \
            else f"new {cand.category}"
        return Decision("add", reason, category=cand.category, content=cand.content,
                        context=context, intention=goal, key=cand.key)


# -- the LLM evaluator --------------------------------------------------------------------------

_SYSTEM = """You are the subconscious memory of an AI agent. Read the conversation turns and \
decide what long-term memory should change. Remember durable things about the user: facts, \
preferences, procedures (how they want things done), useful context, and corrections. Ignore \
small talk and anything already remembered. Only the memories listed may be updated or \
forgotten, by their id.
Answer with one JSON object and nothing else:
{"decisions": [{"action": "add", "category": "fact|preference|procedure|context|correction", \
"content": "<one third-person sentence>", "intention": "<the user's goal, optional>", \
"reason": "<why>"}, {"action": "update", "memory_id": "<id>", "content": "<new content>", \
"category": "<optional>", "reason": "<why>"}, {"action": "forget", "memory_id": "<id>", \
"reason": "<why>"}, {"action": "nothing", "reason": "<why>"}]}"""


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
            raise EvaluatorFailed(f"the endpoint answered HTTP {exc.code}") from None
        except (urllib.error.URLError, socket.timeout, TimeoutError, OSError) as exc:
            reason = getattr(exc, "reason", exc)
            kind = "timed out" if isinstance(reason, (socket.timeout, TimeoutError)) \
                else "unreachable"
            raise EvaluatorFailed(f"the endpoint is {kind}: {reason}") from None
        if len(raw) > LLM_MAX_RESPONSE:
            raise EvaluatorFailed("the endpoint's answer is too large")
        try:
            text = json.loads(raw)["choices"][0]["message"]["content"]
            text = re.sub(r"^\s*```(?:json)?\s*|\s*```\s*$", "", text)
            return json.loads(text)
        except (ValueError, KeyError, IndexError, TypeError):
            raise EvaluatorFailed("the answer is not a chat completion holding a JSON "
                                  "object") from None

    def evaluate(self, observation: Observation, pool: Pool) -> list[Decision]:
        shown = self._shown(observation, pool)
        prompt = {"subject": list(observation.subject) if observation.subject else None,
                  "turns": [{"role": t.role, "content": t.content,
                             **({"name": t.name} if t.name else {})}
                            for t in observation.turns],
                  "memories": shown}
        answer = self._ask([{"role": "system", "content": _SYSTEM},
                            {"role": "user", "content": json.dumps(prompt)}])
        items = answer.get("decisions") if isinstance(answer, dict) else None
        if not isinstance(items, list):
            raise EvaluatorFailed("the answer has no decisions list")
        last_user = max((i for i, t in enumerate(observation.turns) if t.role == "user"),
                        default=len(observation.turns) - 1)
        context, goal = observation.window(last_user), observation.goal(last_user)
        decisions = [self._check(item, pool, context, goal) for item in items[:50]]
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
        if action in ("add", "update") and (not isinstance(content, str) or not content.strip()
                                            or len(content.encode()) > MAX_CONTENT_BYTES):
            return Decision("nothing", f"rejected: {action} without valid content")
        if category is not None and category not in CATEGORIES or \
                action == "add" and category is None:
            return Decision("nothing", "rejected: category must be one of "
                            + ", ".join(CATEGORIES))
        if action == "add":
            if pool.by_content(content) is not None:
                return Decision("nothing", "already remembered", category=category)
            return Decision("add", reason or f"new {category}", category=category,
                            content=content.strip(), context=context, intention=intention)
        target = pool.holds(item.get("memory_id"))
        if target is None:
            return Decision("nothing", f"rejected: {action} of a memory that is not among "
                            "this subject's memories")
        if action == "forget":
            return Decision("forget", reason or "no longer holds",
                            category=target["category"], memory_id=target["id"])
        return Decision("update", reason or "supersedes the earlier memory",
                        category=category or target["category"], memory_id=target["id"],
                        content=content.strip(), context=context, intention=intention)


# -- the pipeline -----------------------------------------------------------------------------

@dataclass
class Outcome:
    decisions: list[Decision]
    evaluator: str
    fallback: str | None = None     # why the configured evaluator was not used


def _apply(store: MemoryStore, settings: MemorySettings, pool: Pool, decision: Decision,
           observation: Observation, evaluator: str) -> Decision:
    """Carry one decision out (source="subconscious"); a refusal becomes "nothing".

    :raise StoreFailed: the runtime could not write (the op fails; earlier decisions stay).
    """
    subject = {"subject_type": observation.subject[0], "subject_id": observation.subject[1]} \
        if observation.subject else {}
    try:
        if decision.action == "add":
            result = store.store(content=decision.content, category=decision.category,
                                 **subject, context=decision.context,
                                 intention=decision.intention, agent=observation.agent,
                                 source="subconscious",
                                 metadata=_metadata(None, evaluator, decision.key),
                                 settings=settings)
            decision.memory_id, decision.evicted = result.memory["id"], result.evicted
            pool.drop(result.evicted)
            pool.keep(result.memory)
        elif decision.action == "update":
            memory = store.update(decision.memory_id, content=decision.content,
                                  category=decision.category, context=decision.context,
                                  intention=decision.intention,
                                  metadata=_metadata(pool.holds(decision.memory_id),
                                                     evaluator, decision.key),
                                  settings=settings)
            pool.keep(memory)
        elif decision.action == "forget":
            store.delete(decision.memory_id)
            pool.drop([decision.memory_id])
    except StoreFailed:
        raise
    except StoreError as exc:
        return Decision("nothing", f"{decision.action} refused: {exc.code}",
                        category=decision.category, memory_id=decision.memory_id)
    return decision


def observe(store: MemoryStore, settings: MemorySettings, observation: Observation,
            evaluator: Evaluator, *, fallback_reason: str | None = None) -> Outcome:
    """Evaluate ``observation`` against the store and apply each decision as it comes.

    When ``evaluator`` raises :class:`EvaluatorFailed` (before anything is applied) the rule
    evaluator decides instead and ``Outcome.fallback`` says why; ``fallback_reason`` is a
    failure found earlier (a malformed evaluator setting), reported the same way.
    """
    pool = Pool(store, settings, observation.subject)
    used, reason = evaluator, fallback_reason
    try:
        proposed: Iterable[Decision] = evaluator.evaluate(observation, pool)
        if not isinstance(evaluator, RuleEvaluator):
            proposed = list(proposed)
    except EvaluatorFailed as exc:
        used, reason = RuleEvaluator(), f"{evaluator.name}: {exc.reason}"
        proposed = used.evaluate(observation, pool)
    applied = [_apply(store, settings, pool, d, observation, used.name) for d in proposed]
    return Outcome(applied, used.name, reason)
