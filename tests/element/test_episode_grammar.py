"""News of the speaker's told in everyday grammar (issue 23, "not stored"): a tail or a
lead-in around the fact, a dropped "I am" or "my", fragments, "now", the family without "my";
and the moments, judgements and chat phrases that stay no memory."""

from __future__ import annotations

import pytest

from element.agents.episodes import episode


@pytest.mark.parametrize("said,memory", [
    # the fact before a tail that says since when or what follows
    ("I'm vegetarian now, have been since January.",
     "Ana is vegetarian now, have been since January."),
    ("Turns out I'm lactose intolerant, so no more milk for me.",
     "Ana is lactose intolerant, so no more milk for Ana."),     # a noun before the adjective
    # a standing told by its word alone, and "I am" dropped before where or the taste
    ("Engaged!", "Ana is engaged."),
    ("Off to university in Leeds this autumn to study law.",
     "Ana is off to university in Leeds this autumn to study law."),
    ("Still in Manchester but in a bigger flat now.",
     "Ana is still in Manchester but in a bigger flat now."),
    ("Favourite band at the moment is Wet Leg.", "Ana's favourite band at the moment is Wet Leg."),
    # the present told as changed
    ("Gran's living with us now.", "Gran's living with Ana's family now."),
    ("These days it's oat milk in my coffee, not regular.",
     "These days it is oat milk in Ana's coffee, not regular."),
])
def test_news_in_everyday_grammar_is_a_memory(said: str, memory: str) -> None:
    """News of the speaker's told as people talk (a tail after the fact, a dropped "I am"
    or "my", "now") stored nothing (issue 23: "not stored")."""
    told = episode(said, "Ana")
    assert told is not None and told.content == memory


@pytest.mark.parametrize("said", ["I'm off to bed.", "Off to the gym now.", "I am so tired now.",
                                  "Now that I think about it, it was fun."])
def test_a_moment_is_no_news(said: str) -> None:
    assert episode(said, "Ana") is None


@pytest.mark.parametrize("said,memory", [
    # a short standing with a name for its value
    ("I'm on Vodafone.", "Ana is on Vodafone."),
    ("I bank with Monzo.", "Ana banks with Monzo."),
    # the speaker's family or pet without "my", told as changed
    ("A spaniel puppy called Mabel is running the house now.",
     "A spaniel puppy called Mabel is running the house now."),
    ("The kids are at St Anne's now, not Oakfield.",
     "The kids are at St Anne's now, not Oakfield."),
    # the value of what the talk is about, by a common noun, as now
    ("Doctor said to cut down on oats, so it's almond milk in the fridge nowadays.",
     "It is almond milk in the fridge nowadays."),
    # "we might" with a place is the household's plan, not a general thought
    ("We might move to Nottingham next year if Priya gets the job there.",
     "Ana's family might move to Nottingham next year if Priya gets the job there."),
])
def test_a_value_or_a_change_of_the_speakers_world_is_a_memory(said: str, memory: str) -> None:
    told = episode(said, "Ana")
    assert told is not None and told.content == memory


@pytest.mark.parametrize("said", ["I'm at Starbucks.", "I am in Paris.",
                                  "It's a different story now.", "It is much quieter now.",
                                  "The kids loved it.",
                                  "We can achieve great things if we join forces.",
                                  "We could do a family outing this summer."])
def test_a_moment_a_judgement_or_a_thought_is_no_memory(said: str) -> None:
    assert episode(said, "Ana") is None


@pytest.mark.parametrize("said,memory", [
    # what the speaker works as, "I am a" dropped; a milestone told by its word
    ("Dental nurse at a practice in Hove now.", "Ana is a dental nurse at a practice in Hove now."),
    ("Senior developer as of this month.", "Ana is a senior developer as of this month."),
    ("Promoted!", "Ana was promoted."),
    # what the speaker has no more, "I have" dropped
    ("No sugar in my tea these days.", "Ana has no sugar in their tea these days."),
    # what a family member does
    ("My son goes to nursery.", "Ana's son goes to nursery."),
    ("Piano's on hold; it's singing lessons on Wednesdays now.",
     "It is singing lessons on Wednesdays now."),
])
def test_a_fragment_or_a_familys_habit_is_a_memory(said: str, memory: str) -> None:
    told = episode(said, "Ana")
    assert told is not None and told.content == memory


@pytest.mark.parametrize("said", ["No problem at all now.", "Nurse said I was fine.",
                                  "As a writer, it was a blow.", "It's pouring with rain now."])
def test_no_fragment_is_read_into_a_chat_phrase(said: str) -> None:
    assert episode(said, "Ana") is None


@pytest.mark.parametrize("said,memory", [
    ("Vegan since March.", "Ana is vegan since March."),     # a state's adjective, "I am" dropped
    ("After a lot of documentaries, full vegan since March.",
     "After a lot of documentaries, Ana is full vegan since March."),   # after a scene-setter
    ("With the kids at school, back at work full time.",
     "With the kids at school, Ana is back at work full time."),
])
def test_a_state_told_without_i_am_is_a_memory(said: str, memory: str) -> None:
    told = episode(said, "Ana")
    assert told is not None and told.content == memory


@pytest.mark.parametrize("said", ["Great now.", "Lunch now.", "Busy again!",
                                  "After that, went home."])
def test_a_word_of_the_moment_is_no_state(said: str) -> None:
    assert episode(said, "Ana") is None


@pytest.mark.parametrize("said,memory", [
    # the speaker's statement after a lead-in
    ("Work-wise, I'm freelance now.", "Work-wise, Ana is freelance now."),
    ("All done with the night shifts, I'm on days now.",
     "All done with the night shifts, Ana is on days now."),
    # family words said without "my"
    ("The twins have started at Park Lane Primary.", "The twins have started at Park Lane "
     "Primary."),
])
def test_a_statement_after_a_lead_in_is_a_memory(said: str, memory: str) -> None:
    told = episode(said, "Ana")
    assert told is not None and told.content == memory


@pytest.mark.parametrize("said,memory", [
    ("Nowadays I'm more of a tea person.", "Ana is more of a tea person."),  # a kind of person
    ("The new job's at a school in Leith.", "The new job's at a school in Leith."),
])
def test_a_taste_as_a_kind_of_person_and_the_new_job_are_memories(said: str,
                                                                   memory: str) -> None:
    told = episode(said, "Ana")
    assert told is not None and told.content == memory


@pytest.mark.parametrize("said", ["I am such a lucky person.", "I'm a people person.",
                                  "new job who dis"])
def test_a_feeling_about_oneself_is_no_taste(said: str) -> None:
    assert episode(said, "Ana") is None


@pytest.mark.parametrize("said,memory", [
    ("Also doing a pottery class on Tuesdays.", "Ana is doing a pottery class on Tuesdays."),
    ("Might go back to uni next year.", "Ana might go back to uni next year."),
    ("Might be moving to Leeds in the spring.", "Ana might be moving to Leeds in the spring."),
])
def test_a_dropped_i_before_doing_or_might_is_put_back(said: str, memory: str) -> None:
    told = episode(said, "Ana")
    assert told is not None and told.content == memory


@pytest.mark.parametrize("said", ["Might be worth a try.", "Doing great, thanks!"])
def test_might_be_or_doing_well_is_no_news(said: str) -> None:
    assert episode(said, "Ana") is None
