"""What opens a sentence before its subject, and a subject that is no holder.

A sentence's first word is capitalised because it starts the sentence, not because it is a
name: "Turns out I'm lactose intolerant", "Honestly the Peugeot has been great", "Instead
of the Tube I cycle in now", "Mum thinks I'm mad but I've taken up boxing", "Monday was my
first day at the library" are all the speaker's statements, and ``holders.holder_of`` read
their first word ("turns", "honestly", "instead", "mum", "monday") as the holder, so no gate
linked them to what the speaker had said before. Here the subject is found past what
opens a sentence (:func:`from_subject`): a discourse marker or a stance adverb, a time, a
phrase of place, cause or manner before "I"/"we", another's opinion the speaker sets
aside ("X thinks ..., but I ..."). And a bare noun that names no one, told as the subject
("Home is a narrowboat now", "Work's mostly from home", "Weekends are for climbing now"),
is the speaker's attribute told without "I" (:func:`speakers_subject`).

What is a person or an animal, a time, an attribute, is the lexicon's knowledge of nouns
(``index.lexicon``: WordNet's nouns); without it, a bare noun subject stays the holder
it was. Days and parts of the day are a closed class. A name stays a name:
"Rover is gone", "Tom's working at Lidl now", "Biscuit is on a raw diet" (a noun but no
attribute), "Summer is a nurse now" (a person said to be what a person is). Pure
functions over texts.
"""

from __future__ import annotations

import re

from index import RELATIONS, lexicon

from .irregular import DISTINCT_PASTS

__all__ = ["from_subject", "speakers_subject", "names_no_one", "person_acts", "done_to_speaker",
           "new_thing", "subject_dropped", "speakers_news"]

#: Discourse markers and stance adverbs: a closed class of English that opens a sentence
#: and is never its subject ("Long story short, ...", "Turns out ...", "Good news: ...").
_MARKER = (r"(?:yeah|yep|yup|yes|no|nope|nah|oh|ah|ok|okay|right|well|so|anyway|anyhow|"
           r"alright|hey|um|erm|er|and|but|also|plus|still|honestly|frankly|basically|"
           r"apparently|actually|luckily|sadly|thankfully|fortunately|unfortunately|"
           r"hopefully|obviously|seriously|literally|personally|annoyingly|weirdly|oddly|"
           r"funnily\s+enough|strangely\s+enough|long\s+story\s+short|(?:it\s+|as\s+it\s+)?"
           r"turns\s+out|fun\s+fact|(?:some\s+)?(?:good|bad|big|great|exciting|sad|happy|"
           r"quick)\s+news|(?:quick\s+|small\s+|little\s+)?update|guess\s+what|"
           r"between\s+you\s+and\s+me|by\s+the\s+way|btw|as\s+it\s+happens|to\s+be\s+honest|"
           r"tbh|in\s+the\s+end|truth\s+be\s+told|believe\s+it\s+or\s+not|mind\s+you|"
           r"to\s+be\s+fair|for\s+the\s+record|as\s+for\s+me|me\s+personally|"
           r"at\s+the\s+end\s+of\s+the\s+day|all\s+in\s+all|(?:in\s+)?other\s+news|"
           r"you\s+know\s+what|if\s+you\s+must\s+know)")
_OPENER = re.compile(rf"^{_MARKER}\b(?:\s*[,:;!.-]+)?\s+(?=\S)", re.I)
#: A stance adverb of any word ("Surprisingly, ...", "Weirdly the ..."): a word in -ly the
#: lexicon knows no noun of, before a comma or the subject ("Emily works ..." is a name).
_LY = re.compile(r"^(?P<w>[A-Za-z]+ly)\b(?:\s*,)?\s+(?=(?:i|we|my|our|the|it|this)\b)", re.I)
#: A phrase of place, time, cause, manner or company before the subject "I" or "we":
#: "Instead of the Tube I cycle", "With the baby here I work part-time", "Without the car,
#: I cycle everywhere", "After the operation I only work three days".
_PHRASE = re.compile(
    r"^(?:instead\s+of|rather\s+than|with|without|after|since|before|despite|because\s+of|"
    r"thanks\s+to|now\s+that|what\s+with|for|from|at|in|on|during|until|till|by|over|"
    r"following|given|as\s+of|these\s+days|nowadays|lately|these\s+past|for\s+now|right\s+now|"
    r"most\s+(?:days|mornings|evenings|nights|weekends))\b[^.!?;:]{0,48}?,?\s+"
    r"(?=(?-i:I)(?:'[a-z]+)?\s|we(?:'[a-z]+)?\s)", re.I)
#: Another's opinion or reaction the speaker sets aside: "Mum thinks I'm mad but I've
#: taken up boxing", "My brother laughed at me, but I've swapped ...", "Dad says it's too
#: loud, but I play the drums now": the statement is the clause after "but".
_ASIDE = re.compile(
    r"^(?:[\w'-]+\s+){1,3}?(?:thinks?|thought|says?|said|reckons?|reckoned|laughed|laughs|"
    r"joked|jokes|teased|teases|moaned|moans|complained|complains|worries|worried|"
    r"warned|warns|keeps?\s+telling\s+me|told\s+me|tells\s+me|hates?\s+it|hated\s+it|"
    r"isn't\s+(?:happy|keen|impressed|thrilled)|wasn't\s+(?:happy|keen|impressed|thrilled)|"
    r"disagrees|disagreed|doesn't\s+(?:approve|get\s+it)|didn't\s+(?:approve|get\s+it)|"
    r"was\s+(?:horrified|appalled|shocked|furious)|is\s+(?:horrified|appalled|shocked|furious))"
    r"\b[^.!?;]*?,?\s+but\s+(?=(?-i:I)(?:'[a-z]+)?\s|we(?:'[a-z]+)?\s)"
    r"(?!(?:i|we)\s+(?:don't|do\s+not|doubt|disagree|think|reckon)\b)", re.I)
#: Another's act whose object is the speaker: "Barclays transferred me to their Doncaster
#: branch", "They made me ward manager", "My sister talked me into rowing", "Superdrug took
#: me on": what changed is the speaker's (where they work, what they do). Not what one
#: says or sends to the speaker ("Tom told me he's moving", "Mum rang me from Spain"): a
#: verb of causing, placing or giving, after a subject of at most four words; not a stay
#: or an outing another gives ("My friend put me up in her flat in Brighton").
_DONE_TO_SPEAKER = re.compile(
    r"^(?!(?:i|we)\b)(?:[\w&'.-]+\s+){1,4}?(?:(?:has|have|had|just|finally|now|also)\s+)*"
    r"(?:moved|moves|transferred|transfers|put|puts|placed|places|made|makes|took|takes|"
    r"taken|got|gets|set|sets|talked|talks|offered|offers|gave|gives|promoted|promotes|"
    r"hired|hires|sold|sells|switched|switches|signed|signs|enrolled|enrols|registered|"
    r"booked|pushed|pushes|bumped|bumps|asked|convinced|persuaded|roped|let|lets|"
    r"appointed|assigned|posted|sent\s+(?:me|us)\s+(?:to|over)|poached|recruited|"
    # a giving or a placing of another's, the speaker its object ("The club's handed me the
    # under-12s", "They've given me Year 6", "the dealership swapped me into an i20")
    r"handed|hands|given|allocated|allotted|swapped|stuck|shifted|relocated|redeployed|"
    r"reassigned|dragged|drafted|rostered|"
    r"switched|upgraded|kicked|bumped)\s+(?:me|us)\b(?!\s+(?:a\s+)?(?:text|message|email|"
    r"call|letter|card|photo|picture|link|video)\b)"
    # a stay or an outing another gives ("put me up in her flat", "took us out for
    # dinner", "let me stay"): no change of the speaker's
    r"(?!\s+(?:out|along|round|around|back|home|stay|borrow|use|to\s+(?:the\s+)?"
    r"(?:airport|station|pub|cinema|beach|dinner|lunch))\b)", re.I)
_HOSTED = re.compile(r"\b(?:put|puts)\s+(?:me|us)\s+up\b", re.I)
#: The same giving told with "to me" after the thing: "The club handed the under-12s to me
#: this season", "Mum passed her old Clio on to us".
_GIVEN_TO_SPEAKER = re.compile(
    r"^(?!(?:i|we)\b)(?:[\w&'.-]+\s+){1,4}?(?:(?:has|have|had|just|finally|now|also)\s+)*"
    r"(?:handed|gave|given|passed|allocated|allotted|assigned|sold|lent|left)\s+"
    r"(?:the|a|an|his|her|their|its|some)\s+[^,;.!?]{1,40}?\s+(?:(?:on|over|down|back)\s+)?"
    r"to\s+(?:me|us)\b", re.I)
#: A thing called new (or the speaker's now) opening a sentence: "The new flat in Leith
#: has a view", "New job at Sainsbury's since Monday": a thing of the speaker's.
_NEW_THING = re.compile(r"^(?:the\s+)?(?:brand[\s-]+)?new\s+(?P<n>[a-z][\w-]*)\b", re.I)
#: A verb of the speaker's said without its subject, a form of "get", "be" or "have" that
#: opens a sentence ("Got engaged to Marcus", "Been working out of the Bristol office").
_AUXILIARY_FIRST = re.compile(r"^(?:got|gotten|getting|been|being|had|having|started|"
                              r"starting|finished|just\s+(?:got|been|had|[a-z]+ed))\b", re.I)

#: A cleft sentence whose focus is the speaker's value: "It's Japanese I'm learning now",
#: "it's Superdrug I'm with now": the speaker's statement.
_CLEFT = re.compile(r"^(?:it's|it\s+is)\s+(?!(?:not|like|just|only|because|why|how|what|"
                    r"that|so|as|true|funny|weird|odd|strange|hard|easy|nice|great|good)\b)"
                    r"[^,;.!?]{1,40}?\s+(?:that\s+|which\s+)?(?:i|we)"
                    r"(?:'m|'re|'ve|\s+am|\s+are|\s+have)?\s+[a-z]+", re.I)
#: The speaker's first spell somewhere, told without "my": "First week at Lidl done",
#: "First shift at the garden centre tomorrow".
_FIRST_SPELL = re.compile(r"^(?:first|1st)\s+(?:full\s+)?(?:day|week|fortnight|month|shift|"
                          r"term|year|night|morning|lesson|session)s?\s+(?:at|in|as|with|on)\b",
                          re.I)
#: A change of the speaker's told as a noun of an event with its value: "The move to
#: Walthamstow went smoothly", "the switch to Giffgaff took ten minutes".
_EVENT_TO = re.compile(r"^(?:the|my|our)\s+(?:big\s+|recent\s+)?(?P<n>[a-z]+)\s+"
                       r"(?:to|into|over\s+to|across\s+to)\s+(?-i:[A-Z])", re.I)
#: A short verbless phrase set before the subject "I"/"we" by a comma: "Keys in hand, we
#: finally own a house", "Coffee in hand, I ...".
_SET_BEFORE = re.compile(r"^(?P<w>[A-Za-z]+)(?:\s+[a-z]+){0,3},\s+(?=(?-i:I)(?:'[a-z]+)?\s|"
                         r"we(?:'[a-z]+)?\s)")

#: A time of one or two words before the subject "I"/"we" or the speaker with another
#: ("Mornings I swim ...", "Wednesday nights my brother-in-law and I play padel now").
_TIME_FIRST = re.compile(
    r"^(?P<w>[A-Za-z]+)(?:\s+(?P<w2>[A-Za-z]+))?\s*,?\s+(?=(?-i:I)(?:'[a-z]+)?\s|we\s|"
    r"(?:my|our|the)\s+(?:[\w-]+\s+){0,2}?[\w-]+\s+and\s+(?:I|me)\b|"
    r"(?-i:[A-Z])[a-z]+\s+and\s+(?:I|me)\b|me\s+and\s)")
#: Days of the week and parts of the day.
_TIMES = re.compile(r"(?:mon|tues|wednes|thurs|fri|satur|sun)days?|mornings?|evenings?|"
                    r"nights?|afternoons?|weekends?|weekdays?", re.I)
#: The kinds of what a person has or does that a bare noun subject may name: where one
#: lives ("Home is ..."), one's work, a meal of the day.
_ATTRIBUTE_KINDS = ("dwelling", "occupation", "activity", "meal")
#: What a person or an animal is (a bare noun subject of one of these is a holder).
_BEINGS = ("person", "animal")


def from_subject(sentence: str) -> str:
    """``sentence`` from its subject on, past what opens it (a marker, a stance adverb, a
    time or a phrase before "I"/"we", another's opinion set aside before "but I"):
    "Long story short, I live in Glasgow now" -> "I live in Glasgow now"; "Mum thinks I'm
    mad but I've taken up boxing" -> "I've taken up boxing". Unchanged when nothing opens
    it, or what follows is no sentence left."""
    s = sentence.strip()
    for _ in range(4):
        rest = _strip_one(s)
        if rest is None or not rest.strip():
            break
        s = rest
    return s


def _strip_one(s: str) -> str | None:
    if m := _OPENER.match(s):
        # "So my sister ...", "No one ..." and "Well is ..." stay: a marker is no subject
        # only when what follows can be one.
        rest = s[m.end():]
        said = s[:m.end()].strip().lower()
        # "No football for me", "Still vegan", "Right now ...": a determiner or an adverb
        # of the clause, not a marker, unless set apart by a comma or a stop
        bare = re.fullmatch(r"(?:no|still|right)", said) is not None
        if not bare and not re.match(r"(?:is|are|was|were|has|have|one|more|longer)\b",
                                     rest, re.I):
            return rest
    if (m := _LY.match(s)) and not _noun(m["w"]):
        return s[m.end():]
    if (m := _PHRASE.match(s)) and not _choice_told(s[:m.end()], s[m.end():]):
        return s[m.end():]
    if m := _ASIDE.match(s):
        return s[m.end():]
    if (m := _SET_BEFORE.match(s)) and _noun(m["w"]) and not _being(m["w"]) and \
            m["w"].lower() not in RELATIONS:
        return s[m.end():]      # "Keys in hand, we ...": a thing first, no subject
    if (m := _TIME_FIRST.match(s)) and _time(m["w"]) and (m["w2"] is None or _time(m["w2"])):
        return s[m.end():]      # "Mornings I swim at the lido now", "Wednesday nights my
        # brother-in-law and I play padel now"
    return None


def _choice_told(phrase: str, rest: str) -> bool:
    """Whether an "instead of"/"rather than" phrase of a doing opens a clause told in the
    past: a choice in a story ("Instead of giving up, I turned it into a lesson"), no value
    the speaker holds now in place of another ("Instead of driving, I cycle in now"); the
    sentence keeps what opens it, and no gate reads it as the speaker's change."""
    if not re.match(r"(?:instead\s+of|rather\s+than)\s+\w+ing\b", phrase, re.I):
        return False
    m = re.match(r"(?:I|we)\s+(?:\w+ly\s+|just\s+|then\s+|still\s+)?(?P<v>[a-z]+)", rest,
                 re.I)
    return m is not None and (m["v"].lower().endswith("ed") or m["v"].lower() in DISTINCT_PASTS)


def names_no_one(word: str) -> bool:
    """Whether a capitalised first word is no holder: a discourse marker or a time
    ("Nope", "Monday", "Mornings"). Any other word may be a name ("Biscuit", "Rose")."""
    low = word.lower()
    return low not in RELATIONS and (re.fullmatch(_MARKER, low, re.I) is not None or
                                     _time(low))


def speakers_subject(sentence: str) -> bool:
    """Whether ``sentence`` opens on a bare noun that names the speaker's attribute, no
    one's name: a time said of the speaker ("Monday was my first day at the library",
    "Weekends are for climbing now"), or a place, work or meal told as the subject ("Home
    is a narrowboat now", "Work's mostly from home", "Lunch is a salad these days"). Not a
    name ("Biscuit is on a raw diet": a noun, but no attribute's), nor a person said to be
    what a person is ("Summer is a nurse now")."""
    m = re.match(r"^(?P<w>(?-i:[A-Z])[a-z]+)(?P<t>\s+[a-z]+)?(?P<v>'s|\s+(?:is|are|was|were|"
                 r"has\s+been|have\s+been))\s+(?P<rest>.*)$", sentence.strip(), re.I)
    if m is None:
        return False
    word, rest = m["w"].lower(), m["rest"]
    if m["t"]:
        # "Saturday mornings are parkrun now": a time of two words, none else
        return _time(word) and _time(m["t"].strip()) and m["t"].strip().endswith("s")
    if _time(word):
        return word.endswith("s") or re.search(r"\b(?:my|our|me|us)\b", rest, re.I) is not None
    if word in RELATIONS or _being(word) or word.endswith("ing"):
        # (a gerund told as the subject describes the doing: "Dancing is like second nature
        # to me", "Writing has always been my escape", no value said in place of "I")
        return False
    lex = lexicon()
    if lex is None or not any(lex.is_a(word, kind) for kind in _ATTRIBUTE_KINDS):
        return False
    # "Summer is a nurse now": what it is said to be is a person, so it is one.
    said = re.match(r"(?:now\s+|still\s+)?(?:an?|the)\s+(?:[\w-]+\s+){0,2}?(?P<n>[a-z-]+)\b",
                    rest, re.I)
    return not (said and _being(said["n"]))


def _noun(word: str) -> bool:
    lex = lexicon()
    return lex is not None and bool(lex.kinds(word.lower()))


def _being(word: str) -> bool:
    lex = lexicon()
    return lex is not None and any(lex.is_a(word.lower(), kind) for kind in _BEINGS)


def _time(word: str) -> bool:
    """A day of the week or a part of the day: a closed class (not a month or a season,
    names as often: "June's moved to Spain", "Summer is a nurse now")."""
    return _TIMES.fullmatch(word) is not None


#: A person's present act after them: "Grandad drives a Tesla now", "my sister works at
#: Boots", "Danny plays in a band": the verb in -s, then what it takes.
_ACTS = re.compile(r"^(?:(?:my|our|the)\s+)?(?P<p>[A-Za-z][\w-]*)\s+(?:now\s+|still\s+|also\s+|"
                   r"just\s+|only\s+)?(?P<v>[a-z]+(?<!ss)s)\s+(?P<o>a|an|the|my|his|her|their|"
                   r"at|in|for|to|with|on|from|into|near|by)\b", re.I)
#: The verbs a person's attributes are told with: after a word the lexicon does not know
#: (a name, or a brand: "Pilates sessions on Mondays"), one of these says it is a name.
_HOLDING_VERBS = frozenset("""works lives drives rides plays teaches studies goes runs uses
banks shops swims trains eats drinks rents owns has""".split())


def person_acts(clause: str) -> bool:
    """Whether ``clause`` opens on a person or an animal doing something, its verb in -s
    ("Grandad drives a Tesla now", "Tom works at Lidl now"): a clause, never a fragment
    without a verb ("Yoga classes on Tuesdays now": a thing first). A person is a kin
    word, or a capitalised first word the lexicon knows no noun of (or knows as a
    person) told with a verb of what a person holds (:data:`_HOLDING_VERBS`) or before a
    determiner; without the lexicon, a kin word only."""
    m = _ACTS.match(clause.strip())
    if m is None:
        return False
    word = m["p"].lower()
    if word in RELATIONS:
        return True
    return m["p"][0].isupper() and clause.strip().split()[0] == m["p"] and \
        lexicon() is not None and (not _noun(word) or _being(word)) and \
        (m["v"].lower() in _HOLDING_VERBS or m["o"].lower() in ("a", "an", "the", "my",
                                                                 "his", "her", "their"))


def done_to_speaker(sentence: str) -> bool:
    """Whether ``sentence`` tells another's act done to the speaker, which changes the
    speaker's attribute (:data:`_DONE_TO_SPEAKER`): "Head office have moved me up to the
    Birmingham branch", "My son set me up with a Samsung Galaxy"."""
    s = sentence.strip()
    return (_DONE_TO_SPEAKER.match(s) is not None or _GIVEN_TO_SPEAKER.match(s) is not None) \
        and not _HOSTED.search(sentence)


def new_thing(sentence: str) -> bool:
    """Whether ``sentence`` opens on a thing called new ("The new flat in Leith has a
    view", "New job at Sainsbury's since Monday"): the speaker's; not a person called so
    ("The new manager is Priya", "the new neighbours have a dog"); without the lexicon,
    which cannot tell a person's word, none."""
    m = _NEW_THING.match(sentence.strip())
    return m is not None and m["n"].lower() not in RELATIONS and lexicon() is not None and \
        not _being(m["n"])


def subject_dropped(sentence: str) -> bool:
    """Whether ``sentence`` opens on the speaker's verb, its subject dropped, a form of
    "get", "be", "have", a start or an end ("Got engaged to Marcus", "Been working out of
    the Bristol office", "Just finished my first day"): the speaker's."""
    return _AUXILIARY_FIRST.match(sentence.strip()) is not None


def speakers_news(sentence: str) -> bool:
    """Whether ``sentence`` tells the speaker's news without naming them: a cleft on the
    speaker's value ("It's Japanese I'm learning now"), their first spell somewhere
    ("First week at Lidl done"), a change told as an event noun with its value ("The move
    to Walthamstow went smoothly"; the lexicon's events only, no person)."""
    s = sentence.strip()
    if _CLEFT.match(s) or _FIRST_SPELL.match(s):
        return True
    m = _EVENT_TO.match(s)
    lex = lexicon()
    return m is not None and m["n"].lower() not in RELATIONS and lex is not None and \
        bool(lex.is_a(m["n"], "event")) and not _being(m["n"])
