"""A first-person statement of something that holds, told in an ordinary shape, is kept
(issue 23: newer statements that wrote nothing): a habit after its condition or its time
said first, the speaker placed by "you'll find me", a thing of theirs done after a word
of waiting (``lasting.py``); small talk, wishes and moments stay unwritten.

The sentences are written for these tests (none is a case of ``bench/data``).
"""

from __future__ import annotations

import pytest

from element.agents.episodes import episode
from element.agents.lasting import awaited_in, main_clause, own_done, where_found


@pytest.mark.parametrize("sentence,main", [
    ("When it snows I work from home", "I work from home"),
    ("If my shift finishes early I am at the pool with my daughter",
     "I am at the pool with my daughter"),
    ("If I am not on call I am at the allotment", "I am at the allotment"),
    ("On Tuesdays I teach a pottery class", "I teach a pottery class"),
    ("Most weekends we walk the dog on the moors", "we walk the dog on the moors"),
])
def test_the_main_clause_after_a_fronted_adverbial(sentence: str, main: str) -> None:
    assert main_clause(sentence) == main


@pytest.mark.parametrize("sentence", [
    "I take the bus",                       # nothing fronted
    "Today I walk to work",                 # a moment
    "She says I am at the library",         # a clause before it
    "They moved and I drive there now",     # clauses joined
])
def test_no_main_clause_without_a_fronted_adverbial(sentence: str) -> None:
    assert main_clause(sentence) is None


def test_the_listener_finding_the_speaker_is_where_the_speaker_is() -> None:
    assert where_found("On Saturdays you will usually find me at the lido") == \
        "On Saturdays I am usually at the lido"
    assert where_found("You can catch us down the allotment most evenings") == \
        "we are down the allotment most evenings"
    assert where_found("You will find it in the drawer") == "You will find it in the drawer"


@pytest.mark.parametrize("said,written", [
    ("At last the attic conversion is done!", "My attic conversion is done at last!"),
    ("Finally, the new porch is built.", "My new porch is built finally."),
    ("The garage roof's finally fixed!", "My garage roof is finally fixed!"),
    ("Our conservatory is up at last!", "Our conservatory is up at last!"),
])
def test_a_thing_done_after_a_word_of_waiting_is_the_speakers(said: str, written: str) -> None:
    assert awaited_in(said) == written


@pytest.mark.parametrize("said", [
    "At last the rain has stopped.",        # the world's
    "Finally the week is over!",            # the calendar's
    "The lights are on.",                   # no waiting, no work
    "The porch is built.",                  # no word of waiting: whose is not said
])
def test_no_owner_for_the_world_or_without_waiting(said: str) -> None:
    assert awaited_in(said) == said


def test_a_done_thing_of_the_speakers_is_told_but_not_a_feeling() -> None:
    assert own_done("My attic conversion is finished")
    assert own_done("Our mortgage has been paid off")
    assert not own_done("My feet are tired")
    assert not own_done("My kids are excited")


@pytest.mark.parametrize("turn,memory", [
    ("When the buses are on strike I cycle to the depot.",
     "When the buses are on strike Bea cycles to the depot."),
    ("If I'm not teaching I'm at the climbing centre with my brother.",
     "climbing centre"),
    ("Most mornings you'll find me at the lido before work.", "Bea is at the lido"),
    ("At last the attic conversion is done!", "Bea's attic conversion is done"),
    ("Still at the garden centre, still on weekends.", "Bea is still at the garden centre"),
])
def test_a_lasting_fact_in_an_ordinary_shape_is_kept(turn: str, memory: str) -> None:
    told = episode(awaited_in(turn), "Bea")
    assert told is not None and memory in told.content


@pytest.mark.parametrize("turn", [
    "If I had a garden I would keep chickens.",     # a wish
    "When I retire I would love to sail.",          # a wish for later
    "Today I'm so tired.",                          # a moment
    "Lovely morning, isn't it!",                    # small talk
    "Thanks so much, that helps a lot!",            # thanks
    "Finally the weekend is here!",                 # the calendar
])
def test_small_talk_wishes_and_moments_stay_unwritten(turn: str) -> None:
    assert episode(awaited_in(turn), "Bea") is None
