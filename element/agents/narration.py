"""Third person: a cleaned first-person sentence told about its named speaker ("I love my
dog" -> "Ana loves their dog"), as episodes (``episodes.py``) and the keyed rules
(``rules.py``) write their memories: the name for I/me and the first my/our, "their"
after it. "We" is resolved here: the speaker's household, a couple, the two people
talking, someone named beside the speaker, or "<name> and others". And who the speaker's
world is (``kin``): the names their memories give as theirs. Pure functions, English
only."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from .dates import time_phrase
from .episode_words import (
    ADVERBS as _ADVERBS,
    AMBIGUOUS_PAST as _AMBIGUOUS_PAST,
    FAMILY as _FAMILY,
    IRREGULAR as _IRREGULAR,
    MODALS as _MODALS,
    NOT_VERBS as _NOT_VERBS,
    PAST as _PAST,
    STOP as _STOP,
    ends_as_ing,
)
from .spoken import NOT_NAMES as _COMMON_NOT_NAMES

__all__ = ["narrate", "household", "household_of", "Mentions", "kin"]

#: Words of home, family and pets: "we" among them is the speaker's household. "Family"
#: not as someone else's ("saved a family from a fire"), and
#: "live" only of where one lives ("we live in Leeds"; not "our best life", "our lives").
_HOUSEHOLD = re.compile(r"\b(?:" + "|".join(sorted(_FAMILY - {"family", "fam"})) +
                        r"|(?<!\ba )(?<!\banother )famil(?:y|ies)|fam|home|house|"
                        r"apartment|flat|household|moved|move|"
                        r"(?:live[sd]?|living)\s+(?:\w+\s+)?(?:in|at|with|together|near|next|by|"
                        r"abroad|nearby|here|there|downtown|close)|adopted|adopt|married|wedding|"
                        r"husband|wife)\b", re.I)
#: A group of the speaker's that is not the household: a turn that names one besides the
#: family ("My fam's small, but I love the friends I have. We watch movies ...") leaves
#: "we" to what each sentence says.
_GROUP = re.compile(r"\b(?:friends?|buddies|pals|team|teammates|colleagues|co-?workers|"
                    r"workmates|classmates|class|group|gang|crew|squad|band|club|students|"
                    r"volunteers|members|neighbou?rs|community)\b", re.I)
#: Home life, weaker than ``_HOUSEHOLD``: what a household does together or owns. "We" in
#: it is the speaker's household unless the turn names another group of theirs ("We go
#: camping every Labor Day weekend", "We've got a cockatiel called Pip", "we had friends
#: over for dinner", "we spent Easter with my in-laws", "we remortgaged"): holidays and
#: time off, guests at home, a garden, "we" owning, buying, hiring or selling a thing, and
#: a death ("we lost Tom"). Not a team's or a class's "we", nor people in general ("we can
#: make a difference"): those name no home life.
_HOME_LIFE = re.compile(
    r"\b(?:christmas|easter|thanksgiving|hanukkah|diwali|eid|passover|new year|"
    r"(?:labou?r|memorial|boxing|bank) (?:day|holiday)|half-term|holidays?|vacation|camping|"
    r"getaway|seaside|in-laws?|garden|backyard|"
    r"(?:have|had|having)\s+(?:\w+\s+){0,2}?over(?:\s+for\b|[.,!]|$)|"
    r"mortgage|remortgaged?|nanny|babysitter|childminder|"
    # A death: "we lost Tom last week", "we had to put Rolo down", "passed away".
    r"lost\s+(?-i:[A-Z])[a-z]+|put\s+(?-i:[A-Z])[a-z]+\s+(?:down|to\s+sleep)|"
    r"passed\s+away)\b|"
    r"\bwe(?:\s+(?:have|had|just|finally|recently|also|now|officially))*\s+"
    r"(?:got|own|bought|sold|hired|adopted|rescued|remortgaged|part-exchanged|leased|"
    r"have\s+(?:a|an|two|three|four|\d+)\s)", re.I)
#: What a home has and uses, told with "we": where it is ("we're based in Leeds", "we
#: relocated to Valencia", "we're in Dulwich"), what it drives ("we drive a Corsa", "we
#: traded in the minivan"), who supplies it and what it subscribes to ("we're with Virgin
#: for the internet", "we changed energy supplier", "we subscribe to Netflix"; not "we
#: signed up for", a race as often as a service). These are attributes a household holds
#: one value of (``slots.py``): "we" stating one is the household, as in "we live in ...".
#: Written "<name> and others", the update rules would read another holder than the
#: family's memory of the same attribute ("Ana's family drives a Corsa").
_HOME_HAS = re.compile(
    r"\bbased\s+in\b|\b(?:relocated|emigrated)\b|"
    r"\bmoving\s+(?:out\s+|back\s+)?(?:to|house|home)\b|"
    r"\bwe\s+are\s+(?:now\s+|still\s+|currently\s+)?in\s+(?-i:[A-Z])|"
    r"\b(?:drive|drives|driving)\s+(?:a|an)\b|\btraded\s+in\b|"
    r"\b(?:supplier|provider|broadband|wi-?fi)\b|\bfor\s+(?:the\s+)?internet\b|"
    r"\b(?:energy|electricity|gas|internet|phone|mobile)\s+(?:company|tariff|bill|contract|"
    r"deal)\b|\bsubscri(?:be|bed|bes|bing|ption)\b", re.I)
#: A group met as company, not as "we": "with the neighbours", "had friends over".
_WITH_GROUP = re.compile(r"\b(?:with|had|have|having|invited|hosted|met|visited|saw)\s+"
                         r"(?:(?:the|my|our|some|a few|a couple of|a bunch of|"
                         r"lots of|all|\w+'s)\s+)?(?:\w+\s+)?$", re.I)
#: "We" of the two people talking: "we both", "both of us", "the two of us".
_BOTH = re.compile(r"\bwe\s+(?:\w+\s+){0,2}?both\b|\bboth of us\b|\bthe two of us\b", re.I)


#: Prefixes that make a past form of another ("retook", "overcame", "mistook", "rebuilt").
_PREFIXES = ("re", "over", "under", "mis", "out", "with", "up", "fore")


def _prefixed_past(low: str) -> bool:
    return any(low.startswith(p) and low[len(p):] in _PAST for p in _PREFIXES)


def _third_singular(verb: str) -> str:
    low = verb.lower()
    if low in _IRREGULAR:
        return _IRREGULAR[low]
    if low in _MODALS or low.endswith(("ed", "s")) or ends_as_ing(low) or not low.isalpha() or \
            low.endswith("ly") and low not in _LY_VERBS or \
            low in _NOT_VERBS or _prefixed_past(low):
        return verb
    if low.endswith(("sh", "ch", "x", "z", "o")):
        return verb + "es"
    if len(low) > 2 and low.endswith("y") and low[-2] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"


#: A habit or the present said around a verb whose past is its base ("read", "put", "cut",
#: "hit", "set", "quit"): "I read the Guardian every morning" is "Ana reads ...", "I usually
#: cut my own hair" "Ana usually cuts ..."; with none, or with a time of the past too ("I read
#: it last week", "I quit smoking"), the form is the past's as often as not and stays as said.
_HABIT_ADVERBS = re.compile(r"\b(?:always|usually|often|sometimes|rarely|seldom|generally|"
                            r"occasionally|mostly|normally|regularly|typically|still|"
                            r"currently|now)\b", re.I)
_HABIT_TIMES = re.compile(
    r"\b(?:(?:every|each)\s+(?:other\s+|single\s+)?(?:day|morning|afternoon|evening|night|"
    r"week|weekend|weekday|weeknight|month|year|time|monday|tuesday|wednesday|thursday|friday|saturday|sunday)|"
    r"most\s+(?:days|mornings|evenings|nights|weeks|weekends)|daily|nightly|weekly|monthly|"
    r"(?:once|twice|\w+\s+times)\s+(?:a|per)\s+(?:day|week|month|year)|these\s+days|"
    r"nowadays|at\s+the\s+moment|on\s+(?:mondays|tuesdays|wednesdays|thursdays|fridays|"
    r"saturdays|sundays|weekends|weekdays))\b", re.I)
_PAST_TIMES = re.compile(r"\b(?:yesterday|ago|last\s+\w+|earlier|used\s+to|in\s+(?:19|20)\d\d|"
                         r"when\s+(?:i|we)\s+(?:was|were))\b", re.I)


def _habitual(adverbs: str, text: str) -> bool:
    """Whether a verb of :data:`_AMBIGUOUS_PAST` after ``adverbs`` in ``text`` is a present
    habit (:data:`_HABIT_ADVERBS`, :data:`_HABIT_TIMES`; no :data:`_PAST_TIMES`)."""
    return bool(_HABIT_ADVERBS.search(adverbs) or _HABIT_TIMES.search(text)) and \
        not _PAST_TIMES.search(text)


#: Verbs that end as adverbs do: "I rely on them" is "Ana relies", not an adverb before a
#: verb "on".
_LY_VERBS = frozenset("rely apply reply supply imply comply multiply fly ally rally tally "
                      "bully".split())
_LY = r"(?!(?:" + "|".join(sorted(_LY_VERBS)) + r")\b)\w+ly"
#: Between a subject and its verb, besides one-word adverbs: "I no longer work at X" is
#: "Ana no longer works at X".
_ADVERB_PHRASES = r"no\s+longer|"
_SUBJECT_I = re.compile(r"\bI\b((?:\s+(?:" + _ADVERB_PHRASES
                        + "|".join(sorted(_ADVERBS, key=len, reverse=True))
                        + r"|" + _LY + r"))*)\s+([A-Za-z']+)")
_SUBJECT_WE = re.compile(r"\b[Ww]e\b((?:\s+(?:" + "|".join(sorted(_ADVERBS, key=len, reverse=True))
                         + r"|" + _LY + r"))*)\s+([A-Za-z']+)")


#: A preposition of place or time right before a capitalised word: "during Thanksgiving",
#: "in Lisbon" name no one who could be "we" (unlike "with Sam").
_PLACE_OR_TIME = re.compile(r"\b(?:during|on|in|at|for|since|after|before|until|by|from|to|"
                            r"of|over|around|near|across|through)\s+(?:the\s+)?$", re.I)


def _one_other(text: str, who: str) -> str | None:
    """The one person ``text`` names besides ``who``, if exactly one (a capitalised word
    that does not open the text, a sentence or a clause)."""
    if re.search(r"\b[A-Z][a-z]+,? (?:and|&) [A-Z][a-z]+\b", text):
        return None     # "Sam and Jo came over, we ...": more than one
    named = {m[0] for m in re.finditer(r"(?<![.!?,;:-] )(?<!^)(?<!\S)[A-Z][a-z]+\b", text)
             if m[0] != who and m[0].lower() not in _NOT_NAMES and
             not _PLACE_OR_TIME.search(text[:m.start()])}
    return named.pop() if len(named) == 1 else None


_SOMEONE_NAMED = re.compile(r"\b(?:someone|somebody|a (?:guy|girl|man|woman|person|boy))"
                            r"(?P<t> now| new)?,?\s+(?:his|her|their) name is "
                            r"(?P<n>[A-Z][a-z]+)\b")
#: A pair opening a clause as its subject, "I" second: "Chloe and I have ...".
_PAIR_I = re.compile(r"((?:^|,\s+|\b(?:so|and|but|then|now|because|since|when|"
                     r"[A-Za-z]*(?:days|nights|mornings|evenings|weekends))\s+)"
                     r"(?:(?:[Mm]y|[Oo]ur|[Tt]he)\s+[\w-]+(?:\s+[A-Z][a-z]+)?|[A-Z][a-z]+)"
                     r"\s+and\s+)"
                     r"I\b(?=\s+(?:\w+ly\s+|just\s+|have\s+|had\s+)*\w)")
#: "We" of a couple: the verbs of two people's relationship.
_COUPLE = re.compile(r"\b[Ww]e(?=\s+(?:(?:have|had|just|finally|officially|recently|)\s*)*"
                     r"(?:broke up|split up|separated|got divorced|got engaged|got married|"
                     r"are getting married|are engaged|are dating|started dating|are together|"
                     r"have been together|are no longer together)\b)")
#: Capitalised words that are not a person's name.
_NOT_NAMES = frozenset("""
i so and but then after when sadly well yes no oh ok anyway also actually finally today
yesterday last this my our the a an we it he she they tomorrow tonight what when where
how why hey hi thanks thank wow great please sorry just now here there on in at for from
with after before during since until by to of
monday tuesday wednesday thursday friday saturday sunday january february march april may
june july august september october november december christmas easter
""".split())


def _literal(text: str) -> Callable[[re.Match[str]], str]:
    """A replacement that is ``text`` itself, never a template (a name may hold ``\\1``)."""
    return lambda _: text


def _group(text: str) -> bool:
    """Whether ``text`` names a group of the speaker's that "we" could be (friends, a
    team, a class); not one met as company ("with the neighbours")."""
    return any(not _WITH_GROUP.search(text[:m.start()]) for m in _GROUP.finditer(text))


#: The other person's family, home or pets ("Your family trip must have been great"):
#: words of home that say nothing of who the speaker's "we" is.
_YOURS = re.compile(r"\b(?:your|yours)\s+(?:(?:own|new|little|whole|lovely)\s+)?[\w'-]+", re.I)


def _mine(text: str) -> str:
    """``text`` without the other person's family, home or pets (``_YOURS``)."""
    return _YOURS.sub(" ", text)


def household(text: str) -> bool:
    """Whether "we" in ``text`` is the speaker's household: it speaks of family, home or
    pets ("we have a cat", "we moved house", "me and the kids"), or of home life and no
    other group of the speaker's ("we go camping every Labor Day weekend", "we've got a
    cockatiel")."""
    text = _mine(text)
    return bool(_HOUSEHOLD.search(text)) or \
        bool(_HOME_LIFE.search(text) or _HOME_HAS.search(text)) and not _group(text)


def household_of(sentence: str, turn: str) -> bool:
    """Whether "we" in ``sentence`` of ``turn`` is the speaker's household: the sentence
    speaks of family, home or pets; or of home life, and the turn names no other group
    of the speaker's; or the turn speaks of family, home or pets and names no group ("We
    went camping" after "My family's been great"; not "We usually watch movies" after "I
    love spending time with the friends I have")."""
    sentence, turn = _mine(sentence), _mine(turn)
    if _HOUSEHOLD.search(sentence):
        return True
    if (_HOME_LIFE.search(sentence) or _HOME_HAS.search(sentence)) and \
            not _group(sentence) and \
            not _GROUP.search(turn.replace(sentence, " ")):
        # A group met as company counts only beside the "we" it is not ("we had a
        # barbecue with the neighbours"); elsewhere in the turn, it may be who "we" are.
        return True
    return bool(_HOUSEHOLD.search(turn)) and not _GROUP.search(turn)


#: Placeholders for the speaker's mentions as an owner (my/our, mine/ours), written out
#: once a memory's sentences are narrated (:func:`_resolve`). Private-use characters:
#: never in what people type.
_POSS, _MINE = "\ue001", "\ue002"
#: ... but a turn can carry them anyway (pasted from an app that uses the private-use area,
#: or sent to corrupt): read as the speaker's mentions, each would come out "their" or
#: "<name>'s". They mean nothing to a reader, so :func:`narrate` drops them on the way in.
_UNMARK = str.maketrans("", "", _POSS + _MINE)
#: A third-person plural pronoun of the speaker's own words: "their" there is someone
#: else's, so the speaker's stays the name ("my parents said they loved my garden").
_THEY = re.compile(r"\b(?:they|them|their|theirs|themselves)\b", re.I)


class Mentions:
    """Whether a memory has named its speaker yet, across its sentences."""

    def __init__(self) -> None:
        self.named = False


#: What follows an owner's "'s" (not the "'s" of "is": "my journal's pretty much my rock",
#: "my son's ok", "my hard work's paying off"; nor a thing named by its owner alone, "my
#: master's and a PhD"): a word that is no article, adverb, state, verb form, preposition
#: or conjunction.
_OWNED = (r"(?!(?:a|an|the|been|being|not|so|too|pretty|really|very|just|always|never|still|"
          r"now|ok|okay|fine|great|good|all|back|here|there|gone|got|going|doing|done|my|your|"
          r"our|his|her|their|its|in|on|at|with|from|of|to|for|about|like|more|less|over|and|or|"
          r"but|then|as|because|so|that|which|who|when|where|while|since|if|than|yet)\b)"
          r"(?![\w-]+(?:ing|ly)\b)\w")


def _resolve(marked: str, who: str, said: Mentions, pronouns: bool) -> str:
    """``marked`` with the owner's placeholders written out: "<name>'s" until the name
    has been said, "their"/"theirs" after it ("Xiomara is the tallest in their family").
    The speaker acting or acted on keeps the name: "they" would need the verb changed and
    could be anyone plural, and "them" for "me" matched LoCoMo's facts less (recall .554
    against .556 at 0.6). Without ``pronouns`` (the sentence has another "their") the
    name stays everywhere."""
    def write(m: re.Match[str]) -> str:
        if m["lit"] is not None:
            said.named = True
            return m["lit"]
        later, said.named = pronouns and said.named and m["chain"] is None, True
        if later:
            return "their" if m["kind"] == _POSS else "theirs"
        return f"{who}'s"

    # An owner of an owner ("my dad's old Volvo") keeps the name: "their dad's old Volvo"
    # could be anyone's dad, and the speaker's people are what such a memory is about.
    mention = re.compile(rf"(?P<lit>\b{re.escape(who)}(?:'s)?(?![\w']))|(?P<kind>[{_POSS}{_MINE}])"
                         rf"(?P<chain>(?<={_POSS})(?=\s+(?:[\w-]+\s+)?[\w-]+'s\s+{_OWNED}))?")
    out = mention.sub(write, marked)
    # An owner opening a sentence: "... camping trip. Their family roasts marshmallows".
    return re.sub(r"(^|[.!?]\s+)(their|theirs)\b", lambda m: m[1] + m[2].capitalize(), out)


def narrate(text: str, who: str, home: bool | None = None, partner: str | None = None,
            said: Mentions | None = None) -> str:
    """A cleaned first-person sentence in the third person about ``who``.

    "I love my dog" -> "Ana loves their dog": I/me are the name, and so is the first
    my/our; a later one is "their" (the speaker's gender is unknown; a memory that repeats
    a rare name is the best match of any search about that person: "Ana is the tallest in
    Ana's family" for "Where does Ana work?"). ``said`` carries that across the sentences
    of one memory (a fresh one per memory). "We" is the speaker's household where the
    words are of home, family or pets, or of home life (``home``, default
    :func:`household` of ``text``): "we have a cat" -> "Ana's family has a cat"; elsewhere
    "Ana and others" ("we can make a difference"); "me and my husband" -> "Ana and their
    husband"; our -> "<who>'s". With ``partner``, the one person the speaker talks to, "we
    both" is the two of them ("we both face the same challenges" -> "Jon and Gina both
    face the same challenges").
    """
    text, who = text.translate(_UNMARK), who.translate(_UNMARK)
    partner = partner and partner.translate(_UNMARK)
    said = Mentions() if said is None else said
    pronouns = not _THEY.search(text)
    out = _resolve(_marked(text, who, home, partner), who, said, pronouns)
    return out[:1].upper() + out[1:]


#: The speaker's own people named as company ("with my family", "with our kids").
_WITH_MINE = re.compile(r"\bwith\s+(?:my|our)\s+(?:\w+\s+)?(?:family|fam|kids|children|"
                        r"husband|wife|partner|parents|mom|mum|dad|son|daughter|sister|"
                        r"brother|boyfriend|girlfriend|grandparents)\b", re.I)
_WE_WITH = re.compile(r"\b(we)\b(?:\s+(are|were|have|had|do|did)\b)?", re.I)
_I_VERB = {"are": "I am", "were": "I was", "have": "I have", "had": "I had", "do": "I do",
           "did": "I did"}


def _marked(text: str, who: str, home: bool | None, partner: str | None) -> str:
    """``text`` in the third person, the speaker's mentions left as placeholders."""
    if partner and _BOTH.search(text) and not household(text) and \
            not re.search(r"\band I\b|\bme and\b", text, re.I):
        # Not "my husband and I, we both ...": that pair is named.
        pair = f"{who} and {partner}"
        text = re.sub(r"\b(b)oth of us\b", lambda m: f"{m[1]}oth {pair}", text, flags=re.I)
        text = re.sub(r"\bthe two of us\b", lambda _: pair, text, flags=re.I)
        text = re.sub(r"\b(?:we|us)\b", lambda _: pair, text, flags=re.I)
        text = re.sub(r"\b(?:our|ours)\b", lambda _: f"{pair}'s", text, flags=re.I)
    company, first = _WITH_MINE.search(text), _WE_WITH.search(text)
    if company and first and first.start() < company.start() and \
            not re.match(r"\s+(?:all|both|together)\b", text[first.end():]):
        # "we went camping with my family": the family is who "we" went with, so "we" is
        # the speaker ("Ana went camping with their family", not "Ana's family went
        # camping with their family").
        text = _WE_WITH.sub(lambda m: _I_VERB.get(m[2].lower(), f"I {m[2]}") if m[2]
                            else "I", text)
    home = household(text) if home is None else home
    if couple := _COUPLE.search(text):
        # "Tom moved out, we broke up": "we" is the speaker and the one named, not the
        # household (nor "others").
        named = [n for n in re.findall(r"\b[A-Z][a-z]+\b", text[:couple.start()])
                 if n not in (who, "I") and n.lower() not in _NOT_NAMES]
        pair = f"{who} and {named[-1]}" if len(set(named)) == 1 else f"{who} and a partner"
        text = text[:couple.start()] + pair + text[couple.start() + 2:]

    def agree(m: re.Match[str]) -> str:
        adverbs, verb = m.group(1), m.group(2)
        if verb.lower() == "need" and not re.match(r"\s+not\b", m.string[m.end():]):
            # A main verb unless "need not": "I need a jump start" is "Ana needs ...".
            return f"{who}{adverbs} {verb}s"
        if verb.lower() in _AMBIGUOUS_PAST and _habitual(adverbs, m.string):
            return f"{who}{adverbs} {verb}s"
        return f"{who}{adverbs} {_third_singular(verb)}"

    # "My girlfriend Chloe and I have been together": a pair's verb stays plural.
    text = _PAIR_I.sub(lambda m: m[1] + who, text)

    def agree_we(m: re.Match[str]) -> str:
        adverbs, verb = m.group(1), m.group(2)
        verb = "was" if verb.lower() == "were" else f"{verb}s" if \
            verb.lower() in _AMBIGUOUS_PAST and _habitual(adverbs, m.string) else \
            _third_singular(verb)
        return f"{_POSS} family{adverbs} {verb}"

    # "seeing someone now, his name is Marco": seeing Marco now.
    text = _SOMEONE_NAMED.sub(lambda m: m["n"] + (m["t"] or ""), text)
    out = _SUBJECT_I.sub(agree, text)
    if home:
        out = _SUBJECT_WE.sub(agree_we, out)
    # Replacements are functions: a speaker's name is text, never a pattern template.
    out = re.sub(r"\bI\b", lambda _: who, out)
    we = f"{_POSS} family" if home else f"{who} and others"
    first_we = re.search(r"\bwe\b", out, re.I)
    if not home and " we " in out and first_we and \
            (other := _one_other(out[:first_we.start()], who)):
        # "My friend Sam ..., we met at school": the subject "we" is the two of them. Only
        # someone named before the first "we" can be in it: "We paused Gousto, we cook
        # again" names what "we" acted on, not who "we" are.
        out = re.sub(r"\bwe\b", _literal(f"{who} and {other}"), out)
    for pattern, repl in (
            (r"\bmy\b", _POSS), (r"\bmine\b", _MINE), (r"\bmyself\b", "themselves"),
            (r"\bme\b", who), (r"\b(?:we|us)\b", we), (r"\bour\b", _POSS),
            (r"\bours\b", _MINE),
            (r"\bourselves\b", "themselves")):
        out = re.sub(pattern, _literal(repl), out, flags=re.I)
    return out


def kin(memories: Iterable[str], who: str) -> set[str]:
    """The names in ``who``'s memories of what is theirs ("Tamika's son Jaxon is in 2nd
    grade" -> Jaxon, "Horace's pet insurance is with Petplan" -> Petplan): their people,
    pets and the firms they deal with, whom they name without a "my"."""
    found: set[str] = set()
    for content in memories:
        if content.startswith(f"{who}'s "):
            found.update(n for n in re.findall(r"(?<=\s)[A-Z][a-z]+\b", content)
                         if n != who and n.lower() not in _STOP and n.lower() not in
                         _COMMON_NOT_NAMES and not time_phrase(n.lower()))
    return found
