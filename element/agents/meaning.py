"""A change found by meaning: which stored fact a statement gives a new value, when no rule
names its attribute or its old value (``profile.py`` compares them).

The statement whole, then each clause of it alone: a change is often told beside its
reason ("The renewal was daylight robbery, so I've gone with Aviva this year"), whose
words blur what the sentence is about. Only statements, not stories (``SIMILAR_WORDS``),
of the present or with a change cue, and not of several things held at once ("two
phones"). Used by the rule evaluator for change statements and for keyed statements whose
attribute no stored memory has by key.
"""

from __future__ import annotations

import re
from typing import Any

from .addressed import unaddressed
from .decisions import Pool
from .episode_words import STOP
from .episodes import tell
from .profile import profile_target, values, whose
from .holders import UNKNOWN
from .holding import may_hold
from .cues import ranked
from .updates import Signals, is_event, signals

__all__ = ["by_meaning", "clauses", "several", "still_held", "MEANING_POOL", "SIMILAR_WORDS"]

#: A change statement longer than this is a story: its attribute is not looked for by
#: similarity (only by key or a named old value).
SIMILAR_WORDS = 20

#: How many of the pool's newest memories a change found by meaning may replace.
MEANING_POOL = 50

#: Several of a thing held at once ("I'm carrying two phones around now"): one more, not
#: a new one in place of the old. A span of time is no thing held ("finally qualified
#: after four years", "three weeks at the new gym"), nor a count of times.
_SEVERAL = re.compile(r"\b(?:two|three|four|both|several|multiple|a couple of|a pair of)\s+"
                      r"(?!(?:\w+\s+)?(?:seconds|minutes|hours|days|nights|weeks|weekends|months|"
                      r"years|decades|times|mornings|evenings|afternoons)\b)"
                      r"(?:\w+\s+)?\w+s\b", re.I)

#: Where a sentence's clauses meet: a comma, a semicolon, "so", "and", "but".
_CLAUSE = re.compile(r"\s*(?:[,;:]|\s-\s|\b(?:so|and|but)\b)\s*", re.I)


def clauses(sentence: str) -> list[str]:
    """The clauses of a sentence of several (of three words at least), else none."""
    parts = [p for p in _CLAUSE.split(sentence) if len(p.split()) >= 3]
    return parts if len(parts) > 1 else []


def several(sentence: str) -> bool:
    """Whether ``sentence`` tells of several of a thing held at once ("two phones")."""
    return bool(_SEVERAL.search(sentence))


def still_held(memory: dict[str, Any], content: str, sig: Signals, who: str) -> bool:
    """Whether a statement found by meaning says again all that ``memory`` (a third-person
    fact) says of its value, with no strong cue and nothing ended: the old value still
    held, the statement about more of it ("I do my big shop at the Asda in Leeds now"
    after "lives in Leeds"), not a new value in its place ("I play padel at the Leeds club
    now" after "plays tennis at the Leeds club" changes the sport). What the memory says
    of its value is its words after its verb, past the subject's name and small words, and
    it names a value (a name, a number). A change that names the old value says so
    ("moved from Leeds", "traded the Focus in"), and the finders by name read those first."""
    if sig.strong or sig.ended or not values(memory["content"], who):
        return False
    own = {w.lower() for w in who.split()}
    words = [w for w in re.findall(r"[a-z0-9]+", memory["content"].lower()) if w not in own]
    said = [w for w in words[1:] if w not in STOP]      # past the verb
    return bool(said) and set(said) <= set(re.findall(r"[a-z0-9]+", content.lower()))


def by_meaning(sentence: str, content: str, sig: Signals, pool: Pool, who: str,
                skip: list[str]) -> dict[str, Any] | None:
    """The memory whose attribute a statement (not a story; of the present, or with a
    change cue) gives a new value by meaning: both answer one question of a person's
    profile ("What phone do they have?"), whatever their words (``profile.py``). The
    sentence whole, then each clause of it alone: a change is often told beside its
    reason ("The renewal was daylight robbery, so I've gone with Aviva this year"), whose
    words blur what the sentence is about. A sentence longer than a statement
    (``SIMILAR_WORDS``) is a story: only its clauses of a statement's length are read
    ("Right, news: we've bought a house in Leeds, the kids have started at the nursery
    round the corner and I've finally got a garden"). Among the pool's newest one-fact
    memories (``MEANING_POOL``), in one model call at most. The listener's name called
    ("Glad you have support, Caroline") is no value named (``addressed.py``)."""
    sentence, content = unaddressed(sentence), unaddressed(content)
    story = len(sentence.split()) > SIMILAR_WORDS
    if ranked(sentence) and not story:
        return None     # "Mia is one of the tallest in her class": a rank, not her age
    if not story and is_event(sentence) and not sig.change or several(sentence):
        return None
    embedder = pool.embedder()
    if embedder is None or not (sig.strong or values(content, who) or sig.now):
        # No value named: no clause of it names one either; told as now, a value of the
        # old one's kind may be (``kin_values.py``: the finder reads only those then).
        return None
    parts = [] if story else [(content, whose(sentence), sig.strong)]
    for clause in clauses(sentence):
        if len(clause.split()) > SIMILAR_WORDS:
            continue
        said, told = signals(clause), tell(clause, who)
        if told and said.replaces and said.holder != UNKNOWN and \
                not (is_event(clause) and not said.change):
            # The sentence's cue lends its strength to a clause only when the change is
            # the speaker's: "My roommate moved to Seattle, so I'm looking for someone to
            # split the rent" changes nothing of the speaker's.
            parts.append((told, whose(clause), said.strong or sig.strong and not sig.holder))
    if not parts:
        return None
    try:
        found = profile_target(parts, may_hold(sentence, pool.memories()[:MEANING_POOL], who),
                               who, embedder, skip)
    except Exception:   # a failing model finds nothing: the statement is added
        return None
    return None if found is not None and still_held(found, content, sig, who) else found
