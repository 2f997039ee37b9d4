"""A change texted without "I", the forms ``spoken.restore_subject`` reads as the statement
they leave unsaid (issue 23: such newer statements wrote nothing at all): a base verb and
a time that says it holds now or is a habit ("Work for Deloitte now"), a standing
("Vegan now"), a belonging ("Member of PureGym since January"), "done with", a span at a
named place ("Three months at Lidl now"), the speaker told as a riddle ("Guess who works
at Lidl now"); a request to amend a record of theirs, which tells its new value ("Update
my employer to Lidl"); a value named alone after the change in the sentence before ("Sold
the Golf. Kia Niro now."). Each is a closed class of English (the irregular verbs and the
verbs the profile asks with, the states a person is in, the nouns of belonging, the verbs
of amending a record), no word of any case. Data only, and one helper; ``spoken.py``,
``cleaning.py`` and ``episodes.py`` read them.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from index import ATTRIBUTES

from .episode_words import STATUSES
from .milestones import SPAN
from .facts import STATES
from .irregular import BASES

__all__ = ["PRESENT_VERBS", "REQUESTED", "FEELING", "DIETS", "BARE_VALUE", "TEXTED"]

#: Verbs whose base form opens a present told without "I": the irregular ones (but "be", and
#: "let", whose opening is an order: "Let me know"), and those the profile asks a person's
#: attributes with ("Which languages do they speak?", "Where do they work?").
PRESENT_VERBS = (BASES - {"be", "let"}) | frozenset(
    m.group(1).lower() for attribute in ATTRIBUTES for question in attribute.questions
    for m in re.finditer(r"\b(?:do|does)\s+they\s+([a-z]+)\b", question, re.I)
    if not m.group(1).lower().endswith("ly"))     # "do they usually ...": an adverb

#: A request to change what is on record of the speaker's, which says its new value ("Update
#: my employer to Lidl", "Please change the address on file to 4 Elm Road, Leeds"): "My
#: employer is Lidl". The speaker's own ("my", "our"), or "the" one on record ("on file",
#: "on my account") or of their details (an address, a number, a name, an email, a
#: contact); the verbs of amending a record.
REQUESTED: tuple[str, Callable[[re.Match[str]], str]] = (
    r"^(?:please\s+)?(?:can you\s+|could you\s+)?(?:update|change|set|switch|amend|"
    r"correct)\s+(?:(?:my|our)\s+(?P<mine>[a-z][\w'-]*(?:\s+[a-z][\w'-]*){0,2}?)|"
    r"the\s+(?P<the>[a-z][\w'-]*(?:\s+[a-z][\w'-]*){0,2}?(?=\s+(?:on\s+(?:file|record|"
    r"my\s+account|the\s+account)|in\s+your\s+records)\b)|(?:[a-z][\w'-]*\s+){0,2}?"
    r"(?:address|number|name|email|contact|details)))"
    r"(?:\s+(?:on\s+(?:file|record|my\s+account|the\s+account)|in\s+your\s+records))?"
    r"\s+to\s+(?P<v>\S.*?)(?:,?\s+please)?$",
    lambda m: f"My {m['mine'] or m['the']} is {m['v']}")

#: The "-ing" of verbs whose subject is the one who feels ("Loving the new flat", "Missing
#: the old place"): before "the" they still tell the speaker's feeling, where a participle
#: that causes one is an adjective ("Amazing the difference it makes").
FEELING = frozenset("""loving enjoying missing hating liking adoring dreading craving
appreciating relishing""".split())

#: The diets a person goes on, by their adjective ("gone vegan", "turned pescatarian").
DIETS = frozenset("""vegetarian vegan pescatarian veggie keto paleo gluten-free dairy-free
teetotal""".split())

#: A name alone and the present it holds from ("Lidl now", "Kia Niro these days", "Leeds
#: since May"): a value with its subject and verb left to the sentence before.
BARE_VALUE = re.compile(r"^(?-i:[A-Z])[\w&'-]*(?:\s+(?-i:[A-Z0-9])[\w&'-]*){0,2}\s*,?\s+"
                        r"(?:now|these days|nowadays|since\s+\w+|from\s+\w+|as of\s+\w+)\b",
                        re.I)


def _base_of(verb: str) -> str:
    """The base of a verb in "-s" ("works" -> "work", "goes" -> "go", "studies" -> "study",
    "has" -> "have")."""
    if verb == "has":
        return "have"
    if verb.endswith("ies") and len(verb) > 4:
        return verb[:-3] + "y"
    if re.search(r"(?:sh|ch|x|z|ss|o)es$", verb):
        return verb[:-2]
    return verb[:-1]


#: The openings, each a pattern (case-insensitive, at the start of a cleaned sentence) and
#: what it is written as, in the order ``spoken._RESTORE`` tries them (after its own).
TEXTED: list[tuple[str, str | Callable[[re.Match[str]], str]]] = [
    # "Work for Deloitte now", "Speak a bit of German as well these days", "Drink coffee in
    # the mornings now": a base verb (an irregular one, or one the profile asks a
    # person's attributes with: "Where do they work?") and a time that says it holds
    # now (a bare "now" after a name), is a habit or replaced another ("instead"): the
    # speaker's present, "I" dropped. Not an order: no "you", "me", "please" nor a
    # pronoun for its object ("Do it now"); not a noun subject ("Work is mad these days",
    # "Spin got cancelled tonight, so I ran instead": a finite verb follows in the clause).
    (r"^(?=(?:" + "|".join(sorted(PRESENT_VERBS)) + r")\s+(?!(?:it|this|that|them|"
     r"something|anything|up)\b)(?![^,;]*\b(?:is|are|was|were|has|have|had|will|would|"
     r"can|could|got|gets|you|your|me|us|please)\b)[^,;]*?(?:\b(?:these days|nowadays|as well|too|"
     r"instead|every\s+\w+|on\s+\w+days|at\s+weekends|in\s+the\s+(?:mornings|evenings)|"
     # (a bare "now" with a name before it: "Go to bed now" is an order)
     r"since\s+\w+)\b|\s(?-i:[A-Z])[^,;]*?(?<!from )(?<!for )(?<!right )(?<!just )\bnow\b"
     r"(?!\s+on\b)))", "I "),
    # "Guess who works at Lidl now!", "Guess who's a homeowner": the speaker, told as a
    # riddle; its verb said of "I".
    (r"^guess\s+who(?:'s|\s+is)\s+", "I am "),
    (r"^guess\s+who\s+(?P<v>[a-z]+s)\b", lambda m: f"I {_base_of(m['v'])}"),
    # "Member of PureGym since January", "Part of the Lidl team now": the speaker's
    # belonging, "I am (a)" dropped; not the subject of a verb ("Member of staff said no").
    (r"^(?:member|fan|supporter|customer|client|patient|student|volunteer|regular)\s+"
     r"(?=(?:of|at|with)\s+(?![^,;]*\b(?:is|are|was|were|has|have|had|will|would|said|"
     r"told|says|thinks)\b))", "I am a \\g<0>"),
    (r"^part\s+(?=of\s+(?:the\s+)?[\w'&-]+(?:\s+[\w'&-]+)?\s+(?:team|club|crew|staff|"
     r"family|group|band|choir|squad|committee|board)\b(?![^,;]*\b(?:is|are|was|were|has|"
     r"have|had|will|would)\b))", "I am \\g<0>"),
    # "Vegan now", "Married these days", "Retired as of May": a standing of the speaker's
    # (the closed class of diets and civil and working states) and the present, "I am"
    # dropped.
    (r"^(?:(?:full|fully|totally|completely|officially|strictly|finally)\s+)?(?:"
     + "|".join(sorted(STATUSES | set(STATES))) + r")\b(?=[\s,]+(?:now|these days|nowadays|"
     r"as of)\b)", "I am \\g<0>"),
    # "Put in my notice at Tesco", "Set up my own business", "Cut out our takeaways": a
    # past the same as its base, "I" dropped; the speaker's "my" says it is no order (an
    # order to the listener would say "your").
    (r"^(?=(?:put|set|cut|shut)\s+(?:(?:in|up|out|down|off|back|aside)\s+)?(?:my|our)\b)",
     "I "),
    # "Gone fully vegan since the summer", "Went veggie in May", "Turned pescatarian": a
    # diet taken up, "I have" dropped (the diets of ``DIETS``).
    (r"^(?:gone|went|turned)\s+(?=(?:(?:full|fully|totally|completely|strictly|mostly)\s+)?"
     r"(?:" + "|".join(sorted(DIETS)) + r")\b)", "I have gone "),
    # "Done with Asda", "Through with the gym": the speaker's ending, told by the state
    # it leaves them in, "I am" dropped.
    (r"^(?:done|through|finished)\s+with\s+(?!(?:it|that|this|you|them)\b)", "I am \\g<0>"),
    # "Three months at Lidl now", "A year in Leeds already": how long the speaker has been
    # where they are now, "I have been" dropped; the span after the place.
    (r"^(?P<span>" + SPAN + r")\s+(?P<prep>at|in|with)\s+(?P<place>(?:the\s+)?(?-i:[A-Z])"
     r"[^,;]*?)\s+(?P<now>now|already|so far)\b",
     "I have been \\g<prep> \\g<place> for \\g<span> \\g<now>"),
    # "Two weeks into the new job": how far the speaker is into it, "I am" dropped.
    (r"^(?=" + SPAN + r"\s+into\s+(?:the|my)\b)", "I am "),
]
