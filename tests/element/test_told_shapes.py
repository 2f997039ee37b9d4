"""What the speaker tells of their world is stored whatever shape it is told in (issue 23):
a question asking whether the news was told already ("Did I mention we got a second
cat?"), a statement opening on a name, a place or a thing, news with no first-person word
at all; while small talk, questions back and opinions about nothing still store nothing.
Through the rule evaluator's candidates, as ``observe`` gets them."""

from __future__ import annotations

import pytest

from element.agents.observation import parse_observation
from element.agents.rule_evaluator import RuleEvaluator
from element.agents.sentences import untag


def said(text: str, name: str = "Maria") -> list[str]:
    observation = parse_observation({"turns": [{"role": "user", "content": text,
                                                "name": name}]})
    found, _ = RuleEvaluator().candidates(observation)
    return [c.content for c in found]


@pytest.mark.parametrize("text,news", [
    ("Did I mention we got a second cat?", "we got a second cat"),
    ("Have I mentioned the Fiesta's gone?", "The Fiesta's gone"),
    ("Did I say the choir and I parted ways after Christmas?",
     "The choir and I parted ways after Christmas"),
    ("Did I mention that Mum moved in with us?", "Mum moved in with us"),
    ("Did you know I moved to Leeds?", "I moved to Leeds"),
])
def test_a_question_whether_the_news_was_told_tells_it(text: str, news: str) -> None:
    assert untag(text) == (news, False)


@pytest.mark.parametrize("text", [
    "Did I mention it to you?", "Did I say something wrong?", "Did I say you could come?",
    "Have I told you about my new job?", "Did I mention how much I love it?",
    "Did you know octopuses have three hearts?",
])
def test_a_real_question_about_what_was_said_still_asks(text: str) -> None:
    assert untag(text)[1] is True


def test_news_in_a_did_i_mention_question_is_stored() -> None:
    assert said("Did I mention we got a second cat?") == ["Maria's family got a second cat."]
    assert said("Did I say the choir and I parted ways after Christmas?") == [
        "The choir and Maria parted ways after Christmas."]


@pytest.mark.parametrize("text,memory", [
    # one of theirs called by name and kin word, with no "my"
    ("Pebble the kitten joined the household on Sunday.",
     "Pebble the kitten joined the household on Sunday."),
    ("Biscuit, the new puppy, arrived on Friday.", "Biscuit, the new puppy, arrived on Friday."),
    # a person they know, by name and where they know them from
    ("Chloe from work just got a job at Tesco.", "Chloe from work just got a job at Tesco."),
    # a person's state since when, by "'s been at"
    ("Rob's been at Jaguar since the spring.", "Rob's been at Jaguar since the spring."),
    # a thing at a place named, its "my" dropped
    ("Membership at the Nuffield gym came through last week.",
     "Maria's membership at the Nuffield gym came through last week."),
])
def test_news_of_the_speakers_world_with_no_first_person_is_stored(text: str,
                                                                   memory: str) -> None:
    assert said(text) == [memory]


def test_news_from_next_door_is_no_plan() -> None:
    observation = parse_observation({"turns": [{"role": "user", "name": "Maria", "content":
                                                "Gemma from next door just got a job at "
                                                "Tesco."}]})
    found, _ = RuleEvaluator().candidates(observation)
    assert [c.category for c in found] == ["fact"]


@pytest.mark.parametrize("text", [
    "Gemma at Tesco got promoted.", "Year seven at Kingsmead Academy started this week.",
    "Lunch at Dishoom was amazing.",
])
def test_a_name_or_a_time_before_a_place_is_not_made_the_speakers(text: str) -> None:
    from element.agents.implicit import owned
    assert owned(text) == text


@pytest.mark.parametrize("text", [
    "Gorgeous morning, isn't it? How's your week going?",
    "Bristol is lovely in the spring, isn't it?",
    "Dogs are the best, aren't they?",
    "Work is work, you know how it is.",
    "What's the weather like where you are?",
    "Teaching is such a funny old job, isn't it? Everyone has an opinion on it.",
    "Bob the builder is a great show.",
])
def test_small_talk_and_questions_back_store_nothing(text: str) -> None:
    assert said(text) == []


@pytest.mark.parametrize("text,memory", [
    # a name's "'s" before "where" or "my" is "is"
    ("Tuesday's my day at the food bank now.", "Tuesday is Maria's day at the food bank now."),
    ("Nationwide's where I bank now.", "Nationwide is where Maria banks now."),
    # a named person's present doing, told as now or with where
    ("Mia's learning the violin now.", "Mia's learning the violin now."),
    ("Ellie's doing a PhD in Glasgow.", "Ellie's doing a PhD in Glasgow."),
])
def test_a_name_first_present_is_stored(text: str, memory: str) -> None:
    assert said(text) == [memory]


@pytest.mark.parametrize("text", ["Tom's driving me mad.", "Jess's working late tonight.",
                                  "Blue is my fave."])
def test_a_name_first_mood_or_moment_is_not_news(text: str) -> None:
    from element.agents.news_of import named_news
    assert not named_news(text.rstrip("."))


@pytest.mark.parametrize("text,memory", [
    # the speaker's week told by its days, "my" dropped
    ("Saturdays are for the climbing wall now.",
     "Maria's Saturdays are for the climbing wall now."),
    ("Thursday nights are for choir practice at St Mary's.",
     "Maria's Thursday nights are for choir practice at St Mary's."),
    # the day a start or an end fell on
    ("Saturday was our last day at the caravan in Whitby.",
     "Saturday was Maria's last day at the caravan in Whitby."),
])
def test_a_day_first_statement_of_the_speakers_is_stored(text: str, memory: str) -> None:
    assert said(text) == [memory]


@pytest.mark.parametrize("text", ["Mornings are dark now.", "Weekends are for relaxing, "
                                  "aren't they?", "Saturday was lovely and sunny."])
def test_the_days_weather_or_a_question_back_is_no_routine(text: str) -> None:
    assert said(text) == []


@pytest.mark.parametrize("text,memory", [
    ("Oat milk in the tea these days.", "Oat milk in the tea these days."),
    ("Pilates twice a week now.", "Pilates twice a week now."),
])
def test_a_verbless_value_as_it_stands_these_days_is_stored(text: str, memory: str) -> None:
    assert said(text) == [memory]


@pytest.mark.parametrize("text", ["Lunch at Dishoom now.", "Lots of rain these days.",
                                  "Early nights these days.", "So busy these days."])
def test_a_moment_or_the_weather_texted_without_a_verb_is_not(text: str) -> None:
    assert said(text) == []


def test_where_we_call_home_is_where_we_live() -> None:
    from element.agents.inverted import inverted
    assert inverted("Norwich is where we call home these days.") == \
        "We live in Norwich these days."


@pytest.mark.parametrize("text,plain", [
    ("Ernst & Young took me on as a senior auditor in the spring.",
     "I work as a senior auditor at Ernst & Young now"),
    ("The Co-op took me on as a shift lead.", "I work as a shift lead at The Co-op now"),
    ("They took me on as a driver.", "I work as a driver now"),
    ("The school took me on as a Year 4 class teacher.", "I work as a Year 4 class teacher now"),
])
def test_hired_as_a_role_by_a_named_employer_keeps_the_employer(text: str, plain: str) -> None:
    from element.agents.undergone import undergone
    assert undergone(text) == plain


def test_where_one_was_born_is_stored() -> None:
    assert said("I was born in Cork.") == ["Maria was born in Cork."]


@pytest.mark.parametrize("text,memory", [
    ("Padel with the neighbours on Saturday.", "Padel with the neighbours on Saturday."),
    ("Lisbon next month for a fortnight, can't wait.",
     "Lisbon next month for a fortnight, cannot wait."),
])
def test_a_dated_fragment_opening_on_a_name_is_stored(text: str, memory: str) -> None:
    assert said(text) == [memory]


@pytest.mark.parametrize("text", ["Rain all day today.", "Great chat yesterday.",
                                  "Thanks for yesterday.", "Dinner tonight at 7?"])
def test_the_weather_a_reaction_or_a_question_dated_is_not(text: str) -> None:
    assert said(text) == []


def test_a_restatement_that_drops_the_new_second_value_is_not_used() -> None:
    from element.agents.restated import _drops_second
    assert _drops_second("Ann works as a senior auditor",
                         "Ernst & Young took me on as a senior auditor",
                         "Ann works as an auditor at PwC", "Ann")
    assert not _drops_second("Ann works at Spotify", "I left Google and joined Spotify",
                             "Ann works at Google", "Ann")
    assert not _drops_second("Ann works as a senior auditor", "I am a senior auditor now",
                             "Ann works as an auditor at PwC", "Ann")
