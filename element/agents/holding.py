"""Whether a statement a finder by meaning (``meaning.by_meaning``, ``stale.change_target``,
``present.present_target``) matched with a stored fact speaks of the speaker's very holding
of that fact's value: the same relation to it, the thing itself, and the speaker still
its holder (issue 23: a false supersede takes a true fact out of recall).

A finder by meaning compares what two texts are about; a statement can be about the
memory's attribute or its thing without giving it a new value:

- **a permission, a loan or a repair**: "I let my son drive the Polo now", "my brother's
  borrowing the van", "the bike's in the shop for a new chain": the thing is still the
  speaker's (:func:`kept_meanwhile`);
- **a place used as a customer**: "I buy my groceries at Aldi now" is no new employer and
  no new home, though it answers "Where do they work?" as well as a move to Aldi would
  (:func:`as_customer`);
- **a person of the speaker's**: "has a sister in Glasgow" holds where the sister lives,
  not where the speaker does, and a new home replaces no sister (:func:`holds_person`);
- **a part or an accessory of the memory's thing**, named by the memory's own words (its
  name or its noun): "a new charger for my MacBook" after "uses a MacBook Air", "the
  strings on my guitar" after "plays the guitar" (:func:`accessory_of`; ``parts.py``
  reads the same by the bank's nouns, "my phone case");
- **a place taken for a use**: "I've rented a studio in Ancoats to paint in", "taken on a
  workshop unit for my furniture restoring": a second place for a pursuit, not a new home
  (:func:`place_for_use`);
- **an office in a body**: "I'm on the committee of the residents' association now", "I'm
  the treasurer of the bowls club": one of the many offices a person may hold, replacing
  no home, job or pastime, only another office (:func:`office_beside`);
- **another value ended**: "I stopped the piano lessons" after "plays the cello": of an
  attribute that adds up, the ending names another value than the memory's
  (:func:`ends_another`).

Why it is general: each test is a sentence structure over closed classes (permission,
lending and repair verbs; verbs of buying; the bank's words for people, ``RELATIONS``;
determiners and prepositions) or the memory's own words; no case, value or benchmark.
Pure functions over texts.
"""

from __future__ import annotations

import re
from typing import Any

from index import RELATIONS, terms

from .continued import continues, plan_kept, promoted_only
from .passing import passing
from .other_time import another_time
from .one_of_several import one_of_several
from .listed import others_listed
from .paused import paused
from .shared_value import shared_value
from .cues import signals
from .profile import values
from .slots import another_value
from .stays import stay_beside
from .updates import FACT_WORDS, first_person, keys_of

__all__ = ["kept_meanwhile", "as_customer", "holds_person", "accessory_of", "not_holding",
           "place_for_use", "office_beside", "kept_named", "another_thing",
           "may_hold"]

#: A permission: "let him drive my Ka", "allowed my son to use the car", "I've let my
#: neighbour grow beans on my plot": another person given the use of the speaker's thing.
_PERMISSION = re.compile(
    r"\b(?:let|lets|letting|allow|allows|allowed|allowing)\s+(?:him|her|them|us|"
    r"(?:my|our|the)\s+(?:[\w'-]+\s+){0,2}?[\w'-]+|(?-i:[A-Z])[\w'-]+)\s+(?:to\s+)?"
    r"(?:drive|use|borrow|ride|take|have|keep|share|grow|park|stay|live|sleep|play)\b", re.I)
#: A loan, either way: "lent my drill to Dad", "my daughter's borrowing the Yaris", "on
#: loan": the thing goes back to its holder.
_LOAN = re.compile(r"\b(?:lend|lends|lending|lent|on\s+loan|loaned|loaning|borrow|borrows|"
                   r"borrowing|borrowed)\b", re.I)
#: A repair or a service: "the Honda's in the shop for a new clutch", "in for its MOT",
#: "getting the laptop fixed", "off the road until the part comes": still the speaker's.
_REPAIR = re.compile(
    r"\bin\s+(?:the\s+)?(?:garage|shop|workshop|menders)\s+(?:for|getting|being|with|till|"
    r"until)\b|\bin\s+for\s+(?:a|an|its|her|his|the)?\s*(?:service|repair|repairs|mot|fix|"
    r"check|new)\b|\bbeing\s+(?:fixed|repaired|serviced|mended|looked\s+at)\b|"
    r"\b(?:get|gets|getting|got|have|has|having|had)\s+(?:it|him|her|my\s+[\w-]+|the\s+[\w-]+)"
    r"\s+(?:fixed|repaired|serviced|mended)\b|\boff\s+the\s+road\b", re.I)


def kept_meanwhile(sentence: str) -> bool:
    """Whether ``sentence`` (first person, raw) tells a permission, a loan or a repair: a
    thing of the speaker's used by another, lent or borrowed, or away being fixed, still
    held by its holder; in a statement, not a story (:func:`_statement`)."""
    return _statement(sentence) and bool(_PERMISSION.search(sentence) or
                                         _LOAN.search(sentence) or _REPAIR.search(sentence))


def _statement(sentence: str) -> bool:
    """Whether ``sentence`` is a statement, not a story (``updates.FACT_WORDS``): a
    story's clauses tell several things, and a loan or a purchase told in one of them
    ("..., and I'm borrowing Dad's van till the new one comes") says nothing of the
    others."""
    return len(sentence.split()) <= FACT_WORDS


#: The speaker as a customer of a named place: a verb of buying with what is bought, then
#: the place ("buy my groceries at Aldi", "pick up the shopping from Tesco", "do my weekly
#: shop at Morrisons", "get my prescriptions from Boots", "order everything from Ocado").
_BOUGHT = re.compile(
    r"\b(?:(?:(?:buy|buys|buying|bought|order|orders|ordering|ordered|pick\s+up|picks\s+up|"
    r"picking\s+up|picked\s+up)\s+(?:my|our|the|all\s+(?:my|our|the)|everything|most\s+of\s+"
    r"(?:my|our))|(?:get|gets|getting)\s+(?:my|our|all\s+(?:my|our)|everything|most\s+of\s+"
    r"(?:my|our)))\b(?:\s+[\w'-]+){0,3}?|"
    r"(?:do|does|doing|did|done)\s+(?:my|our|the)\s+(?:[\w-]+\s+)?(?:shop|shopping)|"
    r"(?:shop|shops|shopping|shopped))\s+(?:at|from|in)\s+(?:the\s+|a\s+)?(?:big\s+|local\s+|"
    r"new\s+)?(?-i:[A-Z])", re.I)
#: The rules' keys of the attributes a customer's place is never the value of: where one
#: works, what one does, where one lives.
_PLACES_HELD = ("fact:employer", "fact:occupation", "fact:location")
#: The same read by words, for a memory the rules key otherwise ("works at the Boots on
#: the high street").
_PLACE_HELD = re.compile(r"^(?:i|we)\s+(?:\w+\s+)?(?:work|works|worked|live|lives|lived)\s+"
                         r"(?:at|for|in|with)\b", re.I)


def as_customer(sentence: str) -> bool:
    """Whether ``sentence`` tells the speaker buying at a named place (a customer's
    relation to it, not a worker's or a resident's), in a statement, not a story."""
    return _statement(sentence) and bool(_BOUGHT.search(sentence))


#: A place taken on by the speaker: a verb of renting, buying or taking on, its object.
_TAKEN = r"\b(?:rent|rents|rented|renting|lease|leased|leasing|hire|hired|hiring|bought|buying|" \
    r"got|found|(?:taken|took|taking|take)\s+on)\s+(?:a|an|the|my|our|some)\s+"
#: What it is for: a pursuit ("for my furniture restoring", "for the pottery business")
#: or an infinitive whose preposition is left at the end ("to paint in", "to work from",
#: "to keep the tools in"): a place used, not lived in ("to live in" is a home).
_FOR_USE = re.compile(
    _TAKEN + r"(?:[\w'-]+\s+){0,6}?(?:"
    r"for\s+(?:my|our|the|his|her|their)\s+(?:[\w'-]+\s+){0,2}?"
    r"(?!(?:morning|evening|spring|wedding|ceiling)\b)[a-z'-]+ing\b|"
    r"for\s+(?:my|our|the)\s+(?:[\w'-]+\s+){0,2}?(?:business|hobby|art|pottery|stock|tools|"
    r"gear|kit|equipment)\b|"
    r"to\s+(?!(?:live|stay|sleep|move|settle)\b)[a-z]+(?:\s+(?:my|our|the|his|her|some)\s+"
    r"[\w'-]+)?\s+(?:in|at|from|on|out\s+of)\s*(?:[,;.!?]|$))", re.I)
#: A memory of where the speaker lives.
_LIVES = re.compile(r"\b(?:live|lives|living|lived|reside|resides|home)\b", re.I)


def place_for_use(sentence: str, memory: dict[str, Any], who: str) -> bool:
    """Whether ``sentence`` (first person, raw) tells a place the speaker took on for a use
    (:data:`_FOR_USE`: a pursuit, or a thing done in it) and ``memory`` holds where they
    live: a second place beside the home ("I've rented a studio in Ancoats to paint in"
    after "I live in Chorlton"), not a move."""
    return bool(_FOR_USE.search(sentence)) and \
        ("fact:location" in keys_of(memory["content"], who) or
         bool(_LIVES.search(memory["content"])))


#: An office held in a body: a seat on its committee or board, or a named office of it
#: ("on the committee of", "the treasurer of the bowls club", "a governor at the school").
_OFFICE = re.compile(r"\b(?:on\s+(?:the|a|our|their)\s+(?:[\w'-]+\s+)?(?:committee|board|council|"
                     r"panel|rota)\b|(?:the|a|an|our)\s+(?:[\w'-]+\s+)?(?:treasurer|secretary|"
                     r"chair|chairman|chairwoman|chairperson|president|vice-president|captain|"
                     r"vice-captain|trustee|governor|warden|steward|convenor|organiser)\s+"
                     r"(?:of|for|at)\b)", re.I)


def office_beside(sentence: str, memory: dict[str, Any]) -> bool:
    """Whether ``sentence`` (first person, raw) tells an office the speaker holds in a body
    (:data:`_OFFICE`) and ``memory`` tells none: one more office beside what the memory
    holds (a home, a job, a pastime), replacing only another office."""
    return bool(_OFFICE.search(sentence)) and not _OFFICE.search(memory["content"])


def _place_held(memory: dict[str, Any], who: str) -> bool:
    said = first_person(memory["content"], who)
    return bool(set(keys_of(memory["content"], who)) & set(_PLACES_HELD)) or \
        (len(said) == 1 and bool(_PLACE_HELD.match(said[0])))


#: The people of :data:`RELATIONS` a person may have several of (kin, friends, people at
#: work): one of them is no attribute of the speaker's own (a partner, a boss are: a new
#: one replaces the old, ``profile.py``'s roles).
_MANY = frozenset(RELATIONS) - frozenset(
    "partner wife husband boyfriend girlfriend fiance fiancee boss manager doctor dentist "
    "landlord landlady therapist".split())
#: "I have a sister in Glasgow", "I've got two brothers in Leeds", "we have a son at
#: Durham": a person of the speaker's and where they are.
_HAS_PERSON = re.compile(r"^(?:i|we)\s+(?:have|'ve|has)\s+(?:got\s+)?(?:a|an|one|two|three|four|"
                         r"\d+|some|several)\s+(?P<a>[\w-]+)(?:\s+(?P<b>[\w-]+))?", re.I)


def holds_person(memory: dict[str, Any], who: str, sentence: str) -> bool:
    """Whether ``memory`` (of ``who``'s) tells a person of theirs of whom one has several
    (a sibling, a child, a friend: "has a sister in Glasgow") while ``sentence`` names no
    such person: the person's place or state is theirs, not a value of the speaker's."""
    said = first_person(memory["content"], who)
    m = _HAS_PERSON.match(said[0]) if len(said) == 1 else None
    if m is None:
        return False
    for word in (m["a"], m["b"] or ""):     # "a sister", "a younger sister"
        person = word.lower()
        if person not in _MANY and person.endswith("s") and person[:-1] in _MANY:
            person = person[:-1]    # "two brothers"
        if person in _MANY:
            return not re.search(rf"\b{re.escape(person)}", sentence, re.I)
    return False


#: Determiners before the thing's own word ("my MacBook", "the guitar").
_DET = r"(?:my|our|the|his|her|their|that|this)"
#: Words after a possessive "'s" that are not the head of a noun of its own.
_NOT_HEAD = frozenset("""
in on at a an the been got gone not never just still also now back off out away being
getting having going done finally really
""".split())
#: Closed-class words that are no noun before "for"/"on" ("I'm on my iPhone", "it's for my
#: Kindle": a use of the thing, not a part of it).
_NOT_NOUN = frozenset("""
i i'm im m s re ve am is are was were be been being it it's its that this what which who
one ones just still also now only all out up down time went go going gone came come
""".split())
#: Words that tell nothing a thing is ("a", "the", a subject's name).
_LIGHT = frozenset("a an the my our his her their this that to of in on at for with and "
                   "is are was were has have had".split())


def _thing_words(memory: dict[str, Any], who: str) -> set[str]:
    """The words naming a memory's thing: its proper names, and the head of its verb's
    object when the fact ends on it ("plays the guitar": guitar; not "plays centre back
    for my team", whose last word is no thing of the speaker's held)."""
    words = {w for w in values(memory["content"], who) if not w.isdigit()}
    said = first_person(memory["content"], who)
    m = _OBJECT.match(said[0]) if len(said) == 1 else None
    if m is not None and m["n"] not in _LIGHT:
        words.add(m["n"].lower())
    return words


#: A fact ending on its verb's object: "I play the guitar", "I ride a Raleigh bike".
_OBJECT = re.compile(r"^(?:i|we)\s+[a-z]+\s+(?:a|an|the|my|our)\s+(?:[\w-]+\s+){0,3}?"
                     r"(?P<n>(?-i:[a-z])[a-z-]{2,})\s*[.!]?$", re.I)


def accessory_of(sentence: str, memory: dict[str, Any], who: str) -> bool:
    """Whether ``sentence`` names ``memory``'s thing (its own words, :func:`_thing_words`)
    only as what another noun is for or on ("a new charger for my MacBook", "new strings
    on the guitar"), or as a possessive or a modifier of another noun ("the MacBook's
    battery", "my MacBook charger is ..."): a part or an accessory of it, the thing itself
    still held."""
    lowered = sentence.lower()
    found = False
    for word in _thing_words(memory, who):
        w = re.escape(word)
        if not re.search(rf"\b{w}\b", lowered):
            continue
        uses = [m for m in re.finditer(rf"\b([a-z'-]+)\s+(?:for|on)\s+{_DET}\s+(?:[\w-]+\s+)?"
                                       rf"{w}\b", lowered)
                if m[1] not in _NOT_NOUN and m[1] not in _LIGHT]
        owned = [m for m in re.finditer(rf"\b{_DET}\s+{w}'s\s+([a-z-]+)", lowered)
                 if m[1] not in _NOT_HEAD]
        compound = [m for m in re.finditer(rf"\b{_DET}\s+{w}\s+([a-z-]+)\s+(?:is|are|was|were|"
                                           rf"has|have|had)\b", lowered)
                    if m[1] not in _LIGHT and m[1] not in _thing_words(memory, who)]
        if not (uses or owned or compound):
            return False    # the thing named as itself somewhere: not only its part
        found = True
    return found


#: Where a sentence's clauses meet: a repair or a pause told in one of them ("The Yaris is
#: off the road, so I'm using a hire car") is said of the thing it names.
_CLAUSES = re.compile(r"\s*[,;:]\s*|\s+(?:so|and|but|because|while)\s+", re.I)
#: Words of a fact too common to name its thing ("work", "live", "every").
_COMMON = frozenset(terms("work works live lives play plays every week weekend day days "
                          "morning evening night have make take like love want need"))


def kept_named(sentence: str, memory: dict[str, Any], who: str) -> bool:
    """Whether a clause of ``sentence`` tells the memory's own thing (its words,
    :func:`_thing_words`, or a word of its fact) lent, borrowed or away being fixed
    (:func:`kept_meanwhile`'s readings), or closed or paused for a while
    (``paused.paused``): "The Yaris is off the road, so I'm using a hire car", "Squash is
    on hold until my knee is better, so I'm swimming instead". The thing is still held,
    whatever the sentence's other clause does meanwhile."""
    said = first_person(memory["content"], who)
    if len(said) != 1:
        return False
    words = {w.lower() for w in _thing_words(memory, who)} | \
        ({w for w in terms(said[0]) if len(w) >= 4} - set(terms(who)) - _COMMON)
    for clause in _CLAUSES.split(sentence):
        if not clause or not (_LOAN.search(clause) or _REPAIR.search(clause) or
                              paused(clause)):
            continue
        if words & (set(terms(clause)) | {w.lower() for w in re.findall(r"[\w'-]+", clause)}):
            return True
    return False


#: A value named with its noun after it ("Elixir strings", "a Yamaha keyboard", "Elixir
#: ones"): the kind of thing the value is.
_NAMED_NOUN = re.compile(r"\b(?-i:[A-Z])[\w'-]+(?:\s+(?-i:[A-Z0-9])[\w'-]*)*\s+"
                         r"(?P<n>(?-i:[a-z])[a-z-]{2,})\b")
#: What "ones" stands for: the plural noun last named with a determiner ("replaced the
#: strings, I went with Elixir ones").
_PLURAL = re.compile(r"\b(?:the|my|our|some|new|old)\s+(?:[a-z-]+\s+)?(?P<n>[a-z-]{3,}s)\b")
#: A fact's last words that are when or where it holds, not its thing.
_WHEN_WHERE = frozenset("""morning mornings evening evenings night nights day days week weeks
weekend weekends month months year years time times work home school town moment""".split())
#: A switch, told as such: its new value replaces whatever its noun.
_SWITCHED = re.compile(r"\b(?:switch\w*|swapp?\w*|chang\w+\s+(?:to|over)|moved\s+(?:on\s+)?to|"
                       r"converted|instead)\b", re.I)
#: Words after a name that are no noun of its kind.
_NOT_NOUN_AFTER = frozenset("""and or but so the a an to of in on at for with from by as is are
was were has have had this that these those now too again instead these days today last
next since ago every each which who""".split())


def another_thing(sentence: str, memory: dict[str, Any], who: str) -> bool:
    """Whether ``sentence`` names a value with its noun (:data:`_NAMED_NOUN`: "Elixir
    ones", the strings; "a Yamaha keyboard") that ``memory``'s fact does not name, while
    the memory's own thing (its object's noun: "plays the guitar") is not named in the
    sentence: a value of another thing (the strings of the guitar, a second instrument),
    not a new value of the memory's."""
    said = first_person(memory["content"], who)
    m = _OBJECT.match(said[0]) if len(said) == 1 else None
    if m is None or m["n"].lower() in _LIGHT or m["n"].lower() in _WHEN_WHERE:
        return False    # ("drinks green tea every *morning*": a time, not its thing)
    own = m["n"].lower()
    lowered = sentence.lower()
    if re.search(rf"\b{re.escape(own)}", lowered) or _SWITCHED.search(sentence):
        return False    # (a switch says its new value replaces: "switched to Nescafé coffee")
    fact = said[0].lower()
    for named in _NAMED_NOUN.finditer(sentence):
        noun = named["n"].lower()
        if noun in _NOT_NOUN_AFTER or noun.endswith("ly"):
            continue
        if noun in ("ones", "one"):
            plural = [p["n"] for p in _PLURAL.finditer(lowered[:named.start()])]
            if not plural:
                continue
            noun = plural[-1]
        if not re.search(rf"\b{re.escape(noun.rstrip('s'))}", fact):
            return True
    return False


def not_holding(sentence: str, memory: dict[str, Any], who: str) -> bool:
    """Whether ``sentence`` (first person, raw), which a finder by meaning matched with
    ``memory``, gives the memory's value no new value: a permission, a loan or a repair,
    the speaker as a customer where the memory holds where they work or live, a memory of
    a person of theirs, a part or an accessory of the memory's thing; a stay for a bounded
    time beside a value held (``stays.py``); a plan or an undertaking the sentence
    neither ends nor names, a doing it tells as going on, a promotion told without its
    role (``continued.py``); the ending of another value (:func:`ends_another`); a place
    taken on for a use beside a home (:func:`place_for_use`); an office in a body beside
    what holds no office (:func:`office_beside`); the memory's own thing kept in a clause
    of the sentence (:func:`kept_named`); a value of another thing named by its noun
    (:func:`another_thing`); the memory's own value told again as another's too
    (``shared_value.py``); a break from a thing, a request made of the speaker or a thing
    got only for a purpose, which give no memory a new value (``passing.py``); a habit at
    another time of day or week, with another thing (``other_time.py``); one of several things
the memory lists by name, told alone ("Flopsy died" of "two rabbits, Flopsy and Mopsy":
``one_of_several.py``)."""
    return kept_meanwhile(sentence) or passing(sentence) or \
        another_time(sentence, memory["content"], who) or \
        one_of_several(sentence, others_listed(memory["content"], who)) or \
        as_customer(sentence) and _place_held(memory, who) or \
        holds_person(memory, who, sentence) or \
        accessory_of(sentence, memory, who) or \
        _stay_beside(sentence, memory, who) or \
        plan_kept(sentence, memory, who) or continues(sentence, memory, who) or \
        promoted_only(sentence) or ends_another(sentence, memory, who) or \
        place_for_use(sentence, memory, who) or office_beside(sentence, memory) or \
        kept_named(sentence, memory, who) or another_thing(sentence, memory, who) or \
        shared_value(sentence, memory, who)


def ends_another(sentence: str, memory: dict[str, Any], who: str) -> bool:
    """Whether ``sentence`` (first person, raw) ends a thing that is another value than
    ``memory``'s of an attribute that adds up (``slots.another_value``: "I stopped the
    piano lessons" after "I play the cello in the town orchestra")."""
    said = first_person(memory["content"], who)
    return len(said) == 1 and any(another_value(thing, said[0])
                                  for thing in signals(sentence).ended)


def _stay_beside(sentence: str, memory: dict[str, Any], who: str) -> bool:
    """A stay told for a bounded time beside a memory that is no plan or stay itself (a
    holiday planned is changed by another): ``stays.stay_beside``."""
    said = first_person(memory["content"], who)
    return stay_beside(sentence, said[0] if len(said) == 1 else memory["content"])


def may_hold(sentence: str, memories: list[dict[str, Any]], who: str) -> list[dict[str, Any]]:
    """The ``memories`` (of ``who``'s) ``sentence`` (first person, raw) may give a new value:
    none for a permission, a loan or a repair; else all but those :func:`not_holding`
    leaves alone (a person of the speaker's, a thing whose part the sentence names, a
    workplace or a home beside a shop used). Read before a finder by meaning picks one, so
    a memory it may not replace does not make the one it may ambiguous."""
    if kept_meanwhile(sentence):
        return []
    return [m for m in memories if not not_holding(sentence, m, who)]
