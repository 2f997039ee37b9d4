"""The subconscious's forget ("forget my address") erases the memory without handing its
end back to the memory it superseded: a request to forget a value is no statement that
the older value holds again (a ``delete`` over the API is: ``docs/memory-runtime.md``)."""

from __future__ import annotations

from index import MemoryStore
from tests.element.test_rule_evaluator import run, said, store  # noqa: F401 (fixture)


def test_forgetting_an_updated_value_does_not_bring_back_the_old_one(
        store: MemoryStore) -> None:  # noqa: F811
    run(store, said("My address is 5 Main Street"))
    moved = run(store, said("My address is now 9 Elm Road"))
    assert [d["action"] for d in moved] == ["supersede"]
    assert [d["action"] for d in run(store, said("forget my address"))] == ["forget"]
    assert store.list()[0] == []
    (old,) = store.list(include_superseded=True)[0]
    assert old["content"].endswith("5 Main Street") and old["valid_until"] is not None
