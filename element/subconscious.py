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

from index import MemorySettings, MemoryStore
from index.errors import MemoryNotFound, StoreError, StoreFailed
from index.records import CATEGORIES, MAX_CONTENT_BYTES, validate_subject

from .errors import InvalidRequest

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


# -- the rules --------------------------------------------------------------------------------
# English only, one sentence at a time, first person. What they catch and miss: docs/agents.md.

@dataclass
class Candidate:
    """A memory the rules found in one sentence of user turn ``turn``.

    ``key`` names the point it is about (``fact:location``, ``preference:tea``...): a later
    candidate with the same key supersedes it. ``slot`` says the key holds one value that is
    not part of it (a location, a name), so forgetting needs the same value. ``kind`` is add,
    correct or forget; ``query`` is what a keyless correction or forget searches for.
    """

    category: str
    content: str
    key: str | None
    turn: int
    kind: str = "add"
    query: str | None = None
    slot: bool = False


_APOS = str.maketrans({"\u2019": "'", "\u2018": "'", "`": "'"})
_EXPAND = [(re.compile(p, re.I), r) for p, r in (
    (r"\bi'm\b", "I am"), (r"\bi've\b", "I have"), (r"\bi'd\b", "I would"),
    (r"\bi'll\b", "I will"), (r"\bcan't\b", "cannot"), (r"\bwon't\b", "will not"),
    (r"\b(do|does|did|is|are|was|were|have|has|had|could|would|should)n't\b", r"\1 not"),
    (r"\b(it|that|what|he|she)'s\b", r"\1 is"), (r"\bname's\b", "name is"))]
_FILLER = re.compile(r"^(?:(?:oh|ah|well|hey|hi|hello|ok|okay|so|and|but|also|btw|by the way|"
                     r"fyi|just so you know|for the record|for your information|to be clear|"
                     r"honestly|anyway)\b[\s,:;!.-]*)+", re.I)
_SPLIT = re.compile(r"(?<=[.!?;])\s+|\n+|,?\s+(?:and|but)\s+(?=(?:i|my)\b)", re.I)
_VAGUE = {"it", "that", "this", "them", "those", "these", "you", "him", "her", "one", "so",
          "too", "everything", "all", "anything", "something"}
_ARTICLES = {"a", "an", "the", "some", "my", "their", "your"}
_TAIL = re.compile(r"(?:\s+(?:now|too|as well|also|currently|these days|at the moment|"
                   r"right now|anymore|any more))+$", re.I)
_CUT = re.compile(r"\s+(?:because|since|though|although|but)\s+.*$|\s*[,;:(].*$", re.I)
_THIRD = [(re.compile(p, re.I), r) for p, r in (
    (r"\bi am\b", "they are"), (r"\bi was\b", "they were"), (r"\bi have\b", "they have"),
    (r"\bi will\b", "they will"), (r"\bi would\b", "they would"), (r"\bmyself\b", "themselves"),
    (r"\bmine\b", "theirs"), (r"\bmy\b", "their"), (r"\bme\b", "them"), (r"\bi\b", "they"))]


def norm(text: str) -> str:
    """Lowercase words only: how keys and duplicate contents compare."""
    return " ".join(re.findall(r"[a-z0-9]+", text.lower().translate(_APOS)))


def _key(kind: str, text: str) -> str:
    words = norm(text).split()
    while words and words[0] in _ARTICLES:
        words = words[1:]
    return f"{kind}:{' '.join(words)}"


def third_person(text: str, who: str | None = None) -> str:
    """First person to third: "my" -> "their"; for instructions (``who`` given) "me" ->
    "the user" (or the speaker's name) and "my" -> "the user's"."""
    if who is not None:
        who = "the user" if who == "User" else who
        text = re.sub(r"\bmy\b", f"{who}'s", text, flags=re.I)
        text = re.sub(r"\b(?:me|myself)\b", who, text, flags=re.I)
    for pattern, repl in _THIRD:
        text = pattern.sub(repl, text)
    return text


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _obj(text: str, limit: int = 20) -> str | None:
    """The object of a statement, cut at a reason or a clause; None when vague or long."""
    text = _TAIL.sub("", _CUT.sub("", text).strip(" .!;:,\"'")).strip(" .!;:,\"'")
    if not text or norm(text) in _VAGUE or len(text.split()) > limit:
        return None
    return text


def _about(text: str, who: str) -> str:
    """What a "forget X" is about, phrased as memories are: "my address" -> "User's address"."""
    text = re.sub(r"^my\b", f"{who}'s", text.strip(), flags=re.I)
    return third_person(re.sub(r"^i\b", who, text, flags=re.I))


_VERBS = {"prefer": "prefers", "like": "likes", "love": "loves", "enjoy": "enjoys",
          "adore": "adores", "hate": "hates", "dislike": "dislikes", "detest": "detests",
          "cannot stand": "cannot stand", "do not like": "does not like",
          "do not enjoy": "does not enjoy", "do not care for": "does not care for",
          "do not mind": "does not mind"}
_PREFER = re.compile(r"^i\s+(?:(?:really|absolutely|totally|kind of|kinda|much|definitely|"
                     r"usually|generally|strongly|also|still)\s+)*(?P<v>" +
                     "|".join(sorted(_VERBS, key=len, reverse=True)) + r")\s+(?P<x>.+)$", re.I)
_OVER = re.compile(r"^(?P<a>.+?)\s+(?:over|to|rather than|more than|than)\s+(?P<b>.+)$", re.I)
_FAN = re.compile(r"^i\s+am\s+(?P<neg>not\s+)?(?:a\s+)?(?:big\s+|huge\s+|great\s+|really\s+)?"
                  r"(?:fan of|into|fond of|keen on)\s+(?P<x>.+)$", re.I)
_NAME = re.compile(r"^(?:my name is|i am called|(?P<call>(?:you can |please )?call me|"
                   r"people call me))\s+(?P<x>.+)$", re.I)
_INTRO = re.compile(r"^(?i:i am|this is)\s+(?P<x>[A-Z][a-z'\-]+(?:\s+[A-Z][a-z'\-]+)?)$")
_NOT_NAMES = {"Fine", "Good", "Sorry", "Back", "Here", "Done", "Ready", "Not", "Okay", "Sure",
              "Glad", "Happy", "Tired", "Busy", "Great", "Well", "Just"}
_FACTS: list[tuple[re.Pattern[str], str, str]] = [(re.compile(p, re.I), tpl, key) for p, tpl, key in (
    (r"^i\s+(?:am\s+)?(?:currently\s+|now\s+)?(?:live|living|reside|residing|based|staying)\s+"
     r"in\s+(?P<x>.+)$", "{who} lives in {x}", "fact:location"),
    (r"^i\s+(?:just\s+|recently\s+)?moved\s+to\s+(?P<x>.+)$", "{who} lives in {x}",
     "fact:location"),
    (r"^i\s+(?:am|come)\s+(?:originally\s+)?from\s+(?P<x>.+)$", "{who} is from {x}",
     "fact:origin"),
    (r"^i\s+(?:am\s+)?(?:currently\s+|now\s+)?(?:work|working)\s+(?:at|for)\s+(?P<x>.+)$",
     "{who} works at {x}", "fact:employer"),
    (r"^i\s+(?:am\s+)?(?:currently\s+|now\s+)?(?:work|working)\s+as\s+(?P<x>.+)$",
     "{who} works as {x}", "fact:occupation"),
    (r"^i\s+am\s+allergic\s+to\s+(?P<x>.+)$", "{who} is allergic to {x}", "fact:allergy:{x}"),
    (r"^i\s+am\s+(?P<x>\d{1,3})(?:\s+years?\s+old)?$", "{who} is {x} years old", "fact:age"),
    (r"^i\s+(?:can\s+)?speak\s+(?P<x>.+)$", "{who} speaks {x}", "fact:speaks:{x}"),
    (r"^i\s+(?:have|have got|own)\s+(?P<x>(?:a|an|one|two|three|four|five|six|\d+)\s+.+)$",
     "{who} has {x}", "fact:has:{head}"),
    (r"^i\s+am\s+(?:currently\s+)?(?P<x>(?:working on|planning|preparing|learning|studying|"
     r"traveling to|travelling to|moving to|writing|building)\s+.+)$", "{who} is {x}",
     "context:{verb}"),
)]
_STATES = {"vegetarian": "diet", "vegan": "diet", "pescatarian": "diet", "married": "relationship",
           "single": "relationship", "divorced": "relationship", "widowed": "relationship",
           "engaged": "relationship", "retired": "work"}
_IS = re.compile(r"^i\s+am\s+(?P<art>(?:a|an)\s+)?(?P<x>[a-z][\w\-]*(?:\s+[a-z][\w\-]*){0,2})$",
                 re.I)
_NOT_ROLES = {"bit", "little", "lot", "big", "huge", "great", "bad", "good", "not", "so",
              "very", "really", "just", "sure", "sorry", "here", "back", "fine", "going",
              "trying", "looking", "asking", "wondering", "thinking", "glad", "happy"}
_MY = re.compile(r"^my\s+(?P<k>[\w'\- ]{1,40}?)\s+(?P<v>is|are|was|will be)\s+(?P<x>.+)$", re.I)
_MY_VERB = re.compile(r"^my\s+(?P<k>\w+(?:\s\w+)?)\s+(?P<v>lives|works|is called|likes|loves|"
                      r"hates|prefers|has|studies)\s+(?P<x>.+)$", re.I)
_NOT_MY = {"question", "point", "guess", "bad", "fault", "pleasure", "apologies", "turn",
           "answer", "reply", "request", "name"}
_ALWAYS = re.compile(r"^(?:please\s+)?(?P<w>always|never|do not ever)\s+(?P<x>.+)$", re.I)
_WHEN = re.compile(r"^(?:please\s+)?(?P<w>when|whenever|if|every time|each time|before|after)"
                   r"\s+(?P<c>[^,]{3,}?),\s*(?:please\s+)?(?:then\s+)?(?P<x>.+)$", re.I)
_NOT_ORDERS = {"i", "we", "it", "they", "he", "she", "that", "this", "there", "my", "the", "a",
               "an", "our", "their", "his", "her"}
_FROM_NOW = re.compile(r"^(?:from now on|going forward|in (?:the )?future|next time)[\s,:]+"
                       r"(?:please\s+)?(?P<x>.+)$", re.I)
_REMEMBER = re.compile(r"^(?:please\s+)?(?:remember|do not forget|keep in mind|note)"
                       r"\s+(?:that\s+)?(?P<x>.+)$", re.I)
_FORGET = re.compile(r"^(?:please\s+)?(?:forget|stop remembering|disregard)\s+(?:that\s+|about\s+|"
                     r"what i said about\s+)?(?P<x>.+)$", re.I)
_NO_LONGER = [re.compile(p, re.I) for p in (
    r"^(?P<s>i)\s+no longer\s+(?P<x>.+)$", r"^(?P<s>i am)\s+no longer\s+(?P<x>.+)$",
    r"^(?P<s>i)\s+do not\s+(?P<x>.+?)\s+any\s?more$", r"^(?P<s>i am)\s+not\s+(?P<x>.+?)\s+any\s?more$")]
_ASK_MEMORY = re.compile(r"^(?:can|could|would|will)\s+you\s+(?:please\s+)?"
                         r"(?P<x>(?:remember|forget|note|keep in mind)\b.+)$", re.I)
_CORRECTION = re.compile(r"^(?P<m>actually|no|nope|not quite|wrong|correction|i meant|sorry,?\s+i "
                         r"meant|that is (?:wrong|not right|incorrect|not true|not correct))"
                         r"\b[\s,:;!.-]*", re.I)
_WEAK = {"actually", "no", "nope", "not quite"}
_REFERS = re.compile(r"^(?:it|its|it is|it was|that is|the|his|her|their|our|they|he|she)\b",
                     re.I)
_REQUEST = re.compile(
    r"^(?:(?:can|could|would|will)\s+you\s+(?:please\s+)?|please\s+|i\s+(?:want|need|would like|"
    r"wish)\s+to\s+|i\s+am\s+(?:trying|hoping)\s+to\s+|(?:help me|i need help)(?:\s+(?:to|with))?"
    r"\s+|let(?:'s|\s+us)\s+)(?P<x>.+)$", re.I)
_ORDER = re.compile(r"^(?:tell|show|find|give|book|plan|write|suggest|recommend|explain|summari[sz]e|"
                    r"remind|make|create|send|schedule|order|help|fix|draft|translate|check|"
                    r"compare|list|describe|calculate|organi[sz]e|prepare|search|look up|get|buy|"
                    r"review|edit|set up|cook|choose|pick|teach|i am looking for)\b.+$", re.I)
_MEMORY_WORDS = re.compile(r"^(?:remember|forget|note|keep in mind|always|never)\b", re.I)


def _sentences(text: str) -> Iterator[tuple[str, bool]]:
    """Cleaned sentences (contractions expanded, fillers dropped) and whether each asks."""
    text = text.translate(_APOS)
    for pattern, repl in _EXPAND:
        text = pattern.sub(repl, text)
    for raw in _SPLIT.split(text):
        raw = (raw or "").strip()
        question = raw.endswith("?")
        sentence = _FILLER.sub("", raw).strip().rstrip(".!?;").strip()
        if sentence and len(sentence.split()) <= 60:
            yield sentence, question


def _statement(s: str, turn: int, who: str) -> Candidate | None:
    """A fact, preference or context the user states about themselves."""
    if m := _NAME.match(s):
        name = _obj(m["x"], 4)
        if not name:
            return None
        text = f"{who} wants to be called {name}" if m["call"] else f"{who}'s name is {name}"
        return Candidate("fact", text, "fact:name", turn, slot=True)
    if (m := _INTRO.match(s)) and m["x"].split()[0] not in _NOT_NAMES:
        return Candidate("fact", f"{who}'s name is {m['x']}", "fact:name", turn, slot=True)
    if m := _PREFER.match(s):
        verb, x = m["v"].lower(), _obj(m["x"])
        if not x:
            return None
        pair = _OVER.match(x) if verb == "prefer" else None
        key = "preference:" + "|".join(sorted(_key("", p)[1:] for p in (pair["a"], pair["b"]))) \
            if pair else _key("preference", x)
        return Candidate("preference", f"{who} {_VERBS[verb]} {third_person(x)}", key, turn)
    if m := _FAN.match(s):
        x = _obj(m["x"])
        verb = "does not like" if m["neg"] else "likes"
        return Candidate("preference", f"{who} {verb} {third_person(x)}",
                         _key("preference", x), turn) if x else None
    for pattern, template, key in _FACTS:
        if m := pattern.match(s):
            x = _obj(m["x"])
            if not x:
                return None
            head = re.split(r"\s+(?:named|called|who|that|which|with|at|in|on|for|from|to)\b",
                            x)[0].split()[-1]
            slot = "{" not in key
            key = key.format(x=norm(x), head=norm(head), verb=norm(x).split()[0])
            category = "context" if key.startswith("context") else "fact"
            return Candidate(category, template.format(who=who, x=third_person(x)), key, turn,
                             slot=slot)
    if m := _MY.match(s):
        k, x = m["k"].strip(), _obj(m["x"])
        if not x or norm(k) in _NOT_MY:
            return None
        category = "preference" if re.match(r"favou?rite\b", k, re.I) else "fact"
        return Candidate(category, f"{who}'s {k} {m['v'].lower()} {third_person(x)}",
                         _key("fact:my", k), turn, slot=True)
    if m := _MY_VERB.match(s):
        x = _obj(m["x"])
        return Candidate("fact", f"{who}'s {m['k']} {m['v'].lower()} {third_person(x)}",
                         _key("fact:my", f"{m['k']} {m['v']}"), turn, slot=True) if x else None
    if (m := _IS.match(s)) and m["x"].split()[0].lower() not in _NOT_ROLES:
        x = m["x"].lower()
        if not m["art"] and x not in _STATES:
            return None
        key = f"fact:{_STATES[x]}" if x in _STATES else _key("fact:is", x)
        return Candidate("fact", f"{who} is {m['art'] or ''}{x}", key, turn,
                         slot=x in _STATES)
    return None


def _instruction(s: str, turn: int, who: str) -> Candidate | None:
    """A procedure: always/never X, when X do Y, from now on X, remember to X."""
    if m := _ALWAYS.match(s):
        word = "Never" if m["w"].lower() != "always" else "Always"
        x = _obj(m["x"], 30)
        return Candidate("procedure", f"{word} {third_person(x, who)}",
                         _key("procedure", x), turn) if x else None
    if m := _WHEN.match(s):
        x = _obj(m["x"], 30)
        if not x or x.split()[0].lower() in _NOT_ORDERS:
            return None
        return Candidate("procedure", f"{_cap(m['w'].lower())} {third_person(m['c'], who)}, "
                         f"{third_person(x, who)}", _key("procedure:when", m["c"]), turn)
    if m := _FROM_NOW.match(s):
        x = _obj(m["x"], 30)
        return Candidate("procedure", f"From now on, {third_person(x, who)}",
                         _key("procedure", x), turn) if x else None
    return None


def _parse(s: str, turn: int, who: str) -> Candidate | None:
    if m := _FORGET.match(s):
        x = _obj(m["x"], 30)
        if not x:
            return None
        inner = _statement(x, turn, who)
        key = inner.key if inner else (_key("fact:my", x[3:]) if x.lower().startswith("my ")
                                       else None)
        text = inner.content if inner else _about(x, who)
        return Candidate(inner.category if inner else "fact", text, key, turn, "forget", text,
                         slot=bool(inner and inner.slot))
    for pattern in _NO_LONGER:
        if m := pattern.match(s):
            inner = _statement(f"{m['s']} {m['x']}", turn, who)
            text = inner.content if inner else _about(f"{m['s']} {m['x']}", who)
            return Candidate(inner.category if inner else "fact", text,
                             inner.key if inner else None, turn, "forget", text,
                             slot=bool(inner and inner.slot))
    if m := _REMEMBER.match(s):
        x = m["x"]
        if re.match(r"to\s", x, re.I):
            x2 = _obj(x[3:], 30)
            return Candidate("procedure", f"Remember to {third_person(x2, who)}",
                             _key("procedure", x2), turn) if x2 else None
        found = _statement(x, turn, who) or _instruction(x, turn, who)
        if found:
            return found
        x = _obj(x, 30)
        return Candidate("fact", _cap(_about(x, who)), None, turn) if x else None
    return _instruction(s, turn, who) or _statement(s, turn, who)


def _correction(rest: str, turn: int, who: str, strong: bool) -> Candidate | None:
    inner = _parse(rest, turn, who)
    if inner is not None:
        if inner.kind == "add":
            inner.kind = "correct"
        return inner
    if strong or _REFERS.match(rest):
        return Candidate("correction", _cap(third_person(rest)), None, turn, "correct", rest)
    return None


def extract(text: str, turn: int, who: str = "User") -> list[Candidate]:
    """The candidates of one user turn, sentence by sentence, in order.

    Questions are skipped unless they ask to remember or forget ("could you remember that
    ..."). A correction marker ("actually", "no", "that's wrong"...) makes what follows a
    correction; alone in its sentence, it makes the next sentence one.
    """
    found: list[Candidate] = []
    pending = False
    for s, question in _sentences(text):
        if question:
            m = _ASK_MEMORY.match(s)
            if not m:
                pending = False
                continue
            s = m["x"]
        marker = _CORRECTION.match(s)
        candidate = None
        if marker:
            rest = s[marker.end():].strip()
            strong = norm(marker["m"]) not in _WEAK
            if not rest:
                pending = True
                continue
            candidate = _correction(rest, turn, who, strong)
        elif pending:
            candidate = _correction(s, turn, who, True)
        else:
            candidate = _parse(s, turn, who)
        pending = False
        if candidate is not None:
            found.append(candidate)
    return found


def goal_of(text: str) -> str | None:
    """The goal of a user turn: its first request or question that is not about memory.

    "Can you suggest a recipe?" -> "suggest a recipe"; "What should I cook tonight?" ->
    "What should I cook tonight". None when the turn asks for nothing.
    """
    for s, question in _sentences(text):
        if marker := _CORRECTION.match(s):
            s = s[marker.end():].strip()
        m = _REQUEST.match(s)
        goal = m["x"] if m else (s if question or _ORDER.match(s) else None)
        if goal and not _MEMORY_WORDS.match(goal):
            return " ".join(goal.split()[:30])
    return None


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
