"""Brief: a short statement of the speaker's own present, of an attribute they have a
memory of, kept when nothing else of the turn is (issue 23: what is told writes nothing).

"I'm running my own salon", "I've ended up vegan", "I'm on the day rota", "I'm on
fluoxetine": the speaker says what holds of them now, in a clause of their own, yet no
keyed rule reads it (no verb of a slot: "works", "lives", "eats"), no episode scores it
(short, no time, no story) and no change finder meets a cue, so nothing is written and the
older value stays the only one. Told of an attribute the speaker has a one-fact memory of
(the profile bank, ``profile.py``, reads both as that attribute: "vegan" and "eats meat"
as diet), such a statement is the speaker's news on it: kept, in the third person as a
memory says it (``episodes.tell``), replacing nothing by itself (the decision against the
pool is ``decide``'s, as for any fact).

Only a first-person statement of the present (I am, I have, I + a verb of the present; not
a past, a plan, a wish or a hedge), at most ``BRIEF_WORDS`` words, no question, no
exclamation, nothing said to or of the listener; of a turn that writes nothing otherwise.
Precision is LoCoMo's: "I'm so tired", "I'm glad you liked it" answer no attribute of a
one-fact memory of the speaker's, and are not kept.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from index import Embedder

from .episodes import tell
from .episode_words import GENERIC
from .fragments import _frame
from .verbless import _opened
from .irregular import DISTINCT_PASTS
from .profile import profiles
from .sentences import split_sentences

__all__ = ["told_briefly", "brief_statement", "BRIEF_WORDS"]

#: At most this many words in a brief statement (a longer one is an episode's).
BRIEF_WORDS = 10

#: The speaker's present: "I'm ...", "I've (got|ended up|become) ...", "I + a verb".
_PRESENT = re.compile(
    r"^(?:i|we)(?:'m|’m|'re|’re|\s+am|\s+are|'ve|’ve|\s+have)?\s+(?!(?:was|were|had|did|'d|"
    r"would|could|should|might|may|will|shall|can|must|want|wanted|wish|hope|hoped|plan|"
    r"planned|think|thought|guess|suppose|reckon|feel|felt|love|loved|like|liked|hate|"
    r"hated|need|needed|miss|missed|know|knew|mean|meant|see|saw|said|told|tried|going\s+to|"
    r"gonna|about\s+to|not|never|no\s+longer|just\s+been|been\s+to|so|really|very|too|"
    r"glad|happy|sorry|sure|excited|tired|afraid|thinking)\b)", re.I)
#: What says the statement is not of the present, nor the speaker's plain news.
_NOT_PLAIN = re.compile(r"\b(?:you|your|yours|yesterday|last\s+(?:night|week|weekend|month|"
                        r"year|time)|tomorrow|next\s+\w+|ago|maybe|perhaps|probably|"
                        r"hopefully|if|when|because|soon|later|tonight|today|this\s+"
                        r"(?:morning|afternoon|evening|week|weekend)|for\s+(?:the|a|a\s+few|a\s+"
                        r"couple\s+of)\s+(?:week|weekend|night|day|fortnight)s?|visiting|"
                        r"staying|holiday|trip|break)\b|n't\b", re.I)
#: A stance, a degree, a plan or a habit of talk, not a value held: "definitely", "always",
#: "going to", "as well" alone.
_STANCE = re.compile(r"\b(?:definitely|always|even|super|really|so|totally|actually|"
                     r"literally|going\s+to|gonna|will|'ll|down\s+for|about\s+to)\b", re.I)
#: A verb in the past opening the statement ("I went", "I moved"): a story's, an episode's.
_PAST = re.compile(r"^(?:i|we)\s+\w+ed\b", re.I)


def brief_statement(sentence: str) -> str | None:
    """``sentence`` (past its interjections) when it is a brief first-person statement of
    the speaker's present (module docstring), else None."""
    body = _opened(sentence).strip()
    if not body or body.endswith("?") or not _PRESENT.match(body) or \
            _NOT_PLAIN.search(body) or _PAST.match(body):
        return None
    verb = re.match(r"^(?:i|we)\s+(\w+)", body, re.I)
    if verb and verb[1].lower() in DISTINCT_PASTS:
        return None     # "I went ...", "I got ...": a story's past
    words = re.findall(r"[\w'’-]+", body)
    if not 3 <= len(words) <= BRIEF_WORDS or _STANCE.search(body) or \
            len(words) == 3 and words[1].lower() not in ("on", "at", "in", "with", "a", "an") or \
            any(w.lower() in GENERIC for w in words[1:]):
        return None     # (a feeling, a plan, a stance: "I'm stoked about ...", "I'm
        # definitely going to ...", "I'm always down for ...")
    return body


def told_briefly(text: str, who: str, others: Iterable[str], memories: Iterable[str],
                 embedder: Embedder | None) -> tuple[str, str] | None:
    """A turn's brief statement of the speaker's present (:func:`brief_statement`) that
    the profile bank reads as the attribute of one of the speaker's one-fact memories,
    told as a memory says it, and its sentence; None when the turn has none."""
    if embedder is None:
        return None
    said = [(s, b) for s in split_sentences(text) if (b := brief_statement(s)) is not None]
    held = [c for c in dict.fromkeys(memories) if _frame(c, who) is not None]
    if not said or not held:
        return None
    told = [(s, content) for s, b in said if (content := tell(b, who, others))]
    if not told:
        return None
    try:
        found = profiles([c for _, c in told] + held, who, embedder)
    except Exception:   # a failing model keeps nothing
        return None
    # (its attribute clear, and one a memory holds clearly: a brief statement says less)
    kept = {p.attribute.name for p in found[len(told):] if p.attribute is not None}
    for (sentence, content), profile in zip(told, found, strict=False):
        if profile.attribute is not None and profile.attribute.name in kept:
            return content, sentence
    return None
