"""A change done to the speaker, told with another grammatical subject, read as the
speaker's own (``element/agents/undergone.py``): "They've moved me to the Leeds office",
"Work put me on nights", "They made me ward manager", "It's a Golf now"; never another
person's fact ("the council moved my gran into a care home"), nor a feeling made
("it made me so happy")."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, strategies as st

from element.agents.rules import clean
from element.agents.undergone import undergone

from tests.element.speaker import background_kept, current, keeps, open_store, replaces, \
    tell_after


@pytest.fixture(params=["file", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path, model: Any) -> Iterator[Any]:
    yield from open_store(request, tmp_path, model, "undergone")


@pytest.mark.parametrize("sentence,said", [
    ("They've moved me to the Leeds office.", "I am based at the Leeds office now"),
    ("Head office have moved me up to the Birmingham branch.",
     "I am based at the Birmingham branch now"),
    ("They moved us to Leeds in March.", "we are based in Leeds now"),
    ("Work put me on nights.", "I am on nights now"),
    ("They switched me from days to nights.", "I am on nights now"),
    ("The new rota has me on lates permanently.", "I am on lates now"),
    ("The housing association have put us in a flat in Lewisham now.",
     "we are in a flat in Lewisham now"),
    ("They made me ward manager at the start of the month.", "I am ward manager now"),
    ("I was promoted to senior analyst in May.", "I am senior analyst now"),
    ("Superdrug took me on full-time in September.", "I work at Superdrug now"),
    ("They took me on as a delivery driver last month.", "I work as a delivery driver now"),
    ("The school took me on as a Year 4 class teacher for the new term.",
     "I work as a Year 4 class teacher now"),
    ("At the AGM they voted me in as chair.", "I am chair now"),
    ("It's a Golf now.", "I have a Golf now"),
    ("It's a Nissan Leaf on my driveway these days, charging off the garage socket.",
     "I have a Nissan Leaf now"),
    ("The people at my new job at Tesco are lovely.", "I work at Tesco now"),
    ("The commute to my new office in Leeds is brutal.", "I am based in Leeds now"),
    ("The boot on my new Golf is massive.", "I have a Golf now"),
    ("EE has my contract now.", "my contract is with EE now"),
    ("Riverside Health Centre has my records now.",
     "my records are with Riverside Health Centre now"),
    ("Nationwide had my mortgage for years.", None),
    ("Sarah has my keys now.", None),
    ("My new colleagues at Lidl are brilliant.", "I work at Lidl now"),
    ("Our new neighbours in Headingley brought round a cake.", "we live in Headingley now"),
    ("Everyone at Lidl has been so welcoming since I started.", "I work at Lidl now"),
    ("The neighbours in Headingley are much quieter.", None),
    ("My sister's new colleagues at Lidl are brilliant.", None),
    ("The staff at Nando's were rude to me.", None),
    ("The view from my sister's new flat in Leith is great.", None),
    ("My new job at Tesco is great.", None),
    # another's fact, a feeling, a favour, a plan, a question: not the speaker's change
    ("They've given my husband a job at Lidl, he starts Monday.", None),
    ("The council moved my gran into a care home in Stroud.", None),
    ("Dave took me on a tour of the brewery.", None),
    ("My mate signed me up for a half marathon.", None),
    ("It made me so happy.", None),
    ("That put me in a good mood.", None),
    ("My sister has me in stitches.", None),
    ("Dad drove me to the station.", None),
    ("They might move me to the Leeds office.", None),
    ("Work's put me on nights from next month.", None),
    ("My parents put me in art classes when I was a kid.", None),
    ("My friend put me up in her flat in Brighton.", None),
    ("They put us in their spare room for the week.", None),
    ("They're moving me to the Leeds office in the new year.", None),
    ("Have they moved you to the Leeds office?", None),
    ("It's a Golf now, my son's pride and joy.", None),
    ("It was a Golf.", None),
    ("They took me on a tour of the brewery.", None),
])
def test_a_change_done_to_the_speaker_is_said_by_the_speaker(sentence: str,
                                                             said: str | None) -> None:
    assert undergone(clean(sentence)) == said


@given(st.text(alphabet="abcdefghij ", min_size=1, max_size=40))
def test_a_sentence_without_the_speaker_as_object_is_nobody_changed(rest: str) -> None:
    assert undergone("My sister " + rest) is None


@pytest.mark.parametrize("before,after,old,new", [
    ("I'm based at our Reading office.", "Head office have moved me up to the Birmingham branch.",
     "Reading", "Birmingham"),
    ("I work the early shift at the depot.", "My boss has put me on lates permanently.",
     "early shift", "lates"),
    ("I'm a staff nurse on the children's ward.",
     "They made me ward manager at the start of the month.", "staff nurse", "ward manager"),
    ("I'm based in the York office.", "Got some news: they've moved me to the Leeds office.",
     "York", "Leeds"),
    ("I drive a Ford Fiesta.", "It's a Nissan Leaf on my driveway these days.",
     "Fiesta", "Nissan Leaf"),
    ("I work at Asda.", "The people at my new job at Tesco are lovely.", "Asda", "Tesco"),
    ("I'm registered with the Park Lane surgery.", "Riverside Health Centre has my records now.",
     "Park Lane", "Riverside"),
])
def test_a_change_done_to_the_speaker_replaces_their_value(store: Any, before: str, after: str,
                                                           old: str, new: str) -> None:
    replaces(store, before, after, old, new)


def test_a_place_told_by_its_people_replaces_the_speakers_and_keeps_the_news(store: Any) -> None:
    """The value is restated as the attribute's own statement ("Ana lives in Headingley"),
    the news of the people kept beside it."""
    actions = tell_after(store, "I live in Chapel Allerton.",
                         "Our new neighbours in Headingley brought round a cake.")
    assert "supersede" in actions, current(store)
    now = current(store)
    assert "Headingley" in now and "Chapel Allerton" not in now, now
    assert background_kept(now), now


@pytest.mark.parametrize("before,after", [
    ("I live in Gloucester.", "The council moved my gran into a care home in Stroud."),
    ("I work at Aldi.", "They've given my husband a job at Lidl, he starts Monday."),
    ("I drive a Honda Jazz.", "It's a Skoda Octavia now, my dad's pride and joy."),
])
def test_another_persons_change_keeps_the_speakers(store: Any, before: str, after: str) -> None:
    keeps(store, before, after)


@pytest.mark.parametrize("sentence,said", [
    ("The veterinary science course at Bristol took me in after all.",
     "I am on the veterinary science course at Bristol now"),
    ("Leeds Beckett accepted me onto the nursing degree.",
     "I am on the nursing degree at Leeds Beckett now"),
    ("They accepted my transfer to the Glasgow branch.", "I am based at the Glasgow branch now"),
    ("My transfer to Leeds finally came through.", "I am based in Leeds now"),
    # No place of study, no transfer of the speaker's, not yet.
    ("The hospital admitted me on Tuesday with a chest infection.", None),
    ("Mum took me in after the fire.", None),
    ("The shelter took us in for a fortnight.", None),
    ("My sister's transfer to Leeds came through.", None),
    ("They accepted my transfer request but I'll only move in June.", None),
])
def test_a_place_of_study_taking_the_speaker_in_or_a_transfer_granted(
        sentence: str, said: str | None) -> None:
    assert undergone(clean(sentence)) == said
