"""A newer value of a person or an animal of the speaker's, read as that one's own statement.

"My husband is a driving instructor now" after "my husband works as a postman", "Ravi
retrained and he's a driving instructor these days" after "my husband Ravi is a postman",
"we moved Mum into a care home in Ripon" after "my mum lives in Harrogate", "the vet has put
Mabel on a kidney diet" after "our cat Mabel eats Whiskas": the newer value is told of the
same person as the old one, but not by the speaker of themselves. The finders of a change
(cue words, slots, keyed rules, the profile bank, a present state) are tuned on what a
speaker says of themselves; of another holder, most look only at memories of the speaker's
or need a named value, and both stay current.

So the same owner is read on both sides and the statement is re-voiced as that owner's:
each one-fact memory whose holder (``profile.whose``: a kin word, the name a memory
introduced with it, "my husband Ravi" and "Ravi" being one) is the statement's, with the
holder's words put back as the speaker's ("my husband Ravi is a postman" -> "I am a
postman"), and the statement likewise ("he's a driving instructor these days" -> "I'm a
driving instructor these days"; "we moved Mum into a care home" -> "they moved me into a
care home"). The evaluator then reads the re-voiced statement against those memories only
(``_Theirs``, a pool of them), as it reads any speaker's: whatever it supersedes there is
the memory the statement changes. A second child, a sister against a brother, a friend's
move never meet the memory, which is of another holder.

Where the holder stands is the grammar of the sentence: a clause's subject (a possessed
kin word with its name, a name, a kin word said as a name: "Mum"), a clause opening on "he"
or "she" after one whose subject is such a person, and the object of a verb moving or
putting someone somewhere (``_DONE_TO``). The re-voiced statement must still name a value
(a proper name, a number, a predicate noun): "my son is at school now" replaces nothing.

Why it is general: the holder is read by grammar and compared with the one the memory
names; the attribute and the change are read by the speaker's own finders, unchanged. No
word of any case. Pure functions over texts, and one evaluator run over a pool of the
holder's memories.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from index import RELATIONS

from .decisions import SIMILAR_MIN, Evaluator, Pool
from .holders import UNKNOWN, framed, kin_word, same_holder, without_opening
from .meaning import SIMILAR_WORDS
from .narration import kin
from .observation import Observation, Turn
from .profile import values, whose
from .sentences import split_sentences
from .updates import FACT_WORDS, first_person, is_event

__all__ = ["theirs_target", "revoiced", "done_to_theirs"]

#: Moving or putting someone somewhere: "we moved Mum into a care home", "switched Bramble
#: over to Parkside Vets", "the vet has put Mabel on a kidney diet".
_DONE_TO = re.compile(r"^(?P<s>.*?\b(?:switched|changed|moved|transferred|swapped|put|"
                      r"registered|enrolled))\s+(?P<o>(?:(?:my|our)\s+)?[\w-]+)"
                      r"(?P<r>\s+(?:over\s+|across\s+|back\s+)?(?:to|into|onto|on|with|at)\b.*)$",
                      re.I)

#: A predicate noun: "is a driving instructor", "works as an architect".
_PREDICATE_NOUN = re.compile(r"\b(?:am|is|are|'m|'s|'re|as)\s+(?:now\s+)?(?:a|an)\s+\w+", re.I)

#: The third person singular of the verb after a re-voiced subject, and its first person.
_AGREE = {"is": "am", "'s": "'m", "has": "have", "does": "do", "goes": "go", "was": "was"}


def _first(verb: str) -> str:
    """The first person of a present verb of the third person ("lives" -> "live")."""
    low = verb.lower()
    if low in _AGREE:
        return _AGREE[low]
    if re.fullmatch(r"[a-z]+(?:ch|sh|ss|x|z)es", low):
        return verb[:-2]
    if re.fullmatch(r"[a-z]+[^aeiou]ies", low):
        return verb[:-3] + "y"
    if re.fullmatch(r"[a-z]{2,}[^su's]s", low):
        return verb[:-1]
    return verb


def _opening(holder: str) -> re.Pattern[str]:
    """The words naming ``holder`` as a clause's subject: "my husband Ravi", "our dog",
    "Ravi", "Mum", "my little brother", "he", "she"."""
    kinds = {kin_word(w) for w in holder.split()}
    said = "|".join(sorted({*(re.escape(w) for w in holder.split()),
                            *(w for w, k in _KIN_PAIRS if k in kinds)}, key=len, reverse=True))
    return re.compile(rf"^(?:(?:(?:my|our)\s+(?:[\w-]+\s+)?)?(?:{said})"
                      rf"(?:\s+(?-i:[A-Z][a-z]+))?|he|she)(?='s\b|\s)", re.I)


#: Every kin word with its relation's first word (``holders.kin_word``), for ``_opening``.
_KIN_PAIRS = tuple((w, kin_word(w)) for w in sorted(RELATIONS | {
    "mum", "mom", "mam", "dad", "nan", "gran", "grandma", "grandad", "granny"}))

#: "'s" as a possessive ("Ravi's car is ..."), not "is" or "has" ("Callum's in Glasgow").
_POSSESSIVE = re.compile(r"^'s\s+(?=[\w-]+(?:\s+[\w-]+)?\s+(?:is|are|was|were|has|have)\b)",
                         re.I)


def _subject_end(clause: str, holder: str) -> int | None:
    """Where the holder's words as ``clause``'s subject end, or None."""
    m = _opening(holder).match(clause)
    return m.end() if m else None


def _speakers(rest: str) -> str:
    """What follows a subject, said after "I" ("'s in Glasgow" -> "I'm in Glasgow",
    " lives in Leeds" -> "I live in Leeds", "'s car is ..." -> "my car is ...")."""
    if _POSSESSIVE.match(rest):
        return "my " + rest[2:].lstrip()
    if rest.startswith("'s"):
        return ("I've" if re.match(r"^'s\s+(?:got|been)\b", rest) else "I'm") + rest[2:]
    m = re.match(r"^(\s+(?:(?:just|now|still|also|finally|currently|recently)\s+)*)([\w']+)",
                 rest, re.I)
    if m is None:
        return "I" + rest
    return "I" + m[1] + _first(m[2]) + rest[m.end():]


def revoiced(clause: str, holder: str) -> str | None:
    """``clause`` (first person, raw) said by ``holder``: its subject the holder's words
    ("my husband Ravi is a postman" -> "I am a postman"), "he"/"she" standing for the holder,
    or the holder moved or put somewhere ("we moved Mum into ..." -> "they moved me into
    ..."). None when the holder is not where a subject or an object stands."""
    said = without_opening(framed(clause.strip()))
    end = _subject_end(said, holder)
    if end is not None:
        return _speakers(said[end:])
    done = _DONE_TO.match(said)
    if done and _subject_end(done["o"] + " ", holder) is not None:
        subject = re.sub(r"^(?:i|we)\b", "they", done["s"], flags=re.I)
        return f"{subject} me{done['r']}"
    return None


def _held(content: str, who: str) -> str | None:
    """Whose one fact a memory is (``profile.whose`` of it in the first person), None for
    a story, a past event or several sentences."""
    said = first_person(content, who)
    if len(said) != 1 or len(said[0].split()) > FACT_WORDS or is_event(said[0]):
        return None
    return whose(said[0])


class _Theirs(Pool):
    """The memories of one holder, re-voiced as the speaker's, over the real pool: the
    evaluator reads a re-voiced statement against these only. Lookups by key and
    content scan them; similarity ranks them by the store's model."""

    def __init__(self, real: Pool, rows: list[dict[str, Any]]) -> None:
        super().__init__(real.store, real.settings, real.subject)
        self._real = real
        self._rows = {m["id"]: m for m in rows}

    def holds(self, memory_id: Any) -> dict[str, Any] | None:
        return (self._rows or {}).get(memory_id) if isinstance(memory_id, str) else None

    def _ranked(self, text: str) -> list[tuple[dict[str, Any], float]]:
        rows = list((self._rows or {}).values())
        embedder = self._real.embedder()
        if not rows or embedder is None:
            return []
        vectors = np.asarray(embedder.embed([text] + [m["content"] for m in rows]),
                             dtype=np.float32)
        vectors /= np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-9)
        scores = vectors[1:] @ vectors[0]
        return sorted(zip(rows, (float(s) for s in scores), strict=True),
                      key=lambda pair: -pair[1])

    def similar(self, text: str, limit: int = 5) -> list[tuple[dict[str, Any], float]]:
        return [pair for pair in self._ranked(text) if pair[1] >= SIMILAR_MIN][:limit]

    def nearest(self, text: str, limit: int = 10) -> list[dict[str, Any]]:
        return [m for m, _ in self._ranked(text)][:limit]

    def embedder(self) -> Any:
        return self._real.embedder()


def _as_speakers(memory: dict[str, Any], holder: str, who: str) -> dict[str, Any] | None:
    """A memory of ``holder``'s told as ``who``'s own ("Ana's husband Ravi is a postman" ->
    "Ana is a postman"), its key left to be read again; None when it does not open on the
    holder."""
    said = first_person(memory["content"], who)
    end = _subject_end(said[0], holder) if len(said) == 1 else None
    if end is None or said[0][:end].lower() in ("he", "she"):
        return None
    metadata = {k: v for k, v in (memory.get("metadata") or {}).items() if k != "observe"}
    return {**memory, "content": f"{who}{said[0][end:]}.", "metadata": metadata}


def _valued(text: str) -> bool:
    """Whether a re-voiced statement names a value: a proper name, a number, a predicate
    noun ("I'm at school now" names none)."""
    return bool(values(text, "") or _PREDICATE_NOUN.search(text))


def theirs_target(source: str, pool: Pool, who: str, skip: Iterable[str],
                  evaluator: Callable[[], Evaluator]) -> dict[str, Any] | None:
    """The memory of a person or an animal of the speaker's that ``source`` (the raw
    sentences of one statement) gives a new value, read as that one's own statement by a
    fresh ``evaluator`` over a pool of their one-fact memories (:class:`_Theirs`); None
    when no sentence is of such a holder with a memory of theirs."""
    if isinstance(pool, _Theirs):
        return None     # already re-voiced: the speaker's own now
    avoid = set(skip)
    memories = [m for m in pool.memories()[:50] if m["id"] not in avoid]
    held = [(m, h) for m in memories if (h := _held(m["content"], who)) not in (None, "", UNKNOWN)]
    if not held:
        return None
    names = kin((m["content"] for m in memories), who)
    for sentence in split_sentences(source):
        if len(sentence.split()) > SIMILAR_WORDS or sentence.rstrip().endswith("?"):
            continue
        for holder in _holders(sentence, names):
            rows = [r for m, h in held if same_holder(h, holder)
                    and (r := _as_speakers(m, h, who)) is not None]
            mine = _revoice_all(sentence, holder)
            if not rows or mine is None or not _valued(mine):
                continue
            found = _read(mine, _Theirs(pool, rows), who, evaluator)
            if found is not None:
                return pool.holds(found)
        if (child := _the_child(sentence, held, who)) is not None:
            found = _read(child[0], _Theirs(pool, child[1]), who, evaluator)
            if found is not None:
                return pool.holds(found)
    return None


#: A child of the speaker's named by no kin word: "our little one", "the baby". Not "our
#: eldest", "our youngest": a superlative of age says there are several, so the one child
#: the memories know need not be the one meant.
_SOME_CHILD = re.compile(r"^(?:my|our|the)\s+(?:little|wee)\s+one\b|^(?:my|our|the)\s+baby\b",
                         re.I)
#: The kin words of a child.
_CHILDREN = frozenset({"son", "daughter", "child", "kid", "baby"})


def _the_child(sentence: str, held: list[tuple[dict[str, Any], str]],
               who: str) -> tuple[str, list[dict[str, Any]]] | None:
    """``sentence`` opening on a child named by no kin word ("Our little one turned five")
    said with the words the speaker's memories name their one child by ("my daughter
    turned five"), and that child's memories; None when the memories hold no child or
    several (which one is meant is not said)."""
    said = without_opening(sentence.strip())
    m = _SOME_CHILD.match(said)
    if m is None:
        return None
    kids = [(memory, h) for memory, h in held if kin_word(h.split()[0]) in _CHILDREN]
    if not kids or any(not same_holder(h, kids[0][1]) for _, h in kids):
        return None
    first = first_person(kids[0][0]["content"], who)[0]
    end = _subject_end(first, kids[0][1])
    if end is None or first[:end].lower() in ("he", "she"):
        return None
    return first[:end] + said[m.end():], [memory for memory, _ in kids]


def done_to_theirs(sentence: str, pool: Pool, who: str) -> bool:
    """Whether ``sentence`` moves or puts a person or an animal of the speaker's somewhere
    ("we moved Mum into a care home", "switched Bramble over to Parkside Vets"): a change
    of theirs, never of the speaker's own (the speaker is only its doer)."""
    done = _DONE_TO.match(without_opening(sentence.strip()))
    if done is None:
        return False
    last = done["o"].split()[-1]
    return last.lower() in RELATIONS or kin_word(last.lower()) != last.lower() or \
        last in kin((m["content"] for m in pool.memories()[:50]), who)


def _holders(sentence: str, names: set[str]) -> list[str]:
    """The persons of the speaker's a sentence tells of: its subject's (``whose``), the
    object moved or put somewhere (a kin word, or a name the memories introduce)."""
    found = []
    if (by := whose(sentence)) not in ("", UNKNOWN):
        found.append(by)
    done = _DONE_TO.match(without_opening(sentence.strip()))
    if done:
        last = done["o"].split()[-1]
        if last.lower() in RELATIONS or kin_word(last.lower()) != last.lower():
            found.append(kin_word(last.lower()))
        elif last in names:
            found.append(last.lower())
    return [h for i, h in enumerate(found) if h not in found[:i]]


def _revoice_all(sentence: str, holder: str) -> str | None:
    """``sentence`` with every clause the holder's re-voiced (:func:`revoiced`), the others
    as they were; None when no clause is the holder's."""
    parts = re.split(r"(\s*(?:[,;:]|\s-\s|\b(?:so|and|but)\b)\s*)", sentence.strip())
    out, any_mine = [], False
    for part in parts:
        mine = revoiced(part, holder) if part.strip() and not re.fullmatch(
            r"\s*(?:[,;:]|-|so|and|but)\s*", part, re.I) else None
        any_mine = any_mine or mine is not None
        out.append(mine if mine is not None else part)
    return "".join(out) if any_mine else None


def _read(statement: str, pool: _Theirs, who: str,
          evaluator: Callable[[], Evaluator]) -> str | None:
    """The id of the memory of ``pool`` the evaluator supersedes reading ``statement`` as
    ``who``'s own, or None."""
    observation = Observation((Turn("user", statement),), pool.subject, subject_name=who)
    try:
        for decision in evaluator().evaluate(observation, pool):
            if decision.action == "supersede" and pool.holds(decision.memory_id):
                return decision.memory_id
    except Exception:   # a failing reading finds nothing: the statement is added
        return None
    return None
