"""What a memory of the subject's own answers best of the bank (``index/own_answer.py``,
issue 23): never an attribute asked of another person of theirs (a manager, a child, a
doctor, family, friends) when it names none; so a plain statement of a job is the job's
value, and its values answer first among the person's other memories."""

from __future__ import annotations

from pathlib import Path
import numpy as np
import pytest

from index.asked import asked
from index.own_answer import best_answers, names_anyone
from index.profile_bank import ATTRIBUTES, question_vectors
from index.recency import answering, newer_first

#: Background told a week before the job: a hobby, an allergy, a film, a habit.
BACKGROUND = ["Bartholomew is learning to knit", "Bartholomew is allergic to cats",
              "Bartholomew's favourite film is Jaws.",
              "Bartholomew never drinks coffee after lunch"]
_AT = {a.name: i for i, a in enumerate(ATTRIBUTES)}


@pytest.fixture
def served(model_cache: Path) -> object:
    """The embedder a served store uses: what a memory answers is read with its vectors."""
    from index import load_embedder
    return load_embedder(model_cache, log=lambda *_: None)


def test_a_memory_naming_nobody_is_read_without_anothers_attributes() -> None:
    row = np.zeros((2, len(ATTRIBUTES)), dtype=np.float32)
    row[:, _AT["manager"]], row[:, _AT["job"]], row[:, _AT["residence"]] = .56, .55, .2
    top = best_answers(row, ["Bart is a junior accountant at a small firm",
                             "Bart's boss is a junior accountant at a small firm"])
    assert [ATTRIBUTES[t].name for t in top] == ["job", "manager"]


def test_an_own_attribute_on_top_is_kept() -> None:
    row = np.zeros((1, len(ATTRIBUTES)), dtype=np.float32)
    row[0, _AT["residence"]], row[0, _AT["family"]] = .7, .6
    assert ATTRIBUTES[best_answers(row, ["Bart lives in Leeds"])[0]].name == "residence"


@pytest.mark.parametrize(("text", "named"), [
    ("Bart is a junior accountant", False), ("The twins started at Oakfield", True),
    ("Bart's boss is strict", True), ("Bart's family has a cockatiel now", True),
    ("Bart works as a florist", False)])
def test_names_anyone_reads_a_word_for_a_person_of_theirs(text: str, named: bool) -> None:
    assert names_anyone(text) is named


def test_the_jobs_values_answer_first_among_the_persons_memories(served: object) -> None:
    """"What is Bartholomew's job?" of a junior accountant who later signs off invoices
    as a finance director (both current), scored as a store of many people scored them
    (a knitting class .675 first, the director .478 last): the accountancy job nears "Who
    is their manager?" a little above "What is their job?", yet names no manager, so it
    is the job's value; of the two, the newer goes first, the knitting after them."""
    texts = [*BACKGROUND, "Bartholomew is a junior accountant at a small firm",
             "As the finance director of a small firm, Bartholomew signs off every invoice "
             "themselves."]
    query = "What is Bartholomew's job?"
    vectors = served.embed([query, *texts])  # type: ignore[attr-defined]
    vectors = vectors / np.linalg.norm(vectors, axis=1, keepdims=True)
    question = asked(vectors[0], query, question_vectors(served))  # type: ignore[arg-type]
    assert question is not None and ATTRIBUTES[question.attribute].name == "job"
    _, best = answering(list(vectors[1:]), ["bart"] * 6, texts, ["fact"] * 6, question)
    assert best[4]
    order = newer_first(list(vectors[1:]), ["bart"] * 6, [1.0, 1.0, 1.0, 1.0, 2.0, 3.0],
                        [0.675, 0.64, 0.636, 0.617, 0.661, 0.478], question=question,
                        contents=texts, categories=["fact"] * 6)
    assert order[:2] == [5, 4]
