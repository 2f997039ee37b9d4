"""An ending told by its aftermath rather than by its thing: the habit's time told free again
(``freed.py``), its own verb's last time (``last_done.py``), the thing gone to its next
keeper, an answer ending by pronoun the one its question names (``bygone.py``); and what
keeps the memory: a pause, an occasion, another's time or last, a plan, a time or a verb
two habits share. The grammar alone, then on both backends with the real model.

The sentences are written for these tests (none is a case of ``bench/data``).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from element.agents.bygone import bygone_target
from element.agents.freed import freed_target, freed_times
from element.agents.last_done import last_done_target, pasts_of
from tests.element.speaker import current, ends, open_store, tell_after

WHO = "Ana"


def _memories(*contents: str) -> list[dict[str, Any]]:
    return [{"id": f"m{i}", "content": c} for i, c in enumerate(contents)]


HELD = _memories("Ana referees junior hockey on Sunday afternoons.",
                 "Ana teaches watercolour at the arts centre on Wednesdays.",
                 "Ana bakes bread for the village shop.",
                 "Ana has a tortoise called Crumble.",
                 "Ana keeps a dinghy at Rutland Water.")


@pytest.mark.parametrize("said,meant", [
    ("Somebody else has the whistle now, so my Sunday afternoons are my own again.", "hockey"),
    ("The arts centre found a new tutor and Wednesdays are mine again.", "watercolour"),
    ("I've finally got my Wednesdays back.", "watercolour"),
])
def test_a_habits_time_told_free_again_ends_that_habit(said: str, meant: str) -> None:
    found = freed_target(said, HELD, WHO)
    assert found is not None and meant in found["content"], found


@pytest.mark.parametrize("said", [
    # A pause, an occasion.
    "My Sunday afternoons are free until the league restarts in March.",
    "My Wednesdays are free this week while the centre is painted.",
    "My Wednesday is free, fancy lunch?",
    # Another person's time; a plan.
    "Since he retired, his Sundays are his own.",
    "My Wednesdays will be free once term ends.",
    # A time no habit of hers names.
    "My Friday evenings are my own again.",
])
def test_a_pause_an_occasion_anothers_time_or_a_plan_frees_nothing(said: str) -> None:
    assert freed_target(said, HELD, WHO) is None


def test_a_time_two_habits_share_names_neither() -> None:
    memories = _memories(*(m["content"] for m in HELD),
                         "Ana sings in a choir on Wednesdays.")
    assert freed_times("Wednesdays are mine again.") == [("wednesday",)]
    assert freed_target("Wednesdays are mine again.", memories, WHO) is None


@pytest.mark.parametrize("said,meant", [
    ("After ten seasons I refereed my last match in April.", "hockey"),
    ("I taught my final class at the arts centre in June.", "watercolour"),
    ("We baked our very last loaves for the shop at Christmas.", "bread"),
])
def test_the_last_time_of_a_habit_in_its_own_verb_ends_it(said: str, meant: str) -> None:
    found = last_done_target(said, HELD, WHO)
    assert found is not None and meant in found["content"], found


@pytest.mark.parametrize("said", [
    # Not yet over: a present, a plan.
    "I'm teaching my final class at the arts centre in July.",
    "I'll referee my last match in April.",
    # Another's last.
    "My sister taught her last class in June.",
    # A verb of having names no habit.
    "I had my last check-up in May.",
    # The last of one run of the habit.
    "I refereed my last match of the season on Sunday, back in September.",
    "Taught my final class this term, then a break.",
    # A verb no habit of hers has.
    "I ran my last marathon in October.",
])
def test_a_plan_anothers_last_or_a_light_verb_ends_nothing(said: str) -> None:
    assert last_done_target(said, HELD, WHO) is None


def test_the_past_of_a_verb() -> None:
    assert pasts_of("teach") == {"taught"}
    assert pasts_of("bake") == {"baked"}
    assert pasts_of("referee") == {"refereed"}
    assert pasts_of("carry") == {"carried"}
    assert "jogged" in pasts_of("jog")


@pytest.mark.parametrize("said,meant", [
    ("Crumble went to live with my cousin in Ely when we moved abroad.", "Crumble"),
    ("We had Crumble put to sleep in the spring.", "Crumble"),
    ("The dinghy went to a family from Oakham in the autumn.", "dinghy"),
    ("Crumble found a new home with a tortoise club.", "Crumble"),
    # Another clause's plan or "again" is its own: the ending stands.
    ("Crumble went to live with my cousin; the new flat won't allow pets.", "Crumble"),
    ("The mooring fees went up again, so I sold the dinghy.", "dinghy"),
])
def test_a_thing_gone_to_its_next_keeper_is_over(said: str, meant: str) -> None:
    found = bygone_target(said, HELD, WHO)
    assert found is not None and meant in found["content"], found


@pytest.mark.parametrize("said", [
    "My neighbour's tortoise went to live with their grandson.",
    "I went to a family barbecue at Rutland Water.",
    "I sold the dinghy again in the game, ha.",
])
def test_anothers_keeper_or_a_visit_is_no_ending(said: str) -> None:
    assert bygone_target(said, HELD, WHO) is None


def test_an_answer_ending_by_pronoun_the_one_asked_by_name() -> None:
    found = bygone_target("We lost her in the cold snap.", HELD, WHO,
                          asked="How is Crumble getting on?")
    assert found is not None and "Crumble" in found["content"]
    # The question names no memory by name: nothing is ended.
    assert bygone_target("We lost her in the cold snap.", HELD, WHO,
                         asked="How are things at home?") is None


@pytest.mark.parametrize("asked,said,meant", [
    ("How's the dinghy these days?", "Sold it to a lad from Oakham in March.", "dinghy"),
    ("Still doing the watercolour class?", "I packed it in after Easter.", "watercolour"),
    ("How's the dinghy?", "Gave it up when the mooring fees doubled.", "dinghy"),
])
def test_an_answer_ending_by_pronoun_the_thing_asked_about(asked: str, said: str,
                                                           meant: str) -> None:
    found = bygone_target(said, HELD, WHO, asked=asked)
    assert found is not None and meant in found["content"], found


@pytest.mark.parametrize("asked,said", [
    ("How's the dinghy these days?", "Love it, we had it out on Sunday."),
    ("How's the dinghy?", "My brother gave it up, I still sail."),
    ("Did you watch the regatta?", "Gave it up at half time, too windy."),
])
def test_an_answer_going_on_anothers_or_about_another_thing_ends_nothing(asked: str,
                                                                        said: str) -> None:
    assert bygone_target(said, HELD, WHO, asked=asked) is None


@pytest.fixture(params=["file", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path, model: Any) -> Iterator[Any]:
    yield from open_store(request, tmp_path, model, "aftermath")


@pytest.mark.parametrize("before,after,old", [
    ("I referee junior hockey on Sunday afternoons.",
     "A younger ref has taken over, so my Sunday afternoons are my own again.",
     "referees junior hockey"),
    ("I teach watercolour at the arts centre.",
     "After eight years I taught my final class there in June.", "teaches watercolour"),
])
def test_an_aftermath_supersedes_its_memory(store: Any, before: str, after: str,
                                            old: str) -> None:
    ends(store, before, after, old)


def test_a_pause_keeps_the_habit(store: Any) -> None:
    assert "supersede" not in tell_after(
        store, "I referee junior hockey on Sunday afternoons.",
        "My Sunday afternoons are free until the league restarts."), current(store)
