"""The vocabulary the episode reader (``episodes.py``) weighs words with: function words,
the words of reaction and small talk, abstract nouns, family, the forms of verbs, and a few
shapes of a sentence that weigh as such (a duration, an occupation). Plain
English word lists: no names, no topics."""

from __future__ import annotations

import re

from .facts import NOT_HABITS as _NOT_DOING, OCCUPATIONS
from .household_news import household_news
from .irregular import DISTINCT_PASTS, SAME_PASTS

__all__ = ["STOP", "GENERIC", "ABSTRACT", "FAMILY", "PARTICIPLES", "PAST", "AMBIGUOUS_PAST",
           "MODALS", "ADVERBS", "NOT_VERBS", "IRREGULAR", "ING_NOUNS",
           "STANDING", "STANDING_WORDS", "DURATION", "ROLE", "DONE_TO_ME", "AT_YOU", "stands",
           "stands_now", "value_now", "routine", "DAYS", "does",
           "LIFE_CHANGE",
           "head", "tail", "standing", "told_now", "STATUSES", "speakers_world",
           "short_named", "person_taste", "THANKS", "QUESTION_START", "SUGGEST", "IMPERATIVE",
           "REACTION", "NOT_THAT"]

STOP = frozenset("""
a an and are as at be but by for if in into is it its no not of on or such that the their
then there these they this to was will with i me my mine myself you your yours yourself he
him his she her hers we us our ours it they them what when where who whom which why how
did do does done doing have has had having am been being were would could should can may
might shall must about from up down out over so than too very just also still even really
all any some every each other another more most much many lot lots bit one ones thing
things stuff something anything everything nothing own same such like am got get gets
getting go goes going gone went make made makes making take took taken takes come came
comes coming way ways lot kind sort here there now then again ever always never often
sometimes usually already yet well back around off though although because since while
until after before through during without within along across per via both either neither
whether once twice
""".split())
#: Words of reaction and small talk: they say how the speaker feels about the exchange,
#: not what happened.
GENERIC = frozenset("""
great awesome amazing cool nice good fun wonderful fantastic incredible awesome beautiful
lovely sweet super best better happy glad excited exciting thrilled stoked pumped proud
thankful grateful blessed lucky sorry sad love loved loving loves like liked likes enjoy
enjoyed feel feels felt feeling think thought know knew mean means meant hope hoped hoping
wish wait waiting sure totally definitely absolutely right true agree agreed thanks thank
appreciate appreciated support supported supportive cheer cheers wow yeah yes yep okay ok
awesome glad keep kept look looks looking looked see seen seeing saw sound sounds sounded
hear heard say said tell told talk talking talked chat chatting share sharing shared
remind reminds reminded inspire inspiring inspired inspiration motivate motivating
motivated motivation care cares cared nothing everything anything something someone
anyone everyone guess bet want wanted wants need needs needed try trying tried help helps
helped helping hard tough easy important special real really truly pretty quite kind
interesting curious forward soon lately time times day days moment moments life world
people person friend friends buddy guys gonna wanna hang tho though anyway totally
experience experiences journey glad happy vibe vibes feelings worth much many lot
powerful stunning magical gorgeous blast rough tricky crazy wild intense heartwarming cute
""".split())
#: Abstract nouns of encouragement and reflection ("chasing my dreams", "a sense of
#: purpose"): half a content word.
ABSTRACT = frozenset("""
dream dreams goal goals passion passions purpose impact difference confidence hope hopes
energy strength motivation joy happiness love support challenge challenges success
growth peace positivity mindset attitude determination courage faith belief beliefs
values value memories memory feeling emotion emotions spirit spirits heart hearts mind
minds soul path progress effort efforts opportunity opportunities reminder gratitude
""".split())
FAMILY = frozenset("""
mom mum mummy mother dad father parents parent son sons daughter daughters kid kids child
children baby babies wife husband partner boyfriend girlfriend fiance fiancee brother brothers
sister sisters sibling siblings grandma grandmother grandpa grandfather grandparents gran granny
grandad nan aunt uncle cousin cousins family fam dog dogs cat cats pet pets puppy kitten niece
nephew twins eldest youngest toddler stepson stepdaughter stepmum stepmom stepdad grandson
granddaughter grandkids grandchildren in-laws father-in-law mother-in-law brother-in-law
sister-in-law son-in-law daughter-in-law
""".split())
PARTICIPLES = frozenset("""
excited thrilled stoked pumped tired exhausted swamped stressed worried scared nervous bored
interested pleased amazed overwhelmed delighted honored blessed grateful glad happy lucky
proud thankful sad busy ready sorry psyched hooked obsessed addicted
""".split())
#: The simple pasts of the irregular verbs (``irregular.py``'s table): those said only of
#: the past ("went", "sold"), and those that are also their present ("read", "put").
PAST = DISTINCT_PASTS
AMBIGUOUS_PAST = SAME_PASTS
MODALS = frozenset("""
can could will would should must might may shall did had was were used cannot ought need
""".split()) | PAST | AMBIGUOUS_PAST
ADVERBS = frozenset("""
just really also always never still actually recently finally usually often sometimes even
totally definitely absolutely already truly especially now ever honestly mostly rarely
seriously literally certainly probably currently genuinely personally super so generally
occasionally basically kind sort of pretty much only once all both too then first soon
""".split())
NOT_VERBS = frozenset("""
a an the and or but nor so yet to too not never always also just myself me my mine it this
that these those there here who which what when where how if then than as at by for from in
into of on with about after before again all any both each few more most other some such no
only own same very can will am
""".split())
IRREGULAR = {"am": "is", "are": "is", "have": "has", "do": "does", "go": "goes", "be": "is"}
#: Verbs whose base form ends in -ing ("I sing in a choir", "I bring lunch to work"): the
#: closed class of English, so a present tense is not read as a gerund or a progressive.
ING_VERBS = frozenset("bring cling fling ring sing sling spring sting string swing wring".split())


def ends_as_ing(word: str) -> bool:
    """Whether ``word`` ends in -ing as a gerund or participle does (not "sing", "bring")."""
    return word.lower().endswith("ing") and word.lower() not in ING_VERBS


#: Words in -ing that are no verb of the speaker's: nouns, and prepositions ("During the
#: holidays we ..." drops no "I am").
ING_NOUNS = frozenset("""
something nothing anything everything morning evening spring wedding building meeting
painting clothing ceiling feeling setting evening offspring earring sibling pudding
during according regarding including concerning considering following excluding pending
notwithstanding barring
""".split())


#: How short (words) a statement of how things stand for the speaker is to count as one.
STANDING_WORDS = 12
#: How things stand for the speaker, in the present: what they are a member of, with,
#: doing, have or do as a matter of course ("I'm a member of the YMCA", "I'm the treasurer
#: of the residents' association", "I get the bus to work every day", "We subscribe to
#: Netflix"); not a feeling ("I'm so glad"), nor a taste
#: (the keyed rules read "I'm a huge Lakers fan" as one, which a later taste replaces).
STANDING = re.compile(
    r"^(?!.*\b(?:lov|lik|enjoy|prefer|hat|ador|fan)(?:e|es|ed|ing|s)?\b)"
    r"(?:I|we)\s+(?:(?:usually|always|still|now|currently|normally|mostly|only|also|just)\s+)?"
    r"(?:(?:am|are|'m|'re)\s+(?:(?:a|an)\s+(?!bit\b|little\b|lot\b)\w+|the\s+\w+\s+of\b|with|on|"
    r"in|at|from|"
    r"part of|off\s+(?!to\b)|(?:doing|studying|working|living|training|renting)\b)|"
    # "I've been on a diet since Christmas": a standing held since.
    r"(?:have|'ve)\s+been\s+(?:with|on|in|at|off)\s+(?!to\b)|"
    # "have" of having, not of the perfect ("I have been", "I have done").
    r"(?:have|have got)\s+(?!(?:been|had|done|got|always|really|never|just|also|a few|"
    r"some|a lot)\b|\w+ed\b)|"
    # "I got a rabbit now": got as having ("now" makes it a standing, ``stands_now``).
    r"got\s+(?:a|an|two|three|\d+)\s|"
    r"(?:own|rent|use|drive|ride|take|get|go|work|live|bank|subscribe|"
    r"train|study|teach|speak|play|belong|volunteer|support|attend|smoke|drink|eat|run|swim|"
    r"cycle|walk)\b)", re.I)

#: A state of the speaker's told by its adjective ("I'm fluent in Spanish", "I've been
#: veggie since I was a teenager", "We are allergic to cats"): how they are, as a matter of
#: course, though few words carry it. Not a feeling or a reaction ("I'm so glad", "I am
#: excited about it", "I am sure"): those words are in ``GENERIC`` and ``PARTICIPLES``, or
#: are participles (-ed, -ing).
STATE = re.compile(r"^(?:I|we)\s+(?:am|are|have been)\s+(?:(?:\w+ly|so|very|quite|pretty|"
                   r"also|still|now|fully)\s+)?(?:(?P<noun>[a-z]+)\s+)?(?P<adj>(?!(?:now|these|nowadays)\b)[a-z][a-z-]+)(?:\s+(?:in|at|to|with|of|"
                   r"on|about|since|for)\b.*|\s+(?:now|these days|nowadays))?$", re.I)


def stands(text: str) -> bool:
    """Whether ``text``, a short cleaned sentence, tells how things stand for the speaker:
    what they are a member of, have or do as a matter of course (``STANDING``), or a state
    told by its adjective (``STATE``)."""
    if len(text.split()) > STANDING_WORDS:
        return False
    if STANDING.match(text):
        return True
    m = STATE.match(text)
    if m is None:
        return False
    adj = m["adj"].lower()
    # "I am lactose intolerant", "We are gluten free": a noun before the adjective says of
    # what; not a verb, an adverb or a word of reaction ("I am going home", "I am not sure").
    noun = (m["noun"] or "").lower()
    if noun and (noun in STOP or noun in GENERIC or noun in ADVERBS or noun in PARTICIPLES or
                 noun.endswith(("ing", "ed", "ly"))):
        return False
    return adj in STATUSES or not (adj in STOP or adj in GENERIC or adj in PARTICIPLES or
                                   adj in ADVERBS or adj in ABSTRACT or
                                   adj.endswith(("ed", "ing")))


#: Participles that tell a standing, not a feeling ("I'm self-employed now", "We are
#: married"): work and civil status.
STATUSES = frozenset("""
employed unemployed self-employed retired married engaged divorced separated widowed
qualified registered licensed certified vaccinated
""".split())


#: How things stand now, said as a change ("I'm at Spotify now", "We're in Glasgow now",
#: "I'm teetotal these days"): not "right now" or "just now", a moment.
_NOW = re.compile(r"(?<!right )(?<!just )(?<!for )\b(?:now|these days|nowadays)$", re.I)


#: The speaker back where they were, a change told by "back" ("We're back in the office
#: five days a week now", "I'm back at work", "I'm back home in Leeds"): not a pronoun
#: after it ("I'm back at it", "back to you"), an echo of the exchange.
_BACK = re.compile(r"^(?:I|we)\s+(?:am|are|'m|'re)\s+(?:(?:finally|now|officially|fully)\s+)?"
                   r"back\s+(?:in|at|to|on|home)\b(?!\s+(?:it|that|this|you|your|them|"
                   r"square one)\b)", re.I)


#: Something of the speaker's told by a name, as it stands now ("My salary goes into Monzo
#: now", "Our broadband is with BT these days"): what is theirs opens the sentence, a
#: capitalised name (the value) follows a few lowercase words.
_MINE_NAMED = re.compile(r"^(?:my|our)\s+(?-i:[a-z])[\w'-]*(?:\s+(?-i:[a-z])[\w'-]*){0,5}"
                         r"\s+(?-i:[A-Z])\w", re.I)


#: A value told by its name for what the talk is about, as now ("It's a Kia Niro now", "It's
#: with Octopus these days"): with no "I", the speaker's thing all the same (what else
#: would they tell the present value of); not a day or a month ("It's a Monday now").
_IT_NAMED_NOW = re.compile(
    r"^(?:it|that)\s+is\s+(?:now\s+)?(?:a|an|with|at|in)\s+(?!(?:monday|tuesday|wednesday|"
    r"thursday|friday|saturday|sunday|january|february|march|april|may|june|july|august|"
    r"september|october|november|december)\b)(?-i:[A-Z])[\w'-]*(?:\s+[\w'-]+){0,4}?\s+"
    r"(?:now|these\s+days|nowadays)$", re.I)


#: The same told by a common noun ("it is almond milk in the fridge nowadays", "it is the
#: bus for me these days"): not a moment or a judgement ("it is a bit late now", "it is
#: much quieter now", "it is over now").
_IT_VALUE_NOW = re.compile(r"^(?:so\s+)?(?:it|that)\s+is\s+(?:now\s+)?(?:(?:a|an|the)\s+)?"
                           r"(?P<value>[a-z][\w'-]*(?:\s+[\w'-]+){0,5}?)\s+"
                           r"(?:now|these\s+days|nowadays)$", re.I)


_NO_VALUE = frozenset("different same whole other new old big small".split())


#: A value texted with no verb at all, as it is these days ("Oat milk in the tea these
#: days", "Pilates twice a week now"): "these days" or "nowadays" say a habit; "now" only
#: with how often (else it is the moment: "Lunch at Dishoom now").
_FRAGMENT_NOW = re.compile(r"^(?P<value>[A-Za-z][\w'&-]*(?:\s+[\w'&-]+){1,7}?)\s+"
                           r"(?:these\s+days|nowadays|now)$", re.I)
_FREQUENCY = re.compile(r"\b(?:every|each|once|twice|three\s+times|four\s+times|a\s+week|"
                        r"a\s+month|a\s+day|on\s+\w+days|at\s+weekends)\b", re.I)
#: Words no verbless fragment has: the forms of "be", "have", "do", the modals, and the
#: pronouns of a clause ("Back to work now" has no noun: an adverb opens it).
_CLAUSE_WORDS = frozenset("""is are was were be been am 's has have had do does did will would
can could should shall may might must i you he she it we they me him her us them this that
there here what""".split())


def fragment_now(text: str) -> bool:
    """Whether ``text`` is a verbless value told as it stands these days (``_FRAGMENT_NOW``):
    a noun opens it (no adverb, preposition, time or pronoun), no verb in it (no form of
    "be", "have", "do", no past), two words of content at least."""
    m = _FRAGMENT_NOW.match(text)
    if m is None or not (re.search(r"\b(?:these\s+days|nowadays)$", text, re.I) or
                         _FREQUENCY.search(m["value"])):
        return False
    words = [w.lower() for w in re.findall(r"[A-Za-z']+", m["value"])]
    first = words[0]
    return not any(w in _CLAUSE_WORDS or w in PAST or w.endswith("ed") and len(w) > 4
                   for w in words) and \
        first not in STOP and first not in ADVERBS and first not in GENERIC and \
        first not in PARTICIPLES and not first.endswith(("ly", "ing")) and \
        sum(w not in STOP and w not in GENERIC and len(w) > 2 for w in words) >= 2


def value_now(text: str) -> bool:
    """Whether ``text`` tells a value by its name, as now, of what the talk is about ("It
    is a Kia Niro now"), or by two words that name a thing (``_IT_VALUE_NOW``): worth a
    memory as ``stands_now`` is, though it names no speaker."""
    if _IT_NAMED_NOW.match(text) or fragment_now(text):
        return True
    m = _IT_VALUE_NOW.match(text)
    if m is None:
        return False
    words = [w.lower() for w in re.findall(r"[A-Za-z]+", m["value"])]
    # "singing lessons" names a thing; "pouring with rain", "much quieter" do not
    gerund = words[0].endswith("ing") and len(words) > 1 and words[1] not in STOP
    return not any(w in ADVERBS or w in PARTICIPLES or w in _NO_VALUE or
                   w.endswith(("er", "ed", "ly")) or w.endswith("ing") and not gerund
                   for w in words[:1]) and \
        sum(w not in STOP and w not in GENERIC and len(w) > 2 for w in words) >= 2


def stands_now(text: str) -> bool:
    """Whether ``text`` tells how things stand (``stands``, or a thing of the speaker's by
    its name) and says that is so now, as a change ("I'm at Spotify now"), or says the
    speaker is back somewhere (``_BACK``): one of the words an update is told in, worth a
    memory however few the words (a place, a firm, a state)."""
    if _BACK.match(text):
        return len(text.split()) <= STANDING_WORDS
    return bool(_NOW.search(text)) and (stands(text) or len(text.split()) <= STANDING_WORDS
                                        and bool(_MINE_NAMED.match(text)))


def head(text: str) -> str:
    """The clause before a sentence's first comma: where a short fact is told before a tail
    that says since when, what follows or what it replaced ("I am vegetarian now, have been
    since January", "I am lactose intolerant, so no more milk for me", "The kids are at St
    Anne's now, not Oakfield")."""
    return text.split(",", 1)[0].strip()


#: The speaker's statement after a lead-in and a comma or a colon ("Work-wise, I am
#: freelance now", "All done with the night shifts, I am on days now", "It is official: I
#: am a Canadian citizen").
_TAIL = re.compile(r"(?:,|:)\s+(?P<tail>(?:I|we)\s[^,:]+)$")


def tail(text: str) -> str:
    """The speaker's statement after a lead-in (``_TAIL``), or ``text``."""
    m = _TAIL.search(text)
    return m["tail"] if m else text


#: A person or pet of the speaker's world told without "my" ("The kids are at St Anne's
#: now", "A spaniel puppy called Mabel is running the house now", "Gran moved in"): the
#: subject is a family word, after "the", "a" or an adjective at most.
_KIN_SUBJECT = re.compile(r"^(?:(?:the|a|an|our)\s+)?(?P<kin>[\w-]+(?:\s+[a-z]+)?)\b", re.I)


def kin_changed(text: str) -> bool:
    """Whether ``text`` opens on the speaker's family or pet (``_KIN_SUBJECT``) and tells
    a change of theirs (``told_now``, ``LIFE_CHANGE``): the speaker's news, though no
    "my" says whose."""
    m = _KIN_SUBJECT.match(text)
    return m is not None and any(w in FAMILY for w in m["kin"].lower().split()) and \
        (told_now(text) or bool(LIFE_CHANGE.search(text)))


#: What is new in the speaker's life, told with "the" for "my" ("The new job's at a school
#: in Leith", "New flat is tiny but ours"): nobody else's job or flat is news to them.
_OWN_NEW = re.compile(r"^(?:the\s+)?new\s+(?:job|role|house|flat|apartment|place|home|car|"
                      r"boss|manager|team|office|school|course|gym)(?:'s|\s+(?:is|was|has|will|"
                      r"starts|started|pays|means))\b", re.I)


#: A pet or a person of the speaker's called by name and what they are to the speaker
#: ("Pebble the kitten joined the household", "Biscuit, the new puppy, arrived Friday"):
#: only one's own are introduced so, with no "my"; the family word is the head.
_NAMED_KIN = re.compile(r"^(?-i:[A-Z])[a-z]{1,15},?\s+the\s+(?P<a>[a-z]+)\b(?!')"
                        r"(?:\s+(?P<b>[a-z]+)\b(?!'))?")


#: The speaker's week told by its days ("Saturdays are for the climbing wall now",
#: "Mornings start with a run round the park these days", "Thursday nights mean choir"):
#: days in the plural (or with "now") are a routine, and only one's own routine is told
#: by its days with no "my"; not the weather or the light ("Mornings are dark now": no
#: "for", "with" or a verb of what fills them).
DAYS = (r"(?:mondays?|tuesdays?|wednesdays?|thursdays?|fridays?|saturdays?|sundays?|weekends?|"
         r"weekdays?|mornings?|evenings?|afternoons?|lunchtimes?|nights?)")
_ROUTINE = re.compile(rf"^(?:{DAYS}\s+)?{DAYS}\s+(?:are|is|start|starts|begin|begins|mean|"
                      r"means|involve|involves)\s+(?:now\s+|all\s+)?(?:for|with|about|spent|"
                      r"taken\s+up\s+with|given\s+over\s+to)\s+\w|"
                      # "Saturdays are bouldering at the wall now": an activity and where
                      rf"^(?:{DAYS}\s+)?{DAYS}\s+(?:are|is)\s+(?:now\s+)?[a-z]{{3,}}ing\s+"
                      r"(?:at|with|in|on|down|up|round|around)\s+\w", re.I)


def routine(text: str) -> bool:
    """Whether ``text`` tells the speaker's routine by its days (``_ROUTINE``): in the plural,
    or told as now."""
    m = _ROUTINE.match(text)
    return m is not None and (bool(re.match(r"(?:\w+\s+)?\w+s\s", text)) or told_now(text))


def speakers_world(text: str) -> bool:
    """Whether ``text``, with no "I" or "my", is about the speaker's world all the same:
    their family told as changed (``kin_changed``), what is new in their life
    (``_OWN_NEW``), one of theirs called by name and kin word (``_NAMED_KIN``), or their
    routine told by its days (``routine``)."""
    m = _NAMED_KIN.match(text)
    return kin_changed(text) or bool(_OWN_NEW.match(text)) or routine(text) or \
        m is not None and (m["a"] in FAMILY or m["b"] in FAMILY) or \
        household_news(text)    # "There's a kitten in the house now" (``household_news``)


#: A taste told as the kind of person the speaker is ("I am a dog person", "I am more of a
#: tea person", "We are big coffee lovers").
_PERSON_TASTE = re.compile(r"^(?:I|we)\s+(?:am|are)\s+(?:(?:more|much more|very much|definitely|"
                           r"totally|really|such|big|huge)\s+)*(?:of\s+)?(?:a|an)?\s*"
                           r"(?P<kind>(?:[\w-]+\s+){1,2}?)(?:person|people|lover|lovers)\b", re.I)


def person_taste(text: str) -> bool:
    """Whether ``text`` is a taste told as a kind of person (``_PERSON_TASTE``), not a
    feeling ("I am such a lucky person")."""
    m = _PERSON_TASTE.match(text)
    return m is not None and not any(w in GENERIC or w in PARTICIPLES or w in STOP
                                     for w in m["kind"].lower().split())


def short_named(text: str) -> bool:
    """Whether ``text`` is a short standing with a name for its value ("I'm on Vodafone",
    "I bank with Monzo", "We're with BT"): six words at most."""
    words = text.split()
    return len(words) <= 6 and bool(STANDING.match(text)) and \
        not re.match(r"\S+\s+(?:am|are)\s+(?:in|at)\b", text) and \
        any(w[:1].isupper() and w.lower() not in MONTHS for w in words[2:])


MONTHS = frozenset("""monday tuesday wednesday thursday friday saturday sunday january february
march april may june july august september october november december""".split())


def standing(text: str) -> bool:
    """Whether ``text``, its ``head`` or its ``tail``, tells how things stand for the
    speaker (``stands``)."""
    return any(stands(t) for t in dict.fromkeys((text, head(text), tail(text))))


#: The present told as changed ("Gran's living with us now", "These days it is oat milk in
#: my coffee", "Nowadays I cycle to work"): not a moment ("right now", "just now", "for
#: now", "by now", "until now", "from now on", "now and then") nor a cause ("now that").
_NOW_CHANGED = re.compile(r"(?<!right )(?<!just )(?<!for )(?<!by )(?<!until )(?<!from )"
                          r"(?<!till )\b(?:now|these days|nowadays)\b(?!\s+(?:that|and then|on)\b)",
                          re.I)


def told_now(text: str) -> bool:
    """Whether ``text`` tells the present as changed (``_NOW_CHANGED``)."""
    return bool(_NOW_CHANGED.search(text))


#: What the speaker does, told in the present with a verb too plain to count as a content
#: word ("I do yoga on Tuesdays", "I go to choir", "I do pilates") or as taken up ("I've
#: taken up golf", "I have got into climbing"): a habit or a fact of their life, however
#: few its words.
_DOES = re.compile(
    r"^(?:I|we)\s+(?:(?:usually|still|now|also|mostly|sometimes|often|regularly|just|"
    r"recently|finally|occasionally)\s+)?(?:do|go(?=\s+(?:to\s|\w+ing\b))|take\s+up|"
    r"have\s+(?:(?:just|also|recently|finally|now)\s+)?(?:taken|picked|got|gotten)\s+"
    r"(?:up|into))\s+(?P<x>.+)$", re.I)
#: What does not open an activity after "I do": a pronoun, a negation, a verb or adverb
#: ("I do that too", "I do not", "I do think so", "I do my best", "I do it all the time").
#: (an adverb read from its word's first letter: from every letter of a long word, the
#: search was quadratic)
_NOT_DONE = re.compile(r"(?:not|n't|it|that|this|so|too|the same|what|whatever|anything|"
                       r"everything|something|nothing|my best|well|fine|ok|okay|sure|you|your|"
                       r"them|him|her|both|all|(?<![a-z])[a-z]+ly)\b", re.I)


#: The same of a family member's ("My son goes to nursery", "My dad does the parkrun
#: every Saturday"): where they go, what they do, the speaker's news to a friend.
_KIN_DOES = re.compile(r"^(?:my|our)\s+(?:[\w-]+\s+)?(?P<kin>[a-z]+)\s+(?:(?:now|also|still|"
                       r"usually)\s+)?(?:does|goes(?=\s+(?:to\s|\w+ing\b)))\s+(?P<x>.+)$",
                       re.I)


def does(text: str) -> bool:
    """Whether ``text``, a short cleaned sentence, tells what the speaker or one of their
    family does (``_DOES``, ``_KIN_DOES``): an object opening on a thing, not a pronoun, a
    verb or an adverb (``_NOT_DONE``)."""
    m = _DOES.match(text.rstrip(" .!"))
    if m is None:
        m = _KIN_DOES.match(text.rstrip(" .!"))
        m = m if m is not None and m["kin"].lower() in FAMILY else None
    if m is None or len(text.split()) > STANDING_WORDS or _NOT_DONE.match(m["x"]):
        return False
    first = m["x"].split()[0].lower()
    return first not in _NOT_DOING and any(
        w.lower() not in STOP and len(w) > 2 for w in re.findall(r"[A-Za-z']+", m["x"]))


#: Verbs of a change in someone's life: a move, a start, a new pastime, an end (a break-up,
#: a death, a sale, a departure, a birthday's new age).
LIFE_CHANGE = re.compile(r"\b(?:moved|relocated|emigrated|started|began|taken up|took up|"
                         r"joined|adopted|got (?:married|engaged|divorced)|graduated|retired|"
                         r"quit|switched|became|signed up|stopped|changed|turned \d+|"
                         r"broke up|split up|passed away|sold|left|gave up|given up|"
                         r"dropped out|(?:was|were)\s+born|"
                         # the day a start or an end fell on ("Saturday was our last day at
                         # the bakery", "my first shift with the Co-op")
                         r"(?:first|last|final)\s+(?:day|shift|week|term|session)\s+"
                         r"(?:at|with|in|for)\b)\b", re.I)


#: How long, or an unnamed day ahead: "for years", "for six months", "one day"; or since
#: when, told by the speaker's age ("since I was a teenager", "since we were kids").
DURATION = re.compile(r"\bfor\s+(?:\d+|a few|a couple of|several|many|two|three|four|five|"
                      r"six|ten)?\s*(?:years|months|decades)\b|\bfor\s+(?:a|one|over a|about a)\s+"
                      r"(?:year|month|decade)\b|\b(?:one day|someday|some day)\b|"
                      r"\bsince\s+(?:I|we)\s+(?:was|were)\b", re.I)
#: The speaker's occupation, now or before ("I'm a nurse", "I was a lifeguard"), or what
#: they work as ("I'm freelancing as a copywriter", "I started as a junior developer").
ROLE = re.compile(r"\b(?:I|we)\s+(?:(?:am|are|was|were|used to be|have been)\s+|"
                  r"(?:[\w']+\s+){1,3}?as\s+)(?:an?\s+)"
                  r"(?:[\w-]+\s+){0,2}?(?:" + "|".join(sorted(OCCUPATIONS)) + r")s?\b", re.I)
#: What an employer or an office did to the speaker ("They've relocated me to the
#: Birmingham office"): "they" is the firm, no earlier topic, when the sentence names where.
DONE_TO_ME = re.compile(r"^they\s+(?:have\s+|had\s+)?(?:just\s+|finally\s+)?[a-z]+ed\s+me\b",
                        re.I)


#: The speaker perceiving or giving something of the other person's, or to them ("I saw
#: your photo", "I noticed a pin on your purse", "I still think about this picture you sent
#: me", "I got this new pup for you"): about the other person and the exchange, not the
#: speaker's life.
AT_YOU = re.compile(r"\b(?:saw|see|seen|noticed|notice|watched|think about|thinks about|"
                    r"thought about)\b[^.,;]*?\b(?:you|your)\b|\bhear(?:d)? that you\b|"
                    r"\b(?:got|made|bought)\b[^.,;]*?\bfor you\b", re.I)


# -- what opens no news of the speaker's (``episodes._score``, ``episodes.episode``) ----

THANKS = re.compile(r"^(?:thanks|thank you|thank u|cheers|much appreciated|appreciate it)\b",
                    re.I)
QUESTION_START = re.compile(r"^(?:do|did|does|have|has|are|were|is|was|can|could|would|will|"
                            r"what|how|where|when|why|who|which|wanna|want to|any)\s+(?:you|"
                            r"ya|u|your)\b", re.I)
SUGGEST = re.compile(r"^(?:let's|let us|lets|we should|you should|you could|you must|"
                     r"you have to|you need to|make sure|don't forget|do not forget)\b", re.I)
IMPERATIVE = re.compile(r"^(?:check|take|keep|stay|hang|believe|enjoy|look|try|trust|give|"
                        r"tell|say|go|have|get|remember|think|imagine|see|show|send|"
                        r"do not|don't|never|always|be|good luck|hope you|glad you|"
                        r"can't wait to see|cannot wait to see)\b", re.I)
#: The speaker reacting to what was said ("I totally agree", "I know what you mean").
REACTION = re.compile(r"^(?:I|we)\s+(?:\w+ly\s+|100%\s+|so\s+|really\s+|just\s+|also\s+)*"
                      r"(?:agree|disagree|know|understand|get it|see(?!\s+(?:a|an|my|our)\s)|"
                      r"hear you|feel you|bet|"
                      r"guess|think so|hope so|mean it|can tell|can relate)\b(?!\s+(?:how|to)\b)|"
                      r"^(?:I|we)\s+(?:can|could)\s+(?:only\s+|totally\s+|just\s+)?imagine\b",
                      re.I)
#: A clarification of the speaker's: "It's not that I don't like my job, I just need a
#: break", "it isn't like we're unhappy here, we only miss the hills": a denial, then what
#: holds beside it, the speaker its subject ("just", "only", "simply").
NOT_THAT = re.compile(r"^it\s+(?:is|'s|was)\s+not\s+(?:that|like|as\s+if|as\s+though|because)\s+"
                      r"(?:I|we)\b[^,;]*[,;]\s*(?:but\s+)?(?:I|we)\s+(?:just|only|simply|really)\s+"
                      r"\w+", re.I)
