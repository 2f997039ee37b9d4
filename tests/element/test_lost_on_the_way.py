"""Values lost or misread on the way to memory (issue 23): a move to an organisation is a
new job, not a home (``places.organisation``, ``restated.job_moved``); a "no" to "are you
still at X?" that goes on to name where the speaker went is the new value
(``answered.still_denied``); an activity said to be over ("Packing done, ...") is no
"I am packing done", and the clause after it is the speaker's; "Haven't been to ..." is
the speaker's (``spoken.restore_subject``).

The sentences are written for these tests (none is a case of ``bench/data``). What a user
relies on: the new value is stored as what it is, and the memory reads as English.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from element.agents.answered import answered
from element.agents.places import organisation
from element.agents.spoken import restore_subject
from element.agents.subconscious import Observation, RuleEvaluator, Turn, observe
from index import MemoryStore
from tests.element.speaker import SETTINGS, SUBJECT, current, tell


@pytest.fixture
def store(tmp_path: Path, model: Any) -> Iterator[Any]:
    with MemoryStore(tmp_path / "m", model) as opened:
        yield opened


# -- a move to an organisation ---------------------------------------------------------------

@pytest.mark.parametrize("name,firm", [("Denver", False), ("Glasgow", False), ("Lisbon", False),
                                       ("Microsoft", True), ("Siemens", True),
                                       ("Unilever", True)])
def test_a_name_reads_as_a_place_or_an_organisation(model: Any, name: str, firm: bool) -> None:
    assert organisation(name, model.embed) is firm


def test_a_move_to_an_organisation_replaces_the_job(store: Any) -> None:
    tell(store, "I work at Siemens.")
    tell(store, "Moved to Unilever last spring, the hours are better.")
    now = current(store)
    assert "works at Unilever" in now and "Siemens" not in now and "lives in" not in now


def test_a_move_to_a_town_is_still_a_home_and_keeps_the_job(store: Any) -> None:
    tell(store, "I work at Siemens.")
    tell(store, "I live in Leeds.")
    tell(store, "Moved to Glasgow in May.")
    now = current(store)
    assert "lives in Glasgow" in now and "works at Siemens" in now and "Leeds" not in now


# -- "are you still at X?" / "no, switched to Y" ----------------------------------------------

@pytest.mark.parametrize("question,answer,told", [
    ("Are you still at Siemens?", "Not anymore, switched to Bosch in March.",
     "I am not at Siemens anymore. I am at Bosch since March."),
    ("Still in Accra?", "No, moved to Kumasi last year.",
     "I am not in Accra anymore. I am in Kumasi since last year."),
    ("Are you still with Vodafone?", "Nope, went over to Three.",
     "I am not with Vodafone anymore. I am with Three now."),
])
def test_a_no_naming_where_the_speaker_went_says_the_new_value(question: str, answer: str,
                                                               told: str) -> None:
    assert answered(answer, question) == told


def test_a_no_going_over_to_no_name_tells_no_new_value() -> None:
    said = answered("No, switched to decaf.", "Are you still at Siemens?")
    assert "I am at" not in said


def test_the_answer_naming_the_new_job_replaces_the_old_one(store: Any) -> None:
    tell(store, "I work at Siemens.")
    obs = Observation((Turn("assistant", "Are you still at Siemens?"),
                       Turn("user", "Not anymore, switched to Bosch in March.")), SUBJECT,
                      subject_name="Ana", conversation_id="still")
    observe(store, SETTINGS, obs, RuleEvaluator())
    now = current(store)
    assert "Bosch" in now and "works at Siemens" not in now


# -- texted openings ---------------------------------------------------------------------------

@pytest.mark.parametrize("said,told", [
    ("Packing done, finally moved in.", "Packing done, I finally moved in."),
    ("Decorating finished!", "Decorating finished!"),
    ("Have not been to the gym since May", "I have not been to the gym since May"),
    ("Looking for a place", "I am looking for a place"),        # a dropped "I am" still is
])
def test_an_activity_over_is_no_i_am_and_a_dropped_i_is_put_back(said: str, told: str) -> None:
    assert restore_subject(said) == told


@pytest.mark.parametrize("said", ["Have not been there yet", "Feeling done."])
def test_there_and_a_linking_verb_stay_as_said(said: str) -> None:
    assert restore_subject(said) == said


def test_a_texted_absence_is_the_speakers_own(store: Any) -> None:
    tell(store, "Haven't been to the pottery class since the spring, my wrist.")
    now = current(store)
    assert "Ana has not been to the pottery class" in now and "Ana's wrist" not in now
