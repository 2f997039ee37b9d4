"""Knowledge updates: which stored memory a new statement makes stale, without an LLM.

A person's memory holds one value per attribute of theirs: where they live, work, what
they drive, who manages them, a child's age... A new statement about the speaker that
gives such an attribute a new value **supersedes** the memory that held the old one; one
saying the old one no longer holds ("I'm not allergic to shellfish anymore") **retires**
it; one that adds ("I also speak German", a second pet, another person's fact, a past
visit) changes nothing stored. Three general methods find the memory meant, in order:

1. **The attribute by its key.** The keyed rules (``rules.py``) name the attribute a
   statement sets (``fact:location``, ``fact:manager``, ``fact:age:son leo``...). Stored
   memories carry their key when the subconscious wrote them; others (episodes, memories
   stored through the API) are read back in the first person ("Maria lives in Porto" ->
   "I live in Porto") and keyed by the same rules (:func:`keys_of`). A single-valued
   attribute's new value supersedes; a many-valued one's (a pet, a preference) only with a
   change cue ("now", "switched", "instead").
2. **The old value by name.** Cue words that end something name what ended: "I left
   *Google*", "*Rex* passed away", "I sold *the Civic*", "instead of *taking the train*",
   "switched from *law*" (:func:`signals`). The memory of the same person mentioning it
   (its content words, stemmed, proper names all present) is the one meant.
3. **The attribute by similarity.** A statement of a change the speaker made ("I switched
   to a Pixel 8", "I changed doctors") with no key or name: the subject's closest memories
   (a search) are compared by the cosine of their texts with the subject's name and the cue
   words removed, so the attribute, not the person, is compared. The closest is meant when
   it is close enough (``SIMILAR_MIN``; more with a weak cue) and clearly closer than the
   next (``MARGIN``), or, for a short statement of the present, less close but far closer
   than the next (``NOW_CLOSE``, ``NOW_MARGIN``); past events ("Adam went to Paris") and
   memories of several sentences are never superseded by similarity. Before it, the
   attribute by its words (``slots.py``: "the keys to our new house" and "I rent a flat"
   are both where one lives).

Never superseded: by a statement with an addition cue ("also", "too", "another",
"second"), by a plan, wish or past habit ("going to", "used to", "as a kid"), or across
holders ("my sister lives in Lisbon" is not about where the speaker lives; whose a
sentence is: ``holders.py``).

The cues a sentence carries (change, ending, addition, not the present) are read in
``cues.py`` (:func:`signals`); this module finds the memory they point at. Pure functions
over texts and a :class:`~element.agents.decisions.Pool`; the module knows no case, no
benchmark and no name.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache
from typing import Any

import numpy as np

from index import terms
# Words adding to what is known rather than replacing it ("also", "too" at a clause's end),
# and not (yet, or any longer) the present (plans, wishes, past habits, a stay): one list
# with recall's (index/told.py); shared with ``endings.py``, ``named.py``, ``afterwards.py``.
from index import TOLD_ADDITION as ADDITION, TOLD_NOT_NOW as NOT_NOW

from .cues import GENERIC, MAY_CHANGE, NEW_HOME, ROLE_BEGUN, Signals, signals
from .dates import time_phrase
from .facts import PAST_TENSE
from .holders import UNKNOWN, holder_of, memory_holder, same_holder
from .person_subject import is_person
from .rules import extract, norm
from .sentences import ends_with_abbreviation, split_sentences

__all__ = ["NEW_HOME", "ROLE_BEGUN", "Signals", "signals", "keys_of", "first_person",
           "the_one_said",
           "same_point", "mentions",
           "value_target", "key_target", "similar_target", "strip_for_attribute",
           "nearest_attribute",
           "SIMILAR_MIN", "SIMILAR_MIN_WEAK", "SIMILAR_MIN_CLEAR", "MARGIN_CLEAR",
           "SIMILAR_MIN_NOW", "NOW_WORDS", "MARGIN",
           "NOW_CLOSE", "NOW_MARGIN", "MAY_CHANGE", "MENTION_MIN", "SINGLE_VALUED",
           "moved_to", "content_terms", "ADDITION", "NOT_NOW"]

#: The least cosine (subject and cue words stripped) for a memory to be the one a change
#: statement replaces by similarity alone.
SIMILAR_MIN = 0.35
#: The same, when the only cue is weak ("now", "started", "this year") and the statement
#: is keyed or of another holder ("my daughter started at ...").
SIMILAR_MIN_WEAK = 0.5
#: The same for a short statement of the speaker's that only says what holds now ("I'm on
#: day shifts now"): "now" is said of additions as often.
SIMILAR_MIN_NOW = 0.6
#: Such a statement that is less close still is meant when it is clearly the closest: at
#: least ``NOW_CLOSE`` and ``NOW_MARGIN`` over the speaker's next memory.
NOW_CLOSE = 0.4
NOW_MARGIN = 0.2
#: How short (words) such a statement must be.
NOW_WORDS = 12
#: A memory longer than this (words) is a story, not one fact: never replaced by
#: similarity.
FACT_WORDS = 20
#: How much closer than the next memory it must be.
MARGIN = 0.1
#: With a strong cue ("I moved my account to Monzo" after "I bank with Barclays"), a
#: memory less close still is meant when nothing else of the subject's comes near: the
#: value words of the two differ ("banks with Barclays", "account to Monzo") and pull the
#: cosine down, but an unrelated memory of the subject's scores near zero.
SIMILAR_MIN_CLEAR = 0.2
#: How much closer than the next memory such a memory must be.
MARGIN_CLEAR = 0.15
#: The least share of a named old value's content words a memory must hold.
MENTION_MIN = 0.5
#: Keys of attributes with one value at a time (besides ``slot`` keys): a child's age.
SINGLE_VALUED = ("fact:age:",)



# -- stored memories read back ------------------------------------------------------------

_THIRD_TO_FIRST = {"is": "am", "has": "have", "does": "do", "was": "was", "goes": "go"}


def _unagree(verb: str) -> str:
    low = verb.lower()
    if low in _THIRD_TO_FIRST:
        return _THIRD_TO_FIRST[low]
    if low.endswith("ies") and len(low) > 4:
        return verb[:-3] + "y"
    if re.search(r"(?:sh|ch|x|z|ss|o)es$", low):
        return verb[:-2]
    if low.endswith("s") and not low.endswith(("ss", "us", "is")) and len(low) > 2:
        return verb[:-1]
    return verb


def first_person(content: str, who: str) -> list[str]:
    """A third-person memory about ``who``, sentence by sentence, back in the first person
    ("Maria lives in Porto" -> "I live in Porto", "Maria's family has a cat" -> "we have a
    cat", "Maria's manager is Sarah" -> "my manager is Sarah")."""
    names = [re.escape(n) for n in {who, "User", "The user", "the user"} if n]
    name = "(?:" + "|".join(names) + ")"
    out = []
    for sentence in split_sentences(content.strip()):
        s = sentence.strip()
        s = s if ends_with_abbreviation(s) else s.rstrip(".!?")
        s = re.sub(rf"\b{name}'s family\s+(\w+)",
                   lambda m: "we " + ("are" if m[1] == "is" else "have" if m[1] == "has"
                                      else _unagree(m[1])), s)
        s = re.sub(rf"^{name}((?:\s+(?:just|also|now|still|really|recently|finally|"
                   rf"currently|actually|no longer|never|always))*)\s+(\w+)",
                   lambda m: f"I{m[1]} {_unagree(m[2])}", s)
        s = re.sub(rf"\b{name}'s\b", "my", s)
        s = re.sub(rf"\b{name}\b", "I", s)
        out.append(s)
    return out


def the_one_said(memories: Iterable[Memory], who: str, fits: Callable[[str], bool],
                 skip: Sequence[str] = ()) -> Memory | None:
    """The one memory of ``memories`` (not in ``skip``) that says one sentence, which
    ``fits`` in the first person; None when none does, or several do (none is meant)."""
    meant = [m for m in memories if m["id"] not in skip
             and len(said := first_person(m["content"], who)) == 1 and fits(said[0])]
    return meant[0] if len(meant) == 1 else None


@lru_cache(maxsize=50_000)
def keys_of(content: str, who: str) -> tuple[str, ...]:
    """The keys the rules give a stored memory's sentences, read back in the first person."""
    found: list[str] = []
    for sentence in first_person(content, who):
        for cand in extract(sentence, 0, who):
            if cand.key and cand.kind == "add" and cand.key not in found:
                found.append(cand.key)
    return tuple(found)


def same_point(a: str, b: str) -> bool:
    """Whether keys ``a`` and ``b`` name one attribute: equal; a person's age and the same
    person's ("son leo" and "leo"); "my X" with the same head and owner ("usual order" and
    "usual coffee order")."""
    if a == b:
        return True
    for prefix in ("fact:age:", "fact:my:"):
        if a.startswith(prefix) and b.startswith(prefix):
            x, y = a[len(prefix):].split(), b[len(prefix):].split()
            if not x or not y:
                return False
            if prefix == "fact:age:":
                return bool(set(x) & set(y))
            # "usual order" and "usual coffee order", not "mum lives" and "dad lives".
            owned = ("s" in x[:-1]) or ("s" in y[:-1])
            return not owned and x[-1] == y[-1] and (x[0] == y[0] or min(len(x), len(y)) == 1)
    return False


def single_valued(key: str, slot: bool) -> bool:
    return slot or key.startswith(SINGLE_VALUED)


# -- finding the memory meant -------------------------------------------------------------

def content_terms(text: str, who: str) -> set[str]:
    skip = set(terms(who)) | {"famili"}
    return {t for t in terms(text) if t not in skip}


def mentions(content: str, value: str, who: str) -> float:
    """The share of ``value``'s content words ``content`` holds (stemmed), 0 when it lacks
    one of its proper names."""
    wanted = {t for t in terms(value) if t not in GENERIC} - set(terms(who))
    if not wanted:
        return 0.0
    have = content_terms(content, who)
    proper = {t for w in re.findall(r"\b[A-Z][\w'-]+", value) for t in terms(w)} - set(terms(who))
    if proper - have:
        return 0.0
    return len(wanted & have) / len(wanted)


def _holder_of_memory(content: str, who: str) -> str:
    sentences = first_person(content, who)
    return holder_of(sentences[0]) if sentences else ""


Memory = dict[str, Any]


def value_target(values: Sequence[str], memories: Iterable[Memory], who: str,
                 holder: str = "", skip: Iterable[str] = ()) -> Memory | None:
    """The newest one-sentence memory of ``holder`` (or naming it) that mentions one of
    ``values``: an episode of several sentences says more than what ended."""
    avoid = set(skip)
    best: tuple[float, int, Memory] | None = None
    for order, memory in enumerate(memories):
        if memory["id"] in avoid or len(first_person(memory["content"], who)) != 1:
            continue
        for value in values:
            share = mentions(memory["content"], value, who)
            if share < MENTION_MIN:
                continue
            owner = _holder_of_memory(memory["content"], who)
            named = re.sub(r"^(?:the|my|our)\s+", "", norm(value))     # "the Civic died"
            # "Our cat Tigger passed away": the memory names Tigger and a cat ("we have a
            # cat called Tigger"), the holder being the thing ended itself.
            itself = bool(re.search(r"(?<!^)\b[A-Z]", value.strip())) and \
                set(terms(holder)) <= content_terms(memory["content"], who)
            # A thing named as ended whoever holds it ("the Civic died"), not a value a
            # person other than the memory's holder ended ("Mum's joined English Heritage
            # instead of the Trust": hers).
            named_only = named in norm(memory["content"]) and \
                not (holder and holder != UNKNOWN and is_person(holder.split()[-1]))
            if not (same_holder(owner, holder) or named_only or itself):
                continue
            if best is None or (share, -order) > (best[0], best[1]):
                best = (share, -order, memory)
    return best[2] if best else None


def key_target(key: str, memories: Iterable[Memory], who: str,
               skip: Iterable[str] = ()) -> Memory | None:
    """The newest memory whose stored or derived key names the same attribute as ``key``."""
    avoid = set(skip)
    for memory in memories:
        if memory["id"] in avoid:
            continue
        stored = ((memory.get("metadata") or {}).get("observe") or {}).get("key")
        found = (stored,) if stored else keys_of(memory["content"], who)
        if any(same_point(key, k) for k in found):
            return memory
    return None


_STRIP_CUES = re.compile(
    r"\b(?:switched|switch|changed|change|moved|finally|just|now|these days|nowadays|"
    r"currently|actually|new|instead|recently|really|again|got|have|has|had|last (?:week|"
    r"month|year|weekend)|this (?:week|month|year|term|semester|fall|spring|summer|winter)|"
    r"yesterday|today)\b", re.I)


def strip_for_attribute(text: str, who: str) -> str:
    """``text`` without its subject's name and the words of change and time: what is left
    says which attribute it is about, and its value."""
    text = re.sub(rf"\b{re.escape(who)}(?:'s)?\b", " ", text)
    text = re.sub(r"\b(?:family|the user(?:'s)?)\b", " ", text, flags=re.I)
    text = _STRIP_CUES.sub(" ", text)
    return " ".join(text.split()) or text


_MOVED_TO = re.compile(r"(?:^|\b(?:i|we|and)\s+(?:have\s+|had\s+|just\s+|finally\s+|recently\s+|"
                       r"all\s+|then\s+)*)(?:moved|relocated|emigrated)(?:\s+(?:back|up|down|over|out|"
                       r"across|away|house|home|all the way))*\s+(?:to|into)\s+"
                       # "... moved into our new place in Bath": the home, then where it is
                       r"(?:(?:a|an|the|our|my)\s+(?:new\s+|own\s+|first\s+)*(?:place|house|flat|"
                       r"home|apartment|bungalow|cottage|terrace|semi)\s+(?:in|at|near)\s+)?"
                       r"(?-i:[A-Z])", re.I)


def moved_to(sentence: str) -> bool:
    """Whether a first-person sentence says the speaker moved to a named place ("We
    packed up and moved to Denver"), wherever the verb stands."""
    return bool(_MOVED_TO.search(sentence))


def is_event(sentence: str) -> bool:
    """Whether a first-person sentence tells something that happened ("I went to Paris",
    "last week I had an incident") rather than what is: an event is not replaced by a
    new value."""
    when = time_phrase(sentence)
    return bool(_EVENT.search(sentence)) or when is not None and when.lower() not in _PRESENT


_PRESENT = frozenset({"today", "right now", "tonight", "recently", "lately"})
#: Irregular pasts that are not also their present ("grew", not "read" or "put"), nor verbs
#: of saying, knowing and feeling, which report rather than tell ("... and I said yes!"):
#: "I grew up in Swansea" is history, never a value a new statement replaces; so is "I was
#: born in Cork" (its "was" is no state here).
_IRREGULAR_PAST = sorted(PAST_TENSE - {"read", "put", "set", "cut", "hit", "quit", "hurt", "cost",
                                      "shut", "spread", "let", "was", "were", "got", "said",
                                      "told", "thought", "felt", "knew", "meant", "understood",
                                      "heard"})
_EVENT = re.compile(r"\b(?:I|we)\s+(?:\w+ly\s+|just\s+|also\s+|then\s+|finally\s+|all\s+)*"
                    r"(?:\w+ed|visited|tried|attended|watched|got back|was born|were born|"
                    + "|".join(_IRREGULAR_PAST) + r")\b", re.I)



def nearest_attribute(text: str, pool: Sequence[Memory], who: str,
                      embed: Callable[[list[str]], np.ndarray]) -> tuple[Memory, float, float]:
    """The memory of ``pool`` (not empty) whose attribute is nearest ``text``'s, by the
    cosine of the texts stripped of the subject's name and change words
    (:func:`strip_for_attribute`), with that cosine and the next memory's (-1: none)."""
    texts = [strip_for_attribute(text, who)] + [strip_for_attribute(m["content"], who)
                                                for m in pool]
    vectors = np.asarray(embed(texts), dtype=np.float32)
    vectors /= np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-9)
    scores = vectors[1:] @ vectors[0]
    order = np.argsort(-scores)
    second = float(scores[order[1]]) if len(order) > 1 else -1.0
    return pool[int(order[0])], float(scores[order[0]]), second

def similar_target(text: str, candidates: Sequence[Memory], who: str, holder: str,
                   embed: Callable[[list[str]], np.ndarray],
                   least: float = SIMILAR_MIN, clear: bool = False,
                   now: bool = False,
                   fits: Callable[[str], bool] | None = None) -> Memory | None:
    """The candidate (a search's hits for ``text``) whose attribute is clearly the one
    ``text`` (third person) sets: same holder, not a past event, cosine of the stripped
    texts >= ``least`` and ``MARGIN`` over the next; with ``clear`` (a strong cue), also
    >= ``SIMILAR_MIN_CLEAR`` and ``MARGIN_CLEAR`` over the next; with ``now`` (a short
    statement of the present), also >= ``NOW_CLOSE`` and ``NOW_MARGIN`` over the next.
    Never a memory (first person) that does not ``fit`` the statement."""
    pool = []
    for memory in candidates:
        sentences = first_person(memory["content"], who)
        # One statement of one fact: an episode of several is not replaced by one sentence.
        if len(sentences) != 1 or len(sentences[0].split()) > FACT_WORDS or \
                is_event(sentences[0]):
            continue
        if not same_holder(memory_holder(sentences[0]), holder):
            continue
        pool.append(memory)
    if not pool:
        return None
    closest, best, second = nearest_attribute(text, pool, who, embed)
    if fits is not None and not fits(first_person(closest["content"], who)[0]):
        return None
    if best >= least and best - second >= MARGIN:
        return closest
    if clear and best >= SIMILAR_MIN_CLEAR and best - second >= MARGIN_CLEAR:
        return closest
    if now and best >= NOW_CLOSE and best - second >= NOW_MARGIN:
        return closest
    return None
