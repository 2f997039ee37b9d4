"""element/agents/restated.py ``restate``: a change replacing "X's <attribute> is <value>"
is written as the attribute's own statement with the new value the sentence names: the
name the attribute's word introduces, else the last name said. Pure functions; the
sentences are written for these tests (none is a case of ``bench/data``).
"""

from __future__ import annotations

import pytest

from element.agents.restated import restate


@pytest.mark.parametrize("key, said, old, new", [
    # The name after the attribute's word, not a place told after it.
    ("fact:my:dentist", "Had my check-up with my new dentist, Dr Okafor in Harborne, on Tuesday.",
     "Gus's dentist is Dr Patel in Moseley", "Gus's dentist is Dr Okafor"),
    ("fact:my:manager", "My manager left in May; Dev from the Leeds team took over.",
     "Gus's manager is Gillian", "Gus's manager is Dev"),
    # The attribute's word said in the plural, the name after it.
    ("fact:my:gp", "I changed GPs, I see Dr. Shah now.", "Gus's GP is Dr. Morgan",
     "Gus's GP is Dr. Shah"),
    # No name after the word: the last name said.
    ("fact:my:manager", "Gillian retired at Easter, so I report to Dev now.",
     "Gus's manager is Gillian", "Gus's manager is Dev"),
])
def test_the_new_value_is_the_name_the_attribute_introduces(key, said, old, new):
    assert restate(key, said, "Gus", old) == new


def test_a_sentence_naming_only_the_old_value_restates_nothing():
    assert restate("fact:my:dentist", "My dentist is still Dr Patel, in Moseley.", "Gus",
                   "Gus's dentist is Dr Patel in Moseley") is None
