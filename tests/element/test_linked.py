"""An event or a story linked to the fact it changes when its new value is a noun of the
speaker's (``element/agents/linked.py``): "We got the keys to our new place in Leith" after
"I live in Morningside" is where one lives; another person's news, one more of a kind, a
holiday place or a plan leaves the old value current."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from element.agents.linked import linked_result, linked_results, linked_target

from tests.element.speaker import keeps, open_store, replaces


@pytest.fixture(params=["file", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path, model: Any) -> Iterator[Any]:
    yield from open_store(request, tmp_path, model, "linked")


@pytest.mark.parametrize("before,after,old,new", [
    ("I live in a flat in Morningside.",
     "We got the keys to our new place in Leith on Friday and spent the weekend unpacking.",
     "Morningside", "Leith"),
    ("I drive a Ford Focus.",
     "Drove the Mazda CX-5 home from the showroom on Thursday and the dog loved the boot.",
     "Focus", "Mazda"),
    ("I've got a Google Pixel 6.",
     "Smashed my screen last week. Went into town and came away with an iPhone 15.",
     "Pixel", "iPhone"),
])
def test_a_new_value_told_by_a_noun_of_the_speakers_replaces_the_value_held(
        store: Any, before: str, after: str, old: str, new: str) -> None:
    replaces(store, before, after, old, new)


@pytest.mark.parametrize("before,after", [
    ("I live in Bristol.", "My sister got the keys to her new place in Bath on Friday."),
    ("I drive a Ford Focus.",
     "Drove our second car home from the dealer on Saturday, a little Fiat 500."),
    ("I work at Barclays.", "Celebrated my husband's promotion to partner at Lloyds on Friday."),
    ("I live in Leeds.", "Spent a fortnight in our new holiday flat in Alicante."),
    ("I work at Barclays.", "I'm hoping my move to HSBC goes through in the spring."),
])
def test_anothers_news_one_more_a_holiday_place_or_a_plan_keeps_both(
        store: Any, before: str, after: str) -> None:
    keeps(store, before, after)


@pytest.mark.parametrize("clause,result", [
    ("We got the keys to our new place in Leith on Friday", "Ann lives in Leith"),
    ("Unpacked my desk in my new office at Unilever", "Ann has a new office at Unilever"),
    ("Finally picked up my brand new Skoda Fabia", "Ann has a Skoda Fabia"),
    ("Celebrated my promotion to senior associate with the team",
     "Ann is senior associate"),
    ("Toasted my move to the Leeds branch with the team", "Ann moved to the Leeds branch"),
    ("Drove the Mazda CX-5 home from the showroom", "Ann drives a Mazda CX-5"),
    ("came out with a Galaxy S23", "Ann has a Galaxy S23"),
    ("We got the keys to the new flat in Leith on Saturday", "Ann lives in Leith"),
    ("Picked up the keys for a Kia Niro at the weekend", "Ann has a Kia Niro"),
    # A shop named by a possessive after a preposition is where, not whose.
    ("My new job at Sainsbury's is going well so far", "Ann has a new job at Sainsbury's"),
    ("We got the keys to Tom's flat in Leith", None),
    # Another's, one more, not held for good, not now, nothing named, a stay.
    ("We got the keys to the Airbnb in Porto on Friday", None),
    ("Our neighbours got the keys to the new house in Leith", None),
    ("We went to see the new flat in Kemptown on Saturday", None),
    ("Popped into the new Tesco in Leith for milk", None),
    ("My sister got the keys to her new place in Bath", None),
    ("Celebrated Tom's promotion to partner", None),
    ("Drove our second car home", None),
    ("Drove a hired Transit home from the depot", None),
    ("I'd love my move to HSBC to go through", None),
    ("I didn't get my promotion to manager", None),
    ("Met my new boss on Monday", None),
    ("We love our new place", None),
])
def test_the_value_a_noun_of_the_speakers_leaves(clause: str, result: str | None) -> None:
    assert linked_result(clause, "Ann") == result


def test_an_episode_adding_one_more_anywhere_links_nothing() -> None:
    assert linked_results("Picked up a second bike at the weekend. It is my new Trek "
                          "Marlin in green", "Ann") == []
    assert linked_results("Smashed my screen last week. Came away with a Galaxy S23", "Ann") \
        == ["Ann has a Galaxy S23"]


class _NoModel:
    """An embedder that must not be called."""

    model_id, dim = "none", 8

    def embed(self, texts: Any) -> Any:
        raise AssertionError(f"a model call for {list(texts)}")


class _Pool:
    def __init__(self, contents: list[str]) -> None:
        self._memories = [{"id": str(i), "content": c} for i, c in enumerate(contents)]

    def embedder(self) -> Any:
        return _NoModel()

    def memories(self) -> list[dict[str, Any]]:
        return self._memories


def test_an_episode_without_such_a_noun_makes_no_model_call() -> None:
    """Observe's own thread makes no model call when embedding is behind: only a clause
    read so asks the model (``test_rule_evaluator.py``'s embed-behind tests)."""
    pool: Any = _Pool(["Ann lives in Paris", "Ann works at Renault"])
    for source in ("I went to a pottery class with my sister yesterday",
                   "I adopted a puppy named Rex from the shelter last week",
                   "We spent ten days in Valencia at Easter and came home sunburnt"):
        assert linked_target(source, pool, "Ann", []) is None
