"""What the subconscious writes of a turn reads cleanly (issue 23, item 4): sentences split
where they end, not at abbreviations; "we" as the household where the words say so; no
"X's name is X"; one fact per memory. Through the rule evaluator's candidates, as
``observe`` gets them."""

from __future__ import annotations

import pytest

from element.agents.observation import parse_observation
from element.agents.rule_evaluator import RuleEvaluator


def said(text: str, name: str = "Maria") -> list[str]:
    observation = parse_observation({"turns": [{"role": "user", "content": text,
                                                "name": name}]})
    found, _ = RuleEvaluator().candidates(observation)
    return [c.content for c in found]


@pytest.mark.parametrize("text", ["My name is Maria.", "I'm Maria", "My name's Maria!"])
def test_the_speakers_own_name_is_no_memory(text: str) -> None:
    assert not any("Maria" in c.replace("Maria", "", 1) for c in said(text)), said(text)


@pytest.mark.parametrize("text,memory", [
    ("Call me Mia.", "Maria wants to be called Mia"),
    # how the speaker wants to be called is kept though it is their name: a later "call me
    # Mia" supersedes it, and what they were called before stays in its history
    ("Call me Maria.", "Maria wants to be called Maria"),
])
def test_the_name_to_be_called_is_kept(text: str, memory: str) -> None:
    assert said(text) == [memory]


@pytest.mark.parametrize("text,part", [
    ("I saw Dr. Patel at 9 a.m. yesterday, then I went to work at St. Mary's.",
     "Maria saw Dr. Patel at 9 a.m. yesterday, then Maria went to work at St. Mary's."),
    ("I work as a nurse at St. Mary's. I love it.", "Maria works as a nurse at St. Mary's"),
    ("We have two kids and a dog.", "Maria's family has two kids and a dog."),
    # an initial's capital U is no texted "u" ("you")
    ("I moved here from the U.S. in 2019.", "Maria moved here from the U.S. in 2019."),
])
def test_abbreviations_and_the_household_read_cleanly(text: str, part: str) -> None:
    assert part in said(text)


def test_a_taste_is_not_told_inside_a_dated_event() -> None:
    found = said("I went to the Thai place last Friday with my sister. I can't stand "
                 "cilantro though.")
    assert len(found) == 2 and not any("cilantro" in c and "Friday" in c for c in found)


@pytest.mark.parametrize("text,memory", [
    # a consequence after ", so" is a clause of its own: the state before it is stored
    ("I'm vegan, so no dairy for me.", "Maria is vegan"),
    # a question that only frames the speaker's news tells the news
    ("Can you believe I'm a junior already?", "Maria is a junior already"),
    ("Did I tell you we moved to Leeds?", "Maria lives in Leeds"),
])
def test_a_statement_inside_a_consequence_or_a_rhetorical_question_is_stored(
        text: str, memory: str) -> None:
    assert memory in said(text)


@pytest.mark.parametrize("text", ["Can you believe it?", "Did you know that?",
                                  "It was great, so much fun."])
def test_a_real_question_or_so_of_degree_stores_nothing(text: str) -> None:
    assert said(text) == []


def test_a_clause_of_the_speakers_own_is_told_from_a_sentence_about_the_other() -> None:
    found = said("You mentioned your work at the shelter last time and it made me think of "
                 "how I could help too, so I just joined a fire-fighting brigade.", "John")
    assert found == ["John just joined a fire-fighting brigade."]


def test_an_em_dash_parts_two_statements() -> None:
    found = said("Researching adoption agencies \u2014 it's been a dream to have a family.",
                 "Caroline")
    assert found == ["Caroline is researching adoption agencies."]


def test_the_other_persons_family_does_not_make_we_the_household() -> None:
    found = said("Yeah, we made it to the top of the mountain with the guys from work last "
                 "Sunday. Your family trip must have been great too!", "John")
    assert found and not any("family" in c for c in found), found
