"""Which of a person's attributes a first-person sentence is about: its slot.

The keyed rules (``rules.py``) name an attribute by the shape of a sentence ("I live in X",
"my manager is X"); everyday statements of a change name it by its words instead: "Just
got the keys to our new house in Walthamstow" is about where the speaker lives as much as
"I rent a flat in Camden" is, and "We're with Octopus now" after "our gas and electricity
come from British Gas" is about the energy supplier. A slot is an attribute and the words
that say a sentence is about it (residence: live, house, flat, rent...; commute: "to work",
"to the office"...). Two statements of the speaker's about one slot, the newer with a
change cue, are the old value and the new one (:func:`slot_target`).

A slot is *single* when a person has one value at a time (a home, a job, a bank, a
partner): a weak cue ("now", "these days", "started") is enough to replace it. Others (a
drink, a sport, a pet, a subscription) add up: only a strong cue ("switched", "quit",
"instead") replaces one. The words are the attribute's, never a case's values. Pure
functions over texts.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from index import RELATIONS, terms

from .facts import CARERS, HIRED, WORKPLACES
from .holders import UNKNOWN, by_order, holder_of, same_holder, subject_first
from .updates import FACT_WORDS, ROLE_BEGUN, Memory, first_person, is_event, keys_of

__all__ = ["Slot", "SLOTS", "slots_of", "slot_target", "slot_keys", "single_slot", "adds_up",
           "another_value",
           "same_slot",
           "owner", "HIRED",
           "PEOPLE", "names_of"]


@dataclass(frozen=True)
class Slot:
    name: str
    words: re.Pattern[str]
    #: One value at a time: a weak change cue replaces it.
    single: bool
    #: The keys of the rules' attributes it is (``restated.restate`` says a new value the
    #: way they do), most specific first.
    keys: tuple[str, ...] = ()


def _slot(name: str, words: str, single: bool, *keys: str) -> Slot:
    return Slot(name, re.compile(words, re.I), single, keys)


#: "I am a producer at Channel 4": a role and where, both the occupation and the employer.
_ROLE_AT = (r"^(?:i|we)\s+(?:am|are)\s+(?:now\s+)?(?:a|an)\s+(?:\w+\s+){0,3}(?:at|for|with)\s+"
            r"(?-i:[A-Z])")

#: The attributes, each with the words that say a sentence is about it.
SLOTS: tuple[Slot, ...] = (
    _slot("residence", r"\b(?:i|we)\s+(?:\w+\s+){0,2}(?:live|lives|living|reside)\b|"
          r"\bbased\s+in\b|\b(?:moved|relocated|emigrated)\s+(?:back\s+)?(?:to|into)\b|"
          r"\b(?:rent|renting|own|bought|buying)\s+(?:a|an|our|my)\s+(?:[\w-]+\s+){0,2}"
          r"(?:flat|house|home|apartment|condo|place|studio|cottage|bungalow|semi|terrace|"
          r"maisonette|townhouse|duplex)\b|\b(?:lease|tenancy)\s+(?:on|for)\s+(?:a|an|the|our|my)\s+"
          r"(?:new\s+)?(?:[\w-]+\s+){0,2}(?:flat|house|home|apartment|condo|place|studio|"
          r"cottage|bungalow|semi|terrace|maisonette|townhouse|duplex)\b(?!\s+for\s+(?!me|us))|"
          r"\b(?:my|our)\s+(?:new\s+)?(?:flat|house|home|apartment|condo|studio|cottage|"
          r"bungalow)\s+(?:in|on|near|by)\b|\bkeys\s+to\b|\bmoved\s+(?:house|home|out|in\s+with)\b|"
          r"\brent(?:ing)?\s+in\b",
          True, "fact:location"),
    # "based at" a branch or an office is where one works ("They've moved me to the Ripon
    # branch": "I am based at the Ripon branch now", ``undergone.py``); "based in" a town
    # may be a home too.
    _slot("employer", r"\bwork(?:s|ing|ed)?\s+(?:at|for|in)\b(?!\s+(?:home|night|weekends|"
          r"the\s+(?:garden|weekend|moment|evening)))|"
          r"\bjob\s+(?:at|with)\b|\bemploy(?:ed|er)\b|\bhired\b|\bbased\s+at\b|"
          r"\blast\s+day\s+at\b|\bstart(?:s|ed|ing)?\s+at\s+(?-i:[A-Z])|"
          r"\b(?:joined|left)\s+(?-i:[A-Z])|" + ROLE_BEGUN + "|" + HIRED + "|" + _ROLE_AT,
          True, "fact:employer"),
    _slot("occupation", r"\bwork(?:s|ing|ed)?\s+as\b|\bjob\s+as\b|" + HIRED + "|"
          r"\b(?:promoted|retrained|qualified\s+as|for\s+a\s+living|career|profession)\b|"
          r"\b(?:bumped|moved|stepped)\s+up\s+to\b|" + ROLE_BEGUN + "|"
          + _ROLE_AT, True, "fact:occupation"),
    _slot("commute", r"\bcommut\w*|\b(?:to|into)\s+(?:work|the\s+office|my\s+office)\b|"
          r"\bwork(?:s|ing)?\s+(?:from\s+home|remotely)\b|\b(?:go|went|gone)\s+(?:fully\s+)?"
          r"remote\b", True),
    # "Under <Name>" at work is whom one reports to: "I work under Declan", "I've been
    # moved under Declan" (a person's name: "under pressure", "under the bridge" are not).
    _slot("manager", r"\b(?:manager|boss|supervisor|line\s+manager|team\s+lead(?:er)?|"
          r"report(?:s|ing)?\s+to|"
          r"(?-i:under\s+(?!The\b|A\b|My\b|Our\b)[A-Z][a-z]+\b(?!\s+[A-Z])))\b",
          True, "fact:manager"),
    _slot("partner", r"\b(?:boyfriend|girlfriend|husband|wife|partner|fianc[ée]e?|"
          r"dating|seeing\s+(?:someone|somebody|a\s+(?!" + CARERS + r"\b)\w+|(?-i:[A-Z]))|"
          r"married|engaged|"
          r"divorced|separated|single|together)\b", True),
    _slot("vehicle", r"\b(?:drive|drives|driving)\s+(?:a|an|the|my)\b|\bcar\b|"
          r"\b(?:motorbike|motorcycle|scooter|moped|e-?bike)\b", True, "fact:car"),
    _slot("sleep", r"\b(?:go(?:es)?|went|get|gets)\s+to\s+bed\b|\bbedtime\b|"
          r"\b(?:wak\w*|get|gets|getting|got)\s+up\s+at\b", True),
    _slot("phone", r"\b(?:iphone|android|smartphone|(?:my|an?|the)\s+phone)\b"
          r"(?!\s+(?:contract|plan|network|provider|bill|number))", True, "fact:phone"),
    _slot("mobile plan", r"\b(?:phone|mobile)\s+(?:contract|plan|network|provider|tariff)\b|"
          r"\bmobile\s+contract\b|\bsim(?:\s+only)?\b|\bcarrier\b", True),
    _slot("bank", r"\bbank(?:s|ing)?\s+(?:with|at)\b|\b(?:current|savings|checking)\s+"
          r"account\b|\b(?:my|our)\s+(?:bank|account)\b|\bbank\s+account\b", True),
    _slot("internet", r"\b(?:broadband|internet|wi-?fi|fibre|fiber)\b", True),
    _slot("energy", r"\b(?:energy|electricity|electric|gas)\s+(?:supplier|provider|company|"
          r"tariff|bill)\b|\bgas\s+and\s+electric(?:ity)?\b|\benergy\b", True),
    # "practice" the noun ("the practice moved me onto ..."), not the verb ("an app to
    # practice", "I practice scales"): after a determiner or a modifier only.
    _slot("doctor", r"\b(?:gp|doctor|physician|(?:(?:the|my|our|a|new|medical|local|"
          r"family)\s+)practice)\b(?!\s+(?:told|said|says|thinks))",
          True),
    _slot("dentist", r"\bdentist\b", True),
    _slot("school", r"\b(?:school|academy|nursery|kindergarten|college|university|uni)\b",
          True),
    _slot("diet", r"\b(?:vegan|vegetarian|pescatarian|plant-based|keto|paleo|"
          r"gluten-free|dairy-free|(?:eat|eats|eating)\s+(?:meat|fish|dairy|eggs|animal)|"
          r"diet)\b", True),
    _slot("hair", r"\bhair\b", True),
    _slot("shift", r"\b(?:night|day|early|late|evening|weekend)\s+shifts?\b|\bshifts?\b|"
          r"\b(?:work(?:s|ing)?|on)\s+(?:nights|days|lates|earlies|weekends)\b", True),
    _slot("smoking", r"\b(?:smok\w*|cigarettes?|vap(?:e|es|ing))\b", True),
    _slot("drink", r"\b(?:coffee|tea|espresso|latte|lattes|cappuccino|flat\s+whites?|decaf|"
          r"caffeine|matcha|americano|mocha|milk|cups?\s+(?:of|a\s+day))\b", False),
    _slot("exercise", r"\b(?:gym|spin|yoga|pilates|swim\w*|running|run|jog\w*|cycling|"
          r"climbing|bouldering|football|tennis|squash|rowing|crossfit|workouts?)\b", False),
    _slot("pet", r"\b(?:dog|cat|puppy|kitten|rabbit|hamster|guinea\s+pig|goldfish|fish|"
          r"parrot|budgie|tortoise|pet)\b", False),
    _slot("subscription", r"\b(?:subscri\w+|streaming|membership)\b", False),
    _slot("study", r"\b(?:learning|studying|lessons|course|degree|classes)\b", False),
    _slot("instrument", r"\b(?:piano|guitar|violin|cello|drums|bass|flute|saxophone|"
          r"trumpet|ukulele|choir|band)\b", False),
)

_BY_NAME = {slot.name: slot for slot in SLOTS}


#: A relative clause about a person ("a guy called Tom who works in IT", "my aunt, whose
#: flat is in Leeds"), to the next comma or the end: what it says is that person's.
_ABOUT_SOMEONE = re.compile(r"(?:,\s*|\s+)(?:who|whose)\b[^,;]*", re.I)


@lru_cache(maxsize=50_000)
def slots_of(sentence: str) -> frozenset[Slot]:
    """The slots a first-person sentence (``rules.clean``ed, or a memory read back by
    ``updates.first_person``) is about; not those only a relative clause about another
    person is about ("I'm seeing a guy called Tom who works in IT" is no job of the
    speaker's: a crowd turn "I lost my job at ..." replaced it)."""
    sentence = _ABOUT_SOMEONE.sub("", sentence)
    found = frozenset(slot for slot in SLOTS if slot.words.search(sentence))
    if _TO_WORKPLACE.search(sentence):
        # "I moved to the Leeds branch": where one works, not where one lives.
        found = found - {_BY_NAME["residence"]} | {_BY_NAME["employer"]}
    return found


def slot_keys(sentence: str, old: str, who: str) -> tuple[str, ...]:
    """The keys of the slots ``sentence`` (first person) and the memory ``old`` of
    ``who``'s are both about."""
    said = first_person(old, who)
    both = slots_of(sentence) & slots_of(said[0]) if len(said) == 1 else frozenset()
    return tuple(key for slot in SLOTS if slot in both for key in slot.keys)


def another_value(thing: str, said: str) -> bool:
    """Whether ``thing`` (what a statement ends: "the piano lessons") and a first-person
    memory (``said``: "I play the cello in the town orchestra") name two values of one
    attribute that adds up, by its words apart: one of many ended, not this one (a crowd
    turn "I stopped the piano lessons" replaced "loves learning about different
    cultures", lessons and learning both a study). Of a single-valued attribute the word
    is its kind ("sold my car" after "drives a Golf"), so never."""
    for slot in SLOTS:
        if slot.single:
            continue
        # The attribute's own name is no value of it: "the streaming stuff" and "a Netflix
        # subscription" name one subscription, not two.
        kind = _stems([slot.name])
        ended = _stems(slot.words.findall(thing)) - kind
        held = _stems(slot.words.findall(said)) - kind
        if ended and held and not ended & held:
            return True
    return False


def _stems(words: list[str]) -> set[str]:
    """The words' stems, cut to five letters: "swimming" and "swim", "subscription" and
    "subscribed" are one word."""
    return {stem[:5] for w in words for stem in terms(w)}


def single_slot(sentence: str) -> bool:
    """Whether ``sentence`` is about an attribute with one value at a time."""
    return any(slot.single for slot in slots_of(sentence))


def adds_up(sentence: str) -> bool:
    """Whether ``sentence`` is about attributes that add up only (a pet, a drink, an
    instrument): "I have a dog called Rex now" after "I have a cat" is one more."""
    found = slots_of(sentence)
    return bool(found) and not any(slot.single for slot in found)


def same_slot(sentence: str, said: str) -> bool:
    """Whether a memory (``said``, first person) may be the one a change of ``sentence``
    meant by similarity: unless both name slots by their words and none in common ("Sara
    and I are divorced now" is about a partner, not "we live in Leeds with our two kids":
    where the speaker lives)."""
    named, held = slots_of(sentence), slots_of(said)
    return not (named and held) or bool(named & held)


def _named_role(said: str, usable: set[Slot]) -> bool:
    """Whether a first-person memory names one of ``usable``'s roles as the speaker's, by
    the slot's own word ("my line manager is Priyanka": the speaker's manager, though
    ``holders`` reads its first word as the holder)."""
    m = re.match(r"^(?:my|our)\s+((?:[\w'-]+\s+){0,2}[\w'-]+)\s+(?:is|are)\b", said, re.I)
    return m is not None and any(slot.words.search(m[1]) for slot in usable)


def slot_target(sentence: str, holder: str, strong: bool, memories: Iterable[Memory],
                who: str, skip: Iterable[str] = ()) -> Memory | None:
    """The newest one-fact memory of ``holder``'s (``who``'s memories read back in the
    first person) about a slot ``sentence`` is about too: any such slot with a ``strong``
    change cue, a single one with a weak one. Past events ("we went to a concert") hold
    no value to replace."""
    usable = {slot for slot in slots_of(sentence) if strong or slot.single}
    if (m := _THING_MOVED.match(sentence)) and m["n"].lower() not in PEOPLE:
        # "My office moved to Brighton": the thing moved, not the speaker's home.
        usable = {slot for slot in usable if slot.name != "residence"}
    if not usable or _WHERE_SOMEONE_IS.match(sentence):
        return None
    avoid = set(skip)
    for memory in memories:
        if memory["id"] in avoid:
            continue
        said = first_person(memory["content"], who)
        if len(said) != 1 or len(said[0].split()) > FACT_WORDS or is_event(said[0]) or \
                not (same_holder(owner(said[0]), holder) or
                     holder == "" and _named_role(said[0], usable)):
            continue
        # Of the slot by its words, or by the key the rules give it ("I'm a teaching
        # assistant at a primary school" is the occupation, though no slot word says so).
        if slots_of(said[0]) & usable or \
                {k for slot in usable for k in slot.keys} & set(keys_of(memory["content"], who)):
            return memory
    return None


#: A thing of the speaker's that moved ("my office moved to ...", "our surgery has
#: relocated to ..."): the thing's place, no home of theirs (a person's is theirs: "my
#: sister moved to Leeds", read by the holder).
_THING_MOVED = re.compile(r"^(?:my|our|the)\s+(?:[\w'-]+\s+){0,2}?(?P<n>[\w'-]+)\s+"
                          r"(?:has\s+|have\s+|had\s+|just\s+|recently\s+|finally\s+)*"
                          r"(?:moved|relocated|is\s+moving|are\s+moving)\b", re.I)

#: A move to a place of work ("moved to the Leeds branch", "they've transferred me over to
#: our Glasgow office"): a workplace noun (``facts.WORKPLACES``) heads the destination (not
#: a place near one: "moved to a flat by the office" is a home).
_TO_WORKPLACE = re.compile(
    r"\b(?:mov|relocat|transferr?)(?:e|es|ed|ing)?\s+(?:(?:me|us)\s+)?(?:over\s+|across\s+)?"
    r"to\s+"
    r"(?:the|a|an|our|my|their|his|her)\s+(?:(?!(?:in|near|by|next|opposite|close|beside|"
    r"behind|above|over|under|with|of|at|to|from|the|a|an)\b)[\w'-]+\s+){0,3}?(?:" +
    "|".join(sorted(WORKPLACES)) + r")\b(?!\s*(?:'s|-))", re.I)


#: Who a "my X ..." sentence can be about besides the speaker: people and animals.
_PEOPLE = RELATIONS
PEOPLE = _PEOPLE


#: "My boss is on holiday now", "my son is at school now": where or how a person is at the
#: moment, not a new value of theirs.
_WHERE_SOMEONE_IS = re.compile(r"^(?:my|our)\s+(?:\w+\s+){0,2}?\w+\s+(?:is|are)\s+"
                               r"(?:still\s+|now\s+|currently\s+)?(?:on|in|at|away|off|out|"
                               r"sick|ill|busy|asleep|home|back|so|very|really)\b", re.I)


def owner(sentence: str) -> str:
    """Whose a first-person sentence is (``updates.holder_of``), a thing of the speaker's
    ("my gas and electricity come from ...", "our broadband provider is now ...") being
    the speaker's: only people and animals hold attributes of their own."""
    holder = holder_of(sentence)
    phrase = re.match(r"^(?:my|our)\s+((?:[\w'-]+\s+){0,2}[\w'-]+)", subject_first(sentence),
                      re.I)
    if holder and holder != UNKNOWN and phrase and not by_order(sentence) and \
            not {part for w in phrase[1].lower().split()
                 for part in re.sub(r"'s?$", "", w).split("-")} & _PEOPLE:
        return ""
    return holder


#: A capitalised word that names nothing of its own.
_NOT_NAMED = frozenset("""
i i'm i've i'd i'll we we're we've my our me us the a an it it's its this that these those
you you're your he he's his him she she's her they they're their theirs them
there here what when where why how if so and but or as then just also really well yes no oh
ok wow honestly anyway actually now today yesterday tomorrow monday tuesday wednesday
thursday friday saturday sunday january february march april may june july august
september october november december
""".split())
_WORD = r"[A-Za-z][\w'-]*"


def _names(text: str) -> set[str]:
    """The proper names a text holds: its capitalised words past the first, lower-cased."""
    return {w.lower() for w in re.findall(_WORD, text)[1:]
            if w[0].isupper() and w.lower() not in _NOT_NAMED}


names_of = _names


def named_target(sentence: str, memories: Iterable[Memory], who: str,
                 skip: Iterable[str] = ()) -> Memory | None:
    """The one one-fact memory of the speaker's whose name a change statement writes
    again while the speaker, in a clause of their own, names a new one ("Equinox got too
    pricey, I'm at Blink now" after "I work out at the Equinox"; "Deborah retired, so I'm
    under Kwesi now" after "my line manager is Deborah"). The old name alone, a new one in a
    clause about someone else ("Max has a new friend now, a kitten called Luna") or beside
    the old one ("I walk Max with Tom now") ends nothing; nor does a name two facts share."""
    own = {w.lower() for w in re.findall(_WORD, who)}
    first = re.match(rf"\s*({_WORD})", sentence)
    written = _names(sentence) | ({first[1].lower()} if first else set())
    # The names of each clause of the speaker's ("I'm at Blink now").
    mine = [_names(" " + clause) for clause in re.split(r"[,;:.!?]|\b(?:and|but|so)\b", sentence)
            if re.match(r"\s*(?:I|I'm|I've|we|we're|we've)\b", clause)]
    avoid = set(skip)
    found: list[Memory] = []
    for memory in memories:
        if memory["id"] in avoid:
            continue
        said = first_person(memory["content"], who)
        if len(said) != 1 or len(said[0].split()) > FACT_WORDS or is_event(said[0]) or \
                owner(said[0]):
            continue
        held = _names(said[0]) - own
        # The new name in a clause without the old one: "I walk Rex with Tom now" adds.
        if held & written and any(names - own and not names & held for names in mine):
            found.append(memory)
    return found[0] if len(found) == 1 else None
