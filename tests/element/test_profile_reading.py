"""What the profile bank reads of a statement (``element/agents/profile.py``,
``index/profile_bank.py``): a job one attribute however it is told; a self-description
never another person's attribute; an intake form's fields answered clearly.

The sentences are written for these tests (none is a case of ``bench/data``); the real
model reads them, since what they mean is the point.
"""

from __future__ import annotations

from typing import Any

import pytest

from element.agents.profile import ANSWERS_MIN, profile_target, profiles
from index import ATTRIBUTES


def _read(model: Any, who: str, *texts: str) -> list[str | None]:
    return [p.attribute.name if p.attribute else None
            for p in profiles(list(texts), who, model)]


def test_a_job_told_by_its_title_and_by_its_employer_is_one_attribute(model: Any) -> None:
    """"works as a plumber" then "works at Screwfix now": one job, told two ways."""
    assert _read(model, "Tomasz", "Tomasz works as a plumber", "Tomasz works at Screwfix now",
                 "Tomasz is a self-employed joiner") == ["job", "job", "job"]
    assert all(a.name not in ("employer", "occupation") for a in ATTRIBUTES)


def test_a_self_description_is_no_other_persons_attribute(model: Any) -> None:
    """"is a dental hygienist" is a job, not who their dentist is; "Ana's dentist is Dr.
    Morley" is."""
    hygienist, dentist = profiles(["Ana is a dental hygienist", "Ana's dentist is Dr. Morley"],
                                  "Ana", model)
    doctor = next(i for i, a in enumerate(ATTRIBUTES) if a.name == "doctor")
    assert hygienist.attribute is not None and hygienist.attribute.name == "job"
    assert hygienist.scores is not None and float(hygienist.scores[doctor]) == 0.0
    assert dentist.attribute is not None and dentist.attribute.name == "doctor"


@pytest.mark.parametrize("text,attribute", [
    ("Ines is single", "partner"),
    ("Ines is dating a man called Rory", "partner"),
    ("Ines is studying law at Leeds University", "education"),
    ("Ines cycles to work", "commute"),
])
def test_an_intake_forms_fields_are_answered_clearly(model: Any, text: str,
                                                     attribute: str) -> None:
    (read,) = profiles([text], "Ines", model)
    assert read.attribute is not None and read.attribute.name == attribute
    assert read.scores is not None and float(read.scores.max()) >= ANSWERS_MIN


def test_a_new_employer_said_now_replaces_a_job_told_by_its_title(model: Any) -> None:
    """Without a named value in the old memory, a statement said to hold now replaces it
    when both answer the job clearly (``named=False``)."""
    memory = {"id": "m1", "content": "Tomasz works as a plumber"}
    found = profile_target([("Tomasz works at Screwfix now", "", False)], [memory], "Tomasz",
                           model, named=False)
    assert found is memory
    # a taste names no job: nothing replaced
    assert profile_target([("Tomasz loves fishing at the weekend", "", False)], [memory],
                          "Tomasz", model, named=False) is None


@pytest.mark.parametrize("text,attribute", [
    ("Ines is 41.", "age"),                         # her age, not her child's
    ("Ines manages the night shift at a depot.", None),   # never who manages her
])
def test_a_description_of_the_subject_alone_answers_no_other_persons_attribute(
        model: Any, text: str, attribute: str | None) -> None:
    """An attribute asked of another person of the subject's (their child, their manager)
    is answered only by a text naming one: "Ines is 41" is no child's age."""
    (read,) = profiles([text], "Ines", model)
    another = [i for i, a in enumerate(ATTRIBUTES) if a.another]
    assert read.scores is not None and all(float(read.scores[i]) == 0.0 for i in another)
    if attribute is not None:
        assert read.attribute is not None and read.attribute.name == attribute


@pytest.mark.parametrize("text,attribute", [
    ("Ines's son is in Year 4.", "child"),
    ("Ines sees Dr. Okonjo at the surgery.", "doctor"),
    ("Ines reports to a woman called Priti.", "manager"),
])
def test_another_persons_attribute_is_read_when_the_text_names_them(
        model: Any, text: str, attribute: str) -> None:
    (read,) = profiles([text], "Ines", model)
    assert read.attribute is not None and read.attribute.name == attribute


@pytest.mark.parametrize("text,attribute", [
    ("Ines walks to work every single day.", "commute"),
    ("Ines gets the tram to work most mornings.", "commute"),
])
def test_how_often_a_habit_is_done_is_not_its_attribute(model: Any, text: str,
                                                        attribute: str) -> None:
    """"every day", "most mornings" say when, not what: a way to work told with them is
    the commute, not a working pattern."""
    (read,) = profiles([text], "Ines", model)
    assert read.attribute is not None and read.attribute.name == attribute
