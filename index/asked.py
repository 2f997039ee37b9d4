"""What a query asks of a person (issue 23, item 5): the attribute of the profile bank
(``profile_bank.py``) its content vector nears clearly, read by recall's newest-first
order (``recency.py``) and by a newer value joining from under the threshold
(``answers_under.py``). Split from ``recency.py`` (which re-exports it) when the query
came to be read a second time without the person it names (``unnamed.py``).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from .embed import Embedder, embed_for_lanes, normalize_rows
from .profile_bank import ATTRIBUTES, ROLES, attribute_scores, question_vectors
from .told import relations
from .unnamed import read_unnamed

__all__ = ["ASKED_MIN", "ASKED_SINGLE_MIN", "ASKED_MARGIN", "THEY_MIN", "THEY_GATE", "Asked",
           "asked", "asked_of"]

#: The least cosine of a query with its attribute's best question for it to ask that
#: attribute (all-MiniLM-L6-v2: "What is Oona's job?" .49, "Which company does ... work
#: for?" .59, "What grade is ...'s son in?" .52; questions about events of a conversation,
#: "What did Melanie paint recently?", "When did Caroline go to the support group?", .31
#: to .38).
ASKED_MIN = 0.39
#: The least cosine for a single-valued attribute (a home, a job, a schedule) to be asked
#: all the same, as clearly ahead of the others (:data:`ASKED_MARGIN`): "How many days a
#: week does Rosalind work?" nears "What shifts or hours do they work?" at .38, "Who is
#: Ignacio's mortgage with?" the bank at .38. So asked (:attr:`Asked.faint`), its values
#: are a person's facts only: a conversation's turns near such a question by their words
#: about events (LoCoMo, one store of 10,000 memories: R@5 .731 -> .724 with turns too,
#: .731 without), and "What did Melanie paint recently?" nears the hair's colour at .385.
ASKED_SINGLE_MIN = 0.33
#: How much better than any other attribute's question it must be asked.
ASKED_MARGIN = 0.02
#: The least cosine of the query said with "they" (``they.py``) with a single-valued
#: attribute's best question for that reading to be taken over the query's own: said as
#: the bank says it, a question of one attribute nears it at .6 and more ("Where do they
#: live?" 1.0, "How do they get around?" .61, "Which hospital do they work at?" .57 is
#: left to the query's own reading); a many-valued one is not taken (a person's hobbies
#: and books are read from whole memories too roughly: "What do they do on Tuesdays?"
#: put "hates getting up early on Mondays" first).
THEY_MIN = 0.6
#: The least cosine of the query without its name's direction (no model call) with a
#: single-valued attribute's question for the query said with "they" to be embedded at
#: all (:func:`_may_ask`): of the updates sets' queries whose "they" reading changed what
#: is asked, 66 of 68 reach it.
THEY_GATE = 0.36


@dataclass(frozen=True)
class Asked:
    """The attribute a query asks (:func:`asked`): its index in the bank, the bank's
    question vectors, and the people of the subject's the query names or the attribute is
    about (``ROLES``)."""

    attribute: int
    questions: np.ndarray
    relations: frozenset[str]
    #: Whether the query names a person of the subject's ("How old are Anna's kids?"):
    #: then it asks of them, and their facts are no other person's (``recency._own_first``).
    named: bool = False
    #: Asked under :data:`ASKED_MIN` (a single-valued attribute from
    #: :data:`ASKED_SINGLE_MIN`): only a person's facts are read as its values, never a
    #: conversation's turns (``recency.newer_first``), and a subject's one value alone
    #: keeps its place (``recency._answers_first``): two values or more are what it asks.
    faint: bool = False
    #: The query's unit content vector (``changed_ahead.py`` reads its cosines).
    vector: np.ndarray | None = field(default=None, compare=False)
    #: Read only once the person's name was taken out of the query (``unnamed.py``): a
    #: second guess, so only a newer value told as a change that the query ties with an
    #: older one is moved by it (``changed_ahead.py``), never the newest-first groups, nor
    #: the values put first (a second job stored without its "also" would pass the first).
    unnamed: bool = False
    #: The query's words (``kind_ahead.py``: a query naming an older value's thing asks of
    #: it, "Does Ana still play the violin?").
    text: str = field(default="", compare=False)

    @property
    def single(self) -> bool:
        """One value at a time (a home, a job): its values group newest first."""
        return ATTRIBUTES[self.attribute].single


def asked(query: np.ndarray | None, text: str, questions: np.ndarray | None,
          unnamed: int | None = None) -> Asked | None:
    """The attribute ``query`` (the query's unit content vector, ``text`` its words) asks
    clearly, None when it asks none; ``unnamed``: the one read without its name, faintly."""
    if query is None or questions is None or questions.shape[1] != np.shape(query)[-1]:
        return None
    row = attribute_scores(np.asarray(query)[None, :], questions)[0]
    order = np.argsort(-row)
    best = int(order[0]) if unnamed is None else unnamed
    faint = row[best] < ASKED_MIN or unnamed is not None
    if unnamed is None and (faint and (row[best] < ASKED_SINGLE_MIN or not ATTRIBUTES[
            best].single) or row[best] - row[order[1]] < ASKED_MARGIN):
        return None
    # The one person the attribute is about goes by any of its words: "Erin's girlfriend
    # Chloe" answers "Who is Erin's partner?" and "Is Dan married?" (as of before a newer
    # partner); a query naming someone else asks of them alone.
    named, roles = relations(text), ROLES.get(ATTRIBUTES[best].name, frozenset())
    return Asked(best, questions, named | roles if not named or named & roles else named,
                 bool(named), bool(faint), np.asarray(query, dtype=np.float32),
                 unnamed is not None, text)


def asked_of(embedder: Embedder, queries: dict[str, np.ndarray] | None,
             text: str, name: np.ndarray | None = None,
             they: str | None = None) -> Asked | None:
    """:func:`asked` of a search's query lanes (None: not embedded) with ``embedder``'s
    bank (embedded at the first search of its model; None when that fails: no group);
    ``name``: the unit vector of the query's first name (``Ranking.name``), to read a
    query that asks nothing clearly once more without it (``unnamed.py``); ``they``: the
    query with "they" for that name (``Ranking.they``, ``they.py``), embedded and read
    only when the query itself asks nothing clearly (a second model call for those
    queries alone, its text often in the embedding cache: "Where do they live?" is
    everyone's): the bank's questions are worded so, and the name no longer weighs on
    what is asked. Taken for a single-valued attribute read clearly from :data:`THEY_MIN`;
    the query's own vector stays the one whose cosines ``changed_ahead.py`` reads."""
    if queries is None or "content" not in queries:
        return None
    try:
        questions = question_vectors(embedder)
    except Exception:   # a model down (any error of its client) only leaves the order be
        return None
    first = asked(queries["content"], text, questions)
    again = None if first is not None else read_unnamed(queries["content"], name, questions)
    found = first if again is None else asked(queries["content"], text, questions, again)
    if they is None or found is not None and not found.faint or \
            not _may_ask(queries["content"], name, questions):
        return found
    try:
        said = normalize_rows(embed_for_lanes(embedder, ["content"], [they]))[0]
    except Exception:   # a model down: the query's own reading stands
        return found
    read = asked(said, text, questions)
    if read is None or not read.single or read.faint or \
            attribute_scores(said[None, :], questions)[0].max() < THEY_MIN:
        return found
    return replace(read, vector=np.asarray(queries["content"], dtype=np.float32))


def _may_ask(query: np.ndarray, name: np.ndarray | None, questions: np.ndarray) -> bool:
    """Whether the query, its name's direction taken out (``unnamed.py``, no model call),
    nears some single-valued attribute's question at :data:`THEY_GATE` or more: only then
    is the query said with "they" embedded (questions about a person's events, "When is
    Beatrix's hackathon?", stay under it: 8% of ``search_http_bench.py``'s questions call
    the model twice, 90 of the updates sets' 157 queries that ask nothing clearly)."""
    if name is None:
        return False
    q = np.asarray(query, dtype=np.float64).reshape(-1)
    n = np.asarray(name, dtype=np.float64).reshape(-1)
    rest = q - float(q @ n) * n
    norm = float(np.linalg.norm(rest))
    if norm < 1e-6 or q.shape[0] != questions.shape[1]:
        return False
    row = attribute_scores((rest / norm).astype(np.float32)[None, :], questions)[0]
    return any(row[i] >= THEY_GATE for i, a in enumerate(ATTRIBUTES) if a.single)
