"""Which verb of "I VERB X" / "we VERB X" tells a habit (issue 23: a plain present of the
speaker's life that stored nothing): the test the keyed habit rule (``rules._habit``) and
the one-verb habit of the episodes (``acts.habit_verb``) apply to the verb and its object.

Four closed classes the older test refused by its shape:

- a present ending in "-ed" (``PRESENT_ED``: "I breed spaniels", "we feed the ducks"):
  read as a past by its ending, so "I breed labradors" stored nothing;
- a verb of ``facts.NOT_HABITS`` that has a habit sense with a thing as its object
  (``THING_OBJECT``: "I keep bees", "we keep chickens"; not "keep going", "keep it up",
  "keep in touch", "keep my fingers crossed"): a habit only when its object opens on an
  article, a number or a plural noun, or is a name;
- "we" as the subject (the household: "We shop at Lidl", "We holiday in Cornwall"), less
  the words that follow "we" as no verb (``NOT_WE_VERBS``: "we are", "we both", "we all"),
  with an object that names a place or a firm, or things by number or plural;
- a verb of ``facts.NOT_HABITS`` whose phrasal sense is work (``PHRASAL``: "I look after
  elderly people", "I care for stroke patients"; not "look at", "care about", "look
  after myself"), so a carer's job told by what they do stored nothing.

Pure functions, English only; data a closed class, no word of any case.
"""

from __future__ import annotations

import re

from .facts import NOT_HABITS, PAST_TENSE

__all__ = ["PRESENT_ED", "SAME_FORM", "THING_OBJECT", "PHRASAL", "NOT_WE_VERBS", "habit_verb_of"]

#: Verbs whose present ends in "-ed" (a closed class of English): not pasts.
PRESENT_ED = frozenset("""breed feed bleed speed weed seed shed shred wed proceed succeed
exceed heed embed""".split())
#: Verbs of ``NOT_HABITS`` that tell a habit with a thing as their object ("I keep bees").
THING_OBJECT = frozenset({"keep"})
#: Words after "we" that are no verb of a habit: "be" and the quantifiers and adverbs that
#: stand between "we" and its verb ("we are", "we both love", "we all went").
NOT_WE_VERBS = frozenset("""are were both all each together ourselves ever""".split())
#: An object that is a thing (an article, a number, a plural noun, a name), not a
#: gerund, a pronoun or a particle ("keep going", "keep it up", "keep in touch").
_THING = re.compile(r"^(?:(?:a|an|some|a few|a couple of|two|three|four|five|six|\d+)\s+\w|"
                    r"(?-i:[A-Z])\w*|(?!(?:it|us|them|things|fingers|tabs)\b)[a-z]+[^s\W]s\b"
                    r"(?!\s+(?:crossed|up|going|on|open)\b))", re.I)

#: What a habit of the household names: a place or a firm by name ("We shop at Lidl", "We
#: holiday in Cornwall") or things by number or plural ("We keep chickens", "We grow two
#: kinds of beans"); not a judgement of the pair ("We make a great team", "We rock as a
#: team", "We push each other to improve": LoCoMo's talk, conversations 0-2 .781 -> .778
#: and 3-4 .717 -> .714 with any object).
_WE_OBJECT = re.compile(r"(?:^|\s)(?-i:[A-Z])\w|^(?:two|three|four|five|six|\d+)\s|"
                        r"^(?!(?:it|us|them|things|fingers|tabs)\b)[a-z]+[^s\W]s\b", re.I)


#: Verbs of ``facts.NOT_HABITS`` whose phrasal sense tells what the speaker does, by the
#: particle that opens their object ("I look after elderly people", "I care for
#: stroke patients"): the work of caring, not a glance or a feeling ("look at", "care
#: about"); a habit only when the object is named, no pronoun ("look after myself").
PHRASAL = {"look": "after", "care": "for"}
_NAMED_OBJECT = re.compile(r"^(?!(?:it|them|me|you|myself|yourself|ourselves|him|her|us|"
                           r"everyone|everybody|everything|that|this|those)\b)\w", re.I)


#: Verbs whose past is spelt as their present ("I read"): a habit only where the object
#: says how or how often it is done ("I read on a Kindle", "I read mostly crime"), never
#: what was done once ("I read that book last year", "I read in the paper that ...").
SAME_FORM = frozenset({"read"})
_HOW_HELD = re.compile(r"^(?:on|in)\s+(?:a|an|my|the\s)?\s*\w|\b(?:mostly|usually|always|"
                       r"every|each|most\s+(?:days|nights|evenings|mornings)|a\s+lot|"
                       r"these\s+days|nowadays|now)\b", re.I)
_ONCE = re.compile(r"\b(?:yesterday|ago|last\s+\w+|this\s+(?:morning|afternoon|evening|week|"
                   r"weekend)|once|the\s+other\s+day|recently|just|that|about|somewhere|"
                   r"it|this|your)\b", re.I)


def habit_verb_of(verb: str, obj: str, subject: str = "i") -> bool:
    """Whether ``verb`` (lower case) with its object ``obj`` tells the habit of a speaker
    whose subject is ``subject`` ("i" or "we"); not a verb of thinking, feeling or talking
    (``facts.NOT_HABITS``), not a past, not an adverb."""
    if subject.lower() == "we" and (verb in NOT_WE_VERBS or not _WE_OBJECT.search(obj)):
        return False
    if verb in THING_OBJECT:
        return bool(_THING.match(obj.strip()))
    if verb in PHRASAL:
        particle, _, rest = obj.strip().partition(" ")
        return particle.lower() == PHRASAL[verb] and bool(_NAMED_OBJECT.match(rest))
    if verb in SAME_FORM:
        return bool(_HOW_HELD.search(obj)) and not _ONCE.search(obj)
    if verb in NOT_HABITS or verb in PAST_TENSE or verb.endswith("ly"):
        return False
    return not verb.endswith("ed") or verb in PRESENT_ED
