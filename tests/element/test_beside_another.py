"""The speaker's new value told in a sentence that also holds another person: by pointing
back at a value named in another's clause (``element/agents/pointed.py``: "My uncle got me
in at the Screwfix depot, so that's where I work now"), or with another person as one
subject with the speaker (``element/agents/together.py``: "My partner and I are renting in
Plymouth now", "my wife and I both joined ..."; "both" of the two is no addition,
``index/told.py``). Another's change in the same shape ("My brother moved to Hull, so
that's where he lives now"), a visit or a liking of the two keep what is stored. The
sentences are written for these tests (none is a case of ``bench/data``); the store tests
run on both backends with the real model.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from element.agents.pointed import pointed
from element.agents.rules import clean
from element.agents.together import together
from index import TOLD_ADDITION
from tests.element.speaker import current, keeps, open_store, tell_after


@pytest.fixture(params=["file", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path, model: Any) -> Iterator[Any]:
    yield from open_store(request, tmp_path, model, "beside")


@pytest.mark.parametrize("sentence,said", [
    # a cleft pointing back at a place, a provider, a thing named in the clause before
    ("My cousin found me a job at Halfords, so that's where I work now.",
     "I work at Halfords now"),
    ("My wife sorted out a joint account with Monzo and that's who I bank with now.",
     "I bank with Monzo now"),
    ("My brother sold me his Skoda Fabia last month, so that's what I drive now.",
     "I drive Skoda Fabia now"),
    ("We moved to Hexham in March, so that's where we live these days.",
     "we live in Hexham these days"),
    ("My neighbour runs a bakery in Malton and that's where I work these days.",
     "I work at a bakery in Malton these days"),
    # a copula with a thing of the speaker's
    ("We both signed up at the Nuffield gym in Bath, so that's my gym now.",
     "my gym is the Nuffield gym in Bath now"),
    # another's clause pointing back, nothing named before, a person, not a thing of one's
    ("My sister moved to Leeds, so that's where she lives now.", ""),
    ("That's where I work now.", ""),
    ("I had lunch with my uncle, that's my favourite.", ""),
    ("My brother got me in at Pret, that's my problem now.", ""),
    ("My dad bought a Tesla, so that's what we use for long trips now.", ""),
])
def test_a_clause_pointing_back_is_said_with_its_value(sentence: str, said: str) -> None:
    assert pointed(clean(sentence)) == said


@pytest.mark.parametrize("sentence,said", [
    ("My partner and I are renting in Plymouth now.", "I am renting in Plymouth now"),
    ("Me and my best mate have both moved to Hull.", "I have moved to Hull"),
    ("Both of us work at the Co-op these days.", "I work at the Co-op these days"),
    ("Me and Priti switched to Octopus in the spring.", "I switched to Octopus in the spring"),
    # what two do to each other; another pair; a thing of the other's; a liking of the two
    ("Tom and I split up in the summer.", ""),
    ("My sister and her husband moved to Leeds.", ""),
    ("Me and Dan's flat is freezing.", ""),
    ("My sister and I both love York.", ""),
])
def test_the_speaker_with_another_as_one_subject_is_said_alone(sentence: str,
                                                              said: str) -> None:
    assert together(clean(sentence)) == said


def test_both_of_the_two_who_do_it_is_no_addition() -> None:
    assert not TOLD_ADDITION.search("my wife and I both work at the library now")
    assert not TOLD_ADDITION.search("we have both moved to Hull")
    assert TOLD_ADDITION.search("I have both a cat and a dog")
    assert TOLD_ADDITION.search("my kids both go to Kingsway")


@pytest.mark.parametrize("before,after,old,new", [
    ("I work at Halfords in Derby.", "My uncle got me in at the Screwfix depot, so that's "
     "where I work now.", "Halfords", "Screwfix"),
    ("I bank with HSBC.", "My wife sorted out a joint account with Monzo and that's who I "
     "bank with now.", "HSBC", "Monzo"),
    ("I drive a Honda Jazz.", "My brother sold me his Skoda Fabia, so that's what I drive "
     "now.", "Jazz", "Fabia"),
    ("I live in Exeter.", "My partner and I are renting in Plymouth now.", "Exeter",
     "Plymouth"),
])
def test_the_speakers_value_beside_another_replaces_the_old(
        store: Any, before: str, after: str, old: str, new: str) -> None:
    assert "supersede" in tell_after(store, before, after), current(store)
    now = current(store)
    assert new in now and old not in now, now


@pytest.mark.parametrize("before,after", [
    ("I live in York.", "My brother moved to Hull, so that's where he lives now."),
    ("I live in Leeds.", "Me and my sister went to Whitby for the weekend."),
    ("I live in Leeds.", "My sister and I both love Whitby."),
    ("I drive a Honda Civic.", "My dad and my uncle both bought Teslas."),
    ("I drive a Ford Focus.", "My dad bought a Tesla, so that's what we use for long trips "
     "now."),
])
def test_anothers_value_in_the_same_shape_keeps_the_speakers(store: Any, before: str,
                                                            after: str) -> None:
    keeps(store, before, after)
