"""A newer value under the threshold joins in its older value's place (issue 23, item 5).

When an update was not caught as one, both values stay current, and a newer statement
worded unlike the query ("Petplan put the premium up again so the dog's insured with
ManyPets now" for "Who is Horace's pet insurance with?") can score under the relevance
threshold (or past the limit) while the older, plainer one ("Horace's pet insurance is
with Petplan", .95) is the first result: the search then answers with the old value
alone. As a current memory inherits the relevance of the memories it superseded
(``lend.py``), a newer value of the single-valued attribute the query asks
(``recency.asked``) inherits the place and the score of its subject's older value among
the results: of two values a person gave, the newer is the one to believe, and
``recency.newer_first`` then puts it first.

Of a single-valued attribute asked, only a fact or preference about the same subject,
told after the result it joins beside: an older value among the results, a fact of the person's that
answers the attribute clearly (``recency.ANSWERS_Z``) or the subject's first fact of its
own (what the query itself found to answer it: the bank's questions read "is a member of
PureGym" as a partner's). A newer value found already, yet ranked below the older
further than a tie (so ``recency.newer_first`` leaves it second), is lifted to it alike.
Joining claims more than reordering the results, so the newer must say it is a value of
now, by one of two:

- it says it holds now or tells the change (``recency.CURRENT``, ``recency.CHANGE``: "...
  with ManyPets now", "switched to") and answers the attribute clearly: told inside a
  sentence about something else ("Loading the kids' bikes into the boot of the Volvo
  takes two minutes now"), what else it says may answer another attribute better;
- or, saying neither, it answers the attribute best of the profile bank and tells no past
  event (``told.tells_event``): a state that holds ("the flat in Edinburgh gets so much
  more light than the old place did", weeks after "lives in Glasgow"), not a visit or a
  night out worded like a home or a car ("spent a lovely week in Lisbon", "visited their
  aunt in Leeds").

Of a many-valued attribute asked clearly (a pet, a sport, a language), a second value is
as often one more: only a newer row not chosen that says the older gave way (a word of
now or of replacing, ``replaced_ahead.tells_change``) and answers the attribute best of
the bank joins, beside its subject's older value or an ending told with it
(:func:`_join_many`).

Never a past, a wish, an ending or an addition (``recency.yields``, ``recency.ADDITION``),
nor a fact about another person of the subject's (``recency.answering``).

The ranking hands over its best rows not chosen (``Ranked.under``, ``ranking.py``); each
backend reads their vectors and words as it reads the results' and calls
:func:`join_under` before ``recency.newer_first``. The
results keep the search's limit: a joined row pushes the last one out (:func:`cut`, after
the order).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import numpy as np

from .changed_answer import answers_as_change
from .gathered import Ranked
from .recency import PROFILE_CATEGORIES, Asked, answering
from .replaced_ahead import READ_CACHE, tells_change
from .told import ADDITION, BEGUN, CHANGE, CURRENT, aside, tells_event, told_of, yields
from .unanswered import join_unanswered

__all__ = ["cut", "join_under", "joined", "reads_under", "told_now"]


def join_under(vectors: Sequence[np.ndarray | None], owners: Sequence[Any],
               newness: Sequence[float], contents: Sequence[str | None],
               categories: Sequence[str | None], chosen: int,
               question: Asked | None) -> list[tuple[int, int]]:
    """The rows to join, as ``(row, beside)`` pairs: rows ``0..chosen-1`` are the
    results (best first), the rest the ranking's rows not chosen (best first); each
    joining row goes right before the result ``beside``, whose score it takes: a row of
    the rest joins the results, a result ranked below ``beside`` is lifted to it (a newer
    value found, yet further below its older value than a tie: it inherits as one
    joining does). Empty when the query asks no single-valued attribute."""
    if question is None or not question.single:
        return [] if question is None or not reads_under(question) else \
            _join_many(vectors, owners, newness, contents, categories, chosen, question)
    # A person's facts among the results: the older values, and the results that may be
    # lifted, each told after a fact of its subject's ranked above it (no words read yet).
    facts = [i for i in range(chosen) if owners[i] is not None and
             categories[i] in PROFILE_CATEGORIES]
    later = [u for k, u in enumerate(facts) if any(
        owners[c] == owners[u] and newness[c] < newness[u] for c in facts[:k])]
    # The rows not chosen by their words first: most searches have none that may join.
    rest = told_now(contents, categories, chosen)
    if not rest and not later:
        return []
    # A holding begun told as an event ("The new Corsa arrived on Friday") joins only
    # where none of its subject's results answers the attribute (``unanswered.py``).
    now = frozenset(u for u in rest if _may_join(contents[u], categories[u]))
    # Only the person's facts among the results and the rows whose words may join are
    # scored against the bank (each row's answer is its own: the others' do not change it).
    kept = set(facts) | rest
    values, best = answering([v if i in kept else None for i, v in enumerate(vectors)],
                             owners, contents, categories, question)
    answers_as_change(values, best, owners, newness, contents, categories,
                      question.relations, question.text, kept)   # (``changed_answer.py``)
    # A result's words are read only when it answers the attribute clearly.
    lifts = {u for u in later if values[u] and _may_join(contents[u], categories[u])}
    # Of the subjects of those that may join, the older values among the results: a fact
    # of the person's that answers the attribute clearly (:data:`recency.ANSWERS_Z`), best
    # of the bank or not (a plain statement's other words may answer another attribute a
    # little better), or the subject's first fact of its own, what the query itself found
    # to answer it ("Esmeralda is a member of PureGym" for "Which gym is Esmeralda a member
    # of?": the bank's questions read "member of" as a partner's).
    # Asked only once read without the name, nothing joins (``asked.Asked.unnamed``).
    joining = [] if question.unnamed else sorted(u for u in now | lifts if values[u])
    subjects = {owners[u] for u in joining}
    firsts = {}
    for i in facts:
        if owners[i] in subjects and owners[i] not in firsts and \
                told_of(contents[i] or "") <= question.relations:
            firsts[owners[i]] = i
    olds = [i for i in facts if values[i] or firsts.get(owners[i]) == i]
    out: list[tuple[int, int]] = []
    for u in joining:
        # Said as now, a clear answer is its claim (what else it says may answer another
        # attribute better: the children's of "the kids' bikes"); unsaid, the best one.
        if not (values[u] if _cued(contents[u]) else best[u]):
            continue
        # Beside the first result of its subject above it that it is newer than.
        beside = next((c for c in olds if c < u and owners[c] == owners[u] and
                       newness[c] < newness[u]), None)
        if beside is not None:
            out.append((u, beside))
    return out + ([] if question.unnamed else join_unanswered(
        vectors, owners, contents, chosen, question, values, best, rest, out))


def reads_under(question: Asked | None) -> bool:
    """Whether a search asking ``question`` reads its rows not chosen to join newer values
    (:func:`join_under`): a single-valued attribute asked, or a many-valued one asked
    clearly (not faintly, not only once read without the name)."""
    return question is not None and (question.single or
                                     not question.faint and not question.unnamed)


def _join_many(vectors: Sequence[np.ndarray | None], owners: Sequence[Any],
               newness: Sequence[float], contents: Sequence[str | None],
               categories: Sequence[str | None], chosen: int,
               question: Asked) -> list[tuple[int, int]]:
    """:func:`join_under` of a many-valued attribute (a pet, a sport, a language): a
    second value is as often one more, so only a row not chosen that says the older gave
    way (``told.CURRENT``, ``told.REPLACED``: "A spaniel puppy called Mabel is running the
    house now" after "has a labrador called Biscuit"; not "has started learning Welsh")
    and answers the attribute best of the bank joins, beside the first older value of its
    subject among the results (a fact answering it clearly, ``recency.ANSWERS_Z``; or an
    ending told with it, :func:`_before`).
    Never a result lifted: ``replaced_ahead.py`` orders those."""
    rest = told_now(contents, categories, chosen, question)
    if not rest:
        return []
    facts = [i for i in range(chosen) if owners[i] is not None and
             categories[i] in PROFILE_CATEGORIES and
             any(owners[i] == owners[u] and _before(i, u, newness, contents) for u in rest)]
    if not facts:
        return []
    kept = set(facts) | rest
    values, best = answering([v if i in kept else None for i, v in enumerate(vectors)],
                             owners, contents, categories, question)
    answers_as_change(values, best, owners, newness, contents, categories,
                      question.relations, question.text, kept)   # (``changed_answer.py``)
    out: list[tuple[int, int]] = []
    for u in sorted(rest):
        if not best[u]:
            continue
        beside = next((c for c in facts if values[c] and owners[c] == owners[u] and
                       _before(c, u, newness, contents)), None)
        if beside is not None:
            out.append((u, beside))
    return out


def _before(c: int, u: int, newness: Sequence[float], contents: Sequence[str | None]) -> bool:
    """Whether ``c`` is an older value for ``u`` to join beside: told before it, or told
    with it and ending (``told.yields``, no past or wish): the old pet's death told with
    the new one ("Biscuit was put to sleep in the autumn. A spaniel puppy called Mabel is
    running the house now.")."""
    return newness[c] < newness[u] or newness[c] == newness[u] and \
        yields(contents[c]) and not aside(contents[c])


def told_now(contents: Sequence[str | None], categories: Sequence[str | None],
             chosen: int, question: Asked | None = None) -> frozenset[int]:
    """The rows not chosen (``chosen..``) whose words may make them a newer value
    (:func:`_may_join`; of a many-valued attribute asked, ``question``, first those that
    say the older gave way, ``replaced_ahead.tells_change``: its few regular expressions
    rule out most rows before the dearer reading of events and endings); of a
    single-valued one, also a holding begun told as an event (:func:`_begun`: it may join
    a subject none of whose results answers the attribute, ``unanswered.py``). Read
    first, from the words alone, so that a search whose rows not chosen say none of it
    reads no vector of theirs."""
    many = None if question is None or question.single else question.relations
    return frozenset(u for u in range(chosen, len(contents))
                     if categories[u] in PROFILE_CATEGORIES and
                     (many is None or tells_change(contents[u], many, single=False))
                     and (_may_join(contents[u], categories[u]) or
                          many is None and _begun(contents[u], categories[u])))


@lru_cache(maxsize=READ_CACHE)
def _begun(text: str | None, category: str | None) -> bool:
    """Whether a memory tells a holding begun (``told.BEGUN``: "The new Corsa arrived on
    Friday", "picked up the keys to the flat in Leith", "first week at Ocado done"), no
    past, wish, ending or addition: an event that makes a value of now, not a trip or a
    visit."""
    said = text or ""
    return category in PROFILE_CATEGORIES and bool(BEGUN.search(said)) and \
        not yields(said) and not ADDITION.search(said)


@lru_cache(maxsize=READ_CACHE)
def _may_join(text: str | None, category: str | None) -> bool:
    """Whether a memory's words may make it a newer value: a fact or preference that says
    it holds now or tells the change (:func:`_cued`), or tells no past event
    (``told.tells_event``), and no past, wish, ending or addition."""
    said = text or ""
    return category in PROFILE_CATEGORIES and not yields(said) and \
        not ADDITION.search(said) and (_cued(said) or not tells_event(said))


def _cued(text: str | None) -> bool:
    """Whether a memory says its value holds now or tells the change (``told.CURRENT``,
    ``told.CHANGE``; not a value told begun, ``told.BEGUN``: joining by it brought a
    control's newer value above its old one on two blind sets, where reordering the
    results by it, ``changed_ahead.py``, does not)."""
    said = text or ""
    return bool(CURRENT.search(said) or CHANGE.search(said))


def joined(ranked: Ranked, joins: list[tuple[int, int]]) -> Ranked:
    """``ranked`` (its results, with ``ranked.under`` the rows not chosen) with each
    ``(row, beside)`` of ``joins`` placed right before ``beside`` at its score (a result
    moved there, a row not chosen added): in its older value's place, which
    ``recency.newer_first`` keeps where the two group or the older answers the query no
    better; past the search's limit until it has ordered them (then :func:`cut`). A row
    ``beside`` the end (``len(ranked.keys)``: its subject has no result,
    ``unanswered.py``) follows the results at its own score."""
    if not joins:
        return ranked
    under, n = ranked.under, len(ranked.keys)
    after: dict[int, list[int]] = {}
    for row, beside in sorted(joins):
        if row < n or under is not None:
            after.setdefault(beside, []).append(row)
    moved = {row for rows in after.values() for row in rows if row < n}
    keys: list[Any] = []
    scores: list[float] = []
    lanes: list[dict[str, float | None]] = []
    for i in range(n):
        if i in moved:
            continue
        # The best first: a result before a row not chosen, each in its ranked order.
        for row in after.get(i, []):
            of = ranked if row < n else under
            k = row if row < n else row - n
            assert of is not None
            keys.append(of.keys[k])
            scores.append(ranked.scores[i])
            lanes.append(of.lanes[k])
        keys.append(ranked.keys[i])
        scores.append(ranked.scores[i])
        lanes.append(ranked.lanes[i])
    for row in after.get(n, []):
        if under is not None and row >= n:
            keys.append(under.keys[row - n])
            scores.append(under.scores[row - n])
            lanes.append(under.lanes[row - n])
    return Ranked(keys, scores, lanes, ranked.fallback)


def cut(ranked: Ranked, limit: int) -> Ranked:
    """``ranked``'s first ``limit`` results."""
    if len(ranked.keys) <= limit:
        return ranked
    return Ranked(ranked.keys[:limit], ranked.scores[:limit], ranked.lanes[:limit],
                  ranked.fallback)
