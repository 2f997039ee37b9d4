"""element/agents/named.py: the old value named as ended, in words the cue lists lack or
with a grammatical subject other than "I", supersedes the one fact holding it; on both
backends with the real model.

The sentences are written for these tests (none is a case of ``bench/data``). The guards
are the ones a user relies on: another person's loss, a value one moved *to*, a plan, an
addition and a finished task that is not the fact's value keep what is stored.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from element.agents.named import ended_target, may_end

from tests.element.speaker import tell_after, background_kept, current, open_store


@pytest.fixture(params=["file", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path, model: Any) -> Iterator[Any]:
    yield from open_store(request, tmp_path, model, "named")


@pytest.mark.parametrize("before,after,old", [
    ("I use a Brita filter jug.", "Got a tap filter fitted and it's replaced the Brita "
     "completely.", "uses a Brita"),
    ("I take my dog to Pawsome Daycare on Mondays.", "Pawsome Daycare went bust in March, "
     "so the dog comes to work with me.", "to Pawsome Daycare on Mondays"),
    ("I wear a knee brace for running.", "The knee brace is finally gone, physio signed me "
     "off.", "wears a knee brace"),
    ("I'm training for the Bristol half marathon.", "The Bristol half fell through after my "
     "injury, I'm swimming instead.", "training for the Bristol"),
    ("I bank with Santander.", "Shut my Santander account last month, my salary goes to "
     "Nationwide now.", "banks with Santander"),
    ("I swim at the Kingsway Leisure Centre.", "Kingsway Leisure Centre feels like a "
     "lifetime ago, I do yoga in the park these days.", "swims at the Kingsway"),
    ("I play the cello.", "I haven't picked up my cello in months, it's all guitar now.",
     "plays the cello"),
    # Endings by their grammar: a notice handed in, stepping down, "had to", "let ... lapse".
    ("I'm a nurse at Whittington Hospital.", "Handed my notice in at Whittington last "
     "month, I fancied a change.", "nurse at Whittington"),
    ("I chair the Hollybank residents' association.", "I stepped down from Hollybank "
     "residents' association in May.", "chairs the Hollybank"),
    ("We have a rabbit called Biscuit.", "We had to rehome Biscuit, the kids lost interest.",
     "rabbit called Biscuit"),
    ("I have an English Heritage membership.", "I let my English Heritage membership lapse "
     "in the spring.", "an English Heritage membership"),
    ("My team leader is Gordon.", "Gordon took early retirement, so I answer to Priti now.",
     "team leader is Gordon"),
    ("My favourite band is Blur.", "Wet Leg have overtaken Blur as my favourite band.",
     "favourite band is Blur"),
    ("I spend my evenings playing the Xbox.", "The Xbox is boxed away under the stairs, I'm "
     "doing pottery instead.", "playing the Xbox"),
])
def test_a_named_value_said_to_have_ended_supersedes_its_fact(
        store: Any, before: str, after: str, old: str) -> None:
    assert "supersede" in tell_after(store, before, after), current(store)
    now = current(store)
    assert old not in now
    assert background_kept(now)


@pytest.mark.parametrize("before,after", [
    ("I drive a Toyota Yaris.", "My sister's Toyota died on the motorway last week."),
    ("I work at Sainsbury's as a baker.", "I finished my shift at Sainsbury's early today."),
    ("I work at Sainsbury's as a baker.", "I might leave Sainsbury's next year."),
    ("I have a season ticket at Arsenal.", "We lost to Arsenal again on Saturday."),
    ("I speak Italian.", "I also gave up on Italian films, too slow for me."),
    ("I work at Sainsbury's as a baker.", "I might hand in my notice at Sainsbury's."),
])
def test_another_holder_the_new_value_a_plan_or_a_task_keeps_the_fact(
        store: Any, before: str, after: str) -> None:
    assert "supersede" not in tell_after(store, before, after), current(store)
    assert before.split()[-1].rstrip(".") in current(store)


def test_the_memory_meant_is_the_one_naming_the_value() -> None:
    memories = [{"id": "a", "content": "Ana works at Tesco."},
                {"id": "b", "content": "Ana's hairdresser is Jo at Snips."},
                {"id": "c", "content": "Ana went to Paris last year and loved it."}]
    found = ended_target("Jo's retired, so I go to a barber now", memories, "Ana")
    assert found is not None and found["id"] == "b"
    # A past event is no fact to supersede; a memory already saying it ended neither.
    assert ended_target("Paris is over for me, it's gone", memories, "Ana") is None
    assert ended_target("I quit Tesco", [{"id": "d", "content": "Ana quit Tesco."}],
                        "Ana") is None
    assert not may_end("I live in Leeds and work at Tesco")
    # A marker's own words name nothing ("fell *through*" is not "halfway through films"),
    # and a proper name is surer than a common word.
    habits = [{"id": "e", "content": "Ana always falls asleep halfway through films."},
              {"id": "f", "content": "Ana is learning Dutch for a posting to Utrecht."}]
    found = ended_target("The Utrecht posting fell through, so I'm learning German", habits,
                         "Ana")
    assert found is not None and found["id"] == "f"
    # Chat's idioms end nothing, and a long memory without a name is no value's.
    tastes = [{"id": "g", "content": "Ana loves a good book with a cup of tea."},
              {"id": "h", "content": "Ana thinks a good story brings people together and "
                                     "makes the whole world feel a little bit smaller."}]
    assert ended_target("I love getting lost in a good book", tastes, "Ana") is None
    assert ended_target("It ended up bringing the whole world closer", tastes, "Ana") is None
    assert ended_target("That story is finally over, the world moved on", tastes, "Ana") is None
    # The value a change goes *to* is the new one, not the old.
    assert ended_target("I switched to Tesco from Aldi", memories, "Ana") is None


@pytest.mark.parametrize("content,said", [
    # Endings by their grammar: a thing given or sent back, a habit gone "since" or
    # "for a month", a verb's gerund stopped, "used to", "over", "any longer", an app
    # deleted, a medicine come off; the value by its object, or its verb for a habit.
    ("Ana has an old cello in the spare room.", "We gave the cello away to a neighbour's kid"),
    ("Ana drinks three colas a day.", "Haven't touched a cola since Easter"),
    ("Ana drives a Skoda Fabia.", "Been without the Fabia for two months"),
    ("Ana goes to spin class on Mondays.", "I stopped going to spin class"),
    ("Ana plays squash every Thursday.", "I used to play squash but my back said no"),
    ("Ana is a member of the Ramblers.", "I'm not with the Ramblers any longer"),
    ("Ana uses TikTok every night.", "Deleted TikTok from my phone"),
    ("Ana takes omeprazole daily.", "I came off the omeprazole in June"),
    ("Ana runs ultramarathons.", "My ultramarathon days are over"),
    ("Ana vapes quite a lot, especially at work.", "Chucked out the vape and binned it"),
    ("Ana rides a scooter to work.", "Sent the scooter back, it was too slow"),
    # A state left ("off", "history", "behind me"), a former one, a job packed in, a
    # negated present "these days".
    ("Ana takes lithium daily.", "I'm off the lithium, my doctor agreed"),
    ("Ana sings with the Hallé choir.", "The Hallé choir is history for me"),
    ("Ana eats meat.", "I don't eat meat these days"),
    ("Ana works at Greggs.", "I packed in Greggs after a week of early shifts"),
    # A relation ended by both, the speaker one of them: one subject, not two clauses.
    ("Ana's boyfriend is called Callum.", "Callum and I went our separate ways in June"),
    ("Ana is engaged to Ravi.", "Ravi and I parted ways over the summer"),
    ("Ana is seeing a guy called Otto.", "Otto and I called it a day before Easter"),
    ("Ana sings with the harbour choir.", "The harbour choir and I parted ways last spring"),
    # The two who part after another clause: still one subject.
    ("Ana is engaged to Ravi.", "The engagement is off, Ravi and I parted ways in June"),
    # A kin word in another register names the same person ("gran", "grandmother").
    ("Ana's grandmother lives with her.", "Gran passed away in the winter"),
    ("Ana's mother lives with her.", "My mum passed away last year"),
    # A person of the speaker's who died: what they held, whatever it names.
    ("Ana's grandfather lives in Derby.", "Grandad passed away in the autumn"),
    ("Ana has a cat named Biscuit.", "We lost our cat in the spring"),
    # A verb of finishing with its particle.
    ("Ana volunteers at the hospice shop.", "I finished up at the hospice shop in May"),
])
def test_an_ending_by_its_grammar_names_the_fact(content: str, said: str) -> None:
    memory = {"id": "m", "content": content, "occurred_at": "2024-01-01T00:00:00Z"}
    found = ended_target(said, [memory], "Ana")
    assert found is not None and found["id"] == "m"


@pytest.mark.parametrize("content,said", [
    # A plan, another's ending, a past episode dated before the fact was told, a fall off
    # a bike, a habit kept on: nothing of the speaker's ended.
    ("Ana drinks three colas a day.", "I'm thinking of quitting colas"),
    ("Ana drives a Skoda Fabia.", "My brother sold his Fabia"),
    ("Ana drinks coffee every morning.", "I quit coffee back in 2015, then started again"),
    ("Ana rides a bike to work.", "I came off my bike in the rain"),
    ("Ana plays squash every Thursday.", "I used to play squash and still do"),
    ("Ana plays squash every Thursday.", "Cancelled my dentist on Thursday"),
    ("Ana goes to the gym at lunchtime.", "I stopped by the gym for my towel"),
    ("Ana lives in Paris.", "I can't believe I'm in Paris now"),
    ("Ana lives in Paris.", "I'm off to Paris again"),
    # Two people who did something together parted from nothing.
    ("Ana's boyfriend is called Callum.", "Callum and I went to the cinema last night"),
    ("Ana's boyfriend is called Callum.", "My sister and her husband went their separate ways"),
    # Another person's relative, though named by the same kin word.
    ("Ana's grandmother lives with her.", "My husband's gran passed away in the winter"),
    ("Ana's grandmother lives with her.", "My friend's nan passed away in the winter"),
    ("Ana's grandfather lives in Derby.", "My neighbour's dog passed away in the autumn"),
    ("Ana has a cat named Biscuit.", "We lost our cat Pip in the spring"),
    ("Ana has a cat named Biscuit.", "I lost my temper in the spring"),
    ("Ana has two cats, Biscuit and Pip.", "We lost our cat in the spring"),
    # "Back" of a time ("a while back", "years back") is when, not a thing given back.
    ("Ana rides a scooter to work.", "I still love the scooter photo you sent me a while back"),
    ("Ana has an old cello in the spare room.", "My gran gave me the cello years back"),
])
def test_a_plan_another_person_or_a_past_episode_ends_nothing(content: str,
                                                               said: str) -> None:
    memory = {"id": "m", "content": content, "occurred_at": "2024-01-01T00:00:00Z"}
    assert ended_target(said, [memory], "Ana") is None


def test_no_more_is_no_answer_word() -> None:
    from element.agents.episodes import tell as told
    assert told("No more Netflix for me, I cut it.", "Ana") == "No more Netflix for Ana, " \
        "Ana cut it."
    assert told("No, I live in Leeds.", "Ana") == "Ana lives in Leeds."


_WORDS = ["I", "we", "my", "the", "Tesco", "Jo", "flute", "left", "retired", "gone", "to",
          "finally", "also", "might", "now", "new", "is", "are", "goodbye", "from", ",", "so"]
_MEMORIES = [{"id": "a", "content": "Ana works at Tesco."},
             {"id": "b", "content": "Ana's hairdresser is Jo."},
             {"id": "c", "content": "Ana plays the flute."}]


@given(st.lists(st.sampled_from(_WORDS), min_size=1, max_size=14),
       st.sets(st.sampled_from(["a", "b", "c"])))
@settings(max_examples=300, deadline=None)
def test_what_is_meant_is_a_pool_memory_never_a_skipped_one_and_needs_a_marker(
        words: list[str], skip: set[str]) -> None:
    sentence = " ".join(words)
    found = ended_target(sentence, _MEMORIES, "Ana", skip)
    if found is not None:
        assert found in _MEMORIES and found["id"] not in skip
        assert may_end(sentence)
