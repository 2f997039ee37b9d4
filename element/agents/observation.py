"""An observation: the conversation turns an agent hands the subconscious, checked.

``parse_observation`` validates an observe body; an :class:`Observation` knows its turns'
identities (``observed.py``), the context window and goal of each turn, and its date.
Its turns and names hold no :data:`PLACEHOLDERS`: each is dropped on the way in.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from index import (validate_subject)

from ..errors import InvalidRequest
from .dates import parse_session_date
from .observed import own_text_identities, turn_identities
from .goals import goal_of

__all__ = ["Turn", "Observation", "parse_observation", "ROLES", "WINDOW_TURNS",
           "WINDOW_WORDS", "MAX_TURNS", "MAX_TURN_CHARS", "MAX_ID_CHARS", "PLACEHOLDERS",
           "unmarked"]

ROLES = ("user", "assistant")
#: The context captured with a memory: the last turns up to the one it came from, and of
#: those the last words only, so the context lane embeds a situation, not a transcript.
WINDOW_TURNS = 6
WINDOW_WORDS = 64
MAX_TURNS = 200
MAX_TURN_CHARS = 16_000
MAX_ID_CHARS = 200
#: The private-use characters the rules write into a turn's text as markers while they
#: narrate it (``narration.py``: U+E001, U+E002 for the speaker's "my", "mine"). A turn
#: can carry them anyway (pasted from an app that uses the private-use area, or sent to
#: corrupt), and each was then read as a marker ("I love my dog \ue001" -> "... their
#: dog their") or stored as it came, in a memory's context or in facts written without
#: narration. They mean nothing to a reader: every turn and name drops them here, so no
#: rule ever sees one. Other private-use characters are no marker of ours and pass as
#: text (they are not word characters, so they neither split nor join words).
PLACEHOLDERS = "\ue001\ue002"
_DROP = str.maketrans("", "", PLACEHOLDERS)


def unmarked(text: str) -> str:
    """``text`` without :data:`PLACEHOLDERS`."""
    return text.translate(_DROP)


def _unmarked_name(name: str | None) -> str | None:
    """A name without :data:`PLACEHOLDERS`, trimmed; None if nothing else is left."""
    return (unmarked(name).strip() or None) if name is not None else None


# -- input ------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Turn:
    role: str
    content: str
    name: str | None = None
    id: str | None = None       # the client's id of the turn, unique in its conversation

    def __post_init__(self) -> None:
        # Frozen: the cleaned text replaces what was given, before anything reads it.
        object.__setattr__(self, "content", unmarked(self.content))
        object.__setattr__(self, "name", _unmarked_name(self.name))


@dataclass(frozen=True)
class Observation:
    """Conversation turns, who is speaking (``subject``) and who stores (``agent``).

    ``conversation_id`` and the turns' ids identify turns across re-sends (``observed.py``);
    ``session_date`` is when the conversation took place (memories get ``occurred_at``
    from it); ``subject_name`` is how memories name the speaker when a turn gives no
    ``name``. ``fresh`` marks the turns not observed before (None: all of them).
    """

    turns: tuple[Turn, ...]
    subject: tuple[str, str] | None = None
    agent: str | None = None
    conversation_id: str | None = None
    session_date: datetime | None = None
    subject_name: str | None = None
    fresh: tuple[bool, ...] | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "subject_name", _unmarked_name(self.subject_name))

    def is_fresh(self, i: int) -> bool:
        return self.fresh is None or self.fresh[i]

    def speaker(self, i: int) -> str:
        """How memories of turn ``i`` name its speaker."""
        return self.turns[i].name or self.subject_name or "User"

    def others(self, i: int) -> list[str]:
        """Names of the other people in the turns (whom turn ``i`` may address)."""
        me = self.turns[i].name
        return [t.name for t in self.turns if t.name and t.name != me]

    def identities(self) -> list[str]:
        return turn_identities([(t.role, t.content, t.id) for t in self.turns],
                               self.subject, self.conversation_id)

    def recordable(self) -> list[str]:
        """Every identity to record once these turns are observed (``observed.py``)."""
        return self.identities() + own_text_identities(
            [(t.role, t.content, t.id) for t in self.turns], self.subject,
            self.conversation_id)

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

    def answers_question(self, upto: int) -> bool:
        """Whether the turn before ``upto`` (the other side's) asked a question."""
        return upto > 0 and self.turns[upto - 1].role != self.turns[upto].role and \
            "?" in self.turns[upto - 1].content

    def replies(self, upto: int) -> bool:
        """Whether the turn ``upto`` follows one of the other side's."""
        return upto > 0 and self.turns[upto - 1].role != self.turns[upto].role

    def previous_assistant(self, upto: int) -> str | None:
        for i in range(upto - 1, -1, -1):
            if self.turns[i].role == "assistant" and self.turns[i].content.strip():
                return self.turns[i].content
        return None


def _optional_text(body: Mapping[str, Any], field: str, limit: int,
                   where: str | None = None) -> str | None:
    """A string (or integer) field of at most ``limit`` characters, trimmed; None if absent.

    :raise InvalidRequest: naming ``where`` (default ``field``).
    """
    value = body.get(field)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (str, int)) or \
            not str(value).strip() or len(str(value)) > limit:
        raise InvalidRequest(where or field, f"must be a non-empty string of at most {limit} "
                             "characters")
    return str(value).strip()


def parse_observation(body: Mapping[str, Any]) -> Observation:
    """Validate an observe body: ``turns`` plus optional subject, agent, ``conversation_id``,
    ``session_date`` and ``subject_name``.

    :raise InvalidRequest: naming the first bad field (``turns[2].role``...).
    :raise SubjectIncomplete, InvalidMemory: the subject is half given or malformed.
    """
    raw = body.get("turns")
    if not isinstance(raw, list) or not raw:
        raise InvalidRequest("turns", "is required: a non-empty list of {role, content}")
    if len(raw) > MAX_TURNS:
        raise InvalidRequest("turns", f"at most {MAX_TURNS} turns per observe")
    turns = []
    ids: set[str] = set()
    for i, item in enumerate(raw):
        where = f"turns[{i}]"
        if not isinstance(item, dict):
            raise InvalidRequest(where, "must be an object {role, content, name?, id?}")
        for key in item:
            if key not in ("role", "content", "name", "id"):
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
        ident = _optional_text(item, "id", MAX_ID_CHARS, f"{where}.id")
        if ident is not None:
            if ident in ids:
                raise InvalidRequest(f"{where}.id", "repeats the id of an earlier turn")
            ids.add(ident)
        turns.append(Turn(item["role"], content, name.strip() if name else None, ident))
    agent = body.get("agent")
    if agent is not None and not isinstance(agent, str):
        raise InvalidRequest("agent", "must be a string")
    subject = validate_subject(body.get("subject_type"), body.get("subject_id"))
    subject_name = body.get("subject_name")
    if subject_name is not None and (not isinstance(subject_name, str)
                                     or not subject_name.strip() or len(subject_name) > 64):
        raise InvalidRequest("subject_name", "must be a non-empty string of at most 64 "
                             "characters")
    return Observation(tuple(turns), subject, agent,
                       conversation_id=_optional_text(body, "conversation_id", MAX_ID_CHARS),
                       session_date=parse_session_date(body.get("session_date")),
                       subject_name=subject_name.strip() if subject_name else None)
