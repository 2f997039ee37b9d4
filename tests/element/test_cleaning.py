"""How the keyed rules read a turn (``element/agents/cleaning.py``), seen through what
``rules.extract`` stores."""

from __future__ import annotations

import pytest

from element.agents.cleaning import clean
from element.agents.episodes import tell
from element.agents.rules import extract


@pytest.mark.parametrize("text", [
    "Oh no! Sorry to hear that.",
    "Oh no, that's awful. Hope you feel better soon.",
    "Aw no! That sounds rough.",
])
def test_dismay_at_the_others_news_corrects_nothing(text: str) -> None:
    assert extract(text, 1, "John") == []


def test_a_plain_no_still_corrects() -> None:
    [fixed] = extract("No. I live in Leeds.", 1, "John")
    assert (fixed.kind, fixed.key) == ("correct", "fact:location")


@pytest.mark.parametrize("text,content,key", [
    ("New number is 555-0199.", "John's new number is 555-0199", "fact:phone"),
    ("First day at Stripe was on Monday.", "John works at Stripe", "fact:employer"),
])
def test_a_dropped_my_is_put_back(text: str, content: str, key: str) -> None:
    [found] = extract(text, 1, "John")
    assert (found.content, found.key) == (content, key)


@pytest.mark.parametrize("text", [
    "New York is great this time of year.",     # a name, not the speaker's new thing
    "First day at school tomorrow!",            # no firm named
])
def test_new_and_first_keep_their_sense(text: str) -> None:
    assert all(c.key not in ("fact:phone", "fact:employer", "fact:location")
               for c in extract(text, 1, "John"))


@pytest.mark.parametrize("text,key,content", [
    ("I started at Stripe on Monday.", "fact:employer", "John works at Stripe"),
    ("My first day at Deloitte went well.", "fact:employer", "John works at Deloitte"),
    ("Bristol has been our home for three weeks.", "fact:location", "John lives in Bristol"),
    ("Leeds has become my home.", "fact:location", "John lives in Leeds"),
    # a person in a role toward the speaker, as it stands now in any of the words for it
    ("Ravi is my line manager these days.", "fact:manager", "John's line manager is Ravi"),
    ("Dr. Okafor is my dentist nowadays.", "fact:my:dentist", "John's dentist is Dr. Okafor"),
])
def test_a_change_told_as_its_event_is_keyed(text: str, key: str, content: str) -> None:
    [found] = extract(text, 1, "John")
    assert (found.key, found.content) == (key, content)


@pytest.mark.parametrize("text", ["Mom is home now.", "This is my home.",
                                  "I started at 9am today."])
def test_home_and_start_without_a_place_or_firm(text: str) -> None:
    assert all(c.key not in ("fact:location", "fact:employer") for c in extract(text, 1, "John"))


@pytest.mark.parametrize("text", [
    "Wow, that looks amazing, Nate! I love the color and texture.",
    "Melanie, that photo's amazing! I love all the yellow leaves.",
    "Awww! It's so cute! I love the way it turned out!",
])
def test_praise_of_what_the_other_shared_is_no_taste(text: str) -> None:
    assert extract(text, 0, "Ana") == []


def test_a_taste_for_something_unshown_stays_a_taste() -> None:
    assert [c.content for c in extract("I love the ocean.", 0, "Ana")] == ["Ana loves the ocean"]


def test_a_fan_too_agrees_and_names_nothing() -> None:
    assert extract("Have you seen all the Harry Potter movies? I'm a fan too!", 0, "Ana") == []


@pytest.mark.parametrize("text,content,key", [
    ("Honestly these days I'd pick tacos over sushi any day.", "John prefers tacos over sushi",
     "preference:sushi|tacos"),
    ("I'd rather have tea than coffee.", "John prefers tea over coffee",
     "preference:coffee|tea"),
    ("I'd choose a quiet night in over a party every time.",
     "John prefers a quiet night in over a party", "preference:party|quiet night in"),
])
def test_a_taste_said_by_comparison_is_a_preference_of_both_things(text: str, content: str,
                                                                   key: str) -> None:
    [found] = extract(text, 1, "John")
    assert (found.category, found.content, found.key) == ("preference", content, key)


@pytest.mark.parametrize("text", [
    "Leeds beat Hull on Saturday.",             # a result, not a taste
    "I'd take that over nothing.",              # what "that" is is not said
])
def test_a_comparison_that_names_no_two_things_is_no_preference(text: str) -> None:
    assert all(c.category != "preference" for c in extract(text, 1, "John"))


def test_the_speaker_acted_on_in_a_keyed_memory_keeps_the_name() -> None:
    # "they keep them going" would tell nothing of who is kept going
    [found] = extract("My family is my motivation and they keep me going.", 1, "John")
    assert found.content == "John's family is their motivation and they keep John going"


@pytest.mark.parametrize("text,content", [
    ("My car's a Golf now.", "John's car is a Golf"),      # the "'s" of "is"
    ("My mum's a nurse.", "John's mum is a nurse"),
])
def test_an_s_of_is_after_the_speakers_thing_is_read_as_is(text: str, content: str) -> None:
    assert [c.content for c in extract(text, 1, "John")] == [content]


def test_an_owners_s_stays_an_owner() -> None:
    assert [c.content for c in extract("My dad's old car is red.", 1, "John")] == \
        ["John's dad's old car is red"]


@pytest.mark.parametrize("text,told", [
    ("Just got home from a fortnight at my sister's in Cardiff.",
     "John just got home from a fortnight at their sister's in Cardiff."),
    ("We went round to our nan's on Sunday.", "John's family went round to their nan's on Sunday."),
])
def test_an_s_after_a_preposition_is_a_home_not_is(text: str, told: str) -> None:
    assert tell(text, "John") == told


@pytest.mark.parametrize("text,cleaned", [
    ("I'd left Barclays by then.", "I had left Barclays by then"),
    ("She'd gone to Leeds.", "She had gone to Leeds"),
    ("We'd just moved in.", "We had just moved in"),
    ("I'd love to visit Rome.", "I would love to visit Rome"),
    ("I'd rather stay home.", "I would rather stay home"),
    ("I'd need a car there.", "I would need a car there"),
    ("I'd never go back.", "I would never go back"),
])
def test_d_is_had_before_a_participle_and_would_elsewhere(text: str, cleaned: str) -> None:
    """'d before a past participle is "had": "I'd left" read as "I would left" told no
    change; before anything else it is "would"."""
    assert clean(text) == cleaned


@pytest.mark.parametrize("text,cleaned", [
    ("It's been a year since my last cigarette.", "It has been a year since my last cigarette"),
    ("She's got a new job.", "She has got a new job"),
    ("It's great.", "It is great"),
    ("He's a nurse.", "He is a nurse"),
])
def test_s_is_has_before_a_participle_and_is_elsewhere(text: str, cleaned: str) -> None:
    """'s before "been", "got", "gone", "had" is "has": "it is been" was read apart from
    the episode's "it has been", so a change and the episode of one sentence were both
    stored."""
    assert clean(text) == cleaned
