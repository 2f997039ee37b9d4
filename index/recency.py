"""Newer first among near-duplicates (issue 23, item 5): recall prefers what is current.

When an update was not recognised as one ("I live in Porto" ... "I live in Lisbon now"
kept side by side), both memories stay current and a search may rank the older first. A
small, general tie-break after the ranking: results about the same subject (general
memories, about no one, are left in place) whose content vectors are near-duplicates
(cosine >= :data:`NEAR_DUPLICATE`) and whose scores are near-tied (within :data:`TIE`:
the query does not tell them apart) form a group, and the group's places in the ranking
are given to its members newest first (by ``valid_from``; of one time, as ranked: two
memories of one statement are not newer than each other). A query that names one of them
("project borealis ships in June" among "project atlas/borealis/cirrus ships in ...")
scores it clear of the others, and it keeps its place. Other results keep their places;
each result keeps its own score (so within such a group a newer one may sit above a
higher score). Kept apart from ``ranking.py`` so the ranking's own changes merge cleanly;
both backends call :func:`newer_first` on what ``Ranking.rank`` chose.

The same tie-break for the values of what the query asks (:func:`asked`): when it asks a
single-valued attribute of a person ("What is Oona's job?" nearest, and clearly, the
profile bank's "What is their job?", ``profile_bank.py``), two results about one subject
that both answer that attribute (:data:`ANSWERS_Z`), within :data:`VALUES_TIE` of each
other (facts and preferences; a conversation's turns within :data:`TIE`), are its old and
new values however unlike their words are ("is a teaching assistant at a primary school"
/ "just finished the first month as a trainee police officer": content cosine .4, scores
.02 apart), and group too. Stored vectors are read (the bank's are embedded once per
model); a query asking nothing clearly is read once more without the person it names
(``unnamed.py``). Never grouped this way: results for a query of a many-valued attribute
(pets, languages, hobbies: a second value is an addition) or of no attribute clearly,
general memories, and a result about another person of the subject's ("Maria's brother
lives in Brighton" for "Where does Maria live?", :func:`relations`; the words for the one
person an attribute is about, ``ROLES``, name no other: "Erin's girlfriend Chloe" for
"Who is Erin's partner?"). A tie is kept, wider than for near-duplicates (two statements
of one attribute differ in score by what else each says): the vectors of whole memories
(the subject's name and the rest of the sentence in them) say only roughly which
attribute they answer (a plan, a taste, a past evening out may stand out on "home" or
"partner"), so the lever only settles what the query leaves close; a newer value the
ranking puts far below is for the write time to catch (``element/agents``), or, when its
words say it is a value of now, lifted to its older value beforehand
(``answers_under.py``), or, told as a change and tied with it on the query, put ahead of
it (``changed_ahead.py``).

What a query asks also orders a subject's results (:func:`_answers_first`): of any
attribute it asks clearly (pets and hobbies too), the subject's facts and preferences
whose best answer of the bank is that attribute take the subject's first places, its
other results follow, each part in its order; a group's members (one attribute's values)
count as answering it best when one of them does, so the newest keeps the first place.
Within one person's scope the name in every memory weighs on every cosine alike, so
"Omar's brother Felix lives in Glasgow" outscored the job "Where does Omar work?" asks;
what each memory answers best tells them apart. Of a single-valued attribute, those that
answer it best go newest first, however far apart their scores: of two values a person
gave, the newer is the one to believe. Not a value the sentence itself places in the past
or in a wished future (:func:`aside`: "grew up in Cork", "dreams of a cottage in Cornwall
one day"; read by its verb phrase, :data:`PAST`, :data:`WISH`): it is no newer value, so
it takes no part in newest first (here, in a group, or as :data:`CURRENT`) and keeps its
ranked place; a past change that makes the present (:data:`CHANGE`: "moved to") does.
A present value told after it is newer all the same and goes ahead of it ("Fenella's
flat in Edinburgh gets so much more light", weeks after "grew up near the coast" ranked
first for "Where does Fenella live?"): the place it keeps is against what came before.
A result told after every such answer and scored clearly above them (beyond
:data:`VALUES_TIE`) keeps its place ahead: the bank settles what the score leaves close
("lives with their flatmate Jess" .87 stays above "the tallest in the family" .42).

Of one time (one turn told as two memories), a memory that ends a value or tells the
past (:func:`yields`: "Karin and I got divorced last year", "The Skoda got written off")
goes after the present one ("I'm with Petra now"): it is no current value
(:func:`_present_first`); where such an ending answers the asked attribute best, so does
a value of its subject told at its time (:func:`_turn_answers`: "Rolo the cat passed away
last month. Fenella has a budgie called Hazel."), which then goes first. An addition
("bought a second car", :data:`ADDITION`) is no newer value either and keeps its ranked
place. Whose a fact is is read from its sentence's
subject (:func:`told_of`: "Maria's brother lives in ..."), not from a person its object
names ("drives their dad's old Volvo": the subject's own car); of a many-valued attribute
any person named still makes it another's ("looking after the neighbour's beagle"). And
asked of the subject (the query names none of their people), the subject's facts about
another person of theirs go after the subject's own within :data:`TIE`
(:func:`_own_first`: "Dee's sister is visiting next weekend" .528 above "Dee got
promoted to senior designer" .505).

A newer value that says it holds now (:data:`CURRENT`: "these days", "from now on",
"instead") and adds nothing (:data:`ADDITION`) goes ahead of its subject's older values of
the asked attribute within :data:`CURRENT_TIE` (:func:`_current_ahead`), a many-valued
attribute's too: "it is decaf from now on" replaces "a double espresso every morning",
where "has also got into green tea" is a second drink.

A newer fact that names an older one's value as gone (``told.names_gone``: "Hugo sold the
Vespa; Hugo gets around on an e-bike these days" of "Hugo rides a red Vespa around town",
"swapped the violin for the cello") goes ahead of it however far apart their scores and
whatever the query asks (:func:`_gone_ahead`): its own words say the older no longer holds.

What a memory answers best of the bank is read as whose it can be (``own_answer.py``: a
memory naming no person of the subject's answers none of the attributes asked of another,
"is a junior accountant" no manager). A result no longer current (a search ``as_of`` a
time) is read with the versions that replaced it (``later.py``): what a fact is about does
not change with its value, so the version of the time answers as its newer one does, and
a faint question counts it as one of two values.

What a memory's words tell of time and of whom is read in ``told.py`` (re-exported here).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any, overload

import numpy as np

from .gathered import Ranked
from .own_answer import as_job, best_answers
from .profile_bank import attribute_scores
# The text readers, re-exported for the callers that read them with the ranking's constants.
from .told import (ADDITION, CHANGE, CURRENT, ENDING, HOUSEHOLD, PAST, WISH, aside,
                   gives_way, names_gone, relations, told_of, yields)
from .asked import ASKED_MARGIN, ASKED_MIN, ASKED_SINGLE_MIN, Asked, asked, asked_of
from .changed_ahead import changed_ahead
from .changed_answer import answers_as_change
from .kind_ahead import kind_ahead
from .replaced_ahead import ending_after, replaced_ahead
from .theirs import Theirs

__all__ = ["NEAR_DUPLICATE", "TIE", "VALUES_TIE", "ASKED_MIN", "ASKED_SINGLE_MIN",
           "ASKED_MARGIN", "ANSWERS_Z", "Asked",
           "ADDITION", "CURRENT", "HOUSEHOLD", "PAST", "WISH", "CHANGE", "ENDING", "aside",
           "answering", "asked", "asked_of", "relations", "told_of", "yields",
           "newer_first", "reorder"]

#: The content cosine from which two memories are taken to say one attribute's value
#: (all-MiniLM-L6-v2: Porto / Lisbon .84, "... Porto with Maria's husband" / Lisbon .76,
#: works as a nurse / as a teacher .79, at Amazon / at Google .79, son is 7 / turned 8
#: .90; a second dog Rex / Max .74 and likes tea / lives in Porto .48 stay apart). Only
#: the order of both-current memories changes: nothing is dropped.
NEAR_DUPLICATE = 0.75
#: The score difference within which two results count as tied (issue 23: the stale
#: "allergic to shellfish" .983 against the newer .933).
TIE = 0.06
#: The score difference within which two values of the single-valued attribute a query
#: asks (:data:`ANSWERS_Z`) group. Wider than :data:`TIE`: two statements of one fact in
#: different words differ in score by what else each says, not by which is true ("is 3" /
#: "had a party for the 4th birthday" .17 apart, "is a sophomore at Penn State" / "is a
#: junior already" .07, "phone contract is with O2" / "ported the number over to
#: giffgaff" .14); two values a query tells apart by its own words are farther apart
#: (a name it asks for).
VALUES_TIE = 0.2
#: How far above its own mean answer to the bank (in standard deviations) a result must
#: answer the asked attribute to be one of its values: the attribute stands out of what
#: the memory is about, whatever the subject's name adds to its vector (one standard
#: deviation; a job, old and new: 1.9 and 1.1; the subject's unrelated facts, camping,
#: falling asleep in films, an in-law's football: under .5).
ANSWERS_Z = 1.0
#: The categories of memory a person's profile holds: only these are put first for
#: answering what a query asks (:func:`_answers_first`). A conversation's turn
#: ("context"), a procedure or a correction is not a fact of the person's to answer with,
#: and what a turn's whole vector answers best of the bank is a guess (first for any,
#: LoCoMo's turns as a subject's memories lost R@1 .402 -> .394).
PROFILE_CATEGORIES = frozenset({"fact", "preference"})
#: The score difference within which a newer value that says it holds now
#: (:data:`CURRENT`) goes ahead of an older value of the asked attribute, single-valued or
#: not (:func:`_current_ahead`). Wider than :data:`VALUES_TIE`: the newer statement says
#: it replaces ("Sally Rooney ... is their favourite writer now" .24 under "favourite
#: author is Stephen King"); still a tie, so a value the query names by its own words
#: keeps its lead.
CURRENT_TIE = 0.3
def answering(vectors: Sequence[np.ndarray | None], owners: Sequence[Any],
              contents: Sequence[str | None], categories: Sequence[str | None],
              question: Asked, anyone: bool = False,
              later: Sequence[Sequence[np.ndarray]] = ()) -> tuple[list[bool], list[bool]]:
    """Which results are values of the asked attribute (about a subject, answering it
    :data:`ANSWERS_Z` above their mean, naming no person of the subject's the query does
    not name; ``anyone``: whoever they name), and which of those, facts of the
    person's (:data:`PROFILE_CATEGORIES`), answer it best of the whole bank
    (:func:`_answers_first`). ``later``: of each result no longer current (a search
    ``as_of`` a time), the content vectors of the versions that replaced it
    (``later.py``): what a fact is about does not change with its value, so where one
    of them answers the attribute (clearly, best), so does the version of the time."""
    present = [i for i, v in enumerate(vectors) if v is not None and owners[i] is not None]
    values, best = [False] * len(vectors), [False] * len(vectors)
    if not present:
        return values, best
    read = [(i, v) for i in present for v in (vectors[i], *(later[i] if later else ()))]
    rows = as_job(attribute_scores(np.stack([np.asarray(v, dtype=np.float32) for _, v in read]),
                                   question.questions), [contents[i] for i, _ in read])
    spread = np.maximum(rows.std(axis=1), 1e-6)
    z = (rows[:, question.attribute] - rows.mean(axis=1)) / spread
    # Of a memory naming no person of the subject's, its best of the subject's own
    # attributes (``own_answer.py``).
    top = best_answers(rows, [contents[i] for i, _ in read])
    clear, tops = [False] * len(vectors), [False] * len(vectors)
    for k, (i, _) in enumerate(read):
        clear[i] = clear[i] or bool(z[k] >= ANSWERS_Z)
        tops[i] = tops[i] or int(top[k]) == question.attribute
    for i in present:
        # Of a single value, whose thing it is does not make it another's ("drives their
        # dad's old Volvo"); of many, it does ("looking after the neighbour's beagle").
        # Read only of a result that answers it clearly: the words are the dearer test.
        whose = told_of if question.single else relations
        if clear[i] and (anyone or whose(contents[i] or "") <= question.relations):
            values[i] = True
            best[i] = tops[i] and categories[i] in PROFILE_CATEGORIES
    return values, best


class _Lazily(Sequence[bool]):
    """A text reader's answer for each of ``texts``, read the first time it is asked.
    :func:`newer_first` asks whether a result is a past, a wish, an addition or an ending
    only of the results it may move (a group of near-duplicates, a value of the asked
    attribute, a subject's fact ranked below an older one), most searches of none or few
    of them, and each answer is several regular expressions over the memory's text: read
    for every result, they were most of the reordering's time."""

    def __init__(self, read: Callable[[str | None], bool], texts: Sequence[str | None]):
        self._read, self._texts = read, texts
        self._known: dict[int, bool] = {}

    def __len__(self) -> int:
        return len(self._texts)

    @overload
    def __getitem__(self, i: int) -> bool: ...

    @overload
    def __getitem__(self, i: slice) -> list[bool]: ...

    def __getitem__(self, i: int | slice) -> bool | list[bool]:
        if isinstance(i, slice):
            return [self[k] for k in range(len(self))[i]]
        i = range(len(self))[i]     # an IndexError past the end, as a list's
        if i not in self._known:
            self._known[i] = self._read(self._texts[i])
        return self._known[i]


def newer_first(vectors: Sequence[np.ndarray | None], owners: Sequence[Any],
                newness: Sequence[float], scores: Sequence[float],
                bar: float = NEAR_DUPLICATE, tie: float = TIE, question: Asked | None = None,
                values_tie: float = VALUES_TIE, current_tie: float = CURRENT_TIE,
                contents: Sequence[str | None] = (),
                categories: Sequence[str | None] = (),
                later: Sequence[Sequence[np.ndarray]] = ()) -> list[int]:
    """The order of results ``0..n-1`` (best first) with each near-duplicate group's
    places given to its members newest first.

    :param vectors: each result's unit content vector (None: not embedded, in no group).
    :param owners: each result's subject; only results about one subject are grouped
        (None: a general memory, about no one, never grouped: a conversation's or a
        team's general memories are not one person's changing facts, and reordering
        them by date cost LoCoMo's R@1 .384 -> .373).
    :param newness: each result's ``valid_from`` (POSIX seconds): larger is newer.
    :param scores: each result's score (best first).
    :param question: the attribute the query asks (:func:`asked`): two results of one
        subject that both answer it, within ``values_tie``, group as near-duplicates do.
    :param values_tie: the score difference within which two such values group, when
        both are facts or preferences (a conversation's turns: ``tie``).
    :param current_tie: the score difference within which a newer value that says it
        holds now goes ahead of an older one (:func:`_current_ahead`).
    :param contents: each result's content (for :func:`relations`; with ``question``).
    :param categories: each result's category (with ``question``: only facts and
        preferences are put first for answering it).
    :param later: of each result no longer current (a search ``as_of`` a time), the
        content vectors of its later versions (:func:`answering`).
    """
    n = len(vectors)
    subjects = [o for o in owners if o is not None]
    if len(subjects) == len(set(subjects)):
        # No two results of one subject: every step moves a subject's results among its
        # own places, general memories never (a conversation's turns: nothing to read).
        return list(range(n))
    group = list(range(n))
    kinds = list(categories) or [None] * n

    def root(i: int) -> int:
        while group[i] != i:
            group[i] = group[group[i]]
            i = group[i]
        return i
    present = [i for i in range(n) if vectors[i] is not None]
    values, best = ([False] * n, [False] * n) if question is None else \
        answering(vectors, owners, contents or [None] * n, categories or [None] * n,
                   question, later=later)
    texts = list(contents) or [None] * n
    if question is not None:    # a newer value told as a change answers as its older does
        answers_as_change(values, best, owners, newness, texts, kinds, question.relations,
                          question.text)     # (``changed_answer.py``)
    # Asked only once read without the person's name: a change tied with its older value
    # moves (``changed_ahead.py``), nothing else (``asked.Asked.unnamed``).
    probe, probed = question, (values, best)
    if question is not None and question.unnamed:
        question, values, best = None, [False] * n, [False] * n
    # A value that says it holds now (and adds nothing) replaces the older values of its
    # attribute, a many-valued one's too ("decaf from now on" after "a double espresso").
    # A past or a wished value keeps its ranked place: it is not a newer value.
    # An addition ("bought a second car") is no newer value either: it keeps its place.
    fixed = _Lazily(lambda t: aside(t) or bool(ADDITION.search(t or "")), texts)
    # An ending or a past told with a present value (or before it) is no current value.
    yielding = _Lazily(yields, texts)
    # ... yet a present value told after a past or a wish is newer and passes it
    # (:func:`_newest`); of a person's facts only (a conversation's turns keep theirs).
    past = _Lazily(aside, [t if k in PROFILE_CATEGORIES else None
                           for t, k in zip(texts, kinds, strict=True)])
    current = [values[i] and kinds[i] in PROFILE_CATEGORIES and not fixed[i] and
               bool(CURRENT.search(texts[i] or "")) and not ADDITION.search(texts[i] or "")
               for i in range(n)]
    if question is not None and question.faint:
        values = [v and kinds[i] in PROFILE_CATEGORIES for i, v in enumerate(values)]
    answers = values
    if question is not None and not question.single:
        values = [False] * n    # a second pet or language is an addition: never grouped
    if len(present) > 1:
        matrix = np.stack([np.asarray(vectors[i], dtype=np.float32) for i in present])
        sims = matrix @ matrix.T
        for a in range(len(present)):
            for b in range(a + 1, len(present)):
                i, j = present[a], present[b]
                gap = abs(scores[i] - scores[j])
                # A person's facts as far apart as ``values_tie``; a conversation's turns
                # ("context": LoCoMo's, R@1 .421 -> .411 at .2) are no changing facts.
                facts = kinds[i] in PROFILE_CATEGORIES and kinds[j] in PROFILE_CATEGORIES
                if owners[i] is not None and owners[i] == owners[j] and \
                        (gap <= tie and sims[a, b] >= bar or values[i] and values[j] and
                         gap <= (max(tie, values_tie) if facts else tie)):
                    group[root(j)] = root(i)
    members: dict[int, list[int]] = {}
    for i in range(n):
        members.setdefault(root(i), []).append(i)
    order = list(range(n))
    for places in members.values():
        if len(places) > 1:
            # Stable: results of one time keep the ranking's order.
            for place, i in zip(places, _newest(places, newness, fixed, yielding, past),
                                      strict=True):
                order[place] = i
            # One attribute's values: where one answers the question best, so do all of
            # them (the newest first), or the oldest, often the plainest statement of it,
            # would be put back first (:func:`_answers_first`).
            if any(best[i] for i in places):
                for i in places:
                    best[i] = kinds[i] in PROFILE_CATEGORIES
    _turn_answers(best, answers, yielding, owners, newness, kinds)
    if question is not None and not question.named:
        order = _own_first(order, owners, scores, kinds, tie,
                           [not told_of(texts[i] or "") <= question.relations
                            for i in range(n)])
    order = _current_ahead(order, owners, newness, scores, current, answers, kinds, best,
                           current_tie)
    order = _gone_ahead(order, owners, newness, texts, kinds, best, fixed)
    if question is not None and not question.single and any(answers):
        order = kind_ahead(order, owners, newness, texts,   # a newer thing of one kind
                           [k in PROFILE_CATEGORIES for k in kinds], answers, best,
                           _Lazily(lambda t: aside(t) or bool(ADDITION.search(t or ""))
                                   or yields(t), texts), question.relations, question.text,
                           answering(vectors, owners, texts, kinds, question, anyone=True,
                                     later=later))   # (``kind_ahead.py``)
    if question is not None:    # a newer value told as replacing, far below its older
        held = [k in PROFILE_CATEGORIES for k in kinds]   # (``replaced_ahead.py``); an
        # ending of one time after the present value it was told with
        ending = _Lazily(lambda t: yields(t) and not aside(t), texts)   # no past, no wish
        order = replaced_ahead(order, owners, newness, scores, texts, held, answers, best,
                               _Lazily(lambda t: aside(t) or bool(ADDITION.search(t or ""))
                                       or yields(t), texts), question.relations,
                               question.single, ending)
        order = ending_after(order, owners, newness, held, answers, ending, fixed)
    if probe is not None and probe.single:  # a newer fact told as a change
        order = changed_ahead(order, owners, newness, vectors, texts, [
            k in PROFILE_CATEGORIES for k in kinds], *((answers, best) if probe is question
                                                       else probed), probe.vector,
            probe.relations)
    # Of a single-valued attribute, the newest of the values that answer it best comes
    # first however far apart their scores (:func:`_answers_first`).
    return _answers_first(order, owners, best, newness,
                          newest=question is not None and question.single, fixed=fixed,
                          yielding=yielding, past=past,
                          in_place=question is not None and question.faint,
                          scores=scores, clear=values_tie,
                          changed=[bool(later) and bool(later[i]) for i in range(n)])


def _turn_answers(best: list[bool], values: Sequence[bool], yielding: Sequence[bool],
                  owners: Sequence[Any], newness: Sequence[float],
                  kinds: Sequence[str | None]) -> None:
    """Where an ending answers the question best (``best``, in place), so does each value
    of its subject told at its time (``values``, no ending itself): one turn's "Rolo the
    cat passed away last month. Fenella has a budgie called Hazel." is two memories of one
    ``valid_from``, and the ending, which names the pet, answered "What pet does Fenella
    have?" best while the budgie, a value of it too, answered another attribute a little
    better; put first for the ending's sake, the ending led. Both answer, and of one time
    the present one goes first (:func:`_present_first`)."""
    for y in [i for i in range(len(best)) if best[i] and yielding[i] and owners[i] is not None]:
        for j in range(len(best)):
            if values[j] and not yielding[j] and owners[j] == owners[y] and \
                    newness[j] == newness[y] and kinds[j] in PROFILE_CATEGORIES:
                best[j] = True


def _newest(items: list[int], newness: Sequence[float], fixed: Sequence[bool],
            yielding: Sequence[bool] = (), past: Sequence[bool] = ()) -> list[int]:
    """``items`` newest first (of one time, in their order), but those ``fixed`` (a past,
    a wish or an addition) keep their places and the others pass them by; of those, each
    ``past`` (a past or a wish, :func:`aside`) goes after the others told later than it;
    then :func:`_present_first`."""
    movable = iter(sorted((i for i in items if not fixed[i]), key=lambda i: newness[i],
                          reverse=True))
    out = [i if fixed[i] else next(movable) for i in items]
    for a in [i for i in out if past and past[i]]:
        at = out.index(a)
        later = [p for p in range(at + 1, len(out))
                 if not fixed[out[p]] and newness[out[p]] > newness[a]]
        if later:
            out.insert(later[-1], out.pop(at))
    return _present_first(out, newness, yielding or fixed)


def _present_first(items: list[int], newness: Sequence[float],
                   yielding: Sequence[bool]) -> list[int]:
    """``items`` with each that is no current value (``yielding``: :func:`yields`) moved
    after the last of the others told at its time: one turn's "Karin and I got divorced
    last year. I'm with Petra now." is two memories of one ``valid_from``, and of them
    the present one is the value ("The Skoda got written off. I've been driving a Volvo
    since."). Told at another time, newness orders them (an ending told after the values
    it may end says what holds now; a past told before, "has been veggie since a
    teenager", is read as one by its words alone, and keeps its place)."""
    out = list(items)
    for y in [i for i in items if yielding[i]]:
        at = out.index(y)
        later = [p for p in range(at + 1, len(out))
                 if not yielding[out[p]] and newness[out[p]] == newness[y]]
        if later:
            out.insert(later[-1], out.pop(at))
    return out


def _own_first(order: list[int], owners: Sequence[Any], scores: Sequence[float],
               kinds: Sequence[str | None], tie: float, others: list[bool]) -> list[int]:
    """``order`` with each of a subject's facts about another person of theirs
    (``others``: :func:`told_of` names one the query does not) moved after the subject's
    own facts that rank below it within ``tie``. The query asks an attribute of the
    subject; the subject's name weighs alike on both, and a person's news ("Dee's sister
    is visiting next weekend", .528) tells nothing of the subject's own answer ("Dee got
    promoted to senior designer", .505). Beyond the tie the query tells them apart."""
    out = list(order)
    facts = [k in PROFILE_CATEGORIES for k in kinds]
    for o in [i for i in order if others[i] and facts[i] and owners[i] is not None]:
        theirs = Theirs.of(out, owners, o)
        mine = theirs.mine
        below = [k for k in range(theirs.at + 1, len(mine)) if facts[mine[k]] and
                 not others[mine[k]] and scores[o] - scores[mine[k]] <= tie]
        if below:
            theirs.move(below[-1])
    return out


def _current_ahead(order: list[int], owners: Sequence[Any], newness: Sequence[float],
                   scores: Sequence[float], current: list[bool], answering: list[bool],
                   kinds: Sequence[str | None], best: list[bool], tie: float) -> list[int]:
    """``order`` with each result that says its value holds now (``current``) moved ahead
    of its subject's older values of the asked attribute (``answering``, facts and
    preferences) that rank above it within ``tie``; the subject's results it passes keep
    their order, and nothing moves across subjects or general memories. Passing a value
    that answers the question best, it does too (:func:`_answers_first`)."""
    out = list(order)
    for c in [i for i in order if current[i]]:
        theirs = Theirs.of(out, owners, c)
        mine = theirs.mine
        passed = [k for k in range(theirs.at) if answering[mine[k]] and
                  kinds[mine[k]] in PROFILE_CATEGORIES and newness[mine[k]] < newness[c] and
                  abs(scores[mine[k]] - scores[c]) <= tie]
        if not passed:
            continue
        best[c] = best[c] or any(best[mine[k]] for k in passed)
        theirs.move(passed[0])
    return out


def _gone_ahead(order: list[int], owners: Sequence[Any], newness: Sequence[float],
                texts: Sequence[str | None], kinds: Sequence[str | None], best: list[bool],
                fixed: Sequence[bool]) -> list[int]:
    """``order`` with each fact or preference that tells an older one's value gave way
    (:func:`names_gone`: "Hugo sold the Vespa; Hugo gets around on an e-bike these days"
    of "Hugo rides a red Vespa around town") moved ahead of the first of its subject's
    older facts it names, however far apart their scores and whatever the query asks:
    the newer sentence itself says the older no longer holds. The subject's results it
    passes keep their order; nothing moves across subjects or general memories. Where
    the older answers the question best, so does the newer (:func:`_answers_first`)."""
    facts = [k in PROFILE_CATEGORIES for k in kinds]
    if sum(facts) < 2:
        return order
    out = list(order)
    for g in [i for i in order if facts[i] and owners[i] is not None]:
        theirs = Theirs.of(out, owners, g)
        mine = theirs.mine
        # Its words are read only when an older fact of its subject ranks above it.
        older = [k for k in range(theirs.at) if facts[mine[k]] and
                 newness[mine[k]] < newness[g]]
        if not older or fixed[g] or not gives_way(texts[g]):
            continue
        gone = next((k for k in older if names_gone(texts[mine[k]], texts[g])), None)
        if gone is None:
            continue
        best[g] = best[g] or best[mine[gone]]
        theirs.move(gone)
    return out


def _answers_first(order: list[int], owners: Sequence[Any], best: list[bool],
                   newness: Sequence[float] = (), newest: bool = False,
                   fixed: Sequence[bool] = (), yielding: Sequence[bool] = (),
                   past: Sequence[bool] = (), in_place: bool = False,
                   scores: Sequence[float] = (), clear: float = VALUES_TIE,
                   changed: Sequence[bool] = ()) -> list[int]:
    """``order`` with each subject's places given to its results whose best answer of the
    profile bank is the attribute the query asks (``best``) first, the rest after, each
    part in its order. Within one person's scope the person's name is in every memory and
    weighs on every cosine alike ("Where does Omar work?": .62 to "Omar's brother Felix
    lives in Glasgow", .58 to "Today was Omar's last day at Shopify; Omar starts at Stripe
    on Monday"), so what a memory answers tells them apart where the score does not. Its
    best answer, not only one above its mean: a memory's answers to the bank are alike
    enough that one attribute a little above the rest is often the name's doing (a jigsaw
    hobby 2.5 deviations up on "partner"). General memories and other subjects keep their
    places.

    ``newest`` (a single-valued attribute): the subject's results that answer it best go
    newest first (by ``newness``; of one time, as ranked), however far apart their scores:
    of two values a person gave of one thing, the newer is the one to believe, and two
    statements of it differ in score by what else each says ("lives in Phoenix" .86, "the
    humidity in Atlanta is no joke, did not miss this while out in the desert" .44). A past
    or wished value told later that answers the attribute best ("grew up in Cork", "dreams
    of a cottage in Cornwall one day") is no newer value: it keeps its place (``fixed``,
    :func:`aside`); a present value told after it passes it (``past``, :func:`_newest`).
    A result told after every answer that the query itself scores above them by more than
    ``clear`` (as two values a query tells apart by its words, :data:`VALUES_TIE`) keeps
    its place ahead of them: what a memory answers best of the bank settles what the score
    leaves close, not "tallest in the family" .42 over "lives with their flatmate Jess" .87
    told a week later; an older result is passed all the same (of two values, the newer
    is the one to believe)."""
    if not any(best):
        return order
    places: dict[Any, list[int]] = {}
    for place, i in enumerate(order):
        if owners[i] is not None:
            places.setdefault(owners[i], []).append(place)
    out = list(order)
    for held in places.values():
        mine = [order[p] for p in held]
        answers = [i for i in mine if best[i]]
        if newest:
            answers = _newest(answers, newness, fixed or [False] * len(order), yielding,
                              past)
        elif yielding:
            answers = _present_first(answers, newness, yielding)
        # Asked faintly (``in_place``), one value alone keeps its place: a question that
        # nears the attribute by chance ("What did Melanie paint?" and hair colour) puts
        # no fact first; two values of it or more are what the query asks. A version
        # replaced since (``changed``: a search ``as_of`` a time, ``later.py``) is one of
        # two values over time, its later one out of the time's pool.
        if in_place and len(answers) + sum(bool(changed) and changed[i] for i in answers) < 2:
            continue
        top = max((scores[i] for i in answers), default=math.inf)
        told = max((newness[i] for i in answers), default=math.inf) if newness else math.inf
        ahead = [i for i in mine if not best[i] and scores[i] - top > clear and
                 newness[i] > told] if scores else []
        first = ahead + answers + [i for i in mine if not best[i] and i not in ahead]
        for place, i in zip(held, first, strict=True):
            out[place] = i
    return out


def reorder(ranked: Ranked, order: list[int]) -> Ranked:
    """``ranked`` in ``order`` (from :func:`newer_first`)."""
    if order == list(range(len(order))):
        return ranked
    return Ranked([ranked.keys[i] for i in order], [ranked.scores[i] for i in order],
                  [ranked.lanes[i] for i in order], ranked.fallback)
