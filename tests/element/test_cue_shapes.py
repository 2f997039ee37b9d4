"""Change statements in the shapes people say them, and their controls
(``element/agents/cues.py``, ``holders.py``, ``relation.py``), on a file store with the real
model: the subject after the verb ("we've broken up, me and Marcus"), an ending with no
subject ("no statins for me now"), a relationship ended ("I ended things with Tom"), a
provider chosen by name alone ("switched to Starling" after "I bank with Lloyds"); and
what must keep the stored fact: another person's age ("Leo's friend Max is ten now"), a
rank among others ("one of the tallest in her class"). The sentences are written for these
tests (none is a case of ``bench/data``).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from element.agents.cues import ranked
from element.agents.holders import holder_of, possessed
from tests.element.speaker import tell_after, background_kept, current, open_store


@pytest.mark.parametrize("sentence,holder,person", [
    ("Leo's friend Max is ten now", "friend max", True),
    # Unnamed, the son's teacher is the son's, as in "my son has a new teacher".
    ("my son's teacher is Mrs Hall", "son", False),
    # A thing of another's is that person's: the school is Leo's, the car the sister's.
    ("Leo's school is Oakfield", "leo", False), ("my sister's car broke down", "sister", False),
    ("no statins for me now", "", False), ("Leo turned ten", "leo", False),
    # Unnamed before what happens in that person's own life: that person's, no one else's.
    ("my son's best friend just turned 7", "friend-of-son", True),
    ("my wife's boss retired last week", "boss-of-wife", True),
])
def test_whose_sentence_it_is_when_a_person_has_another(sentence: str, holder: str,
                                                        person: bool) -> None:
    assert holder_of(sentence) == holder
    assert bool(possessed(sentence)) is person


@pytest.mark.parametrize("sentence,rank", [
    ("Mia is one of the tallest in her class", True), ("he is now the oldest in his year", True),
    ("Mia is nine now", False), ("he is the best man at the wedding", False),
])
def test_a_rank_among_others_is_read(sentence: str, rank: bool) -> None:
    assert ranked(sentence) is rank


@pytest.fixture(params=["file"])
def store(request: pytest.FixtureRequest, tmp_path: Path, model: Any) -> Iterator[Any]:
    yield from open_store(request, tmp_path, model, "shapes")


@pytest.mark.parametrize("before,after,old", [
    ("I'm dating Marcus.", "We've broken up, me and Marcus.", "dating Marcus"),
    ("I take statins.", "No statins for me now.", "takes statins"),
    ("I bank with Lloyds.", "Switched to Starling.", "Lloyds"),
    ("I'm seeing Tom.", "I ended things with Tom.", "seeing Tom"),
    ("My son Leo is nine.", "Leo turned ten last week.", "is nine"),
])
def test_a_change_in_its_shape_supersedes(store: Any, before: str, after: str,
                                          old: str) -> None:
    assert "supersede" in tell_after(store, before, after), current(store)
    now = current(store)
    assert old not in now and background_kept(now)


@pytest.mark.parametrize("before,after,kept", [
    ("My son Leo is nine.", "Leo's friend Max is ten now.", "Leo is nine"),
    ("My son is 6.", "My son's best friend just turned 7.", "son is 6"),
    ("My manager is Lena.", "Lena's manager quit, so she's stepping up for now.", "is Lena"),
    ("My daughter Mia is 8.", "Mia is one of the tallest in her class.", "Mia is 8"),
    ("I bank with Lloyds.", "I also opened a Monzo account.", "Lloyds"),
    ("I bank with Lloyds.", "Switched to Vodafone, the signal is much better.", "Lloyds"),
    ("I bank with Lloyds.", "I've switched my phone over to Vodafone.", "Lloyds"),
    ("I'm seeing Tom.", "My sister ended things with Tom.", "seeing Tom"),
    ("I take statins.", "No sugar for me now.", "takes statins"),
])
def test_anothers_fact_or_a_rank_keeps_the_fact(store: Any, before: str, after: str,
                                                kept: str) -> None:
    assert "supersede" not in tell_after(store, before, after)
    assert kept in current(store)
